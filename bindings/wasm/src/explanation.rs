//! Explanations and fragile bits as plain JavaScript objects.

use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

use crate::convert::wasm_len;
use crate::object::{array, or_null, Obj};

use simprint::{BitFragility, Explanation};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** One feature's part in a fingerprint. */
export interface ExplainedFeature {
  /** The feature's text (absent for pre-hashed features). */
  feature?: string;
  /** Its weight: occurrences with "tf", 1 with "binary", as given for supplied features. */
  weight: number;
  /** Its width-bit hash. */
  hash: bigint;
  /** The hash as width characters '0'/'1', bit 0 (most significant) first. */
  bits: string;
}

/** V, the bits, and one row per distinct feature in order of first appearance. */
export interface Explanation {
  width: number;
  fingerprint: bigint;
  /** Always ceil(width / 4) lowercase hex digits. */
  hex: string;
  /** width characters '0'/'1': bit i is 1 iff v[i] > 0. */
  bits: string;
  /** The per-bit weights V, bit 0 first. */
  v: number[];
  features: ExplainedFeature[];
}

/** How one feature more or less could flip one bit (tie rule: bit 1 iff V > 0). */
export interface BitFragility {
  /** The features (indices into the explanation's features) whose removal alone flips it. */
  removals: number[];
  /** The least weight, of those present, of one added feature that flips it (its hash having
   *  the bit that pushes across zero); null when none could. */
  addition: number | null;
}
"#;

/// An explanation as a plain object; fingerprints and hashes as BigInts.
pub(crate) fn explanation(e: Explanation) -> Result<JsValue, JsError> {
    let width = e.fingerprint.width();
    let features = array(e.features.into_iter().map(|f| {
        let row = match &f.text {
            Some(text) => Obj::new().set("feature", text.as_str()),
            None => Obj::new(),
        };
        row.set("weight", f.weight)
            .set("hash", f.hash)
            .set("bits", f.hash_bits(width))
            .done()
    }));
    Ok(Obj::new()
        .set("width", width)
        .set("fingerprint", e.fingerprint.value())
        .set("hex", e.fingerprint.to_hex())
        .set("bits", e.fingerprint.to_binary())
        .set("v", array(e.v.into_iter().map(JsValue::from)))
        .set("features", features)
        .done())
}

/// Per bit, the features whose removal flips it and the least weight whose addition could.
pub(crate) fn fragility(bits: Vec<BitFragility>) -> JsValue {
    array(bits.into_iter().map(|bit| {
        Obj::new()
            .set(
                "removals",
                array(bit.removals.into_iter().map(|j| JsValue::from(wasm_len(j)))),
            )
            .set("addition", or_null(bit.addition))
            .done()
    }))
}
