//! Fingerprinting throughput on real text (bytes of UTF-8 input per second): en.txt, zh.txt and
//! the mixed-text samples of `common.rs` (docs-en, man-en, docs-zh, docs-ja, and the held-out
//! help-zh, guide-zh, help-ja, guide-ja); and the
//! Hamming-distance scan.
//!
//!     python3 scripts/corpus.py          # fetch the corpus once
//!     cargo bench --bench fingerprint    # SIMPRINT_CORPUS=DIR to read another folder
//!     cargo bench --bench fingerprint -- shares   # the same-run CJK shares alone
//!
//! First prints the CJK samples' rates as shares of the English rate, the texts interleaved
//! round by round ([`shares`]), with the held-out READMEs of other projects (`readme-zh`,
//! `readme-ja`: `common::README_SAMPLES`) when `python3 scripts/revisions.py` has fetched them
//! and applications' manuals (`kicad-zh`, `gimp-zh`, …: `common::APP_SAMPLES`); then
//! criterion's groups (a filter that matches none of them, like `shares`, skips those).
//!
//! `cargo bench` uses the release profile and builds for the baseline x86-64 CPU (no POPCNT
//! instruction unless `RUSTFLAGS="-C target-cpu=native"` asks for it).
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

use std::time::Instant;

use criterion::{Criterion, SamplingMode, Throughput};
use simprint::{hamming64, Algorithm, Fingerprinter, Options, Tokenizer};

#[path = "../tests/support/splitmix64.rs"]
mod splitmix64;
use splitmix64::SplitMix64;

#[path = "common.rs"]
mod common;
use common::{load_app_samples, load_corpus_and_samples, load_readme_samples, median};

const HAYSTACK_LEN: usize = 1_000_000;

fn fingerprint_benches(c: &mut Criterion, texts: &[(&'static str, String)]) {
    let variants = [
        ("default", Options::default()),
        (
            "width128",
            Options {
                width: 128,
                ..Options::default()
            },
        ),
        (
            "words1",
            Options {
                tokenizer: Tokenizer::Words { n: 1 },
                ..Options::default()
            },
        ),
        (
            "chars3",
            Options {
                tokenizer: Tokenizer::Chars { n: 3 },
                ..Options::default()
            },
        ),
        (
            "minhash64",
            Options {
                algorithm: Algorithm::MinHash,
                ..Options::default()
            },
        ),
        (
            "minhash128",
            Options {
                width: 128,
                algorithm: Algorithm::MinHash,
                ..Options::default()
            },
        ),
    ];
    for (file, text) in texts {
        let mut group = c.benchmark_group(format!("fingerprint/{file}"));
        // One iteration takes milliseconds, so flat sampling with few samples is plenty.
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(4))
            .throughput(Throughput::Bytes(text.len() as u64));
        for (name, options) in variants {
            let fp = Fingerprinter::new(options).expect("valid options");
            group.bench_function(name, |b| b.iter(|| fp.fingerprint(black_box(text))));
        }
        group.finish();
    }
}

/// Rounds of [`shares`]: each round fingerprints every text once.
const SHARE_ROUNDS: usize = 40;

/// The share of non-space characters that are ASCII.
fn ascii_share(text: &str) -> f64 {
    let chars = text.chars().filter(|c| !c.is_whitespace());
    let (ascii, all) = chars.fold((0usize, 0usize), |(a, n), c| {
        (a + usize::from(c.is_ascii()), n + 1)
    });
    ascii as f64 / all.max(1) as f64
}

/// Issue 30's same-run shares: every text fingerprinted once per round, round after round, so
/// the machine's load falls on all of them alike; each CJK text's rate as the median over
/// rounds of its rate over `docs-en`'s (and `en.txt`'s) in the same round. A text shorter than
/// `docs-en` is also compared with as many bytes of `docs-en` (`% same size`), fingerprinted
/// right after it: a short text runs slower per byte in any language (its table and copies
/// are made for fewer bytes; `docs-en`'s first 64 KB at about 80 % of the whole), and the
/// held-out manuals are short. Criterion's groups below time each text alone, minutes apart,
/// so their ratios move with the load.
fn shares(texts: &[(&'static str, String)]) {
    let at = |name: &str| texts.iter().position(|(n, _)| *n == name);
    let (Some(en), Some(docs_en)) = (at("en.txt"), at("docs-en")) else {
        return;
    };
    // As many bytes of docs-en as each shorter text, cut at a character boundary.
    let yards: Vec<Option<&str>> = texts
        .iter()
        .map(|(_, text)| {
            let whole = texts[docs_en].1.as_str();
            (text.len() < whole.len()).then(|| &whole[..whole.floor_char_boundary(text.len())])
        })
        .collect();
    let fp = Fingerprinter::new(Options::default()).expect("valid options");
    let mut times = vec![Vec::with_capacity(SHARE_ROUNDS); texts.len()];
    let mut yard_times = vec![Vec::with_capacity(SHARE_ROUNDS); texts.len()];
    let time = |text: &str| {
        let start = Instant::now();
        black_box(fp.fingerprint(black_box(text)));
        start.elapsed().as_secs_f64()
    };
    for round in 0..SHARE_ROUNDS + 3 {
        for (i, (_, text)) in texts.iter().enumerate() {
            let t = time(text);
            let y = yards[i].map(time);
            // The first rounds warm the caches and the allocator up.
            if round >= 3 {
                times[i].push(t);
                yard_times[i].extend(y);
            }
        }
    }
    let rate = |i: usize, r: usize| texts[i].1.len() as f64 / times[i][r];
    println!(
        "Same-run shares (default options, {SHARE_ROUNDS} rounds, every text once a round; the \
         median of the per-round ratios). Chinese fast paths tuned on docs-zh; help-*, guide-*, \
         readme-* and the applications' manuals (kicad-*, gimp-*, lilypond-*, edu-*, help-tw) \
         held out; handbook-de and -fr: German and French. % same size: over as many bytes of \
         docs-en."
    );
    println!(
        "{:<11} {:>6} {:>6} {:>8} {:>11} {:>10} {:>11}",
        "text", "MB", "ASCII", "MB/s", "% docs-en", "% en.txt", "% same size"
    );
    for (i, (name, text)) in texts.iter().enumerate() {
        let share = |yard: usize| {
            let r: Vec<f64> = (0..SHARE_ROUNDS)
                .map(|r| rate(i, r) / rate(yard, r))
                .collect();
            100.0 * median(&r)
        };
        // Equal lengths: the ratio of rates is the inverse ratio of times.
        let same = if yards[i].is_some() {
            let r: Vec<f64> = (0..SHARE_ROUNDS)
                .map(|r| yard_times[i][r] / times[i][r])
                .collect();
            100.0 * median(&r)
        } else {
            share(docs_en)
        };
        let mbps = median(&(0..SHARE_ROUNDS).map(|r| rate(i, r)).collect::<Vec<_>>()) / 1e6;
        println!(
            "{name:<11} {:>6.2} {:>5.0}% {mbps:>8.1} {:>10.0}% {:>9.0}% {:>10.0}%",
            text.len() as f64 / 1e6,
            100.0 * ascii_share(text),
            share(docs_en),
            share(en),
            same
        );
    }
    println!();
}

fn hamming_bench(c: &mut Criterion) {
    let mut rng = SplitMix64(0x5eed);
    let haystack: Vec<u64> = (0..HAYSTACK_LEN).map(|_| rng.next()).collect();
    let needle = haystack[HAYSTACK_LEN / 2] ^ 0b1011;

    let mut group = c.benchmark_group("hamming64");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Elements(HAYSTACK_LEN as u64));
    // A near-duplicate scan: how many stored fingerprints are within 3 bits of the needle.
    group.bench_function("scan_1M_within_3", |b| {
        b.iter(|| {
            let needle = black_box(needle);
            black_box(&haystack)
                .iter()
                .filter(|&&v| hamming64(needle, v) <= 3)
                .count()
        })
    });
    group.finish();
}

fn main() -> ExitCode {
    let texts = match load_corpus_and_samples() {
        Ok(texts) => texts,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    // The READMEs of other projects and the applications' manuals (`common::APP_SAMPLES`) join
    // the shares alone (criterion's groups stay as they were).
    let (readmes, apps) = match load_readme_samples().and_then(|r| Ok((r, load_app_samples()?))) {
        Ok(both) => both,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    if readmes.is_empty() {
        println!("(readme-zh and readme-ja need `python3 scripts/revisions.py` first)");
    }
    if apps.is_empty() {
        println!(
            "(kicad-zh, gimp-zh and the other manuals need `python3 scripts/corpus.py` again)"
        );
    }
    shares(&[texts.clone(), readmes, apps].concat());
    let mut c = Criterion::default().configure_from_args();
    fingerprint_benches(&mut c, &texts);
    hamming_bench(&mut c);
    c.final_summary();
    ExitCode::SUCCESS
}
