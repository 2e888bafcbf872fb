//! The index natively: build time, memory, query latency (median and p99) against the POPCNT
//! scan it replaces, all pairs and loading from bytes, on a million random and a million
//! clustered real-text fingerprints, and a million of both mixed (a tenth real text, issue
//! 30's set), at k = 3, 6, 9, 12, 15 and 18 (width 64), in one run.
//!
//!     python3 scripts/corpus.py          # fetch the corpus once
//!     cargo bench --bench index          # SIMPRINT_CORPUS=DIR to read another folder
//!
//! Environment: `SIMPRINT_KS=3,9` for other k; `SIMPRINT_N=100000` for another size;
//! `SIMPRINT_PAIRS=all` to time all pairs at every k (default 3 and 9), `none` for none;
//! `SIMPRINT_PLANS=1` to time every candidate plan at each k on the random set and fit the
//! planner's cost constants to them (how [`simprint::Costs`] were measured), with
//! `SIMPRINT_WIDTH=128` on a random set of 128-bit fingerprints (its `_128` prices);
//! `SIMPRINT_KERNELS=portable|popcnt|avx2` to run the library's scan kernels at most at that
//! level (the default is the best the CPU has).
//!
//! Plain `Instant` timing, not criterion: latency needs a p99, so each query is timed alone.
//! The k cases of a set are interleaved round by round, so the machine's noise falls on all of
//! them alike. Writes the sets and queries (little-endian u64) and the index's match counts
//! (and all-pairs counts) under ~/.cache/simprint/bench/ for bench/index.mjs,
//! bench/faiss_index.py, bench/hammingbird_index.py and the gaoya peer (bench/peers), and
//! reuses the real-text file while a sample of it still matches a fresh computation.
//!
//! `cargo bench` builds for the baseline x86-64 CPU; the library picks its scan kernels at run
//! time (POPCNT, AVX2, AVX-512), and the header says which ran. The reference scan is a plain
//! loop compiled with POPCNT for that one function, as an application without run-time
//! dispatch would have it; the library's own scan (`scan64`) is reported too.
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use simprint::test_hooks::limit_kernels;
use simprint::{kernels, Kernels};
use simprint::{scan128, scan64, Costs, Fingerprint, Index, Plan};

#[path = "common.rs"]
mod common;
use common::{describe, home, load_corpus, median, percentile, popcnt_scan};

const WIDTH: u32 = 64;
/// The k measured: `SIMPRINT_KS` (comma-separated), else 3, 6, 9, 12, 15, 18.
fn ks() -> Vec<u32> {
    std::env::var("SIMPRINT_KS")
        .ok()
        .map(|v| v.split(',').filter_map(|k| k.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![3, 6, 9, 12, 15, 18])
}
/// Fingerprints per set: `SIMPRINT_N`, else a million.
fn size() -> usize {
    std::env::var("SIMPRINT_N")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000)
}
const QUERIES: usize = 10_000;
/// The queries are timed in this many rounds, each round every k in turn.
const ROUNDS: usize = 5;
const SCAN_QUERIES: usize = 100;
const WINDOW_CHARS: (u64, u64) = (300, 800);
/// Cached fingerprints checked against a fresh computation before reuse.
const CACHE_SAMPLES: usize = 1000;

// bench/index.mjs uses the same seeds and generator, so its random set and queries are
// bit-identical to these.
const RANDOM_SEED: u64 = 0x5eed_0001;
const QUERY_SEED: u64 = 0x5eed_0002;
const TEXT_SEED: u64 = 0x5eed_0003;

#[path = "../tests/support/splitmix64.rs"]
mod splitmix64;
use splitmix64::SplitMix64;

/// The draws bench/index.mjs mirrors in BigInt arithmetic.
impl SplitMix64 {
    /// Uniform in `0..n` by multiply-shift (bias below 2^-40 for these `n`).
    fn scaled(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
}

fn cache_path(n: usize) -> PathBuf {
    home().join(format!(".cache/simprint/bench/realtext-{n}.u64"))
}

fn cache_file(name: &str) -> PathBuf {
    home().join(".cache/simprint/bench").join(name)
}

fn random_set(n: usize) -> Vec<u64> {
    let mut rng = SplitMix64(RANDOM_SEED);
    (0..n).map(|_| rng.next()).collect()
}

/// Issue 30's mix: the first tenth of the real-text set, then the random set's last nine
/// tenths. A store of real documents among unrelated ones: a few clustered buckets, the rest
/// even.
fn mixed_set(realtext: &[u64], random: &[u64]) -> Vec<u64> {
    let real = realtext.len() / 10;
    realtext[..real]
        .iter()
        .chain(&random[real..])
        .copied()
        .collect()
}

/// Byte ranges of `n` random windows of 300–800 characters.
fn windows(text: &str, n: usize) -> Vec<(usize, usize)> {
    let bounds: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let chars = (bounds.len() - 1) as u64;
    let mut rng = SplitMix64(TEXT_SEED);
    (0..n)
        .map(|_| {
            let len = WINDOW_CHARS.0 + rng.scaled(WINDOW_CHARS.1 - WINDOW_CHARS.0 + 1);
            let start = rng.scaled(chars - len + 1);
            (bounds[start as usize], bounds[(start + len) as usize])
        })
        .collect()
}

fn fingerprint64(text: &str) -> u64 {
    simprint::fingerprint(text).value() as u64
}

/// Fingerprints every window, on every core (this is set-up, not a measurement).
fn fingerprint_windows(text: &str, windows: &[(usize, usize)]) -> Vec<u64> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = windows.len().div_ceil(threads).max(1);
    let mut out = vec![0u64; windows.len()];
    std::thread::scope(|s| {
        for (ws, outs) in windows.chunks(chunk).zip(out.chunks_mut(chunk)) {
            s.spawn(move || {
                for (o, &(a, b)) in outs.iter_mut().zip(ws) {
                    *o = fingerprint64(&text[a..b]);
                }
            });
        }
    });
    out
}

fn read_cache(path: &Path, n: usize) -> Option<Vec<u64>> {
    let bytes = std::fs::read(path).ok()?;
    (bytes.len() == n * 8).then(|| {
        bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
            .collect()
    })
}

fn write_cache(path: &Path, fps: &[u64]) -> std::io::Result<()> {
    write_bytes(path, fps.iter().flat_map(|v| v.to_le_bytes()).collect())
}

fn write_bytes(path: &Path, bytes: Vec<u8>) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // Write then rename, so a reader never sees a half-written file.
    let tmp = path.with_extension("u64.tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// The real-text set: from the cache when a spread sample of it matches a fresh computation
/// (the corpus or the fingerprint may have changed), else computed and cached.
fn realtext_set(text: &str, n: usize) -> Result<Vec<u64>, String> {
    let path = cache_path(n);
    let windows = windows(text, n);
    let step = (n / CACHE_SAMPLES).max(1);
    if let Some(cached) = read_cache(&path, n) {
        let fresh = (0..n).step_by(step).all(|i| {
            let (a, b) = windows[i];
            cached[i] == fingerprint64(&text[a..b])
        });
        if fresh {
            println!("real text: {n} fingerprints from {}", path.display());
            return Ok(cached);
        }
        println!("real text: {} is stale; recomputing", path.display());
    }
    let t = Instant::now();
    let fps = fingerprint_windows(text, &windows);
    write_cache(&path, &fps).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!(
        "real text: fingerprinted {n} windows in {:.1} s, wrote {}",
        t.elapsed().as_secs_f64(),
        path.display()
    );
    Ok(fps)
}

/// Alternating: a stored fingerprint with 0–3 distinct random bits flipped, then a random value.
fn queries(fps: &[u64], count: usize) -> Vec<u64> {
    let mut rng = SplitMix64(QUERY_SEED);
    (0..count)
        .map(|i| {
            if i % 2 == 1 {
                return rng.next();
            }
            let base = fps[rng.scaled(fps.len() as u64) as usize];
            let flips = rng.scaled(4) as u32;
            let mut mask = 0u64;
            while mask.count_ones() < flips {
                mask |= 1 << rng.scaled(64);
            }
            base ^ mask
        })
        .collect()
}

fn fp(v: u64) -> Fingerprint {
    Fingerprint::new(u128::from(v), WIDTH).unwrap_or_else(|e| panic!("{e}"))
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// One k's index over a set and what was measured of it.
struct Case {
    k: u32,
    index: Index,
    build_ms: f64,
    times: Vec<f64>,
    counts: Vec<u32>,
    popcnt_scan: Vec<f64>,
    library_scan: Vec<f64>,
    pairs: Option<(f64, u64)>,
    from_bytes_ms: f64,
}

fn measure_set(name: &str, fps: &[u64], ks: &[u32], pairs_ks: &[u32]) -> Vec<Case> {
    let n = fps.len();
    let items: Vec<(u64, Fingerprint)> = (0u64..).zip(fps.iter().map(|&v| fp(v))).collect();
    let mut cases: Vec<Case> = ks
        .iter()
        .map(|&k| {
            let t = Instant::now();
            let mut index = Index::new(WIDTH, k).unwrap_or_else(|e| panic!("{e}"));
            index
                .insert_many(items.iter().copied())
                .unwrap_or_else(|e| panic!("{e}"));
            let build_ms = ms(t.elapsed());
            assert_eq!(index.len(), n);
            Case {
                k,
                index,
                build_ms,
                times: Vec::with_capacity(QUERIES),
                counts: vec![0; QUERIES],
                popcnt_scan: Vec::new(),
                library_scan: Vec::new(),
                pairs: None,
                from_bytes_ms: f64::NAN,
            }
        })
        .collect();
    drop(items);

    let qs = queries(fps, QUERIES);
    let qfps: Vec<Fingerprint> = qs.iter().map(|&v| fp(v)).collect();
    write_cache(&cache_file(&format!("queries-{name}-{QUERIES}.u64")), &qs)
        .unwrap_or_else(|e| panic!("cannot write the queries: {e}"));
    // Warm-up: page in the tables.
    for case in &cases {
        for &q in qfps.iter().step_by(10) {
            black_box(case.index.query(q).map(|r| r.len()).ok());
        }
    }
    let per_round = QUERIES.div_ceil(ROUNDS);
    for round in 0..ROUNDS {
        let range = round * per_round..((round + 1) * per_round).min(QUERIES);
        for case in &mut cases {
            for i in range.clone() {
                let t = Instant::now();
                // The result is dropped inside the timing: freeing it is part of a query's cost.
                let found = black_box(case.index.query(black_box(qfps[i])).map(|r| r.len()));
                case.times.push(us(t.elapsed()));
                case.counts[i] = found.map_or(u32::MAX, |c| c as u32);
            }
        }
    }
    // The scans are the reference: the index must find exactly what they find.
    for (&q, &f) in qs.iter().zip(&qfps).take(SCAN_QUERIES) {
        for case in &mut cases {
            let t = Instant::now();
            let popcnt = black_box(popcnt_scan(black_box(q), black_box(fps), case.k));
            case.popcnt_scan.push(us(t.elapsed()));
            let t = Instant::now();
            let library = black_box(scan64(black_box(q), black_box(fps), case.k)).len();
            case.library_scan.push(us(t.elapsed()));
            let by_index = case.index.query(f).map_or(usize::MAX, |r| r.len());
            assert_eq!(library, by_index, "index and scan disagree on {q:#018x}");
            assert!(popcnt.is_none_or(|c| c == library));
        }
    }
    for case in &mut cases {
        let counts: Vec<u8> = case.counts.iter().flat_map(|c| c.to_le_bytes()).collect();
        let path = cache_file(&format!("counts-{name}-{QUERIES}-k{}.u32", case.k));
        write_bytes(&path, counts).unwrap_or_else(|e| panic!("cannot write the counts: {e}"));
        if pairs_ks.contains(&case.k) {
            let t = Instant::now();
            let mut count = 0u64;
            case.index
                .for_each_pair(case.k, |_| {
                    count += 1;
                    core::ops::ControlFlow::Continue(())
                })
                .unwrap_or_else(|e| panic!("{e}"));
            case.pairs = Some((ms(t.elapsed()), count));
            // For the peers' all-pairs checks (bench/hammingbird_index.py).
            let path = cache_file(&format!("pairs-{name}-{n}-k{}.u64", case.k));
            write_bytes(&path, count.to_le_bytes().to_vec())
                .unwrap_or_else(|e| panic!("cannot write the pair count: {e}"));
        }
        let bytes = case.index.to_bytes();
        let t = Instant::now();
        let loaded = Index::from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
        case.from_bytes_ms = ms(t.elapsed());
        assert_eq!(loaded.len(), n);
    }
    cases
}

const ROWS: [&str; 16] = [
    "plan",
    "build (ms)",
    "memory per fingerprint (bytes)",
    "query median (µs)",
    "query p99 (µs)",
    "p99 / median",
    "query median, stored ±0–3 bits (µs)",
    "query median, random (µs)",
    "matches per query (mean)",
    "POPCNT scan median (µs)",
    "POPCNT scan / query median",
    "simprint scan median (µs)",
    "simprint scan / query median",
    "all pairs (ms)",
    "pairs within k",
    "from_bytes (ms)",
];

fn column(case: &Case) -> Vec<String> {
    let n = case.index.len();
    let near: Vec<f64> = case.times.iter().copied().step_by(2).collect();
    let random: Vec<f64> = case.times.iter().copied().skip(1).step_by(2).collect();
    let query = median(&case.times);
    let p99 = percentile(&case.times, 99.0);
    let popcnt = median(&case.popcnt_scan);
    let library = median(&case.library_scan);
    let matches = case.counts.iter().map(|&c| f64::from(c)).sum::<f64>() / QUERIES as f64;
    let (pairs_ms, pairs) = case.pairs.map_or(("-".into(), "-".into()), |(t, c)| {
        (format!("{t:.0}"), c.to_string())
    });
    vec![
        describe(&case.index.plan()),
        format!("{:.0}", case.build_ms),
        format!("{:.1}", case.index.memory_bytes() as f64 / n as f64),
        format!("{query:.2}"),
        format!("{p99:.2}"),
        format!("{:.1}", p99 / query),
        format!("{:.2}", median(&near)),
        format!("{:.2}", median(&random)),
        format!("{matches:.2}"),
        format!("{popcnt:.0}"),
        format!("{:.0}", popcnt / query),
        format!("{library:.0}"),
        format!("{:.0}", library / query),
        pairs_ms,
        pairs,
        format!("{:.0}", case.from_bytes_ms),
    ]
}

fn print_table(title: &str, header: &[String], rows: &[Vec<String>]) {
    let mut all = vec![header.to_vec()];
    all.extend(rows.iter().cloned());
    let width = |i: usize| all.iter().map(|r| r[i].chars().count()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..all[0].len()).map(width).collect();
    println!("\n{title}");
    for (i, row) in all.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, &w))| {
                let pad = " ".repeat(w - cell.chars().count());
                if c == 0 {
                    format!("{cell}{pad}")
                } else {
                    format!("{pad}{cell}")
                }
            })
            .collect();
        println!("{}", cells.join("  "));
        if i == 0 {
            let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
            println!("{}", rule.join("  "));
        }
    }
}

fn print_cases(title: &str, cases: &[Case]) {
    let mut header = vec!["measure".to_string()];
    header.extend(cases.iter().map(|c| format!("k = {}", c.k)));
    let columns: Vec<Vec<String>> = cases.iter().map(column).collect();
    let rows: Vec<Vec<String>> = ROWS
        .iter()
        .enumerate()
        .map(|(r, name)| {
            let mut row = vec![name.to_string()];
            row.extend(columns.iter().map(|c| c[r].clone()));
            row
        })
        .collect();
    print_table(title, &header, &rows);
}

/// A plan's probes and candidates at `n`, the candidates split by tables that fold and tables
/// of whole fingerprints, as the cost model counts them.
fn model_terms(plan: &Plan, n: usize) -> [f64; 3] {
    let mut terms = [0.0; 3];
    for t in plan.describe(n) {
        terms[0] += t.probes as f64;
        terms[if t.folded { 2 } else { 1 }] += t.candidates;
    }
    terms
}

/// Least squares by relative error: `x` minimizing `Σ ((a·x − t) / t)²`, by the normal
/// equations and Gaussian elimination (three unknowns).
fn fit(points: &[([f64; 3], f64)]) -> [f64; 3] {
    let mut m = [[0.0f64; 4]; 3];
    for (a, t) in points {
        let w = 1.0 / (t * t);
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] += w * a[i] * a[j];
            }
            m[i][3] += w * a[i] * t;
        }
    }
    for i in 0..3 {
        let pivot = (i..3)
            .max_by(|&x, &y| m[x][i].abs().total_cmp(&m[y][i].abs()))
            .unwrap_or(i);
        m.swap(i, pivot);
        for r in 0..3 {
            if r != i && m[i][i] != 0.0 {
                let f = m[r][i] / m[i][i];
                let pivot_row = m[i];
                for (x, p) in m[r].iter_mut().zip(pivot_row).skip(i) {
                    *x -= f * p;
                }
            }
        }
    }
    [0, 1, 2].map(|i| {
        if m[i][i] == 0.0 {
            f64::NAN
        } else {
            m[i][3] / m[i][i]
        }
    })
}

/// `SIMPRINT_WIDTH` for the plan sweep: 64 (the default) or 128, the quality mode's width.
fn sweep_width() -> u32 {
    std::env::var("SIMPRINT_WIDTH")
        .ok()
        .and_then(|w| w.parse().ok())
        .filter(|&w| w == 64 || w == 128)
        .unwrap_or(WIDTH)
}

/// `n` random 128-bit fingerprints: two draws of the random set's generator each, the high
/// word first (bench/index.mjs reads them from the file `write_cache` makes of the words).
fn random_set_128(n: usize) -> Vec<u128> {
    let mut rng = SplitMix64(RANDOM_SEED);
    (0..n)
        .map(|_| (u128::from(rng.next()) << 64) | u128::from(rng.next()))
        .collect()
}

/// Queries for the sweep: at 64 bits [`queries`] itself (what the 64-bit constants were
/// fitted with), at 128 the same mix, half a stored value with 0 to 3 bits flipped, half
/// random.
fn sweep_queries(values: &[u128], width: u32, count: usize) -> Vec<u128> {
    if width == 64 {
        let fps: Vec<u64> = values.iter().map(|&v| v as u64).collect();
        return queries(&fps, count).into_iter().map(u128::from).collect();
    }
    let mut rng = SplitMix64(QUERY_SEED);
    (0..count)
        .map(|i| {
            if i % 2 == 1 {
                return (u128::from(rng.next()) << 64) | u128::from(rng.next());
            }
            let base = values[rng.scaled(values.len() as u64) as usize];
            let flips = rng.scaled(4) as u32;
            let mut m = 0u128;
            while m.count_ones() < flips {
                m |= 1 << rng.scaled(u64::from(width));
            }
            base ^ m
        })
        .collect()
}

/// Every plan the planner weighs at `k` (with at most 8 tables and a cost estimate under a
/// scan's, twice a scan's at 128 bits), built over `values` (fingerprints of `width` bits) and timed on the same
/// queries, round by round; then the fit of `time = probe_ns × probes + check_ns × whole
/// candidates + check_folded_ns × folded candidates` over them, and the scan's price per
/// fingerprint from the library's scan. The plans are chosen with the portable constants, so
/// every kernel level times the same set.
fn sweep_plans(width: u32, values: &[u128], ks: &[u32]) {
    let n = values.len();
    let qs = sweep_queries(values, width, 2000);
    let qfps: Vec<Fingerprint> = qs
        .iter()
        .map(|&q| Fingerprint::new(q, width).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let mut points = Vec::new();
    // The plans within twice the fastest table plan of their k, but those reading a table
    // whole: the plans the planner's choice is made among, which a fit over every plan
    // (dominated by plans of thousands of probes) misprices. The 128-bit prices are this fit.
    let mut near = Vec::new();
    let mut rows = Vec::new();
    for &k in ks {
        let fixed = Costs::PORTABLE;
        let scan_cost = Plan::scan(width, k).map_or(f64::MAX, |p| p.estimate_with(n, fixed).nanos);
        let mut plans: Vec<Plan> = Vec::new();
        for b in k + 1..=k + 3 {
            plans.extend(Plan::with_blocks(width, k, b));
        }
        for m in 1..=10 {
            plans.extend(Plan::multi_index(width, k, m));
        }
        for b in 3..=12 {
            for c in 2..b {
                plans.extend(
                    Plan::combined(width, k, b, c)
                        .ok()
                        .filter(|p| p.tables()[0].radius > 0),
                );
            }
        }
        // At 128 bits up to twice the scan's estimate: the portable prices there are the
        // 64-bit ones, which misprice wider plans (what a sweep at 128 bits is for).
        let limit = if width == 128 { 2.0 } else { 1.0 } * scan_cost;
        plans.retain(|p| p.tables().len() <= 8 && p.estimate_with(n, fixed).nanos < limit);
        plans.dedup_by(|a, b| a.tables() == b.tables());
        plans.extend(Plan::scan(width, k));
        let auto = Plan::auto(width, k, n);
        let indexes: Vec<Index> =
            plans
                .iter()
                .map(|p| {
                    let mut index = Index::with_plan(p.clone()).unwrap_or_else(|e| panic!("{e}"));
                    index
                        .insert_many((0u64..).zip(values.iter().map(|&v| {
                            Fingerprint::new(v, width).unwrap_or_else(|e| panic!("{e}"))
                        })))
                        .unwrap_or_else(|e| panic!("{e}"));
                    index
                })
                .collect();
        let mut times = vec![Vec::new(); plans.len()];
        for chunk in qfps.chunks(qfps.len() / ROUNDS) {
            for (index, t) in indexes.iter().zip(&mut times) {
                for &q in chunk {
                    let start = Instant::now();
                    black_box(index.query(black_box(q)).map(|r| r.len()).ok());
                    t.push(us(start.elapsed()) * 1000.0);
                }
            }
        }
        drop(indexes);
        let fastest = times
            .iter()
            .zip(&plans)
            .filter(|(_, p)| !p.is_scan())
            .map(|(t, _)| median(t))
            .fold(f64::INFINITY, f64::min);
        for (plan, t) in plans.iter().zip(&times) {
            let e = plan.estimate_with(n, Costs::here());
            let measured = median(t);
            if !plan.is_scan() {
                points.push((model_terms(plan, n), measured));
                // A table read whole (radius at least its bucket bits) is a scan by another
                // name, whose candidates stream at a scan's rate: not what a probe's are.
                let whole = plan.describe(n).iter().any(|t| t.candidates >= n as f64);
                if measured <= 2.0 * fastest && !whole {
                    near.push((model_terms(plan, n), measured));
                }
            }
            rows.push(vec![
                k.to_string(),
                format!(
                    "{}{}",
                    describe(plan),
                    if *plan == auto { " (auto)" } else { "" }
                ),
                plan.tables().len().to_string(),
                format!("{:.0}", e.probes),
                format!("{:.0}", e.candidates),
                format!("{:.1}", e.nanos / 1000.0),
                format!("{:.1}", measured / 1000.0),
            ]);
        }
    }
    let header: Vec<String> = [
        "k",
        "plan",
        "tables",
        "probes",
        "candidates",
        "model µs",
        "measured µs",
    ]
    .map(String::from)
    .to_vec();
    print_table(
        &format!("every plan at N = {n}, width {width} (random set; median of 2000 queries)"),
        &header,
        &rows,
    );
    let [probe, check, folded] = fit(&points);
    // The scan's price per fingerprint: the library's scan at k = 9, median of 200 queries.
    // The 64-bit scan reads words; a 128-bit sweep needs no copy.
    let words: Vec<u64> = if width == 64 {
        values.iter().map(|&v| v as u64).collect()
    } else {
        Vec::new()
    };
    let scan_ns: Vec<f64> = qs
        .iter()
        .take(200)
        .map(|&q| {
            let start = Instant::now();
            if width == 128 {
                black_box(scan128(black_box(q), black_box(values), 9).len());
            } else {
                black_box(scan64(black_box(q as u64), black_box(&words), 9).len());
            }
            us(start.elapsed()) * 1000.0 / n as f64
        })
        .collect();
    println!(
        "fit by relative error over {} plans with {} kernels, width {width}: probe_ns = \
         {probe:.1}, check_ns = {check:.2}, check_folded_ns = {folded:.2}; scan_ns = {:.3} \
         (the planner uses {:?})",
        points.len(),
        kernels(),
        median(&scan_ns),
        Costs::here()
    );
    let [probe, check, folded] = fit(&near);
    println!(
        "fit over the {} plans within twice the fastest of their k (no table read whole): \
         probe_ns = {probe:.1}, \
         check_ns = {check:.2}, check_folded_ns = {folded:.2}",
        near.len()
    );
}

fn main() -> ExitCode {
    if let Ok(level) = std::env::var("SIMPRINT_KERNELS") {
        let max = match level.as_str() {
            "portable" => Kernels::Portable,
            "popcnt" => Kernels::Popcnt,
            "avx2" => Kernels::Avx2,
            "avx512" => Kernels::Avx512,
            other => {
                eprintln!("SIMPRINT_KERNELS={other}: expected portable, popcnt, avx2 or avx512");
                return ExitCode::FAILURE;
            }
        };
        limit_kernels(max);
    }
    let n = size();
    let ks = ks();
    let pairs_ks: Vec<u32> = match std::env::var("SIMPRINT_PAIRS").as_deref() {
        Ok("all") => ks.clone(),
        // Query-only runs (A/B of probing changes): all pairs at k = 9 takes seconds.
        Ok("none") => Vec::new(),
        _ => vec![3, 9],
    };
    // en.txt followed by zh.txt.
    let text = match load_corpus() {
        Ok(texts) => texts.into_iter().map(|(_, t)| t).collect::<String>(),
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    let realtext = match realtext_set(&text, n) {
        Ok(fps) => fps,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    drop(text);
    let random = random_set(n);
    let mixed = mixed_set(&realtext, &random);
    for (name, set) in [("random", &random), ("mixed", &mixed)] {
        if let Err(e) = write_cache(&cache_file(&format!("{name}-{n}.u64")), set) {
            eprintln!("cannot write the {name} set: {e}");
            return ExitCode::FAILURE;
        }
    }

    if std::env::var_os("SIMPRINT_PLANS").is_some() {
        let width = sweep_width();
        if width == 128 {
            let values = random_set_128(n);
            let words: Vec<u64> = values
                .iter()
                .flat_map(|&v| [(v >> 64) as u64, v as u64])
                .collect();
            if let Err(e) = write_cache(&cache_file(&format!("random128-{n}.u64")), &words) {
                eprintln!("cannot write the 128-bit random set: {e}");
                return ExitCode::FAILURE;
            }
            sweep_plans(width, &values, &ks);
        } else {
            let values: Vec<u128> = random.iter().map(|&v| u128::from(v)).collect();
            sweep_plans(width, &values, &ks);
        }
        return ExitCode::SUCCESS;
    }

    let overhead: Vec<f64> = (0..10_000)
        .map(|_| {
            let t = Instant::now();
            us(black_box(t).elapsed())
        })
        .collect();
    println!(
        "simprint index, native; N = {n}, width {WIDTH}, k = {ks:?}; {QUERIES} queries (half \
         stored ±0–3 bits, half random) in {ROUNDS} rounds over every k; scans over \
         {SCAN_QUERIES}; pairs at k = {pairs_ks:?}"
    );
    println!(
        "scan kernels: {} (the planner prices with {:?}); the POPCNT scan: {}; timer \
         overhead per timed query: {:.3} µs (median)",
        kernels(),
        Costs::here(),
        if popcnt_scan(0, &[0], 0).is_some() {
            "yes"
        } else {
            "not on this CPU (reported as NaN)"
        },
        median(&overhead)
    );
    println!(
        "random set check: fps[0] = {:#018x}, fps[{}] = {:#018x}",
        random[0],
        n - 1,
        random[n - 1]
    );

    for (name, title, set) in [
        ("random", "random (splitmix64)", &random),
        (
            "realtext",
            "real text (clustered): windows of en.txt + zh.txt",
            &realtext,
        ),
        (
            "mixed",
            "mixed: a tenth real text (clustered), nine tenths random",
            &mixed,
        ),
    ] {
        let cases = measure_set(name, set, &ks, &pairs_ks);
        print_cases(&format!("{title}, N = {n}"), &cases);
    }
    ExitCode::SUCCESS
}
