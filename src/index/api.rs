//! The [`Index`] type: each call checks its arguments and hands the work to the engine of its
//! width (`u64` fingerprints up to 64 bits, `u128` above).

use alloc::boxed::Box;
use alloc::vec::Vec;

use super::bits::Bits;
use super::engine::Engine;
use super::fallible::try_vec_with_capacity;
use super::names::{Names, MAX_NAME_BYTES};
use super::plan::{check_k, Plan};
use super::results::{Candidate, Match, Pair};
use crate::error::Error;
use crate::fingerprint::Fingerprint;
use crate::sort;

#[derive(Clone, Debug)]
pub(super) enum Inner {
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

/// One segment of an index (see [`Index::segment`]).
///
/// ```
/// let index = simprint::Index::new(64, 3)?;
/// assert!(index.segment(0).is_none()); // empty: no segment yet
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentInfo {
    /// The plan its tables were built with.
    pub plan: Plan,
    /// Fingerprints it was built with (removed ones keep their slots until it is rebuilt):
    /// the size its tables were planned for.
    pub slots: usize,
    /// Fingerprints still live in it.
    pub live: usize,
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
    pub(super) inner: Inner,
    /// Names of named entries (see [`Index::insert_named`]); empty for an index keyed by numbers.
    pub(super) names: Names,
}

impl Index {
    /// An empty index of `width`-bit fingerprints (1 to 128) that finds everything within `k`
    /// (0 to `width`). It plans its tables itself as it grows.
    ///
    /// # Errors
    ///
    /// [`Error::WidthOutOfRange`] or [`Error::KOutOfRange`] for a bad width or `k`.
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
    /// # Errors
    ///
    /// [`Error::WidthOutOfRange`] or [`Error::KOutOfRange`] for a bad width or `k` in the plan.
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
        Index {
            inner,
            names: Names::default(),
        }
    }

    /// The fingerprint width.
    ///
    /// ```
    /// assert_eq!(simprint::Index::new(128, 3)?.width(), 128);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn width(&self) -> u32 {
        engine!(&self.inner, e => e.width)
    }

    /// The distance the index is built to find.
    ///
    /// ```
    /// assert_eq!(simprint::Index::new(64, 3)?.k(), 3);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
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
    #[must_use]
    pub fn plan(&self) -> Plan {
        self.plan_for_len(self.len())
    }

    /// The plan a segment of `n` fingerprints gets.
    pub(super) fn plan_for_len(&self, n: usize) -> Plan {
        engine!(&self.inner, e => e.plan_for(n))
    }

    /// How many segments (immutable runs with their own tables) the index has now.
    ///
    /// ```
    /// assert_eq!(simprint::Index::new(64, 3)?.segments(), 0);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn segments(&self) -> usize {
        engine!(&self.inner, e => e.segments.len())
    }

    /// Segment `segment` (as [`Candidate::segment`] numbers them): the plan it was built with
    /// and its size, or `None` past the last. Segments are planned for their own size, so
    /// their plans differ from [`Index::plan`] and from each other while the index grows; a
    /// table's bucket numbers and probes at its size are [`Plan::describe`]`(slots)`.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 9)?;
    /// let fp = |i: u64| Fingerprint::new(u128::from(i.wrapping_mul(0x9e37_79b9_7f4a_7c15)), 64);
    /// index.insert_many((0..5000u64).map(|i| (i, fp(i).unwrap())))?;
    /// index.remove(7);
    /// let segment = index.segment(0).unwrap();
    /// assert_eq!((segment.slots, segment.live), (5000, 4999));
    /// assert_eq!(segment.plan, index.plan());
    /// assert!(index.segment(1).is_none());
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn segment(&self, segment: usize) -> Option<SegmentInfo> {
        engine!(&self.inner, e => e.segments.get(segment).map(|s| SegmentInfo {
            plan: s.plan().clone(),
            slots: s.slots(),
            live: s.live(),
        }))
    }

    /// Number of stored ids.
    ///
    /// ```
    /// let mut index = simprint::Index::new(64, 3)?;
    /// index.insert(9, simprint::Fingerprint::new(1, 64)?)?;
    /// assert_eq!(index.len(), 1);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        engine!(&self.inner, e => e.len)
    }

    /// True when nothing is stored.
    ///
    /// ```
    /// assert!(simprint::Index::new(64, 3)?.is_empty());
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn check(&self, fp: &Fingerprint) -> Result<u128, Error> {
        if fp.width() != self.width() {
            return Err(Error::WidthMismatch {
                left: fp.width(),
                right: self.width(),
            });
        }
        Ok(fp.value())
    }

    /// Lets segments merge only while the merged segment holds at most `entries` fingerprints
    /// (no limit at first). Inserts go to a buffer, then to small segments that merge as they
    /// grow; a merge holds both segments and the one it builds at once, so merging into one
    /// segment of n fingerprints briefly needs about twice its memory. In WebAssembly, whose
    /// memory never shrinks, that peak stays: a limit bounds it, at the cost of more segments
    /// for a query to visit past the limit. A bulk [`Index::insert_many`] still builds one
    /// segment of any size. Not kept by [`Index::to_bytes`].
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// index.set_merge_limit(1000);
    /// for i in 0..5000u64 {
    ///     index.insert(i, Fingerprint::new(u128::from(i.wrapping_mul(0x9e37_79b9_7f4a_7c15)), 64)?)?;
    /// }
    /// assert!(index.segment(1).is_some()); // several segments, none merged past 1000
    /// assert!((0..).map_while(|s| index.segment(s)).all(|s| s.slots <= 1000));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn set_merge_limit(&mut self, entries: usize) {
        engine!(&mut self.inner, e => e.merge_limit = entries);
    }

    /// Stores `fp` under `id`, returning the fingerprint `id` held before, if any.
    ///
    /// Fails if `fp`'s width is not the index's.
    ///
    /// # Errors
    ///
    /// [`Error::WidthMismatch`] when `fp`'s width is not the index's; [`Error::OutOfMemory`]
    /// (nothing stored) when memory runs out.
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
    /// # Errors
    ///
    /// [`Error::WidthMismatch`] when a fingerprint's width is not the index's;
    /// [`Error::OutOfMemory`] when memory runs out. Either way nothing is stored.
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
        self.insert_boxed(Box::new(items.into_iter()), 1)
    }

    /// The rest of [`Index::insert_many`] (with the segment's tables built on `threads`
    /// threads: 1 but for `Index::insert_many_parallel`), not generic: one copy in the wasm, whatever the
    /// callers' iterators. The items go straight into the engine's batch (16 bytes an item at
    /// 64 bits), and the iterator is dropped as soon as it is read, before the tables are
    /// built: in wasm, whose memory never shrinks, what the caller's iterator held (e.g. the
    /// arrays the bindings read) is reused by the build instead of adding to its peak.
    pub(super) fn insert_boxed(
        &mut self,
        mut items: Box<dyn Iterator<Item = (u64, Fingerprint)> + '_>,
        threads: usize,
    ) -> Result<(), Error> {
        let width = self.width();
        engine!(&mut self.inner, e => {
            let mut batch = try_vec_with_capacity(items.size_hint().0)?;
            for (id, fp) in items.by_ref() {
                if fp.width() != width {
                    return Err(Error::WidthMismatch { left: fp.width(), right: width });
                }
                batch.try_reserve(1).map_err(|_| Error::OutOfMemory {
                    bytes: batch.len().saturating_mul(2 * 16),
                })?;
                batch.push((id, Bits::from_u128(fp.value())));
            }
            drop(items);
            e.insert_many_with(batch, threads)
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
        if old.is_some() {
            self.names.forget(id);
        }
        old.map(|v| Fingerprint::from_parts(v, width))
    }

    /// Stores `fp` under the name `name` (a URL, a document key): the name gets an id of its
    /// own, from [`FIRST_NAMED_ID`](crate::index::FIRST_NAMED_ID) up, which answers carry and [`Index::name_of`] turns back
    /// into the name. Returns the fingerprint the name held before, if any. Names and numeric
    /// ids mix in one index; the names go with its bytes.
    ///
    /// # Errors
    ///
    /// [`Error::NameTooLong`] for a name of more than [`MAX_NAME_BYTES`] bytes; else as
    /// [`Index::insert`].
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// index.insert_named("https://example.org/a", Fingerprint::new(0b1011, 64)?)?;
    /// index.insert(7, Fingerprint::new(0b1010, 64)?)?;
    /// let found = index.query(Fingerprint::new(0b1011, 64)?)?;
    /// assert_eq!(index.name_of(found[0].id), Some("https://example.org/a"));
    /// assert_eq!(found[1].id, 7);
    /// assert_eq!(index.get_named("https://example.org/a"), index.get(found[0].id));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn insert_named(
        &mut self,
        name: &str,
        fp: Fingerprint,
    ) -> Result<Option<Fingerprint>, Error> {
        self.check(&fp)?;
        let id = self.id_for_name(name)?;
        let old = self.insert(id, fp);
        if old.is_err() && self.get(id).is_none() {
            // A failed insert leaves no name behind.
            self.names.forget(id);
        }
        old
    }

    /// The id of `name`, given a new one when it has none (the first id after the last one
    /// given, from [`FIRST_NAMED_ID`](crate::index::FIRST_NAMED_ID) up, that no entry or name
    /// uses; past `u64::MAX` the search starts again at it): for bulk loads of named entries through
    /// [`Index::insert_many`]. A name no entry is stored under is not kept by
    /// [`Index::to_bytes`].
    ///
    /// # Errors
    ///
    /// [`Error::NameTooLong`] for a name of more than [`MAX_NAME_BYTES`] bytes.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// let ids = ["a", "b", "a"].map(|n| index.id_for_name(n).unwrap());
    /// assert_eq!(ids, [simprint::index::FIRST_NAMED_ID, simprint::index::FIRST_NAMED_ID + 1, ids[0]]);
    /// index.insert_many(ids.iter().map(|&id| (id, Fingerprint::new(1, 64).unwrap())))?;
    /// assert_eq!(index.len(), 2);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn id_for_name(&mut self, name: &str) -> Result<u64, Error> {
        if name.len() > MAX_NAME_BYTES {
            return Err(Error::NameTooLong {
                bytes: name.len(),
                max: MAX_NAME_BYTES,
            });
        }
        let inner = &self.inner;
        Ok(self
            .names
            .id_for(name, |id| engine!(inner, e => e.get(id).is_some())))
    }

    /// The id a name is stored under, if it is.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// index.insert_named("doc", Fingerprint::new(1, 64)?)?;
    /// assert_eq!(index.id_of("doc"), Some(simprint::index::FIRST_NAMED_ID));
    /// assert_eq!(index.id_of("other"), None);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn id_of(&self, name: &str) -> Option<u64> {
        self.names
            .id_of(name)
            .filter(|&id| engine!(&self.inner, e => e.get(id).is_some()))
    }

    /// The name of the entry stored under `id`, if it was stored by name.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// index.insert_named("doc", Fingerprint::new(1, 64)?)?;
    /// index.insert(1, Fingerprint::new(1, 64)?)?;
    /// assert_eq!(index.name_of(simprint::index::FIRST_NAMED_ID), Some("doc"));
    /// assert_eq!(index.name_of(1), None);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn name_of(&self, id: u64) -> Option<&str> {
        self.names.name_of(id)
    }

    /// [`Index::get`] by name.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// index.insert_named("doc", Fingerprint::new(5, 64)?)?;
    /// assert_eq!(index.get_named("doc"), Some(Fingerprint::new(5, 64)?));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn get_named(&self, name: &str) -> Option<Fingerprint> {
        self.names.id_of(name).and_then(|id| self.get(id))
    }

    /// [`Index::remove`] by name; the name is forgotten with its entry.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// index.insert_named("doc", Fingerprint::new(5, 64)?)?;
    /// assert!(index.remove_named("doc").is_some());
    /// assert_eq!(index.id_of("doc"), None);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn remove_named(&mut self, name: &str) -> Option<Fingerprint> {
        let id = self.names.id_of(name)?;
        let old = self.remove(id);
        self.names.forget(id);
        old
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
    #[must_use]
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
        engine!(&mut self.inner, e => e.clear());
        self.names.clear();
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
    #[must_use]
    pub fn entries(&self) -> Vec<(u64, Fingerprint)> {
        let width = self.width();
        let out: Vec<(u64, Fingerprint)> = engine!(&self.inner, e => e
            .entries()
            .map(|(id, v)| (id, Fingerprint::from_parts(v.to_u128(), width)))
            .collect());
        // By id, through (id, position) pairs (see `crate::sort`).
        let mut order: Vec<(u64, u64)> = out
            .iter()
            .enumerate()
            .map(|(i, e)| (e.0, sort::position(i)))
            .collect();
        sort::sort(&mut order);
        order
            .into_iter()
            .map(|(_, i)| out[sort::from_position(i)])
            .collect()
    }

    /// Every stored fingerprint within the index's `k` of `fp`, sorted by distance, then id.
    ///
    /// # Errors
    ///
    /// [`Error::WidthMismatch`] when `fp`'s width is not the index's; [`Error::OutOfMemory`]
    /// when the answer does not fit in memory.
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
    /// index's `k` it scans, still exactly; below it, it probes only the tables and buckets
    /// that `k` needs), sorted by distance, then id.
    ///
    /// # Errors
    ///
    /// [`Error::WidthMismatch`] for a fingerprint of another width, [`Error::KOutOfRange`] for
    /// `k` above the width, [`Error::OutOfMemory`] when the answer does not fit in memory.
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
    /// # Errors
    ///
    /// As [`Index::query_within`].
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
    /// # Errors
    ///
    /// [`Error::WidthMismatch`] for a fingerprint of another width, [`Error::KOutOfRange`] for
    /// `k` above the width.
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
    /// # Errors
    ///
    /// [`Error::OutOfMemory`], changing nothing, when the merged segment does not fit beside
    /// the current ones.
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
    /// # Errors
    ///
    /// As [`Index::pairs_within`].
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
    /// More than [`MAX_PAIRS`](crate::index::MAX_PAIRS) pairs is an [`Error::TooManyPairs`], found while holding at most
    /// that many: ask for the first ones with [`Index::pairs_limited`], visit them all with
    /// [`Index::for_each_pair`], or group them with [`Index::clusters_within`].
    ///
    /// # Errors
    ///
    /// [`Error::KOutOfRange`] for `k` above the width, [`Error::TooManyPairs`] past
    /// [`MAX_PAIRS`](crate::index::MAX_PAIRS), [`Error::OutOfMemory`] when memory runs out (a `k` above the index's
    /// builds a temporary index).
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
    /// # Errors
    ///
    /// [`Error::KOutOfRange`] for `k` above the width, [`Error::OutOfMemory`] when memory runs
    /// out.
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
    /// # Errors
    ///
    /// [`Error::KOutOfRange`] for `k` above the width; [`Error::OutOfMemory`] when a `k` above
    /// the index's needs a temporary index that does not fit.
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
    /// # Errors
    ///
    /// As [`Index::clusters_within`].
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
    /// # Errors
    ///
    /// [`Error::KOutOfRange`] for `k` above the width, [`Error::OutOfMemory`] when memory runs
    /// out.
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
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        engine!(&self.inner, e => e.bytes()) + self.names.bytes()
    }

    pub(super) fn explicit_plan(&self) -> Option<&Plan> {
        engine!(&self.inner, e => e.explicit.as_ref())
    }
}
