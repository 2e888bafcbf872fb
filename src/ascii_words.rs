//! A fast path for UAX #29 word segmentation of ASCII text.
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

#[inline]
fn wordish(c: Class) -> bool {
    matches!(c, Class::Letter | Class::Digit | Class::Underscore)
}

/// Calls `word` for each word of the ASCII text `text`, in order.
#[inline]
pub(crate) fn for_each_word<'t>(text: &'t str, mut word: impl FnMut(&'t str)) {
    let bytes = text.as_bytes();
    let n = bytes.len();
    let mut i = 0;
    while i < n {
        let first = class(bytes[i]);
        if !wordish(first) {
            i += 1;
            continue;
        }
        let start = i;
        let mut last = first;
        let mut alnum = first != Class::Underscore;
        i += 1;
        while i < n {
            let c = class(bytes[i]);
            if wordish(c) {
                alnum |= c != Class::Underscore;
                last = c;
                i += 1;
                continue;
            }
            // A middle character joins only between two letters or two digits.
            let joins = i + 1 < n
                && matches!(
                    (last, c, class(bytes[i + 1])),
                    (
                        Class::Letter,
                        Class::MidLetter | Class::MidNumLet,
                        Class::Letter
                    ) | (Class::Digit, Class::MidNum | Class::MidNumLet, Class::Digit)
                );
            if !joins {
                break;
            }
            last = class(bytes[i + 1]);
            i += 2;
        }
        if alnum {
            word(&text[start..i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
}
