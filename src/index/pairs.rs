//! Every pair of fingerprints of a segment within `k`: each table joins every bucket with
//! itself and with each bucket within its radius.

use alloc::vec::Vec;
use core::ops::Range;

use super::bits::Bits;
use super::flips::for_each_flip;
use super::radii;
use super::segment::Segment;
use super::table::Words;

/// Rows joined per step where a whole table (or a segment without tables) is joined with
/// itself: a few hundred at a time, so that a stop is seen soon.
const ROWS: usize = 256;

impl<B: Bits> Segment<B> {
    /// Calls `found(id_a, id_b, distance)` once for each pair of live fingerprints of this
    /// segment within `k` (`k` at most the plan's), until it returns false.
    ///
    /// Each table a query within `k` probes joins every bucket with itself and with each
    /// bucket within the radius that query probes it at ([`Segment::radii`]); a pair lies in
    /// buckets that close in every such table whose bucket bits differ in at most that radius,
    /// and is reported by the first of those, so once.
    pub(super) fn pairs(&self, k: u32, found: &mut impl FnMut(u64, u64, u32) -> bool) {
        if self.tables.is_empty() {
            self.pairs_in(k, 0, 0..self.pair_parts(0), found);
            return;
        }
        for t in 0..self.tables.len() {
            if !self.pairs_in(k, t, 0..self.pair_parts(t), found) {
                return;
            }
        }
    }

    /// The parts [`Segment::pairs_in`] numbers for table `table` (any `table` when the
    /// segment has none): its buckets, or for a table read whole (and a segment without
    /// tables) its blocks of [`ROWS`] rows. The parallel pairs hand out ranges of them.
    pub(super) fn pair_parts(&self, table: usize) -> usize {
        match self.tables.get(table) {
            None => self.fps.len().div_ceil(ROWS),
            Some(t) if t.read_whole => t.slots.len().div_ceil(ROWS),
            Some(t) => t.dir.len() - 1,
        }
    }

    /// [`Segment::pairs`]' pairs whose first entry is in `parts` of table `table` (see
    /// [`Segment::pair_parts`]); every pair is found by exactly one table and part. Returns
    /// false when `found` has asked to stop.
    pub(super) fn pairs_in(
        &self,
        k: u32,
        table: usize,
        parts: Range<usize>,
        found: &mut impl FnMut(u64, u64, u32) -> bool,
    ) -> bool {
        if self.tables.is_empty() {
            let n = self.fps.len();
            for a in parts.start * ROWS..(parts.end * ROWS).min(n) {
                for b in a + 1..n {
                    let d = self.fps[a].distance(self.fps[b]);
                    if d <= k
                        && !self.is_dead(a)
                        && !self.is_dead(b)
                        && !found(self.ids[a], self.ids[b], d)
                    {
                        return false;
                    }
                }
            }
            return true;
        }
        // The tables and radii a query within `k` probes ([`Segment::radii`]): a join within
        // less than the plan's `k` leaves tables out and joins nearer buckets, as a query does.
        let radii = self.radii(k);
        let Some(radius) = radii.get(table).and_then(|&r| radii::radius(r)) else {
            return true;
        };
        let width_mask = u128::MAX >> (128 - self.plan.width());
        let reach: Vec<(u128, u8)> = self
            .tables
            .iter()
            .zip(radii)
            .map(|(t, &r)| (width_mask & !t.rest, r))
            .collect();
        let first_table = |x: B, y: B| {
            let diff = x.to_u128() ^ y.to_u128();
            reach
                .iter()
                .position(|&(mask, reach)| (diff & mask).count_ones() < u32::from(reach))
        };
        // A cell: both the join and the loops around it read it.
        let go = core::cell::Cell::new(true);
        let t = table;
        let table = &self.tables[t];
        // Entries `here` against entries `there`, whose buckets are `flips` bits apart
        // (with `same`, one bucket: each pair once). The fingerprints themselves are read
        // only for entries that pass the table's check: a folded table's words are all the
        // join needs until then, and a table of whole fingerprints holds them in its own
        // order (no random reads into `fps`), so its two buckets are joined in one call.
        let mut join = |here: Range<usize>, there: Range<usize>, same: bool, flips: u32| {
            let (from, to) = (here.start, there.start);
            let mut pair = |a: usize, c: usize, x: B, y: B, d: u32| {
                let (slot_a, slot_c) = (table.slots[a] as usize, table.slots[c] as usize);
                if d <= k
                    && go.get()
                    && first_table(x, y) == Some(t)
                    && !self.is_dead(slot_a)
                    && !self.is_dead(slot_c)
                {
                    go.set(found(self.ids[slot_a], self.ids[slot_c], d));
                }
            };
            match &table.words {
                Words::Folded(w) => {
                    for a in here {
                        let start = if same { a + 1 } else { to };
                        let rest = &w[start..there.end];
                        crate::scan::within32(w[a], rest, k - flips, &mut |j| {
                            // Read only for the rare entry that passes.
                            let x = self.fps[table.slots[a] as usize];
                            let y = self.fps[table.slots[start + j] as usize];
                            pair(a, start + j, x, y, x.distance(y));
                        });
                    }
                }
                #[cfg(target_arch = "x86_64")]
                Words::Full(w) => {
                    B::cross(&w[here], &w[there], same, k, &mut |i, j, d| {
                        pair(from + i, to + j, w[from + i], w[to + j], d);
                    });
                }
                #[cfg(not(target_arch = "x86_64"))]
                Words::Full(w) => {
                    let _ = from;
                    for a in here {
                        let start = if same { a + 1 } else { to };
                        let x = w[a];
                        B::within(x, &w[start..there.end], k, &mut |j, d| {
                            pair(a, start + j, x, w[start + j], d);
                        });
                    }
                }
            }
        };
        if table.read_whole {
            // Rows a few hundred at a time, so that a stop is seen soon.
            let n = table.slots.len();
            for block in parts {
                if !go.get() {
                    return false;
                }
                let start = block * ROWS;
                join(start..(start + ROWS).min(n), start..n, true, 0);
            }
            return go.get();
        }
        for b in parts {
            let here = table.range(b);
            if here.is_empty() {
                continue;
            }
            if !go.get() {
                return false;
            }
            for_each_flip::<u32>(table.bits, radius, &mut |flips| {
                let other = b ^ flips as usize;
                // Each pair of buckets once: from the lower one.
                if other < b {
                    return;
                }
                let there = table.range(other);
                if !there.is_empty() {
                    join(here.clone(), there, other == b, flips.count_ones());
                }
            });
        }
        go.get()
    }
}
