//! Linear scans from JavaScript: one fingerprint against a `BigUint64Array` or an array of
//! BigInts, copied into wasm a step at a time.

use alloc::format;
use alloc::vec::Vec;

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;

use crate::convert::{read_k, read_value, read_width, type_name, wasm_len};
use crate::err;
use crate::fingerprints::{read_fp_list, read_fps};
use crate::object::{array, Obj};
use crate::typed::Words;
use simprint::Fingerprint;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** A fingerprint found by a scan: its position in the scanned array. */
export interface ScanHit { index: number; distance: number; }
"#;

/// The distance from `fingerprint` to every element of `fingerprints` (a BigUint64Array of
/// fingerprints up to 64 bits), in order, one byte each.
#[wasm_bindgen]
pub fn distances(
    #[wasm_bindgen(unchecked_param_type = "bigint | string")] fingerprint: JsValue,
    #[wasm_bindgen(unchecked_param_type = "BigUint64Array")] fingerprints: JsValue,
) -> Result<Uint8Array, JsError> {
    // Read at width 64, so it is a u64.
    let q = read_value("fingerprint", &fingerprint, 64)?
        .to_u64()
        .unwrap_or_default();
    let Some(fps) = Words::read("fingerprints", &fingerprints)? else {
        return Err(JsError::new(&format!(
            "fingerprints must be a BigUint64Array, got {}",
            type_name(&fingerprints)
        )));
    };
    let out = Uint8Array::new_with_length(fps.len());
    let mut words = Vec::new();
    let mut distances = Vec::new();
    for_each_step(&fps, &mut words, |start, words| {
        simprint::distances64(q, words, &mut distances);
        // `out` is ours, made above: its methods are the intrinsic ones.
        out.subarray(start, start + wasm_len(words.len()))
            .copy_from(&distances);
    })?;
    Ok(out)
}

/// Checks that each of `words` (element `start` on of an argument) fits `width` bits.
fn check_all(words: &[u64], start: u32, width: u32) -> Result<(), JsError> {
    for (i, &v) in words.iter().enumerate() {
        Fingerprint::new(u128::from(v), width)
            .map_err(|e| JsError::new(&format!("fingerprints[{}]: {e}", start as usize + i)))?;
    }
    Ok(())
}

/// Fingerprints copied into wasm memory per step of a bulk call: 512 KB, so each copy is
/// still in cache when it is scanned, and a large array needs no equally large allocation
/// (wasm memory never shrinks).
const STEP: u32 = 1 << 16;

/// Copies `array` into `buf` [`STEP`] elements at a time, calling `scan(start, words)` on each.
fn for_each_step(
    array: &Words,
    buf: &mut Vec<u64>,
    mut scan: impl FnMut(u32, &[u64]),
) -> Result<(), JsError> {
    let len = array.len();
    buf.resize(len.min(STEP) as usize, 0);
    let mut start = 0;
    while start < len {
        let end = len.min(start + STEP);
        let words = &mut buf[..(end - start) as usize];
        array.copy_to(start, words)?;
        scan(start, words);
        start = end;
    }
    Ok(())
}

/// Every position of `fingerprints` (a BigUint64Array — two words per fingerprint above 64
/// bits — or an array of BigInts) within `k` of `fingerprint`, sorted by distance, then
/// position. `width` defaults to 64.
#[wasm_bindgen(unchecked_return_type = "ScanHit[]")]
pub fn scan(
    #[wasm_bindgen(unchecked_param_type = "bigint | string")] fingerprint: JsValue,
    #[wasm_bindgen(unchecked_param_type = "BigUint64Array | bigint[]")] fingerprints: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] k: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] width: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let width = read_width(&width)?;
    let q = read_value("fingerprint", &fingerprint, width)?.value();
    if k.is_undefined() || k.is_null() {
        return Err(JsError::new("k is required"));
    }
    let k = read_k(&Some(k), 0)?;
    simprint::check_k(width, k).map_err(err)?;
    let hits = if width > 64 {
        // Above 64 bits the words are paired up into a copy anyway.
        let fps: Vec<u128> = read_fps(&fingerprints, width)?
            .iter()
            .map(Fingerprint::value)
            .collect();
        simprint::scan128(q, &fps, k)
    } else if let Some(a) = Words::read("fingerprints", &fingerprints)? {
        // The common case copies the array a step at a time and scans it as it is.
        // At most 64 bits wide here.
        let q64 = Fingerprint::new(q, width)
            .ok()
            .and_then(|f| f.to_u64())
            .unwrap_or_default();
        let mut scan = simprint::Scan64::new(q64, k);
        let mut too_wide = Ok(());
        for_each_step(&a, &mut Vec::new(), |start, words| {
            if too_wide.is_err() {
                return;
            }
            if width < 64 {
                too_wide = check_all(words, start, width);
                if too_wide.is_err() {
                    return;
                }
            }
            scan.feed(words);
        })?;
        too_wide?;
        scan.finish()
    } else {
        let fps: Vec<u64> = read_fp_list(&fingerprints, width)?
            .iter()
            .map(|f| f.to_u64().unwrap_or_default())
            .collect();
        let q64 = Fingerprint::new(q, width)
            .ok()
            .and_then(|f| f.to_u64())
            .unwrap_or_default();
        simprint::scan64(q64, &fps, k)
    };
    Ok(array(hits.iter().map(|h| {
        Obj::new()
            .set("index", wasm_len(h.index))
            .set("distance", h.distance)
            .done()
    })))
}
