//! Lowercasing as `str::to_lowercase` does it, from the crate's own tables
//! ([`super::case_table`]): core's follow the compiler's Unicode version, so a newer Rust could
//! move fingerprints, and they take three times the bytes in the WebAssembly.

use alloc::string::String;

use super::case_table::{CLASSES, LOWER, MULTI};

/// What the final-sigma rule sees in a character.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Class {
    /// Cased and not case-ignorable.
    Cased,
    /// Case-ignorable (some of these are cased too; the rule passes over them all the same).
    Ignorable,
    /// Neither.
    Other,
}

/// The class of `c`, from [`CLASSES`].
pub(super) fn class(c: char) -> Class {
    let c = c as u32;
    let at = CLASSES.partition_point(|&e| e >> 11 <= c);
    let Some(&e) = at.checked_sub(1).and_then(|i| CLASSES.get(i)) else {
        return Class::Other;
    };
    if c - (e >> 11) > (e >> 1 & 0x3FF) {
        Class::Other
    } else if e & 1 == 1 {
        Class::Cased
    } else {
        Class::Ignorable
    }
}

/// The one character `c` lowercases to, when that is one character other than `c`, from
/// [`LOWER`].
fn lower_one(c: char) -> Option<char> {
    let c = c as u32;
    let at = LOWER.partition_point(|&(e, _)| e >> 11 <= c);
    let &(e, delta) = LOWER.get(at.checked_sub(1)?)?;
    let offset = c - (e >> 11);
    let stride = (e & 1) + 1;
    if !offset.is_multiple_of(stride) || offset / stride > (e >> 1 & 0x3FF) {
        return None;
    }
    char::from_u32(c.wrapping_add_signed(delta))
}

/// The lowercase of the Σ at byte `i` of `text`: ς at the end of a word, else σ, as
/// `str::to_lowercase` decides (Unicode's Final_Sigma: a cased letter before it and none after
/// it, passing over case-ignorable characters). Each search stops at the first character that
/// is not case-ignorable, so runs of them are read at most twice in all.
pub(super) fn sigma_at(text: &str, i: usize) -> char {
    let ignorable_then_cased = |mut chars: core::str::Chars<'_>, back: bool| {
        let mut next = || {
            if back {
                chars.next_back()
            } else {
                chars.next()
            }
        };
        loop {
            match next().map(class) {
                Some(Class::Ignorable) => {}
                found => return found == Some(Class::Cased),
            }
        }
    };
    let before = text.get(..i).unwrap_or_default().chars();
    let after = text.get(i + 'Σ'.len_utf8()..).unwrap_or_default().chars();
    if ignorable_then_cased(before, true) && !ignorable_then_cased(after, false) {
        'ς'
    } else {
        'σ'
    }
}

/// What a character lowercases to when that is not itself.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Lower {
    /// One other character.
    Char(char),
    /// More than one character (İ).
    Str(&'static str),
}

impl Lower {
    /// Appends it to `out`.
    pub(super) fn push_to(self, out: &mut String) {
        match self {
            Lower::Char(c) => out.push(c),
            Lower::Str(s) => out.push_str(s),
        }
    }
}

/// The lowercase of `c` when it is not `c` itself (for a Σ, σ: its final form depends on the
/// text around it, [`sigma_at`]). CJK, kana, Bopomofo, Yi and Hangul have no case, so the
/// common characters of Chinese, Japanese and Korean text skip the table lookup.
#[inline]
pub(super) fn lowercase_of(c: char) -> Option<Lower> {
    if matches!(c as u32, 0x2E80..=0xA4CF | 0xAC00..=0xD7A3) {
        return None;
    }
    if let Some(lower) = lower_one(c) {
        return Some(Lower::Char(lower));
    }
    MULTI
        .iter()
        .find(|m| m.0 == c)
        .map(|&(_, lower)| Lower::Str(lower))
}

/// Appends the lowercase of `c` (not a Σ: [`sigma_at`]); the tests' one-character fold.
#[cfg(test)]
pub(super) fn push_lowercase(out: &mut String, c: char) {
    match lowercase_of(c) {
        Some(lower) => lower.push_to(out),
        None => out.push(c),
    }
}

/// True when `c` lowercases to itself.
#[cfg(test)]
pub(super) fn lowercase_unchanged(c: char) -> bool {
    lowercase_of(c).is_none()
}

/// `str::to_lowercase` of `text` when the standard library's Unicode is the tables' (else
/// characters it knows and the tables do not would differ; `case_table`'s tests say what is
/// checked then): what the tests compare with.
#[cfg(test)]
pub(super) fn std_lowercase(text: &str) -> Option<String> {
    (char::UNICODE_VERSION == super::case_table::UNICODE_VERSION).then(|| text.to_lowercase())
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
            assert!(
                lower_one(c).is_none() && MULTI.iter().all(|m| m.0 != c),
                "{c:?}"
            );
            assert!(lowercase_unchanged(c));
        }
    }

    #[test]
    fn lowercase_of_every_character_is_the_standard_one() {
        let mut ours = String::new();
        let all: String = (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| c != 'Σ')
            .inspect(|&c| push_lowercase(&mut ours, c))
            .collect();
        if let Some(expected) = std_lowercase(&all) {
            assert!(ours == expected);
        }
    }

    /// The final-sigma rule, for every character before and after a Σ, alone and with a
    /// cased letter beyond it: each character's class decides those four texts.
    #[test]
    fn sigma_next_to_every_character_is_the_standard_one() {
        let Some(_) = std_lowercase("") else { return };
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let n = c.len_utf8();
            for (text, i) in [
                (alloc::format!("AΣ{c}"), 1),
                (alloc::format!("AΣ{c}B"), 1),
                (alloc::format!("{c}Σ"), n),
                (alloc::format!("A{c}Σ"), 1 + n),
            ] {
                let expected = text.to_lowercase();
                let before = text[..i].to_lowercase().len();
                let want = expected[before..].chars().next();
                assert_eq!(Some(sigma_at(&text, i)), want, "{text:?}");
            }
        }
    }

    #[test]
    fn sigma_in_runs_of_ignorable_characters() {
        // Combining marks are case-ignorable: the rule looks through them.
        assert_eq!(sigma_at("Α\u{301}\u{301}Σ\u{301}", 6), 'ς');
        assert_eq!(sigma_at("Α\u{301}Σ\u{301}Α", 4), 'σ');
        assert_eq!(sigma_at("\u{301}Σ", 2), 'σ');
        assert_eq!(sigma_at("Σ", 0), 'σ');
        assert_eq!(sigma_at("ΑΣ", 2), 'ς');
        assert_eq!(sigma_at("ΑΣ.", 2), 'ς');
        assert_eq!(sigma_at("ΑΣ'Α", 2), 'σ');
    }
}
