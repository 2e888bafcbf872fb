//! The stream against the one-shot fingerprint: any chunking, at any byte (inside UTF-8
//! sequences too), under every tokenizer and weighting.
#![cfg(not(target_arch = "wasm32"))]

use simprint::{Algorithm, Fingerprinter, Normalization, Options, Tokenizer, Tolerance, Weighting};

#[path = "support/cuts.rs"]
mod cuts;
use cuts::{streamed, streamed_recommending};

fn options() -> Vec<Options> {
    let mut out = Vec::new();
    for tokenizer in [
        Tokenizer::default(),
        Tokenizer::Auto {
            word_n: 2,
            char_n: 3,
        },
        Tokenizer::Words { n: 1 },
        Tokenizer::Words { n: 3 },
        Tokenizer::Chars { n: 1 },
        Tokenizer::Chars { n: 4 },
    ] {
        for weighting in [
            Weighting::Binary,
            Weighting::TermFrequency,
            Weighting::LogTermFrequency,
        ] {
            out.push(Options {
                tokenizer,
                weighting,
                ..Options::default()
            });
        }
    }
    out.push(Options {
        normalization: Normalization::None,
        case_fold: false,
        ..Options::default()
    });
    out.push(Options {
        width: 128,
        ..Options::default()
    });
    // One-bit MinHash: its own sink (minima, no table), through every kind of feature.
    for (width, tokenizer) in [
        (64, Tokenizer::default()),
        (
            128,
            Tokenizer::Auto {
                word_n: 3,
                char_n: 3,
            },
        ),
        (37, Tokenizer::Chars { n: 2 }),
    ] {
        out.push(Options {
            width,
            tokenizer,
            algorithm: Algorithm::MinHash,
            ..Options::default()
        });
    }
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 400, ..Default::default() })]

    /// Any chunking, at any byte (inside UTF-8 sequences too), gives the one-shot result.
    #[test]
    fn streaming_equals_one_shot(
        chars in proptest::collection::vec(proptest::sample::select(vec![
            'a', 'B', '1', '_', '\'', '.', ':', ',', ' ', ' ', '\n', '\t', '-', 'é', '\u{301}',
            '中', '文', '。', '、', 'カ', 'ｶ', '\u{ff9e}', 'Ａ', '\u{3000}', 'Σ', '🙂', '\u{200d}',
            '\u{1f3fd}', 'ß', 'İ',
        ]), 0..60),
        cuts in proptest::collection::vec(0usize..200, 0..12),
        invalid in proptest::prelude::any::<bool>(),
    ) {
        let text: String = chars.into_iter().collect();
        let mut bytes = text.clone().into_bytes();
        if invalid && !bytes.is_empty() {
            // An invalid byte in the middle: both sides read it as U+FFFD.
            let at = cuts.first().copied().unwrap_or(0) % bytes.len();
            bytes.insert(at, 0xFF);
        }
        let whole = String::from_utf8_lossy(&bytes).into_owned();
        for options in options() {
            let fp = Fingerprinter::new(options).unwrap();
            let (streamed, fed) = streamed(&fp, &bytes, &cuts);
            proptest::prop_assert_eq!(fed, bytes.len() as u64);
            proptest::prop_assert_eq!(streamed, fp.fingerprint(&whole), "{:?} {:?} {:?}", options.tokenizer, whole, cuts);
            // A stream that counts the text's features recommends what the whole text gets.
            let (again, recommendation) = streamed_recommending(&fp, &bytes, &cuts);
            proptest::prop_assert_eq!(again, streamed);
            proptest::prop_assert_eq!(recommendation, Some(fp.recommend(&whole, Tolerance::DEFAULT).unwrap()),
                "{:?} {:?} {:?}", options.tokenizer, whole, cuts);
            // And its feature count is the one the pair rule takes from the whole text.
            proptest::prop_assert_eq!(recommendation.map(|r| r.features), Some(fp.feature_count(&whole)),
                "{:?} {:?} {:?}", options.tokenizer, whole, cuts);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, ..Default::default() })]

    /// Mixed technical text (Chinese and Japanese around commands, options, paths, URLs,
    /// full-width punctuation, Σ): the stream, which tokenizes piece by piece, gives what the
    /// one-shot scan of the whole text gives, for any chunking.
    #[test]
    fn streaming_mixed_technical_text_equals_one_shot(
        fragments in proptest::collection::vec(proptest::sample::select(vec![
            "使用", "安装软件包", "インストール", "します", "人々", "の", "apt-get", "install",
            "--help", "/usr/bin/foo", "https://www.debian.org/", "foo_bar", "_", "カ", "3.14",
            "README", "。", "、", "，", "（", "）", "「", "」", "：", " ", "\n", "\u{3000}", "é",
            "\u{3099}", "Σ", "ΑΣ", "ｶﾞ", "“", "”",
        ]), 0..40),
        cuts in proptest::collection::vec(0usize..400, 0..12),
    ) {
        let whole: String = fragments.concat();
        for options in options() {
            let fp = Fingerprinter::new(options).unwrap();
            let (streamed, _) = streamed(&fp, whole.as_bytes(), &cuts);
            proptest::prop_assert_eq!(streamed, fp.fingerprint(&whole), "{:?} {:?} {:?}", options.tokenizer, whole, cuts);
            let (_, recommendation) = streamed_recommending(&fp, whole.as_bytes(), &cuts);
            proptest::prop_assert_eq!(recommendation, Some(fp.recommend(&whole, Tolerance::DEFAULT).unwrap()),
                "{:?} {:?} {:?}", options.tokenizer, whole, cuts);
            // And its feature count is the one the pair rule takes from the whole text.
            proptest::prop_assert_eq!(recommendation.map(|r| r.features), Some(fp.feature_count(&whole)),
                "{:?} {:?} {:?}", options.tokenizer, whole, cuts);
        }
    }
}
