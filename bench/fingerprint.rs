//! Fingerprinting throughput on real text (bytes of UTF-8 input per second): en.txt, zh.txt and
//! the mixed-text samples of `common.rs` (docs-en, man-en, docs-zh, docs-ja, and the held-out
//! help-zh, guide-zh, help-ja, guide-ja); and the
//! Hamming-distance scan.
//!
//!     python3 scripts/corpus.py          # fetch the corpus once
//!     cargo bench --bench fingerprint    # SIMPRINT_CORPUS=DIR to read another folder
//!
//! `cargo bench` uses the release profile and builds for the baseline x86-64 CPU (no POPCNT
//! instruction unless `RUSTFLAGS="-C target-cpu=native"` asks for it).
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput};
use simprint::{hamming64, Fingerprinter, Options, Tokenizer};

#[path = "../tests/support/splitmix64.rs"]
mod splitmix64;
use splitmix64::SplitMix64;

#[path = "common.rs"]
mod common;
use common::load_corpus_and_samples;

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
    let mut c = Criterion::default().configure_from_args();
    fingerprint_benches(&mut c, &texts);
    hamming_bench(&mut c);
    c.final_summary();
    ExitCode::SUCCESS
}
