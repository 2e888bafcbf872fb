//! The text pipeline: options, and the fingerprinter that runs
//! normalizing → case folding → tokenizing → hashing → weighting → accumulating.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::accumulate::{Accumulator, UnitCounter};
use crate::distinct::Distinct;
use crate::error::Error;
use crate::fingerprint::{check_width, Fingerprint};
use crate::hash::{FeatureHasher, Key};
use crate::idf::DocumentFrequencies;
use crate::tokenize::Tokenizer;

/// How much each feature of a text weighs.
///
/// ```
/// use simprint::Weighting;
/// assert_eq!(Weighting::from_name("binary")?, Weighting::Binary);
/// assert_eq!(Weighting::default(), Weighting::Binary);
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Weighting {
    /// Each feature weighs the number of times it occurs (`"tf"`).
    TermFrequency,
    /// Each feature weighs `1 + ln(occurrences)` (`"logtf"`): repeats count, but less.
    LogTermFrequency,
    /// Each distinct feature weighs 1, however often it occurs (`"binary"`, the default: it
    /// measured best, see the README's evaluation).
    #[default]
    Binary,
}

impl Weighting {
    /// The weight of a feature that occurs `count` times.
    ///
    /// ```
    /// use simprint::Weighting;
    /// assert_eq!(Weighting::TermFrequency.weight(3), 3.0);
    /// assert_eq!(Weighting::Binary.weight(3), 1.0);
    /// assert_eq!(Weighting::LogTermFrequency.weight(1), 1.0);
    /// ```
    pub fn weight(&self, count: u32) -> f64 {
        match self {
            Weighting::TermFrequency => f64::from(count),
            Weighting::LogTermFrequency => 1.0 + libm::log(f64::from(count)),
            Weighting::Binary => 1.0,
        }
    }

    /// The weighting called `"tf"`, `"logtf"` or `"binary"`.
    ///
    /// ```
    /// assert!(simprint::Weighting::from_name("idf").is_err());
    /// ```
    pub fn from_name(name: &str) -> Result<Weighting, Error> {
        match name {
            "tf" => Ok(Weighting::TermFrequency),
            "logtf" => Ok(Weighting::LogTermFrequency),
            "binary" => Ok(Weighting::Binary),
            other => Err(Error::UnknownWeighting(crate::error::echo(other))),
        }
    }

    /// The name [`Weighting::from_name`] reads.
    ///
    /// ```
    /// assert_eq!(simprint::Weighting::TermFrequency.name(), "tf");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            Weighting::TermFrequency => "tf",
            Weighting::LogTermFrequency => "logtf",
            Weighting::Binary => "binary",
        }
    }
}

/// Unicode normalization applied before tokenizing.
///
/// ```
/// use simprint::Normalization;
/// assert_eq!(Normalization::from_name("width")?, Normalization::Width);
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Normalization {
    /// The text as given (`"none"`).
    None,
    /// Width folding (`"width"`, the default): full-width and half-width forms become their
    /// ordinary forms, so `Ｔｅｘｔ１` matches `Text1` and `ｶﾀｶﾅ` matches `カタカナ`. See
    /// [`normalize`](crate::normalize).
    #[default]
    Width,
}

impl Normalization {
    /// The normalization called `"none"` or `"width"`.
    ///
    /// ```
    /// assert!(simprint::Normalization::from_name("nfc").is_err());
    /// ```
    pub fn from_name(name: &str) -> Result<Normalization, Error> {
        match name {
            "none" => Ok(Normalization::None),
            "width" => Ok(Normalization::Width),
            other => Err(Error::UnknownNormalization(crate::error::echo(other))),
        }
    }

    /// The name [`Normalization::from_name`] reads.
    ///
    /// ```
    /// assert_eq!(simprint::Normalization::Width.name(), "width");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            Normalization::None => "none",
            Normalization::Width => "width",
        }
    }
}

/// Everything that decides a text's fingerprint.
///
/// The defaults, chosen by measurement (README, "Detection quality"): 64 bits, width
/// folding, case folding, the script-aware tokenizer (CJK runs as character bigrams,
/// other text as words), binary weights (each distinct feature counts once), the documented
/// default key.
///
/// ```
/// use simprint::{Options, Tokenizer};
/// let options = Options { width: 128, tokenizer: Tokenizer::Words { n: 2 }, ..Options::default() };
/// assert!(options.validate().is_ok());
/// assert!(Options { width: 0, ..Options::default() }.validate().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Fingerprint width in bits, 1 to 128 (default 64).
    pub width: u32,
    /// How text is cut into features (default [`Tokenizer::Auto`]).
    pub tokenizer: Tokenizer,
    /// Normalization before everything else (default width folding).
    pub normalization: Normalization,
    /// Lowercase the text (after normalizing) with Unicode's default lowercase mapping
    /// (default `true`).
    pub case_fold: bool,
    /// How features are weighted (default binary: each distinct feature once).
    pub weighting: Weighting,
    /// The SipHash key (default [`Key::DEFAULT`]).
    pub key: Key,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            width: 64,
            tokenizer: Tokenizer::default(),
            normalization: Normalization::default(),
            case_fold: true,
            weighting: Weighting::default(),
            key: Key::DEFAULT,
        }
    }
}

impl Options {
    /// Fails on a width outside `1..=128` or an n-gram size outside `1..=MAX_N`.
    ///
    /// ```
    /// use simprint::{Options, Tokenizer};
    /// let bad = Options { tokenizer: Tokenizer::Chars { n: 0 }, ..Options::default() };
    /// assert_eq!(bad.validate().unwrap_err().to_string(), "n must be between 1 and 64, got 0");
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        check_width(self.width)?;
        self.tokenizer.validate()
    }
}

/// Features on their way into a fingerprint (see [`Fingerprinter::sink`]).
pub(crate) enum Sink {
    // Boxed: the per-bit counts are a kilobyte, the table a few words.
    Unit(alloc::boxed::Box<UnitCounter>),
    Distinct(Distinct),
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
    idf: Option<Arc<DocumentFrequencies>>,
}

impl Fingerprinter {
    /// Checks `options` once, so fingerprinting itself cannot fail.
    ///
    /// ```
    /// use simprint::{Error, Fingerprinter, Options};
    /// let err = Fingerprinter::new(Options { width: 129, ..Options::default() }).unwrap_err();
    /// assert_eq!(err, Error::InvalidWidth(129));
    /// ```
    pub fn new(options: Options) -> Result<Fingerprinter, Error> {
        options.validate()?;
        Ok(Fingerprinter {
            hasher: FeatureHasher::new(options.key, options.width)?,
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
    pub fn fingerprint(&self, text: &str) -> Fingerprint {
        let text = self.fold(text);
        let mut sink = self.sink();
        self.options
            .tokenizer
            .for_each_feature(&text, |parts, sep| self.feed(&mut sink, &text, parts, sep));
        self.finish(sink)
    }

    /// Where this fingerprinter's features go: straight into per-bit counts for term
    /// frequencies (each occurrence adds weight 1, the same `V` as one row per feature weighted
    /// by its count, with nothing allocated per feature), else into a table of distinct features.
    pub(crate) fn sink(&self) -> Sink {
        if self.idf.is_none() && self.options.weighting == Weighting::TermFrequency {
            Sink::Unit(alloc::boxed::Box::new(UnitCounter::new(self.options.width)))
        } else {
            Sink::Distinct(self.new_distinct())
        }
    }

    /// Adds one feature (`parts`, cut from `text` if they are slices of it, joined by
    /// `separator`) to `sink`.
    #[inline(always)]
    pub(crate) fn feed(&self, sink: &mut Sink, text: &str, parts: &[&str], separator: &str) {
        let full = self.hasher.full_hash_in(text, parts, separator);
        match sink {
            Sink::Unit(counter) => counter.add(self.hasher.cut(full)),
            // By full 64/128-bit hash, not the cut one, so that at small widths two different
            // features with equal cut hashes both count.
            Sink::Distinct(d) => d.add(full),
        }
    }

    /// The fingerprint of everything fed to `sink`.
    pub(crate) fn finish(&self, sink: Sink) -> Fingerprint {
        match sink {
            Sink::Unit(counter) => counter.fingerprint(),
            Sink::Distinct(d)
                if self.idf.is_none() && self.options.weighting == Weighting::Binary =>
            {
                // Each distinct feature once; integer counts, so order does not matter.
                let mut counter = UnitCounter::new(self.options.width);
                d.for_each_key(|h| counter.add(self.hasher.cut(h)));
                counter.fingerprint()
            }
            Sink::Distinct(d) => {
                let mut counts = d.counts();
                counts.sort_unstable();
                self.accumulate(&counts)
            }
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

    /// An empty table of distinct features for this fingerprinter: 64-bit keys up to 64 bits,
    /// and counts only where the weighting reads them (binary weights do not).
    fn new_distinct(&self) -> Distinct {
        Distinct::new(
            self.options.width > 64,
            self.options.weighting != Weighting::Binary,
        )
    }

    /// [`Fingerprinter::counts`] for the document-frequency table.
    pub(crate) fn counts_of(&self, folded: &str) -> Vec<(u128, u32)> {
        self.counts(folded)
    }

    /// Each distinct feature of already folded `text` as (full hash, occurrences), sorted by
    /// hash: the order float weights are summed in, everywhere.
    fn counts(&self, text: &str) -> Vec<(u128, u32)> {
        let mut counts = self.distinct(text).counts();
        counts.sort_unstable();
        counts
    }

    /// True when every weight is a whole number (tf or binary without IDF), so `V` is counted
    /// exactly in integers.
    pub(crate) fn integral_weights(&self) -> bool {
        self.idf.is_none() && self.options.weighting != Weighting::LogTermFrequency
    }

    /// A distinct feature's weight: the weighting of its count, times its IDF if any.
    pub(crate) fn weight_of(&self, full_hash: u128, count: u32) -> f64 {
        let w = self.options.weighting.weight(count);
        match &self.idf {
            Some(idf) => w * idf.idf_of_hash(full_hash),
            None => w,
        }
    }

    /// The fingerprint of distinct features given as (full hash, count), summed in the given
    /// (hash) order so float weights add up the same everywhere.
    pub(crate) fn accumulate(&self, counts: &[(u128, u32)]) -> Fingerprint {
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

    /// Uses inverse document frequencies from `df`: each feature's weight is multiplied by
    /// `ln((1 + N) / (1 + df)) + 1`, so features common across the corpus count less. `df`
    /// must have been built with the same options, apart from the weighting.
    ///
    /// ```
    /// use simprint::{DocumentFrequencies, Fingerprinter, Options};
    /// let mut df = DocumentFrequencies::new(Options::default())?;
    /// for doc in ["the cat sat", "the dog ran", "the bird flew"] {
    ///     df.add(doc);
    /// }
    /// let fp = Fingerprinter::new(Options::default())?.with_document_frequencies(df)?;
    /// let e = fp.explain("the cat");
    /// assert!(e.features[0].weight < e.features[1].weight); // "the" is in every document
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn with_document_frequencies(
        mut self,
        df: impl Into<Arc<DocumentFrequencies>>,
    ) -> Result<Fingerprinter, Error> {
        let df = df.into();
        let built = df.options();
        let same = Options {
            weighting: self.options.weighting,
            ..*built
        } == self.options;
        if !same {
            return Err(Error::InvalidOptions(String::from(
                "the document frequencies were built with other options (tokenizer, n, \
                 normalization, case folding, key or width): build them with these",
            )));
        }
        self.idf = Some(df);
        Ok(self)
    }

    /// The document frequencies in use, if any.
    ///
    /// ```
    /// let fp = simprint::Fingerprinter::new(simprint::Options::default())?;
    /// assert!(fp.document_frequencies().is_none());
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn document_frequencies(&self) -> Option<&DocumentFrequencies> {
        self.idf.as_deref()
    }

    /// The fingerprint of caller-supplied `(feature, weight)` pairs, hashed with this
    /// fingerprinter's key and width. The features are used as given: no case folding or
    /// tokenizing. Repeated features add up.
    ///
    /// Fails on a weight that is not finite.
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

    /// [`Fingerprinter::fingerprint_features`] of features that may be slices of `text` (the
    /// bindings get a list as one buffer): those are hashed where they lie, which is faster.
    pub(crate) fn fingerprint_features_in<S: AsRef<str>>(
        &self,
        text: &str,
        features: impl IntoIterator<Item = (S, f64)>,
    ) -> Result<Fingerprint, Error> {
        // Weights of 1 (the usual case) are counted in exact integers; the first other weight
        // moves the counts into float `V`, which they equal exactly, and goes on from there.
        let mut unit = UnitCounter::new(self.options.width);
        let mut acc: Option<Accumulator> = None;
        for (feature, weight) in features {
            let feature = feature.as_ref();
            // No buffer (callers of the public method): skip looking for the feature in it.
            let hash = if text.is_empty() {
                self.hasher.hash_str(feature)
            } else {
                self.hasher
                    .cut(self.hasher.full_hash_in(text, &[feature], ""))
            };
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
        Ok(match acc {
            Some(acc) => acc.fingerprint(),
            None => unit.fingerprint(),
        })
    }

    /// The hasher this fingerprinter uses (for drawing or checking single features).
    ///
    /// ```
    /// let fp = simprint::Fingerprinter::new(simprint::Options::default())?;
    /// assert_eq!(fp.hasher().width(), 64);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn hasher(&self) -> &FeatureHasher {
        &self.hasher
    }

    /// The text as the tokenizer sees it: normalized, then lowercased, as the options say.
    pub(crate) fn fold<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let width = self.options.normalization == Normalization::Width;
        let case = self.options.case_fold;
        if !width && !case {
            return Cow::Borrowed(text);
        }
        // One look at the non-ASCII characters only (ASCII has no width variants, and only
        // A–Z change in lowercase) tells which folds have anything to do.
        let seen = NonAscii::of(text, width);
        let mut out = Cow::Borrowed(text);
        if width && seen.width_variant {
            out = Cow::Owned(crate::normalize::fold_width(text));
        }
        if case {
            if seen.lowercase_changes {
                out = Cow::Owned(lowercase(&out));
            } else if out.bytes().any(|b| b.is_ascii_uppercase()) {
                // Only A–Z change: one copy lowered in bulk.
                let mut owned = out.into_owned();
                owned.make_ascii_lowercase();
                out = Cow::Owned(owned);
            }
        }
        out
    }
}

/// What the non-ASCII characters of a text hold, for [`Fingerprinter::fold`].
#[derive(Default)]
struct NonAscii {
    /// Some character lowercases to something else.
    lowercase_changes: bool,
    /// Some character is a width variant (see [`crate::normalize`]).
    width_variant: bool,
}

impl NonAscii {
    /// What `text` holds, for folding widths first if `width`: width variants then only count
    /// as such, since what they fold to is ASCII or has no case (a test checks every one).
    fn of(text: &str, width: bool) -> NonAscii {
        let mut seen = NonAscii::default();
        let mut at = 0;
        let bytes = text.as_bytes();
        while at < bytes.len() {
            at += crate::ascii_words::first_non_ascii(&bytes[at..]);
            let Some(&lead) = bytes.get(at) else {
                break;
            };
            // U+3000–U+9FFF (CJK punctuation, kana, ideographs: lead bytes E3–E9) have no
            // case, and only U+3000 among them is a width variant: no decoding needed.
            if (0xE3..=0xE9).contains(&lead) {
                if bytes[at..].starts_with("\u{3000}".as_bytes()) {
                    seen.width_variant = true;
                }
                at += 3;
                continue;
            }
            let Some(c) = text[at..].chars().next() else {
                break;
            };
            at += c.len_utf8();
            if crate::normalize::is_width_variant(c) {
                seen.width_variant = true;
                if width {
                    continue;
                }
            }
            if !lowercase_unchanged(c) {
                seen.lowercase_changes = true;
            }
        }
        seen
    }
}

/// The fingerprint of pre-hashed `(hash, weight)` features of `width` bits: the algorithm with
/// nothing in front of it, as in the reference material's worked examples.
///
/// Fails on a bad width, a hash with bits above the width, or a weight that is not finite.
///
/// ```
/// let hashes = [(0b101, 1.0), (0b011, 2.0), (0b100, 0.0), (0b001, 3.0), (0b110, 0.0)];
/// assert_eq!(simprint::fingerprint_hashes(3, hashes)?.to_binary(), "001");
/// # Ok::<(), simprint::Error>(())
/// ```
pub fn fingerprint_hashes(
    width: u32,
    features: impl IntoIterator<Item = (u128, f64)>,
) -> Result<Fingerprint, Error> {
    let mut acc = Accumulator::new(width)?;
    for (hash, weight) in features {
        acc.add(hash, weight)?;
    }
    Ok(acc.fingerprint())
}

/// `str::to_lowercase`, faster: ASCII runs are lowercased byte-wise and other characters one
/// by one with `char::to_lowercase`, which is what `str::to_lowercase` does for every character
/// but a context-dependent final sigma (Σ); text holding a Σ takes the standard path.
fn lowercase(text: &str) -> String {
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
fn lowercase_unchanged(c: char) -> bool {
    if matches!(c as u32, 0x2E80..=0xA4CF | 0xAC00..=0xD7A3) {
        return true;
    }
    let mut lower = c.to_lowercase();
    lower.next() == Some(c) && lower.next().is_none()
}

/// The Hamming distance bound to use for `text` with the default pipeline at `width` bits,
/// from the evaluation in the README (Debian documentation in English and Chinese, edits of
/// up to 10 % and reorders counted as duplicates): at 64 bits, 9 for text that is mostly not
/// CJK, whatever its length; for mostly-CJK text 12, or 15 below 300 characters, where each
/// edit moves more bits. Scaled by `width / 64` for other widths.
///
/// ```
/// assert_eq!(simprint::recommended_k("A plain English sentence, long or short.", 64), 9);
/// assert_eq!(simprint::recommended_k("你妈妈喊你回家吃饭哦,回家罗回家罗", 64), 15);
/// assert_eq!(simprint::recommended_k("A plain English sentence.", 128), 18);
/// ```
pub fn recommended_k(text: &str, width: u32) -> u32 {
    let (mut cjk, mut other) = (0usize, 0usize);
    for c in text.chars().filter(|c| c.is_alphanumeric()) {
        if crate::tokenize::is_cjk(c) {
            cjk += 1;
        } else {
            other += 1;
        }
    }
    let k64: u32 = if cjk > other {
        if text.chars().count() < 300 {
            15
        } else {
            12
        }
    } else {
        9
    };
    let width = width.clamp(1, crate::fingerprint::MAX_WIDTH);
    ((k64 * width + 32) / 64).min(width)
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
pub fn fingerprint(text: &str) -> Fingerprint {
    DEFAULT.fingerprint(text)
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
    },
    hasher: FeatureHasher::DEFAULT_64,
    idf: None,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_default_equals_options_default() {
        let built = Fingerprinter::new(Options::default()).unwrap();
        assert_eq!(DEFAULT.options, Options::default());
        for text in ["", "Hello World", "你妈妈喊你回家吃饭哦", "a b c d e f g"] {
            assert_eq!(fingerprint(text), built.fingerprint(text));
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
    fn logtf_and_idf_weights() {
        let text = "spam spam spam eggs";
        let log = Fingerprinter::new(Options {
            weighting: Weighting::LogTermFrequency,
            ..Options::default()
        })
        .unwrap();
        let rows = [("spam", 1.0 + libm::log(3.0)), ("eggs", 1.0)];
        // Same weights; the pipeline sums in hash order, the rows in given order, and both
        // must give the same signs.
        assert_eq!(
            log.fingerprint(text),
            log.fingerprint_features(rows).unwrap()
        );
        assert_eq!(log.explain(text).fingerprint, log.fingerprint(text));

        let mut df = DocumentFrequencies::new(Options::default()).unwrap();
        for doc in ["spam and eggs", "spam only", "spam again"] {
            df.add(doc);
        }
        let idf = Fingerprinter::new(Options::default())
            .unwrap()
            .with_document_frequencies(df.clone())
            .unwrap();
        let e = idf.explain(text);
        assert_eq!(e.fingerprint, idf.fingerprint(text));
        let weight = |f: &str| {
            e.features
                .iter()
                .find(|r| r.text.as_deref() == Some(f))
                .unwrap()
                .weight
        };
        assert_eq!(weight("spam"), libm::log(4.0 / 4.0) + 1.0);
        assert_eq!(weight("eggs"), libm::log(4.0 / 2.0) + 1.0);
        // A table built with other options is refused.
        let other = Fingerprinter::new(Options {
            case_fold: false,
            ..Options::default()
        })
        .unwrap();
        assert!(matches!(
            other.with_document_frequencies(df),
            Err(Error::InvalidOptions(_))
        ));
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
        /// The fold's shortcuts (borrowing, bulk ASCII lowering, looking at non-ASCII
        /// characters only) give exactly width folding followed by `str::to_lowercase`.
        #[test]
        fn fold_equals_width_fold_then_to_lowercase(
            chars in proptest::collection::vec(proptest::sample::select(alloc::vec![
                'a', 'Z', ' ', '.', 'Σ', 'σ', 'Ａ', 'ｚ', 'ｶ', 'ﾞ', '\u{3000}', 'İ', 'K', '“',
                '中', 'É', 'ß', '\u{FFE5}', '1', '\u{3001}', 'ぁ', '\u{9fff}', '\u{a640}', 'Ｚ',
            ]), 0..24),
            width in proptest::bool::ANY,
            case_fold in proptest::bool::ANY,
        ) {
            let text: String = chars.into_iter().collect();
            let options = Options {
                normalization: if width { Normalization::Width } else { Normalization::None },
                case_fold,
                ..Options::default()
            };
            let mut expected = text.clone();
            if width {
                expected = crate::normalize::fold_width(&expected);
            }
            if case_fold {
                expected = expected.to_lowercase();
            }
            let fp = Fingerprinter::new(options).unwrap();
            let folded = fp.fold(&text);
            proptest::prop_assert_eq!(folded.as_ref(), expected.as_str());
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

    /// `NonAscii::of` does not look at the case of width variants when widths are folded
    /// first: what each one folds to is ASCII or has no lowercase.
    #[test]
    fn width_variants_fold_to_ascii_or_caseless_text() {
        let variants = (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| crate::normalize::is_width_variant(c));
        let mut checked = 0;
        for c in variants {
            checked += 1;
            let folded = crate::normalize::fold_width(&String::from(c));
            assert!(
                folded
                    .chars()
                    .all(|d| d.is_ascii() || lowercase_unchanged(d)),
                "{c:?} folds to {folded:?}"
            );
        }
        assert_eq!(checked, 1 + 0xFFEE - 0xFF01 + 1);
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
}
