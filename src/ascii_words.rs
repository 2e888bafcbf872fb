//! ASCII fast paths: UAX #29 word segmentation of ASCII text, and finding where ASCII ends.
//!
//! On ASCII the word-boundary rules reduce to a few byte classes: letters, digits and `_` join
//! each other (WB5, WB8–WB10, WB13a/b); a letter, `:` `.` or `'`, and a letter join (WB6/7);
//! a digit, `,` `;` `.` or `'`, and a digit join (WB11/12); everything else is a boundary.
//! Words are the segments holding a letter or digit, exactly as `unicode-segmentation`'s
//! `unicode_words` gives them (a property test checks this on random ASCII).

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
        b'a'..=b'z' | b'A'..=b'Z' => Class::Letter,
        b'0'..=b'9' => Class::Digit,
        b'_' => Class::Underscore,
        b':' => Class::MidLetter,
        b'.' | b'\'' => Class::MidNumLet,
        b',' | b';' => Class::MidNum,
        _ => Class::Other,
    }
}

/// Every byte's class, looked up instead of matched: one load per byte in the hot loop.
static CLASSES: [Class; 256] = {
    let mut table = [Class::Other; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = classify(b as u8);
        b += 1;
    }
    table
};

#[inline]
fn class(b: u8) -> Class {
    CLASSES[b as usize]
}

/// Letters, digits and `_`: the bytes a word is made of, one table load each in the hot loop.
static WORDISH: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = matches!(
            classify(b as u8),
            Class::Letter | Class::Digit | Class::Underscore
        );
        b += 1;
    }
    table
};

#[inline]
fn wordish(b: u8) -> bool {
    WORDISH[b as usize]
}

/// Calls `word` for each word of the ASCII text `text`, in order.
#[inline]
pub(crate) fn for_each_word<'t>(text: &'t str, mut word: impl FnMut(&'t str)) {
    let bytes = text.as_bytes();
    let n = bytes.len();
    let mut i = 0;
    loop {
        while i < n && !wordish(bytes[i]) {
            i += 1;
        }
        if i == n {
            return;
        }
        let start = i;
        i += 1;
        loop {
            while i < n && wordish(bytes[i]) {
                i += 1;
            }
            // A middle character joins only between two letters or two digits; the classes
            // are looked at only here, at the (rare) end of a run of word bytes.
            let joins = i + 1 < n
                && matches!(
                    (class(bytes[i - 1]), class(bytes[i]), class(bytes[i + 1])),
                    (
                        Class::Letter,
                        Class::MidLetter | Class::MidNumLet,
                        Class::Letter
                    ) | (Class::Digit, Class::MidNum | Class::MidNumLet, Class::Digit)
                );
            if !joins {
                break;
            }
            i += 2;
        }
        // A word needs a letter or digit: `_` alone is not one. Middle characters only sit
        // between letters or digits, so any byte but `_` means there is one.
        if bytes[start] != b'_' || bytes[start..i].iter().any(|&b| b != b'_') {
            word(&text[start..i]);
        }
    }
}

/// The position of the first byte of `bytes` that is not ASCII (`bytes.len()` if none),
/// checking eight bytes at a time.
pub(crate) fn first_non_ascii(bytes: &[u8]) -> usize {
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes([
            chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7],
        ]);
        if word & 0x8080_8080_8080_8080 != 0 {
            break;
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

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 5000, ..Default::default() })]

        /// `for_each_word` gives `unicode_words` on random ASCII long enough to cross several
        /// 8-byte words and 64-byte blocks, mostly of the bytes whose classes matter, with
        /// any ASCII byte mixed in.
        #[test]
        fn equals_unicode_words_on_random_ascii(
            chars in proptest::collection::vec(
                proptest::prop_oneof![
                    4 => proptest::sample::select(alloc::vec![
                        'a', 'b', 'Z', 'q', '0', '1', '9', '_', '\'', '.', ':', ',', ';', ' ',
                        ' ', '\n', '-', '@', '`', '{', '[', '/', '\x7f', '\0',
                    ]),
                    1 => proptest::char::range('\0', '\x7f'),
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
