//! The fingerprinter: options checked once, then
//! normalizing → case folding → tokenizing → hashing → weighting → accumulating.

use alloc::borrow::Cow;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::accumulate::{Accumulator, UnitCounter};
use crate::algorithm::Algorithm;
use crate::distinct::Distinct;
use crate::error::Error;
use crate::fingerprint::Fingerprint;
use crate::hash::{FeatureHasher, Key};
use crate::idf::Idf;
use crate::minhash::MinSketch;
use crate::options::{Normalization, Options, Weighting};
use crate::sort;
use crate::tokenize::{Features, Tokenizer};

/// Features on their way into a fingerprint (see [`Fingerprinter::sink`]).
pub(crate) enum Sink {
    Unit(UnitCounter),
    /// Binary weights without IDF: each distinct feature counted once, as the table first
    /// takes it, so no pass over the table is left for the end.
    Set(Distinct, UnitCounter),
    Distinct(Distinct),
    /// One-bit MinHash: the least hash of each bin, a set by nature (no table).
    Min(MinSketch),
}

/// A validated set of options, ready to fingerprint any number of texts.
///
/// ```
/// use simprint::{Fingerprinter, Options};
/// let fp = Fingerprinter::new(Options::default())?;
/// let a = fp.fingerprint("The quick brown fox jumps over the lazy dog near the river bank");
/// let b = fp.fingerprint("The quick brown fox jumped over the lazy dog near the river bank");
/// let c = fp.fingerprint("Completely unrelated words about compilers and their optimisations");
/// assert!(a.distance(&b)? < a.distance(&c)?);
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Fingerprinter {
    options: Options,
    hasher: FeatureHasher,
    /// IDF factors, when built by [`Fingerprinter::with_document_frequencies`].
    pub(crate) idf: Option<Arc<Idf>>,
}

impl Fingerprinter {
    /// Checks `options` once, so fingerprinting itself cannot fail.
    ///
    /// # Errors
    ///
    /// What [`Options::validate`] refuses: a width outside `1..=128`, an n-gram size outside
    /// `1..=MAX_N`.
    ///
    /// ```
    /// use simprint::{Error, Fingerprinter, Options};
    /// let err = Fingerprinter::new(Options { width: 129, ..Options::default() }).unwrap_err();
    /// assert_eq!(err, Error::WidthOutOfRange { width: 129 });
    /// ```
    pub fn new(options: Options) -> Result<Fingerprinter, Error> {
        options.validate()?;
        // One-bit MinHash draws each feature's bin, rank and bit from a 64-bit hash at any
        // width: a 128-bit hash would double the hashing for nothing a bin needs.
        let hash_width = match options.algorithm {
            Algorithm::SimHash => options.width,
            Algorithm::MinHash => options.width.min(64),
        };
        Ok(Fingerprinter {
            hasher: FeatureHasher::new(options.key, hash_width)?,
            options,
            idf: None,
        })
    }

    /// The options in force.
    ///
    /// ```
    /// let fp = simprint::Fingerprinter::new(simprint::Options::default())?;
    /// assert_eq!(fp.options().width, 64);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The fingerprint of `text`. An empty text (or one with no features) gives all zeros.
    ///
    /// ```
    /// let fp = simprint::Fingerprinter::new(simprint::Options::default())?;
    /// assert_eq!(fp.fingerprint("").value(), 0);
    /// assert_eq!(fp.fingerprint("Hello World"), fp.fingerprint("hello, world!"));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn fingerprint(&self, text: &str) -> Fingerprint {
        self.fingerprint_and_size(text, false).0
    }

    /// The fingerprint of `text` and its number of distinct features (the size
    /// [`pair_k`](crate::pair_k) compares), in one pass: what
    /// [`Fingerprinter::fingerprint`] and [`Fingerprinter::feature_count`] give apart.
    ///
    /// ```
    /// let fp = simprint::Fingerprinter::new(simprint::Options::default())?;
    /// let text = "the cat and the hat";
    /// assert_eq!(fp.fingerprint_counted(text), (fp.fingerprint(text), fp.feature_count(text)));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn fingerprint_counted(&self, text: &str) -> (Fingerprint, u32) {
        self.fingerprint_and_size(text, true)
    }

    /// The fingerprint of `text`, and its number of distinct features where the sink holds
    /// them (with `count_always`, also for term frequencies, by a second pass; else 0 there).
    /// One body for both callers: the `.wasm` holds the pipeline once.
    fn fingerprint_and_size(&self, text: &str, count_always: bool) -> (Fingerprint, u32) {
        let (text, cjk) = crate::normalize::fold_counting(
            text,
            self.options.normalization,
            self.options.case_fold,
        );
        let mut sink = if count_always && self.options.algorithm == Algorithm::MinHash {
            // The sketch keeps minima, not a table: to count, the features go into a table
            // through the sink's own fast paths, and its keys into the bins at the end.
            Sink::Distinct(Distinct::for_text(
                self.hasher.width() > 64,
                false,
                text.len(),
                cjk,
            ))
        } else {
            self.sink_for(text.len(), cjk)
        };
        self.feed_text(&mut sink, &text);
        let n = match &sink {
            Sink::Set(d, _) | Sink::Distinct(d) => d.len(),
            // Term frequencies are counted per bit: no table of features.
            Sink::Unit(_) if count_always => self.distinct(&text).len(),
            Sink::Unit(_) | Sink::Min(_) => 0,
        };
        if let (true, Sink::Distinct(d)) = (self.options.algorithm == Algorithm::MinHash, &sink) {
            let mut sketch = MinSketch::new(self.options.width);
            d.for_each_key(|full| sketch.add(full));
            return (sketch.fingerprint(), u32::try_from(n).unwrap_or(u32::MAX));
        }
        (self.finish(sink), u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// Every feature of already folded `text` into `sink`, through the fingerprinter's own copy
    /// of the tokenizer: the one-shot fingerprint's, and a stream's whose chunks hold whole
    /// features (`Stream::process`), so both share the one copy.
    pub(crate) fn feed_text(&self, sink: &mut Sink, text: &str) {
        self.options.tokenizer.for_each_feature_into(
            text,
            &mut Emit::Feed(Feed {
                fingerprinter: self,
                sink,
                text,
                recent: Vec::new(),
            }),
        );
    }

    /// Where this fingerprinter's features go: straight into per-bit counts for term
    /// frequencies (each occurrence adds weight 1, the same `V` as one row per feature weighted
    /// by its count, with nothing allocated per feature), else into a table of distinct features.
    pub(crate) fn sink(&self) -> Sink {
        self.sink_for(0, 0)
    }

    /// [`Fingerprinter::sink`] for a text of `text_len` bytes, `cjk` of its characters Han or
    /// kana (its table sized for it).
    pub(crate) fn sink_for(&self, text_len: usize, cjk: usize) -> Sink {
        let counter = || UnitCounter::new(self.options.width);
        let wide = self.hasher.width() > 64;
        if self.options.algorithm == Algorithm::MinHash {
            // Binary weights and no IDF: `Options::validate` and `with_document_frequencies`
            // refuse the others.
            return Sink::Min(MinSketch::new(self.options.width));
        }
        match (&self.idf, self.options.weighting) {
            (None, Weighting::TermFrequency) => Sink::Unit(counter()),
            (None, Weighting::Binary) => {
                Sink::Set(Distinct::for_text(wide, false, text_len, cjk), counter())
            }
            (_, weighting) => Sink::Distinct(Distinct::for_text(
                wide,
                weighting != Weighting::Binary,
                text_len,
                cjk,
            )),
        }
    }

    /// Adds one feature (`parts`, cut from `text` if they are slices of it, joined by
    /// `separator`) to `sink`.
    #[inline(always)]
    pub(crate) fn feed(&self, sink: &mut Sink, text: &str, parts: &[&str], separator: &str) {
        self.feed_hash(sink, self.hasher.full_hash_in(text, parts, separator));
    }

    /// Adds one feature by its full hash, for callers that need the hash themselves too (a
    /// stream that also counts its text's features hashes each once).
    #[inline(always)]
    pub(crate) fn feed_hash(&self, sink: &mut Sink, full: u128) {
        match sink {
            Sink::Unit(counter) => counter.add(self.hasher.cut(full)),
            // By full 64/128-bit hash, not the cut one, so that at small widths two different
            // features with equal cut hashes both count.
            Sink::Set(d, counter) => add_to_set(&self.hasher, d, Some(counter), full),
            Sink::Distinct(d) => {
                d.add(full);
            }
            Sink::Min(sketch) => sketch.add(full),
        }
    }

    /// The fingerprint of everything fed to `sink`.
    pub(crate) fn finish(&self, sink: Sink) -> Fingerprint {
        match sink {
            Sink::Unit(counter) => counter.fingerprint(),
            Sink::Set(d, counter) if !d.overflowed() => counter.fingerprint(),
            Sink::Set(d, _) => {
                // Hostile input sent some occurrences past the table, uncounted or counted
                // again after it grew: count each distinct feature once, from scratch.
                // Integer counts, so order does not matter.
                let mut counter = UnitCounter::new(self.options.width);
                d.for_each_key(|h| counter.add(self.hasher.cut(h)));
                counter.fingerprint()
            }
            Sink::Distinct(d) => {
                let mut counts = d.counts();
                sort::sort(&mut counts);
                self.accumulate(&counts)
            }
            Sink::Min(sketch) => sketch.fingerprint(),
        }
    }

    /// The distinct features of already folded `text`, by full 64/128-bit hash (not the cut
    /// one, so that at small widths two different features with equal cut hashes both count).
    fn distinct(&self, text: &str) -> Distinct {
        let mut distinct = self.new_distinct();
        self.options.tokenizer.for_each_feature(text, |parts, sep| {
            distinct.add(self.hasher.full_hash_in(text, parts, sep));
        });
        distinct
    }

    /// An empty table of distinct features for this fingerprinter: 64-bit keys where its
    /// hashes are (up to 64 bits, and for MinHash), and counts only where the weighting reads
    /// them (binary weights do not).
    fn new_distinct(&self) -> Distinct {
        Distinct::new(
            self.hasher.width() > 64,
            self.options.weighting != Weighting::Binary,
        )
    }

    /// [`Fingerprinter::counts`] for the document-frequency table.
    pub(crate) fn counts_of(&self, folded: &str) -> Vec<(u128, u64)> {
        self.counts(folded)
    }

    /// Each distinct feature of already folded `text` as (full hash, occurrences), sorted by
    /// hash: the order float weights are summed in, everywhere.
    fn counts(&self, text: &str) -> Vec<(u128, u64)> {
        let mut counts = self.distinct(text).counts();
        sort::sort(&mut counts);
        counts
    }

    /// True when every weight is a whole number (tf or binary without IDF), so `V` is counted
    /// exactly in integers.
    pub(crate) fn integral_weights(&self) -> bool {
        self.idf.is_none() && self.options.weighting != Weighting::LogTermFrequency
    }

    /// A distinct feature's weight: the weighting of its count (a `u32`, widened), times its
    /// IDF if any.
    pub(crate) fn weight_of(&self, full_hash: u128, count: u64) -> f64 {
        let w = self
            .options
            .weighting
            .weight(u32::try_from(count).unwrap_or(u32::MAX));
        match &self.idf {
            Some(idf) => w * idf.factor(full_hash),
            None => w,
        }
    }

    /// The fingerprint of distinct features given as (full hash, count), summed in the given
    /// (hash) order so float weights add up the same everywhere.
    pub(crate) fn accumulate(&self, counts: &[(u128, u64)]) -> Fingerprint {
        if self.integral_weights() {
            // Whole weights: exact integer counting (a count of c adds the hash c times).
            let mut counter = UnitCounter::new(self.options.width);
            for &(h, c) in counts {
                let times = if self.options.weighting == Weighting::Binary {
                    1
                } else {
                    c
                };
                for _ in 0..times {
                    counter.add(self.hasher.cut(h));
                }
            }
            return counter.fingerprint();
        }
        let mut acc = Accumulator::new(self.options.width).unwrap_or_else(|_| {
            unreachable!("the width was checked when the fingerprinter was built")
        });
        for &(h, c) in counts {
            acc.add_trusted(self.hasher.cut(h), self.weight_of(h, c));
        }
        acc.fingerprint()
    }

    /// The fingerprint of caller-supplied `(feature, weight)` pairs, hashed with this
    /// fingerprinter's key and width. The features are used as given: no case folding or
    /// tokenizing. Repeated features add up.
    ///
    /// Fails on a weight that is not finite. For [`Algorithm::MinHash`] the features are a
    /// set and every weight must be 1.
    ///
    /// # Errors
    ///
    /// [`Error::NonFiniteWeight`] for a weight that is NaN or infinite;
    /// [`Error::NotForMinHash`] for a weight other than 1 with MinHash.
    ///
    /// ```
    /// let fp = simprint::Fingerprinter::new(simprint::Options::default())?;
    /// let a = fp.fingerprint_features([("simhash", 3.0), ("near", 1.0), ("duplicate", 1.0)])?;
    /// let b = fp.fingerprint_features([("simhash", 3.0), ("near", 1.0), ("duplicates", 1.0)])?;
    /// assert!(a.distance(&b)? < 20);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn fingerprint_features<S: AsRef<str>>(
        &self,
        features: impl IntoIterator<Item = (S, f64)>,
    ) -> Result<Fingerprint, Error> {
        self.fingerprint_features_in("", features)
    }

    /// [`Fingerprinter::fingerprint_features`] of features that are slices of `text` (a list
    /// held in one buffer, as the JavaScript bindings pass it): each is hashed where it lies,
    /// which is faster, with the same result. Features from elsewhere are hashed as given.
    ///
    /// # Errors
    ///
    /// As [`Fingerprinter::fingerprint_features`].
    ///
    /// ```
    /// use simprint::{Fingerprinter, Options};
    /// let fp = Fingerprinter::new(Options::default())?;
    /// let text = "near duplicate near";
    /// let words: Vec<&str> = text.split(' ').collect();
    /// let in_text = fp.fingerprint_features_in(text, words.iter().map(|w| (*w, 1.0)))?;
    /// assert_eq!(in_text, fp.fingerprint_features(words.iter().map(|w| (*w, 1.0)))?);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn fingerprint_features_in<S: AsRef<str>>(
        &self,
        text: &str,
        features: impl IntoIterator<Item = (S, f64)>,
    ) -> Result<Fingerprint, Error> {
        // One-bit MinHash takes the features as a set: every weight 1.
        let mut sketch = (self.options.algorithm == Algorithm::MinHash)
            .then(|| MinSketch::new(self.options.width));
        // Weights of 1 (the usual case) are counted in exact integers; the first other weight
        // moves the counts into float `V`, which they equal exactly, and goes on from there.
        let mut unit = UnitCounter::new(self.options.width);
        let mut acc: Option<Accumulator> = None;
        for (feature, weight) in features {
            let feature = feature.as_ref();
            // No buffer (callers of the public method): skip looking for the feature in it.
            let full = if text.is_empty() {
                self.hasher.full_hash_joined(&[feature], "")
            } else {
                self.hasher.full_hash_in(text, &[feature], "")
            };
            if let Some(sketch) = &mut sketch {
                if !weight.is_finite() {
                    return Err(Error::NonFiniteWeight { weight });
                }
                if weight != 1.0 {
                    return Err(Error::NotForMinHash {
                        what: "a feature weight other than 1",
                    });
                }
                sketch.add(full);
                continue;
            }
            let hash = self.hasher.cut(full);
            match &mut acc {
                Some(acc) => acc.add(hash, weight)?,
                None if weight == 1.0 => unit.add(hash),
                None => {
                    let mut moved = Accumulator::from_unit(&unit);
                    moved.add(hash, weight)?;
                    acc = Some(moved);
                }
            }
        }
        Ok(match (sketch, acc) {
            (Some(sketch), _) => sketch.fingerprint(),
            (None, Some(acc)) => acc.fingerprint(),
            (None, None) => unit.fingerprint(),
        })
    }

    /// The hasher this fingerprinter uses (for drawing or checking single features). A
    /// [`Algorithm::MinHash`] fingerprinter wider than 64 bits hashes with a 64-bit hasher.
    ///
    /// ```
    /// let fp = simprint::Fingerprinter::new(simprint::Options::default())?;
    /// assert_eq!(fp.hasher().width(), 64);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn hasher(&self) -> &FeatureHasher {
        &self.hasher
    }

    /// The text as the tokenizer sees it: normalized, then lowercased, as the options say.
    pub(crate) fn fold<'t>(&self, text: &'t str) -> Cow<'t, str> {
        crate::normalize::fold(text, self.options.normalization, self.options.case_fold)
    }
}

impl Tokenizer {
    /// Calls `emit(parts, separator)` for each feature of `text`, in order of appearance. The
    /// feature's text is `parts` joined by `separator`. Expects a validated tokenizer. Every
    /// caller's `emit` (explanations, document frequencies, edit profiles) goes through the
    /// one copy of the tokenizer that the fingerprinter's own sink uses ([`Emit`]). Here
    /// rather than in `tokenize`, which does not know the fingerprinter's sink.
    pub(crate) fn for_each_feature<'t>(
        &self,
        text: &'t str,
        mut emit: impl FnMut(&[&'t str], &'static str),
    ) {
        self.for_each_feature_into(text, &mut Emit::Dyn(&mut emit));
    }
}

/// Where the tokenizer sends features: a fingerprinter's own sink, or any closure. One type for
/// both, so the tokenizer (its windows and scans, some 13 KB of wasm) is compiled once, not once
/// per kind of sink; the sink's path stays inlined behind a branch that goes the same way for a
/// whole text.
pub(crate) enum Emit<'a, 't> {
    Feed(Feed<'a>),
    Dyn(&'a mut dyn FnMut(&[&'t str], &'static str)),
}

impl<'t> Features<'t> for Emit<'_, 't> {
    #[inline(always)]
    fn feature(&mut self, parts: &[&'t str], separator: &'static str) {
        match self {
            Emit::Feed(feed) => feed.feature(parts, separator),
            Emit::Dyn(emit) => emit(parts, separator),
        }
    }

    #[inline]
    fn run_ngrams(&mut self, run: &'t str, n: usize, three_byte: bool) -> usize {
        match self {
            Emit::Feed(feed) => feed.run_ngrams(run, n, three_byte),
            Emit::Dyn(emit) => crate::tokenize::ngrams_one_by_one(emit, run, n),
        }
    }
}

/// Features of `text` straight into a fingerprinter's sink.
pub(crate) struct Feed<'a> {
    fingerprinter: &'a Fingerprinter,
    sink: &'a mut Sink,
    text: &'a str,
    /// For binary weights: the bytes of bigrams hashed recently, direct-mapped by a multiply
    /// (tagged with the top bit, so 0 is empty); allocated at the first run.
    recent: Vec<u64>,
}

/// The most bigrams [`Feed::recent`] holds (128 KB, one slot per 64 bytes of a 1 MB text,
/// within the second-level cache). Chinese technical text has about 30 000 distinct bigrams per
/// MB: with 4 096 slots (32 KB, within the first-level cache) too few of them were found, and
/// with 32 768 the misses cost more than the hashing they saved.
const RECENT_MAX: usize = 1 << 14;

/// Bytes of text per slot of [`Feed::recent`] below [`RECENT_MAX`]: the slots take as many
/// bytes as the text. Found and chosen on `gimp-zh` (a 64 KB manual with a new bigram every few
/// characters): at a slot per 64 bytes (until 2026-11-27) its 1 024 slots lost most repeats
/// to collisions, and the text took 8 % more time; a slot per 4 bytes gained at most a point
/// more. Held-out texts of 50 KB to 250 KB 4 to 8 % less time natively and in wasm, CJK
/// documents of 10 and 100 KB 4 to 12 %; 1 MB texts are at [`RECENT_MAX`] either way
/// (docs/performance.md).
const RECENT_BYTES_PER_SLOT: usize = 8;

impl<'t> Features<'t> for Feed<'_> {
    #[inline(always)]
    fn feature(&mut self, parts: &[&'t str], separator: &'static str) {
        self.fingerprinter
            .feed(self.sink, self.text, parts, separator);
    }

    /// Bigrams of Han and kana (three-byte characters all), the bulk of CJK text, hashed in
    /// one loop where they lie in the text and added to the sink picked once for the run,
    /// instead of one call through the generic feature path each.
    #[inline]
    fn run_ngrams(&mut self, run: &'t str, n: usize, three_byte: bool) -> usize {
        let hasher = &self.fingerprinter.hasher;
        let bytes = run.as_bytes();
        let three_byte = three_byte
            || bytes.len().is_multiple_of(3) && bytes.chunks_exact(3).all(|c| c[0] & 0xF0 == 0xE0);
        match crate::hash::offset_in(self.text, run) {
            Some(start) if n == 2 && three_byte && hasher.width() <= 64 => {
                let count = bytes.len() / 3 - 1;
                let text = self.text.as_bytes();
                match self.sink {
                    // Sets of 64-bit hashes (widths up to 64, binary weights): without IDF each
                    // new hash is counted as the set takes it; with IDF (the next arm) the set
                    // is weighted at the end.
                    Sink::Set(d, counter) => {
                        filtered_bigrams(
                            &mut self.recent,
                            hasher,
                            text,
                            start,
                            count,
                            d,
                            Some(counter),
                        );
                    }
                    Sink::Distinct(d) if d.is_narrow_set() => {
                        filtered_bigrams(&mut self.recent, hasher, text, start, count, d, None);
                    }
                    Sink::Unit(counter) => {
                        hasher.bigrams_of_3_byte_chars(text, start, count, |h| {
                            counter.add(hasher.cut(u128::from(h)));
                        })
                    }
                    Sink::Distinct(d) => {
                        hasher.bigrams_of_3_byte_chars(text, start, count, |h| {
                            d.add(u128::from(h));
                        });
                    }
                    Sink::Min(sketch) => {
                        hasher.bigrams_of_3_byte_chars(text, start, count, |h| {
                            sketch.add(u128::from(h));
                        });
                    }
                }
                count
            }
            _ => crate::tokenize::ngrams_one_by_one(self, run, n),
        }
    }
}

/// The bigrams of a run of `count` three-byte characters at `start` of `text`, added to the
/// set `d` of 64-bit hashes, and those new to it to `counter` if there is one. Out of line in
/// wasm (a call per run; one copy for both kinds of set), inlined natively, where the call cost
/// Chinese documents of 10 KB and more 2 to 4 %.
#[cfg_attr(target_arch = "wasm32", inline(never))]
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn filtered_bigrams(
    recent: &mut Vec<u64>,
    hasher: &crate::hash::FeatureHasher,
    text: &[u8],
    start: usize,
    count: usize,
    d: &mut Distinct,
    mut counter: Option<&mut UnitCounter>,
) {
    // Binary weights: a bigram already in the set changes nothing, and Chinese and Japanese
    // repeat theirs (the docs samples: six times each, on average). Bigrams met recently are
    // found by their six bytes, compared whole, before any hashing or probing of the (much
    // larger, cache-missing) set.
    if recent.is_empty() {
        let slots = (text.len() / RECENT_BYTES_PER_SLOT).next_power_of_two();
        *recent = alloc::vec![0; slots.clamp(256, RECENT_MAX)];
    }
    let mask = recent.len() - 1;
    // The bigrams not met recently are held in small batches, then hashed, then added, each
    // step a loop of its own: the test against the recent ones has no branch, and the hashes of
    // a batch run side by side where a mispredicted branch (met or new, found in the set or
    // not) would otherwise throw the next ones' work away.
    let mut pending = [0u64; PENDING];
    let mut n = 0;
    for k in 0..count {
        let at = start + 3 * k;
        match crate::sip13::six_bytes_at(text, at) {
            Some(word) => {
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "the top bits of a product: any will do"
                )]
                let slot = (word.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & mask;
                let tagged = word | 1 << 63;
                let new = recent[slot] != tagged;
                recent[slot] = tagged;
                pending[n] = word;
                n += usize::from(new);
            }
            None => add_to_set(
                hasher,
                d,
                counter.as_deref_mut(),
                u128::from(hasher.full_hash_at(text, at, 6)),
            ),
        }
        if n == PENDING {
            add_bigrams(hasher, d, counter.as_deref_mut(), &mut pending);
            n = 0;
        }
    }
    add_bigrams(hasher, d, counter, &mut pending[..n]);
}

/// Bigrams not met recently that `Feed::run_ngrams` holds before hashing them together. Chosen on
/// `docs-zh` (4 to 32 within 1 % of each other, 128 2 % slower); the change took Chinese and
/// Japanese text 1 to 10 % less time natively and up to 7 % in wasm, held-out samples included
/// (docs/performance.md).
const PENDING: usize = 8;

/// Adds `full` to the set `d`, and to `counter` (if any) if it is new there. Out of line in
/// wasm: every place the tokenizer hands over a feature calls it (as each called the table's
/// `add` before), and inlined there it made the `.wasm` 2 KB larger. Inlined natively, where a
/// call for each occurrence of a word cost English 5 %.
#[cfg_attr(target_arch = "wasm32", inline(never))]
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn add_to_set(
    hasher: &crate::hash::FeatureHasher,
    d: &mut Distinct,
    counter: Option<&mut UnitCounter>,
    full: u128,
) {
    if d.add_inlined(full) {
        if let Some(counter) = counter {
            counter.add_inlined(hasher.cut(full));
        }
    }
}

/// Adds the six-byte bigrams `words` (little-endian, as `sip13::six_bytes_at` reads them) to
/// the set `d`, and those new to it to `counter` if any: all hashed first (in place), then all
/// added.
#[inline(always)]
fn add_bigrams(
    hasher: &crate::hash::FeatureHasher,
    d: &mut Distinct,
    mut counter: Option<&mut UnitCounter>,
    words: &mut [u64],
) {
    for w in words.iter_mut() {
        *w = hasher.full_hash_short(6, *w);
    }
    for &h in words.iter() {
        add_to_set(hasher, d, counter.as_deref_mut(), u128::from(h));
    }
}

/// The 64-bit fingerprint of `text` with the default [`Options`].
///
/// ```
/// let a = simprint::fingerprint("你妈妈喊你回家吃饭哦,回家罗回家罗");
/// let b = simprint::fingerprint("你妈妈叫你回家吃饭啦,回家罗回家罗");
/// let c = simprint::fingerprint("The quick brown fox jumps over the lazy dog");
/// assert_eq!(a.width(), 64);
/// assert!(a.distance(&b).unwrap() + 10 < a.distance(&c).unwrap());
/// ```
#[must_use]
pub fn fingerprint(text: &str) -> Fingerprint {
    DEFAULT.fingerprint(text)
}

/// The default fingerprinter (what [`fingerprint`] uses), for the crate's other defaults.
pub(crate) fn default_fingerprinter() -> &'static Fingerprinter {
    &DEFAULT
}

/// The default fingerprinter, built without allocation or fallible steps.
static DEFAULT: Fingerprinter = Fingerprinter {
    options: Options {
        width: 64,
        tokenizer: Tokenizer::Auto {
            word_n: Tokenizer::DEFAULT_WORD_N,
            char_n: Tokenizer::DEFAULT_CHAR_N,
        },
        normalization: Normalization::Width,
        case_fold: true,
        weighting: Weighting::Binary,
        key: Key::DEFAULT,
        algorithm: Algorithm::SimHash,
    },
    hasher: FeatureHasher::DEFAULT_64,
    idf: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    fn min_hash(width: u32) -> Fingerprinter {
        Fingerprinter::new(Options {
            width,
            algorithm: Algorithm::MinHash,
            ..Options::default()
        })
        .unwrap()
    }

    #[test]
    fn min_hash_takes_a_set_of_the_same_features() {
        let fp = min_hash(64);
        let text = "The cat sat on the mat, and the cat sat again. 猫坐在垫子上";
        // The same features given by hand (folded, tokenized), each once or repeated.
        let features = [
            "the", "cat", "sat", "on", "mat", "and", "again", "猫坐", "坐在", "在垫", "垫子",
            "子上",
        ];
        let given = fp
            .fingerprint_features(features.iter().chain(&features).map(|f| (*f, 1.0)))
            .unwrap();
        assert_eq!(given, fp.fingerprint(text));
        assert_eq!(fp.fingerprint_counted(text), (fp.fingerprint(text), 12));
        assert_eq!(fp.feature_count(text), 12);
        // Sets: weights other than 1 and SimHash's explanations do not apply.
        assert_eq!(
            fp.fingerprint_features([("cat", 2.0)]),
            Err(Error::NotForMinHash {
                what: "a feature weight other than 1"
            })
        );
        assert!(matches!(
            fp.fingerprint_features([("cat", f64::NAN)]),
            Err(Error::NonFiniteWeight { .. })
        ));
        assert_eq!(
            fp.explain(text).unwrap_err(),
            Error::NotForMinHash { what: "explain" }
        );
        assert!(fp.explain_features([("cat", 1.0)]).is_err());
        for weighting in [Weighting::TermFrequency, Weighting::LogTermFrequency] {
            let bad = Options {
                weighting,
                algorithm: Algorithm::MinHash,
                ..Options::default()
            };
            assert!(matches!(
                Fingerprinter::new(bad),
                Err(Error::NotForMinHash { .. })
            ));
        }
        let df = crate::DocumentFrequencies::new(*fp.options()).unwrap();
        assert!(matches!(
            fp.clone().with_document_frequencies(&df),
            Err(Error::NotForMinHash { .. })
        ));
    }

    #[test]
    fn min_hash_counted_from_one_table_is_the_fingerprint() {
        for width in [1, 13, 64, 128] {
            let fp = min_hash(width);
            // The same features counted by SimHash's sink (a table it fills as it goes).
            let sim = Fingerprinter::new(Options {
                width,
                ..Options::default()
            })
            .unwrap();
            for text in [
                "",
                "word",
                "the same words, the same words again and again",
                "近似重复检测找出几乎相同的文档，例如只改了几个字的副本。カタカナ ｶﾀｶﾅ",
                "SimHash 指纹 in English and 中文 mixed, ｆｕｌｌ ｗｉｄｔｈ too",
            ] {
                let (print, count) = fp.fingerprint_counted(text);
                assert_eq!(print, fp.fingerprint(text), "{width} {text}");
                assert_eq!(count, sim.feature_count(text), "{width} {text}");
            }
        }
    }

    #[test]
    fn min_hash_keeps_copies_close_and_strangers_far() {
        let fp = min_hash(128);
        let words: Vec<String> = (0..300).map(|i| alloc::format!("w{i}")).collect();
        let mut edited = words.clone();
        for i in (0..300).step_by(20) {
            edited[i] = alloc::format!("x{i}");
        }
        let other: Vec<String> = (0..300).map(|i| alloc::format!("y{i}")).collect();
        let a = fp.fingerprint(&words.join(" "));
        let near = a.distance(&fp.fingerprint(&edited.join(" "))).unwrap();
        let far = a.distance(&fp.fingerprint(&other.join(" "))).unwrap();
        // 15 of 300 replaced: J = 285/315, a bit differs with chance about 0.05; strangers 0.5.
        assert!(near < 16, "{near}");
        assert!(far > 40, "{far}");
        // The rule's k lies between the two, and grows with the width.
        let k = fp
            .recommended_k(&words.join(" "), crate::Tolerance::DEFAULT)
            .unwrap();
        assert!(near <= k && k < far, "{near} {k} {far}");
        assert!(
            min_hash(64)
                .recommended_k(&words.join(" "), crate::Tolerance::DEFAULT)
                .unwrap()
                < k
        );
    }

    /// Hostile features that overflow the set's probe runs are still counted once each at
    /// binary weights: the set's answers as it takes them are not used then.
    #[test]
    fn a_set_whose_probes_overflowed_counts_each_feature_once() {
        for width in [64u32, 128] {
            let fp = Fingerprinter::new(Options {
                width,
                ..Options::default()
            })
            .unwrap();
            // Full hashes whose placing bits (32–63) are all zero all start at one slot, more
            // than a probe run reaches; every one twice, so some land in the table and the
            // overflow list both, or twice in the list. Their other bits are random, so the
            // fingerprint depends on every one of them.
            let mut state = 0x2545_F491_4F6C_DD1D_u64;
            let mut next = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let keys: Vec<u128> = (0..300)
                .map(|_| (u128::from(next()) << 64) | u128::from(next() & 0xFFFF_FFFF))
                .collect();
            let mut sink = fp.sink();
            for _ in 0..2 {
                for &k in &keys {
                    let full = if width > 64 {
                        k
                    } else {
                        k & u128::from(u64::MAX)
                    };
                    fp.feed_hash(&mut sink, full);
                }
            }
            let Sink::Set(d, _) = &sink else {
                unreachable!("binary weights without IDF")
            };
            assert!(d.overflowed());
            let want = crate::accumulate::fingerprint_hashes(
                width,
                keys.iter().map(|&k| {
                    let full = if width > 64 {
                        k
                    } else {
                        k & u128::from(u64::MAX)
                    };
                    (fp.hasher.cut(full), 1.0)
                }),
            )
            .unwrap();
            assert_eq!(fp.finish(sink), want, "width {width}");
        }
    }

    #[test]
    fn static_default_equals_options_default() {
        let built = Fingerprinter::new(Options::default()).unwrap();
        assert_eq!(DEFAULT.options, Options::default());
        for text in ["", "Hello World", "你妈妈喊你回家吃饭哦", "a b c d e f g"] {
            assert_eq!(fingerprint(text), built.fingerprint(text));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, ..Default::default() })]

        /// The bigram fast path (bigrams met recently skipped, the rest batched, hashed, then
        /// added) gives what explanations give, whose features go one by one through the
        /// generic tokenizer path: runs shorter and longer than a batch, bigrams repeated near
        /// and far, a run at the very end of the text (read byte by byte there).
        #[test]
        fn cjk_bigrams_fast_path_equals_the_generic_path(
            pieces in proptest::collection::vec(proptest::sample::select(alloc::vec![
                "中", "文", "回", "家", "吃", "饭", "安", "装", "系", "统", "の", "テ", "キ",
                "ス", "ト", "。", " ", "apt ", "x", "é", "中文内容", "回家吃饭回家吃饭",
            ]), 0..120),
            width in proptest::sample::select(alloc::vec![64u32, 32, 128]),
        ) {
            let text: String = pieces.concat();
            let fp = Fingerprinter::new(Options { width, ..Options::default() }).unwrap();
            proptest::prop_assert_eq!(fp.fingerprint(&text), fp.explain(&text).unwrap().fingerprint, "{:?}", text);
            // With IDF the set is the same kind (binary weights), weighted at the end.
            let mut df = crate::DocumentFrequencies::new(*fp.options()).unwrap();
            for doc in ["中文内容回家", "回家吃饭安装系统", "テキスト中文"] {
                df.add(doc);
            }
            let idf = fp.clone().with_document_frequencies(&df).unwrap();
            proptest::prop_assert_eq!(idf.fingerprint(&text), idf.explain(&text).unwrap().fingerprint, "{:?}", text);
        }
    }

    #[test]
    fn tf_equals_weighted_rows_and_binary_ignores_repeats() {
        let tf = Fingerprinter::new(Options {
            weighting: Weighting::TermFrequency,
            ..Options::default()
        })
        .unwrap();
        let text = "spam spam spam eggs ham spam";
        let rows = [("spam", 4.0), ("eggs", 1.0), ("ham", 1.0)];
        assert_eq!(tf.fingerprint(text), tf.fingerprint_features(rows).unwrap());
        let bin = Fingerprinter::new(Options {
            weighting: Weighting::Binary,
            ..Options::default()
        })
        .unwrap();
        let ones = [("spam", 1.0), ("eggs", 1.0), ("ham", 1.0)];
        assert_eq!(
            bin.fingerprint(text),
            bin.fingerprint_features(ones).unwrap()
        );
    }

    #[test]
    fn narrow_widths_are_prefixes_of_64() {
        let text = "The quick brown fox jumps over the lazy dog";
        let full = fingerprint(text).value();
        for width in 1..=64 {
            let fp = Fingerprinter::new(Options {
                width,
                ..Options::default()
            })
            .unwrap();
            assert_eq!(fp.fingerprint(text).value(), full >> (64 - width));
        }
    }

    #[test]
    fn feature_weights_of_one_counted_as_integers_equal_float_sums() {
        let words: Vec<String> = (0..300).map(|i| alloc::format!("w{}", i % 37)).collect();
        for width in [8u32, 64, 128] {
            let fp = Fingerprinter::new(Options {
                width,
                ..Options::default()
            })
            .unwrap();
            for weights in [
                alloc::vec![1.0; 300],
                (0..300)
                    .map(|i| if i < 250 { 1.0 } else { 0.3 })
                    .collect::<Vec<f64>>(),
                (0..300)
                    .map(|i| if i % 7 == 0 { -1.5 } else { 1.0 })
                    .collect(),
            ] {
                let mut reference = Accumulator::new(width).unwrap();
                for (w, &weight) in words.iter().zip(&weights) {
                    reference.add(fp.hasher().hash_str(w), weight).unwrap();
                }
                let got = fp
                    .fingerprint_features(words.iter().map(String::as_str).zip(weights))
                    .unwrap();
                assert_eq!(got, reference.fingerprint());
            }
            let bad = [("a", 1.0), ("b", 1.0), ("c", f64::NAN)];
            assert!(fp.fingerprint_features(bad).is_err());
        }
    }

    /// Features hashed where they lie in one buffer (as the bindings pass a list) give what
    /// the same features as separate strings give, with strings from elsewhere mixed in.
    #[test]
    fn features_inside_a_text_hash_as_separate_strings() {
        let text = "alpha beta gamma delta internationalization 中文 é x";
        let inside: Vec<&str> = text.split(' ').collect();
        let outside = String::from("elsewhere");
        for width in [8u32, 64, 128] {
            let fp = Fingerprinter::new(Options {
                width,
                ..Options::default()
            })
            .unwrap();
            let mut features: Vec<(&str, f64)> = inside.iter().map(|&w| (w, 1.0)).collect();
            features.push((&outside, 1.0));
            features.push((&text[6..10], 2.5));
            features.push(("", 1.0));
            let separate: Vec<(String, f64)> = features
                .iter()
                .map(|&(f, w)| (String::from(f), w))
                .collect();
            assert_eq!(
                fp.fingerprint_features_in(text, features.iter().copied()),
                fp.fingerprint_features(separate)
            );
        }
    }

    #[test]
    fn case_folding() {
        let on = Fingerprinter::new(Options::default()).unwrap();
        let off = Fingerprinter::new(Options {
            case_fold: false,
            ..Options::default()
        })
        .unwrap();
        assert_eq!(
            on.fingerprint("ÉCOLE Straße"),
            on.fingerprint("école straße")
        );
        assert_ne!(
            off.fingerprint("ÉCOLE Straße"),
            off.fingerprint("école straße")
        );
    }

    #[test]
    fn width_folding_matches_full_and_half_width_forms() {
        let fp = Fingerprinter::new(Options::default()).unwrap();
        assert_eq!(
            fp.fingerprint("Ｔｅｘｔ　１２３ ｶﾞｲﾄﾞ"),
            fp.fingerprint("text 123 ガイド")
        );
        let raw = Fingerprinter::new(Options {
            normalization: Normalization::None,
            ..Options::default()
        })
        .unwrap();
        assert_ne!(
            raw.fingerprint("Ｔｅｘｔ１２３"),
            raw.fingerprint("text123")
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 1000, ..Default::default() })]

        /// The fingerprinter's own feed (CJK bigrams hashed a run at a time into the sink
        /// picked once) gives the fingerprint of the plain tokenizer's features fed one at a
        /// time, on mixed technical text, for every sink and n-gram size.
        #[test]
        fn run_hashing_equals_features_one_at_a_time(
            fragments in proptest::collection::vec(
                proptest::sample::select(crate::tokenize::MIXED), 0..40),
            char_n in 1usize..4,
            width in proptest::sample::select(alloc::vec![64u32, 16, 128]),
            weighting in proptest::sample::select(alloc::vec![
                Weighting::Binary, Weighting::TermFrequency, Weighting::LogTermFrequency]),
        ) {
            let text: String = fragments.concat();
            let fp = Fingerprinter::new(Options {
                width,
                weighting,
                tokenizer: Tokenizer::Auto { word_n: 1, char_n },
                ..Options::default()
            }).unwrap();
            let folded = fp.fold(&text);
            let mut sink = fp.sink();
            fp.options.tokenizer.for_each_feature_reference(&folded, |parts, sep| {
                fp.feed(&mut sink, &folded, parts, sep);
            });
            proptest::prop_assert_eq!(fp.fingerprint(&text), fp.finish(sink), "{:?}", text);
        }
    }
}
