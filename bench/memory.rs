//! Peak memory of fingerprinting a 100 MB text, natively (Linux: reads VmHWM from
//! /proc/self/status, after resetting it through /proc/self/clear_refs once the text is built).
//!
//! ```sh
//! cargo run --release --example memory            # every case, each in its own process
//! cargo run --release --example memory -- 200     # 200 MB instead
//! ```
//!
//! Cases: real English (the handbook from `scripts/corpus.py`, repeated; generated English-like
//! text if it is missing), words that are all different (the worst case for binary weights,
//! which keep a table of distinct features), random CJK characters (millions of distinct
//! bigrams) and one 100 MB word; each one shot with binary weights (the default) and with
//! `tf` (no table), and streamed in 64 KB chunks. Then an index of 1M fingerprints.

use std::io::Write as _;
use std::process::Command;
use std::time::Instant;

use simprint::{Fingerprint, Fingerprinter, Index, Options, Weighting};

const CASES: [&str; 4] = ["handbook", "unique-words", "cjk", "one-word"];
const MODES: [&str; 3] = ["binary", "tf", "stream"];

fn status_kb(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("Linux /proc");
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Resets the peak (VmHWM) to the current resident size.
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

#[path = "../tests/support/splitmix64.rs"]
mod splitmix64;
use splitmix64::SplitMix64 as Rng;

fn text(case: &str, bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 64);
    let mut rng = Rng(42);
    match case {
        "handbook" => {
            let path = std::env::var("HOME").unwrap_or_default() + "/.cache/simprint/corpus/en.txt";
            let source = std::fs::read_to_string(&path).unwrap_or_else(|_| {
                eprintln!("({path} missing: generated English-like text instead)");
                let words = [
                    "the",
                    "package",
                    "system",
                    "is",
                    "installed",
                    "with",
                    "apt",
                    "and",
                ];
                (0..200_000)
                    .map(|i| words[i % 7 + (i / 7) % 2])
                    .collect::<Vec<_>>()
                    .join(" ")
            });
            while out.len() + source.len() <= bytes {
                out.push_str(&source);
            }
        }
        "unique-words" => {
            // Random 4 to 10-letter words: practically every one distinct.
            while out.len() < bytes {
                let r = rng.next();
                for i in 0..4 + r % 7 {
                    out.push((b'a' + ((r >> (8 + 5 * i)) % 26) as u8) as char);
                }
                out.push(' ');
            }
        }
        "cjk" => {
            // Random characters of the 3,000 after U+4E00, with a 。 every 30 or so.
            while out.len() < bytes {
                let r = rng.next();
                out.push(char::from_u32(0x4E00 + (r % 3000) as u32).unwrap_or('中'));
                if r >> 40 & 31 == 0 {
                    out.push('。');
                }
            }
        }
        _ => out.extend(std::iter::repeat_n('x', bytes)),
    }
    out
}

fn run(case: &str, mode: &str, mb: usize) {
    let text = text(case, mb << 20);
    let options = Options {
        weighting: if mode == "tf" {
            Weighting::TermFrequency
        } else {
            Weighting::Binary
        },
        ..Options::default()
    };
    let fp = Fingerprinter::new(options).expect("valid options");
    reset_peak();
    let before = status_kb("VmRSS:");
    let started = Instant::now();
    let result = if mode == "stream" {
        let mut stream = fp.stream();
        for chunk in text.as_bytes().chunks(64 << 10) {
            stream.update(chunk);
        }
        stream.finish()
    } else {
        fp.fingerprint(&text)
    };
    let took = started.elapsed();
    let peak = status_kb("VmHWM:");
    let extra = peak.saturating_sub(before) as f64 / 1024.0;
    let input = text.len() as f64 / (1 << 20) as f64;
    println!(
        "{case:>12} {mode:>6}: {input:6.1} MB in {:6.2} s; peak above the text {extra:7.1} MB \
         = {:.2} x input  ({result})",
        took.as_secs_f64(),
        extra / input
    );
}

fn index(n: usize) {
    let mut rng = Rng(7);
    let items: Vec<(u64, Fingerprint)> = (0..n as u64)
        .map(|i| {
            (
                i,
                Fingerprint::new(u128::from(rng.next()), 64).expect("64 bits"),
            )
        })
        .collect();
    reset_peak();
    let before = status_kb("VmRSS:");
    let mut index = Index::new(64, 3).expect("valid");
    index.insert_many(items.iter().copied()).expect("64 bits");
    let peak = status_kb("VmHWM:");
    let resident = status_kb("VmRSS:");
    println!(
        "index of {n} fingerprints (k = 3): memoryBytes {:.1} B each; resident {:.1} B each, \
         peak while building {:.1} B each",
        index.memory_bytes() as f64 / n as f64,
        (resident.saturating_sub(before) * 1024) as f64 / n as f64,
        (peak.saturating_sub(before) * 1024) as f64 / n as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("--case") => run(&args[1], &args[2], args[3].parse().expect("MB")),
        Some("--index") => index(args[1].parse().expect("count")),
        mb => {
            let mb: usize = mb.and_then(|m| m.parse().ok()).unwrap_or(100);
            let me = std::env::current_exe().expect("own path");
            // One process per case, so each peak is its own.
            for case in CASES {
                for mode in MODES {
                    let out = Command::new(&me)
                        .args(["--case", case, mode, &mb.to_string()])
                        .output()
                        .expect("run a case");
                    std::io::stdout().write_all(&out.stdout).expect("stdout");
                    std::io::stderr().write_all(&out.stderr).expect("stderr");
                }
            }
            for n in [100_000, 1_000_000] {
                let out = Command::new(&me)
                    .args(["--index", &n.to_string()])
                    .output()
                    .expect("run the index case");
                std::io::stdout().write_all(&out.stdout).expect("stdout");
            }
        }
    }
}
