//! The fuzz targets' checks, one module per target. Each `check(data)` decodes the raw
//! libFuzzer input with `arbitrary` and panics when simprint breaks a property; the targets in
//! `fuzz_targets/` call it, and `tests/replay.rs` runs it on every saved input in
//! `regressions/<target>/`.

use arbitrary::{Arbitrary, Unstructured};
use simprint::{Key, Normalization, Options, Tokenizer, Weighting};

pub mod index_bytes;
pub mod index_ops;
pub mod pipeline;
pub mod seeds;
pub mod stream;

/// Options as the fuzzer picks them. Mostly valid (width 1..=128, n 1..=64), sometimes just
/// outside the range, so the error path is fuzzed too.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FuzzOptions {
    pub options: Options,
    /// False when the width or an n is out of range (`Fingerprinter::new` must refuse it).
    pub valid: bool,
}

fn width_from(u: &mut Unstructured<'_>) -> arbitrary::Result<u32> {
    // One in 32: 0 or 129 (invalid); else 1..=128.
    Ok(match u8::arbitrary(u)? {
        0..=3 => 0,
        4..=7 => 129,
        b => 1 + u32::from(b) % 128,
    })
}

fn n_from(u: &mut Unstructured<'_>) -> arbitrary::Result<usize> {
    // Small sizes most of the time (where the windows turn over), sometimes up to 64, rarely
    // 0 or 65 (invalid).
    Ok(match u8::arbitrary(u)? {
        0..=3 => 0,
        4..=7 => 65,
        8..=63 => 1 + usize::from(u8::arbitrary(u)?) % 64,
        b => 1 + usize::from(b) % 4,
    })
}

impl<'a> Arbitrary<'a> for FuzzOptions {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let width = width_from(u)?;
        let tokenizer = match u8::arbitrary(u)? % 3 {
            0 => Tokenizer::Auto {
                word_n: n_from(u)?,
                char_n: n_from(u)?,
            },
            1 => Tokenizer::Words { n: n_from(u)? },
            _ => Tokenizer::Chars { n: n_from(u)? },
        };
        let weighting = match u8::arbitrary(u)? % 3 {
            0 => Weighting::Binary,
            1 => Weighting::TermFrequency,
            _ => Weighting::LogTermFrequency,
        };
        let normalization = if bool::arbitrary(u)? {
            Normalization::Width
        } else {
            Normalization::None
        };
        let case_fold = bool::arbitrary(u)?;
        let key = if bool::arbitrary(u)? {
            Key::new(<[u8; 16]>::arbitrary(u)?)
        } else {
            Key::DEFAULT
        };
        let options = Options {
            width,
            tokenizer,
            normalization,
            case_fold,
            weighting,
            key,
            // One-bit MinHash is chosen by the pipeline target's trailing byte (so that the
            // inputs saved before it kept their meaning): `pipeline::decode`.
            algorithm: simprint::Algorithm::SimHash,
        };
        let n_ok = |n: usize| (1..=64).contains(&n);
        let valid = (1..=128).contains(&width)
            && match tokenizer {
                Tokenizer::Auto { word_n, char_n } => n_ok(word_n) && n_ok(char_n),
                Tokenizer::Words { n } | Tokenizer::Chars { n } => n_ok(n),
            };
        Ok(FuzzOptions { options, valid })
    }
}

/// Text from arbitrary bytes: mostly the bytes read as UTF-8 (lossily), sometimes built from
/// an alphabet of the characters the tokenizers treat specially, so short inputs reach CJK
/// runs, combining marks, width forms, final sigma and emoji sequences often.
pub fn text_from(u: &mut Unstructured<'_>) -> arbitrary::Result<Vec<u8>> {
    const ALPHABET: &[&str] = &[
        "a",
        "B",
        "z",
        "1",
        "_",
        "'",
        ".",
        ":",
        ",",
        " ",
        " ",
        "\n",
        "\t",
        "\r\n",
        "-",
        "é",
        "\u{301}",
        "中",
        "文",
        "。",
        "、",
        "カ",
        "ｶ",
        "\u{ff9e}",
        "Ａ",
        "\u{3000}",
        "Σ",
        "ς",
        "🙂",
        "\u{200d}",
        "\u{1f3fd}",
        "🇫🇷",
        "ß",
        "İ",
        "ǅ",
        "\u{feff}",
        "\u{0}",
        "\u{85}",
        "\u{2028}",
        "ㄅ",
        "ひ",
        "한",
        "x'y",
        "3.14",
        "\u{fffd}",
        // Han outside the basic block (extension B, compatibility), CJK marks and dashes the
        // tokenizer classes by code point, and the scalar values around the surrogates and
        // at the top (which UTF-8 handling meets at its edges).
        "𠀀",
        "豈",
        "々",
        "ー",
        "—",
        "‥",
        "\u{d7ff}",
        "\u{e000}",
        "\u{ffff}",
        "\u{10ffff}",
    ];
    if bool::arbitrary(u)? {
        let picks: Vec<u8> = Arbitrary::arbitrary(u)?;
        let mut out = Vec::new();
        for p in picks {
            out.extend_from_slice(ALPHABET[usize::from(p) % ALPHABET.len()].as_bytes());
        }
        // Now and then a stray byte that is not UTF-8.
        if bool::arbitrary(u)? && !out.is_empty() {
            let at = usize::from(u16::arbitrary(u)?) % out.len();
            out.insert(
                at,
                [0xff, 0xc3, 0xe4, 0xf0, 0x80][usize::from(u8::arbitrary(u)?) % 5],
            );
        }
        Ok(out)
    } else {
        Ok(Vec::arbitrary(u)?)
    }
}
