//! Accented Latin letters go through the word scanner's fast path (`src/ascii_words.rs`):
//! through the public API, a text's fingerprint is that of its words written out by hand, with
//! the words at every offset of the scanner's 8-byte words and 64-byte blocks. The same case
//! runs in wasm in `tests/js/api.test.mjs` ("accented words fingerprint as their words do").

use simprint::{Fingerprinter, Options};

/// Filler of `k` bytes as one word, then the body twice and a CJK run: the text and its words
/// after case folding, each once (binary weights count a word once).
fn case(k: usize) -> (String, Vec<String>) {
    let body = "Le café d'Amélie, Česky 5ème: naïve l'été. Ærø ÿ ";
    let filler = "z".repeat(k);
    let text = format!("{filler} {body}{body}中文");
    let mut words: Vec<String> = Vec::new();
    for w in [
        filler.as_str(),
        "le",
        "café",
        "d'amélie",
        "česky",
        "5ème",
        "naïve",
        "l'été",
        "ærø",
    ]
    .into_iter()
    .chain(["ÿ", "中文"])
    {
        if !w.is_empty() && !words.iter().any(|x| x == w) {
            words.push(w.to_string());
        }
    }
    (text, words)
}

#[test]
fn accented_words_fingerprint_as_their_words_do() {
    let fp = Fingerprinter::new(Options::default()).unwrap();
    for k in 0..=72 {
        let (text, words) = case(k);
        let want = fp
            .fingerprint_features(words.iter().map(|w| (w.as_str(), 1.0)))
            .unwrap();
        assert_eq!(fp.fingerprint(&text), want, "{text:?}");
        assert_eq!(simprint::fingerprint(&text), want, "{text:?}");
    }
}
