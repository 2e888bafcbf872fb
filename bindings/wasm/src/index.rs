//! JavaScript bindings of the index and the linear scans: conversions only.
//!
//! Ids are JavaScript numbers: whole numbers from 0 to 2^53 − 1 (`Number.MAX_SAFE_INTEGER`),
//! so every id survives the round trip through a `number` exactly. Fingerprints are BigInts;
//! in bulk, a `BigUint64Array` (one element per fingerprint up to 64 bits, two — high word
//! first — above 64) or an array of BigInts.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;

use crate::convert::{is_whole, js_number, read_value, type_name, whole, Fields};
use crate::err;
use crate::guard::{array_item, array_length, is_array};
use crate::object::{array, or_null, Obj};
use crate::typed;
use simprint::{Fingerprint, Plan, PlanKind};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Options of a new Index; every field is optional. */
export interface IndexOptions {
  /** Fingerprint width in bits, 1 to 128. Default ${defaults.index.width}. */
  width?: number;
  /** Find everything within this Hamming distance. Default ${defaults.index.k} at 64 bits (the
   *  recommended k of English text), scaled to other widths as round(${defaults.index.k} · width / 64). */
  k?: number;
  /** An explicit plan: this many blocks (more than k) and C(blocks, k) permuted tables,
   *  instead of planning by size. With keyBlocks, a combined plan. */
  blocks?: number;
  /** With blocks: a combined plan, a table for each choice of keyBlocks of the blocks, all
   *  probed within the least radius that finds everything within k. */
  keyBlocks?: number;
  /** An explicit multi-index plan: this many substrings, one table each, probed within
   *  radii whose sum plus one each passes k. */
  substrings?: number;
  /** An explicit plan: no tables, every query scans. */
  scan?: boolean;
}

/** A contiguous run of fingerprint bits; bit 0 is the most significant. */
export interface IndexBits { start: number; len: number; }

/** One table of a plan. A query computes its bucket number (the top bucketBits bits of the
 *  table's key) and probes every bucket whose number differs from it in at most radius bits. */
export interface IndexTable {
  /** Indices into the plan's blocks forming the key, in key order. */
  blocks: number[];
  /** Those blocks themselves: the fingerprint bits the key is made of. */
  ranges: IndexBits[];
  /** The key's length in bits (the sum of its blocks' lengths). */
  keyBits: number;
  /** Probed within this many bits of the query's bucket number. */
  radius: number;
  /** Bits of the bucket number at this size: the top bucketBits bits of the key. */
  bucketBits: number;
  /** Buckets a query probes in this table at this size. */
  probes: number;
  /** True when the table holds 32-bit folds of the other bits (checked exactly after), false
   *  when it holds whole fingerprints. */
  folded: boolean;
}

/** How the index looks fingerprints up. */
export interface IndexPlan {
  /** "scan" (no tables), "permuted" (Manku et al.: radius 0), "multiIndex" (Norouzi et al.:
   *  one table per substring, radii from k) or "combined" (every choice of keyBlocks blocks). */
  kind: "scan" | "permuted" | "multiIndex" | "combined";
  /** True when there are no tables and queries scan. */
  scan: boolean;
  /** The fingerprint width and the k the tables guarantee. */
  width: number;
  k: number;
  /** The fingerprints the plan is sized for (bucketBits and probes depend on it). */
  size: number;
  /** Contiguous runs of bits (a multi-index plan's substrings). */
  blocks: IndexBits[];
  tables: IndexTable[];
  /** The cost model's estimate of one query against random fingerprints at this size. */
  estimate: { probes: number; candidates: number; nanos: number };
}

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

const MAX_SAFE_ID: f64 = 9_007_199_254_740_991.0;

/// An id as JavaScript gives it: a number, or a string the core keeps as a name.
pub(crate) enum IdIn {
    Number(u64),
    Name(String),
}

pub(crate) fn read_id(value: &JsValue) -> Result<IdIn, JsError> {
    read_id_at(value, None)
}

/// An id, called `ids[i]` in messages when it is element `i` of an array, else `id`. (The
/// name is only formatted on error: bulk reads stay allocation-free.)
pub(crate) fn read_id_at(value: &JsValue, at: Option<usize>) -> Result<IdIn, JsError> {
    if let Some(name) = value.as_string() {
        return Ok(IdIn::Name(name));
    }
    let Some(x) = value.as_f64() else {
        return Err(JsError::new(&format!(
            "{} must be a number or a string, got {}",
            id_name(at),
            type_name(value)
        )));
    };
    id_from_f64(x, at).map(IdIn::Number)
}

pub(crate) fn id_name(at: Option<usize>) -> alloc::string::String {
    at.map_or_else(|| "id".into(), |i| format!("ids[{i}]"))
}

pub(crate) fn id_from_f64(x: f64, at: Option<usize>) -> Result<u64, JsError> {
    if is_whole(x) && (0.0..=MAX_SAFE_ID).contains(&x) {
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "checked: a whole number from 0 to 2^53 - 1"
        )]
        Ok(x as u64)
    } else {
        Err(JsError::new(&format!(
            "{} must be a whole number from 0 to 2^53 - 1, got {}",
            id_name(at),
            js_number(x)
        )))
    }
}

pub(crate) fn read_ids(value: &JsValue) -> Result<Vec<IdIn>, JsError> {
    if let Some(a) = typed::read::<u32>("ids", value)? {
        return Ok(a.into_iter().map(|n| IdIn::Number(u64::from(n))).collect());
    }
    if let Some(a) = typed::read::<f64>("ids", value)? {
        return a
            .into_iter()
            .enumerate()
            .map(|(i, x)| id_from_f64(x, Some(i)).map(IdIn::Number))
            .collect();
    }
    if is_array(value) {
        // Element by element: a getter that throws is an error, and a sparse array's length
        // allocates nothing.
        return (0..array_length("ids", value)?)
            .map(|i| read_id_at(&array_item("ids", value, i)?, Some(i as usize)))
            .collect();
    }
    Err(JsError::new(&format!(
        "ids must be a Uint32Array, a Float64Array or an array of numbers and strings, got {}",
        type_name(value)
    )))
}

/// Fingerprints in bulk, each checked against `width`.
pub(crate) fn read_fps(value: &JsValue, width: u32) -> Result<Vec<Fingerprint>, JsError> {
    match typed::read("fingerprints", value)? {
        Some(words) => fps_from_words(words, width),
        None => read_fp_list(value, width),
    }
}

/// Fingerprints from a BigUint64Array: one word each up to 64 bits, two (high first) above.
pub(crate) fn fps_from_words(words: Vec<u64>, width: u32) -> Result<Vec<Fingerprint>, JsError> {
    let values: Vec<u128> = if width <= 64 {
        words.into_iter().map(u128::from).collect()
    } else {
        if !words.len().is_multiple_of(2) {
            return Err(JsError::new(
                "a BigUint64Array of fingerprints wider than 64 bits holds two words per \
                 fingerprint (high word first), so its length must be even",
            ));
        }
        words
            .chunks_exact(2)
            .map(|w| (u128::from(w[0]) << 64) | u128::from(w[1]))
            .collect()
    };
    values
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            Fingerprint::new(v, width).map_err(|e| JsError::new(&format!("fingerprints[{i}]: {e}")))
        })
        .collect()
}

/// Fingerprints as an array of BigInts.
pub(crate) fn read_fp_list(value: &JsValue, width: u32) -> Result<Vec<Fingerprint>, JsError> {
    if is_array(value) {
        return (0..array_length("fingerprints", value)?)
            .map(|i| {
                let v = array_item("fingerprints", value, i)?;
                read_value(&format!("fingerprints[{i}]"), &v, width)
            })
            .collect();
    }
    Err(JsError::new(&format!(
        "fingerprints must be a BigUint64Array or an array of BigInts, got {}",
        type_name(value)
    )))
}

/// A plan as JavaScript sees it, sized for `n` fingerprints: the core's description of each
/// table ([`simprint::Plan::describe`]) and estimate, serialized.
pub(crate) fn plan_to_js(p: &Plan, n: usize) -> Result<JsValue, JsError> {
    let block = |b: &simprint::Block| Obj::new().set("start", b.start).set("len", b.len).done();
    let estimate = p.estimate(n);
    #[allow(clippy::cast_precision_loss, reason = "probe counts far below 2^53")]
    let tables = array(p.tables().iter().zip(p.describe(n)).map(|(t, d)| {
        Obj::new()
            .set("blocks", array(t.blocks.iter().map(|&b| JsValue::from(b))))
            .set(
                "ranges",
                array(t.blocks.iter().map(|&b| block(&p.blocks()[b as usize]))),
            )
            .set("keyBits", t.key_bits)
            .set("radius", t.radius)
            .set("bucketBits", d.bucket_bits)
            .set("probes", d.probes as f64)
            .set("folded", d.folded)
            .done()
    }));
    #[allow(clippy::cast_precision_loss, reason = "sizes far below 2^53")]
    let size = n as f64;
    Ok(Obj::new()
        .set(
            "kind",
            match p.kind() {
                PlanKind::Scan => "scan",
                PlanKind::Permuted { .. } => "permuted",
                PlanKind::MultiIndex { .. } => "multiIndex",
                PlanKind::Combined { .. } => "combined",
            },
        )
        .set("scan", p.is_scan())
        .set("width", p.width())
        .set("k", p.k())
        .set("size", size)
        .set("blocks", array(p.blocks().iter().map(block)))
        .set("tables", tables)
        .set(
            "estimate",
            Obj::new()
                .set("probes", estimate.probes)
                .set("candidates", estimate.candidates)
                .set("nanos", estimate.nanos)
                .done(),
        )
        .done())
}

/// A distance (`k`) as a whole number, `default` when undefined or null; the core checks its
/// range against the width (and gives the message for a k above it), except for numbers
/// beyond `u32`.
pub(crate) fn read_k(value: &Option<JsValue>, default: u32) -> Result<u32, JsError> {
    match value.as_ref().filter(|v| !v.is_undefined() && !v.is_null()) {
        None => Ok(default),
        Some(v) => {
            let x = v.as_f64().ok_or_else(|| {
                JsError::new(&format!("k must be a number, got {}", type_name(v)))
            })?;
            whole("k", x)
        }
    }
}

/// A query's `limit`: undefined or null for no limit, else a whole number from 0 to 2^53 − 1
/// (safe integers, as ids). A limit above what wasm's `usize` holds cannot be below the
/// index's size, so it means no limit.
pub(crate) fn read_limit(value: &Option<JsValue>) -> Result<usize, JsError> {
    let Some(v) = value.as_ref().filter(|v| !v.is_undefined() && !v.is_null()) else {
        return Ok(usize::MAX);
    };
    let x = v
        .as_f64()
        .ok_or_else(|| JsError::new(&format!("limit must be a number, got {}", type_name(v))))?;
    if is_whole(x) && (0.0..=MAX_SAFE_ID).contains(&x) {
        // `as` saturates: on wasm32 a limit above 2^32 - 1 becomes usize::MAX, no limit.
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a whole number from 0 up, saturating on purpose"
        )]
        Ok(x as usize)
    } else {
        Err(JsError::new(&format!(
            "limit must be a whole number from 0 to 2^53 - 1, got {}",
            js_number(x)
        )))
    }
}

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
    /// scanning above the index's) of `fingerprint`, sorted by distance, then id; with
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
        let limit = read_limit(&limit)?;
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

    /// Every stored id: the numbers ascending, then the names in the order they were first
    /// stored.
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
            None => simprint::index::bytes::default_load_limit(copy.len()),
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
    fn query_args(
        &self,
        fingerprint: &JsValue,
        k: &Option<JsValue>,
    ) -> Result<(Fingerprint, u32), JsError> {
        let fp = read_value("fingerprint", fingerprint, self.inner.width())?;
        Ok((fp, read_k(k, self.inner.k())?))
    }
}
