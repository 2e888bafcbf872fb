//! Near-duplicate lookup: every stored fingerprint within Hamming distance `k` of a query,
//! exactly, with the permuted-table method of Manku, Jain and Das Sarma (WWW 2007).
//!
//! The index is a log-structured set of immutable [segments](segment): new fingerprints go to
//! a small buffer that queries scan; a full buffer becomes a segment with its own tables
//! (planned for its size by [`Plan::auto`]); segments of similar size are merged, so there
//! are `O(log n)` of them and each fingerprint is rebuilt `O(log n)` times. A bulk
//! [`Index::insert_many`] builds one segment directly. Removal marks a slot dead; merges and
//! rebuilds drop dead slots.

pub mod bytes;
pub mod plan;
mod segment;

use alloc::vec::Vec;

use self::plan::{check_k, Plan};
use self::segment::{try_vec_with_capacity, Bits, Segment};
use crate::error::Error;
use crate::fingerprint::Fingerprint;

/// The `k` an index is built for when its user gives none (the JavaScript `Index`).
///
/// ```
/// assert_eq!(simprint::index::DEFAULT_K, 3);
/// ```
pub const DEFAULT_K: u32 = 3;

/// New fingerprints wait here, scanned by queries, until there are this many.
const BUFFER: usize = 256;

/// Most pairs [`Index::pairs`] and [`Index::pairs_within`] list (4,194,304, about 100 MB of
/// [`Pair`]s): past it they return [`Error::TooLarge`] having held no more than this many.
/// [`Index::pairs_limited`] returns the first pairs of any answer, and
/// [`Index::for_each_pair`] visits every pair holding none.
pub const MAX_PAIRS: usize = 1 << 22;

/// Pairs collected in the first pass of [`Index::pairs`]: more are counted first and collected
/// in a second pass, so a failing call holds no more than this many.
const FEW_PAIRS: usize = 1 << 16;

/// One stored fingerprint found by a query.
///
/// ```
/// let m = simprint::Match { id: 7, distance: 2 };
/// assert_eq!((m.id, m.distance), (7, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Match {
    /// The id it was stored under.
    pub id: u64,
    /// Its Hamming distance to the query.
    pub distance: u32,
}

/// A stored fingerprint a query examined: where it was found and whether the distance check
/// accepted it (see [`Index::explain_query`]).
///
/// ```
/// let c = simprint::Candidate { id: 3, distance: 5, segment: Some(0), table: Some(2), accepted: false };
/// assert!(!c.accepted);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Candidate {
    /// The id it is stored under.
    pub id: u64,
    /// Its Hamming distance to the query.
    pub distance: u32,
    /// The segment holding it; `None` for the insert buffer, which is scanned.
    pub segment: Option<u32>,
    /// The table (index into the segment plan's tables) whose bucket held it; `None` when it
    /// was scanned (the buffer, a segment planned as a scan, or `k` above the index's `k`).
    pub table: Option<u32>,
    /// True when its distance is within the query's `k`.
    pub accepted: bool,
}

/// Two stored fingerprints within `k` of each other (`a < b`).
///
/// ```
/// let p = simprint::Pair { a: 1, b: 2, distance: 0 };
/// assert!(p.a < p.b);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pair {
    /// The smaller id.
    pub a: u64,
    /// The larger id.
    pub b: u64,
    /// Their Hamming distance.
    pub distance: u32,
}

// Sorting helpers outside the generic engine, so each is compiled once rather than once per
// fingerprint type (it keeps the wasm smaller).

/// The first `limit` keys in ascending order of a stream that may repeat a key (an id found
/// by several tables), in memory `O(limit)`: keys collect until there are twice `limit` (plus a
/// little, so tiny limits do not sort every few keys), then are sorted, deduplicated and cut
/// back to `limit`. Once `limit` distinct keys are held, the largest of them is a bound:
/// anything not below it cannot be in the answer and is dropped without being stored. Each cut
/// sorts `O(limit)` keys and drops at least `limit`, so the time is `O(m log limit)` for `m`
/// keys offered. Matches are keyed `(distance, id)`, pairs `(distance, a, b)`.
struct TopK<K> {
    limit: usize,
    cut_at: usize,
    held: Vec<K>,
    bound: Option<K>,
}

impl<K: Ord + Copy> TopK<K> {
    fn new(limit: usize) -> TopK<K> {
        TopK {
            limit,
            cut_at: limit.saturating_mul(2).max(limit.saturating_add(64)),
            held: Vec::new(),
            bound: None,
        }
    }

    // Called once per match, not per candidate: one out-of-line copy keeps the wasm smaller.
    #[inline(never)]
    fn offer(&mut self, key: K) -> Result<(), Error> {
        // Equal to the bound is the bound itself found again by another table.
        if self.bound.is_some_and(|b| key >= b) {
            return Ok(());
        }
        // Fallible growth: a failure is an error rather than an abort.
        self.held.try_reserve(1).map_err(|_| Error::OutOfMemory {
            bytes: self.held.len().saturating_mul(2 * core::mem::size_of::<K>()),
        })?;
        self.held.push(key);
        if self.held.len() >= self.cut_at {
            self.cut();
        }
        Ok(())
    }

    fn cut(&mut self) {
        self.held.sort_unstable();
        self.held.dedup();
        self.held.truncate(self.limit);
        if self.held.len() == self.limit {
            self.bound = self.held.last().copied();
        }
    }

    fn finish(mut self) -> Vec<K> {
        self.cut();
        self.held
    }
}

/// Positions of the last occurrence of each id, by id: the last of repeated ids wins, as
/// with one insert after another.
fn last_of_each_id(ids: &[u64]) -> Result<Vec<usize>, Error> {
    let mut order = try_vec_with_capacity(ids.len())?;
    order.extend(0..ids.len());
    order.sort_unstable_by_key(|&i| (ids[i], usize::MAX - i));
    order.dedup_by_key(|&mut i| ids[i]);
    Ok(order)
}

/// `n` items of `items` in a vector reserved fallibly.
fn collect<T>(n: usize, items: impl Iterator<Item = T>) -> Result<Vec<T>, Error> {
    let mut out = try_vec_with_capacity(n)?;
    out.extend(items);
    Ok(out)
}

fn sort_hits(hits: &mut Vec<(u64, u32)>) {
    hits.sort_unstable();
    hits.dedup();
}

/// Connected groups of ids under "within `k`", for [`Index::clusters_within`]: each group
/// sorted, groups by first id, ids with no neighbour left out. Memory is linear in the number
/// of fingerprints however many pairs there are: equal fingerprints are joined here directly,
/// and only one representative of each goes through an engine planned for `k`, whose pairs are
/// joined as they are found. (Not generic: one copy of this code in the wasm.)
struct Groups {
    /// (fingerprint, id), sorted.
    all: Vec<(u128, u64)>,
    parent: Vec<usize>,
    linked: Vec<bool>,
    /// (position in `all`, fingerprint) of the first of each run of equal fingerprints.
    distinct: Vec<(usize, u128)>,
}

impl Groups {
    fn new(mut all: Vec<(u128, u64)>) -> Result<Groups, Error> {
        all.sort_unstable();
        let n = all.len();
        let mut parent = try_vec_with_capacity(n)?;
        parent.extend(0..n);
        let mut linked = try_vec_with_capacity(n)?;
        linked.resize(n, false);
        let mut groups = Groups {
            parent,
            linked,
            distinct: Vec::new(),
            all: Vec::new(),
        };
        let mut i = 0;
        while i < n {
            let mut j = i + 1;
            while j < n && all[j].0 == all[i].0 {
                groups.join(i, j);
                j += 1;
            }
            groups
                .distinct
                .try_reserve(1)
                .map_err(|_| Error::OutOfMemory { bytes: n * 32 })?;
            groups.distinct.push((i, all[i].0));
            i = j;
        }
        groups.all = all;
        Ok(groups)
    }

    fn root(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a), self.root(b));
        self.parent[ra.max(rb)] = ra.min(rb);
        self.linked[a] = true;
        self.linked[b] = true;
    }

    fn finish(mut self) -> Vec<Vec<u64>> {
        let n = self.all.len();
        let mut group_of = alloc::vec![usize::MAX; n];
        let mut groups: Vec<Vec<u64>> = Vec::new();
        for t in 0..n {
            if !self.linked[t] {
                continue;
            }
            let r = self.root(t);
            if group_of[r] == usize::MAX {
                group_of[r] = groups.len();
                groups.push(Vec::new());
            }
            groups[group_of[r]].push(self.all[t].1);
        }
        for g in &mut groups {
            g.sort_unstable();
        }
        groups.sort_unstable_by_key(|g| g[0]);
        groups
    }
}

/// The width-specific engine: `u64` fingerprints up to 64 bits, `u128` above.
#[derive(Clone, Debug)]
struct Engine<B> {
    width: u32,
    k: u32,
    explicit: Option<Plan>,
    segments: Vec<Segment<B>>,
    buffer: Vec<(u64, B)>,
    len: usize,
}

impl<B: Bits> Engine<B> {
    fn new(width: u32, k: u32, explicit: Option<Plan>) -> Engine<B> {
        Engine {
            width,
            k,
            explicit,
            segments: Vec::new(),
            buffer: Vec::new(),
            len: 0,
        }
    }

    fn plan_for(&self, n: usize) -> Plan {
        self.explicit
            .clone()
            .unwrap_or_else(|| Plan::auto(self.width, self.k, n))
    }

    fn get(&self, id: u64) -> Option<B> {
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
    fn kill(&mut self, id: u64) -> Option<B> {
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

    fn remove(&mut self, id: u64) -> Option<B> {
        if let Some(i) = self.buffer.iter().position(|e| e.0 == id) {
            self.len -= 1;
            return Some(self.buffer.swap_remove(i).1);
        }
        self.kill(id)
    }

    fn insert(&mut self, id: u64, fp: B) -> Result<Option<B>, Error> {
        // Room first, so a failure changes nothing.
        self.buffer
            .try_reserve(1)
            .map_err(|_| Error::OutOfMemory {
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
    fn push_segment(&mut self, segment: Segment<B>) {
        self.segments.push(segment);
        while self.segments.len() >= 2 {
            let n = self.segments.len();
            let (a, b) = (&self.segments[n - 2], &self.segments[n - 1]);
            if a.live() > 2 * b.live() {
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
    fn insert_many(&mut self, batch: Vec<(u64, B)>) -> Result<(), Error> {
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
            Some(Segment::build(plan, core::mem::take(&mut entries))?)
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

    fn clear(&mut self) {
        self.segments.clear();
        self.buffer.clear();
        self.len = 0;
    }

    /// Every live `(id, fp)`, in no particular order.
    fn entries(&self) -> impl Iterator<Item = (u64, B)> + '_ {
        self.segments
            .iter()
            .flat_map(|s| s.entries())
            .chain(self.buffer.iter().copied())
    }

    fn examine(&self, q: B, k: u32) -> Vec<Candidate> {
        let mut out = Vec::new();
        for (segment, s) in self.segments.iter().enumerate() {
            let mut seen = |id, distance, table| {
                out.push(Candidate {
                    id,
                    distance,
                    segment: Some(segment as u32),
                    table,
                    accepted: distance <= k,
                });
            };
            if k <= self.k {
                s.examine(q, &mut seen);
            } else {
                // Beyond the tables' k the query scans.
                s.scan(q, u32::MAX, &mut |id, d| seen(id, d, None));
            }
        }
        for &(id, fp) in &self.buffer {
            let distance = fp.distance(q);
            out.push(Candidate {
                id,
                distance,
                segment: None,
                table: None,
                accepted: distance <= k,
            });
        }
        out
    }

    /// Merges the buffer and every segment into one segment planned for the total; on an
    /// error (no memory for it) nothing changes.
    fn compact(&mut self) -> Result<(), Error> {
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
    fn query(&self, q: B, k: u32, limit: usize) -> Result<Vec<Match>, Error> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let mut nearest = TopK::new(limit);
        let mut failed = Ok(());
        let mut found = |id, distance| {
            if failed.is_ok() {
                failed = nearest.offer((distance, id));
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
            .map(|(distance, id)| Match { id, distance })
            .collect())
    }

    /// Calls `found(a, b, distance)` once for each pair of stored fingerprints within `k`, in
    /// no particular order, holding nothing per pair, until `found` returns false. (`dyn`: one
    /// copy of this code per fingerprint type, not one per caller, which keeps the wasm
    /// smaller.)
    fn for_each_pair(&self, k: u32, found: &mut dyn FnMut(u64, u64, u32) -> bool) -> Result<(), Error> {
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
                    large.query(fp, k, &mut |other_id, d| hits.push((other_id, d)));
                    sort_hits(&mut hits);
                    for &(other_id, d) in &hits {
                        go = go && found(id, other_id, d);
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
                s.query(fp, k, &mut |other_id, d| hits.push((other_id, d)));
            }
            sort_hits(&mut hits);
            for &(other_id, d) in &hits {
                go = go && found(id, other_id, d);
            }
            if !go {
                return Ok(());
            }
        }
        Ok(())
    }

    /// The first `limit` pairs within `k` by (distance, a, b), in memory `O(limit)`; with
    /// `limit = usize::MAX`, all of them unless there are more than [`MAX_PAIRS`], which is an
    /// error. All of them are collected in one pass while they are few; past [`FEW_PAIRS`] the
    /// pass goes on counting only, and a second pass collects them if they are not too many,
    /// so an answer too large to list costs no more memory than a small one.
    fn pairs(&self, k: u32, limit: usize) -> Result<Vec<Pair>, Error> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let all = limit == usize::MAX;
        let collect_pairs = |cap: usize| -> Result<(TopK<(u32, u64, u64)>, usize), Error> {
            let mut top = TopK::new(if all { cap } else { limit });
            let (mut failed, mut count) = (Ok(()), 0usize);
            self.for_each_pair(k, &mut |a, b, distance| {
                count += 1;
                if all && count > cap {
                    // Too many to hold: count the rest (and stop past the most allowed).
                    return count <= MAX_PAIRS;
                }
                failed = top.offer((distance, a.min(b), a.max(b)));
                failed.is_ok()
            })?;
            failed?;
            Ok((top, count))
        };
        let (mut top, count) = collect_pairs(FEW_PAIRS)?;
        if all && count > MAX_PAIRS {
            return Err(Error::TooLarge(alloc::format!(
                "pairs: more than {MAX_PAIRS} pairs are within {k}; ask for the first of them \
                 with a limit, or group them with clusters(), which needs no list of pairs"
            )));
        }
        if all && count > FEW_PAIRS {
            drop(top);
            top = collect_pairs(count)?.0;
        }
        Ok(top
            .finish()
            .into_iter()
            .map(|(distance, a, b)| Pair { a, b, distance })
            .collect())
    }

    /// Connected groups of ids under "within `k`" (see [`Groups`]).
    fn clusters(&self, k: u32) -> Result<Vec<Vec<u64>>, Error> {
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
    fn bytes_after_load(&self, n: usize) -> usize {
        if n < BUFFER {
            n * core::mem::size_of::<(u64, B)>()
        } else {
            Segment::<B>::bytes_for(&self.plan_for(n), n)
                .saturating_add(4 * core::mem::size_of::<Segment<B>>())
        }
    }

    fn bytes(&self) -> usize {
        self.segments.iter().map(Segment::bytes).sum::<usize>()
            + self.segments.capacity() * core::mem::size_of::<Segment<B>>()
            + self.buffer.capacity() * core::mem::size_of::<(u64, B)>()
    }
}

#[derive(Clone, Debug)]
enum Inner {
    Narrow(Engine<u64>),
    Wide(Engine<u128>),
}

/// Runs `$body` with `$e` bound to the width-specific engine.
macro_rules! engine {
    ($self:expr, $e:ident => $body:expr) => {
        match $self {
            Inner::Narrow($e) => $body,
            Inner::Wide($e) => $body,
        }
    };
}

/// An exact near-duplicate index: stores `(id, fingerprint)` pairs and finds every stored
/// fingerprint within Hamming distance `k` of a query.
///
/// Ids are `u64`; each id holds one fingerprint (inserting an existing id replaces it), and
/// the same fingerprint may be stored under many ids.
///
/// ```
/// use simprint::{Fingerprint, Index, Match};
/// let mut index = Index::new(64, 3)?;
/// let fp = |v| Fingerprint::new(v, 64);
/// index.insert(1, fp(0b1011)?)?;
/// index.insert(2, fp(0b1000)?)?;   // 2 bits from id 1
/// index.insert(3, fp(u64::MAX as u128)?)?;
/// assert_eq!(
///     index.query(fp(0b1010)?)?,
///     [Match { id: 1, distance: 1 }, Match { id: 2, distance: 1 }]
/// );
/// assert_eq!(index.pairs()?.len(), 1);
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Index {
    inner: Inner,
}

impl Index {
    /// An empty index of `width`-bit fingerprints (1 to 128) that finds everything within `k`
    /// (0 to `width`). It plans its tables itself as it grows.
    ///
    /// ```
    /// assert!(simprint::Index::new(64, 3).is_ok());
    /// assert!(simprint::Index::new(64, 65).is_err());
    /// ```
    pub fn new(width: u32, k: u32) -> Result<Index, Error> {
        check_k(width, k)?;
        Ok(Index::from_engine(width, k, None))
    }

    /// An empty index that uses `plan` for every segment (small buffers are still scanned).
    ///
    /// ```
    /// use simprint::{Index, Plan};
    /// let index = Index::with_plan(Plan::with_blocks(64, 3, 5)?)?;
    /// assert_eq!(index.plan().tables().len(), 10);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn with_plan(plan: Plan) -> Result<Index, Error> {
        check_k(plan.width(), plan.k())?;
        Ok(Index::from_engine(plan.width(), plan.k(), Some(plan)))
    }

    fn from_engine(width: u32, k: u32, explicit: Option<Plan>) -> Index {
        let inner = if width <= 64 {
            Inner::Narrow(Engine::new(width, k, explicit))
        } else {
            Inner::Wide(Engine::new(width, k, explicit))
        };
        Index { inner }
    }

    /// The fingerprint width.
    ///
    /// ```
    /// assert_eq!(simprint::Index::new(128, 3)?.width(), 128);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn width(&self) -> u32 {
        engine!(&self.inner, e => e.width)
    }

    /// The distance the index is built to find.
    ///
    /// ```
    /// assert_eq!(simprint::Index::new(64, 3)?.k(), 3);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn k(&self) -> u32 {
        engine!(&self.inner, e => e.k)
    }

    /// The plan for the current size: the explicit one, or what [`Plan::auto`] picks for
    /// [`Index::len`] fingerprints (the largest segment was built with it or one like it).
    ///
    /// ```
    /// let index = simprint::Index::new(64, 3)?;
    /// assert!(index.plan().is_scan()); // empty: nothing to look up
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn plan(&self) -> Plan {
        self.plan_for_len(self.len())
    }

    /// The plan a segment of `n` fingerprints gets.
    fn plan_for_len(&self, n: usize) -> Plan {
        engine!(&self.inner, e => e.plan_for(n))
    }

    /// How many segments (immutable runs with their own tables) the index has now.
    ///
    /// ```
    /// assert_eq!(simprint::Index::new(64, 3)?.segments(), 0);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn segments(&self) -> usize {
        engine!(&self.inner, e => e.segments.len())
    }

    /// Number of stored ids.
    ///
    /// ```
    /// let mut index = simprint::Index::new(64, 3)?;
    /// index.insert(9, simprint::Fingerprint::new(1, 64)?)?;
    /// assert_eq!(index.len(), 1);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        engine!(&self.inner, e => e.len)
    }

    /// True when nothing is stored.
    ///
    /// ```
    /// assert!(simprint::Index::new(64, 3)?.is_empty());
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn check(&self, fp: &Fingerprint) -> Result<u128, Error> {
        if fp.width() != self.width() {
            return Err(Error::WidthMismatch(fp.width(), self.width()));
        }
        Ok(fp.value())
    }

    /// Stores `fp` under `id`, returning the fingerprint `id` held before, if any.
    ///
    /// Fails if `fp`'s width is not the index's.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// assert_eq!(index.insert(1, Fingerprint::new(5, 64)?)?, None);
    /// assert_eq!(index.insert(1, Fingerprint::new(6, 64)?)?, Some(Fingerprint::new(5, 64)?));
    /// assert!(index.insert(2, Fingerprint::new(5, 128)?).is_err());
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn insert(&mut self, id: u64, fp: Fingerprint) -> Result<Option<Fingerprint>, Error> {
        let v = self.check(&fp)?;
        let width = self.width();
        let old =
            engine!(&mut self.inner, e => e.insert(id, Bits::from_u128(v))?.map(Bits::to_u128));
        Ok(old.map(|v| Fingerprint::from_parts(v, width)))
    }

    /// Stores many `(id, fingerprint)` pairs at once, building one segment for them: much
    /// faster than one [`Index::insert`] at a time. A repeated id keeps its last fingerprint.
    ///
    /// Checks every fingerprint first: on an error nothing is stored.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// let items = (0..1000u64).map(|i| (i, Fingerprint::new(u128::from(i) << 20, 64).unwrap()));
    /// index.insert_many(items)?;
    /// assert_eq!(index.len(), 1000);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn insert_many(
        &mut self,
        items: impl IntoIterator<Item = (u64, Fingerprint)>,
    ) -> Result<(), Error> {
        let items = items.into_iter();
        let mut values = try_vec_with_capacity(items.size_hint().0)?;
        for (id, fp) in items {
            let v = self.check(&fp)?;
            values.try_reserve(1).map_err(|_| Error::OutOfMemory {
                bytes: values.len().saturating_mul(2 * 24),
            })?;
            values.push((id, v));
        }
        engine!(&mut self.inner, e => {
            let batch = collect(values.len(), values.iter().map(|&(id, v)| (id, Bits::from_u128(v))))?;
            drop(values);
            e.insert_many(batch)
        })
    }

    /// Removes `id`, returning its fingerprint if it was stored.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// index.insert(4, Fingerprint::new(1, 64)?)?;
    /// assert!(index.remove(4).is_some());
    /// assert!(index.remove(4).is_none());
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn remove(&mut self, id: u64) -> Option<Fingerprint> {
        let width = self.width();
        let old = engine!(&mut self.inner, e => e.remove(id).map(Bits::to_u128));
        old.map(|v| Fingerprint::from_parts(v, width))
    }

    /// The fingerprint stored under `id`.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// index.insert(4, Fingerprint::new(1, 64)?)?;
    /// assert_eq!(index.get(4), Some(Fingerprint::new(1, 64)?));
    /// assert_eq!(index.get(5), None);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn get(&self, id: u64) -> Option<Fingerprint> {
        let width = self.width();
        engine!(&self.inner, e => e.get(id).map(|v| Fingerprint::from_parts(v.to_u128(), width)))
    }

    /// Removes everything, keeping the width, `k` and any explicit plan.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// index.insert(4, Fingerprint::new(1, 64)?)?;
    /// index.clear();
    /// assert!(index.is_empty());
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn clear(&mut self) {
        engine!(&mut self.inner, e => e.clear())
    }

    /// Every stored `(id, fingerprint)`, sorted by id.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(8, 1)?;
    /// index.insert(2, Fingerprint::new(1, 8)?)?;
    /// index.insert(1, Fingerprint::new(3, 8)?)?;
    /// let ids: Vec<u64> = index.entries().iter().map(|e| e.0).collect();
    /// assert_eq!(ids, [1, 2]);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn entries(&self) -> Vec<(u64, Fingerprint)> {
        let width = self.width();
        let mut out: Vec<(u64, Fingerprint)> = engine!(&self.inner, e => e
            .entries()
            .map(|(id, v)| (id, Fingerprint::from_parts(v.to_u128(), width)))
            .collect());
        out.sort_unstable_by_key(|e| e.0);
        out
    }

    /// Every stored fingerprint within the index's `k` of `fp`, sorted by distance, then id.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// index.insert(1, Fingerprint::new(0b111, 64)?)?;
    /// assert_eq!(index.query(Fingerprint::new(0, 64)?)?.len(), 1);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn query(&self, fp: Fingerprint) -> Result<Vec<Match>, Error> {
        self.query_within(fp, self.k())
    }

    /// Every stored fingerprint within `k` of `fp` (any `k` from 0 to the width; above the
    /// index's `k` it scans, still exactly), sorted by distance, then id.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// index.insert(1, Fingerprint::new(0b111, 64)?)?;
    /// let q = Fingerprint::new(0, 64)?;
    /// assert!(index.query_within(q, 2)?.is_empty());
    /// assert_eq!(index.query_within(q, 10)?.len(), 1);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn query_within(&self, fp: Fingerprint, k: u32) -> Result<Vec<Match>, Error> {
        let v = self.check(&fp)?;
        check_k(self.width(), k)?;
        engine!(&self.inner, e => e.query(Bits::from_u128(v), k, usize::MAX))
    }

    /// The first `limit` of [`Index::query_within`]'s answer (the nearest, ties by id), without
    /// collecting the whole answer: memory is `O(limit)` however many stored fingerprints are
    /// within `k`, so a query against thousands of copies of one text stays cheap when the
    /// caller only wants a page of them. The candidates the tables find are still all checked.
    /// A `limit` of 0 returns nothing (after checking `fp` and `k`); a `limit` above the number
    /// of matches returns them all.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index, Match};
    /// let mut index = Index::new(64, 3)?;
    /// let fp = |v| Fingerprint::new(v, 64);
    /// for id in 0..1000 {
    ///     index.insert(id, fp(0b1)?)?; // a thousand copies, 1 bit from the query
    /// }
    /// index.insert(5000, fp(0)?)?;
    /// let first = index.query_limited(fp(0)?, 3, 3)?;
    /// let m = |id, distance| Match { id, distance };
    /// assert_eq!(first, [m(5000, 0), m(0, 1), m(1, 1)]);
    /// assert_eq!(first, index.query_within(fp(0)?, 3)?[..3]);
    /// assert!(index.query_limited(fp(0)?, 3, 0)?.is_empty());
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn query_limited(
        &self,
        fp: Fingerprint,
        k: u32,
        limit: usize,
    ) -> Result<Vec<Match>, Error> {
        let v = self.check(&fp)?;
        check_k(self.width(), k)?;
        engine!(&self.inner, e => e.query(Bits::from_u128(v), k, limit))
    }

    /// Every fingerprint a query within `k` examines, in the order it examines them, with the
    /// table that found it and whether the distance check accepted it: the lookup made
    /// visible, for teaching and debugging. An id may appear once per table that holds it in
    /// the query's bucket. The accepted ones, deduplicated, are [`Index::query_within`]'s answer.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index, Plan};
    /// let mut index = Index::with_plan(Plan::with_blocks(64, 3, 4)?)?;
    /// index.insert_many((0..300u64).map(|i| (i, Fingerprint::new(u128::from(i), 64).unwrap())))?;
    /// index.compact();
    /// let seen = index.explain_query(Fingerprint::new(0, 64)?, 3)?;
    /// assert!(seen.iter().all(|c| c.table.is_some()));
    /// assert!(seen.iter().any(|c| !c.accepted)); // same bucket, too far
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn explain_query(&self, fp: Fingerprint, k: u32) -> Result<Vec<Candidate>, Error> {
        let v = self.check(&fp)?;
        check_k(self.width(), k)?;
        Ok(engine!(&self.inner, e => e.examine(Bits::from_u128(v), k)))
    }

    /// Merges everything into one segment planned for the total size: the fastest layout
    /// for queries after loading (bulk loads with [`Index::insert_many`] are one already).
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// for i in 0..1000u64 {
    ///     index.insert(i, Fingerprint::new(u128::from(i) << 40, 64)?)?;
    /// }
    /// index.compact()?;
    /// assert_eq!(index.segments(), 1);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    ///
    /// Fails with [`Error::OutOfMemory`], changing nothing, when memory cannot hold the
    /// merged segment beside the current ones.
    pub fn compact(&mut self) -> Result<(), Error> {
        engine!(&mut self.inner, e => e.compact())
    }

    /// Every pair of stored fingerprints within the index's `k`, sorted by distance, then ids.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// for (id, v) in [(1, 0b0), (2, 0b1), (3, 0xffff)] {
    ///     index.insert(id, Fingerprint::new(v, 64)?)?;
    /// }
    /// assert_eq!(index.pairs()?, [simprint::Pair { a: 1, b: 2, distance: 1 }]);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn pairs(&self) -> Result<Vec<Pair>, Error> {
        self.pairs_within(self.k())
    }

    /// Every pair within `k` (above the index's `k`, a temporary index planned for `k` is
    /// built for the purpose), sorted by distance, then ids.
    ///
    /// More than [`MAX_PAIRS`] pairs is an [`Error::TooLarge`], found while holding at most
    /// that many: ask for the first ones with [`Index::pairs_limited`], visit them all with
    /// [`Index::for_each_pair`], or group them with [`Index::clusters_within`].
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 1)?;
    /// index.insert(1, Fingerprint::new(0, 64)?)?;
    /// index.insert(2, Fingerprint::new(0b111, 64)?)?;
    /// assert!(index.pairs()?.is_empty());
    /// assert_eq!(index.pairs_within(3)?.len(), 1);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn pairs_within(&self, k: u32) -> Result<Vec<Pair>, Error> {
        check_k(self.width(), k)?;
        engine!(&self.inner, e => e.pairs(k, usize::MAX))
    }

    /// The first `limit` of [`Index::pairs_within`]'s answer (by distance, then ids), in
    /// memory `O(limit)` however many pairs are within `k`: thousands of copies of one text
    /// make millions of pairs, and a page of them costs a page. Every pair is still visited.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index, Pair};
    /// let mut index = Index::new(64, 3)?;
    /// for id in 0..2000 {
    ///     index.insert(id, Fingerprint::new(7, 64)?)?; // 1,999,000 pairs at distance 0
    /// }
    /// let first = index.pairs_limited(3, 2)?;
    /// assert_eq!(first, [Pair { a: 0, b: 1, distance: 0 }, Pair { a: 0, b: 2, distance: 0 }]);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn pairs_limited(&self, k: u32, limit: usize) -> Result<Vec<Pair>, Error> {
        check_k(self.width(), k)?;
        // usize::MAX asks for everything; as a limit it cannot be reached, so it is the same.
        engine!(&self.inner, e => e.pairs(k, limit.min(usize::MAX - 1)))
    }

    /// Calls `visit` once for each pair of stored fingerprints within `k` (`a < b`), in no
    /// particular order, holding no list of pairs, until it returns
    /// [`ControlFlow::Break`](core::ops::ControlFlow::Break): for answers too large to list.
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// for id in 0..3000 {
    ///     index.insert(id, Fingerprint::new(u128::from(id % 2), 64)?)?;
    /// }
    /// let mut within = [0u64; 2];
    /// index.for_each_pair(3, |p| {
    ///     within[p.distance as usize] += 1;
    ///     ControlFlow::Continue(())
    /// })?;
    /// assert_eq!(within, [2 * 1500 * 1499 / 2, 1500 * 1500]);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn for_each_pair(
        &self,
        k: u32,
        mut visit: impl FnMut(Pair) -> core::ops::ControlFlow<()>,
    ) -> Result<(), Error> {
        check_k(self.width(), k)?;
        let mut visit = |a: u64, b: u64, distance| {
            let pair = Pair {
                a: a.min(b),
                b: a.max(b),
                distance,
            };
            visit(pair).is_continue()
        };
        engine!(&self.inner, e => e.for_each_pair(k, &mut visit))
    }

    /// Groups of ids connected by pairs within the index's `k` (connected components), for
    /// batch dedup: each group sorted by id, groups sorted by their first id; ids with no
    /// neighbour are left out.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 1)?;
    /// // 1 ~ 2 ~ 3 in a chain (1 and 3 are 2 bits apart), 4 alone.
    /// for (id, v) in [(1, 0b00), (2, 0b01), (3, 0b11), (4, 0xff00)] {
    ///     index.insert(id, Fingerprint::new(v, 64)?)?;
    /// }
    /// assert_eq!(index.clusters()?, [vec![1, 2, 3]]);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn clusters(&self) -> Result<Vec<Vec<u64>>, Error> {
        self.clusters_within(self.k())
    }

    /// [`Index::clusters`] for pairs within `k`.
    ///
    /// ```
    /// let index = simprint::Index::new(64, 3)?;
    /// assert!(index.clusters_within(5)?.is_empty());
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn clusters_within(&self, k: u32) -> Result<Vec<Vec<u64>>, Error> {
        check_k(self.width(), k)?;
        engine!(&self.inner, e => e.clusters(k))
    }

    /// Bytes of heap memory the index holds (its arrays and tables).
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// index.insert_many((0..100_000u64).map(|i| {
    ///     (i, Fingerprint::new(u128::from(i.wrapping_mul(0x9e37_79b9_7f4a_7c15)), 64).unwrap())
    /// }))?;
    /// assert!(index.memory_bytes() / index.len() < 100);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn memory_bytes(&self) -> usize {
        engine!(&self.inner, e => e.bytes())
    }

    fn explicit_plan(&self) -> Option<&Plan> {
        engine!(&self.inner, e => e.explicit.as_ref())
    }
}
