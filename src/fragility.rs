//! Fragile bits: which bits of a fingerprint one feature more or less could flip.
//!
//! Bit `i` is 1 iff `V[i] > 0`; a tie (`V[i] = 0`) gives 0. A feature of weight `w` pushed
//! `V[i]` by `p = +w` where its hash has a 1 and `p = −w` where it has a 0, so:
//!
//! - **removing it** leaves `V[i] − p`, and flips the bit iff that lies on the other side of
//!   the tie rule: a 1 held up by it (`0 < V[i] ≤ p`), or a 0 held down by it
//!   (`V[i] ≤ 0 < V[i] − p`);
//! - **adding one more feature** of weight `w` moves `V[i]` by `+w` or `−w`, as its hash's bit
//!   falls: a 1 flips iff `V[i] ≤ w` (`V[i] − w ≤ 0`), a 0 iff `V[i] > −w` (`V[i] + w > 0`).
//!
//! With binary weights (every `w` = 1) a bit is fragile iff `V[i]` is 0 or 1: at `V[i] = −1`
//! one feature more gives 0 (still bit 0) and one fewer −2, so `|V[i]| ≤ max w` is not the
//! rule. [`Explanation::fragility`] applies these conditions to the weights actually present.

use alloc::vec::Vec;

use crate::explain::Explanation;

/// How one feature more or less could flip one bit: see [`Explanation::fragility`].
///
/// ```
/// // 美国 (weight 4, hash 100101) and 51区 (weight 5, hash 101011): V = (9, −9, 1, −1, 1, 9).
/// let e = simprint::explain_hashes(6, [(0b100101, 4.0), (0b101011, 5.0)])?;
/// let bit2 = &e.fragility()[2];
/// // V[2] = 1 > 0, held up by 51区's +5: removing 51区 leaves −4.
/// assert_eq!(bit2.removals, [1]);
/// // One more feature of weight 4 (or 5) with a 0 there gives V[2] ≤ 0.
/// assert_eq!(bit2.addition, Some(4.0));
/// assert!(bit2.is_fragile());
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct BitFragility {
    /// The features (indices into [`Explanation::features`], ascending) whose removal alone
    /// flips the bit.
    pub removals: Vec<usize>,
    /// The least weight, among the features' `|weight|`s, of one added feature that flips the
    /// bit when its hash has the bit that pushes across the tie rule (a 0 under a 1, a 1 under
    /// a 0); `None` when no feature of any weight present could.
    pub addition: Option<f64>,
}

impl BitFragility {
    /// True when one feature more or less could flip the bit.
    ///
    /// ```
    /// let e = simprint::explain_hashes(2, [(0b10, 1.0), (0b10, 1.0), (0b10, 1.0)])?;
    /// // V = (3, −3): no single feature of weight 1 changes either sign.
    /// assert!(e.fragility().iter().all(|bit| !bit.is_fragile()));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn is_fragile(&self) -> bool {
        !self.removals.is_empty() || self.addition.is_some()
    }
}

impl Explanation {
    /// For each bit, bit 0 first: which features' removal alone flips it, and the least weight
    /// (of those present) with which one added feature could flip it. Both follow the tie
    /// rule (bit 1 iff `V[i] > 0`) and are computed from this explanation's `V` and pushes,
    /// `V[i] − push` and `V[i] ± w`, so they agree with fingerprinting the changed list of
    /// features again whenever those sums are exact (always with `binary` and `tf` weights).
    /// Costs `width × features` steps.
    ///
    /// ```
    /// // The reference material's 3-bit example: V = (−4, −2, 6), fingerprint 001.
    /// let hashes = [(0b101, 1.0), (0b011, 2.0), (0b100, 0.0), (0b001, 3.0), (0b110, 0.0)];
    /// let e = simprint::explain_hashes(3, hashes)?;
    /// let bits = e.fragility();
    /// // V[1] = −2: removing x₂ (+2 there) leaves −4; removing x₄ (−3 there) leaves +1: flips.
    /// assert_eq!(bits[1].removals, [3]);
    /// // One more feature of weight 3 with a 1 there gives +1: flips; weight 1 or 2 do not.
    /// assert_eq!(bits[1].addition, Some(3.0));
    /// // V[2] = 6: nothing single moves it to 0 or below.
    /// assert!(!bits[2].is_fragile());
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn fragility(&self) -> Vec<BitFragility> {
        let width = self.fingerprint.width();
        self.v
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let one = v > 0.0;
                let shift = width - 1 - u32::try_from(i).unwrap_or(0);
                let mut removals = Vec::new();
                let mut addition: Option<f64> = None;
                for (j, f) in self.features.iter().enumerate() {
                    let push = if (f.hash >> shift) & 1 == 1 {
                        f.weight
                    } else {
                        -f.weight
                    };
                    if (v - push > 0.0) != one {
                        removals.push(j);
                    }
                    let w = f.weight.abs();
                    let flips = w > 0.0 && if one { v - w <= 0.0 } else { v + w > 0.0 };
                    if flips && addition.is_none_or(|least| w < least) {
                        addition = Some(w);
                    }
                }
                BitFragility { removals, addition }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::explain_hashes;
    use proptest::prelude::*;

    /// Every one-feature change, done by fingerprinting the changed list again: each feature
    /// removed, and one feature of each weight present added with an all-ones hash (it pushes
    /// every bit up) and an all-zeros hash (every bit down), which between them realise both
    /// pushes on every bit.
    fn brute_force(width: u32, rows: &[(u128, f64)]) -> Vec<(Vec<usize>, Option<f64>)> {
        let before = explain_hashes(width, rows.iter().copied())
            .unwrap()
            .fingerprint;
        let flipped = |after: &Explanation, i: usize| {
            before.bit(u32::try_from(i).unwrap())
                != after.fingerprint.bit(u32::try_from(i).unwrap())
        };
        let all = if width == 128 {
            u128::MAX
        } else {
            (1u128 << width) - 1
        };
        let mut out: Vec<(Vec<usize>, Option<f64>)> =
            (0..width).map(|_| (Vec::new(), None)).collect();
        for j in 0..rows.len() {
            let without: Vec<_> = rows
                .iter()
                .enumerate()
                .filter(|&(r, _)| r != j)
                .map(|(_, &row)| row)
                .collect();
            let after = explain_hashes(width, without).unwrap();
            for (i, bit) in out.iter_mut().enumerate() {
                if flipped(&after, i) {
                    bit.0.push(j);
                }
            }
        }
        for &(_, weight) in rows {
            let w = weight.abs();
            for hash in [all, 0] {
                let mut with: Vec<_> = rows.to_vec();
                with.push((hash, w));
                let after = explain_hashes(width, with).unwrap();
                for (i, bit) in out.iter_mut().enumerate() {
                    if w > 0.0 && flipped(&after, i) && bit.1.is_none_or(|least| w < least) {
                        bit.1 = Some(w);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn binary_weights_make_a_bit_fragile_at_zero_and_one_only() {
        // Seven features of weight 1 on 4 bits: V[i] is odd, so only V[i] = 1 is fragile.
        let rows = [
            (0b1110, 1.0),
            (0b1100, 1.0),
            (0b1000, 1.0),
            (0b0111, 1.0),
            (0b0011, 1.0),
            (0b0001, 1.0),
            (0b1010, 1.0),
        ];
        let e = explain_hashes(4, rows).unwrap();
        assert_eq!(e.v, [1.0, -1.0, 1.0, -1.0]);
        let fragile: Vec<bool> = e.fragility().iter().map(BitFragility::is_fragile).collect();
        assert_eq!(fragile, [true, false, true, false]);
    }

    #[test]
    fn a_tie_is_a_zero_that_one_more_feature_lifts() {
        let e = explain_hashes(1, [(1, 2.0), (0, 2.0)]).unwrap();
        assert_eq!(e.v, [0.0]);
        let bit = &e.fragility()[0];
        // Removing the one that pushed down leaves +2: a 1.
        assert_eq!(bit.removals, [1]);
        assert_eq!(bit.addition, Some(2.0));
    }

    #[test]
    fn no_features_no_fragile_bits() {
        let e = explain_hashes(8, []).unwrap();
        assert!(e.fragility().iter().all(|bit| !bit.is_fragile()));
    }

    #[test]
    fn zero_and_negative_weights() {
        // A weight of 0 pushes nothing, so neither removing nor adding it flips anything; a
        // negative weight pushes against its hash.
        let e = explain_hashes(2, [(0b11, 0.0), (0b10, -1.0), (0b01, 2.0)]).unwrap();
        assert_eq!(e.v, [-3.0, 3.0]);
        let bits = e.fragility();
        assert_eq!(bits[0].removals, Vec::<usize>::new());
        assert_eq!(bits[0].addition, None);
        assert_eq!(bits[1].removals, Vec::<usize>::new());
        assert_eq!(bits[1].addition, None);
    }

    proptest! {
        #[test]
        fn agrees_with_every_one_feature_change(
            width in prop_oneof![Just(1u32), Just(3), Just(8), Just(64), Just(128)],
            rows in proptest::collection::vec((any::<u128>(), -3i8..=5), 0..12),
        ) {
            // Whole weights, so that every sum is exact and the brute force is the truth.
            let mask = if width == 128 { u128::MAX } else { (1u128 << width) - 1 };
            let rows: Vec<(u128, f64)> = rows.into_iter().map(|(h, w)| (h & mask, f64::from(w))).collect();
            let e = explain_hashes(width, rows.iter().copied()).unwrap();
            let got: Vec<(Vec<usize>, Option<f64>)> =
                e.fragility().into_iter().map(|b| (b.removals, b.addition)).collect();
            prop_assert_eq!(got, brute_force(width, &rows));
        }
    }
}
