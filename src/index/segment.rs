//! One immutable run of the index: fingerprints sorted by id, and the plan's tables over them
//! ([`Table`]). A query probes its own bucket and every bucket within each table's radius
//! (its number with up to that many bits flipped); every fingerprint in a probed bucket agrees
//! with the query on the bucket bits except the flipped ones, so its distance is the number of
//! flips plus the distance on the other bits. The probes of every table are batched, their
//! buckets prefetched ahead of the checks, and the entries that pass are held until their
//! slots and ids are read together, so the memory's misses overlap.
//!
//! Removal marks a slot dead (a tombstone); merging segments drops dead slots.

use alloc::vec::Vec;

use super::bits::Bits;
use super::fallible::{try_vec_with_capacity, zeroed};
use super::plan::Plan;
use super::radii;
use super::table::{reached, Probed, Table, Words};
use crate::error::Error;

/// Probes whose buckets are located before any is checked (see [`Segment::query`]).
const PROBE_BATCH: usize = 128;

/// Bytes of buckets prefetched ahead of the one being checked when a batch's buckets are small
/// (at most this many bytes in all, as at k = 3 and 6): into L1, all of it, then checked. On
/// x86-64, where a prefetch instruction retires at once; elsewhere the prefetch is a read (wasm
/// has no prefetch), and reading the whole batch first was fastest under Node (8 KB: k = 9
/// 22 µs, k = 18 519 µs; 128 KB: 18 and 397).
#[cfg(target_arch = "x86_64")]
const NEAR_AHEAD: usize = 8 * 1024;
#[cfg(not(target_arch = "x86_64"))]
const NEAR_AHEAD: usize = usize::MAX;

/// Bytes of buckets prefetched ahead of the one being checked when a batch's buckets are larger
/// (k = 9 and up): into L2 only, far ahead. Into L1 the lines ahead were limited by L1's few
/// fill buffers and, past 8 KB, evicted before they were checked; into L2, which has more of
/// both, k = 9 to 18 run 20 to 45 % faster on the mixed set of a million with AVX2 and AVX-512
/// (16 to 256 KB all within 5 % of each other; 64 KB leaves room in the 256 KB L2 of older
/// cores). At k = 3 the same costs 5 %, hence [`NEAR_AHEAD`] for small batches.
/// docs/performance.md, "Prefetching into L2".
#[cfg(target_arch = "x86_64")]
const FAR_AHEAD: usize = 64 * 1024;
#[cfg(not(target_arch = "x86_64"))]
const FAR_AHEAD: usize = usize::MAX;

/// Whether a batch of buckets of `bytes` in all is prefetched [`FAR_AHEAD`] into L2 rather than
/// [`NEAR_AHEAD`] into L1.
#[cfg(target_arch = "x86_64")]
fn prefetch_far(bytes: usize) -> bool {
    bytes > NEAR_AHEAD
}

/// Where a prefetch is a read (wasm), it brings every line to every level: one window.
#[cfg(not(target_arch = "x86_64"))]
fn prefetch_far(_bytes: usize) -> bool {
    false
}

/// Entries that passed a table's check held before the reads that finish them.
const HITS: usize = 64;

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

/// An immutable group of fingerprints with its tables.
#[derive(Clone, Debug)]
pub(super) struct Segment<B> {
    pub(super) plan: Plan,
    /// Sorted ascending; `fps[i]` belongs to `ids[i]`.
    pub(super) ids: Vec<u64>,
    pub(super) fps: Vec<B>,
    dead: Vec<u64>,
    dead_count: usize,
    pub(super) tables: Vec<Table<B>>,
    /// For each `k` up to the plan's, the radius a query within it probes each table at
    /// ([`radii::by_k`]: a query within less than the plan's `k` leaves tables out or probes
    /// them nearer), one row of `tables.len()` a `k`.
    radii: Vec<u8>,
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
            .saturating_add((plan.k() as usize + 1) * plan.tables().len())
    }

    /// Builds from `(id, fp)` pairs with distinct ids; [`Error::OutOfMemory`] (and nothing
    /// built) when memory cannot hold it. Every array is reserved fallibly, after one reservation
    /// of the whole size has shown it fits: an allocation failure would otherwise abort, which
    /// in wasm kills the instance.
    pub(super) fn build(plan: Plan, entries: Vec<(u64, B)>) -> Result<Segment<B>, Error> {
        Self::build_with(plan, entries, 1)
    }

    /// [`Segment::build`] with its tables built on `threads` threads (see
    /// `Index::insert_many_parallel`); without the `parallel` feature, on this one.
    pub(super) fn build_with(
        plan: Plan,
        entries: Vec<(u64, B)>,
        threads: usize,
    ) -> Result<Segment<B>, Error> {
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
        let tables = Table::build_all(&plan, &fps, threads)?;
        let radii = radii::by_k(&plan);
        Ok(Segment {
            dead: zeroed(ids.len().div_ceil(64))?,
            dead_count: 0,
            plan,
            ids,
            fps,
            tables,
            radii,
        })
    }

    /// The radius plus one each table is probed at within `k` ([`radii::SKIP`]: not probed);
    /// `k` at most the plan's.
    pub(super) fn radii(&self, k: u32) -> &[u8] {
        let t = self.tables.len();
        let row = k.min(self.plan.k()) as usize;
        &self.radii[row * t..(row + 1) * t]
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
    pub(super) fn is_dead(&self, slot: usize) -> bool {
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
        for ((t, table), &reach) in (0u32..).zip(&self.tables).zip(self.radii(k)) {
            let Some(radius) = radii::radius(reach) else {
                continue;
            };
            table.each_probe(t, q, radius, &mut |p| {
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
    /// [`NEAR_AHEAD`] bytes into L1 when the batch's buckets are that small in all, else up to
    /// [`FAR_AHEAD`] bytes into L2.
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
        let reach = self.radii(k);
        // At most the batch's bytes (folded words take half).
        let entries: usize = probes.iter().map(|p| (p.end - p.start) as usize).sum();
        let far = prefetch_far(entries.saturating_mul(B::BYTES));
        let window = if far { FAR_AHEAD } else { NEAR_AHEAD };
        // Probes `i..ahead` are prefetched; `ahead_bytes` are their buckets' bytes.
        let (mut ahead, mut ahead_bytes) = (0, 0);
        for (i, p) in probes.iter().enumerate() {
            while ahead <= i || (ahead < probes.len() && ahead_bytes < window) {
                let (sum, bytes) =
                    self.tables[probes[ahead].table as usize].touch(&probes[ahead], far);
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
                        if !reached(earlier, reach, words[start + i].xor(q)) {
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
        let reach = self.radii(k);
        let mut touched = 0u128;
        for hit in held.iter_mut() {
            let slot = self.tables[hit.0 as usize].slots[hit.1 as usize];
            hit.1 = slot;
            let slot = slot as usize;
            touched ^= u128::from(crate::scan::prefetch(&self.ids[slot..=slot], false));
            if hit.2 == UNKNOWN {
                touched ^= crate::scan::prefetch(&self.fps[slot..=slot], false).to_u128();
            }
        }
        core::hint::black_box(touched);
        for &(table, slot, d) in held.iter() {
            let slot = slot as usize;
            let d = if d == UNKNOWN {
                let fp = self.fps[slot];
                if reached(&self.tables[..table as usize], reach, fp.xor(q)) {
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

    /// Bytes of heap memory held.
    pub(super) fn bytes(&self) -> usize {
        self.ids.capacity() * 8
            + self.fps.capacity() * B::BYTES
            + self.radii.capacity()
            + self.dead.capacity() * 8
            + self.tables.iter().map(Table::bytes).sum::<usize>()
    }
}
