//! The text pipeline: options, and the fingerprinter that runs
//! case folding → tokenizing → hashing → accumulating.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::accumulate::{Accumulator, UnitCounter};
use crate::error::Error;
use crate::fingerprint::{check_width, Fingerprint};
use crate::hash::{FeatureHasher, Key};
use crate::tokenize::Tokenizer;

/// How much each feature of a text weighs.
///
/// ```
/// use simprint::Weighting;
/// assert_eq!(Weighting::from_name("binary")?, Weighting::Binary);
/// assert_eq!(Weighting::default(), Weighting::TermFrequency);
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Weighting {
    /// Each feature weighs the number of times it occurs (`"tf"`).
    #[default]
    TermFrequency,
    /// Each distinct feature weighs 1, however often it occurs (`"binary"`).
    Binary,
}

impl Weighting {
    /// The weighting called `"tf"` or `"binary"`.
    ///
    /// ```
    /// assert!(simprint::Weighting::from_name("idf").is_err());
    /// ```
    pub fn from_name(name: &str) -> Result<Weighting, Error> {
        match name {
            "tf" => Ok(Weighting::TermFrequency),
            "binary" => Ok(Weighting::Binary),
            other => Err(Error::UnknownWeighting(other.into())),
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
            Weighting::Binary => "binary",
        }
    }
}

/// Everything that decides a text's fingerprint.
///
/// The defaults: 64 bits, the script-aware tokenizer (CJK runs as character bigrams, other
/// text as words), case folding on, term-frequency weights, the documented default key.
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
    /// Lowercase the text first with Unicode's default lowercase mapping (default `true`).
    pub case_fold: bool,
    /// How features are weighted (default term frequency).
    pub weighting: Weighting,
    /// The SipHash key (default [`Key::DEFAULT`]).
    pub key: Key,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            width: 64,
            tokenizer: Tokenizer::default(),
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
        let mut counter = UnitCounter::new(self.options.width);
        match self.options.weighting {
            Weighting::TermFrequency => {
                // Each occurrence adds weight 1: the same V as one row per feature weighted by
                // its count, without having to count.
                self.options
                    .tokenizer
                    .for_each_feature(&text, |parts, sep| {
                        counter.add(self.hasher.hash_joined(parts, sep));
                    });
            }
            Weighting::Binary => {
                // Distinct by the full 64/128-bit hash, not the cut one, so that at small
                // widths two different features with equal cut hashes both count.
                let mut full = Vec::new();
                self.options
                    .tokenizer
                    .for_each_feature(&text, |parts, sep| {
                        full.push(self.hasher.full_hash_joined(parts, sep));
                    });
                full.sort_unstable();
                full.dedup();
                for h in full {
                    counter.add(self.hasher.cut(h));
                }
            }
        }
        counter.fingerprint()
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
        let mut acc = Accumulator::new(self.options.width)?;
        for (feature, weight) in features {
            acc.add(self.hasher.hash_str(feature.as_ref()), weight)?;
        }
        Ok(acc.fingerprint())
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

    /// The text as the tokenizer sees it: lowercased when `case_fold` is on.
    pub(crate) fn fold<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if self.options.case_fold && text.chars().any(|c| c.is_uppercase() || !c.is_ascii()) {
            Cow::Owned(text.to_lowercase())
        } else {
            Cow::Borrowed(text)
        }
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

/// The 64-bit fingerprint of `text` with the default [`Options`].
///
/// ```
/// let a = simprint::fingerprint("你妈妈喊你回家吃饭哦,回家罗回家罗");
/// let b = simprint::fingerprint("你妈妈叫你回家吃饭啦,回家罗回家罗");
/// assert_eq!(a.width(), 64);
/// assert!(a.distance(&b).unwrap() < 16);
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
        case_fold: true,
        weighting: Weighting::TermFrequency,
        key: Key::DEFAULT,
    },
    hasher: FeatureHasher::DEFAULT_64,
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
        let tf = Fingerprinter::new(Options::default()).unwrap();
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
