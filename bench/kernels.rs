//! The scan kernels at each level this CPU has, in one run: `scan64` over 2^20 random
//! fingerprints at k = 0 to 18, the levels interleaved round by round, medians of 15 rounds;
//! a plain loop compiled with POPCNT as the reference an application would write.
//!
//!     cargo run --release --example kernels
//!
//! The library picks the best level once per process (`scan::kernels()`); `limit_kernels`
//! (hidden, for measurements like this one) caps it so every level runs in the same process.
use std::hint::black_box;
use std::time::Instant;

use simprint::test_hooks::limit_kernels;
use simprint::{kernels, Kernels};

#[path = "common.rs"]
mod common;
use common::{median, popcnt_scan};

#[path = "../tests/support/splitmix64.rs"]
mod splitmix64;
use splitmix64::SplitMix64;

fn main() {
    let n = 1usize << 20;
    let mut rng = SplitMix64(0x1234_5678_9abc_def0);
    let fps: Vec<u64> = (0..n).map(|_| rng.next()).collect();
    let best = kernels();
    let levels: Vec<Kernels> = [
        Kernels::Portable,
        Kernels::Popcnt,
        Kernels::Avx2,
        Kernels::Avx512,
    ]
    .into_iter()
    .filter(|&l| limit_kernels(l) == l)
    .collect();
    limit_kernels(best);
    println!("scan64 over {n} random fingerprints, medians of 15 rounds (µs, and 1e9 fingerprints/s); best here: {best}");
    for k in [0u32, 1, 2, 3, 4, 6, 9, 12, 18] {
        let mut times = vec![Vec::new(); levels.len() + 1];
        for round in 0..15 {
            let q = fps[round] ^ 0b111;
            for (i, &level) in levels.iter().enumerate() {
                limit_kernels(level);
                let t = Instant::now();
                black_box(simprint::scan64(black_box(q), black_box(&fps), k).len());
                times[i].push(t.elapsed().as_secs_f64() * 1e6);
            }
            let t = Instant::now();
            black_box(popcnt_scan(black_box(q), black_box(&fps), k));
            times[levels.len()].push(t.elapsed().as_secs_f64() * 1e6);
        }
        let names = levels.iter().map(|l| l.name()).chain(["POPCNT loop"]);
        let cells: Vec<String> = names
            .zip(&times)
            .map(|(name, t)| {
                let m = median(t);
                format!("{name} {m:.0} ({:.2})", n as f64 / m / 1e3)
            })
            .collect();
        println!("k = {k:2}: {}", cells.join(", "));
    }
    limit_kernels(best);
}
