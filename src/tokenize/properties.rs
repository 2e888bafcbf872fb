//! The two Unicode properties the tokenizer reads itself, pinned to one Unicode version: which
//! word segments are words (one alphanumeric character: `unicode_words`' rule) and which
//! grapheme clusters are white space (the `chars` tokenizer collapses them). The compiler's
//! answers while its Unicode is the tables' (as `unicode-segmentation` does for its own words),
//! else the tables of [`super::property_table`], so a newer Rust does not move fingerprints.

use super::property_table::{ALPHANUMERIC, UNICODE_VERSION, WHITE_SPACE};

/// True when `c` is in one of `ranges` (inclusive, sorted).
fn in_ranges(c: char, ranges: &[(u32, u32)]) -> bool {
    let c = c as u32;
    let at = ranges.partition_point(|&(start, _)| start <= c);
    at.checked_sub(1).is_some_and(|i| c <= ranges[i].1)
}

/// `char::is_alphanumeric` as of the tables' Unicode.
#[inline]
pub(crate) fn is_alphanumeric(c: char) -> bool {
    if char::UNICODE_VERSION == UNICODE_VERSION {
        c.is_alphanumeric()
    } else {
        alphanumeric_in_table(c)
    }
}

/// `char::is_whitespace` as of the tables' Unicode.
#[inline]
pub(crate) fn is_whitespace(c: char) -> bool {
    if char::UNICODE_VERSION == UNICODE_VERSION {
        c.is_whitespace()
    } else {
        whitespace_in_table(c)
    }
}

/// [`is_alphanumeric`] from the table.
fn alphanumeric_in_table(c: char) -> bool {
    c.is_ascii_alphanumeric() || (!c.is_ascii() && in_ranges(c, &ALPHANUMERIC))
}

/// [`is_whitespace`] from the table.
fn whitespace_in_table(c: char) -> bool {
    in_ranges(c, &WHITE_SPACE)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables answer as the compiler's functions do for every character (whichever
    /// path the functions above take on this compiler).
    #[test]
    fn the_tables_answer_as_the_standard_library() {
        if char::UNICODE_VERSION != UNICODE_VERSION {
            return;
        }
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            assert_eq!(alphanumeric_in_table(c), c.is_alphanumeric(), "{c:?}");
            assert_eq!(whitespace_in_table(c), c.is_whitespace(), "{c:?}");
        }
    }

    /// One Unicode for every table the fingerprints read: `unicode-segmentation`'s, the case
    /// tables' and these.
    #[test]
    fn one_unicode_version() {
        let (a, b, c) = UNICODE_VERSION;
        assert_eq!(
            (u64::from(a), u64::from(b), u64::from(c)),
            unicode_segmentation::UNICODE_VERSION
        );
        assert_eq!(UNICODE_VERSION, crate::normalize::CASE_UNICODE_VERSION);
    }
}
