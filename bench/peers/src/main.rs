//! simprint against the Rust SimHash peers (`gaoya`, `simhash`), natively, in one run on the same
//! real text (the corpus of `scripts/corpus.py`: en.txt, English, and zh.txt, Chinese, the
//! handbook; then the mixed-text samples of `bench/common.rs`: docs-en, man-en, docs-zh and
//! docs-ja, Debian documentation with code, man pages, and Chinese and Japanese technical text
//! with commands, options and paths every few words; help-zh, guide-zh, help-ja, guide-ja, the
//! held-out CJK samples of other sources).
//!
//!     python3 scripts/corpus.py                                  # fetch the corpus once
//!     cargo run --release --manifest-path bench/peers/Cargo.toml [SECONDS]
//!
//! SECONDS of timed repeats per case (default 0.5; at least 9 repeats either way, after a
//! warm-up). SIMPRINT_CORPUS=DIR reads another folder. Every repeat fingerprints a whole file;
//! the table shows the median rate over repeats, as the machine is shared and noisy. MB is
//! 10^6 bytes of UTF-8 input.
//!
//! Each side tokenizes differently, so the table says what each case does. The like-for-like
//! case is "simprint, gaoya's split": the exact features gaoya hashes (its `whitespace_split`),
//! handed to simprint's `fingerprint_features`, since simprint's own tokenizers only cut on
//! Unicode word boundaries.

use std::collections::HashSet;
use std::hint::black_box;
use std::time::{Duration, Instant};

use gaoya::simhash::{SimHash, SimHashBits, SimSipHasher64};
use simprint::{Fingerprinter, Options, Tokenizer, Weighting};

// The corpus and the statistics every measurement program shares.
#[path = "../../common.rs"]
mod common;
use common::{corpus_dir, load_corpus_and_samples, median};

/// Timed repeats per case, whatever the time budget.
const MIN_REPEATS: usize = 9;
/// Fingerprints in the Hamming haystack.
const HAYSTACK_LEN: usize = 1 << 20;
/// The distance bound the Hamming loops count against (so the work cannot be skipped).
const K: u32 = 3;
/// A second bound: the recommended k for English, where the scan kernel uses a popcount.
const K_WIDE: u32 = 9;

/// Times several cases in interleaved rounds (each round runs every case once), so that all of
/// them see the same load on a shared, noisy machine and their ratios stay meaningful. After a
/// warm-up of each case, runs at least `MIN_REPEATS` rounds and at least `budget` per case in
/// all; returns each case's median seconds per run.
fn measure_rounds(budget: Duration, runs: &mut [Run]) -> Vec<f64> {
    for run in runs.iter_mut() {
        let warm_until = Instant::now() + budget / 4;
        let mut warm = 0;
        while warm < 2 || Instant::now() < warm_until {
            run();
            warm += 1;
        }
    }
    let total = budget * runs.len() as u32;
    let mut times = vec![Vec::new(); runs.len()];
    let start = Instant::now();
    while times[0].len() < MIN_REPEATS || start.elapsed() < total {
        for (run, t) in runs.iter_mut().zip(&mut times) {
            let t0 = Instant::now();
            run();
            t.push(t0.elapsed().as_secs_f64());
        }
    }
    times.iter().map(|t| median(t)).collect()
}

/// gaoya's tokenizer, called through gaoya itself so both sides see the very same features.
fn gaoya_split(text: &str) -> impl Iterator<Item = &str> {
    gaoya::text::whitespace_split(text)
}

/// Counts (features fed to the hash, distinct features) of a text.
type Counter = Box<dyn Fn(&str) -> (usize, usize)>;
/// One timed run of a case.
type Run<'a> = Box<dyn FnMut() + 'a>;

/// One fingerprinting case: a name, what it tokenizes, and the function under test.
struct Case {
    name: &'static str,
    tokenization: &'static str,
    peer: bool,
    run: Box<dyn Fn(&str) -> u64>,
    /// (features fed to the hash, distinct features) for `text`, counted outside the timing.
    count: Counter,
}

/// Occurrences and distinct features of a simprint tokenizer, through `explain` with tf
/// weights (the weight of a distinct feature is then its number of occurrences).
fn simprint_counts(tokenizer: Tokenizer) -> Counter {
    let fp = Fingerprinter::new(Options {
        tokenizer,
        weighting: Weighting::TermFrequency,
        ..Options::default()
    })
    .expect("valid options");
    Box::new(move |text| {
        let e = fp.explain(text).expect("SimHash explains");
        let total: f64 = e.features.iter().map(|f| f.weight).sum();
        (total as usize, e.features.len())
    })
}

fn split_counts<'a, I: Iterator<Item = &'a str>>(words: I) -> (usize, usize) {
    let mut total = 0;
    let mut distinct = HashSet::new();
    for w in words {
        total += 1;
        distinct.insert(w);
    }
    (total, distinct.len())
}

fn cases() -> Vec<Case> {
    let default_tokenizer = Options::default().tokenizer;
    let words_tf = Fingerprinter::new(Options {
        tokenizer: Tokenizer::Words { n: 1 },
        weighting: Weighting::TermFrequency,
        ..Options::default()
    })
    .expect("valid options");
    let features = Fingerprinter::new(Options::default()).expect("valid options");
    // gaoya's SimHash takes any iterator of features; these keys are arbitrary (gaoya's own
    // tests use (1, 2)); SipHash's speed does not depend on them.
    let gaoya = SimHash::<SimSipHasher64, u64, 64>::new(SimSipHasher64::new(1, 2));
    vec![
        Case {
            name: "simprint default",
            tokenization: "UAX#29 words, CJK runs as char bigrams; width+case fold; binary",
            peer: false,
            run: Box::new(|t| simprint::fingerprint(t).to_u64().expect("64 bits")),
            count: simprint_counts(default_tokenizer),
        },
        Case {
            name: "simprint words tf",
            tokenization: "UAX#29 words (CJK: 1 char each); width+case fold; tf",
            peer: false,
            run: Box::new(move |t| words_tf.fingerprint(t).to_u64().expect("64 bits")),
            count: simprint_counts(Tokenizer::Words { n: 1 }),
        },
        Case {
            name: "simprint, gaoya's split",
            tokenization: "gaoya's split fed to fingerprint_features; no fold; tf",
            peer: false,
            run: Box::new(move |t| {
                features
                    .fingerprint_features(gaoya_split(t).map(|w| (w, 1.0)))
                    .expect("finite weights")
                    .to_u64()
                    .expect("64 bits")
            }),
            count: Box::new(|t| split_counts(gaoya_split(t))),
        },
        Case {
            name: "gaoya 0.2.2",
            tokenization: "split on ASCII whitespace+punctuation; no fold; SipHash-2-4",
            peer: true,
            run: Box::new(move |t| gaoya.create_signature(gaoya_split(t))),
            count: Box::new(|t| split_counts(gaoya_split(t))),
        },
        Case {
            name: "simhash 0.3.0",
            tokenization: "str::split_whitespace (Unicode); no fold; SipHash-2-4, key 0",
            peer: true,
            run: Box::new(simhash::simhash),
            count: Box::new(|t| split_counts(t.split_whitespace())),
        },
    ]
}

/// A plain scan with the POPCNT instruction enabled for this function only (the default
/// x86-64 target predates POPCNT, so `count_ones` there is a bit-twiddling sequence).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_within_popcnt(q: u64, fps: &[u64], k: u32) -> usize {
    fps.iter().filter(|&&x| (q ^ x).count_ones() <= k).count()
}

fn popcnt_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn print_table(header: &[&str], rows: &[Vec<String>], left: &[usize]) {
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([header[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: Vec<&str>| {
        let padded: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let pad = " ".repeat(widths[i] - c.chars().count());
                if left.contains(&i) {
                    format!("{c}{pad}")
                } else {
                    format!("{pad}{c}")
                }
            })
            .collect();
        println!("{}", padded.join("  ").trim_end());
    };
    line(header.to_vec());
    println!(
        "{}",
        widths
            .iter()
            .map(|&w| "-".repeat(w))
            .collect::<Vec<_>>()
            .join("  ")
    );
    for r in rows {
        line(r.iter().map(String::as_str).collect());
    }
}

fn ratio(a: f64, b: f64) -> String {
    format!("{:.2}x", a / b)
}

fn main() {
    let seconds: f64 = match std::env::args().nth(1) {
        Some(s) => s.parse().unwrap_or_else(|_| {
            eprintln!("usage: simprint-peer-bench [SECONDS per case, default 0.5]");
            std::process::exit(2);
        }),
        None => 0.5,
    };
    let budget = Duration::from_secs_f64(seconds);
    let texts = load_corpus_and_samples().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1);
    });
    let cases = cases();

    println!(
        "simprint vs Rust SimHash peers, native ({}); corpus {}",
        std::env::consts::ARCH,
        corpus_dir().display()
    );
    // Build flags change the picture (RUSTFLAGS="-C target-cpu=native" lets the compiler
    // vectorize the peers' per-bit loops and use POPCNT), so say what this build may use.
    let features = [
        ("popcnt", cfg!(target_feature = "popcnt")),
        ("avx2", cfg!(target_feature = "avx2")),
        ("avx512f", cfg!(target_feature = "avx512f")),
        ("avx512vpopcntdq", cfg!(target_feature = "avx512vpopcntdq")),
    ];
    let on: Vec<&str> = features.iter().filter(|f| f.1).map(|f| f.0).collect();
    println!(
        "Built with: {}",
        if on.is_empty() {
            "the default target, no popcnt/avx2/avx512 (set RUSTFLAGS to change)".to_string()
        } else {
            on.join(", ")
        }
    );
    println!(
        "MB/s = 10^6 input bytes/s, median of >= {MIN_REPEATS} repeats (>= {seconds} s) per \
         case after warm-up, the cases of a table interleaved round by round; each repeat \
         fingerprints the whole file. 64-bit fingerprints.\n"
    );

    let mut rows = Vec::new();
    // (text, gaoya's rate, simprint default's rate), for the ratios printed after the table.
    let mut rates_of: Vec<(&str, f64, f64)> = Vec::new();
    for (name, text) in &texts {
        let bytes = text.len() as f64;
        let mut runs: Vec<Run> = cases
            .iter()
            .map(|case| {
                let expected = (case.run)(text);
                Box::new(move || {
                    let fp = (case.run)(black_box(text.as_str()));
                    assert_eq!(
                        fp, expected,
                        "{}: fingerprint changed between runs",
                        case.name
                    );
                }) as Run
            })
            .collect();
        let rates: Vec<f64> = measure_rounds(budget, &mut runs)
            .into_iter()
            .map(|secs| bytes / secs)
            .collect();
        let gaoya = rates[cases
            .iter()
            .position(|c| c.name.starts_with("gaoya"))
            .unwrap()];
        let simhash = rates[cases
            .iter()
            .position(|c| c.name.starts_with("simhash"))
            .unwrap()];
        let default = rates[cases
            .iter()
            .position(|c| c.name == "simprint default")
            .unwrap()];
        rates_of.push((name, gaoya, default));
        for (case, &rate) in cases.iter().zip(&rates) {
            let (total, distinct) = (case.count)(text);
            let (vs_gaoya, vs_simhash) = if case.peer {
                ("-".to_string(), "-".to_string())
            } else {
                (ratio(rate, gaoya), ratio(rate, simhash))
            };
            rows.push(vec![
                format!("{name} ({:.2} MB)", bytes / 1e6),
                case.name.to_string(),
                case.tokenization.to_string(),
                format!("{total}/{distinct}"),
                format!("{:.1}", rate / 1e6),
                vs_gaoya,
                vs_simhash,
            ]);
        }
    }
    print_table(
        &[
            "text",
            "case",
            "tokenization",
            "features/distinct",
            "MB/s",
            "simprint/gaoya",
            "simprint/simhash",
        ],
        &rows,
        &[0, 1, 2],
    );
    let rate = |text: &str| rates_of.iter().find(|r| r.0 == text).copied();
    if let (Some(en), Some(zh)) = (rate("en.txt"), rate("zh.txt")) {
        println!(
            "\ngaoya native: en.txt {:.1} MB/s, zh.txt {:.1} MB/s. For the ratios under Node:\n  \
             GAOYA_MBPS={} node bench/peers.mjs",
            en.1 / 1e6,
            zh.1 / 1e6,
            rates_of
                .iter()
                .map(|(name, gaoya, _)| format!("{name}={:.1}", gaoya / 1e6))
                .collect::<Vec<_>>()
                .join(",")
        );
    }
    // Issue 19's same-run ratios: mixed text against English built the same way, and English
    // man pages against gaoya; issue 30's held-out CJK samples against the same yardstick.
    if let Some(yardstick) = rate("docs-en") {
        for text in [
            "docs-zh", "help-zh", "guide-zh", "docs-ja", "help-ja", "guide-ja", "man-en",
        ] {
            if let Some(r) = rate(text) {
                println!(
                    "simprint default on {text}: {:.1} MB/s, {:.0} % of docs-en's {:.1} MB/s, {:.2}x gaoya",
                    r.2 / 1e6,
                    100.0 * r.2 / yardstick.2,
                    yardstick.2 / 1e6,
                    r.2 / r.1
                );
            }
        }
    }

    // Hamming distance: one query against 2^20 fingerprints, counting those within K.
    let mut x: u64 = 0x5eed;
    let haystack: Vec<u64> = (0..HAYSTACK_LEN)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect();
    let q = haystack[HAYSTACK_LEN / 2] ^ 0b1011;
    let expected = haystack
        .iter()
        .filter(|&&f| (q ^ f).count_ones() <= K)
        .count();
    assert!(expected >= 1, "the query's neighbour is in the haystack");
    let expected_wide = haystack
        .iter()
        .filter(|&&f| (q ^ f).count_ones() <= K_WIDE)
        .count();
    let hs = haystack.as_slice();
    let check = |n: usize, what: &str| assert_eq!(n, expected, "{what} counted differently");
    let check_wide =
        |n: usize, what: &str| assert_eq!(n, expected_wide, "{what} counted differently");

    let mut out = Vec::with_capacity(HAYSTACK_LEN);
    let mut cases: Vec<(&str, &str, Run)> = vec![
        (
            "plain loop",
            if cfg!(target_feature = "popcnt") {
                "(q ^ x).count_ones() <= k, built with popcnt"
            } else {
                "(q ^ x).count_ones() <= k, built without popcnt"
            },
            Box::new(|| {
                let n = black_box(hs)
                    .iter()
                    .filter(|&&f| (q ^ f).count_ones() <= K)
                    .count();
                check(n, "plain loop");
            }),
        ),
        (
            "simprint::hamming64",
            "hamming64(q, x) <= k per element",
            Box::new(|| {
                let n = black_box(hs)
                    .iter()
                    .filter(|&&f| simprint::hamming64(q, f) <= K)
                    .count();
                check(n, "hamming64");
            }),
        ),
        (
            "simprint::distances64",
            "batch: one u8 distance per element",
            Box::new(|| {
                simprint::distances64(q, black_box(hs), &mut out);
                let n = out.iter().filter(|&&d| u32::from(d) <= K).count();
                check(n, "distances64");
            }),
        ),
        (
            "simprint::scan64",
            "batch: hits within k",
            Box::new(|| check(simprint::scan64(q, black_box(hs), K).len(), "scan64")),
        ),
        (
            "plain loop, k = 9",
            "(q ^ x).count_ones() <= 9",
            Box::new(|| {
                let n = black_box(hs)
                    .iter()
                    .filter(|&&f| (q ^ f).count_ones() <= K_WIDE)
                    .count();
                check_wide(n, "plain loop k = 9");
            }),
        ),
        (
            "simprint::scan64, k = 9",
            "batch: hits within 9",
            Box::new(|| check_wide(simprint::scan64(q, black_box(hs), K_WIDE).len(), "scan64")),
        ),
        (
            "gaoya hamming_distance",
            "SimHashBits::hamming_distance per element",
            Box::new(|| {
                let n = black_box(hs)
                    .iter()
                    .filter(|f| f.hamming_distance(&q) <= K as usize)
                    .count();
                check(n, "gaoya");
            }),
        ),
        (
            "simhash hamming_distance",
            "simhash::hamming_distance per element",
            Box::new(|| {
                let n = black_box(hs)
                    .iter()
                    .filter(|&&f| simhash::hamming_distance(q, f) <= K)
                    .count();
                check(n, "simhash");
            }),
        ),
    ];
    #[cfg(target_arch = "x86_64")]
    if popcnt_available() {
        cases.insert(
            1,
            (
                "plain loop +popcnt",
                "same in a #[target_feature(enable = \"popcnt\")] fn",
                Box::new(|| {
                    // SAFETY: the CPU was checked for POPCNT just above.
                    let n = unsafe { count_within_popcnt(q, black_box(hs), K) };
                    check(n, "popcnt loop");
                }),
            ),
        );
    }
    let mut runs: Vec<Run> = Vec::new();
    let mut labels = Vec::new();
    for (name, what, run) in cases {
        labels.push((name, what));
        runs.push(run);
    }
    let secs = measure_rounds(budget, &mut runs);
    let hamming_rows: Vec<(&str, &str, f64)> = labels
        .iter()
        .zip(&secs)
        .map(|(&(name, what), s)| (name, what, HAYSTACK_LEN as f64 / s))
        .collect();
    let plain = hamming_rows[0].2;
    let rows: Vec<Vec<String>> = hamming_rows
        .iter()
        .map(|(name, how, rate)| {
            vec![
                name.to_string(),
                how.to_string(),
                format!("{rate:.3e}"),
                ratio(*rate, plain),
            ]
        })
        .collect();
    println!(
        "\nHamming distance, one 64-bit query against {HAYSTACK_LEN} fingerprints \
         (k = {K} unless the case says otherwise), median comparisons/s:"
    );
    print_table(
        &["case", "what", "comparisons/s", "vs plain loop"],
        &rows,
        &[0, 1],
    );
}
