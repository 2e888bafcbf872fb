//! Typed-array arguments, read for every binding in one place.
//!
//! `dyn_ref` is an `instanceof` check, which a proxy of a typed array passes and one from
//! another realm fails, and js-sys's reading methods call the value's own `length`, `subarray`
//! and `set` through imports without `catch`. A proxy made them throw through wasm (leaving the
//! object called borrowed for good), and a subclass's `length` made `to_vec` hand over memory
//! it never wrote. So `typed.js` looks at the value's internal slots only and hands over a
//! view of this realm over its memory; its exceptions are caught there (see guard.js).

use alloc::format;
use alloc::vec::Vec;

use core::sync::atomic::{AtomicBool, Ordering};
use js_sys::BigUint64Array;
use wasm_bindgen::prelude::*;

use crate::guard::caught;

#[wasm_bindgen(module = "/js/typed.js")]
extern "C" {
    #[wasm_bindgen(js_name = useMemory)]
    fn use_memory(memory: &JsValue);

    // Each copied into wasm memory by the glue.
    #[wasm_bindgen(js_name = uint8ArrayOf)]
    fn uint8_array_of(value: &JsValue) -> Option<Vec<u8>>;
    #[wasm_bindgen(js_name = uint32ArrayOf)]
    fn uint32_array_of(value: &JsValue) -> Option<Vec<u32>>;
    #[wasm_bindgen(js_name = float64ArrayOf)]
    fn float64_array_of(value: &JsValue) -> Option<Vec<f64>>;
    #[wasm_bindgen(js_name = bigUint64ArrayOf)]
    fn big_uint64_array_of(value: &JsValue) -> Option<Vec<u64>>;

    // The view itself, for the scans to copy a step at a time.
    #[wasm_bindgen(js_name = bigUint64ArrayOf)]
    fn big_uint64_array_view(value: &JsValue) -> Option<BigUint64Array>;
    #[wasm_bindgen(js_name = copyTo)]
    fn copy_to(view: &BigUint64Array, start: u32, dst: &mut [u64]);
}

/// Tells `typed.js` the module's memory before the first read.
fn know_memory() {
    static KNOWN: AtomicBool = AtomicBool::new(false);
    if !KNOWN.swap(true, Ordering::Relaxed) {
        use_memory(&wasm_bindgen::memory());
    }
}

/// An element type of the typed arrays the bindings take.
pub(crate) trait Element: Sized {
    /// The elements of `value` if it is a typed array of them (of any realm), else `None`
    /// (and a failure for [`caught`] if it could not be read).
    fn copy_of(value: &JsValue) -> Option<Vec<Self>>;
}

impl Element for u8 {
    fn copy_of(value: &JsValue) -> Option<Vec<u8>> {
        uint8_array_of(value)
    }
}

impl Element for u32 {
    fn copy_of(value: &JsValue) -> Option<Vec<u32>> {
        uint32_array_of(value)
    }
}

impl Element for f64 {
    fn copy_of(value: &JsValue) -> Option<Vec<f64>> {
        float64_array_of(value)
    }
}

impl Element for u64 {
    fn copy_of(value: &JsValue) -> Option<Vec<u64>> {
        big_uint64_array_of(value)
    }
}

/// The argument called `what`, copied, if it is a typed array of `T`s (a Uint8Array for `u8`,
/// and so on); `None` if it is anything else, an error if it is one that cannot be read (its
/// buffer detached).
pub(crate) fn read<T: Element>(what: &str, value: &JsValue) -> Result<Option<Vec<T>>, JsError> {
    know_memory();
    let copy = T::copy_of(value);
    caught().map_err(|why| unreadable(what, &why))?;
    Ok(copy)
}

/// A BigUint64Array argument seen through a view of this realm, to copy a part at a time.
pub(crate) struct Words {
    view: BigUint64Array,
    len: u32,
    /// The argument's name, for messages.
    what: &'static str,
}

impl Words {
    /// Like [`read`], without the copy.
    pub(crate) fn read(what: &'static str, value: &JsValue) -> Result<Option<Words>, JsError> {
        know_memory();
        let view = big_uint64_array_view(value);
        caught().map_err(|why| unreadable(what, &why))?;
        // Our own view: its length is the intrinsic getter's.
        Ok(view.map(|view| Words {
            len: view.length(),
            view,
            what,
        }))
    }

    pub(crate) fn len(&self) -> u32 {
        self.len
    }

    /// Copies words `start..start + dst.len()` into `dst`.
    pub(crate) fn copy_to(&self, start: u32, dst: &mut [u64]) -> Result<(), JsError> {
        copy_to(&self.view, start, dst);
        caught().map_err(|why| unreadable(self.what, &why))
    }
}

fn unreadable(what: &str, why: &str) -> JsError {
    JsError::new(&format!("{what} could not be read: {why}"))
}
