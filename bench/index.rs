//! The index natively: build time, memory, query latency (median and p99), the linear scan it
//! replaces, all pairs, and the byte round trip, on random and on clustered real-text
//! fingerprints, at 100k and 1M fingerprints, k = 3, width 64.
//!
//!     python3 scripts/corpus.py          # fetch the corpus once
//!     cargo bench --bench index          # SIMPRINT_CORPUS=DIR to read another folder
//!
//! Plain `Instant` timing, not criterion: latency needs a p99, so each query is timed alone.
//! Writes the 1M real-text fingerprints (little-endian u64) to
//! ~/.cache/simprint/bench/realtext-1000000.u64 for bench/index.mjs, and reuses that file
//! while a sample of it still matches a fresh computation.
//!
//! `cargo bench` builds for the baseline x86-64 CPU: no POPCNT instruction unless
//! `RUSTFLAGS="-C target-cpu=native"` asks for it.
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use simprint::{scan64, Fingerprint, Index};

#[path = "common.rs"]
mod common;
use common::{home, load_corpus, median, percentile};

const WIDTH: u32 = 64;
/// The index's k: 3 unless `SIMPRINT_K` says otherwise (to price larger k).
fn k() -> u32 {
    std::env::var("SIMPRINT_K")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(3)
}
const SIZES: [usize; 2] = [100_000, 1_000_000];
const QUERIES: usize = 20_000;
const SCAN_QUERIES: usize = 200;
/// Runs of the all-pairs and byte round-trip measurements (median reported).
const RUNS: usize = 3;
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

fn random_set(n: usize) -> Vec<u64> {
    let mut rng = SplitMix64(RANDOM_SEED);
    (0..n).map(|_| rng.next()).collect()
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
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let bytes: Vec<u8> = fps.iter().flat_map(|v| v.to_le_bytes()).collect();
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

/// Median milliseconds of `RUNS` runs of `f`, and its last result.
fn median_ms<T>(mut f: impl FnMut() -> T) -> (f64, T) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..RUNS {
        let t = Instant::now();
        let r = black_box(f());
        times.push(ms(t.elapsed()));
        last = Some(r);
    }
    (median(&times), last.unwrap_or_else(|| unreachable!()))
}

fn build(items: &[(u64, Fingerprint)]) -> (Duration, Index) {
    let t = Instant::now();
    let mut index = Index::new(WIDTH, k()).unwrap_or_else(|e| panic!("{e}"));
    index
        .insert_many(items.iter().copied())
        .unwrap_or_else(|e| panic!("{e}"));
    (t.elapsed(), index)
}

/// One column of a set's table: the measurements at one size.
fn measure(fps: &[u64]) -> Vec<String> {
    let n = fps.len();
    let items: Vec<(u64, Fingerprint)> = (0u64..).zip(fps.iter().map(|&v| fp(v))).collect();
    let (build1, first) = build(&items);
    drop(first);
    let (build2, index) = build(&items);
    drop(items);
    assert_eq!(index.len(), n);
    let plan = index.plan();

    let qs = queries(fps, QUERIES);
    let qfps: Vec<Fingerprint> = qs.iter().map(|&v| fp(v)).collect();
    let mut hits = 0usize;
    for &q in &qfps {
        hits += index.query(black_box(q)).map_or(0, |r| r.len());
    }
    let mut times = Vec::with_capacity(QUERIES);
    for &q in &qfps {
        let t = Instant::now();
        // The result is dropped inside the timing: freeing it is part of a query's cost.
        black_box(index.query(black_box(q)).map(|r| r.len()).ok());
        times.push(us(t.elapsed()));
    }
    let t = Instant::now();
    for &q in &qfps {
        black_box(index.query(black_box(q)).map(|r| r.len()).ok());
    }
    let mean = us(t.elapsed()) / QUERIES as f64;
    let near: Vec<f64> = times.iter().copied().step_by(2).collect();
    let random: Vec<f64> = times.iter().copied().skip(1).step_by(2).collect();

    // The scan is the reference: the index must find exactly what it finds.
    let mut scan_times = Vec::with_capacity(SCAN_QUERIES);
    for (&q, &f) in qs.iter().zip(&qfps).take(SCAN_QUERIES) {
        let t = Instant::now();
        let found = black_box(scan64(black_box(q), black_box(fps), k()));
        scan_times.push(us(t.elapsed()));
        let by_index = index.query(f).map_or(usize::MAX, |r| r.len());
        assert_eq!(
            found.len(),
            by_index,
            "index and scan disagree on {q:#018x}"
        );
    }

    // All pairs grows with the square of bucket sizes, which larger k makes huge: only measured
    // at k <= 4 unless SIMPRINT_PAIRS=1 asks.
    let (pairs_ms, pairs) = if k() <= 4 || std::env::var_os("SIMPRINT_PAIRS").is_some() {
        median_ms(|| index.pairs().map_or(0, |p| p.len()))
    } else {
        (f64::NAN, 0)
    };
    let (to_ms, bytes) = median_ms(|| index.to_bytes());
    let (from_ms, loaded) = median_ms(|| Index::from_bytes(&bytes));
    assert_eq!(loaded.map(|l| l.len()).ok(), Some(n));

    vec![
        format!("{:.1}", ms(build1)),
        format!("{:.1}", ms(build2)),
        format!(
            "{} blocks, {} tables, {} seg",
            plan.blocks().len(),
            plan.tables().len(),
            index.segments()
        ),
        format!("{:.1}", index.memory_bytes() as f64 / n as f64),
        format!("{:.2}", median(&times)),
        format!("{:.2}", percentile(&times, 99.0)),
        format!("{:.2}", mean),
        format!("{:.2}", median(&near)),
        format!("{:.2}", median(&random)),
        format!("{:.2}", hits as f64 / QUERIES as f64),
        format!("{:.0}", median(&scan_times)),
        format!("{:.0}", median(&scan_times) / median(&times)),
        format!("{pairs_ms:.1}"),
        format!("{pairs}"),
        format!("{to_ms:.1}"),
        format!("{from_ms:.1}"),
        format!("{}", bytes.len()),
    ]
}

const ROWS: [&str; 17] = [
    "build, run 1 (ms)",
    "build, run 2 (ms)",
    "plan",
    "memory per fingerprint (bytes)",
    "query median (µs)",
    "query p99 (µs)",
    "query mean, one loop (µs)",
    "query median, stored ±0–3 bits (µs)",
    "query median, random (µs)",
    "matches per query (mean)",
    "linear scan median (µs)",
    "scan median / query median",
    "all pairs (ms)",
    "pairs within k",
    "to_bytes (ms)",
    "from_bytes (ms)",
    "bytes length",
];

fn print_table(title: &str, columns: &[(usize, Vec<String>)]) {
    let mut header = vec!["measure".to_string()];
    header.extend(columns.iter().map(|(n, _)| format!("N = {n}")));
    let mut rows = vec![header];
    for (r, name) in ROWS.iter().enumerate() {
        let mut row = vec![name.to_string()];
        row.extend(columns.iter().map(|(_, c)| c[r].clone()));
        rows.push(row);
    }
    let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..rows[0].len()).map(width).collect();
    println!("\n{title}");
    for (i, row) in rows.iter().enumerate() {
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

fn main() -> ExitCode {
    // en.txt followed by zh.txt.
    let text = match load_corpus() {
        Ok(texts) => texts.into_iter().map(|(_, t)| t).collect::<String>(),
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    let largest = SIZES[SIZES.len() - 1];
    let realtext = match realtext_set(&text, largest) {
        Ok(fps) => fps,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    drop(text);
    let random = random_set(largest);

    let overhead: Vec<f64> = (0..10_000)
        .map(|_| {
            let t = Instant::now();
            us(black_box(t).elapsed())
        })
        .collect();
    println!(
        "simprint index, native; k = {}, width {WIDTH}; {QUERIES} queries (half stored ±0–3 bits, \
         half random), scan over {SCAN_QUERIES}, pairs and bytes median of {RUNS}",
        k()
    );
    println!(
        "POPCNT instruction: {}; timer overhead per timed query: {:.3} µs (median)",
        if cfg!(target_feature = "popcnt") {
            "yes"
        } else {
            "no (baseline x86-64)"
        },
        median(&overhead)
    );
    println!(
        "random set check: fps[0] = {:#018x}, fps[{}] = {:#018x}",
        random[0],
        largest - 1,
        random[largest - 1]
    );

    for (title, set) in [
        ("random (splitmix64)", &random),
        (
            "real text (clustered): windows of en.txt + zh.txt",
            &realtext,
        ),
    ] {
        // The smaller sets are prefixes of the largest.
        let columns: Vec<(usize, Vec<String>)> =
            SIZES.iter().map(|&n| (n, measure(&set[..n]))).collect();
        print_table(title, &columns);
    }
    ExitCode::SUCCESS
}
