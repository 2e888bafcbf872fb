//! Explanations as plain JavaScript objects.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use wasm_bindgen::prelude::*;

use alloc::string::ToString;

use simprint::Explanation;

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
"#;

#[derive(Serialize)]
struct JsExplainedFeature {
    #[serde(skip_serializing_if = "Option::is_none")]
    feature: Option<String>,
    weight: f64,
    hash: u128,
    bits: String,
}

#[derive(Serialize)]
struct JsExplanation {
    width: u32,
    fingerprint: u128,
    hex: String,
    bits: String,
    v: Vec<f64>,
    features: Vec<JsExplainedFeature>,
}

pub(crate) fn explanation(e: Explanation) -> Result<JsValue, JsError> {
    let width = e.fingerprint.width();
    let out = JsExplanation {
        width,
        fingerprint: e.fingerprint.value(),
        hex: e.fingerprint.to_hex(),
        bits: e.fingerprint.to_binary(),
        v: e.v,
        features: e
            .features
            .into_iter()
            .map(|f| JsExplainedFeature {
                bits: f.hash_bits(width),
                feature: f.text,
                weight: f.weight,
                hash: f.hash,
            })
            .collect(),
    };
    let ser = serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true);
    out.serialize(&ser)
        .map_err(|e| JsError::new(&e.to_string()))
}
