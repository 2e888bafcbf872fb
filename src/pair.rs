//! The `k` for a pair of texts, from how many distinct features each has: what a copy's size
//! says about how much of it was edited, which one text alone cannot say.
//!
//! [`recommended_k`](crate::recommended_k) reads one text and models an edit as substitutions
//! of new units. Real edits also insert and delete, reuse the text's own words, and come in
//! runs, and a text cannot tell which its copies will meet (docs/evaluation.md). Two texts
//! can tell part of it: their sizes. With `a` and `b` distinct features (`M` the larger,
//! `m` the smaller), a copy with a share `s` of the larger text's units edited keeps about
//! `c = M·(1 − s)` features in common: a substitution of `sM` units leaves `M − sM`, a deletion
//! of `sM` leaves all `m = M − sM` of the shorter text, an insertion of `sm` into the shorter
//! one leaves its `m = M − sm ≈ M(1 − s)`. SimHash with binary weights estimates the angle
//! between the two feature sets, `cos θ = c / √(a·b)`, so such a copy lies at
//! `cos θ(s) = (1 − s)·√(M / m)` (at most 1), each bit differing with probability `θ(s)/π`.
//! [`pair_k`] puts `k` between the distances of copies edited by `near` and by `far` with
//! [`k_between`](crate::k_between), as the one-text rule does.
//!
//! A size ratio `M/m` past `1/(1 − near)²` is more editing than `near` allows whatever the
//! distance, and gives `k = 0`.
//!
//! One-bit MinHash ([`Algorithm::MinHash`]) estimates the Jaccard similarity instead,
//! `J = c / (a + b − c)`, and each bit differs with probability `(1 − J)/2`; the same copies
//! lie at `J(s) = M(1 − s) / (m + sM)` (at most 1, reached at `M/m = 1/(1 − 2·near)`, past which
//! `k` is 0).

use crate::algorithm::Algorithm;
use crate::error::Error;
use crate::fingerprint::check_width;
use crate::fingerprinter::Fingerprinter;
use crate::recommend::{k_between, Tolerance};

impl Fingerprinter {
    /// The number of distinct features of `text` as this fingerprinter sees them (after case
    /// and width folding, by full hash): the size [`pair_k`] compares. It costs about what a
    /// fingerprint does; [`Fingerprinter::fingerprint_counted`] gives both in one pass. Store
    /// it beside the fingerprint.
    ///
    /// ```
    /// let fp = simprint::Fingerprinter::new(simprint::Options::default())?;
    /// assert_eq!(fp.feature_count("the cat and the hat"), 4);
    /// assert_eq!(fp.feature_count("The CAT, the hat!"), 3);
    /// assert_eq!(fp.feature_count(""), 0);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn feature_count(&self, text: &str) -> u32 {
        self.fingerprint_counted(text).1
    }

    /// The pair `k` of two texts with `features_a` and `features_b` distinct features, for
    /// this fingerprinter's width and algorithm: [`pair_k`] for SimHash,
    /// [`Algorithm::pair_k`] for either.
    ///
    /// # Errors
    ///
    /// [`Error::ToleranceOutOfRange`] unless `0 < tolerance.near < tolerance.far ≤ 1`.
    ///
    /// ```
    /// use simprint::{Algorithm, Fingerprinter, Options, Tolerance};
    /// let min = Fingerprinter::new(Options::quality())?; // one-bit MinHash, 128 bits
    /// let (a, b) = ("a copy with one word changed in it", "a copy with one word edited in it");
    /// let k = min.pair_k(min.feature_count(a), min.feature_count(b), Tolerance::DEFAULT)?;
    /// assert_eq!(k, Algorithm::MinHash.pair_k(128, 7, 7, Tolerance::DEFAULT)?);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn pair_k(
        &self,
        features_a: u32,
        features_b: u32,
        tolerance: Tolerance,
    ) -> Result<u32, Error> {
        self.options()
            .algorithm
            .pair_k(self.options().width, features_a, features_b, tolerance)
    }
}

impl Algorithm {
    /// [`pair_k`] for fingerprints of this algorithm: for SimHash the angle of the module
    /// documentation's model, for one-bit MinHash its Jaccard similarity
    /// `J(s) = M(1 − s) / (m + sM)`, each bit differing with probability `(1 − J)/2`.
    ///
    /// # Errors
    ///
    /// As [`pair_k`].
    ///
    /// ```
    /// use simprint::{pair_k, Algorithm, Tolerance};
    /// let t = Tolerance::DEFAULT;
    /// assert_eq!(Algorithm::SimHash.pair_k(64, 500, 480, t)?, pair_k(64, 500, 480, t)?);
    /// // Equal sizes: J(10 %) = 9/11, J(20 %) = 2/3.
    /// assert!((14..=20).contains(&Algorithm::MinHash.pair_k(128, 500, 500, t)?));
    /// // Sizes a third apart: more editing than 10 % whatever the distance.
    /// assert_eq!(Algorithm::MinHash.pair_k(128, 30, 20, t)?, 0);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn pair_k(
        self,
        width: u32,
        features_a: u32,
        features_b: u32,
        tolerance: Tolerance,
    ) -> Result<u32, Error> {
        let width = check_width(width)?;
        tolerance.validate()?;
        let big = f64::from(features_a.max(features_b).max(1));
        let small = f64::from(features_a.min(features_b).max(1));
        Ok(match self {
            Algorithm::SimHash => simhash_k(width, big / small, tolerance),
            Algorithm::MinHash => {
                let flip = |share: f64| {
                    let shared = big * (1.0 - share);
                    // shared / union, union = big + small − shared = small + share·big > 0.
                    crate::minhash::flip_probability(shared / (small + share * big))
                };
                k_between(width, flip(tolerance.near), flip(tolerance.far))
            }
        })
    }
}

/// SimHash's pair `k` for a size ratio `ratio` (the larger count over the smaller, each at
/// least 1): [`pair_k`] and [`pair_k_limit`] both go through here, so the limits describe
/// exactly what `pair_k` computes. (Not inlined: one copy for both callers in the `.wasm`.)
#[inline(never)]
fn simhash_k(width: u32, ratio: f64, tolerance: Tolerance) -> u32 {
    let ratio = libm::sqrt(ratio);
    let flip = |share: f64| libm::acos(((1.0 - share) * ratio).min(1.0)) / core::f64::consts::PI;
    k_between(width, flip(tolerance.near), flip(tolerance.far))
}

/// [`pair_k`] as a table, for engines that cannot call it (a SQL join over
/// [`crate::Plan::keys`]): the largest size ratio at which the pair `k` is at least `d`, so that
/// `pair_k(width, a, b, tolerance) ≥ d` exactly when `M / m ≤ pair_k_limit(width, d,
/// tolerance)`, with `M = max(a, b, 1)` and `m = max(min(a, b), 1)` divided as `f64` (IEEE
/// division, which every SQL engine's `DOUBLE` does alike). `f64::MAX` for `d = 0` (every pair
/// is within 0), and 0 for `d` above `pair_k(width, n, n, tolerance)`, which no ratio reaches
/// (a ratio is at least 1).
///
/// # Errors
///
/// As [`pair_k`].
///
/// ```
/// use simprint::{pair_k, pair_k_limit, Tolerance};
/// let t = Tolerance::DEFAULT;
/// let limits: Vec<f64> = (0..=64).map(|d| pair_k_limit(64, d, t)).collect::<Result<_, _>>()?;
/// let within = |a: u32, b: u32| {
///     let ratio = f64::from(a.max(b).max(1)) / f64::from(a.min(b).max(1));
///     limits.iter().filter(|&&limit| ratio <= limit).count() as u32 - 1
/// };
/// for (a, b) in [(500, 480), (1000, 900), (30, 20), (7, 7)] {
///     assert_eq!(within(a, b), pair_k(64, a, b, t)?);
/// }
/// # Ok::<(), simprint::Error>(())
/// ```
pub fn pair_k_limit(width: u32, d: u32, tolerance: Tolerance) -> Result<f64, Error> {
    let width = check_width(width)?;
    tolerance.validate()?;
    let k = |ratio: f64| simhash_k(width, ratio, tolerance);
    if d == 0 {
        return Ok(f64::MAX);
    }
    if k(1.0) < d {
        return Ok(0.0);
    }
    // The pair k falls as the sizes part: bisect on the bits of positive floats, which order
    // as the floats do, for the last ratio whose k is still at least d.
    let (mut low, mut high) = (1.0f64.to_bits(), f64::MAX.to_bits());
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if k(f64::from_bits(mid)) >= d {
            low = mid;
        } else {
            high = mid;
        }
    }
    Ok(f64::from_bits(low))
}

/// The `k` at which two texts with `features_a` and `features_b` distinct features (see
/// [`Fingerprinter::feature_count`](crate::Fingerprinter::feature_count)) are near-duplicates
/// under `tolerance`, at `width` bits: the fingerprints' distance at most this is a copy with at
/// most a share `tolerance.near` of its units edited, told apart from `tolerance.far` (the
/// module documentation derives it). Symmetric in the two counts; largest when they are
/// equal, so an index queried at `pair_k(width, n, n, t)` finds every candidate of a text with
/// `n` features, and each is then checked at its own pair `k`.
///
/// Derived for binary weights (the default) and evaluated with them only; with term
/// frequencies or IDF the counts stand for the feature vectors' norms only roughly. This is
/// SimHash's; [`Algorithm::pair_k`] and [`Fingerprinter::pair_k`] also give one-bit MinHash's.
///
/// # Errors
///
/// [`Error::WidthOutOfRange`] unless `1 ≤ width ≤ 128`; [`Error::ToleranceOutOfRange`]
/// unless `0 < tolerance.near < tolerance.far ≤ 1`.
///
/// ```
/// use simprint::{pair_k, Fingerprinter, Options, Tolerance};
/// let fp = Fingerprinter::new(Options::default())?;
/// let a = "Near-duplicate detection finds documents that are almost the same, such as a page \
///          and its copy with a few words changed, among millions of others.";
/// let b = "Near-duplicate detection finds documents that are almost the same, such as a page \
///          and its copy with some words changed, among millions of others.";
/// let k = pair_k(64, fp.feature_count(a), fp.feature_count(b), Tolerance::DEFAULT)?;
/// assert!(fp.fingerprint(a).distance(&fp.fingerprint(b))? <= k);
/// // A copy with a third of the text cut: the sizes alone rule it out.
/// assert_eq!(pair_k(64, 30, 20, Tolerance::DEFAULT)?, 0);
/// # Ok::<(), simprint::Error>(())
/// ```
pub fn pair_k(
    width: u32,
    features_a: u32,
    features_b: u32,
    tolerance: Tolerance,
) -> Result<u32, Error> {
    Algorithm::SimHash.pair_k(width, features_a, features_b, tolerance)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(width: u32, a: u32, b: u32) -> u32 {
        pair_k(width, a, b, Tolerance::DEFAULT).unwrap()
    }

    #[test]
    fn equal_sizes_give_the_plain_model() {
        // cos θ = 1 − s at equal sizes.
        let pi = core::f64::consts::PI;
        let expect = k_between(64, libm::acos(0.9) / pi, libm::acos(0.8) / pi);
        assert_eq!(k(64, 500, 500), expect);
        assert!((9..=13).contains(&expect), "{expect}");
        assert!(k(128, 500, 500) > expect);
    }

    #[test]
    fn symmetric_and_smaller_as_the_sizes_part() {
        assert_eq!(k(64, 400, 500), k(64, 500, 400));
        let mut last = k(64, 1000, 1000);
        for small in [990, 950, 900, 850, 820] {
            let now = k(64, 1000, small);
            assert!(now <= last, "{small}: {now} > {last}");
            last = now;
        }
        assert!(k(64, 1000, 900) < k(64, 1000, 1000));
    }

    #[test]
    fn an_index_queried_at_equal_sizes_misses_no_candidate() {
        // The recipe of pair_k's docs: the query's bound covers every partner's.
        for width in [64, 128] {
            for n in (1..400).step_by(7) {
                let bound = k(width, n, n);
                for m in (1..600).step_by(5) {
                    assert!(k(width, n, m) <= bound, "{width}: {n}, {m}");
                }
            }
        }
    }

    #[test]
    fn the_limits_give_pair_k_for_every_pair_of_counts() {
        // Exactly, not nearly: the join that reads them must answer as pair_k does.
        let tolerances = [
            Tolerance::DEFAULT,
            Tolerance {
                near: 0.03,
                far: 0.06,
            },
            Tolerance {
                near: 0.2,
                far: 0.5,
            },
        ];
        for width in [8, 32, 64, 128] {
            for t in tolerances {
                let limits: alloc::vec::Vec<f64> = (0..=width)
                    .map(|d| pair_k_limit(width, d, t).unwrap())
                    .collect();
                assert!(limits.windows(2).all(|w| w[0] >= w[1]), "{limits:?}");
                let most = pair_k(width, 9, 9, t).unwrap() as usize;
                assert!(limits[most] >= 1.0 && limits[most + 1..].iter().all(|&l| l == 0.0));
                let from_limits = |a: u32, b: u32| {
                    let ratio = f64::from(a.max(b).max(1)) / f64::from(a.min(b).max(1));
                    limits.iter().filter(|&&limit| ratio <= limit).count() as u32 - 1
                };
                for a in (0..1200).step_by(7).chain([65_535, 1 << 20, u32::MAX]) {
                    for b in (a.saturating_sub(300)..a.saturating_add(300)).step_by(3) {
                        assert_eq!(
                            from_limits(a, b),
                            pair_k(width, a, b, t).unwrap(),
                            "{width} bits, {t:?}: {a}, {b}"
                        );
                    }
                }
            }
        }
        assert!(pair_k_limit(0, 1, Tolerance::DEFAULT).is_err());
        let bad = Tolerance {
            near: 0.3,
            far: 0.2,
        };
        assert!(pair_k_limit(64, 1, bad).is_err());
    }

    #[test]
    fn sizes_beyond_the_tolerance_give_zero() {
        // (1 − 0.1)·√(M/m) ≥ 1 from M/m ≥ 1/0.81.
        assert_eq!(k(64, 1000, 800), 0);
        assert_eq!(k(128, 1000, 800), 0);
        assert!(k(64, 1000, 850) > 0);
    }

    #[test]
    fn empty_texts_bad_widths_and_bad_tolerances() {
        assert_eq!(k(64, 0, 0), k(64, 1, 1));
        assert_eq!(k(64, 0, 5), k(64, 1, 5));
        let bad = Tolerance {
            near: 0.3,
            far: 0.2,
        };
        assert!(matches!(
            pair_k(64, 10, 10, bad),
            Err(Error::ToleranceOutOfRange { .. })
        ));
        for width in [0, 129] {
            assert!(matches!(
                pair_k(width, 10, 10, Tolerance::DEFAULT),
                Err(Error::WidthOutOfRange { .. })
            ));
        }
        assert!(pair_k(1, 10, 10, Tolerance::DEFAULT).is_ok());
    }

    #[test]
    fn feature_counts_are_the_explained_features() {
        for options in [
            crate::Options::default(),
            crate::Options {
                width: 128,
                ..crate::Options::default()
            },
            crate::Options {
                weighting: crate::Weighting::TermFrequency,
                ..crate::Options::default()
            },
        ] {
            let fp = Fingerprinter::new(options).unwrap();
            for text in [
                "",
                "one",
                "Near-duplicate detection, near-duplicate DETECTION: the same words again.",
                "近似重复检测找出几乎相同的文档，例如只改了几个字的副本。近似重复检测",
                "SimHash 指纹 in English and 中文 mixed, ｆｕｌｌ ｗｉｄｔｈ too",
            ] {
                let explained = fp.explain(text).unwrap().features.len();
                assert_eq!(fp.feature_count(text) as usize, explained, "{text}");
                let (print, count) = fp.fingerprint_counted(text);
                assert_eq!(
                    (print, count),
                    (fp.fingerprint(text), fp.feature_count(text))
                );
            }
        }
    }

    #[test]
    fn min_hash_pairs() {
        let t = Tolerance::DEFAULT;
        let mk = |width, a, b| Algorithm::MinHash.pair_k(width, a, b, t).unwrap();
        // Equal sizes: J = (1 − s)/(1 + s), a bit differs with chance (1 − J)/2.
        let flip = |s: f64| (1.0 - (1.0 - s) / (1.0 + s)) / 2.0;
        assert_eq!(mk(128, 500, 500), k_between(128, flip(0.1), flip(0.2)));
        assert_eq!(mk(64, 400, 500), mk(64, 500, 400));
        // Largest at equal sizes, so an index queried there misses no partner.
        for width in [64, 128] {
            for n in (1..400).step_by(7) {
                let bound = mk(width, n, n);
                for m in (1..600).step_by(5) {
                    assert!(mk(width, n, m) <= bound, "{width}: {n}, {m}");
                }
            }
        }
        // J(near) reaches 1 at M/m = 1/(1 − 2·near) = 1.25: k is 0 from there.
        assert_eq!(mk(128, 1000, 800), 0);
        assert!(mk(128, 1000, 820) > 0);
        // A fingerprinter answers for its own width and algorithm.
        let fp = Fingerprinter::new(crate::Options::quality()).unwrap();
        assert_eq!(fp.pair_k(300, 290, t).unwrap(), mk(128, 300, 290));
        assert!(matches!(
            Algorithm::MinHash.pair_k(0, 1, 1, t),
            Err(Error::WidthOutOfRange { .. })
        ));
    }

    #[test]
    fn a_wider_tolerance_gives_a_larger_k() {
        let loose = pair_k(64, 700, 700, Tolerance::new(0.2).unwrap()).unwrap();
        assert!(loose > k(64, 700, 700));
    }
}
