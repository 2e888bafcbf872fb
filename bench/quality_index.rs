//! What the quality mode (128-bit fingerprints at their recommended k) costs in the index: a
//! million random 128-bit fingerprints, queries at the k the rule gives at 128 bits, natively.
//!
//!     cargo run --release --example quality_index        # SIMPRINT_KS=22,26,30 for other k
//!     SIMPRINT_REAL=1 cargo run --release --example quality_index   # real text: the quality
//!                                                  # mode's fingerprints of windows of the samples
//!     SIMPRINT_KERNELS=avx2|portable cargo run --release --example quality_index
//!     SIMPRINT_SUBSTRINGS=8 cargo run --release --example quality_index   # a multi-index plan
//!                                                  # of 8 substrings instead of the planner's
//!                                                  # (0: a scan)
//!
//! Prints, per k, the plan the index chose, its bytes per fingerprint, the build time and the
//! median and 99th-percentile query time (1,000 queries: half a stored fingerprint with up to
//! k/2 bits flipped, half random), and a plain 128-bit scan of the million for comparison.
//! bench/quality-index.mjs measures the same in wasm.
use std::time::{Duration, Instant};

use simprint::{scan128, Fingerprint, Index, Plan};

#[path = "../tests/support/splitmix64.rs"]
mod splitmix64;
use splitmix64::SplitMix64;

#[path = "common.rs"]
mod common;

/// Characters of a real-text window (`SIMPRINT_REAL=1`).
const WINDOW: usize = 1200;

const WIDTH: u32 = 128;
const QUERIES: usize = 1000;

fn wide(rng: &mut SplitMix64) -> u128 {
    (u128::from(rng.next()) << 64) | u128::from(rng.next())
}

fn percentile(mut xs: Vec<Duration>, p: f64) -> f64 {
    xs.sort_unstable();
    xs[((xs.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e6
}

fn main() {
    if let Ok(level) = std::env::var("SIMPRINT_KERNELS") {
        let max = match level.as_str() {
            "portable" => simprint::Kernels::Portable,
            "popcnt" => simprint::Kernels::Popcnt,
            "avx2" => simprint::Kernels::Avx2,
            _ => simprint::Kernels::Avx512,
        };
        simprint::test_hooks::limit_kernels(max);
    }
    let ks: Vec<u32> = std::env::var("SIMPRINT_KS")
        .ok()
        .map(|v| v.split(',').map(|k| k.trim().parse().unwrap()).collect())
        .unwrap_or_else(|| vec![22, 26, 30]);
    let n: usize = std::env::var("SIMPRINT_N")
        .ok()
        .map_or(1_000_000, |v| v.parse().unwrap());
    // A plan of one's own instead of the planner's: that many substrings, or a scan for 0.
    let substrings: Option<u32> = std::env::var("SIMPRINT_SUBSTRINGS")
        .ok()
        .map(|v| v.parse().unwrap());
    let mut rng = SplitMix64(0x5eed_0128);
    // SIMPRINT_REAL=1: the quality mode's fingerprints of n overlapping windows of the
    // mixed-text samples (near neighbours abound), and queries between two stored windows
    // instead of random values (bench/quality-index.mjs does the same in wasm).
    let real = std::env::var("SIMPRINT_REAL").as_deref() == Ok("1");
    let (text, starts) = if real {
        let text = common::SAMPLES
            .iter()
            .map(|(name, _)| {
                common::load_sample(name).expect("the corpus: python3 scripts/corpus.py")
            })
            .collect::<Vec<_>>()
            .join("\n");
        let mut starts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        starts.push(text.len());
        (text, starts)
    } else {
        (String::new(), Vec::new())
    };
    let step = (starts.len().saturating_sub(WINDOW + 1) / n).max(1);
    let quality = simprint::Fingerprinter::new(simprint::Options::quality()).unwrap();
    let window = |i: usize, shift: usize| {
        let from = (i * step + shift).min(starts.len() - 1 - WINDOW);
        quality
            .fingerprint(&text[starts[from]..starts[from + WINDOW]])
            .value()
    };
    let values: Vec<u128> = (0..n)
        .map(|i| if real { window(i, 0) } else { wide(&mut rng) })
        .collect();
    println!(
        "simprint index, native, width {WIDTH}; N = {n}{}; kernels {:?}; {QUERIES} queries (half a stored fingerprint with up to k/2 bits flipped, half {})",
        if real { format!(" quality-mode fingerprints of real text (windows every {step} characters)") } else { " random".into() },
        simprint::kernels(),
        if real { "windows between two stored ones" } else { "random" }
    );
    let fps: Vec<Fingerprint> = values
        .iter()
        .map(|&v| Fingerprint::new(v, WIDTH).unwrap())
        .collect();
    let queries: Vec<(u128, u32)> = (0..QUERIES)
        .map(|i| {
            if i % 2 == 1 {
                let other = if real {
                    window(rng.below(n as u64 - 1) as usize, step / 2)
                } else {
                    wide(&mut rng)
                };
                return (other, 0);
            }
            (values[rng.below(n as u64) as usize], 1)
        })
        .collect();
    // A scan: every fingerprint's distance, for comparison.
    let mut scans = Vec::new();
    for (q, _) in queries.iter().take(50) {
        let t = Instant::now();
        let hits = scan128(*q, &values, 0);
        std::hint::black_box(hits);
        scans.push(t.elapsed());
    }
    println!(
        "plain scan128 of the {n}: median {:.0} µs",
        percentile(scans, 0.5)
    );
    println!(
        "{:>3} | {:<44} | {:>9} | {:>8} | {:>10} | {:>10} | {:>8}",
        "k", "plan", "bytes/fp", "build s", "median µs", "p99 µs", "matches"
    );
    for k in ks {
        let t = Instant::now();
        let mut index = match substrings {
            None => Index::new(WIDTH, k).unwrap(),
            Some(0) => Index::with_plan(Plan::scan(WIDTH, k).unwrap()).unwrap(),
            Some(m) => Index::with_plan(Plan::multi_index(WIDTH, k, m).unwrap()).unwrap(),
        };
        index
            .insert_many((0..n as u64).zip(fps.iter().copied()))
            .unwrap();
        let build = t.elapsed();
        let plan = index.plan();
        let mut times = Vec::with_capacity(QUERIES);
        let mut matches = 0usize;
        let mut flips_rng = SplitMix64(u64::from(k));
        for &(q, near) in &queries {
            let mut q = q;
            if near == 1 {
                for _ in 0..flips_rng.below(u64::from(k / 2) + 1) {
                    q ^= 1u128 << flips_rng.below(128);
                }
            }
            let fp = Fingerprint::new(q, WIDTH).unwrap();
            let t = Instant::now();
            let m = index.query(fp).unwrap();
            times.push(t.elapsed());
            matches += m.len();
        }
        println!(
            "{k:>3} | {:<44} | {:>9.1} | {:>8.1} | {:>10.1} | {:>10.1} | {:>8}",
            format!("{:?}, {} blocks", plan.kind(), plan.blocks().len()),
            index.memory_bytes() as f64 / n as f64,
            build.as_secs_f64(),
            percentile(times.clone(), 0.5),
            percentile(times, 0.99),
            matches
        );
    }
}
