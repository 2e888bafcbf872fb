//! The index's work spread over threads (the `parallel` feature): all pairs, and the tables
//! of a bulk insert's segment. The answers are the serial ones exactly: the pairs are the
//! same set, listed in the same order (by distance, then ids), and each table is built by the
//! same code from the same fingerprints.

use alloc::vec::Vec;
use core::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::api::{Index, Inner};
use super::bits::Bits;
use super::engine::Engine;
use super::fallible::collect;
use super::plan::check_k;
use super::results::Pair;
use super::segment::Segment;
use super::MAX_PAIRS;
use crate::error::Error;
use crate::fingerprint::Fingerprint;
use crate::parallel::{run, split, threads_for};
use crate::sort;

/// Ranges of a table's parts (buckets, or blocks of rows) handed out per table: enough that
/// the threads finish together when bucket sizes are uneven (clustered text), few enough
/// that taking one costs nothing beside joining it.
const UNITS_PER_TABLE: usize = 256;

/// Entries of the smaller segment per unit of the pairs across two segments, and buffered
/// entries per unit of the buffer's pairs.
const ENTRIES_PER_UNIT: usize = 4096;

/// Pairs a thread finds before adding them to the shared count, which stops every thread
/// once past [`MAX_PAIRS`]: the count is then at most this many per thread behind.
const COUNT_EVERY: usize = 1024;

/// One unit of the pairs' work.
enum Unit {
    /// Pairs inside segment `segment` found by `parts` of table `table` (`Segment::pairs_in`).
    Within {
        segment: usize,
        table: usize,
        parts: Range<usize>,
    },
    /// Entries `slots` of segment `small` against segment `large`.
    Across {
        small: usize,
        large: usize,
        slots: Range<usize>,
    },
    /// Buffered entries `rows` against the later buffered ones and every segment.
    Buffer { rows: Range<usize> },
}

/// What one thread holds: its pairs as the order of answers sees them, its count not yet
/// added to the shared one, and the first error it met.
struct Found {
    keys: Vec<(u32, u64, u64)>,
    pending: usize,
    failed: Result<(), Error>,
}

impl<B: Bits> Engine<B> {
    /// [`Engine::pairs`] for every pair (`limit = usize::MAX`), found on `threads` threads.
    fn pairs_parallel(&self, k: u32, threads: usize) -> Result<Vec<Pair>, Error> {
        if k > self.k {
            // As the serial pairs: a temporary engine planned for k, built in parallel too.
            let mut wider = Engine::<B>::new(self.width, k, None);
            wider.insert_many_with(collect(self.len, self.entries())?, threads)?;
            return wider.pairs_parallel(k, threads);
        }
        let units = self.units(threads);
        let total = AtomicUsize::new(0);
        let states = run(
            threads,
            units.len(),
            || Found {
                keys: Vec::new(),
                pending: 0,
                failed: Ok(()),
            },
            |found, u| {
                let mut offer = |a: u64, b: u64, d: u32| {
                    if found.keys.try_reserve(1).is_err() {
                        let bytes = found.keys.len().saturating_mul(2 * 24);
                        found.failed = Err(Error::OutOfMemory { bytes });
                        return false;
                    }
                    found.keys.push((d, a.min(b), a.max(b)));
                    found.pending += 1;
                    if found.pending == COUNT_EVERY {
                        found.pending = 0;
                        return total.fetch_add(COUNT_EVERY, Ordering::Relaxed) + COUNT_EVERY
                            <= MAX_PAIRS;
                    }
                    true
                };
                let go = self.run_unit(&units[u], k, &mut offer);
                let pending = core::mem::take(&mut found.pending);
                let past = total.fetch_add(pending, Ordering::Relaxed) + pending > MAX_PAIRS;
                go && !past
            },
        );
        let mut count = 0usize;
        for found in &states {
            found.failed.clone()?;
            count += found.keys.len();
        }
        if count > MAX_PAIRS {
            return Err(Error::TooManyPairs { k, max: MAX_PAIRS });
        }
        let mut keys = crate::index::fallible::try_vec_with_capacity(count)?;
        for found in states {
            keys.extend(found.keys);
        }
        // The serial answer's order; each pair is found once, so nothing is dropped here
        // that the serial pairs would keep.
        sort::sort(&mut keys);
        keys.dedup();
        collect(
            keys.len(),
            keys.into_iter()
                .map(|(distance, a, b)| Pair { a, b, distance }),
        )
    }

    /// The pairs' work cut into units: each segment's tables by ranges of their parts, the
    /// pairs across each two segments by entries of the smaller, the buffer by rows.
    fn units(&self, threads: usize) -> Vec<Unit> {
        let mut units = Vec::new();
        let per_table = UNITS_PER_TABLE.max(4 * threads_for(threads, usize::MAX));
        for (i, s) in self.segments.iter().enumerate() {
            for table in 0..s.tables.len().max(1) {
                for parts in split(s.pair_parts(table), per_table) {
                    units.push(Unit::Within {
                        segment: i,
                        table,
                        parts,
                    });
                }
            }
            for j in i + 1..self.segments.len() {
                let other = &self.segments[j];
                let (small, large) = if s.live() <= other.live() {
                    (i, j)
                } else {
                    (j, i)
                };
                for slots in split(
                    self.segments[small].slots(),
                    self.segments[small].slots().div_ceil(ENTRIES_PER_UNIT),
                ) {
                    units.push(Unit::Across {
                        small,
                        large,
                        slots,
                    });
                }
            }
        }
        for rows in split(
            self.buffer.len(),
            self.buffer.len().div_ceil(ENTRIES_PER_UNIT),
        ) {
            units.push(Unit::Buffer { rows });
        }
        units
    }

    /// The pairs of one unit, offered to `found` until it returns false; returns false then.
    fn run_unit(&self, unit: &Unit, k: u32, found: &mut impl FnMut(u64, u64, u32) -> bool) -> bool {
        let mut hits = Vec::new();
        // Everything `q` finds within `k` in `segments`, each id once (several tables may find
        // it), as the serial pairs offer them.
        let query = |segments: &[&Segment<B>], q: B, hits: &mut Vec<(u64, u64)>| {
            hits.clear();
            for s in segments {
                s.query(q, k, &mut |id, d| hits.push((id, u64::from(d))));
            }
            sort::sort(hits);
            hits.dedup();
        };
        match unit {
            Unit::Within {
                segment,
                table,
                parts,
            } => self.segments[*segment].pairs_in(k, *table, parts.clone(), found),
            Unit::Across {
                small,
                large,
                slots,
            } => {
                let (small, large) = (&self.segments[*small], &self.segments[*large]);
                for slot in slots.clone() {
                    if small.is_dead(slot) {
                        continue;
                    }
                    let (id, fp) = (small.ids[slot], small.fps[slot]);
                    query(&[large], fp, &mut hits);
                    for &(other, d) in &hits {
                        if !found(id, other, narrow(d)) {
                            return false;
                        }
                    }
                }
                true
            }
            Unit::Buffer { rows } => {
                let segments: Vec<&Segment<B>> = self.segments.iter().collect();
                for i in rows.clone() {
                    let (id, fp) = self.buffer[i];
                    for &(other, other_fp) in &self.buffer[i + 1..] {
                        let d = fp.distance(other_fp);
                        if d <= k && !found(id, other, d) {
                            return false;
                        }
                    }
                    query(&segments, fp, &mut hits);
                    for &(other, d) in &hits {
                        if !found(id, other, narrow(d)) {
                            return false;
                        }
                    }
                }
                true
            }
        }
    }
}

/// A distance back from the widened form the hits are sorted in.
#[allow(
    clippy::cast_possible_truncation,
    reason = "distances are at most 128, widened from u32"
)]
fn narrow(d: u64) -> u32 {
    d as u32
}

impl Index {
    /// [`Index::pairs_within`] on `threads` threads (0: one per core; 1: on the calling
    /// thread alone): the same pairs in the same order (by distance, then ids), with the same
    /// errors. Only with the `parallel` feature (native code: it uses `std`).
    ///
    /// The work is cut into ranges of each table's buckets (and, for an index of several
    /// segments, runs of entries queried across them) that the threads take as they free
    /// up. At most 256 threads are started; a thread the system refuses leaves its share to
    /// the others. Past [`MAX_PAIRS`](crate::index::MAX_PAIRS) pairs the threads stop, having
    /// held about that many between them.
    ///
    /// # Errors
    ///
    /// As [`Index::pairs_within`]: [`Error::KOutOfRange`] for `k` above the width,
    /// [`Error::TooManyPairs`] past [`MAX_PAIRS`](crate::index::MAX_PAIRS),
    /// [`Error::OutOfMemory`] when memory runs out.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// let fp = |i: u64| Fingerprint::new(u128::from(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40), 64);
    /// index.insert_many((0..5000u64).map(|i| (i, fp(i).unwrap())))?;
    /// let pairs = index.pairs_parallel(3, 0)?;
    /// assert!(!pairs.is_empty());
    /// assert_eq!(pairs, index.pairs_within(3)?);
    /// assert_eq!(index.pairs_parallel(3, 1)?, pairs);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn pairs_parallel(&self, k: u32, threads: usize) -> Result<Vec<Pair>, Error> {
        check_k(self.width(), k)?;
        match &self.inner {
            Inner::Narrow(e) => e.pairs_parallel(k, threads),
            Inner::Wide(e) => e.pairs_parallel(k, threads),
        }
    }

    /// [`Index::insert_many`] with the new segment's tables built on `threads` threads (0: one
    /// per core; 1: on the calling thread alone): the same index, the same errors. Only with
    /// the `parallel` feature (native code: it uses `std`).
    ///
    /// The tables are independent, so each thread builds whole tables; reading the items and
    /// sorting them by id stay on the calling thread. At most 256 threads are started, never
    /// more than the plan has tables.
    ///
    /// # Errors
    ///
    /// As [`Index::insert_many`]: [`Error::WidthMismatch`] when a fingerprint's width is not
    /// the index's, [`Error::OutOfMemory`] when memory runs out; either way nothing is stored.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let fp = |i: u64| Fingerprint::new(u128::from(i.wrapping_mul(0x9e37_79b9_7f4a_7c15)), 64);
    /// let mut index = Index::new(64, 9)?;
    /// index.insert_many_parallel((0..10_000u64).map(|i| (i, fp(i).unwrap())), 0)?;
    /// assert_eq!((index.len(), index.segments()), (10_000, 1));
    /// assert_eq!(index.get(7), Some(fp(7)?));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn insert_many_parallel(
        &mut self,
        items: impl IntoIterator<Item = (u64, Fingerprint)>,
        threads: usize,
    ) -> Result<(), Error> {
        self.insert_boxed(alloc::boxed::Box::new(items.into_iter()), threads)
    }
}
