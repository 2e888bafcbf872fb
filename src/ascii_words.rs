//! ASCII fast paths: UAX #29 word segmentation of ASCII text, and finding where ASCII ends.
//!
//! On ASCII the word-boundary rules reduce to a few byte classes: letters, digits and `_` join
//! each other (WB5, WB8–WB10, WB13a/b); a letter, `:` `.` or `'`, and a letter join (WB6/7);
//! a digit, `,` `;` `.` or `'`, and a digit join (WB11/12); everything else is a boundary.
//! Words are the segments holding a letter or digit, exactly as `unicode-segmentation`'s
//! `unicode_words` gives them (a property test checks this on random ASCII).
//!
//! The scanner also takes the Latin letters U+00C0–U+024F but × and ÷ ([`latin_letter_at`]:
//! `é`, `ñ`, `ç`, `Č`, `ß`…), which are Word_Break ALetter as ASCII letters are: every
//! byte at or above 0x80 in its text counts as a letter byte, so its callers hand it ASCII
//! and such letters only. Accented words in English or CJK text (names, the list of a
//! manual's languages on every page) then stay on the fast path instead of sending the text
//! around them through full segmentation.

use crate::byte_classes::{word_mask16, word_mask8};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Letter,
    Digit,
    Underscore,
    /// `:` (MidLetter).
    MidLetter,
    /// `.` and `'` (MidNumLet, Single_Quote).
    MidNumLet,
    /// `,` and `;` (MidNum).
    MidNum,
    Other,
}

const fn classify(b: u8) -> Class {
    match b {
        // A byte of a Latin letter (see the module docs).
        b'a'..=b'z' | b'A'..=b'Z' | 0x80..=0xFF => Class::Letter,
        b'0'..=b'9' => Class::Digit,
        b'_' => Class::Underscore,
        b':' => Class::MidLetter,
        b'.' | b'\'' => Class::MidNumLet,
        b',' | b';' => Class::MidNum,
        _ => Class::Other,
    }
}

/// Every byte's class, looked up instead of matched where a run of word bytes ends.
static CLASSES: [Class; 256] = {
    let mut table = [Class::Other; 256];
    let mut b = 0;
    while b < 256 {
        #[allow(clippy::cast_possible_truncation, reason = "b < 256")]
        let byte = b as u8;
        table[b] = classify(byte);
        b += 1;
    }
    table
};

#[inline]
fn class(b: u8) -> Class {
    CLASSES[b as usize]
}

/// Calls `word` for each word of `text` (ASCII and Latin letters, see the module docs), in
/// order.
///
/// The text is read in blocks of 64 bytes, each turned into a mask with one bit per byte set
/// for word bytes (letters, digits, `_`), sixteen bytes at a time ([`crate::byte_classes`]).
/// Where the mask changes from one bit to the next a run of word bytes starts or ends; starts
/// and ends are visited with `trailing_zeros`, so the cost per byte is a few adds and xors, and
/// the rest is paid once per run. Byte classes are only looked at where a run ends.
#[inline]
pub(crate) fn for_each_word<'t>(text: &'t str, word: impl FnMut(&'t str)) {
    for_each_word_in(text, 0, text.len(), word);
}

/// [`for_each_word`] of `text[from..to]`, ASCII and Latin letters (cut where words may be
/// cut: at the text's ends, before another character, or after ASCII whitespace), with the
/// words as slices of `text`. The blocks are read from `text`, past `to` where it goes on, and
/// the bits past `to` cleared: the short pieces of ASCII between CJK characters then take one
/// or two whole 8-byte loads, without a loop over their last bytes (whose varying length was
/// a mispredicted branch per piece).
#[inline]
pub(crate) fn for_each_word_in<'t>(
    text: &'t str,
    from: usize,
    to: usize,
    mut word: impl FnMut(&'t str),
) {
    let bytes = text.as_bytes();
    // Between CJK characters, many pieces of ASCII are a lone space or punctuation mark: no
    // word, and not worth a block.
    if to == from + 1 && !bytes[from].is_ascii_alphanumeric() {
        return;
    }
    // Inside a run (or a word joined across a middle character), and where its word started.
    let mut in_word = false;
    let mut start = 0;
    // 1 when the byte before the block is a word byte (or a middle character that joins).
    let mut carry = 0u64;
    // Up to and including `n`: a last, empty block when `n` is a multiple of 64 ends a run
    // that reaches the end of the text, so words are emitted in one place only.
    for base in (from..=to).step_by(64) {
        let mask = block_mask_in(bytes, base, to);
        // Runs start where a word byte follows another byte, and end where it is followed by
        // one; starts and ends alternate.
        let before = (mask << 1) | carry;
        let mut starts = mask & !before;
        let mut ends = before & !mask;
        carry = mask >> 63;
        loop {
            if !in_word {
                if starts == 0 {
                    break;
                }
                in_word = true;
                start = base + starts.trailing_zeros() as usize;
                starts &= starts - 1;
            }
            if ends == 0 {
                break;
            }
            let off = ends.trailing_zeros();
            ends &= ends - 1;
            let at = base + off as usize;
            // Within the piece only: what follows it joins nothing to it.
            if joins(&bytes[..to], at) {
                // The byte after a joining middle character starts a run, which goes on this
                // word: drop that start, here or (at the block's last byte) in the next block.
                if off == 63 {
                    carry = 1;
                } else {
                    starts &= starts - 1;
                }
                continue;
            }
            in_word = false;
            let w = &text[start..at];
            // A word needs a letter or digit: `_` alone is not one. Middle characters only
            // sit between letters or digits, so any byte but `_` means there is one.
            if !w.starts_with('_') || w.bytes().any(|b| b != b'_') {
                word(w);
            }
        }
    }
}

/// True if the byte at `at`, just after a run of word bytes, joins the run to the next one:
/// a middle character between two letters or two digits (WB6/7, WB11/12).
#[inline]
fn joins(bytes: &[u8], at: usize) -> bool {
    // The middle characters as bits: most run ends (a space, other punctuation) are settled
    // by this test of the byte alone, and the rest is not inlined.
    const MIDDLE: u64 = (1 << b'\'') | (1 << b',') | (1 << b'.') | (1 << b':') | (1 << b';');
    match bytes.get(at) {
        Some(&b) if b < 64 && (MIDDLE >> b) & 1 != 0 => middle_joins(bytes, at),
        _ => false,
    }
}

/// [`joins`] for a middle character at `at`: are the bytes around it two letters or two digits?
#[inline(never)]
fn middle_joins(bytes: &[u8], at: usize) -> bool {
    let (Some(&before), Some(&after)) = (bytes.get(at.wrapping_sub(1)), bytes.get(at + 1)) else {
        return false;
    };
    let (before, after) = (class(before), class(after));
    match class(bytes[at]) {
        Class::MidLetter => before == Class::Letter && after == Class::Letter,
        Class::MidNumLet => before == after && matches!(before, Class::Letter | Class::Digit),
        _ => before == Class::Digit && after == Class::Digit,
    }
}

/// [`block_mask`] of `bytes[base..to]`, reading on past `to` where `bytes` goes on. The bytes
/// there may be any (a CJK character's): each byte's test ([`crate::byte_classes`]) looks at
/// that byte alone, so they change no bit before `to`, and theirs are cleared.
#[inline(never)]
fn block_mask_in(bytes: &[u8], base: usize, to: usize) -> u64 {
    let len = to - base;
    // A block within the piece (most blocks of English): nothing to clear. Natively it takes a
    // path of its own: sharing the cut blocks' path cost English and CJK documents 1 to 4 %
    // more time. In wasm it shares that path: a second copy of the eight words' arithmetic
    // cost 1.2 KB of .wasm there, for the same speed within a percent.
    if !cfg!(target_arch = "wasm32") && len >= 64 {
        if let Some(block) = bytes.get(base..).and_then(<[u8]>::first_chunk::<64>) {
            return words_mask(block.as_chunks::<8>().0);
        }
    }
    let keep = if len >= 64 { !0 } else { (1u64 << len) - 1 };
    if len <= 16 {
        if let Some(two) = bytes.get(base..).and_then(<[u8]>::first_chunk::<16>) {
            let (words, _) = two.as_chunks::<8>();
            return words_mask(words) & keep;
        }
    } else if let Some(block) = bytes.get(base..).and_then(<[u8]>::first_chunk::<64>) {
        return words_mask(block.as_chunks::<8>().0) & keep;
    }
    // Near the end of the text (not reached for a whole block: `to` is within `bytes`).
    block_mask(&bytes[base..len.min(64) + base])
}

/// One bit per byte of the first 64 bytes of `bytes`, set for letters, digits and `_`; past the
/// end of `bytes`, bits are clear, so a run reaching the end of the text ends there.
///
/// Inlined into [`block_mask_in`], which is not: the scanner is inlined at every caller (a
/// dozen copies in the wasm build), and one call per 64 bytes costs little.
#[inline]
fn block_mask(bytes: &[u8]) -> u64 {
    if let Some(block) = bytes.first_chunk::<64>() {
        return words_mask(block.as_chunks::<8>().0);
    }
    // The text's last block, often all of a short piece of text: only its own bytes are read,
    // the last few into a zero-padded word.
    let (words, rest) = bytes.as_chunks::<8>();
    let mut last = 0;
    for (k, &b) in rest.iter().enumerate() {
        last |= u64::from(b) << (8 * k);
    }
    words_mask(words) | (word_mask8(last) << (8 * words.len()))
}

/// One bit per byte of `words` (at most eight), set for letters, digits and `_`.
#[inline(always)]
fn words_mask(words: &[[u8; 8]]) -> u64 {
    let (pairs, odd) = words.as_chunks::<2>();
    let mut mask = 0;
    for (k, [lo, hi]) in pairs.iter().enumerate() {
        mask |= word_mask16(u64::from_le_bytes(*lo), u64::from_le_bytes(*hi)) << (16 * k);
    }
    for (k, w) in odd.iter().enumerate() {
        mask |= word_mask8(u64::from_le_bytes(*w)) << (16 * pairs.len() + 8 * k);
    }
    mask
}

/// True when `bytes[at..]` starts with a Latin letter the scanner takes: U+00C0–U+024F but
/// × (U+00D7) and ÷ (U+00F7), two bytes each, all Word_Break ALetter (a test checks every one
/// against `unicode-segmentation`).
#[inline(always)]
pub(crate) fn latin_letter_at(bytes: &[u8], at: usize) -> bool {
    // The lead byte alone settles most calls (a CJK character's, in mixed text).
    let lead = bytes.get(at).copied().unwrap_or(0);
    if !(0xC3..=0xC9).contains(&lead) {
        return false;
    }
    let Some(&next) = bytes.get(at + 1) else {
        return false;
    };
    let c = (u32::from(lead & 0x1F) << 6) | u32::from(next & 0x3F);
    next & 0xC0 == 0x80 && c <= 0x24F && c != 0xD7 && c != 0xF7
}

/// The length of the text `bytes` starts with that the scanner takes: ASCII and the Latin
/// letters of [`latin_letter_at`].
#[inline(never)]
pub(crate) fn ascii_or_latin_len(bytes: &[u8]) -> usize {
    let mut end = first_non_ascii(bytes);
    while latin_letter_at(bytes, end) {
        end += 2;
        end += first_non_ascii(&bytes[end..]);
    }
    end
}

/// The position of the first byte of `bytes` that is not ASCII (`bytes.len()` if none),
/// checking sixteen bytes at a time where the target has vectors, else eight.
pub(crate) fn first_non_ascii(bytes: &[u8]) -> usize {
    let mut at = 0;
    // Sixteen bytes a step where the target has vectors: ASCII runs of code and command lines
    // in CJK manuals are long (a tenth of a LilyPond manual's time in wasm went here).
    // (Without vectors the eight-byte loop below is quicker: no blocks of sixteen then.)
    let blocks = if crate::byte_classes::VECTORS {
        bytes.as_chunks::<16>().0
    } else {
        &[]
    };
    for block in blocks {
        let block = u128::from_le_bytes(*block);
        #[allow(clippy::cast_possible_truncation, reason = "the block's two halves")]
        let high = crate::byte_classes::high_bits16(block as u64, (block >> 64) as u64);
        if high != 0 {
            return at + high.trailing_zeros() as usize;
        }
        at += 16;
    }
    let mut chunks = bytes[at..].chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes([
            chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7],
        ]);
        let high = word & 0x8080_8080_8080_8080;
        if high != 0 {
            // The first byte with its high bit set, found in the word rather than byte by
            // byte: in mixed text most ASCII runs end within a few bytes.
            return at + high.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    at + bytes[at..]
        .iter()
        .position(|b| !b.is_ascii())
        .unwrap_or(bytes.len() - at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec::Vec;
    use unicode_segmentation::UnicodeSegmentation;

    fn fast(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        for_each_word(text, |w| out.push(w));
        out
    }

    #[test]
    fn matches_unicode_words_on_tricky_ascii() {
        for text in [
            "it's 3.14, isn't it? e.g. a:b a.b.c 1,000.50 x_1 __a _ a_ 1_a a'1 1'a",
            "rock'n'roll ... 'quoted' a. .a a.. 1.. ..1 1,a a,1 a;b 1;2 http://x.y/z?q=1&r=2",
            "CRLF\r\nline\nnext\u{b}\u{c}tab\there   spaces  a--b a-b #hash @at $5 5% (x) [y] {z}",
            "",
            " ",
            "a",
            "1",
            "_",
            "'",
            "a'",
            "'a",
            "a''b",
            "1..2",
            "a::b",
            "__",
            "_1_",
        ] {
            let reference: Vec<&str> = text.unicode_words().collect();
            assert_eq!(fast(text), reference, "{text:?}");
        }
    }

    /// Words and joins across the 8-byte words and 64-byte blocks the scanner reads, and at
    /// the very end of the text: each pattern is placed so that it straddles every offset
    /// around those boundaries, in texts that end there or go on.
    #[test]
    fn matches_unicode_words_across_blocks() {
        let patterns = [
            "ab", "a.b", "1,2", "a'b", "1.5", "a:b", "x_y", "__", "_", "a.", "1,", ".a", "a..b",
            "a.b.c", "1;2;3", "_1", "a_", "a. b",
        ];
        for pattern in patterns {
            for len in [7usize, 8, 9, 16, 63, 64, 65, 66, 127, 128, 129] {
                for at in len.saturating_sub(pattern.len() + 2)..=len {
                    for fill in [' ', '-', 'z', '_', '.'] {
                        let mut text: String = core::iter::repeat_n(fill, at).collect();
                        text.push_str(pattern);
                        for rest in ["", " ", "q", "9 x"] {
                            let mut text = text.clone();
                            text.push_str(rest);
                            let reference: Vec<&str> = text.unicode_words().collect();
                            assert_eq!(fast(&text), reference, "{text:?}");
                        }
                    }
                }
            }
        }
        // One word filling whole blocks, ending exactly at a block's end or just after.
        for len in [1, 8, 63, 64, 65, 128, 192, 200] {
            let text: String = core::iter::repeat_n('w', len).collect();
            assert_eq!(fast(&text), [text.as_str()]);
        }
    }

    /// Words of an ASCII piece read on past its end, into any bytes (CJK, other letters,
    /// ASCII that must not join), at every length around the one- and two-word loads and the
    /// 64-byte blocks: those of the piece alone.
    #[test]
    fn pieces_read_past_their_end() {
        for tail in [
            "中文",
            "\u{ff}\u{ff}\u{ff}",
            "é",
            "x.y",
            "_9",
            "\u{7f}\u{10ffff}",
        ] {
            for len in (0..=20).chain(60..=70).chain([127, 128, 129]) {
                let piece: String = "ab.1 c'd,2_".chars().cycle().take(len).collect();
                let text = alloc::format!("{piece}{tail}{}", "z".repeat(70));
                let mut got = Vec::new();
                for_each_word_in(&text, 0, len, |w| got.push(w));
                assert_eq!(got, piece.unicode_words().collect::<Vec<_>>(), "{text:?}");
            }
        }
    }

    /// The Latin letters the scanner takes are exactly U+00C0–U+024F but × and ÷, and each is
    /// a letter to `unicode-segmentation` wherever it stands: joined to letters and digits
    /// next to it and across `'`, `.` and `:`, as an ASCII letter would be.
    #[test]
    fn latin_letters_segment_as_ascii_letters_do() {
        let neighbours = [
            "", "a", "Z", "1", "_", "'", ".", ":", ",", " ", "é", "ɏ", "a'", "1.", "x:", "'b",
            ".2", ":y", "- ",
        ];
        let mut taken = 0;
        for c in (0x80..=0x7FFu32).filter_map(char::from_u32) {
            let mut buf = [0u8; 2];
            let encoded = c.encode_utf8(&mut buf).as_bytes();
            let latin = latin_letter_at(encoded, 0);
            assert_eq!(
                latin,
                (0xC0..=0x24F).contains(&(c as u32)) && c != '×' && c != '÷',
                "{c:?}"
            );
            if !latin {
                continue;
            }
            taken += 1;
            assert_eq!(ascii_or_latin_len(encoded), 2);
            for before in neighbours {
                for after in neighbours {
                    let text = alloc::format!("{before}{c}{after}");
                    assert_eq!(ascii_or_latin_len(text.as_bytes()), text.len(), "{text:?}");
                    let reference: Vec<&str> = text.unicode_words().collect();
                    assert_eq!(fast(&text), reference, "{text:?}");
                }
            }
        }
        assert_eq!(taken, 0x24F - 0xC0 + 1 - 2);
        // Where the taken text ends: at any other character, or a letter cut short.
        assert_eq!(ascii_or_latin_len("añb×c".as_bytes()), 4);
        assert_eq!(ascii_or_latin_len("ab中".as_bytes()), 2);
        assert_eq!(ascii_or_latin_len("éɐ".as_bytes()), 2);
        assert_eq!(ascii_or_latin_len(&"aé".as_bytes()[..2]), 1);
    }

    /// The first byte at or above 0x80 at every position of texts of every length up to a few
    /// sixteen-byte steps, and none.
    #[test]
    fn first_non_ascii_at_every_position() {
        for len in 0..70 {
            let mut bytes = alloc::vec![b'a'; len];
            assert_eq!(first_non_ascii(&bytes), len);
            for at in 0..len {
                bytes[at] = 0xE4;
                assert_eq!(first_non_ascii(&bytes), at, "{len} {at}");
                // A second one after it changes nothing.
                if at + 1 < len {
                    bytes[len - 1] = 0x80;
                    assert_eq!(first_non_ascii(&bytes), at, "{len} {at}");
                    bytes[len - 1] = b'a';
                }
                bytes[at] = b'a';
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 5000, ..Default::default() })]

        /// `for_each_word` gives `unicode_words` on random ASCII long enough to cross several
        /// 8-byte words and 64-byte blocks, mostly of the bytes whose classes matter, with
        /// any ASCII byte and the Latin letters it takes mixed in.
        #[test]
        fn equals_unicode_words_on_random_ascii(
            chars in proptest::collection::vec(
                proptest::prop_oneof![
                    4 => proptest::sample::select(alloc::vec![
                        'a', 'b', 'Z', 'q', '0', '1', '9', '_', '\'', '.', ':', ',', ';', ' ',
                        ' ', '\n', '-', '@', '`', '{', '[', '/', '\x7f', '\0',
                    ]),
                    1 => proptest::char::range('\0', '\x7f'),
                    // Latin letters (the scanner's bytes at or above 0x80).
                    1 => proptest::prelude::Strategy::prop_filter(
                        proptest::char::range('\u{c0}', '\u{24f}'),
                        "a letter",
                        |&c| c != '×' && c != '÷',
                    ),
                ],
                0..300,
            ),
        ) {
            let text: String = chars.into_iter().collect();
            let reference: Vec<&str> = text.unicode_words().collect();
            proptest::prop_assert_eq!(fast(&text), reference, "{:?}", text);
        }
    }
}
