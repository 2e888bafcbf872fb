//! The keys a query probes: the exported side of the tables, for stores of them elsewhere (a
//! SQL table, a key-value store, Durable Objects routed by key).
//!
//! A table's key of a fingerprint is its blocks' bits concatenated, the first block highest
//! ([`Plan::keys`]). A fingerprint `q` finds every stored `p` within `k` when it looks up, in
//! each table `t`, every key that differs from `q`'s key in at most `t`'s radius: the plan's
//! pigeonhole argument guarantees that some table's keys of `p` and `q` are that close. Those
//! keys are [`Plan::probe_keys`]. A store that files each fingerprint under its key in every
//! table (with the table's number beside the key, since tables share key values) and looks up
//! a query's probe keys gets every candidate the index would; a Hamming check on them leaves
//! exactly the fingerprints within `k`.
//!
//! The index itself probes only the top bits of each key (its bucket number, sized for the
//! number of fingerprints), with the same flip enumeration ([`for_each_flip`]); an exact-key
//! store needs every key within the radius, hence the separate count [`Plan::probe_count`].

use alloc::vec::Vec;

use super::describe::probes;
use super::flips::for_each_flip;
use super::plan::Plan;
use crate::error::{Error, PlanProblem};
use crate::fingerprint::Fingerprint;

/// Most probe keys [`Plan::probe_keys`] and [`Plan::probe_keys_by_table`] collect for one
/// fingerprint (16 MiB of keys); [`Plan::for_each_probe_key`] has no limit.
pub const MAX_PROBE_KEYS: u64 = 1 << 20;

impl Plan {
    /// Keys a query probes in all tables: in each, the keys within its radius of the query's,
    /// `Σ C(key_bits, i)` for `i ≤ radius` in each table.
    /// Does not depend on the fingerprint; 0 for a scan.
    ///
    /// ```
    /// use simprint::Plan;
    /// // At k = 9, multi-index hashing of 4 substrings of 16 bits probes within 2, 2, 1 and 1.
    /// let plan = Plan::multi_index(64, 9, 4)?;
    /// assert_eq!(plan.probe_count(), 2 * (1 + 16 + 120) + 2 * (1 + 16));
    /// // Permuted tables probe their own key only.
    /// assert_eq!(Plan::with_blocks(64, 3, 4)?.probe_count(), 4);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn probe_count(&self) -> u64 {
        self.tables().iter().fold(0u64, |sum, t| {
            sum.saturating_add(probes(t.key_bits, t.radius))
        })
    }

    /// Calls `visit(table, key)` for every key `fp` probes: for each table in order, its own
    /// key first, then each key within the table's radius of it (fewer flipped bits first).
    /// Allocates nothing; the number of calls is [`Plan::probe_count`].
    ///
    /// # Errors
    ///
    /// [`Error::WidthMismatch`] when `fp` is not of the plan's width.
    ///
    /// ```
    /// use simprint::{Fingerprint, Plan};
    /// let plan = Plan::multi_index(8, 1, 1)?; // one 8-bit table, radius 1
    /// let mut keys = Vec::new();
    /// plan.for_each_probe_key(Fingerprint::new(0b1000_0001, 8)?, |table, key| keys.push((table, key)))?;
    /// assert_eq!(keys.len(), 9);
    /// assert_eq!(keys[0], (0, 0b1000_0001)); // the key itself
    /// assert_eq!(keys[1], (0, 0b1000_0000)); // its lowest bit flipped
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn for_each_probe_key(
        &self,
        fp: Fingerprint,
        mut visit: impl FnMut(usize, u128),
    ) -> Result<(), Error> {
        if fp.width() != self.width() {
            return Err(Error::WidthMismatch {
                left: fp.width(),
                right: self.width(),
            });
        }
        for (table, (spec, key)) in self.tables().iter().zip(self.keys(fp)).enumerate() {
            for_each_flip::<u128>(spec.key_bits, spec.radius, &mut |flips| {
                visit(table, key ^ flips);
            });
        }
        Ok(())
    }

    /// Every key `fp` probes, table after table (the order of [`Plan::for_each_probe_key`]).
    /// Which table each key belongs to follows from [`Plan::probe_counts`]; or see
    /// [`Plan::probe_keys_by_table`].
    ///
    /// # Errors
    ///
    /// [`Error::WidthMismatch`] when `fp` is not of the plan's width;
    /// [`Error::ImpossiblePlan`] with [`PlanProblem::TooManyProbeKeys`] when the plan probes
    /// more than [`MAX_PROBE_KEYS`] keys.
    ///
    /// ```
    /// use simprint::{Fingerprint, Plan};
    /// let plan = Plan::multi_index(16, 3, 2)?; // 8-bit substrings probed within 1
    /// let keys = plan.probe_keys(Fingerprint::new(0xab_cd, 16)?)?;
    /// assert_eq!(keys.len(), 2 * 9);
    /// assert_eq!((keys[0], keys[9]), (0xab, 0xcd)); // each table's own key first (Plan::keys)
    /// assert!(keys[1..9].iter().all(|k| (k ^ 0xab).count_ones() == 1));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn probe_keys(&self, fp: Fingerprint) -> Result<Vec<u128>, Error> {
        let mut out = Vec::with_capacity(self.checked_probe_count()?);
        self.for_each_probe_key(fp, |_, key| out.push(key))?;
        Ok(out)
    }

    /// The keys `fp` probes, one list per table (each starting with the table's own key).
    ///
    /// # Errors
    ///
    /// As [`Plan::probe_keys`].
    ///
    /// ```
    /// use simprint::{Fingerprint, Plan};
    /// let plan = Plan::multi_index(64, 9, 4)?;
    /// let fp = Fingerprint::new(0x0123_4567_89ab_cdef, 64)?;
    /// let by_table = plan.probe_keys_by_table(fp)?;
    /// let sizes: Vec<usize> = by_table.iter().map(Vec::len).collect();
    /// assert_eq!(sizes, [137, 137, 17, 17]);
    /// assert_eq!(by_table[3][0], 0xcdef);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn probe_keys_by_table(&self, fp: Fingerprint) -> Result<Vec<Vec<u128>>, Error> {
        self.checked_probe_count()?;
        let mut out: Vec<Vec<u128>> = self
            .probe_counts()
            .into_iter()
            .map(|n| Vec::with_capacity(usize::try_from(n).unwrap_or(0)))
            .collect();
        self.for_each_probe_key(fp, |table, key| out[table].push(key))?;
        Ok(out)
    }

    /// Keys probed in each table: `Σ C(key_bits, i)` for `i ≤ radius`.
    ///
    /// ```
    /// let plan = simprint::Plan::multi_index(64, 9, 5)?;
    /// assert_eq!(plan.probe_counts(), [14, 14, 14, 14, 13]); // four 13-bit and one 12-bit substring, radius 1
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn probe_counts(&self) -> Vec<u64> {
        self.tables()
            .iter()
            .map(|t| probes(t.key_bits, t.radius))
            .collect()
    }

    fn checked_probe_count(&self) -> Result<usize, Error> {
        let keys = self.probe_count();
        if keys > MAX_PROBE_KEYS {
            return Err(Error::ImpossiblePlan {
                problem: PlanProblem::TooManyProbeKeys {
                    keys,
                    max: MAX_PROBE_KEYS,
                },
            });
        }
        // At most 2^20: fits any usize.
        Ok(usize::try_from(keys).unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys within the radius, by brute force over every key value (small keys only).
    fn brute(plan: &Plan, fp: Fingerprint) -> Vec<Vec<u128>> {
        plan.tables()
            .iter()
            .zip(plan.keys(fp))
            .map(|(t, key)| {
                let mut v: Vec<u128> = (0..1u128 << t.key_bits)
                    .filter(|k| (k ^ key).count_ones() <= t.radius)
                    .collect();
                v.sort_unstable();
                v
            })
            .collect()
    }

    #[test]
    fn probe_keys_are_every_key_within_each_radius() {
        let plans = [
            Plan::multi_index(16, 3, 2).unwrap(),
            Plan::multi_index(24, 7, 3).unwrap(),
            Plan::with_blocks(16, 3, 5).unwrap(),
            Plan::combined(20, 5, 4, 2).unwrap(),
            Plan::multi_index(12, 2, 1).unwrap(),
        ];
        for plan in &plans {
            for v in [0u128, 1, 0xabc, 0x5a5a, 0xf_ffff] {
                let fp = Fingerprint::new(v & (u128::MAX >> (128 - plan.width())), plan.width())
                    .unwrap();
                let mut by_table = plan.probe_keys_by_table(fp).unwrap();
                for keys in &mut by_table {
                    keys.sort_unstable();
                }
                assert_eq!(by_table, brute(plan, fp), "{plan:?} {v:#x}");
                let flat = plan.probe_keys(fp).unwrap();
                assert_eq!(flat.len() as u64, plan.probe_count());
            }
        }
    }

    #[test]
    fn wrong_width_and_too_many_keys_are_errors() {
        let plan = Plan::multi_index(64, 9, 4).unwrap();
        assert_eq!(
            plan.probe_keys(Fingerprint::new(1, 32).unwrap()),
            Err(Error::WidthMismatch {
                left: 32,
                right: 64
            })
        );
        // One 128-bit table within 3: 349,633 keys, allowed; within 4: 11 million, refused.
        let wide = Plan::multi_index(128, 3, 1).unwrap();
        assert_eq!(wide.probe_count(), 1 + 128 + 8128 + 341_376);
        let big = Plan::multi_index(128, 4, 1).unwrap();
        let fp = Fingerprint::new(7, 128).unwrap();
        assert!(matches!(
            big.probe_keys(fp),
            Err(Error::ImpossiblePlan {
                problem: PlanProblem::TooManyProbeKeys { .. }
            })
        ));
        assert!(Plan::scan(64, 3)
            .unwrap()
            .probe_keys(Fingerprint::new(1, 64).unwrap())
            .unwrap()
            .is_empty());
    }
}
