//! Fingerprints in bulk from JavaScript: a `BigUint64Array` (one element per fingerprint up to
//! 64 bits, two, high word first, above 64) or an array of BigInts.

use alloc::format;
use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

use crate::convert::{read_value, type_name};
use crate::guard::{array_item, array_length, is_array};
use crate::typed;
use simprint::Fingerprint;

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
