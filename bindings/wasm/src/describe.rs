//! A plan as JavaScript sees it (`Index.plan()`, `Index.segmentPlan()`, `Plan.describe()`): the
//! core's description of each table and its estimate, serialized field by field.

use wasm_bindgen::prelude::*;

use crate::object::{array, Obj};
use simprint::{Plan, PlanKind};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
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

"#;

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
