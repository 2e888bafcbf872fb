//! Queries below the plan's `k`: which tables a query within a smaller `k` probes, and how far.
//!
//! A plan's tables find everything within its `k` by a pigeonhole argument ([`Plan`]); the
//! same argument at a smaller `k` asks for less. With disjoint substrings (multi-index
//! hashing), any tables whose radii plus one sum past the query's `k` find everything within
//! it, so a query within 6 of a plan for 12 (radii 2, 2, 2, 1, 1: 303 probes with 13-bit
//! buckets) can probe two tables within 1 and three exactly (31 probes), and an exact query
//! one bucket of one table. Of permuted tables, those keyed by blocks among the first few do.
//! An index is built for the largest `k` its queries ask, and many ask less (each text's
//! `recommendedK`, a `k` capped by `collectionK`, an exact lookup); until these radii, a query
//! within a smaller `k` probed every table within `min(radius, k)` and cost about as much as
//! one within the plan's. The answers are the same either way.

use alloc::vec::Vec;

use super::plan::{combined_radius, substring_radius, Plan, PlanKind};

/// A table a query does not probe. Rows hold each radius plus one, so that "a probed table's
/// bucket bits differ in at most its radius" is one comparison, `differing < reach`, false for
/// a table left out.
pub(super) const SKIP: u8 = 0;

/// The radius of a row's entry, or `None` for [`SKIP`].
pub(super) fn radius(reach: u8) -> Option<u32> {
    u32::from(reach).checked_sub(1)
}

/// The radius (plus one) each table is probed at by a query within `k'`, for every `k'` from
/// 0 to the plan's `k`: row `k'` is `tables` entries, [`SKIP`] for a table the query leaves
/// out.
///
/// - Multi-index hashing: the plan's own rule at `k'` (with `k' = qm + t`, the first `t + 1`
///   substrings within `q`, the rest within `q − 1`, left out when that is negative), never
///   more than the plan's radii. Probes grow faster than linearly with the radius, so for
///   substrings of (nearly) equal length spreading the radii evenly is the least probing.
/// - Permuted tables (keys of `c = b − k` blocks, radius 0): the tables whose blocks all lie
///   among the first `k' + c`; `k'` differing bits spoil at most `k'` of those blocks, so `c`
///   of them are clean and key one of these tables.
/// - Combined (every choice of `c` of `b` blocks): every table, within the radius `k'` needs.
pub(super) fn by_k(plan: &Plan) -> Vec<u8> {
    let tables = plan.tables();
    let mut rows = Vec::with_capacity((plan.k() as usize + 1) * tables.len());
    for k in 0..=plan.k() {
        rows.extend((0u32..).zip(tables).map(|(i, spec)| {
            let r = match plan.kind() {
                PlanKind::MultiIndex { substrings } => substring_radius(k, substrings, i),
                PlanKind::Permuted { blocks } => {
                    let within = k + (blocks - plan.k());
                    spec.blocks.iter().all(|&b| b < within).then_some(0)
                }
                PlanKind::Combined { blocks, key_blocks } => {
                    Some(combined_radius(k, blocks, key_blocks))
                }
                PlanKind::Scan => None,
            };
            // Never beyond the table's own radius (the rules above stay within it).
            r.map_or(SKIP, |r| {
                u8::try_from(r.min(spec.radius) + 1).unwrap_or(u8::MAX)
            })
        }));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::describe::probes;

    /// Whether the radii of `row` find every fingerprint within `k` of a query, by the
    /// pigeonhole over each table's key: for every way to spread `k` differing bits over the
    /// blocks, some probed table's key holds at most its radius of them.
    fn finds_everything(plan: &Plan, k: u32, row: &[u8]) -> bool {
        let b = plan.blocks().len();
        let mut spread = alloc::vec![0u32; b];
        // Every composition of k into b parts (each at most the block's length).
        fn each(plan: &Plan, row: &[u8], spread: &mut [u32], i: usize, left: u32, ok: &mut bool) {
            if !*ok {
                return;
            }
            if i == spread.len() {
                if left == 0 {
                    *ok = plan.tables().iter().zip(row).any(|(t, &r)| {
                        t.blocks.iter().map(|&x| spread[x as usize]).sum::<u32>() < u32::from(r)
                    });
                }
                return;
            }
            for v in 0..=left.min(plan.blocks()[i].len) {
                spread[i] = v;
                each(plan, row, spread, i + 1, left - v, ok);
            }
        }
        let mut ok = true;
        each(plan, row, &mut spread, 0, k, &mut ok);
        ok
    }

    /// Buckets a query probes with `row` in a plan's tables (keys as long as the substrings).
    fn probes_of(plan: &Plan, row: &[u8]) -> u64 {
        row.iter()
            .zip(plan.tables())
            .filter(|(&r, _)| r != SKIP)
            .map(|(&r, t)| probes(t.key_bits, u32::from(r) - 1))
            .sum()
    }

    #[test]
    fn every_row_finds_everything_within_its_k_and_probes_no_more_than_before() {
        let mut plans = Vec::new();
        // Up to 9: every spread of k bits over up to 7 blocks is enumerated for each row.
        for k in 0..=9 {
            for m in 1..=7 {
                plans.extend(Plan::multi_index(64, k, m));
            }
            for b in k + 1..=k + 3 {
                plans.extend(Plan::with_blocks(64, k, b));
            }
            for (b, c) in [(4, 1), (5, 2), (6, 2), (6, 3), (7, 3)] {
                plans.extend(Plan::combined(64, k, b, c));
            }
            for n in [0, 100, 10_000, 1_000_000] {
                plans.push(Plan::auto(64, k, n));
            }
        }
        for plan in &plans {
            let rows = by_k(plan);
            let t = plan.tables().len();
            assert_eq!(rows.len(), (plan.k() as usize + 1) * t);
            for (k, row) in rows.chunks(t.max(1)).enumerate() {
                let k = k as u32;
                assert!(finds_everything(plan, k, row), "{plan:?} at {k}: {row:?}");
                // What every query probed until per-query radii: each table within min(r, k).
                let before: Vec<u8> = plan
                    .tables()
                    .iter()
                    .map(|s| s.radius.min(k) as u8 + 1)
                    .collect();
                assert!(
                    probes_of(plan, row) <= probes_of(plan, &before),
                    "{plan:?} at {k}"
                );
                if k == plan.k() {
                    assert_eq!(row, before, "the plan's own k probes as the plan says");
                }
            }
        }
    }

    #[test]
    fn smaller_k_probes_fewer_buckets() {
        // The default index's plan at a million: 13-bit substrings within 2, 2, 2, 1, 1.
        let plan = Plan::auto(64, 12, 1_000_000);
        assert!(matches!(
            plan.kind(),
            PlanKind::MultiIndex { substrings: 5 }
        ));
        let rows = by_k(&plan);
        let at = |k: usize| probes_of(&plan, &rows[k * 5..(k + 1) * 5]);
        assert_eq!(rows[12 * 5..], [3, 3, 3, 2, 2]); // radii 2, 2, 2, 1, 1
        assert_eq!(at(12), 3 * 92 + 14 + 13);
        assert_eq!(at(0), 1); // one bucket of one table
        assert_eq!(at(6), 14 + 14 + 1 + 1 + 1);
        assert_eq!(at(9), 4 * 14 + 13);
    }

    #[test]
    fn permuted_tables_below_k_are_those_within_fewer_blocks() {
        // Four blocks, k = 3: a table per block. Within 0 one table does; within 1, two.
        let plan = Plan::with_blocks(64, 3, 4).unwrap();
        let rows = by_k(&plan);
        let used = |k: usize| {
            rows[k * 4..(k + 1) * 4]
                .iter()
                .filter(|&&r| r != SKIP)
                .count()
        };
        assert_eq!((used(0), used(1), used(2), used(3)), (1, 2, 3, 4));
    }
}
