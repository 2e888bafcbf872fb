//! JavaScript bindings of a plan and its keys: the plan options `Index` and `Plan` share, and
//! the exported keys scheme (`Plan::keys`, `Plan::probe_keys`) for stores of the tables outside
//! the index. Conversions only.

use alloc::vec::Vec;

use js_sys::Array;
use wasm_bindgen::prelude::*;

use crate::convert::{read_value, whole, Fields};
use crate::describe::plan_to_js;
use crate::err;

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

/** Options of a new Plan: the fields of IndexOptions, and the size an automatic plan is
 *  chosen for. */
export interface PlanOptions extends IndexOptions {
  /** Without blocks, substrings or scan: the plan an Index picks for this many
   *  fingerprints. Default ${defaults.index.planSize}. */
  size?: number;
}
"#;

/// The plan options shared by `Index` and `Plan`, read once.
pub(crate) struct PlanOptions {
    width: u32,
    k: u32,
    blocks: Option<f64>,
    key_blocks: Option<f64>,
    substrings: Option<f64>,
    scan: bool,
    /// `size`, when the caller's fields include it.
    pub(crate) size: Option<f64>,
}

/// Reads the options of an index plan (`width`, `k`, `blocks`, `keyBlocks`, `substrings`,
/// `scan`) and any `extra` number fields the caller allows (`size`).
pub(crate) fn plan_options(
    options: &Option<JsValue>,
    extra: &[&'static str],
) -> Result<PlanOptions, JsError> {
    let mut fields: Vec<&'static str> =
        alloc::vec!["width", "k", "blocks", "keyBlocks", "substrings", "scan"];
    fields.extend_from_slice(extra);
    let read = Fields::read(options, &fields)?;
    let number = |name: &str| match &read {
        Some(o) => o.number(name),
        None => Ok(None),
    };
    let width = crate::convert::width_from(number("width")?)?;
    let k = number("k")?
        .map(|k| whole("k", k))
        .transpose()?
        .unwrap_or_else(|| simprint::index::default_k(width));
    let scan = match &read {
        Some(o) => o.boolean("scan")?.unwrap_or(false),
        None => false,
    };
    Ok(PlanOptions {
        width,
        k,
        blocks: number("blocks")?,
        key_blocks: number("keyBlocks")?,
        substrings: number("substrings")?,
        scan,
        size: if extra.contains(&"size") {
            number("size")?
        } else {
            None
        },
    })
}

impl PlanOptions {
    /// The width, k and the explicit plan the options ask for (None: plan by size).
    pub(crate) fn explicit(&self) -> Result<(u32, u32, Option<simprint::Plan>), JsError> {
        use simprint::Plan;
        let (width, k) = (self.width, self.k);
        let explicit = usize::from(self.blocks.is_some())
            + usize::from(self.substrings.is_some())
            + usize::from(self.scan);
        if explicit > 1 {
            return Err(JsError::new(
                "give at most one of blocks, substrings and scan: true",
            ));
        }
        if self.key_blocks.is_some() && self.blocks.is_none() {
            return Err(JsError::new("keyBlocks needs blocks"));
        }
        let plan = match (self.blocks, self.key_blocks, self.substrings) {
            (Some(b), None, _) => Some(Plan::with_blocks(width, k, whole("blocks", b)?)),
            (Some(b), Some(c), _) => Some(Plan::combined(
                width,
                k,
                whole("blocks", b)?,
                whole("keyBlocks", c)?,
            )),
            (None, _, Some(m)) => Some(Plan::multi_index(width, k, whole("substrings", m)?)),
            (None, _, None) if self.scan => Some(Plan::scan(width, k)),
            (None, _, None) => None,
        };
        Ok((width, k, plan.transpose().map_err(err)?))
    }
}

/// How an index cuts fingerprints into table keys, and the keys a query probes: the keys
/// scheme, for keeping the same tables in another store (a SQL table, a key-value store,
/// objects routed by key). A table's key of a fingerprint is its blocks' bits concatenated,
/// the first block highest; a store files each fingerprint under `(table, key)` for every
/// table and looks a query up under each of its probe keys, then checks the distance.
///
/// ```js
/// const plan = new Plan({ width: 64, k: 9, substrings: 4 }); // 4 tables of 16-bit keys
/// plan.keys(0x0123456789abcdefn);        // [0x0123n, 0x4567n, 0x89abn, 0xcdefn]
/// plan.probeKeys(0x0123456789abcdefn);   // 308 BigInts: each table's key, then the keys near it
/// plan.probeKeysByTable(0x0123456789abcdefn).map((keys) => keys.length); // [137, 137, 17, 17]
/// ```
#[wasm_bindgen]
pub struct Plan {
    inner: simprint::Plan,
    size: usize,
}

#[wasm_bindgen]
impl Plan {
    /// A plan: explicit (`blocks`, `keyBlocks`, `substrings`, `scan` as for `new Index`), or
    /// the one an index picks for `size` fingerprints (default `defaults().index.planSize`).
    /// Throws on a bad width, k or plan.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "PlanOptions")] options: Option<JsValue>,
    ) -> Result<Plan, JsError> {
        let read = plan_options(&options, &["size"])?;
        let size = crate::convert::size("size", read.size, simprint::index::DEFAULT_PLAN_SIZE)?;
        let (width, k, explicit) = read.explicit()?;
        let inner = match explicit {
            Some(plan) => plan,
            None => {
                simprint::check_width(width).map_err(err)?;
                simprint::check_k(width, k).map_err(err)?;
                simprint::Plan::auto(width, k, size)
            }
        };
        Ok(Plan { inner, size })
    }

    /// The fingerprint width.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> u32 {
        self.inner.width()
    }

    /// The distance the tables guarantee to find.
    #[wasm_bindgen(getter)]
    pub fn k(&self) -> u32 {
        self.inner.k()
    }

    /// Number of tables (0 for a scan).
    #[wasm_bindgen(getter, js_name = tableCount)]
    pub fn table_count(&self) -> u32 {
        crate::convert::wasm_len(self.inner.tables().len())
    }

    /// Keys a query probes in all tables (the length of `probeKeys`), the same for every
    /// fingerprint: in each table, every key within its radius of the query's.
    #[wasm_bindgen(getter, js_name = probeCount)]
    #[allow(
        clippy::cast_precision_loss,
        reason = "a count of keys, exact below 2^53"
    )]
    pub fn probe_count(&self) -> f64 {
        self.inner.probe_count() as f64
    }

    /// Keys a query probes in each table, as an array of numbers.
    #[wasm_bindgen(js_name = probeCounts, unchecked_return_type = "number[]")]
    #[allow(
        clippy::cast_precision_loss,
        reason = "a count of keys, exact below 2^53"
    )]
    pub fn probe_counts(&self) -> Array {
        self.inner
            .probe_counts()
            .into_iter()
            .map(|n| JsValue::from(n as f64))
            .collect()
    }

    /// The plan as `Index.plan()` describes it (kind, blocks, tables and their radii), sized
    /// for the `size` it was made with.
    #[wasm_bindgen(unchecked_return_type = "IndexPlan")]
    pub fn describe(&self) -> Result<JsValue, JsError> {
        plan_to_js(&self.inner, self.size)
    }

    /// The key of `fingerprint` (a BigInt or hex string of the plan's width) in each table, as
    /// BigInts: what a store of the tables files it under, beside the table's number.
    #[wasm_bindgen(unchecked_return_type = "bigint[]")]
    pub fn keys(
        &self,
        #[wasm_bindgen(unchecked_param_type = "bigint | string")] fingerprint: JsValue,
    ) -> Result<Array, JsError> {
        let fp = read_value("fingerprint", &fingerprint, self.inner.width())?;
        Ok(self.inner.keys(fp).into_iter().map(JsValue::from).collect())
    }

    /// Every key `fingerprint` probes, table after table: each table's own key first, then
    /// every key within the table's radius of it (fewer flipped bits first). `probeCounts()`
    /// says how many belong to each table. Throws when the plan probes more than 2^20 keys.
    #[wasm_bindgen(js_name = probeKeys, unchecked_return_type = "bigint[]")]
    pub fn probe_keys(
        &self,
        #[wasm_bindgen(unchecked_param_type = "bigint | string")] fingerprint: JsValue,
    ) -> Result<Array, JsError> {
        let fp = read_value("fingerprint", &fingerprint, self.inner.width())?;
        let keys = self.inner.probe_keys(fp).map_err(err)?;
        Ok(keys.into_iter().map(JsValue::from).collect())
    }

    /// The keys `fingerprint` probes, one array per table (as `probeKeys`, split by table).
    #[wasm_bindgen(js_name = probeKeysByTable, unchecked_return_type = "bigint[][]")]
    pub fn probe_keys_by_table(
        &self,
        #[wasm_bindgen(unchecked_param_type = "bigint | string")] fingerprint: JsValue,
    ) -> Result<Array, JsError> {
        let fp = read_value("fingerprint", &fingerprint, self.inner.width())?;
        let tables = self.inner.probe_keys_by_table(fp).map_err(err)?;
        Ok(tables
            .into_iter()
            .map(|keys| JsValue::from(keys.into_iter().map(JsValue::from).collect::<Array>()))
            .collect())
    }
}
