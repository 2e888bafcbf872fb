//! Measures how each text pipeline separates edited copies from unrelated documents.
//!
//! The evidence behind the default tokenizer (README, "Choosing the default pipeline").
//!
//!     python3 scripts/corpus.py                      # fetch real text once
//!     cargo run --release --example pipeline_distances -- ~/.cache/simprint/corpus
//!
//! Documents are the corpus pages cut into chunks of at least 1,500 characters; edited copies
//! get random word edits (English) or character edits (Chinese) at each rate: substitute,
//! insert or delete, equally likely, from a fixed seed. "unrelated" pairs each document with
//! another page's. Prints median distances (and the 5th percentile for unrelated pairs).
use std::path::Path;

use simprint::{Fingerprinter, Options, Tokenizer, Weighting};

/// A small deterministic generator (xorshift64*), so every run edits the same way.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        ((self.next() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
}

fn chunks(dir: &Path, limit: usize) -> Vec<String> {
    let mut pages: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    pages.sort();
    let mut out = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(page).unwrap();
        let mut current = String::new();
        for para in text.split("\n\n") {
            current.push_str(para);
            current.push_str("\n\n");
            if current.chars().count() >= 1500 {
                out.push(std::mem::take(&mut current));
                break; // one chunk per page keeps the documents unrelated
            }
        }
    }
    out.truncate(limit);
    out
}

/// Words split on whitespace; with `by_char`, words holding Han characters are split into
/// characters (Chinese is edited character by character, embedded English word by word).
fn units(text: &str, by_char: bool) -> Vec<String> {
    let mut out = Vec::new();
    for w in text.split_whitespace() {
        if by_char && w.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)) {
            out.extend(w.chars().map(String::from));
        } else {
            out.push(String::from(w));
        }
    }
    out
}

/// Edits `rate` of the units (words split on whitespace, or characters).
fn edit(text: &str, rate: f64, by_char: bool, vocab: &[String], rng: &mut Rng) -> String {
    let units = units(text, by_char);
    let mut out: Vec<String> = Vec::with_capacity(units.len());
    for u in units {
        if rng.chance(rate) {
            match rng.below(3) {
                0 => out.push(vocab[rng.below(vocab.len())].clone()),
                1 => {
                    out.push(u);
                    out.push(vocab[rng.below(vocab.len())].clone());
                }
                _ => {}
            }
        } else {
            out.push(u);
        }
    }
    // Chinese has no spaces between characters; joining units with spaces would add features
    // to no purpose, so CJK units are joined directly and others by a space.
    let mut joined = String::new();
    for u in out {
        let cjk = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        let glued =
            by_char && cjk(&u) && joined.chars().last().is_some_and(|c| cjk(&c.to_string()));
        if !joined.is_empty() && !glued {
            joined.push(' ');
        }
        joined.push_str(&u);
    }
    joined
}

fn median(mut xs: Vec<u32>) -> u32 {
    xs.sort_unstable();
    xs[xs.len() / 2]
}

fn percentile(mut xs: Vec<u32>, p: f64) -> u32 {
    xs.sort_unstable();
    xs[((xs.len() - 1) as f64 * p) as usize]
}

fn main() {
    let root = std::env::args()
        .nth(1)
        .expect("usage: pipeline_distances CORPUS_DIR");
    let root = Path::new(&root);
    let tf = Weighting::TermFrequency;
    let bin = Weighting::Binary;
    let configs: Vec<(&str, Tokenizer, Weighting)> = vec![
        (
            "auto w1 c2 tf",
            Tokenizer::Auto {
                word_n: 1,
                char_n: 2,
            },
            tf,
        ),
        (
            "auto w1 c2 binary",
            Tokenizer::Auto {
                word_n: 1,
                char_n: 2,
            },
            bin,
        ),
        (
            "auto w1 c1 tf",
            Tokenizer::Auto {
                word_n: 1,
                char_n: 1,
            },
            tf,
        ),
        (
            "auto w1 c3 tf",
            Tokenizer::Auto {
                word_n: 1,
                char_n: 3,
            },
            tf,
        ),
        (
            "auto w2 c2 tf",
            Tokenizer::Auto {
                word_n: 2,
                char_n: 2,
            },
            tf,
        ),
        (
            "auto w2 c2 binary",
            Tokenizer::Auto {
                word_n: 2,
                char_n: 2,
            },
            bin,
        ),
        (
            "auto w3 c2 tf",
            Tokenizer::Auto {
                word_n: 3,
                char_n: 2,
            },
            tf,
        ),
        ("words n1 tf", Tokenizer::Words { n: 1 }, tf),
        ("words n2 binary", Tokenizer::Words { n: 2 }, bin),
        ("chars n3 tf", Tokenizer::Chars { n: 3 }, tf),
        ("chars n3 binary", Tokenizer::Chars { n: 3 }, bin),
        ("chars n4 tf", Tokenizer::Chars { n: 4 }, tf),
        ("chars n4 binary", Tokenizer::Chars { n: 4 }, bin),
        ("chars n5 tf", Tokenizer::Chars { n: 5 }, tf),
    ];

    let rates = [0.01, 0.05, 0.10, 0.20];
    for (lang, by_char) in [("en", false), ("zh", true)] {
        let docs = chunks(&root.join(lang), 80);
        // Normalise each document's spacing the way edits rejoin it, so that 0 % edits give
        // distance 0 and only the edits move fingerprints.
        let docs: Vec<String> = docs
            .iter()
            .map(|d| edit(d, 0.0, by_char, &[], &mut Rng(1)))
            .collect();
        let vocab: Vec<String> = docs.iter().flat_map(|d| units(d, by_char)).collect();
        println!(
            "\n{lang}: {} documents of 1,500+ characters; 64-bit fingerprints",
            docs.len()
        );
        println!(
            "{:<20} {:>6} {:>6} {:>6} {:>6} | {:>10} {:>10}",
            "pipeline", "1%", "5%", "10%", "20%", "unrel. med", "unrel. p5"
        );
        for (name, tokenizer, weighting) in &configs {
            let fp = Fingerprinter::new(Options {
                tokenizer: *tokenizer,
                weighting: *weighting,
                ..Options::default()
            })
            .unwrap();
            let base: Vec<_> = docs.iter().map(|d| fp.fingerprint(d)).collect();
            let mut row = Vec::new();
            for rate in rates {
                let mut rng = Rng(0x5151_0001 ^ (rate * 1e4) as u64);
                let ds = docs
                    .iter()
                    .zip(&base)
                    .map(|(d, b)| {
                        fp.fingerprint(&edit(d, rate, by_char, &vocab, &mut rng))
                            .distance(b)
                            .unwrap()
                    })
                    .collect();
                row.push(median(ds));
            }
            let unrelated: Vec<u32> = (0..base.len())
                .map(|i| {
                    base[i]
                        .distance(&base[(i + 1 + i % 7) % base.len()])
                        .unwrap()
                })
                .collect();
            println!(
                "{:<20} {:>6} {:>6} {:>6} {:>6} | {:>10} {:>10}",
                name,
                row[0],
                row[1],
                row[2],
                row[3],
                median(unrelated.clone()),
                percentile(unrelated, 0.05)
            );
        }
    }
}
