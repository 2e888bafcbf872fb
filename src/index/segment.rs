//! One immutable run of the index: fingerprints sorted by id, and the plan's tables over them.
//!
//! Each table is a bucket array: entries grouped by the top `d` bits of their key (counting
//! sort, no comparisons), with a directory of bucket offsets. A query reads one bucket per
//! table and checks the distance of what it finds; a bucket holds every fingerprint whose key
//! equals the query's, so nothing within `k` is missed. Removal marks a slot dead; merging
//! segments drops dead slots.

use alloc::vec::Vec;

use super::fallible::{try_vec_with_capacity, zeroed};
use super::plan::Plan;
use crate::error::Error;

/// The integer a fingerprint is held in: `u64` for widths up to 64, `u128` above.
pub(super) trait Bits: Copy + Eq + Ord + core::fmt::Debug + 'static {
    const BYTES: usize;
    fn from_u128(v: u128) -> Self;
    fn to_u128(self) -> u128;
    fn distance(self, other: Self) -> u32;
    /// Calls `found(i, distance)` for each `i` (ascending) with `fps[i]` within `k` of `q`:
    /// the scan kernel, so buckets and scans are checked a chunk at a time.
    fn within(q: Self, fps: &[Self], k: u32, found: &mut dyn FnMut(usize, u32));
    /// The bucket of `self` in a table of this key shape (the key's top bits).
    fn bucket(self, shape: &KeyShape) -> usize;
}

impl Bits for u64 {
    const BYTES: usize = 8;
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "values of 64 bits or fewer"
    )]
    fn from_u128(v: u128) -> u64 {
        v as u64
    }
    #[inline]
    fn to_u128(self) -> u128 {
        u128::from(self)
    }
    #[inline]
    fn distance(self, other: u64) -> u32 {
        (self ^ other).count_ones()
    }
    #[inline]
    fn within(q: u64, fps: &[u64], k: u32, found: &mut dyn FnMut(usize, u32)) {
        crate::scan::within64(q, fps, k, found);
    }
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "masks of blocks within 64 bits; buckets below 2^26"
    )]
    fn bucket(self, shape: &KeyShape) -> usize {
        // Keys of fingerprints up to 64 bits fit a u64: no u128 arithmetic on the hot path.
        let key = shape.parts.iter().fold(0u64, |key, &(shift, mask, len)| {
            // A single 64-bit block is the whole key (and `<< 64` would overflow).
            let key = if len >= 64 { 0 } else { key << len };
            key | ((self >> shift) & mask as u64)
        });
        key.checked_shr(shape.bucket_shift).unwrap_or(0) as usize
    }
}

impl Bits for u128 {
    const BYTES: usize = 16;
    #[inline]
    fn from_u128(v: u128) -> u128 {
        v
    }
    #[inline]
    fn to_u128(self) -> u128 {
        self
    }
    #[inline]
    fn distance(self, other: u128) -> u32 {
        (self ^ other).count_ones()
    }
    #[inline]
    fn within(q: u128, fps: &[u128], k: u32, found: &mut dyn FnMut(usize, u32)) {
        crate::scan::within128(q, fps, k, found);
    }
    #[inline]
    fn bucket(self, shape: &KeyShape) -> usize {
        shape.key(self).checked_shr(shape.bucket_shift).unwrap_or(0) as usize
    }
}

/// Extracts one table's key (its blocks' bits, concatenated) from a fingerprint.
#[derive(Clone, Debug)]
pub(super) struct KeyShape {
    /// (right shift to bring the block to bit 0, mask of its length, its length) per block.
    parts: Vec<(u32, u128, u32)>,
    key_bits: u32,
    /// Right shift from key to bucket number (`key_bits − d`), set when the table is built.
    bucket_shift: u32,
}

impl KeyShape {
    fn new(plan: &Plan, table: usize) -> KeyShape {
        let spec = &plan.tables()[table];
        let parts = spec
            .blocks
            .iter()
            .map(|&b| {
                let block = plan.blocks()[b as usize];
                let shift = plan.width() - block.start - block.len;
                (shift, u128::MAX >> (128 - block.len), block.len)
            })
            .collect();
        KeyShape {
            parts,
            key_bits: spec.key_bits,
            bucket_shift: 0,
        }
    }

    #[inline]
    fn key(&self, v: u128) -> u128 {
        self.parts.iter().fold(0u128, |key, &(shift, mask, len)| {
            // len < 128 whenever there are two or more parts; a single 128-bit block is the key.
            let key = if len >= 128 { 0 } else { key << len };
            key | ((v >> shift) & mask)
        })
    }
}

#[derive(Clone, Debug)]
struct Table<B> {
    shape: KeyShape,
    /// Bucket `i` is `fps[dir[i]..dir[i + 1]]`.
    dir: Vec<u32>,
    fps: Vec<B>,
    slots: Vec<u32>,
}

impl<B: Bits> Table<B> {
    /// Bits of the bucket number for `n` fingerprints under a key of `key_bits`: about one
    /// bucket per fingerprint, at most one per key value.
    fn directory_bits(key_bits: u32, n: usize) -> u32 {
        let n = n.max(1);
        core::cmp::min(key_bits, usize::BITS - 1 - n.leading_zeros()).min(26)
    }

    /// Heap bytes a table of `n` fingerprints under a key of `key_bits` takes.
    fn bytes_for(key_bits: u32, n: usize) -> usize {
        let d = Self::directory_bits(key_bits, n);
        // Saturating: on wasm32 a hostile plan's total overflows usize.
        (((1usize << d) + 1) * 4).saturating_add(n.saturating_mul(B::BYTES + 4))
    }

    fn build(plan: &Plan, table: usize, fps: &[B]) -> Result<Table<B>, Error> {
        let mut shape = KeyShape::new(plan, table);
        let d = Self::directory_bits(shape.key_bits, fps.len());
        shape.bucket_shift = shape.key_bits - d;
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
        let mut out_fps = try_vec_with_capacity::<B>(fps.len())?;
        out_fps.resize(fps.len(), fps.first().copied().unwrap_or(B::from_u128(0)));
        let mut slots = zeroed::<u32>(fps.len())?;
        for (slot, &fp) in fps.iter().enumerate() {
            let b = bucket(fp);
            let at = next[b] as usize;
            next[b] += 1;
            out_fps[at] = fp;
            #[allow(
                clippy::cast_possible_truncation,
                reason = "Segment::build checks the count"
            )]
            let slot = slot as u32;
            slots[at] = slot;
        }
        Ok(Table {
            shape,
            dir,
            fps: out_fps,
            slots,
        })
    }

    #[inline]
    fn bucket(&self, fp: B) -> core::ops::Range<usize> {
        let b = fp.bucket(&self.shape);
        self.dir[b] as usize..self.dir[b + 1] as usize
    }

    fn bytes(&self) -> usize {
        self.dir.capacity() * 4
            + self.fps.capacity() * B::BYTES
            + self.slots.capacity() * 4
            + self.shape.parts.capacity() * 32
    }
}

/// An immutable group of fingerprints with its tables.
#[derive(Clone, Debug)]
pub(super) struct Segment<B> {
    plan: Plan,
    /// Sorted ascending; `fps[i]` belongs to `ids[i]`.
    ids: Vec<u64>,
    fps: Vec<B>,
    dead: Vec<u64>,
    dead_count: usize,
    tables: Vec<Table<B>>,
}

impl<B: Bits> Segment<B> {
    /// Heap bytes a segment of `n` fingerprints built with `plan` takes (what
    /// [`Segment::bytes`] reports once it is built).
    pub(super) fn bytes_for(plan: &Plan, n: usize) -> usize {
        let tables = plan.tables().iter().fold(0usize, |sum, t| {
            sum.saturating_add(Table::<B>::bytes_for(t.key_bits, n))
                .saturating_add(t.blocks.len() * 32)
        });
        n.saturating_mul(8 + B::BYTES)
            .saturating_add(n.div_ceil(64) * 8)
            .saturating_add(tables)
    }

    /// Builds from `(id, fp)` pairs with distinct ids; [`Error::OutOfMemory`] (and nothing
    /// built) when memory cannot hold it. Every array is reserved fallibly, after one reservation
    /// of the whole size has shown it fits: an allocation failure would otherwise abort, which
    /// in wasm kills the instance.
    pub(super) fn build(plan: Plan, mut entries: Vec<(u64, B)>) -> Result<Segment<B>, Error> {
        let need = Self::bytes_for(&plan, entries.len());
        // Slots are u32: a segment holds fewer than 2^32 fingerprints (64 GB of them).
        if u32::try_from(entries.len()).is_err() {
            return Err(Error::OutOfMemory { bytes: need });
        }
        // Asking for everything at once fails fast, before any table is built, and in wasm
        // grows the memory once rather than table by table.
        drop(try_vec_with_capacity::<u8>(need)?);
        entries.sort_unstable_by_key(|e| e.0);
        let mut ids = try_vec_with_capacity::<u64>(entries.len())?;
        ids.extend(entries.iter().map(|e| e.0));
        let mut fps = try_vec_with_capacity::<B>(entries.len())?;
        fps.extend(entries.iter().map(|e| e.1));
        drop(entries);
        let mut tables = try_vec_with_capacity(plan.tables().len())?;
        for t in 0..plan.tables().len() {
            tables.push(Table::build(&plan, t, &fps)?);
        }
        Ok(Segment {
            dead: zeroed(ids.len().div_ceil(64))?,
            dead_count: 0,
            plan,
            ids,
            fps,
            tables,
        })
    }

    pub(super) fn live(&self) -> usize {
        self.ids.len() - self.dead_count
    }

    pub(super) fn dead_count(&self) -> usize {
        self.dead_count
    }

    #[inline]
    fn is_dead(&self, slot: usize) -> bool {
        self.dead[slot / 64] >> (slot % 64) & 1 == 1
    }

    /// The live slot holding `id`.
    pub(super) fn find(&self, id: u64) -> Option<usize> {
        let slot = self.ids.binary_search(&id).ok()?;
        (!self.is_dead(slot)).then_some(slot)
    }

    pub(super) fn fp(&self, slot: usize) -> B {
        self.fps[slot]
    }

    pub(super) fn kill(&mut self, slot: usize) {
        if !self.is_dead(slot) {
            self.dead[slot / 64] |= 1 << (slot % 64);
            self.dead_count += 1;
        }
    }

    /// Every live `(id, fp)`, by id.
    pub(super) fn entries(&self) -> impl Iterator<Item = (u64, B)> + '_ {
        (0..self.ids.len())
            .filter(|&s| !self.is_dead(s))
            .map(|s| (self.ids[s], self.fps[s]))
    }

    /// Calls `seen(id, distance, table)` for every live fingerprint a query for `q` examines:
    /// each one in `q`'s bucket of each table (`Some(table)`), or every one when the plan is a
    /// scan (`None`). For teaching and debugging; [`Segment::query`] is the fast path.
    pub(super) fn examine(&self, q: B, seen: &mut impl FnMut(u64, u32, Option<u32>)) {
        if self.tables.is_empty() {
            for (slot, &fp) in self.fps.iter().enumerate() {
                if !self.is_dead(slot) {
                    seen(self.ids[slot], fp.distance(q), None);
                }
            }
            return;
        }
        for (t, table) in self.tables.iter().enumerate() {
            let range = table.bucket(q);
            for i in range {
                let slot = table.slots[i] as usize;
                if !self.is_dead(slot) {
                    let number = u32::try_from(t).unwrap_or(u32::MAX);
                    seen(self.ids[slot], table.fps[i].distance(q), Some(number));
                }
            }
        }
    }

    /// Calls `found(id, distance)` for each live fingerprint within `k` of `q`, possibly more
    /// than once per id (one per table that holds it). `k` must not exceed the plan's `k`
    /// unless the plan is a scan.
    pub(super) fn query(&self, q: B, k: u32, found: &mut impl FnMut(u64, u32)) {
        if self.tables.is_empty() {
            return self.scan(q, k, found);
        }
        for table in &self.tables {
            let range = table.bucket(q);
            let slots = &table.slots[range.clone()];
            B::within(q, &table.fps[range], k, &mut |i, d| {
                let slot = slots[i] as usize;
                if !self.is_dead(slot) {
                    found(self.ids[slot], d);
                }
            });
        }
    }

    /// Like [`Segment::query`] for any `k`, by checking every fingerprint (each id once).
    pub(super) fn scan(&self, q: B, k: u32, found: &mut impl FnMut(u64, u32)) {
        B::within(q, &self.fps, k, &mut |slot, d| {
            if !self.is_dead(slot) {
                found(self.ids[slot], d);
            }
        });
    }

    /// Calls `found(id_a, id_b, distance)` once for each pair of live fingerprints of this
    /// segment within `k` (`k` at most the plan's), until it returns false.
    pub(super) fn pairs(&self, k: u32, found: &mut impl FnMut(u64, u64, u32) -> bool) {
        if self.tables.is_empty() {
            for a in 0..self.fps.len() {
                for b in a + 1..self.fps.len() {
                    let d = self.fps[a].distance(self.fps[b]);
                    if d <= k
                        && !self.is_dead(a)
                        && !self.is_dead(b)
                        && !found(self.ids[a], self.ids[b], d)
                    {
                        return;
                    }
                }
            }
            return;
        }
        let block_masks: Vec<u128> = self
            .plan
            .blocks()
            .iter()
            .map(|b| (u128::MAX >> (128 - b.len)) << (self.plan.width() - b.start - b.len))
            .collect();
        // Sets of blocks as bit masks: u128, since a plan may have up to 128 blocks (C(b, k)
        // stays small at k = 0 or 1), and a u64 shift by 64 or more would overflow.
        let table_sets: Vec<u128> = self
            .plan
            .tables()
            .iter()
            .map(|t| t.blocks.iter().fold(0u128, |m, &b| m | 1 << b))
            .collect();
        for (t, table) in self.tables.iter().enumerate() {
            for w in table.dir.windows(2) {
                let bucket = w[0] as usize..w[1] as usize;
                for i in bucket.clone() {
                    for j in i + 1..bucket.end {
                        let (x, y) = (table.fps[i], table.fps[j]);
                        let d = x.distance(y);
                        if d > k {
                            continue;
                        }
                        // Report a pair from the first table whose blocks all agree, so
                        // each pair comes out once however many tables hold it together.
                        let diff = x.to_u128() ^ y.to_u128();
                        let equal = block_masks.iter().enumerate().fold(0u128, |m, (b, mask)| {
                            m | (u128::from(diff & mask == 0) << b)
                        });
                        let first = table_sets.iter().position(|s| s & !equal == 0);
                        if first != Some(t) {
                            continue;
                        }
                        let (sa, sb) = (table.slots[i] as usize, table.slots[j] as usize);
                        if !self.is_dead(sa)
                            && !self.is_dead(sb)
                            && !found(self.ids[sa], self.ids[sb], d)
                        {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Bytes of heap memory held.
    pub(super) fn bytes(&self) -> usize {
        self.ids.capacity() * 8
            + self.fps.capacity() * B::BYTES
            + self.dead.capacity() * 8
            + self.tables.iter().map(Table::bytes).sum::<usize>()
    }
}
