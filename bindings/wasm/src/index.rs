//! JavaScript bindings of the index: conversions only. Ids are numbers or strings
//! (`ids.rs`), fingerprints BigInts or hex strings, in bulk a `BigUint64Array` or an array of
//! BigInts (`fingerprints.rs`); plans are described by `describe.rs`.

use alloc::format;
use alloc::vec::Vec;

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;

use crate::convert::{js_number, read_k, read_value, type_name, whole, Fields};
use crate::describe::plan_to_js;
use crate::err;
use crate::fingerprints::read_fps;
use crate::ids::{id_from_f64, limit_from, read_id, read_ids, read_limit, IdIn, MAX_SAFE_ID};
use crate::object::{array, or_null, Obj};
use crate::typed;
use simprint::Fingerprint;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** A stored fingerprint found by a query. */
export interface IndexMatch { id: IndexId; distance: number; }
/** An entry's id: a whole number from 0 to 2^53 - 1, or a string (a URL, a document key). */
export type IndexId = number | string;
/** Two stored fingerprints within k (by the ids' order inside the index). */
export interface IndexPair { a: IndexId; b: IndexId; distance: number; }
/** A stored fingerprint a query examined (see Index.explainQuery). */
export interface IndexCandidate {
  id: IndexId;
  distance: number;
  /** The segment holding it, or null for the insert buffer (scanned). */
  segment: number | null;
  /** The table of the segment's plan (Index.segmentPlan) whose bucket held it, or null when
   *  it was scanned. */
  table: number | null;
  /** The bucket of that table that held it: the query's own bucket number with the bits
   *  `flipped` (fingerprint bit positions, 0 the most significant) flipped; null when it was
   *  scanned or the table was read whole. */
  probe: { bucket: number; bucketBits: number; flipped: number[] } | null;
  /** True when the distance is within the query's k. */
  accepted: boolean;
}
/** Options of Index.fromBytes. */
export interface FromBytesOptions {
  /** Refuse a buffer whose index would take more memory than this many bytes. Default: 16
   *  times the buffer's length, at least 64 MiB. Infinity trusts the buffer. */
  maxMemoryBytes?: number;
}
"#;

/// An exact near-duplicate index: every stored fingerprint within Hamming distance `k` of a
/// query, with tables planned for its size (permuted tables at small k, multi-index hashing
/// at the k near-duplicates need).
///
/// ```js
/// const index = new Index({ k: 3 });
/// index.insert(1, fingerprint(textA));
/// index.query(fingerprint(textB)); // [{ id: 1, distance: 2 }] when within 3
/// ```
#[wasm_bindgen]
pub struct Index {
    inner: simprint::Index,
}

#[wasm_bindgen]
impl Index {
    /// An empty index; throws on a bad width (1..128), k (0..width) or plan.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "IndexOptions")] options: Option<JsValue>,
    ) -> Result<Index, JsError> {
        let (width, k, plan) = crate::plan::plan_options(&options, &[])?.explicit()?;
        let inner = match plan {
            Some(plan) => simprint::Index::with_plan(plan),
            None => simprint::Index::new(width, k),
        }
        .map_err(err)?;
        Ok(Index { inner })
    }

    /// The fingerprint width.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> u32 {
        self.inner.width()
    }

    /// Lets segments merge only while the merged one holds at most `entries` fingerprints: the
    /// core's `Index::set_merge_limit`. A merge briefly needs about twice the memory of the
    /// segment it builds, and WebAssembly memory never shrinks; a limit bounds that peak, at
    /// the cost of more segments for each query past it.
    #[wasm_bindgen(js_name = setMergeLimit)]
    pub fn set_merge_limit(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] entries: JsValue,
    ) -> Result<(), JsError> {
        let n = entries
            .as_f64()
            .ok_or_else(|| JsError::new("entries must be a number"))?;
        let n = crate::convert::whole("entries", n)?;
        self.inner.set_merge_limit(n as usize);
        Ok(())
    }

    /// The distance the index is built to find.
    #[wasm_bindgen(getter)]
    pub fn k(&self) -> u32 {
        self.inner.k()
    }

    /// Number of stored ids.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        // wasm32: no index holds more than 2^32 - 1 fingerprints.
        u32::try_from(self.inner.len()).unwrap_or(u32::MAX)
    }

    /// The plan for the current size: its kind, blocks (substrings), and per table the key's
    /// blocks, radius, bucket bits and probes, with the cost model's estimate.
    #[wasm_bindgen(unchecked_return_type = "IndexPlan")]
    pub fn plan(&self) -> Result<JsValue, JsError> {
        plan_to_js(&self.inner.plan(), self.inner.len())
    }

    /// The plan segment `segment` (as explainQuery's candidates number them) was built with,
    /// sized for the fingerprints it was built with; undefined past the last segment.
    #[wasm_bindgen(js_name = segmentPlan, unchecked_return_type = "IndexPlan | undefined")]
    pub fn segment_plan(&self, segment: u32) -> Result<JsValue, JsError> {
        match self.inner.segment(segment as usize) {
            Some(s) => plan_to_js(&s.plan, s.slots),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Stores `fingerprint` under `id` (a whole number from 0 to 2^53 - 1, or a string: a URL,
    /// a document key), returning the fingerprint the id held before, or undefined. Answers
    /// give each id back as it was given.
    #[wasm_bindgen(unchecked_return_type = "bigint | undefined")]
    pub fn insert(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "IndexId")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "bigint | string")] fingerprint: JsValue,
    ) -> Result<JsValue, JsError> {
        let id = read_id(&id)?;
        let fp = read_value("fingerprint", &fingerprint, self.inner.width())?;
        let old = match id {
            IdIn::Number(id) => self.inner.insert(id, fp),
            IdIn::Name(name) => self.inner.insert_named(&name, fp),
        }
        .map_err(err)?;
        Ok(old.map_or(JsValue::UNDEFINED, |f| JsValue::from(f.value())))
    }

    /// Stores many at once (much faster than one insert at a time): `ids` as a Uint32Array,
    /// Float64Array or array of numbers; `fingerprints` as a BigUint64Array (two words per
    /// fingerprint, high first, above 64 bits) or an array of BigInts, of matching length.
    /// A repeated id keeps its last fingerprint. Checks everything first: on an error nothing
    /// is stored.
    #[wasm_bindgen(js_name = insertMany)]
    pub fn insert_many(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Uint32Array | Float64Array | IndexId[]")]
        ids: JsValue,
        #[wasm_bindgen(unchecked_param_type = "BigUint64Array | bigint[]")] fingerprints: JsValue,
    ) -> Result<(), JsError> {
        let width = self.inner.width();
        if width <= 64 {
            if let Some(done) = self.insert_typed(&ids, &fingerprints, width)? {
                return Ok(done);
            }
        }
        let ids = read_ids(&ids)?;
        let fps = read_fps(&fingerprints, width)?;
        if ids.len() != fps.len() {
            return Err(JsError::new(&format!(
                "{} ids but {} fingerprints: they must pair up",
                ids.len(),
                fps.len()
            )));
        }
        // Names get their ids only once everything was read and checked.
        let mut numbers = Vec::with_capacity(ids.len());
        for id in ids {
            numbers.push(match id {
                IdIn::Number(id) => id,
                IdIn::Name(name) => self.inner.id_for_name(&name).map_err(err)?,
            });
        }
        self.inner
            .insert_many(numbers.into_iter().zip(fps))
            .map_err(err)
    }

    /// `insertMany`'s bulk path, for numbers (Uint32Array, Float64Array) and one word per
    /// fingerprint (BigUint64Array, widths up to 64): everything checked first, then each pair
    /// read into the index as it goes, 16 bytes a pair, never a value per item in between.
    /// In wasm, whose memory never shrinks, what a bulk load holds at its peak stays: the
    /// general path's per-item values took more than the index they built. `None` when the
    /// arguments are not both typed arrays.
    fn insert_typed(
        &mut self,
        ids: &JsValue,
        fingerprints: &JsValue,
        width: u32,
    ) -> Result<Option<()>, JsError> {
        let numbers: Vec<u64> = if let Some(a) = typed::read::<u32>("ids", ids)? {
            a.into_iter().map(u64::from).collect()
        } else if let Some(a) = typed::read::<f64>("ids", ids)? {
            a.into_iter()
                .enumerate()
                .map(|(i, x)| id_from_f64(x, Some(i)))
                .collect::<Result<_, _>>()?
        } else {
            return Ok(None);
        };
        let Some(words) = typed::read::<u64>("fingerprints", fingerprints)? else {
            return Ok(None);
        };
        if numbers.len() != words.len() {
            return Err(JsError::new(&format!(
                "{} ids but {} fingerprints: they must pair up",
                numbers.len(),
                words.len()
            )));
        }
        if let Some(i) = words.iter().position(|&w| width < 64 && w >> width != 0) {
            // The message the general path gives (fps_from_words).
            if let Err(e) = Fingerprint::new(u128::from(words[i]), width) {
                return Err(JsError::new(&format!("fingerprints[{i}]: {e}")));
            }
        }
        // Checked above: every value fits the width, so the fallback is never taken.
        let zero = Fingerprint::new(0, width).map_err(err)?;
        let pairs = numbers
            .into_iter()
            .zip(words)
            .map(|(id, w)| (id, Fingerprint::new(u128::from(w), width).unwrap_or(zero)));
        self.inner.insert_many(pairs).map_err(err)?;
        Ok(Some(()))
    }

    /// Removes `id`, returning its fingerprint, or undefined if it was not stored.
    #[wasm_bindgen(unchecked_return_type = "bigint | undefined")]
    pub fn remove(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "IndexId")] id: JsValue,
    ) -> Result<JsValue, JsError> {
        let old = match read_id(&id)? {
            IdIn::Number(id) => self.inner.remove(id),
            IdIn::Name(name) => self.inner.remove_named(&name),
        };
        Ok(old.map_or(JsValue::UNDEFINED, |f| JsValue::from(f.value())))
    }

    /// The fingerprint stored under `id`, or undefined.
    #[wasm_bindgen(unchecked_return_type = "bigint | undefined")]
    pub fn get(
        &self,
        #[wasm_bindgen(unchecked_param_type = "IndexId")] id: JsValue,
    ) -> Result<JsValue, JsError> {
        Ok(self
            .stored(&read_id(&id)?)
            .map_or(JsValue::UNDEFINED, |f| JsValue::from(f.value())))
    }

    /// True when `id` is stored.
    pub fn has(
        &self,
        #[wasm_bindgen(unchecked_param_type = "IndexId")] id: JsValue,
    ) -> Result<bool, JsError> {
        Ok(self.stored(&read_id(&id)?).is_some())
    }

    /// Removes everything (the width, k and plan stay).
    pub fn clear(&mut self) {
        self.inner.clear();
    }

    /// Every stored fingerprint within `k` (default: the index's k; any k up to the width,
    /// scanning above the index's, probing only what a smaller k needs below it) of
    /// `fingerprint`, sorted by distance, then id; with
    /// `limit` (a whole number, 0 to 2^53 - 1), only the first `limit` of them, in memory
    /// proportional to `limit` however many match. Give `k` as undefined or null to keep
    /// the index's k with a limit: `query(fp, undefined, 100)`.
    #[wasm_bindgen(unchecked_return_type = "IndexMatch[]")]
    pub fn query(
        &self,
        #[wasm_bindgen(unchecked_param_type = "bigint | string")] fingerprint: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] k: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] limit: Option<JsValue>,
    ) -> Result<JsValue, JsError> {
        let (fp, k) = self.query_args(&fingerprint, &k)?;
        self.answer(fp, k, read_limit(&limit)?)
    }

    /// `query(fingerprint, k, limit)` for a BigInt below 2^64, as the package's `fast.js`
    /// passes it (wasm takes it as an `i64`, with none of the generic path's calls back out to
    /// read it), `k` and `limit` as numbers, each negative when not given.
    #[wasm_bindgen(js_name = __query64, skip_typescript)]
    pub fn query64(&self, fingerprint: u64, k: f64, limit: f64) -> Result<JsValue, JsError> {
        let fp = Fingerprint::new(u128::from(fingerprint), self.inner.width()).map_err(err)?;
        let k = if k < 0.0 {
            self.inner.k()
        } else {
            whole("k", k)?
        };
        let limit = if limit < 0.0 {
            usize::MAX
        } else {
            limit_from(limit)?
        };
        self.answer(fp, k, limit)
    }

    /// `insert(id, fingerprint)` for a whole-number id and a BigInt below 2^64, as `fast.js`
    /// passes them; the previous fingerprint comes back as the glue's `u64` or undefined.
    #[wasm_bindgen(js_name = __insert64, skip_typescript)]
    pub fn insert64(&mut self, id: f64, fingerprint: u64) -> Result<Option<u64>, JsError> {
        let id = id_from_f64(id, None)?;
        let fp = Fingerprint::new(u128::from(fingerprint), self.inner.width()).map_err(err)?;
        let old = self.inner.insert(id, fp).map_err(err)?;
        // A fingerprint of this index fits its width, at most 64 bits here.
        #[allow(clippy::cast_possible_truncation, reason = "at most 64 bits")]
        Ok(old.map(|f| f.value() as u64))
    }

    /// Every fingerprint a query within `k` (default: the index's k) examines, in order, with
    /// the table and probe (the query's bucket with some bits flipped) whose bucket held it
    /// and whether the distance check accepted it.
    #[wasm_bindgen(js_name = explainQuery, unchecked_return_type = "IndexCandidate[]")]
    pub fn explain_query(
        &self,
        #[wasm_bindgen(unchecked_param_type = "bigint | string")] fingerprint: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] k: Option<JsValue>,
    ) -> Result<JsValue, JsError> {
        let (fp, k) = self.query_args(&fingerprint, &k)?;
        let seen = self.inner.explain_query(fp, k).map_err(err)?;
        let width = self.inner.width();
        Ok(array(seen.iter().map(|c| {
            let probe = c.probe.map(|p| {
                Obj::new()
                    .set("bucket", p.bucket)
                    .set("bucketBits", p.bucket_bits)
                    // Mask bit `width − 1 − i` is fingerprint bit i.
                    .set(
                        "flipped",
                        array(
                            (0..width)
                                .filter(|&i| p.flips >> (width - 1 - i) & 1 == 1)
                                .map(JsValue::from),
                        ),
                    )
                    .done()
            });
            Obj::new()
                .set("id", self.id_out(c.id))
                .set("distance", c.distance)
                .set("segment", or_null(c.segment))
                .set("table", or_null(c.table))
                .set("probe", or_null(probe))
                .set("accepted", c.accepted)
                .done()
        })))
    }

    /// Merges everything into one segment planned for the total: the fastest layout for
    /// queries after loading one at a time. Throws (changing nothing) when memory cannot
    /// hold it.
    pub fn compact(&mut self) -> Result<(), JsError> {
        self.inner.compact().map_err(err)
    }

    /// How many segments (immutable runs with their own tables) the index has.
    #[wasm_bindgen(getter)]
    pub fn segments(&self) -> u32 {
        u32::try_from(self.inner.segments()).unwrap_or(u32::MAX)
    }

    /// Every pair of stored fingerprints within `k` (default: the index's k), sorted by
    /// distance, then ids; with `limit` (a whole number, 0 to 2^53 - 1), only the first
    /// `limit` of them, in memory proportional to `limit`. Without a limit, more than
    /// 4,194,304 pairs is an Error (thrown having held no more than that many).
    #[wasm_bindgen(unchecked_return_type = "IndexPair[]")]
    pub fn pairs(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] k: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] limit: Option<JsValue>,
    ) -> Result<JsValue, JsError> {
        let k = read_k(&k, self.inner.k())?;
        let pairs = match read_limit(&limit)? {
            usize::MAX => self.inner.pairs_within(k),
            limit => self.inner.pairs_limited(k, limit),
        }
        .map_err(err)?;
        if pairs
            .iter()
            .all(|p| self.inner.name_of(p.a).is_none() && self.inner.name_of(p.b).is_none())
        {
            return Ok(crate::results::numeric_pairs(&pairs));
        }
        Ok(array(pairs.iter().map(|p| {
            Obj::new()
                .set("a", self.id_out(p.a))
                .set("b", self.id_out(p.b))
                .set("distance", p.distance)
                .done()
        })))
    }

    /// Groups of ids connected by pairs within `k` (default: the index's k): each sorted,
    /// groups sorted by first id; ids with no neighbour are left out.
    #[wasm_bindgen(unchecked_return_type = "IndexId[][]")]
    pub fn clusters(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] k: Option<JsValue>,
    ) -> Result<JsValue, JsError> {
        let k = read_k(&k, self.inner.k())?;
        let clusters = self.inner.clusters_within(k).map_err(err)?;
        Ok(array(
            clusters
                .iter()
                .map(|c| array(c.iter().map(|&id| self.id_out(id)))),
        ))
    }

    /// Every stored id: the numbers ascending, then the names in the order of the ids they were
    /// given, which is the order they were first stored in (unless loaded bytes named an id
    /// near 2^64, after which new names' ids start again at 2^53).
    #[wasm_bindgen(unchecked_return_type = "IndexId[]")]
    pub fn ids(&self) -> Result<JsValue, JsError> {
        let entries = self.inner.entries();
        Ok(array(entries.iter().map(|e| self.id_out(e.0))))
    }

    /// Bytes of memory the index holds.
    #[wasm_bindgen(js_name = memoryBytes)]
    pub fn memory_bytes(&self) -> f64 {
        self.inner.memory_bytes() as f64
    }

    /// The index in its versioned byte format (see docs/index.md).
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Uint8Array {
        Uint8Array::from(self.inner.to_bytes().as_slice())
    }

    /// Reads bytes written by `toBytes`; throws a clear Error on a truncated, corrupted,
    /// wrong-version or hostile buffer, and on one whose index would take more memory than
    /// `maxMemoryBytes` (default: 16 times the buffer's length, at least 64 MiB; `Infinity`
    /// trusts the buffer).
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "FromBytesOptions")] options: Option<
            JsValue,
        >,
    ) -> Result<Index, JsError> {
        let max_memory = match Fields::read(&options, &["maxMemoryBytes"])? {
            Some(o) => o.number("maxMemoryBytes")?,
            None => None,
        };
        let Some(copy) = typed::read::<u8>("bytes", &bytes)? else {
            return Err(JsError::new(&format!(
                "bytes must be a Uint8Array, got {}",
                type_name(&bytes)
            )));
        };
        let max_memory = match max_memory {
            None => simprint::index::default_load_limit(copy.len()),
            // `as` saturates: Infinity and anything above usize::MAX mean no limit.
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "0 or more, saturating on purpose"
            )]
            Some(m) if m >= 0.0 => m as usize,
            Some(m) => {
                return Err(JsError::new(&format!(
                    "maxMemoryBytes must be a number of bytes (0 or more), got {}",
                    js_number(m)
                )))
            }
        };
        let inner = simprint::Index::from_bytes_limited(&copy, max_memory).map_err(err)?;
        // Ids past 2^53 - 1 only as names: numbers that large lose their last digits.
        for (id, _) in inner.entries().into_iter().rev() {
            if id as f64 <= MAX_SAFE_ID {
                break;
            }
            if inner.name_of(id).is_none() {
                return Err(JsError::new(&format!(
                    "index bytes: id {id} is above 2^53 - 1, which JavaScript numbers cannot hold exactly"
                )));
            }
        }
        Ok(Index { inner })
    }
}

impl Index {
    /// The fingerprint stored under an id as JavaScript gives it.
    fn stored(&self, id: &IdIn) -> Option<Fingerprint> {
        match id {
            IdIn::Number(id) => self.inner.get(*id),
            IdIn::Name(name) => self.inner.get_named(name),
        }
    }

    /// An id as JavaScript gets it back: its name, or the number.
    #[allow(
        clippy::cast_precision_loss,
        reason = "numbers are below 2^53 (checked coming in)"
    )]
    fn id_out(&self, id: u64) -> JsValue {
        self.inner
            .name_of(id)
            .map_or(JsValue::from(id as f64), JsValue::from_str)
    }

    /// A query's fingerprint (checked against the width) and `k` (default: the index's).
    /// The matches of `query_limited` as JavaScript objects `{ id, distance }`, each id as it
    /// was given.
    fn answer(&self, fp: Fingerprint, k: u32, limit: usize) -> Result<JsValue, JsError> {
        let found = self.inner.query_limited(fp, k, limit).map_err(err)?;
        if found.iter().all(|m| self.inner.name_of(m.id).is_none()) {
            return Ok(crate::results::numeric_matches(&found));
        }
        Ok(array(found.iter().map(|m| {
            Obj::new()
                .set("id", self.id_out(m.id))
                .set("distance", m.distance)
                .done()
        })))
    }

    fn query_args(
        &self,
        fingerprint: &JsValue,
        k: &Option<JsValue>,
    ) -> Result<(Fingerprint, u32), JsError> {
        let fp = read_value("fingerprint", fingerprint, self.inner.width())?;
        Ok((fp, read_k(k, self.inner.k())?))
    }
}
