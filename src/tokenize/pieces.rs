//! Where text may be cut: the places where segmentation, case folding and width folding all
//! restart, so pieces can be tokenized (and streamed) one at a time with the same result.

use super::script::is_cjk;

/// Where text may be cut into independent pieces: after ASCII whitespace, or after 。 or 、,
/// when the next character starts something new (an ASCII non-space, or a CJK character that
/// is not a combining or voicing mark). UAX #29 always has a word and a grapheme boundary there
/// and no rule looks across it, and case and width folding do not either, so processing each
/// piece alone gives exactly the features of the whole text. ASCII pieces (most of them, in
/// most text) take the fast path; a stream can process every piece it has whole.
pub(crate) fn is_cut(prev: char, next: char) -> bool {
    let after_break = prev.is_ascii_whitespace() || prev == '。' || prev == '、';
    let starts =
        (next.is_ascii() && !next.is_ascii_whitespace() && !(prev == '。' || prev == '、'))
            || (is_cjk(next) && !matches!(next, '\u{3099}' | '\u{309A}' | '\u{FF9E}' | '\u{FF9F}'));
    after_break && starts
}

/// `text` cut into pieces at [`is_cut`] positions: the longest all-ASCII pieces the cuts allow
/// (the ASCII fast paths take them whole, so plain English is one or a few pieces), and
/// between them the shortest pieces that hold non-ASCII text. Processing the pieces one by one
/// gives the features of the whole text, whichever of its cuts are used.
pub(crate) fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    core::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = match ascii_prefix_piece(rest) {
            Some(end) => end,
            None => cut_after_first(rest).unwrap_or(rest.len()),
        };
        let (piece, tail) = rest.split_at(end);
        rest = tail;
        Some(piece)
    })
}

/// The end of the longest all-ASCII piece `text` starts with: the whole text if it is ASCII,
/// else the last cut at or before its first non-ASCII character. None when there is no such
/// cut (the first piece holds non-ASCII text).
pub(super) fn ascii_prefix_piece(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let j = crate::ascii_words::first_non_ascii(bytes);
    if j == bytes.len() {
        return Some(j);
    }
    if j == 0 {
        return None;
    }
    // A cut right before the non-ASCII character (a CJK character after a space)?
    let at_j = bytes[j - 1].is_ascii_whitespace()
        && text[j..].chars().next().is_some_and(|c| is_cut(' ', c));
    if at_j {
        return Some(j);
    }
    // Else the last ASCII whitespace → ASCII non-whitespace step before it.
    (1..j)
        .rev()
        .find(|&i| bytes[i - 1].is_ascii_whitespace() && !bytes[i].is_ascii_whitespace())
}

/// The first cut position in `text` after its first character.
pub(super) fn cut_after_first(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    // A cut needs ASCII whitespace or 。/、 (E3 80 82 / E3 80 81) just before it: scan bytes
    // and decode only there (and only when the next character is not ASCII).
    for i in 1..bytes.len() {
        let prev = match bytes[i - 1] {
            b' ' | b'\n' | b'\t' | b'\r' | b'\x0c' => ' ',
            0x81 | 0x82 if i >= 3 && bytes[i - 3] == 0xE3 && bytes[i - 2] == 0x80 => {
                if bytes[i - 1] == 0x82 {
                    '。'
                } else {
                    '、'
                }
            }
            _ => continue,
        };
        let next = bytes[i];
        let cut = if next.is_ascii() {
            is_cut(prev, next as char)
        } else {
            text.get(i..)
                .and_then(|t| t.chars().next())
                .is_some_and(|c| is_cut(prev, c))
        };
        if cut {
            return Some(i);
        }
    }
    None
}

/// The last cut position in `text` (for streams: everything before it can be processed).
pub(crate) fn last_cut(text: &str) -> Option<usize> {
    let mut chars = text.char_indices().rev();
    let (mut next_i, mut next) = chars.next()?;
    for (i, c) in chars {
        if is_cut(c, next) {
            return Some(next_i);
        }
        next_i = i;
        next = c;
    }
    None
}
