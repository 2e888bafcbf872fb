//! What each tokenizer sees in one piece of text: words, grapheme clusters, or the `auto`
//! tokenizer's words and CJK characters, with the fast paths around full segmentation.

use unicode_segmentation::UnicodeSegmentation;

use super::script::{is_alone, is_cjk, is_han, stands_apart};

/// The words of one piece (see [`pieces`]), in order.
#[inline]
pub(crate) fn words_of<'t>(piece: &'t str, mut word: impl FnMut(&'t str)) {
    if crate::ascii_words::ascii_or_latin_len(piece.as_bytes()) == piece.len() {
        crate::ascii_words::for_each_word(piece, word);
        return;
    }
    split_apart(piece, |part| match part {
        Part::Han(c) => word(c),
        Part::Alone => {}
        Part::Between(text)
            if crate::ascii_words::ascii_or_latin_len(text.as_bytes()) == text.len() =>
        {
            crate::ascii_words::for_each_word(text, &mut word)
        }
        Part::Between(text) => text.unicode_words().for_each(&mut word),
    });
}

/// Whitespace state of the `chars` tokenizer, carried from piece to piece.
#[derive(Clone, Copy, Default)]
pub(crate) struct CharsState {
    seen: bool,
    pending_space: bool,
}

/// The characters of one piece for the `chars` tokenizer: grapheme clusters, each whitespace
/// run as one space, none before the first character or after the last.
pub(crate) fn chars_of<'t>(piece: &'t str, state: &mut CharsState, mut char: impl FnMut(&'t str)) {
    for g in piece.graphemes(true) {
        if g.chars().all(super::properties::is_whitespace) {
            state.pending_space = state.seen;
        } else {
            if core::mem::take(&mut state.pending_space) {
                char(" ");
            }
            state.seen = true;
            char(g);
        }
    }
}

/// Where the `auto` tokenizer's tokens go, in order. Separate methods rather than one
/// callback taking an enum: each is small and inlines into the loop that finds its tokens (the
/// ASCII word scanner's, above all), where one callback matching on every token did not.
pub(crate) trait AutoTokens<'t> {
    /// A word outside CJK runs (always after [`AutoTokens::end_of_run`]).
    fn word(&mut self, w: &'t str);
    /// One character (grapheme cluster) of a CJK run.
    fn cjk(&mut self, g: &'t str);
    /// Several characters of a CJK run in a row, each its own grapheme cluster.
    fn cjk_run(&mut self, run: &'t str);
    /// [`AutoTokens::cjk_run`] of a run of three-byte characters only (Han, kana: all the
    /// scan's fast path takes), so that its n-grams need not check that again.
    #[inline]
    fn cjk_run_3(&mut self, run: &'t str) {
        self.cjk_run(run);
    }
    /// Something that ends a CJK run (a space, punctuation, a non-CJK word); may repeat.
    fn end_of_run(&mut self);
}

/// A piece of text cut at the characters that stand alone in UAX #29 segmentation.
pub(super) enum Part<'t> {
    /// A Han character that is its own word segment and grapheme cluster.
    Han(&'t str),
    /// A punctuation or symbol character ([`is_alone`]) that is its own word segment and no word.
    Alone,
    /// The text between such characters, to be segmented on its own.
    Between(&'t str),
}

/// Cuts `piece` around characters with hard word boundaries on both sides: Han ideographs and
/// the punctuation of [`is_alone`], when what follows them cannot attach to them
/// ([`stands_apart`]). No segmentation rule looks across such a character (it is not one of
/// the letters, digits or middle characters that rules WB6–WB13 look past, nor a regional
/// indicator), so the text between them segments the same on its own. Common non-ASCII
/// punctuation in English (curly quotes, dashes, arrows) then leaves the ASCII around it on
/// the fast path, and only the rest goes through full segmentation.
#[inline(always)]
pub(super) fn split_apart<'t>(piece: &'t str, mut part: impl FnMut(Part<'t>)) {
    let mut between_from = 0;
    let mut chars = piece.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c.is_ascii() {
            continue;
        }
        let han = is_han(c);
        if (han || is_alone(c)) && chars.peek().is_none_or(|&(_, next)| stands_apart(next)) {
            if between_from < at {
                part(Part::Between(&piece[between_from..at]));
            }
            between_from = at + c.len_utf8();
            part(if han {
                Part::Han(&piece[at..between_from])
            } else {
                Part::Alone
            });
        }
    }
    if between_from < piece.len() {
        part(Part::Between(&piece[between_from..]));
    }
}

/// [`auto_of`](super::auto::auto_of) by full UAX #29 word and grapheme segmentation. Kept out of line: it is the
/// rare path, and inlined it kept the per-character loop around it from inlining its callback.
#[inline(never)]
pub(super) fn auto_of_segmented<'t>(text: &'t str, tokens: &mut impl AutoTokens<'t>) {
    if text.is_ascii() {
        tokens.end_of_run();
        crate::ascii_words::for_each_word(text, |w| tokens.word(w));
        return;
    }
    for segment in text.split_word_bounds() {
        if segment.chars().next().is_some_and(is_cjk) {
            for g in segment.graphemes(true) {
                tokens.cjk(g);
            }
        } else {
            tokens.end_of_run();
            if segment.chars().any(super::properties::is_alphanumeric) {
                tokens.word(segment);
            }
        }
    }
}
