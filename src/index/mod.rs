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
use self::segment::{Bits, Segment};
use crate::error::Error;
use crate::fingerprint::Fingerprint;

/// New fingerprints wait here, scanned by queries, until there are this many.
const BUFFER: usize = 256;

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

/// By distance, then id; one entry per id (tables may find an id more than once).
fn sort_matches(out: &mut Vec<Match>) {
    out.sort_unstable_by_key(|m| (m.distance, m.id));
    out.dedup_by_key(|m| m.id);
}

/// The first `limit` matches by (distance, id) of a stream that may repeat an id (once per
/// table that holds it), in memory `O(limit)`: matches collect until there are twice `limit`
/// (plus a little, so tiny limits do not sort every few matches), then are sorted, deduplicated
/// and cut back to `limit`. Once `limit` distinct matches are held, the largest of them is a
/// bound: anything not below it cannot be in the answer and is dropped without being stored.
/// Each cut sorts `O(limit)` matches and drops at least `limit`, so the time is
/// `O(m log limit)` for `m` matches found. (Not generic: one copy in the wasm.)
struct Nearest {
    limit: usize,
    cut_at: usize,
    held: Vec<Match>,
    bound: Option<(u32, u64)>,
}

impl Nearest {
    fn new(limit: usize) -> Nearest {
        Nearest {
            limit,
            cut_at: limit.saturating_mul(2).max(limit.saturating_add(64)),
            held: Vec::new(),
            bound: None,
        }
    }

    // Called once per match, not per candidate: one out-of-line copy keeps the wasm smaller.
    #[inline(never)]
    fn offer(&mut self, id: u64, distance: u32) {
        // Equal to the bound is the bound itself found again by another table.
        if self.bound.is_some_and(|b| (distance, id) >= b) {
            return;
        }
        self.held.push(Match { id, distance });
        if self.held.len() >= self.cut_at {
            self.cut();
        }
    }

    fn cut(&mut self) {
        sort_matches(&mut self.held);
        self.held.truncate(self.limit);
        if self.held.len() == self.limit {
            self.bound = self.held.last().map(|m| (m.distance, m.id));
        }
    }

    fn finish(mut self) -> Vec<Match> {
        self.cut();
        self.held
    }
}

fn sort_pairs(out: &mut [Pair]) {
    out.sort_unstable_by_key(|p| (p.distance, p.a, p.b));
}

/// Positions of the last occurrence of each id, by id: the last of repeated ids wins, as
/// with one insert after another.
fn last_of_each_id(ids: &[u64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ids.len()).collect();
    order.sort_unstable_by_key(|&i| (ids[i], usize::MAX - i));
    order.dedup_by_key(|&mut i| ids[i]);
    order
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
    fn new(mut all: Vec<(u128, u64)>) -> Groups {
        all.sort_unstable();
        let n = all.len();
        let mut groups = Groups {
            parent: (0..n).collect(),
            linked: alloc::vec![false; n],
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
            groups.distinct.push((i, all[i].0));
            i = j;
        }
        groups.all = all;
        groups
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

    fn remove(&mut self, id: u64) -> Option<B> {
        if let Some(i) = self.buffer.iter().position(|e| e.0 == id) {
            self.len -= 1;
            return Some(self.buffer.swap_remove(i).1);
        }
        for i in 0..self.segments.len() {
            if let Some(slot) = self.segments[i].find(id) {
                let fp = self.segments[i].fp(slot);
                self.segments[i].kill(slot);
                self.len -= 1;
                let seg = &self.segments[i];
                // Mostly dead: rebuild so dead slots stop costing memory and scan time.
                if seg.dead_count() > seg.live() && seg.dead_count() >= BUFFER {
                    let live: Vec<(u64, B)> = seg.entries().collect();
                    let plan = self.plan_for(live.len());
                    self.segments[i] = Segment::build(plan, live);
                }
                return Some(fp);
            }
        }
        None
    }

    fn insert(&mut self, id: u64, fp: B) -> Option<B> {
        let old = self.remove(id);
        self.buffer.push((id, fp));
        self.len += 1;
        if self.buffer.len() >= BUFFER {
            let entries = core::mem::take(&mut self.buffer);
            self.push_segment(entries);
        }
        old
    }

    /// `entries` must have distinct ids not stored elsewhere.
    fn push_segment(&mut self, entries: Vec<(u64, B)>) {
        let plan = self.plan_for(entries.len());
        self.segments.push(Segment::build(plan, entries));
        // Merge while the newest segment is at least half the size of the one before it.
        while self.segments.len() >= 2 {
            let n = self.segments.len();
            if self.segments[n - 2].live() > 2 * self.segments[n - 1].live() {
                break;
            }
            let b = self.segments.pop().unwrap_or_else(|| unreachable!());
            let a = self.segments.pop().unwrap_or_else(|| unreachable!());
            let mut merged: Vec<(u64, B)> = a.entries().collect();
            merged.extend(b.entries());
            let plan = self.plan_for(merged.len());
            self.segments.push(Segment::build(plan, merged));
        }
    }

    fn insert_many(&mut self, batch: Vec<(u64, B)>) {
        let ids: Vec<u64> = batch.iter().map(|e| e.0).collect();
        let mut batch: Vec<(u64, B)> = last_of_each_id(&ids)
            .into_iter()
            .map(|i| batch[i])
            .collect();
        for &(id, _) in &batch {
            self.remove(id);
        }
        self.len += batch.len();
        batch.append(&mut self.buffer);
        if batch.len() >= BUFFER {
            self.push_segment(batch);
        } else {
            self.buffer = batch;
        }
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

    /// Merges the buffer and every segment into one segment planned for the total.
    fn compact(&mut self) {
        let all: Vec<(u64, B)> = self.entries().collect();
        self.segments.clear();
        self.buffer.clear();
        if !all.is_empty() {
            let plan = self.plan_for(all.len());
            self.segments.push(Segment::build(plan, all));
        }
    }

    /// The first `limit` matches within `k` by (distance, id); `usize::MAX` for all of them.
    fn query(&self, q: B, k: u32, limit: usize) -> Vec<Match> {
        if limit == 0 {
            return Vec::new();
        }
        let mut nearest = Nearest::new(limit);
        let mut found = |id, distance| nearest.offer(id, distance);
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
        nearest.finish()
    }

    /// Calls `found(a, b, distance)` once for each pair of stored fingerprints within `k`, in
    /// no particular order, holding nothing per pair. (`dyn`: one copy of this code per
    /// fingerprint type, not one per caller, which keeps the wasm smaller.)
    fn for_each_pair(&self, k: u32, found: &mut dyn FnMut(u64, u64, u32)) {
        if k > self.k {
            // The tables cannot find these; a temporary engine planned for k can.
            let mut wider = Engine::<B>::new(self.width, k, None);
            wider.insert_many(self.entries().collect());
            return wider.for_each_pair(k, found);
        }
        for (i, s) in self.segments.iter().enumerate() {
            s.pairs(k, &mut |a, b, d| found(a, b, d));
            // Pairs across segments: each live entry of the smaller against the larger.
            for other in &self.segments[i + 1..] {
                let (small, large) = if s.live() <= other.live() {
                    (s, other)
                } else {
                    (other, s)
                };
                let mut hits = Vec::new();
                for (id, fp) in small.entries() {
                    hits.clear();
                    large.query(fp, k, &mut |other_id, d| hits.push((other_id, d)));
                    sort_hits(&mut hits);
                    for &(other_id, d) in &hits {
                        found(id, other_id, d);
                    }
                }
            }
        }
        let mut hits = Vec::new();
        for (i, &(id, fp)) in self.buffer.iter().enumerate() {
            for &(other_id, other_fp) in &self.buffer[i + 1..] {
                let d = fp.distance(other_fp);
                if d <= k {
                    found(id, other_id, d);
                }
            }
            hits.clear();
            for s in &self.segments {
                s.query(fp, k, &mut |other_id, d| hits.push((other_id, d)));
            }
            sort_hits(&mut hits);
            for &(other_id, d) in &hits {
                found(id, other_id, d);
            }
        }
    }

    /// Every pair within `k`, sorted; an error rather than an allocation failure (which aborts,
    /// and in wasm kills the instance) when there are more than memory can hold.
    fn pairs(&self, k: u32) -> Result<Vec<Pair>, Error> {
        let mut out: Vec<Pair> = Vec::new();
        let mut full = false;
        self.for_each_pair(k, &mut |a, b, distance| {
            if full || out.try_reserve(1).is_err() {
                full = true;
                return;
            }
            out.push(Pair {
                a: a.min(b),
                b: a.max(b),
                distance,
            });
        });
        if full {
            return Err(Error::TooLarge(alloc::format!(
                "pairs: more than {} pairs within {k} do not fit in memory; \
                 clusters() groups them without listing every pair",
                out.len()
            )));
        }
        sort_pairs(&mut out);
        Ok(out)
    }

    /// Connected groups of ids under "within `k`" (see [`Groups`]).
    fn clusters(&self, k: u32) -> Vec<Vec<u64>> {
        let mut groups = Groups::new(self.entries().map(|(id, fp)| (fp.to_u128(), id)).collect());
        if groups.distinct.len() > 1 {
            let mut reps = Engine::<B>::new(self.width, k, None);
            reps.insert_many(
                groups
                    .distinct
                    .iter()
                    .map(|&(i, v)| (i as u64, B::from_u128(v)))
                    .collect(),
            );
            reps.for_each_pair(k, &mut |a, b, _| groups.join(a as usize, b as usize));
        }
        groups.finish()
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
        engine!(&self.inner, e => e.plan_for(e.len))
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
            engine!(&mut self.inner, e => e.insert(id, Bits::from_u128(v)).map(Bits::to_u128));
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
        let mut values = Vec::new();
        for (id, fp) in items {
            values.push((id, self.check(&fp)?));
        }
        engine!(&mut self.inner, e => e.insert_many(
            values.into_iter().map(|(id, v)| (id, Bits::from_u128(v))).collect()
        ));
        Ok(())
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
        Ok(engine!(&self.inner, e => e.query(Bits::from_u128(v), k, usize::MAX)))
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
        Ok(engine!(&self.inner, e => e.query(Bits::from_u128(v), k, limit)))
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
    /// index.compact();
    /// assert_eq!(index.segments(), 1);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn compact(&mut self) {
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
    /// built for the purpose).
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
        engine!(&self.inner, e => e.pairs(k))
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
        Ok(engine!(&self.inner, e => e.clusters(k)))
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
