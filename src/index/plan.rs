//! The index planner: how the `f` bits are cut into blocks and which tables are kept.
//!
//! If two `f`-bit fingerprints differ in at most `k` bits and the bits are cut into `b > k`
//! blocks, at least `b − k` blocks are equal (each differing bit spoils at most one block).
//! So one table per choice of `b − k` blocks — `C(b, k)` tables — keyed by the concatenation
//! of the chosen blocks finds every fingerprint within `k` with exact key lookups (Manku, Jain
//! and Das Sarma, WWW 2007). More blocks mean longer keys (fewer candidates per lookup) but
//! more tables (more lookups, more memory); the planner weighs both for the number of stored
//! fingerprints, and picks a plain scan when that is cheaper.

use alloc::vec::Vec;

use crate::error::{Error, PlanProblem};
pub(crate) use crate::fingerprint::check_k;

/// Most tables an explicit plan may ask for (memory grows by about 16 bytes per fingerprint
/// per table).
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

/// One table: the blocks whose concatenation is its key.
///
/// ```
/// let plan = simprint::Plan::with_blocks(64, 3, 4)?;
/// assert_eq!(plan.tables().len(), 4);
/// assert_eq!(plan.tables()[0].blocks, [0]);
/// assert_eq!(plan.tables()[0].key_bits, 16);
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSpec {
    /// Indices into [`Plan::blocks`], ascending.
    pub blocks: Vec<u32>,
    /// Total bits of the key (the sum of the chosen blocks' lengths).
    pub key_bits: u32,
}

/// How an index looks up fingerprints within `k`: `b` blocks and `C(b, k)` tables, or a
/// linear scan (no tables) when that is cheaper.
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
    blocks: Vec<Block>,
    tables: Vec<TableSpec>,
}

// Cost units for the planner, in "one candidate distance check" (about a nanosecond natively):
// a table lookup is a hash of the key plus a cache miss or two; a scanned fingerprint costs
// half a check because the scan streams through memory.
const LOOKUP_COST: f64 = 40.0;
const CHECK_COST: f64 = 1.0;
const SCAN_COST: f64 = 0.5;

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
        Ok(Plan {
            width,
            k,
            blocks: Vec::new(),
            tables: Vec::new(),
        })
    }

    /// An explicit plan: `blocks` blocks of (nearly) equal size — the first `f mod b` blocks
    /// get one extra bit — and a table for each choice of `blocks − k` of them.
    ///
    /// Fails unless `k < blocks <= width` and `C(blocks, k) <= MAX_TABLES`.
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
        let tables = binomial(blocks, k);
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
        let (q, r) = (width / blocks, width % blocks);
        let mut start = 0;
        let blocks: Vec<Block> = (0..blocks)
            .map(|i| {
                let len = q + u32::from(i < r);
                let b = Block { start, len };
                start += len;
                b
            })
            .collect();
        let mut tables = Vec::new();
        // At most the width (128) blocks.
        let count = u32::try_from(blocks.len()).unwrap_or(u32::MAX);
        let mut choice: Vec<u32> = (0..count - k).collect();
        loop {
            let key_bits = choice.iter().map(|&i| blocks[i as usize].len).sum();
            tables.push(TableSpec {
                blocks: choice.clone(),
                key_bits,
            });
            if !next_combination(&mut choice, count) {
                break;
            }
        }
        Ok(Plan {
            width,
            k,
            blocks,
            tables,
        })
    }

    /// The plan the index uses for `n` fingerprints: the number of blocks (from `k + 1` up)
    /// with the lowest estimated query cost, keeping the tables to at most
    /// `max(8, 2(k + 1))` for memory's sake, or a scan when that is cheaper.
    ///
    /// ```
    /// use simprint::Plan;
    /// assert_eq!(Plan::auto(64, 3, 1_000_000).tables().len(), 4);
    /// assert!(Plan::auto(64, 40, 1_000_000).is_scan()); // no table plan helps at k = 40
    /// ```
    #[must_use]
    pub fn auto(width: u32, k: u32, n: usize) -> Plan {
        let Ok(scan) = Plan::scan(width, k) else {
            // Only reachable with a bad width or k, which callers check first.
            return Plan {
                width: width.clamp(1, 128),
                k: 0,
                blocks: Vec::new(),
                tables: Vec::new(),
            };
        };
        let n = n as f64;
        let max_tables = core::cmp::max(8, 2 * (u64::from(k) + 1));
        let mut best = (n * SCAN_COST, scan);
        for blocks in (k + 1)..=core::cmp::min(width, k + 8) {
            if binomial(blocks, k) > max_tables {
                break;
            }
            let Ok(plan) = Plan::with_blocks(width, k, blocks) else {
                break;
            };
            let cost = plan.query_cost(n);
            if cost < best.0 {
                best = (cost, plan);
            }
        }
        best.1
    }

    /// Estimated cost of one query against `n` random fingerprints.
    fn query_cost(&self, n: f64) -> f64 {
        self.tables
            .iter()
            .map(|t| LOOKUP_COST + CHECK_COST * n / libm::exp2(f64::from(t.key_bits)))
            .sum()
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

    /// The blocks, in bit order (empty for a scan).
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

/// `C(n, k)`, saturating.
fn binomial(n: u32, k: u32) -> u64 {
    let k = core::cmp::min(k, n - k.min(n));
    let mut r: u64 = 1;
    for i in 0..u64::from(k) {
        r = r.saturating_mul(u64::from(n) - i) / (i + 1);
    }
    r
}

/// Advances `choice` (ascending indices below `n`) to the next combination in
/// lexicographic order; false after the last.
fn next_combination(choice: &mut [u32], n: u32) -> bool {
    let m = choice.len();
    for i in (0..m).rev() {
        if choice[i] as usize + m < n as usize + i {
            choice[i] += 1;
            for j in i + 1..choice.len() {
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
    }

    #[test]
    fn blocks_cover_every_bit_once() {
        for width in [1, 3, 64, 100, 128] {
            for k in 0..width.min(9) {
                for b in k + 1..=width.min(k + 4) {
                    let Ok(plan) = Plan::with_blocks(width, k, b) else {
                        continue;
                    };
                    let mut next = 0;
                    for block in plan.blocks() {
                        assert_eq!(block.start, next);
                        next += block.len;
                    }
                    assert_eq!(next, width);
                    assert_eq!(plan.tables().len() as u64, binomial(b, k));
                    for t in plan.tables() {
                        assert_eq!(t.blocks.len() as u32, b - k);
                    }
                }
            }
        }
    }

    #[test]
    fn auto_plans() {
        // The paper's setting: 4 tables of 16-bit keys at a million fingerprints.
        let p = Plan::auto(64, 3, 1_000_000);
        assert_eq!(
            (p.blocks().len(), p.tables().len(), p.tables()[0].key_bits),
            (4, 4, 16)
        );
        assert!(Plan::auto(64, 0, 1_000_000).tables().len() == 1);
        assert!(Plan::auto(128, 3, 1_000_000).tables().len() <= 8);
        assert!(Plan::auto(64, 3, 50).is_scan());
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
    }
}
