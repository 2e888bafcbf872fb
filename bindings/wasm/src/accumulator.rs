//! The `Accumulator` class: `V` built one feature at a time.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

use crate::convert::{bigint, read_value, read_width, type_name};
use crate::err;

/// V built up one feature at a time: the algorithm's accumulation step by step, for teaching.
///
/// ```js
/// const acc = new Accumulator(3);
/// acc.add(0b101n, 1); acc.add(0b011n, 2);
/// acc.v; // [-3, -1, 3]
/// ```
#[wasm_bindgen]
pub struct Accumulator {
    inner: simprint::Accumulator,
}

#[wasm_bindgen]
impl Accumulator {
    /// An all-zero V of `width` bits (1 to 128).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "number")] width: JsValue,
    ) -> Result<Accumulator, JsError> {
        let width = read_width(&Some(width))?;
        Ok(Accumulator {
            inner: simprint::Accumulator::new(width).map_err(err)?,
        })
    }

    /// Adds one feature's `width`-bit hash with its weight: +weight where the hash has a 1,
    /// -weight where it has a 0. Throws (leaving V unchanged) on a hash wider than the width
    /// or a weight that is not finite.
    pub fn add(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "bigint | string")] hash: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] weight: JsValue,
    ) -> Result<(), JsError> {
        let hash = read_value("hash", &hash, self.inner.width())?;
        // A number of any value: the core refuses one that is not finite.
        let weight = weight.as_f64().ok_or_else(|| {
            JsError::new(&format!(
                "weight must be a number, got {}",
                type_name(&weight)
            ))
        })?;
        self.inner.add(hash.value(), weight).map_err(err)
    }

    /// The current V, bit 0 first.
    #[wasm_bindgen(getter)]
    pub fn v(&self) -> Vec<f64> {
        self.inner.v().to_vec()
    }

    /// The fingerprint of what was added so far (bit i is 1 iff V[i] > 0).
    #[wasm_bindgen(getter, unchecked_return_type = "bigint")]
    pub fn fingerprint(&self) -> JsValue {
        bigint(self.inner.fingerprint())
    }

    /// The fingerprint's bits as '0'/'1' characters, bit 0 first.
    #[wasm_bindgen(getter)]
    pub fn bits(&self) -> String {
        self.inner.fingerprint().to_binary()
    }

    /// The width in bits.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> u32 {
        self.inner.width()
    }
}
