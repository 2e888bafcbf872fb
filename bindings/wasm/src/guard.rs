//! Reading caller values without letting a JavaScript exception cross wasm: through guard.js.

use alloc::format;
use alloc::string::String;

use js_sys::Array;
use wasm_bindgen::prelude::*;

// JavaScript that can throw (a getter, a proxy trap) is only ever called through the
// functions of guard.js and its sibling snippets, which catch every exception and keep it for
// `take_failure`. An exception that unwound through wasm frames instead would skip their
// epilogues and leak the shadow stack (about 1,300 such calls and the instance trapped on
// every call after), and wasm-bindgen's `catch` imports leak an externref table slot for
// each exception they catch; see guard.js.
#[wasm_bindgen(module = "/js/guard.js")]
extern "C" {
    #[wasm_bindgen(js_name = takeFailure)]
    pub(crate) fn take_failure() -> Option<String>;
    #[wasm_bindgen(js_name = get)]
    pub(crate) fn guarded_get(object: &JsValue, key: &JsValue) -> JsValue;
    /// An options object's `names` (separated by ", "): see guard.js.
    #[wasm_bindgen(js_name = fields)]
    pub(crate) fn guarded_fields(object: &JsValue, names: &str) -> Array;
    /// `Array.isArray`, false for a revoked proxy (which makes it throw).
    #[wasm_bindgen(js_name = isArray)]
    pub(crate) fn is_array(value: &JsValue) -> bool;
}

/// `Err(description)` if the last guarded call caught an exception. Every guarded call is
/// followed by this, so a failure is never left for the next one to find.
pub(crate) fn caught() -> Result<(), String> {
    take_failure().map_or(Ok(()), Err)
}

/// `object[key]`, or an error saying `what` could not be read and why.
pub(crate) fn get(what: &str, object: &JsValue, key: &JsValue) -> Result<JsValue, JsError> {
    let value = guarded_get(object, key);
    caught().map_err(|why| JsError::new(&format!("{what} could not be read: {why}")))?;
    Ok(value)
}

/// `value.length` of an array (a proxy or getter that throws is an error).
pub(crate) fn array_length(what: &str, value: &JsValue) -> Result<u32, JsError> {
    let len = get(what, value, &JsValue::from_str("length"))?;
    len.as_f64()
        .filter(|n| is_whole(*n) && (0.0..=f64::from(u32::MAX)).contains(n))
        .map(|n| {
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "filtered: a whole number in range"
            )]
            let n = n as u32;
            n
        })
        .ok_or_else(|| JsError::new(&format!("{what} has no valid length")))
}

/// `value[i]` of an array (a getter or proxy that throws is an error naming the element).
pub(crate) fn array_item(what: &str, value: &JsValue, i: u32) -> Result<JsValue, JsError> {
    get(&format!("{what}[{i}]"), value, &JsValue::from(i))
}

/// True for a whole number (`f64::fract` is std's): `%` is exact, NaN and infinities are not
/// whole, and -0 is. (Here, beside the reads that need it first, so that
/// `convert.rs` uses this module and not the other way round.)
pub(crate) fn is_whole(x: f64) -> bool {
    x % 1.0 == 0.0
}
