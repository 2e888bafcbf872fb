//! The `Fingerprinter` class and the one-shot functions that make one.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicU32, Ordering};

use wasm_bindgen::prelude::*;

use crate::convert::{bigint, read_text, type_name};
use crate::err;
use crate::explanation::{explanation, fragility};
use crate::features;
use crate::guard::{array_item, array_length, is_array};
use crate::options::{feature_options, read_options, weights_option};
use crate::scratch;
use crate::stream::FingerprintStream;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Caller-supplied features: strings (weight 1 each, or as `weights` says), or
 *  [feature, weight] pairs. */
export type FeatureList = readonly string[] | ReadonlyArray<readonly [string, number]>;

/** The weights of a string[] of features (each 1 without them). */
export interface FeatureWeights {
  /** weights[i] is features[i]'s weight: finite numbers, as many as features. Only with a
   *  string[] of features (pairs carry their own weights). */
  weights?: Float64Array | readonly number[];
}

/** Options of caller-supplied features: the width, the key and the weights of a string[]. */
export interface FeatureOptions extends FeatureWeights {
  width?: number;
  key?: string;
}
"#;

/// Fingerprints text with one set of options, checked once.
///
/// ```js
/// const fp = new Fingerprinter({ width: 128, tokenizer: "words", n: 2 });
/// const a = fp.fingerprint("the quick brown fox"); // a BigInt below 2n ** 128n
/// ```
#[wasm_bindgen]
pub struct Fingerprinter {
    pub(crate) inner: simprint::Fingerprinter,
}

#[wasm_bindgen]
impl Fingerprinter {
    /// Checks the options; throws on a bad one (width outside 1..128, n outside 1..64, an
    /// unknown tokenizer, weighting or normalization, a malformed key, an unknown field).
    /// For IDF weights, use `DocumentFrequencies.fingerprinter()`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: Option<JsValue>,
    ) -> Result<Fingerprinter, JsError> {
        let inner = simprint::Fingerprinter::new(read_options(&options)?).map_err(err)?;
        Ok(Fingerprinter { inner })
    }

    /// The fingerprint width in bits.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> u32 {
        self.inner.options().width
    }

    /// The fingerprint of `text` as a BigInt.
    #[wasm_bindgen(unchecked_return_type = "bigint")]
    pub fn fingerprint(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<JsValue, JsError> {
        Ok(bigint(self.inner.fingerprint(&read_text(&text)?)))
    }

    /// `fingerprint(text)` for a string, as the package's `fast.js` passes it: the glue copies
    /// it into wasm memory before the call (no call back out to read it), and the value comes
    /// back as a `u128` the glue makes a BigInt (no externref to allocate and free).
    #[wasm_bindgen(js_name = __fingerprintText, skip_typescript)]
    pub fn fingerprint_text(&self, text: &str) -> u128 {
        self.inner.fingerprint(text).value()
    }

    /// `fingerprint(text)` for a string `fast.js` has already written as UTF-8 into the
    /// scratch buffer with the engine's `TextEncoder.encodeInto` (its first `len` bytes).
    #[wasm_bindgen(js_name = __fingerprintScratch, skip_typescript)]
    pub fn fingerprint_scratch(&self, len: usize) -> u128 {
        self.inner.fingerprint(&scratch::text(len)).value()
    }

    /// The Hamming distance bound for `text` under this fingerprinter's tokenizer, weights
    /// and width: the core's `Fingerprinter::recommended_k` with `{ tolerance, far }`
    /// (defaults 0.1 and twice it).
    #[wasm_bindgen(js_name = recommendedK)]
    pub fn recommended_k(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Omit<RecommendOptions, \"width\">")]
        options: Option<JsValue>,
    ) -> Result<u32, JsError> {
        let fields = crate::convert::Fields::read(&options, &["tolerance", "far"])?;
        let tolerance = crate::defaults::read_tolerance(fields.as_ref())?;
        self.inner
            .recommended_k(&read_text(&text)?, tolerance)
            .map_err(err)
    }

    /// The fingerprint of `text` and its number of distinct features in one pass, as
    /// `{ fingerprint, features }`: what `fingerprint(text)` and `featureCount(text)` give apart
    /// (the core's `Fingerprinter::fingerprint_counted`), for the pair rule's `pairK`.
    #[wasm_bindgen(
        js_name = fingerprintCounted,
        unchecked_return_type = "{ fingerprint: bigint; features: number }"
    )]
    pub fn fingerprint_counted(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<JsValue, JsError> {
        Ok(counted(self.inner.fingerprint_counted(&read_text(&text)?)))
    }

    /// `fingerprintCounted(text)` for a string, as `fast.js` passes it: the fingerprint comes
    /// back as the glue's `u128` and the count is left for `__lastCount`, so `fast.js` makes
    /// the result object (building it from here calls out of wasm once per field).
    #[wasm_bindgen(js_name = __fingerprintCountedText, skip_typescript)]
    pub fn fingerprint_counted_text(&self, text: &str) -> u128 {
        keep_count(self.inner.fingerprint_counted(text))
    }

    /// `__fingerprintCountedText` for a string `fast.js` has written into the scratch buffer
    /// (its first `len` bytes).
    #[wasm_bindgen(js_name = __fingerprintCountedScratch, skip_typescript)]
    pub fn fingerprint_counted_scratch(&self, len: usize) -> u128 {
        keep_count(self.inner.fingerprint_counted(&scratch::text(len)))
    }

    /// The number of distinct features of `text` as this fingerprinter sees them: the size
    /// `pairK` compares (the core's `Fingerprinter::feature_count`). Store it beside the
    /// fingerprint.
    #[wasm_bindgen(js_name = featureCount)]
    pub fn feature_count(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<u32, JsError> {
        Ok(self.inner.feature_count(&read_text(&text)?))
    }

    /// The fingerprint of `text` as `ceil(width / 4)` lowercase hex digits: the form to put in
    /// JSON (which has no BigInt); every function taking a fingerprint takes it back.
    #[wasm_bindgen(js_name = fingerprintHex)]
    pub fn fingerprint_hex(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<String, JsError> {
        Ok(self.inner.fingerprint(&read_text(&text)?).to_hex())
    }

    /// A stream with these options: `update(chunk)` with the text's bytes (Uint8Array) or
    /// string pieces, then `finish()` gives the same fingerprint as `fingerprint(wholeText)`.
    /// With `{ recommend: true }` (and `tolerance`, `far` as `recommendedK` takes them) it also
    /// counts the text's features, and `finishRecommending()` gives `{ fingerprint, k }`, `k`
    /// being `recommendedK(wholeText)`: the core's `Fingerprinter::stream_recommending`.
    pub fn stream(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "StreamOptions")] options: Option<JsValue>,
    ) -> Result<FingerprintStream, JsError> {
        let fields = crate::convert::Fields::read(&options, &["recommend", "tolerance", "far"])?;
        let recommend = fields
            .as_ref()
            .map(|f| f.boolean("recommend"))
            .transpose()?
            .flatten()
            .unwrap_or(false);
        let inner = if recommend {
            let tolerance = crate::defaults::read_tolerance(fields.as_ref())?;
            self.inner.stream_recommending(tolerance).map_err(err)?
        } else {
            let tolerance = fields
                .as_ref()
                .map(|f| f.get("tolerance"))
                .transpose()?
                .flatten();
            let far = fields.as_ref().map(|f| f.get("far")).transpose()?.flatten();
            if tolerance.is_some() || far.is_some() {
                return Err(JsError::new(
                    "stream options: tolerance and far need { recommend: true }",
                ));
            }
            self.inner.stream()
        };
        Ok(FingerprintStream { inner: Some(inner) })
    }

    /// The fingerprints of many texts in one call: a BigUint64Array for widths up to 64, two
    /// words per text (high first) above 64.
    //
    // Up to 64 bits the package's `fast.js` answers an array of strings with its own fast
    // `fingerprint` per text, quicker than reading each element from in here; this answers
    // everything else and words the errors.
    #[wasm_bindgen(js_name = fingerprintMany)]
    pub fn fingerprint_many(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] texts: JsValue,
    ) -> Result<js_sys::BigUint64Array, JsError> {
        if !is_array(&texts) {
            return Err(JsError::new(&format!(
                "texts must be an array of strings, got {}",
                type_name(&texts)
            )));
        }
        let wide = self.inner.options().width > 64;
        // Not preallocated from the length: a sparse array's length says nothing about memory.
        let mut out: Vec<u64> = Vec::new();
        for i in 0..array_length("texts", &texts)? {
            let t = array_item("texts", &texts, i)?;
            let text = t.as_string().ok_or_else(|| {
                JsError::new(&format!(
                    "texts[{i}] must be a string, got {}",
                    type_name(&t)
                ))
            })?;
            let v = self.inner.fingerprint(&text).value();
            #[allow(clippy::cast_possible_truncation, reason = "the u128's two halves")]
            let (high, low) = ((v >> 64) as u64, v as u64);
            if wide {
                out.push(high);
            }
            out.push(low);
        }
        Ok(js_sys::BigUint64Array::from(out.as_slice()))
    }

    /// V, the bits and the feature rows behind `fingerprint(text)`.
    #[wasm_bindgen(unchecked_return_type = "Explanation")]
    pub fn explain(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<JsValue, JsError> {
        explanation(self.inner.explain(&read_text(&text)?).map_err(err)?)
    }

    /// For each bit of `fingerprint(text)`, bit 0 first: the features (indices into
    /// `explain(text).features`) whose removal alone flips it, and the least weight of one
    /// added feature that could (null when none): the core's `Explanation::fragility`.
    ///
    /// ```js
    /// const fp = new Fingerprinter({ width: 16 });
    /// const fragile = fp.fragility("the cat sat on the mat");
    /// fragile.filter((bit) => bit.removals.length || bit.addition !== null).length; // bits one feature could flip
    /// ```
    #[wasm_bindgen(unchecked_return_type = "BitFragility[]")]
    pub fn fragility(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<JsValue, JsError> {
        Ok(fragility(
            self.inner
                .explain(&read_text(&text)?)
                .map_err(err)?
                .fragility(),
        ))
    }

    /// `fingerprintFeatures(features, options)` with this fingerprinter's width and key (its
    /// tokenizer, folding, weighting and IDF do not apply: features are hashed as given).
    /// `options` takes `weights` only.
    /// The pair rule's k for two texts with `featuresA` and `featuresB` distinct features
    /// (`featureCount`) under this fingerprinter's width and algorithm: the core's
    /// `Fingerprinter::pair_k` with `{ tolerance, far }` (defaults 0.1 and twice it).
    #[wasm_bindgen(js_name = pairK)]
    pub fn pair_k(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] features_a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] features_b: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Omit<RecommendOptions, \"width\">")]
        options: Option<JsValue>,
    ) -> Result<u32, JsError> {
        let (a, b) = crate::defaults::pair_counts(&features_a, &features_b)?;
        let fields = crate::convert::Fields::read(&options, &["tolerance", "far"])?;
        let tolerance = crate::defaults::read_tolerance(fields.as_ref())?;
        self.inner.pair_k(a, b, tolerance).map_err(err)
    }

    /// The fingerprints' algorithm: "simhash" or "minhash".
    #[wasm_bindgen(getter)]
    pub fn algorithm(&self) -> String {
        self.inner.options().algorithm.name().into()
    }

    #[wasm_bindgen(js_name = fingerprintFeatures, unchecked_return_type = "bigint")]
    pub fn fingerprint_features(
        &self,
        #[wasm_bindgen(unchecked_param_type = "FeatureList")] features: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "FeatureWeights")] options: Option<JsValue>,
    ) -> Result<JsValue, JsError> {
        let weights = weights_option(&options)?;
        Ok(bigint(features::fingerprint(
            &self.inner,
            &features,
            weights.as_ref(),
        )?))
    }

    /// Explains `fingerprintFeatures(features, options)` with this fingerprinter's width and
    /// key: one row per feature.
    #[wasm_bindgen(js_name = explainFeatures, unchecked_return_type = "Explanation")]
    pub fn explain_features(
        &self,
        #[wasm_bindgen(unchecked_param_type = "FeatureList")] features: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "FeatureWeights")] options: Option<JsValue>,
    ) -> Result<JsValue, JsError> {
        let weights = weights_option(&options)?;
        explanation(features::explain(&self.inner, &features, weights.as_ref())?)
    }
}

/// The fingerprint of `text` (a BigInt). Options default to 64 bits, the script-aware
/// tokenizer, case folding, binary weights and the default key.
#[wasm_bindgen(unchecked_return_type = "bigint")]
pub fn fingerprint(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: Option<JsValue>,
) -> Result<JsValue, JsError> {
    Fingerprinter::new(options)?.fingerprint(text)
}

/// `{ fingerprint, features }`, as `fingerprintCounted` answers.
fn counted((fingerprint, features): (simprint::Fingerprint, u32)) -> JsValue {
    crate::object::Obj::new()
        .set("fingerprint", fingerprint.value())
        .set("features", features)
        .done()
}

/// The count of the last `__fingerprintCounted…` call (the package's wasm has no threads).
static LAST_COUNT: AtomicU32 = AtomicU32::new(0);

fn keep_count((fingerprint, features): (simprint::Fingerprint, u32)) -> u128 {
    LAST_COUNT.store(features, Ordering::Relaxed);
    fingerprint.value()
}

/// The count of the last `__fingerprintCountedText` or `__fingerprintCountedScratch` call.
#[wasm_bindgen(js_name = __lastCount, skip_typescript)]
#[must_use]
pub fn last_count() -> u32 {
    LAST_COUNT.load(Ordering::Relaxed)
}

/// `fingerprint(text, options)` as `ceil(width / 4)` lowercase hex digits, for JSON.
#[wasm_bindgen(js_name = fingerprintHex)]
pub fn fingerprint_hex(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: Option<JsValue>,
) -> Result<String, JsError> {
    Fingerprinter::new(options)?.fingerprint_hex(text)
}

/// V, the bits and one row per distinct feature for `text` under `options`.
#[wasm_bindgen(unchecked_return_type = "Explanation")]
pub fn explain(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: Option<JsValue>,
) -> Result<JsValue, JsError> {
    Fingerprinter::new(options)?.explain(text)
}

/// The fingerprint of caller-supplied features, hashed as given (no case folding, no
/// tokenizing): a `string[]` of features, each of weight 1 or `options.weights[i]` (a
/// Float64Array or number[] as long as it), or `[[feature, weight], ...]` pairs. Weights are
/// any finite numbers; repeated features add up. Either way the list crosses into wasm in one
/// piece; the string form spares building pairs.
#[wasm_bindgen(js_name = fingerprintFeatures, unchecked_return_type = "bigint")]
pub fn fingerprint_features(
    #[wasm_bindgen(unchecked_param_type = "FeatureList")] features: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "FeatureOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let (fp, weights) = feature_options(&options)?;
    Ok(bigint(features::fingerprint(
        &fp,
        &features,
        weights.as_ref(),
    )?))
}

/// Explains `fingerprintFeatures` (the same arguments): one row per feature.
#[wasm_bindgen(js_name = explainFeatures, unchecked_return_type = "Explanation")]
pub fn explain_features(
    #[wasm_bindgen(unchecked_param_type = "FeatureList")] features: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "FeatureOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let (fp, weights) = feature_options(&options)?;
    explanation(features::explain(&fp, &features, weights.as_ref())?)
}
