//! The options of the text pipeline: everything that decides a text's fingerprint.

use crate::algorithm::Algorithm;
use crate::error::Error;
use crate::fingerprint::check_width;
use crate::hash::Key;
use crate::tokenize::Tokenizer;

/// How much each feature of a text weighs.
///
/// ```
/// use simprint::Weighting;
/// assert_eq!("binary".parse::<Weighting>()?, Weighting::Binary);
/// assert_eq!(Weighting::Binary.to_string(), "binary");
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
    /// measured best, see docs/evaluation.md).
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
    #[must_use]
    pub fn weight(&self, count: u32) -> f64 {
        match self {
            Weighting::TermFrequency => f64::from(count),
            Weighting::LogTermFrequency => 1.0 + libm::log(f64::from(count)),
            Weighting::Binary => 1.0,
        }
    }

    /// The name it is parsed from (and displayed as).
    ///
    /// ```
    /// assert_eq!(simprint::Weighting::TermFrequency.name(), "tf");
    /// ```
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Weighting::TermFrequency => "tf",
            Weighting::LogTermFrequency => "logtf",
            Weighting::Binary => "binary",
        }
    }
}

impl core::str::FromStr for Weighting {
    type Err = Error;

    /// The weighting called `"tf"`, `"logtf"` or `"binary"`.
    ///
    /// ```
    /// assert!("idf".parse::<simprint::Weighting>().is_err());
    /// ```
    fn from_str(name: &str) -> Result<Weighting, Error> {
        match name {
            "tf" => Ok(Weighting::TermFrequency),
            "logtf" => Ok(Weighting::LogTermFrequency),
            "binary" => Ok(Weighting::Binary),
            other => Err(Error::UnknownWeighting {
                name: crate::error::echo(other),
            }),
        }
    }
}

impl core::fmt::Display for Weighting {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Unicode normalization applied before tokenizing.
///
/// ```
/// use simprint::Normalization;
/// assert_eq!("width".parse::<Normalization>()?, Normalization::Width);
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
    /// The name it is parsed from (and displayed as).
    ///
    /// ```
    /// assert_eq!(simprint::Normalization::Width.name(), "width");
    /// ```
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Normalization::None => "none",
            Normalization::Width => "width",
        }
    }
}

impl core::str::FromStr for Normalization {
    type Err = Error;

    /// The normalization called `"none"` or `"width"`.
    ///
    /// ```
    /// assert!("nfc".parse::<simprint::Normalization>().is_err());
    /// ```
    fn from_str(name: &str) -> Result<Normalization, Error> {
        match name {
            "none" => Ok(Normalization::None),
            "width" => Ok(Normalization::Width),
            other => Err(Error::UnknownNormalization {
                name: crate::error::echo(other),
            }),
        }
    }
}

impl core::fmt::Display for Normalization {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything that decides a text's fingerprint.
///
/// The defaults, chosen by measurement (docs/evaluation.md): 64 bits, width
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
    /// The kind of fingerprint (default [`Algorithm::SimHash`]; [`Algorithm::MinHash`] takes
    /// binary weights only).
    pub algorithm: Algorithm,
}

/// The width of [`Options::quality`].
pub const QUALITY_WIDTH: u32 = 128;

impl Default for Options {
    fn default() -> Options {
        Options {
            width: 64,
            tokenizer: Tokenizer::default(),
            normalization: Normalization::default(),
            case_fold: true,
            weighting: Weighting::default(),
            key: Key::DEFAULT,
            algorithm: Algorithm::SimHash,
        }
    }
}

impl Options {
    /// The quality mode: one-bit MinHash of the default pipeline's features at 128 bits (16
    /// bytes a document), with its own `k` from
    /// [`Fingerprinter::recommended_k`](crate::Fingerprinter::recommended_k) or, for a pair of
    /// texts, [`Fingerprinter::pair_k`](crate::Fingerprinter::pair_k) (about 14 to 24: 15 for English prose, 20 to 24 for Chinese, 17 for two texts of
    /// equal size). Its
    /// bits differ with probability `(1 − J)/2`, `J` the texts' Jaccard similarity, which
    /// separates near-duplicates from copies edited twice as much better than SimHash's angle
    /// at the same width (docs/evaluation.md, "The quality mode", has both sides and the
    /// index's cost). Until 0.1.0's quality mode changed to it on 2026-11-28 it was SimHash at
    /// 128 bits (`Options { width: 128, ..Options::default() }`).
    ///
    /// ```
    /// use simprint::{Algorithm, Fingerprinter, Options, Tolerance};
    /// let fp = Fingerprinter::new(Options::quality())?;
    /// assert_eq!(fp.options().algorithm, Algorithm::MinHash);
    /// let text = "SimHash keeps near-duplicate documents close in Hamming distance.";
    /// assert_eq!(fp.fingerprint(text).width(), 128);
    /// let k = fp.recommended_k(text, Tolerance::DEFAULT)?;
    /// assert!(k > simprint::recommended_k(text, 64));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn quality() -> Options {
        Options {
            width: QUALITY_WIDTH,
            algorithm: Algorithm::MinHash,
            ..Options::default()
        }
    }

    /// Fails on a width outside `1..=128`, an n-gram size outside `1..=MAX_N`, or weights
    /// other than binary with [`Algorithm::MinHash`].
    ///
    /// # Errors
    ///
    /// [`Error::WidthOutOfRange`] for a width outside `1..=128`, [`Error::NOutOfRange`] for an
    /// n-gram size outside `1..=MAX_N`, [`Error::NotForMinHash`] for MinHash with `tf` or
    /// `logtf` weights.
    ///
    /// ```
    /// use simprint::{Options, Tokenizer};
    /// let bad = Options { tokenizer: Tokenizer::Chars { n: 0 }, ..Options::default() };
    /// assert_eq!(bad.validate().unwrap_err().to_string(), "n must be between 1 and 64, got 0");
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        check_width(self.width)?;
        self.tokenizer.validate()?;
        match (self.algorithm, self.weighting) {
            (Algorithm::MinHash, Weighting::TermFrequency) => Err(Error::NotForMinHash {
                what: "weighting \"tf\"",
            }),
            (Algorithm::MinHash, Weighting::LogTermFrequency) => Err(Error::NotForMinHash {
                what: "weighting \"logtf\"",
            }),
            _ => Ok(()),
        }
    }
}
