//! A fixed loop to count instructions with callgrind, which counts the same whatever else the
//! shared machine is doing (wall-clock figures come from `bench/`):
//!
//! ```sh
//! cargo build --release --example profile
//! valgrind --tool=callgrind target/release/examples/profile ~/.cache/simprint/corpus/en.txt 5
//! valgrind --tool=callgrind target/release/examples/profile ~/.cache/simprint/corpus/en.txt 5 features
//! ```
//!
//! Arguments: a UTF-8 file or the name of a mixed-text sample of `bench/common.rs`
//! (`docs-zh`, `docs-ja`, `docs-en`, `man-en`), passes (default 5), and the case: `default` (the default
//! options), `tf` (`words` with term frequencies), or `features` (gaoya's split — ASCII
//! whitespace and punctuation — fed to `fingerprint_features` with weight 1). The split for
//! `features` is made once, before the passes. Divide the total by the passes.

use simprint::{Fingerprinter, Options, Tokenizer, Weighting};

#[path = "common.rs"]
mod common;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .expect("usage: profile FILE [PASSES] [default|tf|features]");
    let passes: usize = args
        .next()
        .map_or(5, |s| s.parse().expect("passes: a number"));
    let case = args.next().unwrap_or_else(|| "default".into());
    let text = if common::SAMPLES
        .iter()
        .chain(common::APP_SAMPLES)
        .any(|(name, _)| *name == path)
    {
        common::load_sample(&path).expect("the corpus of scripts/corpus.py")
    } else {
        std::fs::read_to_string(&path).expect("a readable UTF-8 file")
    };
    let mut options = Options::default();
    if case == "tf" {
        options.weighting = Weighting::TermFrequency;
        options.tokenizer = Tokenizer::Words { n: 1 };
    }
    let fp = Fingerprinter::new(options).expect("valid options");
    let words: Vec<&str> = text
        .split(|c: char| c.is_ascii_whitespace() || c.is_ascii_punctuation())
        .filter(|w| !w.is_empty())
        .collect();
    let mut seen = 0u128;
    for _ in 0..passes {
        let f = match case.as_str() {
            "default" | "tf" => fp.fingerprint(&text),
            "features" => fp
                .fingerprint_features(words.iter().map(|w| (*w, 1.0)))
                .expect("finite weights"),
            other => panic!("unknown case {other:?}: default, tf or features"),
        };
        seen ^= f.value();
    }
    println!("{seen:032x}");
}
