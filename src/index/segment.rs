//! One immutable run of the index: fingerprints sorted by id, and the plan's tables over them.
//!
//! Each table is a bucket array: entries grouped by the top `d` bits of their key (counting
//! sort, no comparisons), with a directory of bucket offsets. A query probes its own bucket
//! and every bucket within the table's radius (its number with up to that many bits flipped).
//! Every fingerprint in a probed bucket agrees with the query on the bucket bits except the
//! flipped ones, so its distance is the number of flips plus the distance on the other bits.
//!
//! An entry is 8 bytes: the fingerprint's other bits XOR-folded to 32 (a lower bound on their
//! distance, since each folded bit differs only where one of its two source bits does), and
//! its slot in the segment. The first check runs on the folded words, four to a vector
//! register; the few that pass are checked exactly against the segment's fingerprints. Half
//! the bytes of a full copy per table, so the tables a query reads stay in cache longer.
//!
//! Removal marks a slot dead; merging segments drops dead slots.

use alloc::vec::Vec;
use core::ops::Range;

use super::fallible::{collect, try_vec_with_capacity, zeroed};
use super::flips::for_each_flip;
use super::plan::{bucket_bits, folds, Plan, TableSpec};
use super::results::Probe;
use crate::error::Error;
use crate::sort;

/// The integer a fingerprint is held in: `u64` for widths up to 64, `u128` above.
pub(super) trait Bits:
    Copy + Eq + Ord + Default + core::ops::BitXor<Output = Self> + core::fmt::Debug + 'static
{
    const BYTES: usize;
    fn from_u128(v: u128) -> Self;
    fn to_u128(self) -> u128;
    fn distance(self, other: Self) -> u32;
    fn xor(self, other: Self) -> Self;
    /// Calls `found(i, distance)` for each `i` (ascending) with `fps[i]` within `k` of `q`:
    /// the scan kernel, so buckets and scans are checked a chunk at a time.
    fn within(q: Self, fps: &[Self], k: u32, found: &mut dyn FnMut(usize, u32));
    /// [`Bits::within`] over `all[range]`, free to read past the range (see
    /// `scan::within32_in`).
    fn within_in(
        q: Self,
        all: &[Self],
        range: core::ops::Range<usize>,
        k: u32,
        found: &mut dyn FnMut(usize, u32),
    );
    /// Calls `found(i, j, distance)` for each `xs[i]`, `ys[j]` within `k` (with `after`, only
    /// `j > i`): the all-pairs join of two buckets (see `scan::cross64`). x86-64 only: in wasm
    /// the join of whole buckets measured twice as slow as one call per row, and 23 KB larger.
    #[cfg(target_arch = "x86_64")]
    fn cross(
        xs: &[Self],
        ys: &[Self],
        after: bool,
        k: u32,
        found: &mut dyn FnMut(usize, usize, u32),
    );
    /// The bucket of `self` in a table of this key shape (the key's top bits).
    fn bucket(self, shape: &KeyShape) -> usize;
    /// The bits of `self` in `mask`, XOR-folded to 32: the popcount of `fold(a) ^ fold(b)` is
    /// at most that of `(a ^ b) & mask`.
    fn fold(self, mask: u128) -> u32;
    /// `entries` (distinct ids) sorted by id.
    fn sort_by_id(entries: Vec<(u64, Self)>) -> Result<Vec<(u64, Self)>, Error>;
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
    fn xor(self, other: u64) -> u64 {
        self ^ other
    }
    #[inline]
    fn within(q: u64, fps: &[u64], k: u32, found: &mut dyn FnMut(usize, u32)) {
        crate::scan::within64(q, fps, k, found);
    }
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn cross(
        xs: &[u64],
        ys: &[u64],
        after: bool,
        k: u32,
        found: &mut dyn FnMut(usize, usize, u32),
    ) {
        crate::scan::cross64(xs, ys, after, k, found);
    }
    #[inline]
    fn within_in(
        q: u64,
        all: &[u64],
        range: core::ops::Range<usize>,
        k: u32,
        found: &mut dyn FnMut(usize, u32),
    ) {
        crate::scan::within64_in(q, all, range, k, found);
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
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "masks within 64 bits; the fold keeps the low 32 bits on purpose"
    )]
    fn fold(self, mask: u128) -> u32 {
        let x = self & mask as u64;
        (x ^ (x >> 32)) as u32
    }
    fn sort_by_id(mut entries: Vec<(u64, u64)>) -> Result<Vec<(u64, u64)>, Error> {
        // Distinct ids: the pairs sort as by id alone.
        sort::sort(&mut entries);
        Ok(entries)
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
    fn xor(self, other: u128) -> u128 {
        self ^ other
    }
    #[inline]
    fn within(q: u128, fps: &[u128], k: u32, found: &mut dyn FnMut(usize, u32)) {
        crate::scan::within128(q, fps, k, found);
    }
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn cross(
        xs: &[u128],
        ys: &[u128],
        after: bool,
        k: u32,
        found: &mut dyn FnMut(usize, usize, u32),
    ) {
        for (i, &x) in xs.iter().enumerate() {
            let start = if after { (i + 1).min(ys.len()) } else { 0 };
            crate::scan::within128(x, &ys[start..], k, &mut |j, d| found(i, start + j, d));
        }
    }
    #[inline]
    fn within_in(
        q: u128,
        all: &[u128],
        range: core::ops::Range<usize>,
        k: u32,
        found: &mut dyn FnMut(usize, u32),
    ) {
        crate::scan::within128(q, &all[range], k, found);
    }
    #[inline]
    fn bucket(self, shape: &KeyShape) -> usize {
        shape.key(self).checked_shr(shape.bucket_shift).unwrap_or(0) as usize
    }
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "the fold keeps the low 32 bits on purpose"
    )]
    fn fold(self, mask: u128) -> u32 {
        let x = self & mask;
        let x = x ^ (x >> 64);
        (x ^ (x >> 32)) as u32
    }
    fn sort_by_id(entries: Vec<(u64, u128)>) -> Result<Vec<(u64, u128)>, Error> {
        // Through (id, position) pairs: no sort of this type's own (see `crate::sort`).
        sort::by_distinct_key(&entries, |e| e.0)
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

    /// The fingerprint bits (as a mask of the value) that bits `mask` of the bucket number
    /// come from: what a probe's flips flip in the query.
    fn fingerprint_bits(&self, mask: u32) -> u128 {
        let mut out = 0u128;
        for j in 0..32u32 {
            if mask >> j & 1 == 0 {
                continue;
            }
            // Bit j of the bucket is bit `bucket_shift + j` of the key, counted from its lowest;
            // the last part holds the key's lowest bits.
            let mut p = self.bucket_shift + j;
            for &(shift, _, len) in self.parts.iter().rev() {
                if p < len {
                    out |= 1u128 << (shift + p);
                    break;
                }
                p -= len;
            }
        }
        out
    }
}

/// Probes whose buckets are located before any is checked (see [`Segment::query`]).
const PROBE_BATCH: usize = 128;

/// Bytes of buckets prefetched ahead of the one being checked. On x86-64, where a prefetch
/// instruction retires at once: enough misses in flight to hide the memory's latency, few
/// enough that the lines are still in L1 when checked (a whole batch of large buckets at once
/// stalled on full fill buffers at k = 18; 4 to 64 KB measured at k = 9, 12 and 18, 8 KB best
/// at each). Elsewhere the prefetch is a read (wasm has no prefetch), and reading the whole
/// batch first was fastest under Node (8 KB: k = 9 22 µs, k = 18 519 µs; 128 KB: 18 and 397).
#[cfg(target_arch = "x86_64")]
const PREFETCH_AHEAD: usize = 8 * 1024;
#[cfg(not(target_arch = "x86_64"))]
const PREFETCH_AHEAD: usize = usize::MAX;

/// Entries that passed a table's check held before the reads that finish them.
const HITS: usize = 64;

/// A table's entries as its first check reads them.
#[derive(Clone, Debug)]
enum Words<B> {
    /// The fingerprint's bits outside the bucket number, XOR-folded to 32: half the bytes,
    /// and the check that follows is rare while `k` is small (see [`plan::folds`](folds)).
    Folded(Vec<u32>),
    /// The whole fingerprint: the check is exact.
    Full(Vec<B>),
}

#[derive(Clone, Debug)]
struct Table<B> {
    shape: KeyShape,
    /// Buckets within this many bits of the query's are probed.
    radius: u32,
    /// Bits of the bucket number.
    bits: u32,
    /// The fingerprint bits outside the bucket number (all of them when every bucket is
    /// probed): what `folded` holds.
    rest: u128,
    /// The fingerprint bits of the bucket number (none when every bucket is probed).
    bucket_mask: u128,
    /// Bucket `i` is entries `dir[i]..dir[i + 1]`.
    dir: Vec<u32>,
    /// Per entry: what the first check reads.
    words: Words<B>,
    /// Per entry: its slot in the segment.
    slots: Vec<u32>,
}

/// One bucket a query or a join reads: its entries and the bits its number differs from the
/// query's in (the distance every fingerprint in it has on the bucket bits).
#[derive(Clone, Copy, Default)]
struct Probed {
    table: u32,
    start: u32,
    end: u32,
    flips: u32,
}

impl<B: Bits> Table<B> {
    /// Heap bytes a table of `n` fingerprints takes.
    fn bytes_for(spec: &TableSpec, k: u32, n: usize) -> usize {
        let d = bucket_bits(spec.key_bits, n);
        let word = if folds(d, spec.radius, k) {
            4
        } else {
            B::BYTES
        };
        // Saturating: on wasm32 a hostile plan's total overflows usize.
        (((1usize << d) + 1) * 4).saturating_add(n.saturating_mul(word + 4))
    }

    fn build(plan: &Plan, table: usize, fps: &[B]) -> Result<Table<B>, Error> {
        let mut shape = KeyShape::new(plan, table);
        let d = bucket_bits(shape.key_bits, fps.len());
        shape.bucket_shift = shape.key_bits - d;
        let radius = plan.tables()[table].radius;
        let mask = u128::MAX >> (128 - plan.width());
        let rest = if radius >= d {
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
        let words = if folds(d, radius, plan.k()) {
            Words::Folded(collect(
                fps.len(),
                slots.iter().map(|&s| fps[s as usize].fold(rest)),
            )?)
        } else {
            Words::Full(collect(fps.len(), slots.iter().map(|&s| fps[s as usize]))?)
        };
        Ok(Table {
            shape,
            radius,
            bits: d,
            rest,
            bucket_mask: mask & !rest,
            dir,
            words,
            slots,
        })
    }

    #[inline]
    fn range(&self, bucket: usize) -> core::ops::Range<usize> {
        self.dir[bucket] as usize..self.dir[bucket + 1] as usize
    }

    /// True when the radius reaches every bucket: the table is then read whole, once.
    #[inline]
    fn probes_all(&self) -> bool {
        self.radius >= self.bits
    }

    /// Calls `visit(probe)` for each non-empty bucket a query for `q` within `k` probes: its
    /// own bucket with up to the radius of its bits flipped, or up to `k` when that is less (a
    /// bucket more flips away holds nothing within `k`). Probing every bucket reads the table
    /// as one range.
    #[inline]
    fn each_probe(&self, table: u32, q: B, k: u32, visit: &mut impl FnMut(Probed)) {
        if self.probes_all() {
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
        for_each_flip::<u32>(self.bits, self.radius.min(k), &mut |flips| {
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

    /// Prefetches the probed bucket's words, so the misses of the buckets ahead overlap
    /// rather than wait one after another in the checks; returns what a portable prefetch
    /// read (see [`crate::scan::prefetch`]) and the bucket's bytes.
    #[inline]
    fn touch(&self, p: &Probed) -> (u128, usize) {
        let range = p.start as usize..p.end as usize;
        match &self.words {
            Words::Folded(w) => (
                u128::from(crate::scan::prefetch(&w[range.clone()])),
                range.len() * 4,
            ),
            Words::Full(w) => (
                crate::scan::prefetch(&w[range.clone()]).to_u128(),
                range.len() * B::BYTES,
            ),
        }
    }

    fn bytes(&self) -> usize {
        let words = match &self.words {
            Words::Folded(w) => w.capacity() * 4,
            Words::Full(w) => w.capacity() * B::BYTES,
        };
        self.dir.capacity() * 4
            + words
            + self.slots.capacity() * 4
            + self.shape.parts.capacity() * 32
    }
}

/// Entries that passed a table's check, waiting for the reads that finish them: each one's
/// slot, then its id (and, when only a folded check passed, its fingerprint). Held so that
/// those reads, each a likely miss, overlap rather than follow one another.
struct Hits {
    /// (table, position in the table, distance); the distance is `u32::MAX` when only the
    /// folded check passed.
    at: [(u32, u32, u32); HITS],
    len: usize,
}

/// Distance of a hit whose folded check passed but whose exact distance is not yet known.
const UNKNOWN: u32 = u32::MAX;

/// True when one of `tables` finds a fingerprint that differs from the query in `diff`
/// within `k`: its bucket bits differ in no more than the table's radius (every bucket of a
/// table read whole). A query reports each hit from the first table that finds it, so a
/// fingerprint near in several tables costs one slot and id read, not one per table.
#[inline]
fn reached<B: Bits>(tables: &[Table<B>], diff: B, k: u32) -> bool {
    let diff = diff.to_u128();
    tables
        .iter()
        .any(|t| (diff & t.bucket_mask).count_ones() <= t.radius.min(k))
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
            sum.saturating_add(Table::<B>::bytes_for(t, plan.k(), n))
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
    pub(super) fn build(plan: Plan, entries: Vec<(u64, B)>) -> Result<Segment<B>, Error> {
        let need = Self::bytes_for(&plan, entries.len());
        // Slots are u32: a segment holds fewer than 2^32 fingerprints (64 GB of them).
        if u32::try_from(entries.len()).is_err() {
            return Err(Error::OutOfMemory { bytes: need });
        }
        // No trial allocation of `need` bytes first: while the entries are still held it would
        // add their whole size to the peak, and in wasm, whose memory never shrinks, the peak
        // is what stays. A failure below is as clean (nothing is built or kept).
        if isize::try_from(need).is_err() {
            return Err(Error::OutOfMemory { bytes: need });
        }
        let entries = B::sort_by_id(entries)?;
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

    pub(super) fn plan(&self) -> &Plan {
        &self.plan
    }

    pub(super) fn slots(&self) -> usize {
        self.ids.len()
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

    /// Calls `seen(id, distance, table, probe)` for every live fingerprint a query for `q`
    /// within `k` examines: each one in a bucket the query probes in each table, or every one
    /// when the plan is a scan (`None`). For teaching and debugging; [`Segment::query`] is the
    /// fast path.
    pub(super) fn examine(
        &self,
        q: B,
        k: u32,
        seen: &mut impl FnMut(u64, u32, Option<u32>, Option<Probe>),
    ) {
        if self.tables.is_empty() {
            for (slot, &fp) in self.fps.iter().enumerate() {
                if !self.is_dead(slot) {
                    seen(self.ids[slot], fp.distance(q), None, None);
                }
            }
            return;
        }
        for (t, table) in (0u32..).zip(&self.tables) {
            let own = q.bucket(&table.shape);
            table.each_probe(t, q, k, &mut |p| {
                let probe = (!table.probes_all()).then(|| Probe {
                    // Below 2^26.
                    bucket: u32::try_from(own ^ p.flips as usize).unwrap_or(u32::MAX),
                    bucket_bits: table.bits,
                    flips: table.shape.fingerprint_bits(p.flips),
                });
                for i in p.start as usize..p.end as usize {
                    let slot = table.slots[i] as usize;
                    if !self.is_dead(slot) {
                        let d = self.fps[slot].distance(q);
                        seen(self.ids[slot], d, Some(t), probe);
                    }
                }
            });
        }
    }

    /// Calls `found(id, distance)` for each live fingerprint within `k` of `q`, possibly more
    /// than once per id (one per table that holds it). `k` must not exceed the plan's `k`
    /// unless the plan is a scan.
    pub(super) fn query(&self, q: B, k: u32, found: &mut impl FnMut(u64, u32)) {
        if self.tables.is_empty() {
            return self.scan(q, k, found);
        }
        let mut hits = Hits {
            at: [(0, 0, 0); HITS],
            len: 0,
        };
        // Probes of every table in one batch: the more misses in flight at once, the better.
        let mut batch = [Probed::default(); PROBE_BATCH];
        let mut len = 0;
        for (t, table) in (0u32..).zip(&self.tables) {
            table.each_probe(t, q, k, &mut |p| {
                batch[len] = p;
                len += 1;
                if len == PROBE_BATCH {
                    self.check(q, k, &batch, &mut hits, found);
                    len = 0;
                }
            });
        }
        self.check(q, k, &batch[..len], &mut hits, found);
        self.resolve(q, k, &mut hits, found);
    }

    /// Checks a batch of probed buckets in order, with the buckets ahead prefetched up to
    /// [`PREFETCH_AHEAD`] bytes.
    #[inline]
    fn check(
        &self,
        q: B,
        k: u32,
        probes: &[Probed],
        hits: &mut Hits,
        found: &mut impl FnMut(u64, u32),
    ) {
        let mut touched = 0u128;
        // Probes `i..ahead` are prefetched; `ahead_bytes` are their buckets' bytes.
        let (mut ahead, mut ahead_bytes) = (0, 0);
        for (i, p) in probes.iter().enumerate() {
            while ahead <= i || (ahead < probes.len() && ahead_bytes < PREFETCH_AHEAD) {
                let (sum, bytes) = self.tables[probes[ahead].table as usize].touch(&probes[ahead]);
                touched ^= sum;
                ahead_bytes += bytes;
                ahead += 1;
            }
            let table = &self.tables[p.table as usize];
            let range = p.start as usize..p.end as usize;
            let earlier = &self.tables[..p.table as usize];
            let mut hit = |i: usize, d: u32| {
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "positions in a table are below the segment's u32 count"
                )]
                let at = p.start + i as u32;
                hits.at[hits.len] = (p.table, at, d);
                hits.len += 1;
                if hits.len == HITS {
                    self.resolve(q, k, hits, found);
                }
            };
            match &table.words {
                Words::Folded(words) => {
                    ahead_bytes -= range.len() * 4;
                    // Everything here differs from q in exactly the flipped bucket bits.
                    let left = k - p.flips.count_ones();
                    let qf = q.fold(table.rest);
                    crate::scan::within32_in(qf, words, range, left, &mut |i| hit(i, UNKNOWN));
                }
                Words::Full(words) => {
                    ahead_bytes -= range.len() * B::BYTES;
                    let start = range.start;
                    B::within_in(q, words, range, k, &mut |i, d| {
                        // A fingerprint an earlier table also reaches is reported there.
                        if !reached(earlier, words[start + i].xor(q), k) {
                            hit(i, d);
                        }
                    });
                }
            }
        }
        core::hint::black_box(touched);
    }

    /// Finishes the held hits: reads their slots (prefetching what comes next), then checks
    /// the folded ones exactly, drops the dead and reports the rest.
    #[inline]
    fn resolve(&self, q: B, k: u32, hits: &mut Hits, found: &mut impl FnMut(u64, u32)) {
        let held = &mut hits.at[..hits.len];
        let mut touched = 0u128;
        for hit in held.iter_mut() {
            let slot = self.tables[hit.0 as usize].slots[hit.1 as usize];
            hit.1 = slot;
            let slot = slot as usize;
            touched ^= u128::from(crate::scan::prefetch(&self.ids[slot..=slot]));
            if hit.2 == UNKNOWN {
                touched ^= crate::scan::prefetch(&self.fps[slot..=slot]).to_u128();
            }
        }
        core::hint::black_box(touched);
        for &(table, slot, d) in held.iter() {
            let slot = slot as usize;
            let d = if d == UNKNOWN {
                let fp = self.fps[slot];
                if reached(&self.tables[..table as usize], fp.xor(q), k) {
                    continue;
                }
                fp.distance(q)
            } else {
                d
            };
            if d <= k && !self.is_dead(slot) {
                found(self.ids[slot], d);
            }
        }
        hits.len = 0;
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
    ///
    /// Each table joins every bucket with itself and with each bucket within its radius; a
    /// pair lies in buckets that close in every table whose bucket bits differ in at most the
    /// table's radius, and is reported by the first of those, so once.
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
        let width_mask = u128::MAX >> (128 - self.plan.width());
        let reach: Vec<(u128, u32)> = self
            .tables
            .iter()
            .map(|t| (width_mask & !t.rest, t.radius))
            .collect();
        let first_table = |x: B, y: B| {
            let diff = x.to_u128() ^ y.to_u128();
            reach
                .iter()
                .position(|&(mask, radius)| (diff & mask).count_ones() <= radius)
        };
        // A cell: both the join and the loops around it read it.
        let go = core::cell::Cell::new(true);
        for (t, table) in self.tables.iter().enumerate() {
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
            if table.probes_all() {
                // Rows a few hundred at a time, so that a stop is seen soon.
                let n = table.slots.len();
                for start in (0..n).step_by(256) {
                    if !go.get() {
                        return;
                    }
                    join(start..(start + 256).min(n), start..n, true, 0);
                }
                continue;
            }
            for b in 0..table.dir.len() - 1 {
                let here = table.range(b);
                if here.is_empty() {
                    continue;
                }
                if !go.get() {
                    return;
                }
                for_each_flip::<u32>(table.bits, table.radius.min(k), &mut |flips| {
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
            if !go.get() {
                return;
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
