//! One table of a segment: its entries grouped into buckets by the top bits of their key
//! (counting sort, no comparisons), with a directory of bucket offsets, and the probes a query
//! makes in it.
//!
//! An entry is what the table's first check reads (the fingerprint's bits outside the bucket
//! number XOR-folded to 32, or the whole fingerprint; see [`TableDescription::folded`]) and its
//! slot in the segment. A folded word is a lower bound on the distance of those bits, since
//! each folded bit differs only where one of its two source bits does; it takes half the bytes
//! of a whole 64-bit fingerprint, so the tables a query reads stay in cache longer.

use alloc::vec::Vec;
use core::ops::Range;

use super::bits::Bits;
use super::describe::TableDescription;
use super::fallible::{collect, try_vec_with_capacity, zeroed};
use super::flips::for_each_flip;
use super::plan::{Plan, TableSpec};
use super::shape::KeyShape;
use crate::error::Error;

/// A table's entries as its first check reads them.
#[derive(Clone, Debug)]
pub(super) enum Words<B> {
    /// The fingerprint's bits outside the bucket number, XOR-folded to 32: half the bytes,
    /// and the check that follows is rare while `k` is small ([`TableDescription::folded`]).
    Folded(Vec<u32>),
    /// The whole fingerprint: the check is exact.
    Full(Vec<B>),
}

/// One table: its buckets and their entries.
#[derive(Clone, Debug)]
pub(super) struct Table<B> {
    pub(super) shape: KeyShape,
    /// Bits of the bucket number.
    pub(super) bits: u32,
    /// True when the radius reaches every bucket: the table is then read whole, once.
    pub(super) read_whole: bool,
    /// The fingerprint bits outside the bucket number (all of them when the table is read
    /// whole): what `Words::Folded` holds.
    pub(super) rest: u128,
    /// The fingerprint bits of the bucket number (none when the table is read whole).
    bucket_mask: u128,
    /// Bucket `i` is entries `dir[i]..dir[i + 1]`.
    pub(super) dir: Vec<u32>,
    /// Per entry: what the first check reads.
    pub(super) words: Words<B>,
    /// Per entry: its slot in the segment.
    pub(super) slots: Vec<u32>,
}

/// One bucket a query or a join reads: its entries and the bits its number differs from the
/// query's in (the distance every fingerprint in it has on the bucket bits).
#[derive(Clone, Copy, Default)]
pub(super) struct Probed {
    pub(super) table: u32,
    pub(super) start: u32,
    pub(super) end: u32,
    pub(super) flips: u32,
}

impl<B: Bits> Table<B> {
    /// Heap bytes a table of `n` fingerprints takes.
    pub(super) fn bytes_for(spec: &TableSpec, k: u32, n: usize) -> usize {
        let t = TableDescription::of(spec, k, n);
        let word = if t.folded { 4 } else { B::BYTES };
        // Saturating: on wasm32 a hostile plan's total overflows usize.
        (((1usize << t.bucket_bits) + 1) * 4).saturating_add(n.saturating_mul(word + 4))
    }

    /// Every table of `plan` over `fps`, in the plan's order: one after another, or, with the
    /// `parallel` feature and `threads` other than 1, one table per thread as threads free up.
    pub(super) fn build_all(
        plan: &Plan,
        fps: &[B],
        threads: usize,
    ) -> Result<Vec<Table<B>>, Error> {
        let count = plan.tables().len();
        #[cfg(feature = "parallel")]
        if threads != 1 {
            let built = crate::parallel::run(threads, count, Vec::new, |out, t| {
                let table = Table::build(plan, t, fps);
                let ok = table.is_ok();
                out.push((t, table));
                ok
            });
            let mut tables: Vec<Option<Table<B>>> = (0..count).map(|_| None).collect();
            for (t, table) in built.into_iter().flatten() {
                tables[t] = Some(table?);
            }
            // Every table was built unless one failed, which returned above.
            return collect(count, tables.into_iter().flatten());
        }
        let _ = threads;
        let mut tables = try_vec_with_capacity(count)?;
        for t in 0..count {
            tables.push(Table::build(plan, t, fps)?);
        }
        Ok(tables)
    }

    /// Table `table` of `plan` over `fps` (the segment's fingerprints, by slot).
    pub(super) fn build(plan: &Plan, table: usize, fps: &[B]) -> Result<Table<B>, Error> {
        let spec = &plan.tables()[table];
        let t = TableDescription::of(spec, plan.k(), fps.len());
        let d = t.bucket_bits;
        let shape = KeyShape::new(plan, table, d);
        let mask = u128::MAX >> (128 - plan.width());
        let rest = if t.read_whole {
            mask
        } else {
            mask & !shape.fingerprint_bits((1u32 << d) - 1)
        };
        let bucket = |fp: B| fp.bucket(&shape);
        let mut dir = zeroed::<u32>((1usize << d) + 1)?;
        for &fp in fps {
            dir[bucket(fp) + 1] += 1;
        }
        for i in 1..dir.len() {
            dir[i] += dir[i - 1];
        }
        let mut next = try_vec_with_capacity::<u32>(dir.len() - 1)?;
        next.extend_from_slice(&dir[..dir.len() - 1]);
        let mut slots = zeroed::<u32>(fps.len())?;
        for (slot, &fp) in fps.iter().enumerate() {
            let b = bucket(fp);
            let at = next[b] as usize;
            next[b] += 1;
            #[allow(
                clippy::cast_possible_truncation,
                reason = "Segment::build checks the count"
            )]
            let slot = slot as u32;
            slots[at] = slot;
        }
        let words = if t.folded {
            Words::Folded(collect(
                fps.len(),
                slots.iter().map(|&s| fps[s as usize].fold(rest)),
            )?)
        } else {
            Words::Full(collect(fps.len(), slots.iter().map(|&s| fps[s as usize]))?)
        };
        Ok(Table {
            shape,
            bits: d,
            read_whole: t.read_whole,
            rest,
            bucket_mask: mask & !rest,
            dir,
            words,
            slots,
        })
    }

    /// The entries of bucket `bucket`.
    #[inline]
    pub(super) fn range(&self, bucket: usize) -> Range<usize> {
        self.dir[bucket] as usize..self.dir[bucket + 1] as usize
    }

    /// Calls `visit(probe)` for each non-empty bucket a query for `q` probes at `radius` (at
    /// most the table's, and at most the query's `k`: a bucket more flips away holds nothing
    /// within it): its own bucket with up to `radius` of its bits flipped. Probing every
    /// bucket reads the table as one range.
    #[inline]
    pub(super) fn each_probe(&self, table: u32, q: B, radius: u32, visit: &mut impl FnMut(Probed)) {
        if self.read_whole {
            if !self.slots.is_empty() {
                visit(Probed {
                    table,
                    start: 0,
                    end: u32::try_from(self.slots.len()).unwrap_or(u32::MAX),
                    flips: 0,
                });
            }
            return;
        }
        let own = q.bucket(&self.shape);
        for_each_flip::<u32>(self.bits, radius, &mut |flips| {
            let b = own ^ flips as usize;
            let (start, end) = (self.dir[b], self.dir[b + 1]);
            if start < end {
                visit(Probed {
                    table,
                    start,
                    end,
                    flips,
                });
            }
        });
    }

    /// Prefetches the probed bucket's words (with `far`, into L2 only), so the misses of the
    /// buckets ahead overlap rather than wait one after another in the checks; returns what a
    /// portable prefetch read (see [`crate::scan::prefetch`]) and the bucket's bytes.
    #[inline]
    pub(super) fn touch(&self, p: &Probed, far: bool) -> (u128, usize) {
        let range = p.start as usize..p.end as usize;
        match &self.words {
            Words::Folded(w) => (
                u128::from(crate::scan::prefetch(&w[range.clone()], far)),
                range.len() * 4,
            ),
            Words::Full(w) => (
                crate::scan::prefetch(&w[range.clone()], far).to_u128(),
                range.len() * B::BYTES,
            ),
        }
    }

    /// Heap bytes held.
    pub(super) fn bytes(&self) -> usize {
        let words = match &self.words {
            Words::Folded(w) => w.capacity() * 4,
            Words::Full(w) => w.capacity() * B::BYTES,
        };
        self.dir.capacity() * 4 + words + self.slots.capacity() * 4 + self.shape.bytes()
    }
}

/// True when one of `tables`, probed at `reach` (the query's radii plus one,
/// [`super::radii::SKIP`] for a table it leaves out), finds a fingerprint that differs from the
/// query in `diff`: its bucket bits differ in no more than the radius (every bucket of a
/// table read whole). A query reports each hit from the first table that finds it, so a
/// fingerprint near in several tables costs one slot and id read, not one per table.
#[inline]
pub(super) fn reached<B: Bits>(tables: &[Table<B>], reach: &[u8], diff: B) -> bool {
    let diff = diff.to_u128();
    tables
        .iter()
        .zip(reach)
        .any(|(t, &r)| (diff & t.bucket_mask).count_ones() < u32::from(r))
}
