//! Hamming distance between fingerprints and the estimates derived from it.

/// Number of differing bits between two fingerprint values (popcount of the XOR).
///
/// ```
/// assert_eq!(simprint::hamming(0b10101, 0b00110), 3);
/// ```
#[inline]
#[must_use]
pub fn hamming(a: u128, b: u128) -> u32 {
    (a ^ b).count_ones()
}

/// [`hamming`] for 64-bit values; the hot path of scans.
///
/// ```
/// assert_eq!(simprint::hamming64(u64::MAX, 0), 64);
/// ```
#[inline]
#[must_use]
pub fn hamming64(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

/// Everything the distance between two fingerprints of width `f` tells.
///
/// For SimHash, the probability that one bit differs between two fingerprints is θ/π, where θ
/// is the angle between the two texts' weighted feature vectors (Charikar's random-hyperplane
/// argument). So with `d` differing bits out of `f`, θ ≈ π·d/f and the cosine similarity of
/// the feature vectors is estimated by cos(π·d/f).
///
/// ```
/// use simprint::Comparison;
/// let c = Comparison::new(16, 64);
/// assert_eq!(c.distance, 16);
/// assert_eq!(c.similarity, 0.75);
/// assert!((c.angle - core::f64::consts::FRAC_PI_4).abs() < 1e-12);
/// assert!((c.cosine - core::f64::consts::FRAC_1_SQRT_2).abs() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    /// Hamming distance `d`: how many of the `f` bits differ.
    pub distance: u32,
    /// The fingerprint width `f`.
    pub width: u32,
    /// `1 − d/f`: the fraction of equal bits.
    pub similarity: f64,
    /// `π·d/f`: the estimated angle in radians between the weighted feature vectors.
    pub angle: f64,
    /// `cos(π·d/f)`: the estimated cosine similarity of the weighted feature vectors.
    pub cosine: f64,
}

impl Comparison {
    /// The estimates for `distance` differing bits out of `width`.
    ///
    /// `width` is taken as at least 1 so this never divides by zero; fingerprints always have
    /// a width of 1 to 128.
    ///
    /// ```
    /// let c = simprint::Comparison::new(0, 128);
    /// assert_eq!((c.similarity, c.angle, c.cosine), (1.0, 0.0, 1.0));
    /// ```
    #[must_use]
    pub fn new(distance: u32, width: u32) -> Comparison {
        let f = f64::from(width.max(1));
        let ratio = f64::from(distance) / f;
        let angle = core::f64::consts::PI * ratio;
        Comparison {
            distance,
            width,
            similarity: 1.0 - ratio,
            angle,
            // libm rather than the platform's cos: the same bits natively and in every wasm engine.
            cosine: libm::cos(angle),
        }
    }

    /// The verdict at a distance bound: near-duplicates when at most `k` bits differ. Give
    /// it the first text's [`recommended_k`](crate::recommended_k) (or a fingerprinter's
    /// [`recommended_k`](crate::Fingerprinter::recommended_k)) to decide by the rule.
    ///
    /// ```
    /// use simprint::{fingerprint, recommended_k};
    /// let a = "Debian 管理员手册介绍了如何安装和配置系统，以及如何使用 APT 工具维护软件包。";
    /// let b = "Debian 管理员手册介绍如何安装与配置系统，以及如何使用 APT 工具来维护软件包。";
    /// let c = fingerprint(a).compare(&fingerprint(b))?;
    /// assert!(c.near_duplicate(recommended_k(a, 64)));
    /// assert!(!c.near_duplicate(0));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn near_duplicate(&self, k: u32) -> bool {
        self.distance <= k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_example_distance() {
        // The reference material's example: 10101 and 00110 differ in bits 1, 4 and 5.
        assert_eq!(hamming(0b10101, 0b00110), 3);
        assert_eq!(hamming(u128::MAX, 0), 128);
        assert_eq!(hamming64(0xff00, 0x0ff0), 8);
    }

    #[test]
    fn near_duplicate_includes_the_bound() {
        let c = Comparison::new(9, 64);
        assert!(c.near_duplicate(9));
        assert!(c.near_duplicate(64));
        assert!(!c.near_duplicate(8));
        assert!(Comparison::new(0, 64).near_duplicate(0));
    }

    #[test]
    fn estimates_at_the_extremes() {
        let same = Comparison::new(0, 64);
        assert_eq!((same.similarity, same.angle, same.cosine), (1.0, 0.0, 1.0));
        let opposite = Comparison::new(64, 64);
        assert_eq!(opposite.similarity, 0.0);
        assert_eq!(opposite.angle, core::f64::consts::PI);
        assert_eq!(opposite.cosine, -1.0);
        let half = Comparison::new(32, 64);
        assert!(half.cosine.abs() < 1e-15);
    }
}
