//! gaoya's SimHash index on the sets bench/index.rs writes, as a peer of simprint's index.
//!
//!     cargo bench --bench index                                              # writes the sets
//!     cargo run --release --manifest-path bench/peers/Cargo.toml --bin index
//!
//! gaoya 0.2.2's `SimHashIndex::new(blocks, d)` builds the permuted tables of Manku et al.
//! (`C(blocks, d)` tables keyed by `blocks − d` blocks) and keeps candidates at distance
//! *below* `d`; so it finds everything within `k` with `d = k + 1`, and `blocks = k + 2`
//! gives the fewest tables (`k + 2`, keyed by one block of `64 / (k + 2)` bits). Built one
//! insert at a time (one thread, as simprint's), each query one call, every answer checked
//! against the native run's match counts. Large k are slow (a bucket of a few bits holds a
//! large share of the set), so fewer queries are timed there.
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use gaoya::simhash::SimHashIndex;

#[path = "../../../common.rs"]
mod common;
use common::{home, median, percentile};

const QUERIES: usize = 10_000;

fn cache(name: &str) -> PathBuf {
    home().join(".cache/simprint/bench").join(name)
}

fn read_u64(name: &str) -> Vec<u64> {
    let path = cache(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}; run `cargo bench --bench index` first",
            path.display()
        )
    });
    bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
        .collect()
}

fn read_counts(name: &str) -> Vec<u32> {
    let bytes = std::fs::read(cache(name)).unwrap_or_default();
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap_or([0; 4])))
        .collect()
}

fn main() {
    let n: usize = std::env::var("SIMPRINT_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let ks: Vec<usize> = std::env::var("SIMPRINT_KS")
        .unwrap_or_else(|_| "3,6,9,12,15,18".into())
        .split(',')
        .filter_map(|k| k.trim().parse().ok())
        .collect();
    println!("gaoya 0.2.2 SimHashIndex (blocks = k + 2, d = k + 1), one thread; N = {n}");
    for (name, title) in [
        ("random", "random (splitmix64)"),
        (
            "realtext",
            "real text (clustered): windows of en.txt + zh.txt",
        ),
    ] {
        let fps = read_u64(&format!("{name}-{n}.u64"));
        let queries = read_u64(&format!("queries-{name}-{QUERIES}.u64"));
        println!("\n{title}, N = {n}");
        println!("k   tables  build ms  queries  median µs   p99 µs");
        for &k in &ks {
            let timed = match k {
                0..=6 => 1000,
                7..=9 => 200,
                _ => 20,
            };
            let native = read_counts(&format!("counts-{name}-{QUERIES}-k{k}.u32"));
            let t = Instant::now();
            let mut index = SimHashIndex::<u64, u64>::new(k + 2, k + 1);
            for (id, &fp) in (0u64..).zip(&fps) {
                index.insert(id, fp);
            }
            let build = t.elapsed().as_secs_f64() * 1e3;
            let mut times = Vec::with_capacity(timed);
            for (i, q) in queries.iter().take(timed).enumerate() {
                let t = Instant::now();
                let found = black_box(index.query(black_box(q))).len();
                times.push(t.elapsed().as_secs_f64() * 1e6);
                assert_eq!(
                    Some(found as u32),
                    native.get(i).copied(),
                    "gaoya disagrees with simprint on query {i} at k = {k}"
                );
            }
            println!(
                "{k:<3} {:>6}  {build:>8.0}  {timed:>7}  {:>9.1}  {:>7.1}",
                k + 2,
                median(&times),
                percentile(&times, 99.0)
            );
        }
    }
}
