//! The `FingerprintStream` class: fingerprints of text that arrives in chunks.

use alloc::format;

use wasm_bindgen::prelude::*;

use crate::convert::{bigint, type_name};
use crate::typed;

/// A fingerprint computed from text that arrives in chunks (e.g. a request body): equal to the
/// one-shot fingerprint for any chunking, holding only the text after the last place it may
/// be cut (a space, 。 or 、) in memory.
///
/// ```js
/// const stream = new Fingerprinter().stream();
/// for await (const chunk of request.body) stream.update(chunk);
/// const fp = stream.finish();
/// ```
#[wasm_bindgen]
pub struct FingerprintStream {
    pub(crate) inner: Option<simprint::Stream>,
}

#[wasm_bindgen]
impl FingerprintStream {
    /// Adds the next chunk: a Uint8Array of UTF-8 bytes (split anywhere, even inside a
    /// character) or a string (which must not split a surrogate pair).
    pub fn update(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] chunk: JsValue,
    ) -> Result<(), JsError> {
        let stream = self
            .inner
            .as_mut()
            .ok_or_else(|| JsError::new("the stream is finished"))?;
        if let Some(bytes) = typed::read::<u8>("chunk", &chunk)? {
            stream.update(&bytes);
        } else if let Some(text) = chunk.as_string() {
            stream.update(text.as_bytes());
        } else {
            return Err(JsError::new(&format!(
                "chunk must be a Uint8Array or a string, got {}",
                type_name(&chunk)
            )));
        }
        Ok(())
    }

    /// Bytes given so far.
    #[wasm_bindgen(getter)]
    pub fn bytes(&self) -> f64 {
        self.inner.as_ref().map_or(0.0, |s| s.bytes() as f64)
    }

    /// The fingerprint of everything given (a BigInt); the stream cannot be used afterwards.
    #[wasm_bindgen(unchecked_return_type = "bigint")]
    pub fn finish(&mut self) -> Result<JsValue, JsError> {
        let stream = self
            .inner
            .take()
            .ok_or_else(|| JsError::new("the stream is finished"))?;
        Ok(bigint(stream.finish()))
    }

    /// `{ fingerprint, k, features }` of everything given, for a stream made with
    /// `{ recommend: true }`: the fingerprint (a BigInt), the text's recommended k and its
    /// distinct features (`featureCount`, for `pairK`). The stream cannot be used afterwards.
    #[wasm_bindgen(js_name = finishRecommending, unchecked_return_type = "{ fingerprint: bigint; k: number; features: number }")]
    pub fn finish_recommending(&mut self) -> Result<JsValue, JsError> {
        let stream = self
            .inner
            .take()
            .ok_or_else(|| JsError::new("the stream is finished"))?;
        let (fingerprint, recommendation) = stream.finish_recommending();
        let Some(recommendation) = recommendation else {
            return Err(JsError::new(
                "finishRecommending needs a stream made with { recommend: true }; the stream is finished",
            ));
        };
        let out = js_sys::Object::new();
        for (name, value) in [
            ("fingerprint", bigint(fingerprint)),
            ("k", JsValue::from(recommendation.k)),
            ("features", JsValue::from(recommendation.features)),
        ] {
            js_sys::Reflect::set(&out, &name.into(), &value)
                .map_err(|_| JsError::new("internal: Reflect.set failed"))?;
        }
        Ok(out.into())
    }
}
