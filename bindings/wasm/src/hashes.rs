//! Fingerprints of pre-hashed features: the algorithm with nothing in front of it.

use wasm_bindgen::prelude::*;

use crate::convert::{bigint, read_hashes, read_width};
use crate::err;
use crate::explanation::{explanation, fragility};

/// The fingerprint of pre-hashed `[hash, weight]` pairs of `width` bits (default 64), e.g.
/// `fingerprintHashes([[0b101n, 1], [0b011n, 2]], 3)`.
#[wasm_bindgen(js_name = fingerprintHashes, unchecked_return_type = "bigint")]
pub fn fingerprint_hashes(
    #[wasm_bindgen(unchecked_param_type = "Array<[bigint, number]>")] hashes: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] width: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let width = read_width(&width)?;
    simprint::fingerprint_hashes(width, read_hashes(&hashes, width)?)
        .map(bigint)
        .map_err(err)
}

/// V and the bits of pre-hashed `[hash, weight]` pairs of `width` bits (default 64).
#[wasm_bindgen(js_name = explainHashes, unchecked_return_type = "Explanation")]
pub fn explain_hashes(
    #[wasm_bindgen(unchecked_param_type = "Array<[bigint, number]>")] hashes: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] width: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let width = read_width(&width)?;
    explanation(simprint::explain_hashes(width, read_hashes(&hashes, width)?).map_err(err)?)
}

/// `explainHashes(hashes, width).fragility`: for each bit, the pairs (by index) whose removal
/// alone flips it, and the least weight of one added pair that could (null when none).
///
/// ```js
/// // 美国 100101 (weight 4) and 51区 101011 (weight 5): V = (9, -9, 1, -1, 1, 9).
/// fragilityOfHashes([[0b100101n, 4], [0b101011n, 5]], 6)[2]; // { removals: [1], addition: 4 }
/// ```
#[wasm_bindgen(js_name = fragilityOfHashes, unchecked_return_type = "BitFragility[]")]
pub fn fragility_of_hashes(
    #[wasm_bindgen(unchecked_param_type = "Array<[bigint, number]>")] hashes: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] width: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let width = read_width(&width)?;
    let e = simprint::explain_hashes(width, read_hashes(&hashes, width)?).map_err(err)?;
    Ok(fragility(e.fragility()))
}
