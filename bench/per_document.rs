//! The native side of `bench/per-document.mjs`: the same documents fingerprinted one call each
//! (a fresh `Fingerprinter::fingerprint` per document, default options, or with `QUALITY=1`
//! `Options::quality()`, as the node program passes it on), and the per-call cost
//! of `hamming` and `Fingerprint::compare`, so the wasm run can print wasm/native per document.
//!
//!     cargo build --release --example per_document
//!     target/release/examples/per_document ROUNDS FILE...
//!
//! Each FILE holds one case's documents separated by NUL bytes (`per-document.mjs` writes them
//! to `~/.cache/simprint/bench/per-document/`). One warm-up pass per file, then ROUNDS passes;
//! prints one JSON line per file and round: seconds of the pass, bytes, and the median and p99
//! of the per-call times in seconds. The node program runs this once per round of its own, so
//! the two sides interleave on the shared machine.
use std::hint::black_box;
use std::time::Instant;

use simprint::{hamming, kernels, Fingerprint, Fingerprinter, Options};

#[path = "common.rs"]
mod common;
use common::{median, percentile};

/// Calls per timed batch for the calls too short to time one by one.
const BATCH: usize = 10_000;

fn pass(fp: &Fingerprinter, docs: &[&str]) -> (f64, Vec<f64>) {
    let mut calls = Vec::with_capacity(docs.len());
    let start = Instant::now();
    for doc in docs {
        let t0 = Instant::now();
        black_box(fp.fingerprint(black_box(doc)));
        calls.push(t0.elapsed().as_secs_f64());
    }
    (start.elapsed().as_secs_f64(), calls)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args
        .next()
        .and_then(|s| s.parse().ok())
        .expect("usage: per_document ROUNDS FILE...");
    let files: Vec<(String, String)> = args
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("a readable UTF-8 file");
            (path, text)
        })
        .collect();
    let options = if std::env::var("QUALITY").as_deref() == Ok("1") {
        Options::quality()
    } else {
        Options::default()
    };
    let fp = Fingerprinter::new(options).expect("valid options");
    println!("{{\"kernels\":\"{}\"}}", kernels());
    for (path, text) in &files {
        let docs: Vec<&str> = text.split('\0').collect();
        let bytes: usize = docs.iter().map(|d| d.len()).sum();
        pass(&fp, &docs);
        for _ in 0..rounds {
            let (seconds, calls) = pass(&fp, &docs);
            println!(
                "{{\"file\":{path:?},\"bytes\":{bytes},\"seconds\":{seconds:e},\"p50\":{:e},\"p99\":{:e}}}",
                median(&calls),
                percentile(&calls, 99.0)
            );
        }
    }
    // Pairs of fixed pseudo-random values, as the wasm side makes them.
    let mut x: u64 = 0x5eed;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let pairs: Vec<(u64, u64)> = (0..BATCH).map(|_| (next(), next())).collect();
    for _ in 0..rounds {
        let t0 = Instant::now();
        let mut sum = 0u32;
        for &(a, b) in black_box(&pairs) {
            sum += hamming(u128::from(a), u128::from(b));
        }
        black_box(sum);
        let hamming_s = t0.elapsed().as_secs_f64() / BATCH as f64;
        let t0 = Instant::now();
        for &(a, b) in black_box(&pairs) {
            let (a, b) = (
                Fingerprint::new(a.into(), 64),
                Fingerprint::new(b.into(), 64),
            );
            black_box(a.and_then(|a| a.compare(&b?)).map(|c| c.cosine).ok());
        }
        let compare_s = t0.elapsed().as_secs_f64() / BATCH as f64;
        println!("{{\"hamming\":{hamming_s:e},\"compare\":{compare_s:e}}}");
    }
}
