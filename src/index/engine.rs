//! The index for one fingerprint type (`u64` up to 64 bits, `u128` above): the insert buffer,
//! the segments and how they grow and merge, and the queries, pairs and clusters over them.

use alloc::vec::Vec;

use super::bits::Bits;
use super::clusters::Groups;
use super::fallible::{collect, try_vec_with_capacity};
use super::plan::Plan;
use super::results::{Candidate, Match, Pair};
use super::segment::Segment;
use super::top_k::TopK;
use super::MAX_PAIRS;
use crate::error::Error;
use crate::sort;

/// New fingerprints wait here, scanned by queries, until there are this many.
pub(super) const BUFFER: usize = 256;

/// Pairs collected in the first pass of [`Index::pairs`]: an answer of up to this many (12 MB
/// of pairs) takes one walk; a larger one is counted first and collected in a second walk at
/// its exact size, so a refused call ([`Error::TooManyPairs`]) holds no more than this many.
///
/// [`Index::pairs`]: super::Index::pairs
const ONE_PASS_PAIRS: usize = 1 << 19;

/// Positions of the last occurrence of each id, by id: the last of repeated ids wins, as
/// with one insert after another.
fn last_of_each_id(ids: &[u64]) -> Result<Vec<usize>, Error> {
    // (id, position counted back from the end): by id, and its last occurrence first.
    let mut order = try_vec_with_capacity(ids.len())?;
    order.extend(
        ids.iter()
            .enumerate()
            .map(|(i, &id)| (id, u64::MAX - sort::position(i))),
    );
    sort::sort(&mut order);
    order.dedup_by_key(|e| e.0);
    collect(
        order.len(),
        order
            .iter()
            .map(|&(_, back)| sort::from_position(u64::MAX - back)),
    )
}

/// A pair as the order of answers sees it: (distance, smaller id, larger id).
type PairKey = (u32, u64, u64);

/// Hits of one query in a segment, `(id, distance)`, by id, each id once (several tables may
/// find it). Distances are widened so the pairs sort as the crate's others (see `sort`).
fn by_id_once(hits: &mut Vec<(u64, u64)>) {
    sort::sort(hits);
    hits.dedup();
}

/// A distance back from a pair where [`by_id_once`] or a [`TopK`] widened it.
#[allow(
    clippy::cast_possible_truncation,
    reason = "distances are at most 128, widened from u32"
)]
fn narrow(d: u64) -> u32 {
    d as u32
}

/// The width-specific engine: `u64` fingerprints up to 64 bits, `u128` above.
#[derive(Clone, Debug)]
pub(super) struct Engine<B> {
    pub(super) width: u32,
    pub(super) k: u32,
    pub(super) explicit: Option<Plan>,
    pub(super) segments: Vec<Segment<B>>,
    pub(super) buffer: Vec<(u64, B)>,
    pub(super) len: usize,
    /// Segments merge only while the merged one would hold at most this many fingerprints
    /// (`Index::set_merge_limit`).
    pub(super) merge_limit: usize,
}

impl<B: Bits> Engine<B> {
    pub(super) fn new(width: u32, k: u32, explicit: Option<Plan>) -> Engine<B> {
        Engine {
            width,
            k,
            explicit,
            segments: Vec::new(),
            buffer: Vec::new(),
            len: 0,
            merge_limit: usize::MAX,
        }
    }

    pub(super) fn plan_for(&self, n: usize) -> Plan {
        self.explicit
            .clone()
            .unwrap_or_else(|| Plan::auto(self.width, self.k, n))
    }

    pub(super) fn get(&self, id: u64) -> Option<B> {
        if let Some(&(_, fp)) = self.buffer.iter().find(|e| e.0 == id) {
            return Some(fp);
        }
        self.segments
            .iter()
            .find_map(|s| s.find(id).map(|slot| s.fp(slot)))
    }

    /// Kills `id` in the segment holding it, rebuilding that segment when it is mostly dead
    /// (so dead slots stop costing memory and scan time; a rebuild that finds no memory is
    /// skipped, as it changes no answer).
    pub(super) fn kill(&mut self, id: u64) -> Option<B> {
        for i in 0..self.segments.len() {
            let Some(slot) = self.segments[i].find(id) else {
                continue;
            };
            let fp = self.segments[i].fp(slot);
            self.segments[i].kill(slot);
            self.len -= 1;
            let seg = &self.segments[i];
            if seg.dead_count() > seg.live() && seg.dead_count() >= BUFFER {
                if let Ok(live) = collect(seg.live(), seg.entries()) {
                    let plan = self.plan_for(live.len());
                    if let Ok(rebuilt) = Segment::build(plan, live) {
                        self.segments[i] = rebuilt;
                    }
                }
            }
            return Some(fp);
        }
        None
    }

    pub(super) fn remove(&mut self, id: u64) -> Option<B> {
        if let Some(i) = self.buffer.iter().position(|e| e.0 == id) {
            self.len -= 1;
            return Some(self.buffer.swap_remove(i).1);
        }
        self.kill(id)
    }

    pub(super) fn insert(&mut self, id: u64, fp: B) -> Result<Option<B>, Error> {
        // Room first, so a failure changes nothing.
        self.buffer.try_reserve(1).map_err(|_| Error::OutOfMemory {
            bytes: (self.buffer.len() + 1) * core::mem::size_of::<(u64, B)>(),
        })?;
        let old = self.remove(id);
        self.buffer.push((id, fp));
        self.len += 1;
        if self.buffer.len() >= BUFFER {
            // A full buffer becomes a segment; without the memory for one it stays a buffer,
            // which queries scan, and the next insert tries again.
            if let Ok(entries) = collect(self.buffer.len(), self.buffer.iter().copied()) {
                if let Ok(segment) = Segment::build(self.plan_for(entries.len()), entries) {
                    self.buffer.clear();
                    self.push_segment(segment);
                }
            }
        }
        Ok(old)
    }

    /// Adds a built segment (of ids stored nowhere else), then merges while the newest
    /// segment is at least half the size of the one before it. A merge that finds no memory
    /// leaves the two segments as they are: more segments, the same answers.
    pub(super) fn push_segment(&mut self, segment: Segment<B>) {
        self.segments.push(segment);
        while self.segments.len() >= 2 {
            let n = self.segments.len();
            let (a, b) = (&self.segments[n - 2], &self.segments[n - 1]);
            if a.live() > 2 * b.live() || a.live() + b.live() > self.merge_limit {
                break;
            }
            let Ok(merged) = collect(a.live() + b.live(), a.entries().chain(b.entries())) else {
                break;
            };
            let Ok(merged) = Segment::build(self.plan_for(merged.len()), merged) else {
                break;
            };
            self.segments.truncate(n - 2);
            self.segments.push(merged);
        }
    }

    /// Stores a batch; on an error (no memory for it) nothing changes.
    pub(super) fn insert_many(&mut self, batch: Vec<(u64, B)>) -> Result<(), Error> {
        self.insert_many_with(batch, 1)
    }

    /// [`Engine::insert_many`] with the segment's tables built on `threads` threads.
    pub(super) fn insert_many_with(
        &mut self,
        batch: Vec<(u64, B)>,
        threads: usize,
    ) -> Result<(), Error> {
        // The last fingerprint of each id, by id.
        let mut ids = try_vec_with_capacity(batch.len())?;
        ids.extend(batch.iter().map(|e| e.0));
        let last = last_of_each_id(&ids)?;
        let mut fresh = try_vec_with_capacity(last.len())?;
        fresh.extend(last.iter().map(|&i| ids[i]));
        drop(ids);
        let mut entries = try_vec_with_capacity(fresh.len() + self.buffer.len())?;
        entries.extend(last.iter().map(|&i| batch[i]));
        drop((batch, last));
        // Buffered ids the batch does not replace join it.
        let before = entries.len();
        entries.extend(
            self.buffer
                .iter()
                .filter(|e| fresh.binary_search(&e.0).is_err()),
        );
        let replaced_in_buffer = self.buffer.len() - (entries.len() - before);
        let segment = if entries.len() >= BUFFER {
            let plan = self.plan_for(entries.len());
            Some(Segment::build_with(
                plan,
                core::mem::take(&mut entries),
                threads,
            )?)
        } else {
            None
        };
        // Built: from here on nothing can fail.
        self.len -= replaced_in_buffer;
        self.buffer.clear();
        for &id in &fresh {
            self.kill(id);
        }
        self.len += fresh.len();
        match segment {
            Some(segment) => self.push_segment(segment),
            None => self.buffer = entries,
        }
        Ok(())
    }

    pub(super) fn clear(&mut self) {
        self.segments.clear();
        self.buffer.clear();
        self.len = 0;
    }

    /// Every live `(id, fp)`, in no particular order.
    pub(super) fn entries(&self) -> impl Iterator<Item = (u64, B)> + '_ {
        self.segments
            .iter()
            .flat_map(|s| s.entries())
            .chain(self.buffer.iter().copied())
    }

    pub(super) fn examine(&self, q: B, k: u32) -> Vec<Candidate> {
        let mut out = Vec::new();
        for (segment, s) in self.segments.iter().enumerate() {
            let mut seen = |id, distance, table, probe| {
                out.push(Candidate {
                    id,
                    distance,
                    segment: Some(u32::try_from(segment).unwrap_or(u32::MAX)),
                    table,
                    probe,
                    accepted: distance <= k,
                });
            };
            if k <= self.k {
                s.examine(q, k, &mut seen);
            } else {
                // Beyond the tables' k the query scans.
                s.scan(q, u32::MAX, &mut |id, d| seen(id, d, None, None));
            }
        }
        for &(id, fp) in &self.buffer {
            let distance = fp.distance(q);
            out.push(Candidate {
                id,
                distance,
                segment: None,
                table: None,
                probe: None,
                accepted: distance <= k,
            });
        }
        out
    }

    /// Merges the buffer and every segment into one segment planned for the total; on an
    /// error (no memory for it) nothing changes.
    pub(super) fn compact(&mut self) -> Result<(), Error> {
        let all = collect(self.len, self.entries())?;
        let segment = if all.is_empty() {
            None
        } else {
            Some(Segment::build(self.plan_for(all.len()), all)?)
        };
        self.segments.clear();
        self.buffer.clear();
        self.segments.extend(segment);
        Ok(())
    }

    /// The first `limit` matches within `k` by (distance, id); `usize::MAX` for all of them.
    pub(super) fn query(&self, q: B, k: u32, limit: usize) -> Result<Vec<Match>, Error> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let mut nearest = TopK::new(limit);
        let mut failed = Ok(());
        let mut found = |id, distance| {
            if failed.is_ok() {
                failed = nearest.offer((u64::from(distance), id));
            }
        };
        for s in &self.segments {
            if k <= self.k {
                s.query(q, k, &mut found);
            } else {
                // Beyond the tables' k: scan, still exact.
                s.scan(q, k, &mut found);
            }
        }
        for &(id, fp) in &self.buffer {
            let d = fp.distance(q);
            if d <= k {
                found(id, d);
            }
        }
        failed?;
        Ok(nearest
            .finish()
            .into_iter()
            .map(|(distance, id)| Match {
                id,
                distance: narrow(distance),
            })
            .collect())
    }

    /// Calls `found(a, b, distance)` once for each pair of stored fingerprints within `k`, in
    /// no particular order, holding nothing per pair, until `found` returns false. (`dyn`: one
    /// copy of this code per fingerprint type, not one per caller, which keeps the wasm
    /// smaller.)
    pub(super) fn for_each_pair(
        &self,
        k: u32,
        found: &mut dyn FnMut(u64, u64, u32) -> bool,
    ) -> Result<(), Error> {
        if k > self.k {
            // The tables cannot find these; a temporary engine planned for k can.
            let mut wider = Engine::<B>::new(self.width, k, None);
            wider.insert_many(collect(self.len, self.entries())?)?;
            return wider.for_each_pair(k, found);
        }
        let mut go = true;
        let mut hits = Vec::new();
        for (i, s) in self.segments.iter().enumerate() {
            s.pairs(k, &mut |a, b, d| {
                go = found(a, b, d);
                go
            });
            // Pairs across segments: each live entry of the smaller against the larger.
            for other in &self.segments[i + 1..] {
                let (small, large) = if s.live() <= other.live() {
                    (s, other)
                } else {
                    (other, s)
                };
                for (id, fp) in small.entries() {
                    if !go {
                        return Ok(());
                    }
                    hits.clear();
                    large.query(fp, k, &mut |other_id, d| {
                        hits.push((other_id, u64::from(d)))
                    });
                    by_id_once(&mut hits);
                    for &(other_id, d) in &hits {
                        go = go && found(id, other_id, narrow(d));
                    }
                }
            }
        }
        for (i, &(id, fp)) in self.buffer.iter().enumerate() {
            for &(other_id, other_fp) in &self.buffer[i + 1..] {
                let d = fp.distance(other_fp);
                if d <= k {
                    go = go && found(id, other_id, d);
                }
            }
            hits.clear();
            for s in &self.segments {
                s.query(fp, k, &mut |other_id, d| {
                    hits.push((other_id, u64::from(d)))
                });
            }
            by_id_once(&mut hits);
            for &(other_id, d) in &hits {
                go = go && found(id, other_id, narrow(d));
            }
            if !go {
                return Ok(());
            }
        }
        Ok(())
    }

    /// The first `limit` pairs within `k` by (distance, a, b), in memory `O(limit)`; with
    /// `limit = usize::MAX`, all of them unless there are more than [`MAX_PAIRS`], which is an
    /// error. All of them are collected in one walk while they are at most [`ONE_PASS_PAIRS`];
    /// past that the walk goes on counting only, and a second walk collects them at their
    /// exact size if they are not too many, so an answer too large to list costs a bounded
    /// amount of memory (in wasm, memory once grown stays grown).
    pub(super) fn pairs(&self, k: u32, limit: usize) -> Result<Vec<Pair>, Error> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let keys = if limit == usize::MAX {
            self.all_pairs(k)?
        } else {
            let mut top = TopK::new(limit);
            let mut failed = Ok(());
            self.for_each_pair(k, &mut |a, b, distance| {
                failed = top.offer((distance, a.min(b), a.max(b)));
                failed.is_ok()
            })?;
            failed?;
            top.finish()
        };
        Ok(keys
            .into_iter()
            .map(|(distance, a, b)| Pair { a, b, distance })
            .collect())
    }

    /// Every pair within `k` as sorted, distinct keys (see [`Engine::pairs`]).
    fn all_pairs(&self, k: u32) -> Result<Vec<PairKey>, Error> {
        let collect = |held: &mut Vec<PairKey>, cap: usize| -> Result<usize, Error> {
            let (mut failed, mut count) = (Ok(()), 0usize);
            self.for_each_pair(k, &mut |a, b, distance| {
                count += 1;
                if count > cap {
                    // Too many to hold: count the rest (and stop past the most allowed).
                    return count <= MAX_PAIRS;
                }
                // Fallible growth: a failure is an error rather than an abort.
                if held.try_reserve(1).is_err() {
                    failed = Err(Error::OutOfMemory {
                        bytes: held
                            .len()
                            .saturating_mul(2 * core::mem::size_of::<PairKey>()),
                    });
                    return false;
                }
                held.push((distance, a.min(b), a.max(b)));
                true
            })?;
            failed.map(|()| count)
        };
        let mut held = Vec::new();
        let count = collect(&mut held, ONE_PASS_PAIRS)?;
        if count > MAX_PAIRS {
            return Err(Error::TooManyPairs { k, max: MAX_PAIRS });
        }
        if count > ONE_PASS_PAIRS {
            drop(held);
            held = try_vec_with_capacity(count)?;
            collect(&mut held, count)?;
        }
        sort::sort(&mut held);
        held.dedup();
        Ok(held)
    }

    /// Connected groups of ids under "within `k`" (see [`Groups`]).
    pub(super) fn clusters(&self, k: u32) -> Result<Vec<Vec<u64>>, Error> {
        let mut groups = Groups::new(collect(
            self.len,
            self.entries().map(|(id, fp)| (fp.to_u128(), id)),
        )?)?;
        if groups.distinct.len() > 1 {
            let mut reps = Engine::<B>::new(self.width, k, None);
            reps.insert_many(collect(
                groups.distinct.len(),
                groups
                    .distinct
                    .iter()
                    .map(|&(i, v)| (i as u64, B::from_u128(v))),
            )?)?;
            #[allow(
                clippy::cast_possible_truncation,
                reason = "the representatives' ids are positions in `groups`"
            )]
            reps.for_each_pair(k, &mut |a, b, _| {
                groups.join(a as usize, b as usize);
                true
            })?;
        }
        Ok(groups.finish())
    }

    /// What [`Engine::bytes`] reports after `n` fingerprints are loaded into this empty
    /// engine with one [`Engine::insert_many`]: a buffer below [`BUFFER`], else one segment
    /// (in a vector of the four a first push reserves).
    pub(super) fn bytes_after_load(&self, n: usize) -> usize {
        if n < BUFFER {
            n * core::mem::size_of::<(u64, B)>()
        } else {
            Segment::<B>::bytes_for(&self.plan_for(n), n)
                .saturating_add(4 * core::mem::size_of::<Segment<B>>())
        }
    }

    pub(super) fn bytes(&self) -> usize {
        self.segments.iter().map(Segment::bytes).sum::<usize>()
            + self.segments.capacity() * core::mem::size_of::<Segment<B>>()
            + self.buffer.capacity() * core::mem::size_of::<(u64, B)>()
    }
}
