//! Feature extraction: turning text into the sequence of features that get hashed.
//!
//! Three tokenizers, all built on Unicode text segmentation (UAX #29, via
//! `unicode-segmentation`):
//!
//! * [`Tokenizer::Words`] — word `n`-gram shingles. Words are UAX #29 word segments that hold
//!   at least one letter or digit (punctuation and spaces are dropped). A shingle is `n`
//!   consecutive words joined by one space; `n = 1` gives plain words.
//! * [`Tokenizer::Chars`] — character `n`-grams over grapheme clusters (extended), so an emoji
//!   with modifiers or a letter with combining marks counts as one character. Every run of
//!   whitespace counts as one space; leading and trailing whitespace is ignored.
//! * [`Tokenizer::Auto`] — script-aware: runs of Han, Hiragana, Katakana and Bopomofo (scripts
//!   written without spaces between words) become character `char_n`-grams within the run;
//!   every other word becomes part of one stream of word `word_n`-gram shingles.
//!
//! A sequence shorter than `n` (a two-word text with `n = 3`, a one-character CJK run with
//! `n = 2`) gives one feature holding all of it, so short texts still have features.

use alloc::vec;
use alloc::vec::Vec;

use unicode_segmentation::UnicodeSegmentation;

use crate::error::{Error, NSetting};

/// The largest n-gram size accepted (bounds the per-call window buffer).
pub const MAX_N: usize = 64;

/// How text is cut into features. See the [module docs](self) for the exact rules.
///
/// ```
/// use simprint::Tokenizer;
/// assert_eq!("words".parse::<Tokenizer>()?, Tokenizer::Words { n: 1 });
/// assert_eq!(Tokenizer::default().name(), "auto");
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tokenizer {
    /// CJK runs as character `char_n`-grams, everything else as word `word_n`-gram shingles.
    Auto {
        /// Shingle size for words outside CJK runs.
        word_n: usize,
        /// n-gram size for characters inside CJK runs.
        char_n: usize,
    },
    /// Word `n`-gram shingles (`n = 1`: single words).
    Words {
        /// Words per shingle.
        n: usize,
    },
    /// Character (grapheme cluster) `n`-grams over the whole text.
    Chars {
        /// Characters per n-gram.
        n: usize,
    },
}

impl Tokenizer {
    /// Default word shingle size of `Auto`, chosen by measurement (see the README).
    pub const DEFAULT_WORD_N: usize = 1;
    /// Default CJK character n-gram size of `Auto` and `Chars`, chosen by measurement.
    pub const DEFAULT_CHAR_N: usize = 2;

    /// The tokenizer's name, as it is parsed (and displayed), without its sizes.
    ///
    /// ```
    /// assert_eq!(simprint::Tokenizer::Chars { n: 3 }.name(), "chars");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            Tokenizer::Auto { .. } => "auto",
            Tokenizer::Words { .. } => "words",
            Tokenizer::Chars { .. } => "chars",
        }
    }

    /// Fails if an n-gram size is outside `1..=MAX_N`.
    ///
    /// ```
    /// assert!(simprint::Tokenizer::Words { n: 0 }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        let check = |setting, n: usize| {
            if (1..=MAX_N).contains(&n) {
                Ok(())
            } else {
                Err(Error::NOutOfRange {
                    setting,
                    n: n as u64,
                    max: MAX_N,
                })
            }
        };
        match *self {
            Tokenizer::Auto { word_n, char_n } => {
                check(NSetting::WordN, word_n)?;
                check(NSetting::CharN, char_n)
            }
            Tokenizer::Words { n } | Tokenizer::Chars { n } => check(NSetting::N, n),
        }
    }

    /// Calls `emit(parts, separator)` for each feature of `text`, in order of appearance. The
    /// feature's text is `parts` joined by `separator`. Expects a validated tokenizer.
    pub(crate) fn for_each_feature<'t>(
        &self,
        text: &'t str,
        mut emit: impl FnMut(&[&'t str], &'static str),
    ) {
        match *self {
            Tokenizer::Words { n } => {
                let mut words = Window::new(n, " ", text);
                for piece in pieces(text) {
                    words_of(piece, |w| words.push(w, &mut emit));
                }
                words.flush(&mut emit);
            }
            Tokenizer::Chars { n } => {
                let mut chars = Window::new(n, "", text);
                let mut state = CharsState::default();
                for piece in pieces(text) {
                    chars_of(piece, &mut state, |g| chars.push(g, &mut emit));
                }
                chars.flush(&mut emit);
            }
            Tokenizer::Auto { word_n, char_n } => {
                let mut words = Window::new(word_n, " ", text);
                let mut run = Window::new(char_n, "", text);
                for piece in pieces(text) {
                    if word_n == 1 && piece.is_ascii() {
                        // The default, and most pieces of most text: no CJK run goes on past
                        // the whitespace before an ASCII piece, and single words need no window.
                        run.flush(&mut emit);
                        crate::ascii_words::for_each_word(piece, |w| emit(&[w], " "));
                        continue;
                    }
                    auto_of(piece, |token| match token {
                        AutoToken::Word(w) => words.push(w, &mut emit),
                        AutoToken::Cjk(g) => run.push(g, &mut emit),
                        AutoToken::EndOfRun => run.flush(&mut emit),
                    });
                }
                run.flush(&mut emit);
                words.flush(&mut emit);
            }
        }
    }

    /// The tokenizer without the ASCII fast path, for tests to compare against.
    #[cfg(test)]
    pub(crate) fn for_each_feature_reference<'t>(
        &self,
        text: &'t str,
        mut emit: impl FnMut(&[&'t str], &'static str),
    ) {
        match *self {
            Tokenizer::Words { n } => {
                let mut words = Window::new(n, " ", text);
                for w in text.unicode_words() {
                    words.push(w, &mut emit);
                }
                words.flush(&mut emit);
            }
            Tokenizer::Chars { n } => {
                let mut chars = Window::new(n, "", text);
                let mut pending_space = false;
                for g in text.graphemes(true) {
                    if g.chars().all(char::is_whitespace) {
                        pending_space = chars.seen > 0;
                    } else {
                        if pending_space {
                            chars.push(" ", &mut emit);
                            pending_space = false;
                        }
                        chars.push(g, &mut emit);
                    }
                }
                chars.flush(&mut emit);
            }
            Tokenizer::Auto { word_n, char_n } => {
                let mut words = Window::new(word_n, " ", text);
                let mut run = Window::new(char_n, "", text);
                for segment in text.split_word_bounds() {
                    if segment.chars().next().is_some_and(is_cjk) {
                        for g in segment.graphemes(true) {
                            run.push(g, &mut emit);
                        }
                    } else {
                        run.flush(&mut emit);
                        if segment.chars().any(char::is_alphanumeric) {
                            words.push(segment, &mut emit);
                        }
                    }
                }
                run.flush(&mut emit);
                words.flush(&mut emit);
            }
        }
    }
}

/// The words of one piece (see [`pieces`]), in order.
#[inline]
pub(crate) fn words_of<'t>(piece: &'t str, mut word: impl FnMut(&'t str)) {
    if piece.is_ascii() {
        crate::ascii_words::for_each_word(piece, word);
        return;
    }
    split_apart(piece, |part| match part {
        Part::Han(c) => word(c),
        Part::Alone => {}
        Part::Between(text) if text.is_ascii() => {
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
        if g.chars().all(char::is_whitespace) {
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

/// What the `auto` tokenizer sees in a piece.
pub(crate) enum AutoToken<'t> {
    /// A word outside CJK runs.
    Word(&'t str),
    /// One character (grapheme cluster) of a CJK run.
    Cjk(&'t str),
    /// Something that ends a CJK run (a space, punctuation, a non-CJK word).
    EndOfRun,
}

/// The `auto` tokens of one piece, in order.
pub(crate) fn auto_of<'t>(piece: &'t str, mut token: impl FnMut(AutoToken<'t>)) {
    if piece.is_ascii() {
        // No CJK here, and the whitespace before the piece ended any run.
        token(AutoToken::EndOfRun);
        crate::ascii_words::for_each_word(piece, |w| token(AutoToken::Word(w)));
        return;
    }
    split_apart(piece, |part| match part {
        Part::Han(c) => token(AutoToken::Cjk(c)),
        Part::Alone => token(AutoToken::EndOfRun),
        Part::Between(text) => auto_of_segmented(text, &mut token),
    });
}

/// A piece of text cut at the characters that stand alone in UAX #29 segmentation.
enum Part<'t> {
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
fn split_apart<'t>(piece: &'t str, mut part: impl FnMut(Part<'t>)) {
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

/// [`auto_of`] by full UAX #29 word and grapheme segmentation. Kept out of line: it is the
/// rare path, and inlined it kept the per-character loop around it from inlining its callback.
#[inline(never)]
fn auto_of_segmented<'t>(text: &'t str, token: &mut impl FnMut(AutoToken<'t>)) {
    if text.is_ascii() {
        token(AutoToken::EndOfRun);
        crate::ascii_words::for_each_word(text, |w| token(AutoToken::Word(w)));
        return;
    }
    for segment in text.split_word_bounds() {
        if segment.chars().next().is_some_and(is_cjk) {
            for g in segment.graphemes(true) {
                token(AutoToken::Cjk(g));
            }
        } else {
            token(AutoToken::EndOfRun);
            if segment.chars().any(char::is_alphanumeric) {
                token(AutoToken::Word(segment));
            }
        }
    }
}

/// The common Han ideographs (CJK Unified Ideographs and Extension A): Word_Break Other and
/// Grapheme_Cluster_Break Other, so no segmentation rule joins them to their neighbours but
/// the ones that attach following marks, joiners and format characters.
fn is_han(c: char) -> bool {
    matches!(c as u32, 0x4E00..=0x9FFF | 0x3400..=0x4DBF)
}

/// Non-ASCII punctuation and symbols that are Word_Break Other and not Extended_Pictographic,
/// so no word rule joins them to a neighbour (their word segment is never a CJK one, so
/// grapheme rules do not matter): Latin-1 punctuation and signs (not ª µ º, which are letters,
/// · a middle letter, the soft hyphen, © ®, nor ¸, the superscript digits and fractions, which
/// `unicode-segmentation` joins to letters or digits), × ÷,
/// dashes and quotation marks (not ‘ ’ ․ ‧, which join words), bullets and ellipsis, per
/// mille, primes, guillemets and ※, and the arrows ← ↑ → ↓. A test checks each one against
/// `unicode-segmentation`.
fn is_alone(c: char) -> bool {
    matches!(c as u32,
        0xA0..=0xA8 | 0xAB | 0xAC | 0xAF..=0xB1 | 0xB4 | 0xB6 | 0xBB | 0xBF
        | 0xD7 | 0xF7
        | 0x2010..=0x2017 | 0x201A..=0x2023 | 0x2025 | 0x2026 | 0x2030..=0x203B
        | 0x2190..=0x2193)
}

/// Characters that never attach to the character before them, in words (not Extend, Format
/// or ZWJ) or grapheme clusters (not Extend, ZWJ or SpacingMark): ASCII, Han, the characters
/// of [`is_alone`], CJK punctuation up to U+3029 (U+302A–U+302F are marks), general
/// punctuation up to U+2027 (U+2028 on are separators and format characters), and
/// full-width ASCII forms.
fn stands_apart(c: char) -> bool {
    c.is_ascii()
        || is_han(c)
        || is_alone(c)
        || matches!(c as u32, 0x3000..=0x3029 | 0x2010..=0x2027 | 0xFF01..=0xFF5E)
}

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
fn ascii_prefix_piece(text: &str) -> Option<usize> {
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
fn cut_after_first(text: &str) -> Option<usize> {
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

impl core::str::FromStr for Tokenizer {
    type Err = Error;

    /// The tokenizer called `"auto"`, `"words"` or `"chars"`, with its default sizes.
    ///
    /// ```
    /// use simprint::{Error, Tokenizer};
    /// assert_eq!("chars".parse::<Tokenizer>()?, Tokenizer::Chars { n: 2 });
    /// assert!(matches!("bytes".parse::<Tokenizer>(), Err(Error::UnknownTokenizer { .. })));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    fn from_str(name: &str) -> Result<Tokenizer, Error> {
        match name {
            "auto" => Ok(Tokenizer::default()),
            "words" => Ok(Tokenizer::Words {
                n: Self::DEFAULT_WORD_N,
            }),
            "chars" => Ok(Tokenizer::Chars {
                n: Self::DEFAULT_CHAR_N,
            }),
            other => Err(Error::UnknownTokenizer {
                name: crate::error::echo(other),
            }),
        }
    }
}

/// The name only (`auto`, `words`, `chars`); the sizes are fields.
impl core::fmt::Display for Tokenizer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl Default for Tokenizer {
    /// `Auto { word_n: 1, char_n: 2 }`.
    fn default() -> Tokenizer {
        Tokenizer::Auto {
            word_n: Self::DEFAULT_WORD_N,
            char_n: Self::DEFAULT_CHAR_N,
        }
    }
}

/// Scripts written without spaces between words, where character n-grams stand in for words.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x2FDF      // CJK and Kangxi radicals
        | 0x3005 | 0x3007    // 々 〇
        | 0x3021..=0x3029    // Hangzhou numerals
        | 0x3038..=0x303B
        | 0x3040..=0x30FF    // Hiragana, Katakana
        | 0x3100..=0x312F    // Bopomofo
        | 0x31A0..=0x31FF    // Bopomofo extended, Katakana phonetic extensions
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF66..=0xFF9F    // half-width Katakana
        | 0x20000..=0x2FA1F  // CJK extensions B–F, compatibility supplement
        | 0x30000..=0x323AF) // CJK extensions G, H
}

/// The last `n` items of a sequence, kept so that the window is always one contiguous slice:
/// item `c` is stored at `c % n` and again at `c % n + n`, so the newest `n` items are
/// `buf[(c + 1) % n ..][..n]`. One allocation per call, none per feature.
struct Window<'t> {
    n: usize,
    separator: &'static str,
    buf: Vec<&'t str>,
    /// Items pushed since the last flush.
    seen: usize,
    /// Where the next item goes: `seen % n`.
    next: usize,
    /// The text the items are cut from: n-grams of adjacent items are emitted as one slice
    /// of it, which hashes in one piece instead of being copied together first.
    base: &'t str,
}

impl<'t> Window<'t> {
    fn new(n: usize, separator: &'static str, base: &'t str) -> Window<'t> {
        Window {
            n,
            separator,
            buf: vec![""; 2 * n],
            seen: 0,
            next: 0,
            base,
        }
    }

    /// `items` joined, as one slice of `base`, when they are adjacent there and the
    /// separator is empty.
    fn adjacent(&self, items: &[&'t str]) -> Option<&'t str> {
        if !self.separator.is_empty() {
            return None;
        }
        let base = self.base.as_ptr() as usize;
        let offset = |s: &str| (s.as_ptr() as usize).checked_sub(base);
        let start = offset(items.first()?)?;
        let mut end = start;
        for item in items {
            if offset(item)? != end {
                return None;
            }
            end += item.len();
        }
        self.base.get(start..end)
    }

    #[inline(always)]
    fn push(&mut self, item: &'t str, emit: &mut impl FnMut(&[&'t str], &'static str)) {
        self.seen += 1;
        if self.n == 1 {
            // Single tokens (the default for words): no ring to keep, and inlined whole.
            emit(&[item], self.separator);
        } else {
            self.push_ring(item, emit);
        }
    }

    #[inline(never)]
    fn push_ring(&mut self, item: &'t str, emit: &mut impl FnMut(&[&'t str], &'static str)) {
        let slot = self.next;
        self.buf[slot] = item;
        self.buf[slot + self.n] = item;
        // Wrapped by hand: a `%` here was a division per CJK character.
        self.next = if slot + 1 == self.n { 0 } else { slot + 1 };
        if self.seen >= self.n {
            let start = self.next;
            let items = &self.buf[start..start + self.n];
            match self.adjacent(items) {
                Some(joined) => emit(&[joined], ""),
                None => emit(items, self.separator),
            }
        }
    }

    /// Ends the sequence: a sequence shorter than `n` becomes one feature.
    fn flush(&mut self, emit: &mut impl FnMut(&[&'t str], &'static str)) {
        if self.seen > 0 && self.seen < self.n {
            emit(&self.buf[..self.seen], self.separator);
        }
        self.seen = 0;
        self.next = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    fn features(t: Tokenizer, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        t.for_each_feature(text, |parts, sep| out.push(parts.join(sep)));
        out
    }

    #[test]
    fn words_and_shingles() {
        let text = "Hello, world: it's 3.14 — isn't it?";
        assert_eq!(
            features(Tokenizer::Words { n: 1 }, text),
            ["Hello", "world", "it's", "3.14", "isn't", "it"]
        );
        assert_eq!(
            features(Tokenizer::Words { n: 3 }, "a b c d"),
            ["a b c", "b c d"]
        );
        assert_eq!(features(Tokenizer::Words { n: 3 }, "a b"), ["a b"]);
        assert!(features(Tokenizer::Words { n: 2 }, " ,; ").is_empty());
    }

    #[test]
    fn chars_over_graphemes_with_collapsed_spaces() {
        assert_eq!(
            features(Tokenizer::Chars { n: 2 }, "  ab \t\n c  "),
            ["ab", "b ", " c"]
        );
        // e + combining acute is one grapheme; a family emoji is one grapheme.
        assert_eq!(
            features(Tokenizer::Chars { n: 2 }, "e\u{301}👨‍👩‍👧x"),
            ["e\u{301}👨‍👩‍👧", "👨‍👩‍👧x"]
        );
        assert_eq!(features(Tokenizer::Chars { n: 5 }, "abc"), ["abc"]);
        assert!(features(Tokenizer::Chars { n: 1 }, " \n ").is_empty());
    }

    #[test]
    fn auto_splits_cjk_runs_from_words() {
        let text = "你妈妈喊你回家吃饭哦,回家罗 SimHash rocks";
        assert_eq!(
            features(
                Tokenizer::Auto {
                    word_n: 1,
                    char_n: 2
                },
                text
            ),
            [
                "你妈", "妈妈", "妈喊", "喊你", "你回", "回家", "家吃", "吃饭", "饭哦", "回家",
                "家罗", "SimHash", "rocks"
            ]
        );
        // Katakana words and kanji/kana runs stay in one run; a lone ideograph is one feature.
        assert_eq!(
            features(
                Tokenizer::Auto {
                    word_n: 2,
                    char_n: 2
                },
                "東京タワー。猫 and dogs"
            ),
            ["東京", "京タ", "タワ", "ワー", "猫", "and dogs"]
        );
    }

    fn features_by(fast: bool, t: Tokenizer, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let f = |parts: &[&str], sep: &str| out.push(parts.join(sep));
        if fast {
            t.for_each_feature(text, f);
        } else {
            t.for_each_feature_reference(text, f);
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 2000, ..Default::default() })]

        /// The ASCII fast path (and cutting text into pieces) changes no feature, on random
        /// ASCII with apostrophes, periods, colons, underscores and separators in numbers,
        /// and on ASCII mixed with letters, marks, CJK and emoji that interact with it.
        #[test]
        fn fast_path_equals_unicode_segmentation(
            chars in proptest::collection::vec(proptest::sample::select(alloc::vec![
                'a', 'b', 'Z', '1', '2', '0', '_', '\'', '.', ':', ',', ';', ' ', ' ', '\n', '\r',
                '\t', '-', '"', '!', '/', 'é', '\u{301}', '\u{200d}', '中', '文', 'カ', '🙂', '\u{1f3fd}',
                '٣', '\u{a0}', '\u{2019}', '\u{ff0c}', 'ß', '。', '、', '\u{3099}', 'ｶ', '\u{ff9e}',
                '\u{3000}', '\u{e01}', '\u{e33}', '\u{fe0f}', '\u{200b}', 'ー', '々', 'あ',
                '\u{903}', '\u{600}', '\u{302a}', '“', '—', '…', '㐀', '\u{2028}', '\u{202a}', '\u{ff01}',
                '«', '×', '→', '\u{a8}', '‘', '\u{2024}', '\u{2027}', '\u{2044}', 'ª', '·', '\u{ad}', '©',
                '‼', '↔', '\u{1f1e6}', '\u{1f1e8}', 'א', '\u{5f4}', '\u{feff}',
            ]), 0..40),
            ascii_only in proptest::prelude::any::<bool>(),
            n in 1usize..4,
        ) {
            let text: String = chars.into_iter().filter(|c| !ascii_only || c.is_ascii()).collect();
            for t in [
                Tokenizer::Words { n },
                Tokenizer::Chars { n },
                Tokenizer::Auto { word_n: n, char_n: 2 },
                Tokenizer::Auto { word_n: 1, char_n: n },
            ] {
                proptest::prop_assert_eq!(features_by(true, t, &text), features_by(false, t, &text), "{:?} {:?}", t, text);
            }
        }
    }

    /// Each character `is_alone` names is its own word segment, and no word, whatever stands around it (letters, digits, middle characters, marks, joiners,
    /// format characters, regional indicators, Hebrew, emoji, CJK).
    #[test]
    fn alone_characters_stand_alone() {
        let neighbours = [
            "a",
            "1",
            "_",
            ".",
            "'",
            ":",
            ",",
            "\u{2019}",
            "\u{2044}",
            "\u{301}",
            "\u{200d}",
            "\u{200b}",
            "\u{ad}",
            "\u{600}",
            "\u{1f1e6}",
            "א",
            "\"",
            "🙂",
            "中",
            "カ",
            " ",
            "",
        ];
        let mut checked = 0;
        for c in (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| is_alone(c))
        {
            checked += 1;
            let c = String::from(c);
            for before in neighbours {
                // Attaching marks and joiners after `c` are ruled out by `stands_apart`.
                for after in neighbours
                    .iter()
                    .filter(|a| a.chars().next().is_none_or(stands_apart))
                {
                    let text = alloc::format!("{before}{c}{after}");
                    let start = before.len();
                    let own = |mut bounds: Vec<(usize, &str)>| {
                        bounds.retain(|&(at, _)| at >= start && at <= start + c.len());
                        bounds.iter().any(|&(at, s)| at == start && s == c)
                    };
                    assert!(own(text.split_word_bound_indices().collect()), "{text:?}");
                    assert!(
                        text.unicode_words().all(|w| !w.contains(c.as_str())),
                        "{text:?}"
                    );
                }
            }
        }
        assert_eq!(checked, 56);
    }

    #[test]
    fn n_is_validated() {
        assert!(Tokenizer::Words { n: 0 }.validate().is_err());
        assert!(Tokenizer::Chars { n: MAX_N + 1 }.validate().is_err());
        assert!(Tokenizer::Auto {
            word_n: 1,
            char_n: 0
        }
        .validate()
        .is_err());
        assert!(Tokenizer::Chars { n: MAX_N }.validate().is_ok());
    }
}
