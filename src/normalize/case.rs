//! Lowercasing as `str::to_lowercase` does it, faster on the text fingerprints are made of.

use alloc::string::String;

/// The lowercase of the Σ at byte `i` of `text`: ς at the end of a word, else σ, as
/// `str::to_lowercase` decides (Unicode's Final_Sigma: a cased letter before it and none after
/// it, skipping case-ignorable characters). Those searches stop at ASCII whitespace, which is
/// neither cased nor case-ignorable, so lowering the text between the whitespace around the Σ
/// decides it as lowering the whole text would; ς and σ have the same length, so the Σ's
/// place in that lowered text is the length of what precedes it, lowered. None when that text
/// is long (a text of Σ without spaces would be lowered over and over): the caller then
/// lowers the whole text the standard way, once.
pub(super) fn sigma_at(text: &str, i: usize) -> Option<char> {
    const MAX_WORD: usize = 256;
    let bytes = text.as_bytes();
    let from = bytes[..i]
        .iter()
        .rposition(u8::is_ascii_whitespace)
        .map_or(0, |p| p + 1);
    let to = bytes[i..]
        .iter()
        .position(u8::is_ascii_whitespace)
        .map_or(bytes.len(), |p| i + p);
    if to - from > MAX_WORD {
        return None;
    }
    let before = text.get(from..i)?.to_lowercase().len();
    text.get(from..to)?
        .to_lowercase()
        .get(before..)?
        .chars()
        .next()
}

/// `str::to_lowercase`, faster: ASCII runs are lowercased byte-wise and other characters one
/// by one with `char::to_lowercase`, which is what `str::to_lowercase` does for every character
/// but a context-dependent final sigma (Σ); text holding a Σ takes the standard path.
pub(super) fn lowercase(text: &str) -> String {
    if text.contains('Σ') {
        return text.to_lowercase();
    }
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        i += crate::ascii_words::first_non_ascii(&bytes[i..]);
        if i > start {
            let from = out.len();
            out.push_str(&text[start..i]);
            out[from..].make_ascii_lowercase();
        }
        if let Some(c) = text[i..].chars().next() {
            if lowercase_unchanged(c) {
                out.push(c);
            } else {
                out.extend(c.to_lowercase());
            }
            i += c.len_utf8();
        }
    }
    out
}

/// True when `c` lowercases to itself. CJK, kana, Bopomofo, Yi and Hangul have no case, so
/// the common characters of Chinese, Japanese and Korean text skip the case table lookup.
#[inline]
pub(super) fn lowercase_unchanged(c: char) -> bool {
    if matches!(c as u32, 0x2E80..=0xA4CF | 0xAC00..=0xD7A3) {
        return true;
    }
    let mut lower = c.to_lowercase();
    lower.next() == Some(c) && lower.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caseless_ranges_have_no_lowercase() {
        for c in (0x2E80..=0xA4CFu32)
            .chain(0xAC00..=0xD7A3)
            .filter_map(char::from_u32)
        {
            assert_eq!(
                c.to_lowercase().collect::<String>(),
                String::from(c),
                "{c:?}"
            );
        }
    }

    #[test]
    fn fast_lowercase_equals_the_standard_one() {
        for text in [
            "ÉCOLE Straße İstanbul ǅemal ΑΒΓ ΟΔΥΣΣΕΥΣ ὈΔΥΣΣΕΎΣ Ꭰ 𐐀 ＡＢＣ Hello, World!",
            "no sigma here: ĀĒĪŌŪ ǄǅǆǇ ꞫꞬ Ⰰ ᾈ",
            "",
        ] {
            assert_eq!(lowercase(text), text.to_lowercase(), "{text}");
        }
        // Every character outside the final-sigma rule, one at a time and in a run.
        let all: String = (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| c != 'Σ')
            .collect();
        assert_eq!(lowercase(&all), all.to_lowercase());
    }
}
