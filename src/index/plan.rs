//! The index planner: how the `f` bits are cut, which tables are kept, and how far from the
//! query's key each table is probed (the argument is [`Plan`]'s documentation).

use alloc::vec::Vec;

use crate::error::{Error, PlanProblem};
pub(crate) use crate::fingerprint::check_k;
use crate::fingerprint::Fingerprint;

/// Most tables an explicit plan may ask for (memory grows by about 12 bytes per fingerprint
/// per table, 20 above 64 bits).
pub const MAX_TABLES: usize = 256;

/// A contiguous run of fingerprint bits; bit 0 is the most significant, as everywhere.
///
/// ```
/// let plan = simprint::Plan::with_blocks(64, 3, 4)?;
/// assert_eq!(plan.blocks()[1], simprint::Block { start: 16, len: 16 });
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// First bit of the block.
    pub start: u32,
    /// Number of bits.
    pub len: u32,
}

/// One table: the blocks whose concatenation is its key, and how far from the query's key it
/// is probed.
///
/// ```
/// let plan = simprint::Plan::with_blocks(64, 3, 4)?;
/// assert_eq!(plan.tables().len(), 4);
/// assert_eq!(plan.tables()[0].blocks, [0]);
/// assert_eq!((plan.tables()[0].key_bits, plan.tables()[0].radius), (16, 0));
/// let mih = simprint::Plan::multi_index(64, 9, 4)?;
/// let radii: Vec<u32> = mih.tables().iter().map(|t| t.radius).collect();
/// assert_eq!(radii, [2, 2, 1, 1]); // 3 + 3 + 2 + 2 = 10 > 9
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSpec {
    /// Indices into [`Plan::blocks`], ascending.
    pub blocks: Vec<u32>,
    /// Total bits of the key (the sum of the chosen blocks' lengths).
    pub key_bits: u32,
    /// A query probes every bucket whose number differs from its own in at most this many
    /// bits.
    pub radius: u32,
}

/// Which family a plan belongs to, with the numbers that define it (see the
/// documentation of [`Plan`]).
///
/// ```
/// use simprint::{Plan, PlanKind};
/// assert_eq!(Plan::with_blocks(64, 3, 4)?.kind(), PlanKind::Permuted { blocks: 4 });
/// assert_eq!(Plan::multi_index(64, 9, 5)?.kind(), PlanKind::MultiIndex { substrings: 5 });
/// assert_eq!(Plan::scan(64, 9)?.kind(), PlanKind::Scan);
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlanKind {
    /// No tables: every query scans.
    Scan,
    /// `blocks` blocks, a table per choice of `blocks − k` of them, radius 0.
    Permuted {
        /// Blocks the bits are cut into.
        blocks: u32,
    },
    /// `substrings` substrings, one table each, radii summing (plus one each) past `k`.
    MultiIndex {
        /// Substrings the bits are cut into.
        substrings: u32,
    },
    /// `blocks` blocks, a table per choice of `key_blocks` of them, one radius for all.
    Combined {
        /// Blocks the bits are cut into.
        blocks: u32,
        /// Blocks per key.
        key_blocks: u32,
    },
}

/// How an index looks up fingerprints within `k`: its blocks and tables, or a linear scan
/// when that is cheaper.
///
///
/// Every plan rests on one pigeonhole argument. Cut the bits into blocks; a table is keyed by
/// some of them (their bits concatenated) and probed at every key within `radius` bits of the
/// query's. A fingerprint within `k` of the query is found when, for some table, its key
/// differs from the query's key in at most that table's radius. The plans differ in how they
/// make sure such a table always exists:
///
/// - **Permuted tables** (Manku, Jain and Das Sarma, WWW 2007): `b > k` blocks and one table
///   per choice of `b − k` of them, radius 0. `k` differing bits spoil at most `k` blocks, so
///   the `b − k` others are equal and key some table. Cheap at small `k`; at large `k` it needs
///   either many tables or short keys.
/// - **Multi-index hashing** (Norouzi, Punjani and Fleet, CVPR 2012): `m` substrings, one table
///   each, substring `i` probed within `rᵢ`. If every substring differed in more than `rᵢ` bits
///   the distance would be at least `Σ(rᵢ + 1)`, so `Σ(rᵢ + 1) > k` finds everything. With
///   `k = qm + t`, the first `t + 1` substrings get `q` and the rest `q − 1` (dropped when that
///   is negative): the least probing that meets the bound.
/// - **Combined**: `b` blocks, a table per choice of `c` of them, all probed within the same
///   radius: the smallest `r` such that however `k` bits fall into `b` blocks, some `c` blocks
///   hold at most `r` of them. The worst case spreads the bits evenly (`k = qb + t`), which
///   gives `r = cq + max(0, t + c − b)`. Permuted tables are the case `c = b − k` (radius 0),
///   multi-index hashing with equal radii the case `c = 1`.
///
/// A table's buckets are numbered by the top `d` bits of its key (`d` about `log₂ n`, see
/// [`Plan::describe`]), so a probe flips up to `radius` of those `d` bits: every key within the
/// radius falls in one of the probed buckets, and a bucket's extra keys are checked away like
/// any other candidate.
///
/// [`Plan::auto`] prices every plan of each kind with a cost model — probes × the cost of a
/// bucket visit + candidates × the cost of a distance check — and picks the cheapest, or a
/// plain scan when that is cheaper, keeping the number of tables (memory) to 4–7 by `k` (8
/// above 64 bits at `k` = 12 to 32, up to about a million fingerprints).
///
/// ```
/// use simprint::Plan;
/// // The paper's f = 64, k = 3 with 4 blocks: 4 tables keyed by 16 bits each.
/// let plan = Plan::with_blocks(64, 3, 4)?;
/// assert_eq!((plan.blocks().len(), plan.tables().len()), (4, 4));
/// // Few fingerprints: scanning them beats any table.
/// assert!(Plan::auto(64, 3, 100).is_scan());
/// assert!(!Plan::auto(64, 3, 1_000_000).is_scan());
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    width: u32,
    k: u32,
    kind: PlanKind,
    blocks: Vec<Block>,
    tables: Vec<TableSpec>,
}

impl Plan {
    /// A linear scan: no tables. Exact for any `k`.
    ///
    /// # Errors
    ///
    /// [`Error::WidthOutOfRange`] or [`Error::KOutOfRange`] for a bad width or `k`.
    ///
    /// ```
    /// assert!(simprint::Plan::scan(64, 3)?.is_scan());
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn scan(width: u32, k: u32) -> Result<Plan, Error> {
        check_k(width, k)?;
        Ok(Plan::scan_unchecked(width, k))
    }

    /// A scan for a width and `k` already checked.
    pub(super) fn scan_unchecked(width: u32, k: u32) -> Plan {
        Plan {
            width,
            k,
            kind: PlanKind::Scan,
            blocks: Vec::new(),
            tables: Vec::new(),
        }
    }

    /// Permuted tables: `blocks` blocks of (nearly) equal size — the first `f mod b` blocks
    /// get one extra bit — and a table for each choice of `blocks − k` of them, radius 0.
    ///
    /// # Errors
    ///
    /// [`Error::WidthOutOfRange`] or [`Error::KOutOfRange`] for a bad width or `k`;
    /// [`Error::ImpossiblePlan`] unless `k < blocks <= width` and the tables are at most
    /// [`MAX_TABLES`].
    ///
    /// ```
    /// use simprint::Plan;
    /// let plan = Plan::with_blocks(64, 3, 5)?;
    /// assert_eq!(plan.tables().len(), 10); // C(5, 3)
    /// assert_eq!(plan.blocks().iter().map(|b| b.len).collect::<Vec<_>>(), [13, 13, 13, 13, 12]);
    /// assert!(Plan::with_blocks(64, 3, 3).is_err());
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn with_blocks(width: u32, k: u32, blocks: u32) -> Result<Plan, Error> {
        check_k(width, k)?;
        if blocks <= k || blocks > width {
            return Err(Error::ImpossiblePlan {
                problem: PlanProblem::BlocksOutOfRange { blocks, k, width },
            });
        }
        let mut plan = Plan::choices(width, k, blocks, blocks - k, 0)?;
        plan.kind = PlanKind::Permuted { blocks };
        Ok(plan)
    }

    /// Multi-index hashing: `substrings` substrings of (nearly) equal size (the first
    /// `f mod m` one bit longer), one table each. With `k = qm + t`, the first `t + 1` are
    /// probed within `q` and the others within `q − 1`, so the radii plus one sum to `k + 1`;
    /// a substring whose radius would be negative needs no table (when `m > k + 1`).
    ///
    /// # Errors
    ///
    /// [`Error::WidthOutOfRange`] or [`Error::KOutOfRange`] for a bad width or `k`;
    /// [`Error::ImpossiblePlan`] unless `1 <= substrings <= width`.
    ///
    /// ```
    /// use simprint::Plan;
    /// let plan = Plan::multi_index(64, 12, 5)?; // 12 = 2·5 + 2
    /// let radii: Vec<u32> = plan.tables().iter().map(|t| t.radius).collect();
    /// assert_eq!(radii, [2, 2, 2, 1, 1]);
    /// assert_eq!(Plan::multi_index(64, 2, 8)?.tables().len(), 3); // 3 exact keys suffice
    /// assert!(Plan::multi_index(64, 2, 0).is_err());
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn multi_index(width: u32, k: u32, substrings: u32) -> Result<Plan, Error> {
        check_k(width, k)?;
        if substrings == 0 || substrings > width {
            return Err(Error::ImpossiblePlan {
                problem: PlanProblem::SubstringsOutOfRange { substrings, width },
            });
        }
        let blocks = cut(width, substrings);
        let tables = (0..substrings)
            .filter_map(|i| {
                let radius = substring_radius(k, substrings, i)?;
                Some(TableSpec {
                    blocks: alloc::vec![i],
                    key_bits: blocks[i as usize].len,
                    radius,
                })
            })
            .collect();
        Ok(Plan {
            width,
            k,
            kind: PlanKind::MultiIndex { substrings },
            blocks,
            tables,
        })
    }

    /// Combined: `blocks` blocks, a table for each choice of `key_blocks` of them, each probed
    /// within the smallest radius that finds everything within `k`: `c·q + max(0, t + c − b)`
    /// for `k = qb + t`, `b` blocks and `c` blocks per key.
    ///
    /// # Errors
    ///
    /// [`Error::WidthOutOfRange`] or [`Error::KOutOfRange`] for a bad width or `k`;
    /// [`Error::ImpossiblePlan`] unless `1 <= key_blocks <= blocks <= width` and the
    /// `C(blocks, key_blocks)` tables are at most [`MAX_TABLES`].
    ///
    /// ```
    /// use simprint::Plan;
    /// let plan = Plan::combined(64, 9, 6, 2)?; // 9 = 1·6 + 3: radius 2 + max(0, 3 + 2 − 6)
    /// assert_eq!((plan.tables().len(), plan.tables()[0].radius), (15, 2));
    /// // Keys of b − k blocks at radius 0 are the permuted tables.
    /// assert_eq!(Plan::combined(64, 3, 5, 2)?.tables(), Plan::with_blocks(64, 3, 5)?.tables());
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn combined(width: u32, k: u32, blocks: u32, key_blocks: u32) -> Result<Plan, Error> {
        check_k(width, k)?;
        if blocks == 0 || blocks > width {
            return Err(Error::ImpossiblePlan {
                problem: PlanProblem::SubstringsOutOfRange {
                    substrings: blocks,
                    width,
                },
            });
        }
        if key_blocks == 0 || key_blocks > blocks {
            return Err(Error::ImpossiblePlan {
                problem: PlanProblem::KeyBlocksOutOfRange { key_blocks, blocks },
            });
        }
        let radius = combined_radius(k, blocks, key_blocks);
        let mut plan = Plan::choices(width, k, blocks, key_blocks, radius)?;
        plan.kind = PlanKind::Combined { blocks, key_blocks };
        Ok(plan)
    }

    /// `blocks` blocks and a table per choice of `key_blocks` of them, all at `radius`.
    fn choices(
        width: u32,
        k: u32,
        blocks: u32,
        key_blocks: u32,
        radius: u32,
    ) -> Result<Plan, Error> {
        let tables = binomial(blocks, key_blocks);
        if tables > MAX_TABLES as u64 {
            return Err(Error::ImpossiblePlan {
                problem: PlanProblem::TooManyTables {
                    blocks,
                    k,
                    tables,
                    max: MAX_TABLES,
                },
            });
        }
        let blocks_cut = cut(width, blocks);
        let mut tables = Vec::new();
        let mut choice: Vec<u32> = (0..key_blocks).collect();
        loop {
            let key_bits = choice.iter().map(|&i| blocks_cut[i as usize].len).sum();
            tables.push(TableSpec {
                blocks: choice.clone(),
                key_bits,
                radius,
            });
            if !next_combination(&mut choice, blocks) {
                break;
            }
        }
        Ok(Plan {
            width,
            k,
            kind: PlanKind::Combined { blocks, key_blocks },
            blocks: blocks_cut,
            tables,
        })
    }

    /// The key of `fp` in each table (its blocks' bits concatenated, the first block highest):
    /// what a table files `fp` under, and what a store of the tables elsewhere would index.
    /// Empty for a scan, and for a fingerprint of another width.
    ///
    /// ```
    /// use simprint::{Fingerprint, Plan};
    /// let plan = Plan::multi_index(16, 3, 2)?; // substrings of bits 0–7 and 8–15
    /// assert_eq!(plan.keys(Fingerprint::new(0xab_cd, 16)?), [0xab, 0xcd]);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn keys(&self, fp: Fingerprint) -> Vec<u128> {
        if fp.width() != self.width {
            return Vec::new();
        }
        self.tables
            .iter()
            .map(|t| {
                t.blocks.iter().fold(0u128, |key, &b| {
                    let block = self.blocks[b as usize];
                    let shift = self.width - block.start - block.len;
                    let part = (fp.value() >> shift) & (u128::MAX >> (128 - block.len));
                    key.checked_shl(block.len).unwrap_or(0) | part
                })
            })
            .collect()
    }

    /// True when the plan has no tables and queries scan every fingerprint.
    ///
    /// ```
    /// assert!(simprint::Plan::auto(64, 3, 10).is_scan());
    /// ```
    #[must_use]
    pub fn is_scan(&self) -> bool {
        self.tables.is_empty()
    }

    /// The plan's family and defining numbers.
    ///
    /// ```
    /// use simprint::{Plan, PlanKind};
    /// assert_eq!(Plan::combined(64, 9, 6, 2)?.kind(), PlanKind::Combined { blocks: 6, key_blocks: 2 });
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn kind(&self) -> PlanKind {
        self.kind
    }

    /// The fingerprint width the plan is for.
    ///
    /// ```
    /// assert_eq!(simprint::Plan::scan(128, 3)?.width(), 128);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The largest distance the tables guarantee to find.
    ///
    /// ```
    /// assert_eq!(simprint::Plan::scan(64, 5)?.k(), 5);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The blocks (substrings), in bit order (empty for a scan).
    ///
    /// ```
    /// assert_eq!(simprint::Plan::with_blocks(8, 1, 2)?.blocks().len(), 2);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// The tables, in lexicographic order of their block choices (empty for a scan).
    ///
    /// ```
    /// let plan = simprint::Plan::with_blocks(8, 1, 3)?;
    /// let choices: Vec<_> = plan.tables().iter().map(|t| t.blocks.clone()).collect();
    /// assert_eq!(choices, [vec![0, 1], vec![0, 2], vec![1, 2]]);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn tables(&self) -> &[TableSpec] {
        &self.tables
    }
}

/// `n` bits cut into `parts` contiguous blocks, the first `n mod parts` one bit longer.
fn cut(width: u32, parts: u32) -> Vec<Block> {
    let (q, r) = (width / parts, width % parts);
    let mut start = 0;
    (0..parts)
        .map(|i| {
            let len = q + u32::from(i < r);
            let b = Block { start, len };
            start += len;
            b
        })
        .collect()
}

/// The radius multi-index hashing probes substring `i` of `substrings` at within `k`: with
/// `k = qm + t`, `q` for the first `t + 1` and `q − 1` for the rest, `None` (no table) when
/// that is negative. Also the least probing for a query within less than a plan's `k`
/// (`radii::by_k`).
pub(super) fn substring_radius(k: u32, substrings: u32, i: u32) -> Option<u32> {
    let (q, t) = (k / substrings, k % substrings);
    if i <= t {
        Some(q)
    } else {
        q.checked_sub(1)
    }
}

/// The smallest radius at which tables keyed by every choice of `c` of `b` blocks find
/// everything within `k`: the most differing bits the `c` least-spoiled blocks can hold,
/// reached when the `k` bits spread evenly (`k = qb + t`: `t` blocks hold `q + 1`).
pub(super) fn combined_radius(k: u32, b: u32, c: u32) -> u32 {
    let (q, t) = (k / b, k % b);
    c * q + (t + c).saturating_sub(b)
}

/// `C(n, k)`, saturating.
pub(super) fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u64 = 1;
    for i in 0..u64::from(k) {
        // r · (n − i) / (i + 1) is exact: r is C(n, i), and C(n, i)(n − i) = C(n, i + 1)(i + 1).
        r = r.saturating_mul(u64::from(n) - i) / (i + 1);
    }
    r
}

/// Advances `choice` (ascending indices below `n`) to the next combination in
/// lexicographic order; false after the last.
fn next_combination(choice: &mut [u32], n: u32) -> bool {
    let m = choice.len();
    for i in (0..m).rev() {
        // Position i may rise to n − (m − i).
        if u64::from(choice[i]) + ((m - i) as u64) < u64::from(n) {
            choice[i] += 1;
            for j in i + 1..m {
                choice[j] = choice[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(4, 3), 4);
        assert_eq!(binomial(6, 3), 20);
        assert_eq!(binomial(9, 8), 9);
        assert_eq!(binomial(5, 0), 1);
        assert_eq!(binomial(3, 5), 0);
    }

    #[test]
    fn blocks_cover_every_bit_once() {
        for width in [1, 3, 64, 100, 128] {
            for k in 0..width.min(9) {
                for b in 1..=width.min(k + 4) {
                    let plans = [
                        Plan::with_blocks(width, k, b),
                        Plan::multi_index(width, k, b),
                        Plan::combined(width, k, b, 1.max(b / 2)),
                    ];
                    for plan in plans.into_iter().flatten() {
                        let mut next = 0;
                        for block in plan.blocks() {
                            assert_eq!(block.start, next);
                            next += block.len;
                        }
                        assert_eq!(next, width);
                    }
                    if let Ok(plan) = Plan::with_blocks(width, k, b) {
                        assert_eq!(plan.tables().len() as u64, binomial(b, k));
                        for t in plan.tables() {
                            assert_eq!(t.blocks.len() as u32, b - k);
                        }
                    }
                }
            }
        }
    }

    /// Every way of putting `k` differing bits into the blocks (as counts per block, each at
    /// most the block's length) leaves some table whose key differs in at most its radius.
    fn guaranteed(plan: &Plan) -> bool {
        fn go(plan: &Plan, counts: &mut Vec<u32>, left: u32) -> bool {
            if counts.len() == plan.blocks.len() {
                return plan.tables.iter().any(|t| {
                    t.blocks.iter().map(|&b| counts[b as usize]).sum::<u32>() <= t.radius
                });
            }
            let len = plan.blocks[counts.len()].len;
            (0..=left.min(len)).all(|c| {
                counts.push(c);
                let ok = go(plan, counts, left - c);
                counts.pop();
                ok
            })
        }
        go(plan, &mut Vec::new(), plan.k)
    }

    #[test]
    fn every_kind_finds_everything_within_k() {
        for width in [16, 24] {
            for k in 0..=10 {
                for b in 1..=8 {
                    let mut plans: Vec<Plan> = Vec::new();
                    plans.extend(Plan::with_blocks(width, k, b));
                    plans.extend(Plan::multi_index(width, k, b));
                    for c in 1..=b {
                        plans.extend(Plan::combined(width, k, b, c));
                    }
                    for plan in &plans {
                        assert!(guaranteed(plan), "{plan:?}");
                        // And not by probing more than needed: one radius less misses.
                        if let PlanKind::Combined { .. } = plan.kind() {
                            let r = plan.tables[0].radius;
                            if r > 0 && plan.tables[0].key_bits > r {
                                let mut less = plan.clone();
                                less.tables.iter_mut().for_each(|t| t.radius = r - 1);
                                assert!(!guaranteed(&less), "{plan:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn bad_plans() {
        assert!(matches!(Plan::scan(64, 65), Err(Error::KOutOfRange { .. })));
        assert!(matches!(
            Plan::with_blocks(64, 3, 65),
            Err(Error::ImpossiblePlan { .. })
        ));
        assert!(matches!(
            Plan::with_blocks(64, 10, 30),
            Err(Error::ImpossiblePlan { .. })
        ));
        assert!(Plan::with_blocks(0, 0, 1).is_err());
        assert!(Plan::multi_index(8, 3, 9).is_err());
        assert!(Plan::combined(8, 3, 4, 5).is_err());
        assert!(Plan::combined(64, 3, 40, 20).is_err());
    }
}
