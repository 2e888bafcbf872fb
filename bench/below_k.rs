//! Queries below the index's `k`: an index built for the largest `k` its queries will ask
//! (12 at 64 bits, the pair rule's at equal sizes and `new Index()`'s default), asked within
//! smaller `k` as the pair rule, the one-text rule and exact lookups ask it. On the sets and
//! queries `cargo bench --bench index` writes (a million mixed, random and real-text
//! fingerprints, 10,000 queries each), the `k` cases interleaved round by round; medians.
//!
//!     cargo bench --bench index              # writes the sets and queries once
//!     cargo bench --bench below_k            # SIMPRINT_K=12, SIMPRINT_QUERY_KS=0,3,6,9,11,12
//!
//! `SIMPRINT_KERNELS=portable|popcnt|avx2` caps the scan kernels as in bench/index.rs; the
//! header says which ran. Match counts are printed so two builds can be compared.
//! `SIMPRINT_ONE_BY_ONE=1` fills the index one `insert` at a time (as a Worker or `simprint
//! dedup` does: several segments) instead of one `insert_many`, times each segment's
//! fingerprints in an index of their own with its plan, and the whole again after `compact()`. `SIMPRINT_WIDTH=128` times a million random 128-bit fingerprints instead, with
//! half the queries stored ones with 0 to 11 bits flipped (defaults `SIMPRINT_K=23`, the
//! default 128-bit index's, and `SIMPRINT_QUERY_KS=0,6,12,17,20,23`).
use std::path::PathBuf;
use std::time::Instant;

use simprint::test_hooks::limit_kernels;
use simprint::{kernels, Fingerprint, Index, Kernels};

#[path = "common.rs"]
mod common;
use common::{describe, home, median};

#[path = "../tests/support/splitmix64.rs"]
mod splitmix64;
use splitmix64::SplitMix64;

const ROUNDS: usize = 5;

fn env_list(name: &str, default: &str) -> Vec<u32> {
    std::env::var(name)
        .unwrap_or_else(|_| default.to_string())
        .split(',')
        .filter_map(|k| k.trim().parse().ok())
        .collect()
}

fn read_u64(name: &str) -> Result<Vec<u64>, String> {
    let path: PathBuf = home().join(".cache/simprint/bench").join(name);
    let bytes = std::fs::read(&path).map_err(|e| {
        format!(
            "cannot read {}: {e}\nRun `cargo bench --bench index` first: it writes the sets and queries.",
            path.display()
        )
    })?;
    Ok(bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect())
}

fn main() -> Result<(), String> {
    if let Some(level) = std::env::var("SIMPRINT_KERNELS")
        .ok()
        .filter(|l| !l.is_empty())
    {
        let cap = match level.as_str() {
            "portable" => Kernels::Portable,
            "popcnt" => Kernels::Popcnt,
            "avx2" => Kernels::Avx2,
            other => {
                return Err(format!(
                    "SIMPRINT_KERNELS={other}: portable, popcnt or avx2"
                ))
            }
        };
        limit_kernels(cap);
    }
    let wide = std::env::var("SIMPRINT_WIDTH").is_ok_and(|v| v == "128");
    let width = if wide { 128 } else { 64 };
    let k = env_list("SIMPRINT_K", if wide { "23" } else { "12" })[0];
    let one_by_one = std::env::var("SIMPRINT_ONE_BY_ONE").is_ok_and(|v| v == "1");
    let default_ks = if wide {
        "0,6,12,17,20,23"
    } else {
        "0,3,6,9,11,12"
    };
    let query_ks: Vec<u32> = env_list("SIMPRINT_QUERY_KS", default_ks)
        .into_iter()
        .filter(|&q| q <= k)
        .collect();
    println!(
        "queries within k' on an index built for k = {k}, width {width}, N = 1000000; kernels: {:?}; medians of {ROUNDS} rounds (µs a query)",
        kernels()
    );
    let sets: &[&str] = if wide {
        &["random-128"]
    } else {
        &["mixed", "random", "realtext"]
    };
    for &set in sets {
        let (fps, queries) = if wide {
            random_128()
        } else {
            let fps: Vec<u128> = read_u64(&format!("{set}-1000000.u64"))?
                .into_iter()
                .map(u128::from)
                .collect();
            let queries = read_u64(&format!("queries-{set}-10000.u64"))?
                .into_iter()
                .map(u128::from)
                .collect();
            (fps, queries)
        };
        let queries: Vec<Fingerprint> = queries
            .into_iter()
            .map(|q| Fingerprint::new(q, width).unwrap())
            .collect();
        let mut index = Index::new(width, k).map_err(|e| e.to_string())?;
        let entries = fps
            .iter()
            .enumerate()
            .map(|(i, &v)| (i as u64, Fingerprint::new(v, width).unwrap()));
        if one_by_one {
            for (id, fp) in entries {
                index.insert(id, fp).map_err(|e| e.to_string())?;
            }
        } else {
            index.insert_many(entries).map_err(|e| e.to_string())?;
        }
        let label = format!("{set}, segments {}", index.segments());
        time(&index, &label, &queries, &query_ks)?;
        if one_by_one {
            // Each segment's fingerprints (inserted in order, so segment by segment) in an
            // index of their own with the segment's plan: what its probes cost alone.
            let mut start = 0;
            for s in 0..index.segments() {
                let info = index.segment(s).expect("a segment below the count");
                let mut own = Index::with_plan(info.plan.clone()).map_err(|e| e.to_string())?;
                own.insert_many(
                    (start..start + info.slots)
                        .map(|i| (i as u64, Fingerprint::new(fps[i], width).unwrap())),
                )
                .map_err(|e| e.to_string())?;
                start += info.slots;
                let label = format!(
                    "  segment {s} alone ({} slots, {})",
                    info.slots,
                    describe(&info.plan)
                );
                time(&own, &label, &queries, &query_ks)?;
            }
        }
        if one_by_one {
            let start = Instant::now();
            index.compact().map_err(|e| e.to_string())?;
            let label = format!(
                "{set}, compacted ({:.0} ms)",
                start.elapsed().as_secs_f64() * 1e3
            );
            time(&index, &label, &queries, &query_ks)?;
        }
    }
    Ok(())
}

/// A million random 128-bit fingerprints and 10,000 queries: stored ones with 0 to 11 bits
/// flipped and random ones, alternately.
fn random_128() -> (Vec<u128>, Vec<u128>) {
    let mut rng = SplitMix64(128);
    let mut wide = || (u128::from(rng.next()) << 64) | u128::from(rng.next());
    let fps: Vec<u128> = (0..1_000_000).map(|_| wide()).collect();
    let queries = (0..10_000usize)
        .map(|i| {
            if i % 2 == 1 {
                return wide();
            }
            let mut q = fps[(i * 7919) % fps.len()];
            for b in 0..i % 12 {
                q ^= 1 << (b * 11 % 128);
            }
            q
        })
        .collect();
    (fps, queries)
}

/// Medians over [`ROUNDS`] of each `k'`'s queries, the `k'` cases interleaved, printed on one
/// line with their match counts.
fn time(
    index: &Index,
    label: &str,
    queries: &[Fingerprint],
    query_ks: &[u32],
) -> Result<(), String> {
    let mut times = vec![Vec::new(); query_ks.len()];
    let mut matches = vec![0usize; query_ks.len()];
    for _ in 0..ROUNDS {
        for (c, &q) in query_ks.iter().enumerate() {
            let start = Instant::now();
            let mut found = 0;
            for &fp in queries {
                found += index.query_within(fp, q).map_err(|e| e.to_string())?.len();
            }
            times[c].push(start.elapsed().as_secs_f64() * 1e6 / queries.len() as f64);
            matches[c] = found;
        }
    }
    let cells: Vec<String> = query_ks
        .iter()
        .zip(&times)
        .zip(&matches)
        .map(|((q, t), m)| format!("k' = {q}: {:.2} ({m} matches)", median(t)))
        .collect();
    println!("{label:<9} {}", cells.join(" | "));
    Ok(())
}
