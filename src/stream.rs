//! Streaming fingerprints (the guarantee and what a stream holds are [`Stream`]'s
//! documentation).

use alloc::collections::VecDeque;
use alloc::string::String;
use alloc::vec::Vec;

use crate::edits::{span, Counts, Profile};
use crate::error::Error;
use crate::fingerprint::Fingerprint;
use crate::fingerprinter::{Fingerprinter, Sink};
use crate::recommend::{Recommendation, Tolerance};
use crate::tokenize::{chars_of, last_cut, pieces, CharsState, Tokenizer};

/// The last `n` tokens, owned (chunks do not outlive `update`), emitting each full window.
/// They are kept joined by the separator in one buffer, and emitted as that one string (the
/// feature is the joined text either way): nothing is allocated per token.
struct OwnedWindow {
    n: usize,
    separator: &'static str,
    joined: String,
    /// Byte length of each token in `joined`, oldest first.
    lens: VecDeque<usize>,
    seen: usize,
}

impl OwnedWindow {
    fn new(n: usize, separator: &'static str) -> OwnedWindow {
        OwnedWindow {
            n,
            separator,
            joined: String::new(),
            lens: VecDeque::with_capacity(n),
            seen: 0,
        }
    }

    fn push(&mut self, item: &str, emit: &mut impl FnMut(&[&str], &str)) {
        self.seen += 1;
        if self.n == 1 {
            emit(&[item], self.separator);
            return;
        }
        if self.lens.len() == self.n {
            // n >= 2 here, so a separator follows the oldest token.
            let oldest = self.lens.pop_front().unwrap_or(0);
            self.joined.drain(..oldest + self.separator.len());
        }
        if !self.lens.is_empty() {
            self.joined.push_str(self.separator);
        }
        self.joined.push_str(item);
        self.lens.push_back(item.len());
        if self.seen >= self.n {
            emit(&[&self.joined], "");
        }
    }

    /// Ends the sequence: one shorter than `n` becomes one feature, as in one shot.
    fn flush(&mut self, emit: &mut impl FnMut(&[&str], &str)) {
        if self.seen > 0 && self.seen < self.n {
            emit(&[&self.joined], "");
        }
        self.seen = 0;
        self.joined.clear();
        self.lens.clear();
    }
}

/// A fingerprint computed from a text that arrives in chunks: `update(chunk)` … `finish()`
/// equals the one-shot fingerprint of the whole text, for any chunking — words, grapheme
/// clusters and UTF-8 sequences split across chunks included.
///
/// The stream keeps only the bytes after the last place where text may be cut into independent
/// pieces (after whitespace, or 。/、, before a new character; see the tokenizer), plus the last
/// `n − 1` tokens of each n-gram window and the table of distinct features. Everything before
/// the last cut is folded, tokenized and counted as soon as it arrives.
///
/// ```
/// use simprint::{Fingerprinter, Options};
/// let fp = Fingerprinter::new(Options::default())?;
/// let text = "Streaming gives the same fingerprint, 一字不差, however the bytes are cut.";
/// let mut stream = fp.stream();
/// for chunk in text.as_bytes().chunks(5) {
///     stream.update(chunk); // cuts through words and UTF-8 sequences alike
/// }
/// assert_eq!(stream.finish(), fp.fingerprint(text));
/// # Ok::<(), simprint::Error>(())
/// ```
pub struct Stream {
    fingerprinter: Fingerprinter,
    /// The text's features by span, for its recommended `k` (streams made with
    /// [`Fingerprinter::stream_recommending`] only), and the tolerance it is for.
    counts: Option<(Counts, Tolerance)>,
    pending: Vec<u8>,
    /// `pending[..scanned]` is valid UTF-8 (invalid bytes already read as U+FFFD) with no cut
    /// before its end: the next update decodes and searches only what comes after it, so a
    /// long text without a cut (one huge word or CJK run) costs linear time, not quadratic.
    scanned: usize,
    sink: Sink,
    /// Word shingles reach across chunks; CJK n-grams do not (every cut ends a run).
    words: OwnedWindow,
    chars: OwnedWindow,
    chars_state: CharsState,
    bytes: u64,
}

impl Fingerprinter {
    /// A stream with this fingerprinter's options.
    ///
    /// ```
    /// let fp = simprint::Fingerprinter::new(simprint::Options::default())?;
    /// let mut s = fp.stream();
    /// s.update(b"hello ");
    /// s.update(b"world");
    /// assert_eq!(s.finish(), fp.fingerprint("hello world"));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn stream(&self) -> Stream {
        self.new_stream(None)
    }

    /// A stream that also counts the text's features as they come, so that
    /// [`Stream::finish_recommending`] gives the text's [`Recommendation`] under `tolerance`
    /// with its fingerprint: what [`Fingerprinter::recommend`] gives for the whole text,
    /// without ever holding it. Counting costs about as much again as fingerprinting.
    ///
    /// # Errors
    ///
    /// [`Error::ToleranceOutOfRange`] for a tolerance [`Tolerance::validate`] refuses.
    ///
    /// ```
    /// use simprint::{Fingerprinter, Options, Tolerance};
    /// let fp = Fingerprinter::new(Options::default())?;
    /// let text = "Debian 管理员手册介绍了如何安装和配置系统，以及如何使用 APT 工具维护软件包。";
    /// let mut stream = fp.stream_recommending(Tolerance::DEFAULT)?;
    /// for chunk in text.as_bytes().chunks(7) {
    ///     stream.update(chunk);
    /// }
    /// let (fingerprint, recommendation) = stream.finish_recommending();
    /// assert_eq!(fingerprint, fp.fingerprint(text));
    /// assert_eq!(recommendation, Some(fp.recommend(text, Tolerance::DEFAULT)?));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn stream_recommending(&self, tolerance: Tolerance) -> Result<Stream, Error> {
        tolerance.validate()?;
        Ok(self.new_stream(Some((Counts::new(self), tolerance))))
    }

    fn new_stream(&self, counts: Option<(Counts, Tolerance)>) -> Stream {
        let (word_n, char_n) = match self.options().tokenizer {
            Tokenizer::Auto { word_n, char_n } => (word_n, char_n),
            Tokenizer::Words { n } => (n, 1),
            Tokenizer::Chars { n } => (1, n),
        };
        Stream {
            fingerprinter: self.clone(),
            counts,
            pending: Vec::new(),
            scanned: 0,
            sink: self.sink(),
            words: OwnedWindow::new(word_n, " "),
            chars: OwnedWindow::new(char_n, ""),
            chars_state: CharsState::default(),
            bytes: 0,
        }
    }
}

impl Stream {
    /// Adds the next bytes of the text (UTF-8; invalid sequences count as U+FFFD, as
    /// `String::from_utf8_lossy` would read the whole text).
    ///
    /// ```
    /// let fp = simprint::Fingerprinter::new(simprint::Options::default())?;
    /// let mut s = fp.stream();
    /// let bytes = "回家罗".as_bytes();
    /// s.update(&bytes[..1]); // a third of 回
    /// s.update(&bytes[1..]);
    /// assert_eq!(s.finish(), fp.fingerprint("回家罗"));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn update(&mut self, chunk: &[u8]) {
        self.bytes += chunk.len() as u64;
        self.pending.extend_from_slice(chunk);
        // Everything before `scanned` is complete, so an incomplete sequence held back at the
        // end starts after it.
        let mut complete = complete_prefix(&self.pending).max(self.scanned);
        // Decode only the new bytes. The text before them ends at a character boundary, so
        // reading them lossily on their own gives what reading the whole text would.
        if core::str::from_utf8(&self.pending[self.scanned..complete]).is_err() {
            let fixed = String::from_utf8_lossy(&self.pending[self.scanned..complete]).into_owned();
            let end = self.scanned + fixed.len();
            // Keep the repaired text, so its replacement characters are not redone.
            self.pending
                .splice(self.scanned..complete, fixed.into_bytes());
            complete = end;
        }
        // A cut sits between two characters: search from the last character already seen
        // (validating only from there, so nothing is decoded twice while no cut comes).
        let from = last_char_start(&self.pending[..self.scanned]);
        let fresh = core::str::from_utf8(&self.pending[from..complete])
            .unwrap_or_else(|_| unreachable!("checked and repaired above"));
        let Some(cut) = last_cut(fresh).map(|c| from + c) else {
            // No place to cut yet (e.g. one long run of Chinese without 。): keep buffering.
            self.scanned = complete;
            return;
        };
        let done = core::str::from_utf8(&self.pending[..cut])
            .map(String::from)
            .unwrap_or_else(|_| unreachable!("valid up to `complete`, and cut at a boundary"));
        self.pending.drain(..cut);
        // `cut` is the last cut, so nothing up to `complete` can be cut any more.
        self.scanned = complete - cut;
        self.process(&done);
    }

    /// Bytes given to [`Stream::update`] so far.
    ///
    /// ```
    /// let fp = simprint::Fingerprinter::new(simprint::Options::default())?;
    /// let mut s = fp.stream();
    /// s.update(b"abc");
    /// assert_eq!(s.bytes(), 3);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Bytes held back because the text may not be cut before them yet.
    ///
    /// ```
    /// let fp = simprint::Fingerprinter::new(simprint::Options::default())?;
    /// let mut s = fp.stream();
    /// s.update(b"one two thr");
    /// assert_eq!(s.buffered(), 3); // "thr" may go on
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn buffered(&self) -> usize {
        self.pending.len()
    }

    /// The fingerprint of everything given, equal to [`Fingerprinter::fingerprint`] of the whole
    /// text.
    ///
    /// ```
    /// let fp = simprint::Fingerprinter::new(simprint::Options::default())?;
    /// assert_eq!(fp.stream().finish(), fp.fingerprint(""));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn finish(self) -> Fingerprint {
        self.finish_recommending().0
    }

    /// The fingerprint, as [`Stream::finish`], and for a stream made by
    /// [`Fingerprinter::stream_recommending`] the text's [`Recommendation`] (`None` for a
    /// stream made by [`Fingerprinter::stream`]).
    ///
    /// ```
    /// use simprint::{Fingerprinter, Options, Tolerance};
    /// let fp = Fingerprinter::new(Options::default())?;
    /// let mut s = fp.stream_recommending(Tolerance::DEFAULT)?;
    /// s.update(b"A short comment, seven words long.");
    /// let (_, r) = s.finish_recommending();
    /// assert_eq!(r.map(|r| r.k), Some(fp.recommended_k("A short comment, seven words long.", Tolerance::DEFAULT)?));
    /// // The text's distinct features too, for the pair rule (`pair_k`) with a stored text.
    /// assert_eq!(r.map(|r| r.features), Some(fp.feature_count("A short comment, seven words long.")));
    /// assert_eq!(fp.stream().finish_recommending().1, None);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn finish_recommending(mut self) -> (Fingerprint, Option<Recommendation>) {
        let rest = core::mem::take(&mut self.pending);
        self.scanned = 0;
        // Valid but for at most an incomplete sequence at the end: no copy in the usual case
        // (the buffer may be the whole text when it never had a place to cut).
        let text = String::from_utf8(rest)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        self.process(&text);
        let Stream {
            fingerprinter,
            mut counts,
            mut sink,
            mut words,
            mut chars,
            ..
        } = self;
        // What is left are the windows' own copies of the last tokens: no text to find them in.
        let mut emit = |parts: &[&str], sep: &str| {
            let full = fingerprinter.hasher().full_hash_in("", parts, sep);
            fingerprinter.feed_hash(&mut sink, full);
            if let Some((counts, _)) = &mut counts {
                counts.add(span(parts, sep), full);
            }
        };
        match fingerprinter.options().tokenizer {
            Tokenizer::Auto { .. } | Tokenizer::Words { .. } => words.flush(&mut emit),
            Tokenizer::Chars { .. } => chars.flush(&mut emit),
        }
        let recommendation = counts.map(|(counts, tolerance)| {
            crate::recommend::recommendation_of(
                &Profile::from_counts(&fingerprinter, &counts),
                fingerprinter.options().width,
                tolerance,
            )
        });
        (fingerprinter.finish(sink), recommendation)
    }

    /// Folds and tokenizes `text`, which starts and ends where the text may be cut.
    ///
    /// No copy of the word tokenizers of its own (one was 12 KB of wasm): a cut always ends a
    /// CJK run (it follows a space, 。 or 、), so the n-grams of `text` are those of the whole
    /// text, and only word shingles and the `chars` tokenizer's n-grams reach across chunks.
    /// Without those, and without counting, `text` goes through the one-shot fingerprint's
    /// copy; else through the shared (`dyn`) one set to single words, the shingles kept in
    /// the stream's own window. That copy marks words with the separator `" "`, n-grams of
    /// characters with `""`.
    fn process(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let fingerprinter = &self.fingerprinter;
        let folded = fingerprinter.fold(text);
        let tokenizer = fingerprinter.options().tokenizer;
        if self.counts.is_none()
            && matches!(
                tokenizer,
                Tokenizer::Auto { word_n: 1, .. } | Tokenizer::Words { n: 1 }
            )
        {
            // No feature reaches across a cut and none is counted by span (the defaults):
            // the one-shot fingerprint's own path, its fastest.
            fingerprinter.feed_text(&mut self.sink, &folded);
            return;
        }
        let sink = &mut self.sink;
        let counts = &mut self.counts;
        // Each feature hashed once, for the sink and the counts alike.
        let mut emit = |parts: &[&str], sep: &str| {
            let full = fingerprinter.hasher().full_hash_in(&folded, parts, sep);
            fingerprinter.feed_hash(sink, full);
            if let Some((counts, _)) = counts {
                counts.add(span(parts, sep), full);
            }
        };
        let words = &mut self.words;
        match tokenizer {
            Tokenizer::Words { .. } => {
                Tokenizer::Words { n: 1 }.for_each_feature(&folded, |parts, _| {
                    for word in parts {
                        words.push(word, &mut emit);
                    }
                });
            }
            Tokenizer::Auto { char_n, .. } => {
                Tokenizer::Auto { word_n: 1, char_n }.for_each_feature(&folded, |parts, sep| {
                    match parts {
                        [word] if sep == " " => words.push(word, &mut emit),
                        _ => emit(parts, sep),
                    }
                });
            }
            Tokenizer::Chars { .. } => {
                let (chars, state) = (&mut self.chars, &mut self.chars_state);
                for piece in pieces(&folded) {
                    chars_of(piece, state, |g| chars.push(g, &mut emit));
                }
            }
        }
    }
}

/// Where the last character of `valid` (UTF-8) starts; 0 when it is empty.
fn last_char_start(valid: &[u8]) -> usize {
    (0..valid.len())
        .rev()
        .find(|&i| valid[i] & 0xC0 != 0x80)
        .unwrap_or(0)
}

/// The length of `bytes` without a UTF-8 sequence that is incomplete at its end (and could be
/// completed by the next chunk).
fn complete_prefix(bytes: &[u8]) -> usize {
    let n = bytes.len();
    for back in 1..=core::cmp::min(3, n) {
        let b = bytes[n - back];
        if b & 0xC0 == 0x80 {
            continue; // a continuation byte: look further back for the lead
        }
        let needed = match b {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return n, // ASCII or an invalid lead: nothing to wait for
        };
        return if back < needed { n - back } else { n };
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;

    #[test]
    fn buffers_only_the_tail() {
        let fp = Fingerprinter::new(Options::default()).unwrap();
        let mut s = fp.stream();
        for _ in 0..10_000 {
            s.update(b"the same sentence again and again. ");
            assert!(s.buffered() < 64);
        }
        for _ in 0..1_000 {
            s.update("中文句子。".as_bytes());
            assert!(s.buffered() < 64);
        }
    }

    #[test]
    fn incomplete_utf8_waits() {
        assert_eq!(complete_prefix(b"ab\xe4\xb8"), 2);
        assert_eq!(complete_prefix(b"ab\xe4\xb8\xad"), 5);
        assert_eq!(complete_prefix(b"ab\xf0\x9f\x99"), 2);
        assert_eq!(complete_prefix(b"ab\xff"), 3);
        assert_eq!(complete_prefix(b""), 0);
    }
}
