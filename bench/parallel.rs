//! The `parallel` feature at 1 and 2 threads (issue 30): all pairs within k = 9 of a million
//! fingerprints, a bulk insert of them at k = 9, and batch fingerprinting of documents, each
//! beside the serial method it replaces, the cases interleaved round by round so that the
//! machine's noise falls on all of them alike; medians, and ratios within the run.
//!
//!     cargo bench --bench index                        # once: writes the sets this reads
//!     cargo run --release --features parallel --example parallel
//!
//! The sets are bench/index.rs's, read from ~/.cache/simprint/bench/: `mixed` (the issue's:
//! the first 100,000 real-text fingerprints, clustered, then the first 900,000 random ones),
//! `random` and `realtext` (a million each). Environment: `SIMPRINT_SETS=mixed,realtext`
//! (default `mixed`), `SIMPRINT_CASES=insert,pairs,fingerprint` (the default, all three),
//! `SIMPRINT_ROUNDS` (default 5), `SIMPRINT_THREADS=1,2` (the thread counts), `SIMPRINT_K`
//! (default 9), `SIMPRINT_KERNELS=portable|popcnt|avx2` to cap the scan
//! kernels (default: the best the CPU has).
//!
//! Every answer is checked against the serial one. Besides wall time each case reports the
//! process's CPU time (/proc/self/stat, 10 ms ticks): on a machine shared with other work the
//! wall time of two threads says how much of two cores the run got, the CPU time what the work
//! cost. The 2- and 16-core lines are arithmetic, not measurements: the one-thread run's CPU
//! time split into a serial part, measured on its own in the same run (the fastest of the
//! rounds; for the pairs, sorting the found pairs into the answer's order; for a bulk insert,
//! the same insert into an index that plans no tables, i.e. reading the items and sorting them
//! by id; for fingerprinting none), and the rest, divided by the cores (a bulk insert's by at
//! most its number of tables, since each thread builds whole tables). Memory bandwidth, shared
//! caches and a 16-core machine's clock are not in it.
//!
//! With the pairs runs a control: a spin loop cut evenly over the same threads, timed in the
//! same rounds. Linux shares the CPU between sessions (autogroups), not threads, so on a busy
//! machine a second thread may get no more CPU than the first had alone; the control's ratio
//! says how much of a second core the machine gave at the time.
use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use simprint::test_hooks::limit_kernels;
use simprint::{kernels, Fingerprint, Fingerprinter, Index, Kernels, Options, Plan};

#[path = "../tests/support/splitmix64.rs"]
mod splitmix64;
use splitmix64::SplitMix64;

#[path = "common.rs"]
mod common;
use common::{home, load_corpus_and_samples, median};

const N: usize = 1_000_000;
const WIDTH: u32 = 64;

fn env_list(name: &str, default: &str) -> Vec<String> {
    std::env::var(name)
        .unwrap_or_else(|_| default.to_string())
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn read_set(name: &str) -> Result<Vec<u64>, String> {
    let path: PathBuf = home().join(format!(".cache/simprint/bench/{name}-{N}.u64"));
    let bytes = std::fs::read(&path).map_err(|e| {
        format!(
            "cannot read {}: {e}\nRun `cargo bench --bench index` once first: it writes the sets.",
            path.display()
        )
    })?;
    Ok(bytes
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
        .collect())
}

fn set(name: &str) -> Result<Vec<u64>, String> {
    match name {
        "mixed" => {
            let mut fps = read_set("realtext")?;
            fps.truncate(N / 10);
            fps.extend(read_set("random")?.into_iter().take(N - N / 10));
            Ok(fps)
        }
        "random" | "realtext" => read_set(name),
        other => Err(format!(
            "SIMPRINT_SETS: unknown set {other} (mixed, random, realtext)"
        )),
    }
}

/// CPU time of the whole process so far (every thread's, user and system), in ms, from
/// /proc/self/stat (Linux; 10 ms ticks at the usual 100 Hz): `NaN` elsewhere.
fn cpu_ms() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    // The fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    // utime and stime, fields 14 and 15 of the line: 11 and 12 from the state (field 3).
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    match (ticks(11), ticks(12)) {
        (Some(user), Some(system)) => (user + system) * 1000.0 / TICKS_PER_SECOND,
        _ => f64::NAN,
    }
}

/// `getconf CLK_TCK` on Linux.
const TICKS_PER_SECOND: f64 = 100.0;

/// Wall and CPU times of one case over the rounds, in ms.
struct Case {
    name: String,
    threads: Option<usize>,
    times: Vec<f64>,
    cpu: Vec<f64>,
}

impl Case {
    fn new(name: &str, threads: Option<usize>) -> Case {
        Case {
            name: name.to_string(),
            threads,
            times: Vec::new(),
            cpu: Vec::new(),
        }
    }

    /// Times `f` once, wall and CPU.
    fn time<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let (t, c) = (Instant::now(), cpu_ms());
        let out = f();
        self.times.push(t.elapsed().as_secs_f64() * 1000.0);
        self.cpu.push(cpu_ms() - c);
        out
    }
}

/// Prints each case's wall and CPU medians and its ratio to the one-thread parallel case,
/// then the 16-core estimate (see the header): `serial` ms of the work stay on one core, the
/// rest of the one-thread run's CPU time divides over at most `ways` threads.
fn report(title: &str, cases: &[Case], unit: Option<(&str, f64)>, serial: f64, ways: usize) {
    println!("\n{title}");
    let at = |t| cases.iter().find(|c| c.threads == Some(t));
    let one = at(1).map(|c| median(&c.times));
    for c in cases {
        let m = median(&c.times);
        let min = c.times.iter().copied().fold(f64::INFINITY, f64::min);
        let max = c.times.iter().copied().fold(0.0, f64::max);
        let rate = unit.map_or(String::new(), |(u, amount)| {
            format!(", {:.1} {u}", amount / (m / 1000.0))
        });
        let speedup = one.map_or(String::new(), |o| format!(", 1 thr / this {:.2}", o / m));
        println!(
            "  {:<30} wall median {m:>8.1} ms (min {min:.1}, max {max:.1}), CPU median {:>8.1} ms{rate}{speedup}",
            c.name,
            median(&c.cpu),
        );
    }
    if let Some(one) = at(1) {
        let cpu = median(&one.cpu);
        let rest = (cpu - serial).max(0.0);
        let paper = |cores: usize| serial + rest / cores.min(ways) as f64;
        println!(
            "  on paper (not measured), from the 1-thread CPU median {cpu:.1} ms: {serial:.1} ms \
             serial, the rest over the cores: 2 cores {:.1} ms ({:.2}x), 16 cores {:.1} ms ({:.1}x)",
            paper(2),
            cpu / paper(2),
            paper(16),
            cpu / paper(16)
        );
    }
}

/// The least wall time of `f` over `rounds` calls, in ms: the serial parts are short, and on
/// a shared machine the least disturbed call is the nearest to their cost on an idle core.
fn fastest_of(rounds: usize, mut f: impl FnMut()) -> f64 {
    (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1000.0
        })
        .fold(f64::INFINITY, f64::min)
}

/// Documents of the corpus: its paragraphs grouped into texts of about 4 KB, the size of a
/// page or a post, so the batch is many calls, not one long text.
fn documents(text: &str) -> Vec<&str> {
    let mut docs = Vec::new();
    let mut start = 0;
    for (i, _) in text.match_indices("\n\n") {
        if i - start >= 4096 {
            docs.push(&text[start..i]);
            start = i + 2;
        }
    }
    if start < text.len() {
        docs.push(&text[start..]);
    }
    docs
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
    let rounds = env_number("SIMPRINT_ROUNDS", 5);
    let k = env_number("SIMPRINT_K", 9) as u32;
    let threads: Vec<usize> = env_list("SIMPRINT_THREADS", "1,2")
        .iter()
        .filter_map(|t| t.parse().ok())
        .collect();
    println!(
        "simprint parallel, native; scan kernels: {}; cores available: {}; threads {threads:?}; \
         {rounds} rounds, the cases interleaved in each",
        kernels(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );

    let wanted = env_list("SIMPRINT_CASES", "insert,pairs,fingerprint");
    for name in env_list("SIMPRINT_SETS", "mixed") {
        let fps = match set(&name) {
            Ok(fps) => fps,
            Err(message) => {
                eprintln!("{message}");
                return ExitCode::FAILURE;
            }
        };
        let items: Vec<(u64, Fingerprint)> = (0u64..)
            .zip(
                fps.iter()
                    .map(|&v| Fingerprint::new(u128::from(v), WIDTH).unwrap()),
            )
            .collect();

        if wanted.iter().any(|c| c == "insert") {
            bulk_insert(&name, &items, k, rounds, &threads);
        }
        if !wanted.iter().any(|c| c == "pairs") {
            continue;
        }
        let mut index = Index::new(WIDTH, k).unwrap();
        index.insert_many(items.iter().copied()).unwrap();
        drop(items);
        all_pairs(&name, &index, k, rounds, &threads);
    }
    if wanted.iter().any(|c| c == "fingerprint") {
        return batch_fingerprinting(rounds, &threads);
    }
    ExitCode::SUCCESS
}

/// Bulk insert: the serial method, then the parallel one at each thread count.
fn bulk_insert(name: &str, items: &[(u64, Fingerprint)], k: u32, rounds: usize, threads: &[usize]) {
    let mut inserts = vec![Case::new("insert_many (serial)", None)];
    inserts.extend(
        threads
            .iter()
            .map(|&t| Case::new(&format!("insert_many_parallel, {t} thr"), Some(t))),
    );
    let mut reference: Option<Vec<u8>> = None;
    for _ in 0..rounds {
        for case in &mut inserts {
            let mut index = Index::new(WIDTH, k).unwrap();
            let threads = case.threads;
            case.time(|| match threads {
                None => index.insert_many(items.iter().copied()),
                Some(n) => index.insert_many_parallel(items.iter().copied(), n),
            })
            .unwrap();
            // The same index each time: the same entries and plan.
            let bytes = index.to_bytes();
            match &reference {
                None => reference = Some(bytes),
                Some(r) => assert!(*r == bytes, "{} built another index", case.name),
            }
            drop(black_box(index));
        }
    }
    // The part of a bulk insert that is not its tables (reading the items, the sorts by
    // id): the same insert into an index that plans no tables.
    let serial = fastest_of(rounds, || {
        let mut index = Index::with_plan(Plan::scan(WIDTH, k).unwrap()).unwrap();
        index.insert_many(items.iter().copied()).unwrap();
        black_box(index);
    });
    let tables = Plan::auto(WIDTH, k, N).tables().len();
    report(
        &format!(
            "bulk insert of {N} fingerprints, k = {k}, set {name} ({tables} tables, built \
                 one per thread)"
        ),
        &inserts,
        None,
        serial,
        tables,
    );
}

/// All pairs: the serial method, then the parallel one at each thread count.
fn all_pairs(name: &str, index: &Index, k: u32, rounds: usize, threads: &[usize]) {
    let mut pairs = vec![Case::new("pairs_within (serial)", None)];
    pairs.extend(
        threads
            .iter()
            .map(|&t| Case::new(&format!("pairs_parallel, {t} thr"), Some(t))),
    );
    // The control: work that divides perfectly, timed between the pairs, so it meets the
    // same load. Its ratio is what the machine gave a second thread at the time.
    let mut control: Vec<Case> = threads
        .iter()
        .map(|&t| Case::new(&format!("control: spin loop, {t} thr"), Some(t)))
        .collect();
    let mut reference = None;
    for _ in 0..rounds {
        for case in &mut pairs {
            let threads = case.threads;
            let found = case
                .time(|| match threads {
                    None => index.pairs_within(k),
                    Some(n) => index.pairs_parallel(k, n),
                })
                .unwrap();
            match &reference {
                None => reference = Some(found),
                Some(r) => assert!(*r == found, "{} found other pairs", case.name),
            }
        }
        for case in &mut control {
            let n = case.threads.unwrap_or(1);
            case.time(|| spin(n));
        }
    }
    let found = reference.unwrap_or_default();
    // The part of the parallel pairs after the threads: the pairs, gathered from the
    // threads in no order, sorted into the answer's.
    let mut rng = SplitMix64(1);
    let scrambled: Vec<(u32, u64, u64)> = found
        .iter()
        .map(|p| (rng.next(), (p.distance, p.a, p.b)))
        .collect::<std::collections::BTreeMap<_, _>>()
        .into_values()
        .collect();
    let serial = fastest_of(rounds, || {
        let mut keys = scrambled.clone();
        keys.sort_unstable();
        keys.dedup();
        black_box(
            keys.into_iter()
                .map(|(distance, a, b)| simprint::Pair { a, b, distance })
                .collect::<Vec<_>>(),
        );
    });
    report(
        &format!(
            "all pairs within {k} of {N} fingerprints ({} pairs), set {name}",
            found.len()
        ),
        &pairs,
        None,
        serial,
        usize::MAX,
    );
    report(
        "control: 4e8 steps of arithmetic split over the threads (no memory, nothing shared)",
        &control,
        None,
        0.0,
        usize::MAX,
    );
}

/// 4e8 steps of a dependent multiply-add chain, cut evenly over `threads` scoped threads:
/// the best case of parallel work, as a yardstick of the cores the machine gives.
fn spin(threads: usize) {
    let steps = 400_000_000 / threads as u64;
    std::thread::scope(|scope| {
        for t in 0..threads {
            scope.spawn(move || {
                let mut x = t as u64;
                for i in 0..steps {
                    x = x.wrapping_mul(31).wrapping_add(i ^ (x >> 7));
                }
                black_box(x)
            });
        }
    });
}

fn batch_fingerprinting(rounds: usize, threads: &[usize]) -> ExitCode {
    // Batch fingerprinting: English, Chinese and the mixed-text samples as documents, each
    // fingerprinted once per case.
    let text = match load_corpus_and_samples() {
        Ok(texts) => texts.into_iter().map(|(_, t)| t).collect::<String>(),
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    let docs = documents(&text);
    let mb = text.len() as f64 / 1e6;
    let fingerprinter = Fingerprinter::new(Options::default()).unwrap();
    let mut batches = vec![Case::new("fingerprint, one by one", None)];
    batches.extend(
        threads
            .iter()
            .map(|&t| Case::new(&format!("fingerprint_parallel, {t} thr"), Some(t))),
    );
    let reference: Vec<Fingerprint> = docs.iter().map(|d| fingerprinter.fingerprint(d)).collect();
    for _ in 0..rounds {
        for case in &mut batches {
            let threads = case.threads;
            let fps: Vec<Fingerprint> = case.time(|| match threads {
                None => docs.iter().map(|d| fingerprinter.fingerprint(d)).collect(),
                Some(n) => fingerprinter.fingerprint_parallel(&docs, n),
            });
            assert!(fps == reference, "{} fingerprinted differently", case.name);
        }
    }
    report(
        &format!(
            "batch fingerprinting: en.txt, zh.txt and the four samples as {} documents of about 4 KB ({mb:.1} MB)",
            docs.len()
        ),
        &batches,
        Some(("MB/s", mb)),
        // Putting the runs back in order: a copy of 16 bytes a text.
        0.0,
        usize::MAX,
    );
    ExitCode::SUCCESS
}
