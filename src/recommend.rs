//! How far apart two fingerprints may be and still be near-duplicates: the `k` the evaluation
//! recommends for a text.

/// The Hamming distance bound to use for `text` with the default pipeline at `width` bits:
/// what the evaluation (docs/evaluation.md) found best, on documents in nine language groups
/// (English, Chinese and Japanese, each also mixed with code; Korean, German, French) from
/// 50 to 4,000 characters.
///
/// The rule reads two counts of `text`, in one pass and without tokenizing:
///
/// - `c`, the CJK characters (Han, kana, Bopomofo: the characters the `auto` tokenizer cuts
///   into character n-grams, so about one feature each);
/// - `w`, the words outside CJK: maximal runs of other letters, digits and `_` (about one
///   feature each; Hangul counts here, as the tokenizer gives Korean words).
///
/// With `n = w + c` and the CJK share `s = c / n` (0 for empty text), at 64 bits
///
/// ```text
/// k = round(11 + 2·s + max(0, 1 − n / 80))        (halves round up)
/// ```
///
/// - **11** for text without CJK, **13** for all-CJK text, and in between by the share of
///   CJK: an edit of one CJK character changes two character bigrams where an edit of one
///   word changes one word, so the same edit rate moves more bits. Chinese technical text is
///   often half ASCII (commands, options, paths) by characters but mostly CJK by features;
///   the share moves `k` one step at a time, so no threshold sends such text to the English
///   `k` at once.
/// - **one more** up to 40 words or CJK characters (a comment, a short post): each edit is a
///   larger part of a short text. So English gets 12 up to 40 words and 11 from 41, all-CJK
///   text 14 up to 40 characters and 13 from 41.
///
/// Scaled to other widths: `round(k · width / 64)`, at most `width`. Changing what this
/// returns changes no fingerprint.
///
/// What an [`Index`](crate::Index) costs around these `k` (2026-11-24, one 2-core x86-64 VM, a
/// million random 64-bit fingerprints, medians; docs/index.md has the tables): at `k = 11`,
/// 20 µs a query natively with the kernels chosen at run time and 47 µs in wasm, 65 bytes per
/// fingerprint; at `k = 12`, 24 and 62 µs; at `k = 14`, 39 and 102 µs (76 bytes). Clustered
/// real text costs up to 1.8 times that (more matches, fuller buckets). A plain POPCNT scan of
/// the million takes about 515 µs on that machine.
///
/// ```
/// use simprint::recommended_k;
/// let long = "SimHash keeps near-duplicate documents close in Hamming distance. ".repeat(5);
/// assert_eq!(recommended_k(&long, 64), 11);
/// assert_eq!(recommended_k("A short comment, seven words long.", 64), 12);
/// assert_eq!(recommended_k("你妈妈喊你回家吃饭哦,回家罗回家罗", 64), 14);
/// assert_eq!(recommended_k(&long, 128), 22);
/// ```
#[must_use]
pub fn recommended_k(text: &str, width: u32) -> u32 {
    let (mut cjk, mut words) = (0u128, 0u128);
    let mut in_word = false;
    for c in text.chars() {
        if crate::tokenize::is_cjk(c) {
            cjk += 1;
            in_word = false;
        } else if c.is_alphanumeric() || c == '_' {
            words += u128::from(!in_word);
            in_word = true;
        } else {
            in_word = false;
        }
    }
    scale(k64(words, cjk), width)
}

/// A `k` for 64 bits scaled to `width` (1 to 128; others clamped into it):
/// `round(k · width / 64)`, halves up, at most `width`.
pub(crate) fn scale(k64: u32, width: u32) -> u32 {
    let width = width.clamp(1, crate::fingerprint::MAX_WIDTH);
    ((k64 * width + 32) / 64).min(width)
}

/// The 64-bit rule in exact integer arithmetic (u128: no count can overflow it): the value
/// times `80·n` is `880·n + 160·c + max(0, 80 − n)·n`, rounded half up.
fn k64(words: u128, cjk: u128) -> u32 {
    let n = words + cjk;
    if n == 0 {
        return 12;
    }
    let numerator = 880 * n + 160 * cjk + 80u128.saturating_sub(n) * n;
    let denominator = 80 * n;
    // At most 14 (a one-character CJK text), so the cast keeps the value.
    #[allow(clippy::cast_possible_truncation)]
    let k = ((2 * numerator + denominator) / (2 * denominator)) as u32;
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    fn words(n: usize) -> String {
        let mut s = String::new();
        for i in 0..n {
            s.push_str(if i % 2 == 0 { "apt " } else { "list " });
        }
        s
    }

    fn han(n: usize) -> String {
        "中".repeat(n)
    }

    #[test]
    fn latin_text_at_the_length_boundaries() {
        assert_eq!(recommended_k("", 64), 12);
        assert_eq!(recommended_k(&words(1), 64), 12);
        assert_eq!(recommended_k(&words(40), 64), 12); // 11.5
        assert_eq!(recommended_k(&words(41), 64), 11);
        assert_eq!(recommended_k(&words(80), 64), 11);
        assert_eq!(recommended_k(&words(10_000), 64), 11);
    }

    #[test]
    fn cjk_text_at_the_length_boundaries() {
        assert_eq!(recommended_k(&han(1), 64), 14);
        assert_eq!(recommended_k(&han(40), 64), 14); // 13.5
        assert_eq!(recommended_k(&han(41), 64), 13);
        assert_eq!(recommended_k(&han(10_000), 64), 13);
        // Kana count as CJK; Hangul as words (Korean is written with spaces).
        assert_eq!(recommended_k(&"ひらがなカタカナ".repeat(20), 64), 13);
        assert_eq!(recommended_k(&"한국어 문장 ".repeat(50), 64), 11);
    }

    #[test]
    fn what_counts_as_a_word() {
        // Runs of letters, digits and `_`; punctuation and spaces separate them.
        assert_eq!(k64(3, 0), recommended_k("foo_bar-baz,  9", 64));
        assert_eq!(k64(2, 4), recommended_k("使用apt-get命令", 64));
    }

    #[test]
    fn mixed_text_by_cjk_share() {
        // Long text: 11 + 2·s, rounded half up.
        assert_eq!(k64(1000, 0), 11);
        assert_eq!(k64(750, 250), 12); // 11.5
        assert_eq!(k64(760, 240), 11); // 11.48
        assert_eq!(k64(500, 500), 12);
        assert_eq!(k64(250, 750), 13); // 12.5
        assert_eq!(k64(0, 1000), 13);
        // Chinese technical text: a third CJK by letters, three quarters by features.
        let text =
            "使用 apt-get install 命令安装软件包，然后运行 systemctl restart nginx 重启服务。"
                .repeat(10);
        assert_eq!(recommended_k(&text, 64), 12);
    }

    #[test]
    fn other_widths_scale() {
        let long = words(1000);
        assert_eq!(recommended_k(&long, 64), 11);
        assert_eq!(recommended_k(&long, 128), 22);
        assert_eq!(recommended_k(&long, 32), 6); // 5.5 rounds up
        assert_eq!(recommended_k(&long, 1), 0); // 11 / 64 rounds to 0
        assert_eq!(recommended_k(&long, 0), 0); // clamped to 1 bit
        assert_eq!(recommended_k(&long, 500), 22); // clamped to 128 bits
        assert_eq!(recommended_k(&han(1), 8), 2); // 14 · 8 / 64 = 1.75
    }

    /// No cliff: as CJK characters replace words one at a time (and as a text grows one word
    /// or character at a time), `k` moves by at most one step, and never down as the CJK
    /// share rises. (Only a one-feature text jumps from 12 to 14 when its word becomes a
    /// CJK character: its share goes from 0 to 1 at once.)
    #[test]
    fn no_cliff_for_mixed_script_text() {
        for n in [2u128, 5, 12, 13, 39, 40, 41, 42, 79, 80, 81, 100, 400, 3000] {
            let mut previous = k64(n, 0);
            for c in 1..=n {
                let k = k64(n - c, c);
                assert!(k == previous || k == previous + 1, "n {n}, c {c}");
                previous = k;
            }
        }
        for c in [0u128, 3, 10, 40, 200] {
            let mut previous = k64(1, c);
            for w in 2..300 {
                let k = k64(w, c);
                assert!(previous.abs_diff(k) <= 1, "w {w}, c {c}");
                previous = k;
            }
        }
        for w in [0u128, 3, 10, 40, 200] {
            let mut previous = k64(w, 1);
            for c in 2..300 {
                let k = k64(w, c);
                assert!(previous.abs_diff(k) <= 1, "w {w}, c {c}");
                previous = k;
            }
        }
    }

    #[test]
    fn k_stays_between_11_and_14() {
        for w in 0..120 {
            for c in 0..120 {
                assert!((11..=14).contains(&k64(w, c)), "w {w}, c {c}");
            }
        }
    }
}
