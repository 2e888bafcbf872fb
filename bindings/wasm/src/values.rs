//! Functions of fingerprint values: distance, comparison, hex.

use alloc::format;
use alloc::string::String;

use wasm_bindgen::prelude::*;

use crate::convert::{bigint, read_value, read_width, type_name, whole, width_from, Fields};
use crate::err;
use simprint::Fingerprint;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** What the Hamming distance between two fingerprints tells. */
export interface Comparison {
  distance: number;
  width: number;
  /** 1 - distance / width */
  similarity: number;
  /** PI * distance / width: the estimated angle (radians) between the feature vectors. */
  angle: number;
  /** cos(angle): the estimated cosine similarity. */
  cosine: number;
  /** distance <= k, when `compare` was given a k (e.g. `recommendedK(textA)`). */
  nearDuplicate?: boolean;
}

/** The options of `compare`. */
export interface CompareOptions {
  /** Fingerprint width in bits, 1 to 128 (default 64). */
  width?: number;
  /** The distance bound: with it the answer says whether the two are near-duplicates. */
  k?: number;
}
"#;

/// Hamming distance between two fingerprints (BigInts from 0 to 2^128 - 1).
#[wasm_bindgen]
pub fn hamming(
    #[wasm_bindgen(unchecked_param_type = "bigint | string")] a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "bigint | string")] b: JsValue,
) -> Result<u32, JsError> {
    let a = read_value("a", &a, 128)?;
    let b = read_value("b", &b, 128)?;
    Ok(simprint::hamming(a.value(), b.value()))
}

/// `hamming(a, b)` for two BigInts below 2^64, which the package's `fast.js` passes as they
/// are (wasm takes a BigInt as an i64): every such value is a 64-bit fingerprint, so nothing
/// needs checking, and the generic path's conversions (several calls across the boundary
/// per BigInt) are skipped.
#[wasm_bindgen(js_name = __hamming64, skip_typescript)]
pub fn hamming_64(a: u64, b: u64) -> u32 {
    simprint::hamming64(a, b)
}

/// `compare(a, b)` without options for two BigInts below 2^64, as `fast.js` passes them.
#[wasm_bindgen(js_name = __compare64, skip_typescript)]
pub fn compare_64(a: u64, b: u64) -> Result<JsValue, JsError> {
    let width = simprint::Options::default().width;
    let a = Fingerprint::new(a.into(), width).map_err(err)?;
    let c = a
        .compare(&Fingerprint::new(b.into(), width).map_err(err)?)
        .map_err(err)?;
    Ok(crate::results::comparison(&c, None))
}

/// Distance, similarity 1 - d/f, angle PI·d/f and its cosine for two `width`-bit
/// fingerprints; the third argument is the width (default 64) or `{ width, k }`, and with a
/// `k` the answer also says `nearDuplicate` (distance at most k).
#[wasm_bindgen(unchecked_return_type = "Comparison")]
pub fn compare(
    #[wasm_bindgen(unchecked_param_type = "bigint | string")] a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "bigint | string")] b: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number | CompareOptions")] options: Option<
        JsValue,
    >,
) -> Result<JsValue, JsError> {
    let (width, k) = match options.as_ref().filter(|v| v.is_object()) {
        Some(_) => {
            let fields = Fields::read(&options, &["width", "k"])?;
            let field = |name| fields.as_ref().map(|f| f.number(name)).transpose();
            let width =
                simprint::check_width(width_from(field("width")?.flatten())?).map_err(err)?;
            let k = match field("k")?.flatten() {
                Some(k) => {
                    let k = whole("k", k)?;
                    simprint::check_k(width, k).map_err(err)?;
                    Some(k)
                }
                None => None,
            };
            (width, k)
        }
        None => (read_width(&options)?, None),
    };
    let c = read_value("a", &a, width)?
        .compare(&read_value("b", &b, width)?)
        .map_err(err)?;
    Ok(crate::results::comparison(&c, k))
}

/// `ceil(width/4)` lowercase hex digits of a `width`-bit fingerprint (default 64).
#[wasm_bindgen(js_name = toHex)]
pub fn to_hex(
    #[wasm_bindgen(unchecked_param_type = "bigint | string")] fingerprint: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] width: Option<JsValue>,
) -> Result<String, JsError> {
    Ok(read_value("fingerprint", &fingerprint, read_width(&width)?)?.to_hex())
}

/// The `width` bits of a fingerprint (default 64) as '0'/'1' characters, bit 0 (the most
/// significant) first: the order the algorithm numbers them in.
#[wasm_bindgen(js_name = toBinary)]
pub fn to_binary(
    #[wasm_bindgen(unchecked_param_type = "bigint | string")] fingerprint: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] width: Option<JsValue>,
) -> Result<String, JsError> {
    Ok(read_value("fingerprint", &fingerprint, read_width(&width)?)?.to_binary())
}

/// Parses hex (optional `0x`, 1 to `ceil(width/4)` digits) into a `width`-bit fingerprint
/// (default 64) as a BigInt.
#[wasm_bindgen(js_name = fromHex, unchecked_return_type = "bigint")]
pub fn from_hex(
    #[wasm_bindgen(unchecked_param_type = "string")] hex: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] width: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let hex = hex
        .as_string()
        .ok_or_else(|| JsError::new(&format!("hex must be a string, got {}", type_name(&hex))))?;
    Fingerprint::from_hex(&hex, read_width(&width)?)
        .map(bigint)
        .map_err(err)
}
