//! How far apart two fingerprints may be and still be near-duplicates: a `k` derived from the
//! text's own features and a stated [`Tolerance`], not fitted to one corpus.
//!
//! The derivation is [`Fingerprinter::recommend`]'s documentation.

use crate::edits::Profile;
use crate::error::Error;
use crate::fingerprint::MAX_WIDTH;
use crate::fingerprinter::Fingerprinter;

/// The edit shares a recommended `k` separates: a copy of a text with a share `near` of its
/// units (words outside CJK, CJK characters) edited is still a near-duplicate; one with a
/// share `far` edited is not.
///
/// ```
/// use simprint::Tolerance;
/// assert_eq!(Tolerance::default(), Tolerance { near: 0.10, far: 0.20 });
/// assert_eq!(Tolerance::new(0.05)?, Tolerance { near: 0.05, far: 0.10 });
/// assert!(Tolerance::new(0.0).is_err());
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// The share of units edited that is still a near-duplicate (default 0.10).
    pub near: f64,
    /// The share that must be told apart from it (default 0.20, twice `near`: chosen with
    /// the criterion on one corpus, docs/evaluation.md).
    pub far: f64,
}

impl Tolerance {
    /// 10 % edited is a near-duplicate, 20 % is not.
    pub const DEFAULT: Tolerance = Tolerance {
        near: 0.10,
        far: 0.20,
    };

    /// A tolerance of `near`, told apart from twice as much editing (at most all of it).
    ///
    /// # Errors
    ///
    /// [`Error::ToleranceOutOfRange`] unless `0 < near < 1`.
    ///
    /// ```
    /// assert_eq!(simprint::Tolerance::new(0.6)?.far, 1.0);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn new(near: f64) -> Result<Tolerance, Error> {
        let t = Tolerance {
            near,
            far: (2.0 * near).min(1.0),
        };
        t.validate()?;
        Ok(t)
    }

    /// Fails unless `0 < near < far ≤ 1`.
    ///
    /// # Errors
    ///
    /// [`Error::ToleranceOutOfRange`] naming both shares.
    ///
    /// ```
    /// use simprint::Tolerance;
    /// assert!(Tolerance { near: 0.2, far: 0.1 }.validate().is_err());
    /// assert!(Tolerance { near: 0.1, far: f64::NAN }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        // Written so that NaN fails every comparison and so the check.
        if self.near > 0.0 && self.near < self.far && self.far <= 1.0 {
            Ok(())
        } else {
            Err(Error::ToleranceOutOfRange {
                near: self.near,
                far: self.far,
            })
        }
    }
}

impl Default for Tolerance {
    fn default() -> Tolerance {
        Tolerance::DEFAULT
    }
}

/// A recommended `k` and what it was derived from.
///
/// ```
/// use simprint::{Fingerprinter, Options, Tolerance};
/// let fp = Fingerprinter::new(Options::default())?;
/// let r = fp.recommend("SimHash keeps near-duplicate documents close in Hamming distance.", Tolerance::DEFAULT)?;
/// assert!(r.near < r.far);          // per-bit chances of a difference
/// assert!(r.k as f64 > r.near * 64.0 && (r.k as f64) < r.far * 64.0);
/// assert_eq!(r.features, 9); // simhash keeps near duplicate documents close in hamming distance
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recommendation {
    /// The Hamming distance bound: near-duplicates are at most `k` apart.
    pub k: u32,
    /// The chance that one bit differs between the text and a copy with the tolerance's
    /// `near` share edited (`θ/π` at the expected angle).
    pub near: f64,
    /// The same for a copy with the `far` share edited.
    pub far: f64,
    /// The fingerprint width the `k` is for.
    pub width: u32,
    /// The text's distinct features ([`Fingerprinter::feature_count`]): what the pair rule
    /// ([`Fingerprinter::pair_k`]) compares, so a stream that recommends also gives it.
    pub features: u32,
}

impl Fingerprinter {
    /// The `k` for `text` under this fingerprinter's tokenizer, weights and width, and what
    /// it was derived from.
    ///
    /// SimHash's theory (Charikar 2002): for feature vectors at angle `θ`, each bit of the two
    /// fingerprints differs with probability `θ/π`, independently, so the distance is binomial,
    /// `Bin(f, θ/π)`. The crate's `edits` module gives the expected `θ` when a share `p` of the text's
    /// units (words outside CJK, CJK characters) is edited, from what the fingerprinter makes of
    /// the text: how many features, how often each occurs, how many units each spans (a word 1,
    /// a CJK bigram 2, an n-word shingle n), what each weighs. The `k` separates the distance of
    /// a copy edited by the tolerance's `near` share from one edited by its `far` share: the
    /// smallest `k` at which the chance that the first lies beyond `k` is at most half the
    /// chance that the second lies within it (equal error, a false near-duplicate weighed at
    /// half a missed one). docs/evaluation.md derives it and says how the criterion and the far
    /// share were chosen on one corpus and checked on others.
    ///
    /// # Errors
    ///
    /// [`Error::ToleranceOutOfRange`] for a tolerance [`Tolerance::validate`] refuses.
    ///
    /// ```
    /// use simprint::{Fingerprinter, Options, Tokenizer, Tolerance};
    /// let text = "Debian 管理员手册介绍了如何安装和配置系统，以及如何使用 APT 工具维护软件包。";
    /// let words = Fingerprinter::new(Options::default())?;
    /// let shingles = Fingerprinter::new(Options {
    ///     tokenizer: Tokenizer::Auto { word_n: 3, char_n: 3 },
    ///     ..Options::default()
    /// })?;
    /// // Trigrams: an edited character changes three features, not two.
    /// let (a, b) = (words.recommend(text, Tolerance::DEFAULT)?, shingles.recommend(text, Tolerance::DEFAULT)?);
    /// assert!(b.near > a.near && b.k >= a.k);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn recommend(&self, text: &str, tolerance: Tolerance) -> Result<Recommendation, Error> {
        tolerance.validate()?;
        Ok(recommendation_of(
            &Profile::of(self, text),
            self.options().width,
            tolerance,
        ))
    }

    /// [`Fingerprinter::recommend`]'s `k` alone: the distance within which a fingerprint
    /// of this fingerprinter is a near-duplicate of `text`'s.
    ///
    /// # Errors
    ///
    /// [`Error::ToleranceOutOfRange`] for a tolerance [`Tolerance::validate`] refuses.
    ///
    /// ```
    /// use simprint::{Fingerprinter, Options, Tolerance};
    /// let fp = Fingerprinter::new(Options::default())?;
    /// let text = "A short comment, seven words long.";
    /// let strict = fp.recommended_k(text, Tolerance::new(0.05)?)?;
    /// let loose = fp.recommended_k(text, Tolerance::new(0.2)?)?;
    /// assert!(strict < loose);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn recommended_k(&self, text: &str, tolerance: Tolerance) -> Result<u32, Error> {
        Ok(self.recommend(text, tolerance)?.k)
    }
}

/// The recommendation for a text of `profile` at `width` bits (a valid `tolerance`).
pub(crate) fn recommendation_of(
    profile: &Profile,
    width: u32,
    tolerance: Tolerance,
) -> Recommendation {
    let near = profile.flip_probability(tolerance.near);
    let far = profile.flip_probability(tolerance.far);
    Recommendation {
        k: k_between(width, near, far),
        near,
        far,
        width,
        features: profile.distinct,
    }
}

/// The Hamming distance bound for `text` with the default pipeline at `width` bits (1 to
/// 128; others are clamped into it) and the default [`Tolerance`] (10 % of the words or CJK
/// characters edited is a near-duplicate, 20 % is not): [`Fingerprinter::recommended_k`] of
/// the default fingerprinter at that width. Changing what this returns changes no
/// fingerprint.
///
/// At 64 bits it gives about 9 to 11 for English prose and 12 to 14 for Chinese (each edited
/// CJK character changes two bigrams), more for short texts, whose features are few
/// (docs/evaluation.md has the derivation and the measurements).
///
/// ```
/// use simprint::recommended_k;
/// let english = "SimHash keeps near-duplicate documents close in Hamming distance. ".repeat(5);
/// let chinese = "Debian 管理员手册介绍了如何安装和配置系统，以及如何使用 APT 工具维护软件包。";
/// assert!(recommended_k(&english, 64) < recommended_k(chinese, 64));
/// assert!(recommended_k(chinese, 128) > recommended_k(chinese, 64));
/// ```
#[must_use]
pub fn recommended_k(text: &str, width: u32) -> u32 {
    let width = width.clamp(1, MAX_WIDTH);
    // The profile does not depend on the width (it counts features, not their bits).
    let profile = Profile::of(crate::fingerprinter::default_fingerprinter(), text);
    let t = Tolerance::DEFAULT;
    k_between(
        width,
        profile.flip_probability(t.near),
        profile.flip_probability(t.far),
    )
}

/// The `k` that separates `X_near ~ Bin(width, near)` from `X_far ~ Bin(width, far)`: the
/// smallest `k` at which `P(X_near > k) ≤ ½·P(X_far ≤ k)`, the width if none. `near` and
/// `far` are per-bit chances of a difference (clamped into `0..=1`), as [`Recommendation`]
/// gives them.
///
/// ```
/// use simprint::k_between;
/// assert_eq!(k_between(64, 0.0, 0.5), 0);
/// let k = k_between(64, 0.12, 0.17);
/// assert!((8..=10).contains(&k));
/// assert!(k_between(128, 0.12, 0.17) > k);
/// ```
#[must_use]
pub fn k_between(width: u32, near: f64, far: f64) -> u32 {
    let width = width.clamp(1, MAX_WIDTH);
    let near = binomial(width, near.clamp(0.0, 1.0));
    let far = binomial(width, far.clamp(0.0, 1.0));
    let (mut near_within, mut far_within) = (0.0, 0.0);
    for k in 0..width {
        near_within += near[k as usize];
        far_within += far[k as usize];
        if 1.0 - near_within <= FALSE_WEIGHT * far_within {
            return k;
        }
    }
    width
}

/// How much a false near-duplicate weighs against a missed one.
const FALSE_WEIGHT: f64 = 0.5;

/// The largest `k` at which a fingerprint checked against `documents` unrelated ones is
/// expected to meet at most one in ten of them by chance: unrelated texts give fingerprints
/// whose bits differ like coin flips, so each lies within `k` with chance
/// `P(Bin(width, ½) ≤ k)`, and `documents` of them with `documents` times that. A recommended
/// `k` is for telling a text's copies from its other versions; in a collection it must also stay
/// below this, or checks report strangers: use `min(recommended_k, collection_k)`, the index
/// planned for the larger `k` it may be asked. `None` when even `k = 0` expects more (over
/// 2^width / 10 documents).
///
/// At 64 bits: 11 for a million documents, 16 for a thousand; at 128 bits, 34 and 42.
/// Real collections hold related texts that lie closer than coin flips, so this is an upper
/// bound on what a collection can take.
///
/// ```
/// use simprint::collection_k;
/// assert_eq!(collection_k(64, 1_000_000), Some(11));
/// assert!(collection_k(64, 1_000).unwrap() >= 16);
/// assert!(collection_k(128, 1_000_000).unwrap() > 30);
/// assert_eq!(collection_k(64, 0), Some(64));
/// assert_eq!(collection_k(8, 1_000), None);
/// ```
#[must_use]
pub fn collection_k(width: u32, documents: u64) -> Option<u32> {
    let width = width.clamp(1, MAX_WIDTH);
    #[allow(
        clippy::cast_precision_loss,
        reason = "a count of documents, far below 2^53 in practice; rounding moves no k"
    )]
    let n = documents as f64;
    let chances = binomial(width, 0.5);
    let mut within = 0.0;
    let mut best = None;
    for k in 0..=width {
        within += chances[k as usize];
        if n * within > EXPECTED_STRANGERS {
            return best;
        }
        best = Some(k);
    }
    best
}

/// How many unrelated documents a check may be expected to report, at most (`collection_k`).
const EXPECTED_STRANGERS: f64 = 0.1;

/// The probabilities of 0 to `n` successes of `n` trials of chance `p`, by the ratio of
/// neighbours (no factorials; `(1 − p)^128` is far from underflow).
fn binomial(n: u32, p: f64) -> alloc::vec::Vec<f64> {
    let mut out = alloc::vec![0.0; n as usize + 1];
    if p >= 1.0 {
        out[n as usize] = 1.0;
        return out;
    }
    let mut pmf = libm::pow(1.0 - p, f64::from(n));
    for k in 0..=n {
        out[k as usize] = pmf;
        pmf *= f64::from(n - k) / f64::from(k + 1) * p / (1.0 - p);
    }
    out
}

/// A `k` for 64 bits scaled to `width` (1 to 128; others clamped into it):
/// `round(k · width / 64)`, halves up, at most `width`.
pub(crate) fn scale(k64: u32, width: u32) -> u32 {
    let width = width.clamp(1, MAX_WIDTH);
    ((k64 * width + 32) / 64).min(width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;
    use alloc::string::String;
    use core::f64::consts::PI;

    fn words(n: usize) -> String {
        (0..n).map(|i| alloc::format!("w{i} ")).collect()
    }

    fn han(n: usize) -> String {
        (0x4E00u32..).take(n).filter_map(char::from_u32).collect()
    }

    #[test]
    fn binomial_sums_to_one() {
        for (n, p) in [(64, 0.1), (128, 0.5), (1, 0.3), (64, 0.0), (64, 1.0)] {
            let total: f64 = binomial(n, p).iter().sum();
            assert!((total - 1.0).abs() < 1e-9, "{n} {p}");
        }
    }

    /// The closed form of edits.rs for distinct words: θ = acos(0.9) at 10 %, acos(0.8) at
    /// 20 %, so 0.1436 and 0.2048 a bit; between Bin(64, ·) of those the first k with
    /// `miss ≤ ½·false` is 12 (0.121 ≤ ½·0.437, computed apart from this code), at 128
    /// bits 23.
    #[test]
    fn distinct_words_at_64_and_128_bits() {
        let text = words(500);
        assert_eq!(recommended_k(&text, 64), 12);
        assert_eq!(recommended_k(&text, 128), 23);
        let (near, far) = (libm::acos(0.9) / PI, libm::acos(0.8) / PI);
        assert_eq!(k_between(64, near, far), 12);
        // Distinct bigrams: 0.19 and 0.36 of the features change, so further.
        assert!(recommended_k(&han(500), 64) > 12);
    }

    #[test]
    fn the_free_function_is_the_default_fingerprinter_at_each_width() {
        let text = "Debian 管理员手册介绍了如何安装和配置系统，以及如何使用 APT 工具维护软件包。";
        for width in [1, 8, 64, 100, 128] {
            let fp = Fingerprinter::new(Options {
                width,
                ..Options::default()
            })
            .unwrap();
            assert_eq!(
                recommended_k(text, width),
                fp.recommended_k(text, Tolerance::DEFAULT).unwrap()
            );
        }
        assert_eq!(recommended_k(text, 0), recommended_k(text, 1));
        assert_eq!(recommended_k(text, 500), recommended_k(text, 128));
    }

    #[test]
    fn k_rises_with_the_tolerance_and_stays_within_the_width() {
        let fp = Fingerprinter::new(Options::default()).unwrap();
        let text = words(300);
        let mut last = 0;
        for near in [0.01, 0.05, 0.1, 0.2, 0.3, 0.45] {
            let k = fp
                .recommended_k(&text, Tolerance::new(near).unwrap())
                .unwrap();
            assert!(k >= last && k <= 64, "{near}: {k}");
            last = k;
        }
        for text in ["", "a", "中", "\u{0}"] {
            assert!(recommended_k(text, 64) <= 64);
            assert!(recommended_k(text, 1) <= 1);
        }
    }

    #[test]
    fn bad_tolerances_are_errors() {
        let fp = Fingerprinter::new(Options::default()).unwrap();
        for (near, far) in [
            (0.0, 0.2),
            (0.1, 0.1),
            (0.2, 0.1),
            (0.5, 1.5),
            (-0.1, 0.2),
            (f64::NAN, 0.2),
            (0.1, f64::INFINITY),
        ] {
            let t = Tolerance { near, far };
            assert!(
                matches!(
                    fp.recommend("text", t),
                    Err(Error::ToleranceOutOfRange { .. })
                ),
                "{near} {far}"
            );
        }
        assert!(Tolerance::new(1.0).is_err());
        assert!(Tolerance::new(0.99).is_ok());
    }

    #[test]
    fn other_widths_scale() {
        assert_eq!(scale(11, 128), 22);
        assert_eq!(scale(11, 32), 6);
        assert_eq!(scale(11, 1), 0);
        assert_eq!(scale(11, 0), 0);
        assert_eq!(scale(11, 500), 22);
    }
}
