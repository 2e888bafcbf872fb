//! The n-gram window: the last `n` words or characters, joined into one feature at a time.

use alloc::vec;
use alloc::vec::Vec;

use super::Features;

/// The last `n` items of a sequence, kept so that the window is always one contiguous slice:
/// item `c` is stored at `c % n` and again at `c % n + n`, so the newest `n` items are
/// `buf[(c + 1) % n ..][..n]`. One allocation per call, none per feature.
pub(super) struct Window<'t> {
    n: usize,
    separator: &'static str,
    buf: Vec<&'t str>,
    /// Items pushed since the last flush.
    pub(super) seen: usize,
    /// Where the next item goes: `seen % n`.
    next: usize,
    /// The text the items are cut from: n-grams of adjacent items are emitted as one slice
    /// of it, which hashes in one piece instead of being copied together first.
    base: &'t str,
}

impl<'t> Window<'t> {
    pub(super) fn new(n: usize, separator: &'static str, base: &'t str) -> Window<'t> {
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
    pub(super) fn push(&mut self, item: &'t str, emit: &mut impl Features<'t>) {
        self.seen += 1;
        if self.n == 1 {
            // Single tokens (the default for words): no ring to keep, and inlined whole.
            emit.feature(&[item], self.separator);
        } else {
            self.push_ring(item, emit);
        }
    }

    #[inline(never)]
    fn push_ring(&mut self, item: &'t str, emit: &mut impl Features<'t>) {
        let slot = self.next;
        self.buf[slot] = item;
        self.buf[slot + self.n] = item;
        // Wrapped by hand: a `%` here was a division per CJK character.
        self.next = if slot + 1 == self.n { 0 } else { slot + 1 };
        if self.seen >= self.n {
            let start = self.next;
            let items = &self.buf[start..start + self.n];
            match self.adjacent(items) {
                Some(joined) => emit.feature(&[joined], ""),
                None => emit.feature(items, self.separator),
            }
        }
    }

    /// Pushes every character of `run` (each its own grapheme cluster, in one slice of
    /// `base`). The n-grams that lie wholly in the run go to [`Features::run_ngrams`] in one
    /// call, as slices of it: no ring, no adjacency check per n-gram. Only the first `n − 1`
    /// characters, whose n-grams may reach back to items pushed before, and the last `n − 1`,
    /// which n-grams after the run will reach back to, go through the ring. `three_byte`: every
    /// character of `run` is known to be three bytes long.
    #[inline]
    pub(super) fn push_run(
        &mut self,
        run: &'t str,
        three_byte: bool,
        emit: &mut impl Features<'t>,
    ) {
        debug_assert!(
            self.separator.is_empty(),
            "n-grams of characters are not separated"
        );
        let bytes = run.as_bytes();
        if three_byte && self.n == 2 && self.seen == 0 && bytes.len() >= 6 {
            // The usual case of mixed text (bigrams, a run after a flush, Han or kana): what
            // the general steps below come to, without their loops over characters. Nothing
            // before the run to reach back to; the ring keeps the last character, at the
            // slot the count of bigrams says.
            let count = emit.run_ngrams(run, 2, true);
            self.seen = 1 + count;
            let last = &run[bytes.len() - 3..];
            let slot = count & 1;
            self.buf[slot] = last;
            self.buf[slot + 2] = last;
            self.next = slot ^ 1;
            return;
        }
        let behind = self.n - 1;
        // Where the first `n − 1` characters end (or the run, if shorter).
        let mut first = 0;
        for _ in 0..behind {
            if first < bytes.len() {
                first += utf8_len(bytes[first]);
            }
        }
        if self.seen == 0 && first < bytes.len() {
            // Nothing before the run to reach back to (the usual case: a run mostly follows
            // a flush), and the run goes on past its first `n − 1` characters: they emit
            // nothing, and the ring is rebuilt below, so they need not go through it.
            self.seen = behind;
        } else {
            let mut at = 0;
            while at < first {
                let end = at + utf8_len(bytes[at]);
                self.push(&run[at..end], emit);
                at = end;
            }
            if first == bytes.len() {
                return;
            }
        }
        self.seen += emit.run_ngrams(run, self.n, three_byte);
        // The ring as if every character had gone through it: the last `n − 1` of them,
        // stored so the newest lands where `seen` says.
        let mut from = bytes.len();
        for _ in 0..behind {
            from -= 1;
            while bytes[from] & 0xC0 == 0x80 {
                from -= 1;
            }
        }
        // `n` is 2 by default: no division then.
        let count = self.seen - behind;
        self.next = if self.n == 2 {
            count & 1
        } else {
            count % self.n
        };
        let mut at = from;
        while at < bytes.len() {
            let end = at + utf8_len(bytes[at]);
            let slot = self.next;
            self.buf[slot] = &run[at..end];
            self.buf[slot + self.n] = &run[at..end];
            self.next = if slot + 1 == self.n { 0 } else { slot + 1 };
            at = end;
        }
    }

    /// Ends the sequence: a sequence shorter than `n` becomes one feature.
    ///
    /// Inlined where it is called: mixed text ends a run at every script switch, and mostly
    /// there is nothing to flush.
    #[inline(always)]
    pub(super) fn flush(&mut self, emit: &mut impl Features<'t>) {
        if self.seen > 0 && self.seen < self.n {
            self.flush_short(emit);
        }
        self.seen = 0;
        self.next = 0;
    }

    /// The feature of a sequence shorter than `n`.
    #[inline(never)]
    fn flush_short(&mut self, emit: &mut impl Features<'t>) {
        emit.feature(&self.buf[..self.seen], self.separator);
    }
}

/// The length of the UTF-8 sequence a lead byte starts.
#[inline(always)]
pub(super) fn utf8_len(lead: u8) -> usize {
    match lead {
        0..=0x7F => 1,
        0x80..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}
