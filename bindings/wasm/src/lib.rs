//! The JavaScript bindings of [simprint]: conversions, errors and ownership only; every
//! computation, default and rule is the core's.
//!
//! Fingerprints cross as `BigInt` at every width (a 128-bit fingerprint is a `BigInt` below
//! 2^128), options as a plain object, explanations as plain objects. Every failure is a thrown
//! `Error` whose message is the core's [`Error`] text, and nothing here can trap.
#![no_std]

extern crate alloc;
// The allocator and the panic handler; everything else here needs only `alloc`.
extern crate std;


use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

mod features;
mod index;
mod typed;

use js_sys::Array;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use simprint::{
    distance, explain, fingerprint::Fingerprint, Error, Explanation, Key, Normalization, Options,
    Tokenizer, Weighting,
};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Options of the text pipeline; every field is optional. */
export interface Options {
  /** Fingerprint width in bits, 1 to 128. Default 64. */
  width?: number;
  /** "auto" (default): CJK runs as character n-grams, other text as words;
   *  "words": word n-gram shingles; "chars": grapheme-cluster n-grams. */
  tokenizer?: "auto" | "words" | "chars";
  /** n-gram size for "words" (default 1) and "chars" (default 2), 1 to 64. */
  n?: number;
  /** With "auto": words per shingle outside CJK runs (default 1). */
  wordN?: number;
  /** With "auto": characters per n-gram inside CJK runs (default 2). */
  charN?: number;
  /** "width" (default): fold full-width and half-width forms first, so Ｔｅｘｔ１ matches
   *  Text1 and ｶﾀｶﾅ matches カタカナ; "none": the text as given. */
  normalization?: "width" | "none";
  /** Lowercase the text (after normalizing; default true). */
  caseFold?: boolean;
  /** "binary" (default): 1 per distinct feature; "tf": a feature weighs its number of
   *  occurrences; "logtf": 1 + ln(occurrences). */
  weighting?: "tf" | "logtf" | "binary";
  /** 128-bit SipHash key as 32 hex digits. Default: the bytes of "simprint-sip-key". */
  key?: string;
}

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

/** The library's defaults: what each option is when it is left out. */
export interface Defaults {
  /** The text pipeline's options (`fingerprint(text)` uses exactly these). */
  options: Required<Omit<Options, "n">>;
  /** The n of each tokenizer that takes `n`. */
  n: { words: number; chars: number };
  /** A new Index's width and k. */
  index: { width: number; k: number };
}

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
}
"#;

/// A JavaScript number as JavaScript prints it (Rust's float formatting would add ~20 KB).
fn js_number(x: f64) -> String {
    js_sys::Number::from(x)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default()
}

fn err(e: Error) -> JsError {
    JsError::new(&e.to_string())
}

/// A whole number for an option, or our error for it.
fn whole(what: &'static str, x: f64) -> Result<u64, JsError> {
    if x.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&x) {
        Ok(x as u64)
    } else if what == "width" {
        Err(JsError::new(&format!(
            "width must be between 1 and 128, got {}",
            js_number(x)
        )))
    } else {
        Err(JsError::new(&format!(
            "{what} must be between 1 and {}, got {}",
            simprint::MAX_N,
            js_number(x)
        )))
    }
}

fn width_from(x: Option<f64>) -> Result<u32, JsError> {
    Ok(x.map(|w| whole("width", w))
        .transpose()?
        .map_or(64, |w| w as u32))
}

fn size(what: &'static str, x: Option<f64>, default: usize) -> Result<usize, JsError> {
    Ok(x.map(|n| whole(what, n))
        .transpose()?
        .map_or(default, |n| n as usize))
}

// JavaScript that can throw (a getter, a proxy trap) is only ever called through the
// functions of guard.js and its sibling snippets, which catch every exception and keep it for
// `take_failure`. An exception that unwound through wasm frames instead would skip their
// epilogues and leak the shadow stack (about 1,300 such calls and the instance trapped on
// every call after), and wasm-bindgen's `catch` imports leak an externref table slot for
// each exception they catch; see guard.js.
#[wasm_bindgen(module = "/js/guard.js")]
extern "C" {
    #[wasm_bindgen(js_name = takeFailure)]
    fn take_failure() -> Option<String>;
    #[wasm_bindgen(js_name = get)]
    fn guarded_get(object: &JsValue, key: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = keys)]
    fn guarded_keys(object: &JsValue) -> Option<Array>;
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
fn get(what: &str, object: &JsValue, key: &JsValue) -> Result<JsValue, JsError> {
    let value = guarded_get(object, key);
    caught().map_err(|why| JsError::new(&format!("{what} could not be read: {why}")))?;
    Ok(value)
}

/// `value.length` of an array (a proxy or getter that throws is an error).
pub(crate) fn array_length(what: &str, value: &JsValue) -> Result<u32, JsError> {
    let len = get(what, value, &JsValue::from_str("length"))?;
    len.as_f64()
        .filter(|n| n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(n))
        .map(|n| n as u32)
        .ok_or_else(|| JsError::new(&format!("{what} has no valid length")))
}

/// `value[i]` of an array (a getter or proxy that throws is an error naming the element).
pub(crate) fn array_item(what: &str, value: &JsValue, i: u32) -> Result<JsValue, JsError> {
    get(&format!("{what}[{i}]"), value, &JsValue::from(i))
}

/// The fields of an options object, each read once (with `Reflect.get`, so a getter that
/// throws is an error, not an exception through wasm) and type-checked by name.
pub(crate) struct Fields(JsValue);

impl Fields {
    /// `None` for undefined or null, our error for anything else that is not a plain object or
    /// has a field not in `fields`.
    pub(crate) fn read(
        value: &Option<JsValue>,
        fields: &[&str],
    ) -> Result<Option<Fields>, JsError> {
        let Some(value) = value.as_ref().filter(|v| !v.is_undefined() && !v.is_null()) else {
            return Ok(None);
        };
        if !value.is_object() || is_array(value) {
            return Err(JsError::new(&format!(
                "options must be an object, got {}",
                type_name(value)
            )));
        }
        // A misspelt option would otherwise be silently ignored: name it instead.
        let keys = guarded_keys(value);
        caught().map_err(|why| JsError::new(&format!("options could not be read: {why}")))?;
        // Object.keys returns a fresh array of strings: reading it cannot throw.
        for key in keys.iter().flat_map(Array::iter) {
            let key = key.as_string().unwrap_or_default();
            if !fields.contains(&key.as_str()) {
                return Err(JsError::new(&format!(
                    "options: unknown field `{}`, expected one of {}",
                    simprint::error::echo(&key),
                    fields.join(", ")
                )));
            }
        }
        Ok(Some(Fields(value.clone())))
    }

    /// The field's value; `None` when undefined or null.
    fn get(&self, name: &str) -> Result<Option<JsValue>, JsError> {
        let v = get(&format!("options.{name}"), &self.0, &JsValue::from_str(name))?;
        Ok(Some(v).filter(|v| !v.is_undefined() && !v.is_null()))
    }

    pub(crate) fn number(&self, name: &str) -> Result<Option<f64>, JsError> {
        self.get(name)?
            .map(|v| {
                v.as_f64().ok_or_else(|| {
                    JsError::new(&format!("{name} must be a number, got {}", type_name(&v)))
                })
            })
            .transpose()
    }

    pub(crate) fn string(&self, name: &str) -> Result<Option<String>, JsError> {
        self.get(name)?
            .map(|v| {
                v.as_string().ok_or_else(|| {
                    JsError::new(&format!("{name} must be a string, got {}", type_name(&v)))
                })
            })
            .transpose()
    }

    pub(crate) fn boolean(&self, name: &str) -> Result<Option<bool>, JsError> {
        self.get(name)?
            .map(|v| {
                v.as_bool().ok_or_else(|| {
                    JsError::new(&format!(
                        "{name} must be true or false, got {}",
                        type_name(&v)
                    ))
                })
            })
            .transpose()
    }
}

fn read_options(value: &Option<JsValue>) -> Result<Options, JsError> {
    let Some(o) = Fields::read(
        value,
        &[
            "width",
            "tokenizer",
            "n",
            "wordN",
            "charN",
            "normalization",
            "caseFold",
            "weighting",
            "key",
        ],
    )?
    else {
        return Ok(Options::default());
    };
    let (n, word_n, char_n) = (o.number("n")?, o.number("wordN")?, o.number("charN")?);
    let tokenizer = match o.string("tokenizer")?.as_deref().unwrap_or("auto") {
        "auto" => {
            if n.is_some() {
                return Err(JsError::new(
                    "n does not apply to tokenizer \"auto\": use wordN and charN",
                ));
            }
            Tokenizer::Auto {
                word_n: size("wordN", word_n, Tokenizer::DEFAULT_WORD_N)?,
                char_n: size("charN", char_n, Tokenizer::DEFAULT_CHAR_N)?,
            }
        }
        name => {
            if word_n.is_some() || char_n.is_some() {
                return Err(JsError::new(&format!(
                    "wordN and charN apply only to tokenizer \"auto\", not {name:?}: use n"
                )));
            }
            match name.parse::<Tokenizer>().map_err(err)? {
                Tokenizer::Words { n: default } => Tokenizer::Words {
                    n: size("n", n, default)?,
                },
                Tokenizer::Chars { n: default } => Tokenizer::Chars {
                    n: size("n", n, default)?,
                },
                auto => auto,
            }
        }
    };
    let options = Options {
        width: width_from(o.number("width")?)?,
        tokenizer,
        normalization: o
            .string("normalization")?
            .as_deref()
            .map_or(Ok(Normalization::default()), str::parse)
            .map_err(err)?,
        case_fold: o.boolean("caseFold")?.unwrap_or(true),
        weighting: o
            .string("weighting")?
            .as_deref()
            .map_or(Ok(Weighting::default()), str::parse)
            .map_err(err)?,
        key: o
            .string("key")?
            .as_deref()
            .map_or(Ok(Key::DEFAULT), Key::from_hex)
            .map_err(err)?,
    };
    options.validate().map_err(err)?;
    Ok(options)
}

fn read_text(value: &JsValue) -> Result<String, JsError> {
    read_string("text", value)
}

/// A string argument called `what` in messages.
fn read_string(what: &str, value: &JsValue) -> Result<String, JsError> {
    value.as_string().ok_or_else(|| {
        JsError::new(&format!(
            "{what} must be a string, got {}",
            type_name(value)
        ))
    })
}

fn type_name(value: &JsValue) -> String {
    if value.is_null() {
        "null".into()
    } else if is_array(value) {
        "an array".into()
    } else {
        value.js_typeof().as_string().unwrap_or_default()
    }
}

/// A fingerprint argument: a non-negative BigInt that fits `width` bits.
fn read_value(what: &str, value: &JsValue, width: u32) -> Result<Fingerprint, JsError> {
    if !value.is_bigint() {
        return Err(JsError::new(&format!(
            "{what} must be a BigInt, got {}",
            type_name(value)
        )));
    }
    let v = u128::try_from(value.clone())
        .map_err(|_| JsError::new(&format!("{what} must be a BigInt from 0 to 2^128 - 1")))?;
    Fingerprint::new(v, width).map_err(|e| JsError::new(&format!("{what}: {e}")))
}

fn read_width(value: &Option<JsValue>) -> Result<u32, JsError> {
    let Some(value) = value else { return Ok(64) };
    if value.is_undefined() || value.is_null() {
        return Ok(64);
    }
    let w = value.as_f64().ok_or_else(|| {
        JsError::new(&format!("width must be a number, got {}", type_name(value)))
    })?;
    let w = width_from(Some(w))?;
    simprint::check_width(w).map_err(err)
}

/// Reads `[item, weight]` pairs from a JS array, converting items with `item`.
fn read_pairs<T>(
    what: &str,
    value: &JsValue,
    mut item: impl FnMut(usize, &JsValue) -> Result<T, JsError>,
) -> Result<Vec<(T, f64)>, JsError> {
    if !is_array(value) {
        return Err(JsError::new(&format!(
            "{what} must be an array of [item, weight] pairs, got {}",
            type_name(value)
        )));
    }
    // Not preallocated from the length: a sparse array's length says nothing about memory.
    let mut out = Vec::new();
    for i in 0..array_length(what, value)? {
        let pair = array_item(what, value, i)?;
        out.push(read_pair(what, i, &pair, |v| item(i as usize, v))?);
    }
    Ok(out)
}

/// `what[i]`, which must be an `[item, weight]` pair with a finite weight; the item is
/// converted with `item`.
fn read_pair<T>(
    what: &str,
    i: u32,
    pair: &JsValue,
    item: impl FnOnce(&JsValue) -> Result<T, JsError>,
) -> Result<(T, f64), JsError> {
    let what_i = format!("{what}[{i}]");
    if !is_array(pair) || array_length(&what_i, pair)? != 2 {
        return Err(JsError::new(&format!(
            "{what}[{i}] must be a [item, weight] pair"
        )));
    }
    let weight = array_item(&what_i, pair, 1)?
        .as_f64()
        .filter(|w| w.is_finite())
        .ok_or_else(|| {
            JsError::new(&format!(
                "{what}[{i}][1] (the weight) must be a finite number"
            ))
        })?;
    Ok((item(&array_item(&what_i, pair, 0)?)?, weight))
}

fn read_hashes(value: &JsValue, width: u32) -> Result<Vec<(u128, f64)>, JsError> {
    read_pairs("hashes", value, |i, v| {
        read_value(&format!("hashes[{i}][0]"), v, width).map(|fp| fp.value())
    })
}

/// A fingerprinter for caller-supplied features (only the width and key options apply) and
/// the `weights` option.
fn feature_options(
    value: &Option<JsValue>,
) -> Result<(simprint::Fingerprinter, Option<JsValue>), JsError> {
    let (width, key, weights) = match Fields::read(value, &["width", "key", "weights"])? {
        Some(o) => (o.number("width")?, o.string("key")?, o.get("weights")?),
        None => (None, None, None),
    };
    let options = Options {
        width: width_from(width)?,
        key: key
            .as_deref()
            .map_or(Ok(Key::DEFAULT), Key::from_hex)
            .map_err(err)?,
        ..Options::default()
    };
    Ok((simprint::Fingerprinter::new(options).map_err(err)?, weights))
}

/// The `weights` option of `Fingerprinter.fingerprintFeatures` (the width and key are the
/// fingerprinter's).
fn weights_option(value: &Option<JsValue>) -> Result<Option<JsValue>, JsError> {
    match Fields::read(value, &["weights"])? {
        Some(o) => o.get("weights"),
        None => Ok(None),
    }
}

fn bigint(fp: Fingerprint) -> JsValue {
    JsValue::from(fp.value())
}

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

fn explanation(e: Explanation) -> Result<JsValue, JsError> {
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
        #[wasm_bindgen(unchecked_param_type = "bigint")] hash: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] weight: JsValue,
    ) -> Result<(), JsError> {
        let hash = read_value("hash", &hash, self.inner.width())?;
        let weight = weight
            .as_f64()
            .filter(|w| w.is_finite())
            .ok_or_else(|| JsError::new("weight must be a finite number"))?;
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

/// Fingerprints text with one set of options, checked once.
///
/// ```js
/// const fp = new Fingerprinter({ width: 128, tokenizer: "words", n: 2 });
/// const a = fp.fingerprint("the quick brown fox"); // a BigInt below 2n ** 128n
/// ```
#[wasm_bindgen]
pub struct Fingerprinter {
    inner: simprint::Fingerprinter,
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

    /// A stream with these options: `update(chunk)` with the text's bytes (Uint8Array) or
    /// string pieces, then `finish()` gives the same fingerprint as `fingerprint(wholeText)`.
    pub fn stream(&self) -> FingerprintStream {
        FingerprintStream {
            inner: Some(self.inner.stream()),
        }
    }

    /// The fingerprints of many texts in one call (one crossing into wasm): a BigUint64Array
    /// for widths up to 64, two words per text (high first) above 64.
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
            if wide {
                out.push((v >> 64) as u64);
            }
            out.push(v as u64);
        }
        Ok(js_sys::BigUint64Array::from(out.as_slice()))
    }

    /// V, the bits and the feature rows behind `fingerprint(text)`.
    #[wasm_bindgen(unchecked_return_type = "Explanation")]
    pub fn explain(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<JsValue, JsError> {
        explanation(self.inner.explain(&read_text(&text)?))
    }

    /// `fingerprintFeatures(features, options)` with this fingerprinter's width and key (its
    /// tokenizer, folding, weighting and IDF do not apply: features are hashed as given).
    /// `options` takes `weights` only.
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
    inner: Option<simprint::Stream>,
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
}

/// Document frequencies of a corpus, for IDF weights: add the corpus' documents, then get a
/// fingerprinter that multiplies each feature's weight by its IDF.
///
/// ```js
/// const df = new DocumentFrequencies();          // same options as the fingerprints
/// for (const doc of corpus) df.add(doc);
/// const fp = df.fingerprinter();                 // or df.fingerprinter("logtf")
/// fp.fingerprint(text);
/// ```
#[wasm_bindgen]
pub struct DocumentFrequencies {
    inner: simprint::DocumentFrequencies,
}

#[wasm_bindgen]
impl DocumentFrequencies {
    /// An empty table for texts fingerprinted with `options` (the weighting is ignored).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: Option<JsValue>,
    ) -> Result<DocumentFrequencies, JsError> {
        let df = simprint::DocumentFrequencies::new(read_options(&options)?).map_err(err)?;
        Ok(DocumentFrequencies { inner: df })
    }

    /// Counts one document (each distinct feature once).
    pub fn add(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<(), JsError> {
        let text = read_text(&text)?;
        // Fingerprinters made earlier keep the table they were given (the core copies it).
        self.inner.add(&text);
        Ok(())
    }

    /// Documents counted so far.
    #[wasm_bindgen(getter)]
    pub fn documents(&self) -> f64 {
        self.inner.documents() as f64
    }

    /// Distinct features seen.
    #[wasm_bindgen(getter)]
    pub fn features(&self) -> f64 {
        self.inner.features() as f64
    }

    /// How many documents held `feature` (as the tokenizer makes it, e.g. a lowercase word).
    pub fn frequency(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] feature: JsValue,
    ) -> Result<u32, JsError> {
        Ok(self.inner.frequency(&read_string("feature", &feature)?))
    }

    /// A fingerprinter with this table's options and IDF weights; `weighting` ("binary" by
    /// default, "tf" or "logtf") sets the term weight the IDF multiplies. It keeps the
    /// table as it is now: later `add` calls do not change it.
    pub fn fingerprinter(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "\"tf\" | \"logtf\" | \"binary\"")]
        weighting: Option<JsValue>,
    ) -> Result<Fingerprinter, JsError> {
        let weighting = match weighting.filter(|w| !w.is_undefined() && !w.is_null()) {
            None => Weighting::default(),
            Some(w) => {
                let name = w.as_string().ok_or_else(|| {
                    JsError::new(&format!(
                        "weighting must be a string, got {}",
                        type_name(&w)
                    ))
                })?;
                name.parse::<Weighting>().map_err(err)?
            }
        };
        let options = simprint::Options {
            weighting,
            ..*self.inner.options()
        };
        let inner = simprint::Fingerprinter::new(options)
            .and_then(|f| f.with_document_frequencies(&self.inner))
            .map_err(err)?;
        Ok(Fingerprinter { inner })
    }

    /// The IDF factor of `feature`: ln((1 + N) / (1 + df)) + 1.
    pub fn idf(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] feature: JsValue,
    ) -> Result<f64, JsError> {
        Ok(self.inner.idf(&read_string("feature", &feature)?))
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsDefaultOptions {
    width: u32,
    tokenizer: &'static str,
    word_n: usize,
    char_n: usize,
    normalization: &'static str,
    case_fold: bool,
    weighting: &'static str,
    key: String,
}

#[derive(Serialize)]
struct JsDefaultN {
    words: usize,
    chars: usize,
}

#[derive(Serialize)]
struct JsDefaultIndex {
    width: u32,
    k: u32,
}

#[derive(Serialize)]
struct JsDefaults {
    options: JsDefaultOptions,
    n: JsDefaultN,
    index: JsDefaultIndex,
}

/// The library's defaults, read from the core (so callers and the demo never guess them):
/// `{ options, n: { words, chars }, index: { width, k } }`.
#[wasm_bindgen(unchecked_return_type = "Defaults")]
pub fn defaults() -> Result<JsValue, JsError> {
    let o = Options::default();
    let (word_n, char_n) = match o.tokenizer {
        Tokenizer::Auto { word_n, char_n } => (word_n, char_n),
        _ => (Tokenizer::DEFAULT_WORD_N, Tokenizer::DEFAULT_CHAR_N),
    };
    let out = JsDefaults {
        options: JsDefaultOptions {
            width: o.width,
            tokenizer: o.tokenizer.name(),
            word_n,
            char_n,
            normalization: o.normalization.name(),
            case_fold: o.case_fold,
            weighting: o.weighting.name(),
            key: o.key.to_hex(),
        },
        n: JsDefaultN {
            words: Tokenizer::DEFAULT_WORD_N,
            chars: Tokenizer::DEFAULT_CHAR_N,
        },
        index: JsDefaultIndex {
            width: o.width,
            k: simprint::index::DEFAULT_K,
        },
    };
    out.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
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
    explanation(explain::explain_hashes(width, read_hashes(&hashes, width)?).map_err(err)?)
}

/// The Hamming distance bound to use for `text` with the default pipeline at `width` bits
/// (default 64), from the README's evaluation: 9 at 64 bits for mostly non-CJK text, 12 for
/// mostly-CJK text (15 below 300 characters), scaled by width / 64.
#[wasm_bindgen(js_name = recommendedK)]
pub fn recommended_k(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] width: Option<JsValue>,
) -> Result<u32, JsError> {
    let width = read_width(&width)?;
    Ok(simprint::recommended_k(&read_text(&text)?, width))
}

/// Hamming distance between two fingerprints (BigInts from 0 to 2^128 - 1).
#[wasm_bindgen]
pub fn hamming(
    #[wasm_bindgen(unchecked_param_type = "bigint")] a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "bigint")] b: JsValue,
) -> Result<u32, JsError> {
    let a = read_value("a", &a, 128)?;
    let b = read_value("b", &b, 128)?;
    Ok(distance::hamming(a.value(), b.value()))
}

/// Distance, similarity 1 - d/f, angle PI·d/f and its cosine for two `width`-bit
/// fingerprints (default 64).
#[wasm_bindgen(unchecked_return_type = "Comparison")]
pub fn compare(
    #[wasm_bindgen(unchecked_param_type = "bigint")] a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "bigint")] b: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] width: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let width = read_width(&width)?;
    let c = read_value("a", &a, width)?
        .compare(&read_value("b", &b, width)?)
        .map_err(err)?;
    let out = js_sys::Object::new();
    for (k, v) in [
        ("distance", f64::from(c.distance)),
        ("width", f64::from(c.width)),
        ("similarity", c.similarity),
        ("angle", c.angle),
        ("cosine", c.cosine),
    ] {
        js_sys::Reflect::set(&out, &k.into(), &v.into())
            .map_err(|_| JsError::new("internal: Reflect.set failed"))?;
    }
    Ok(out.into())
}

/// `ceil(width/4)` lowercase hex digits of a `width`-bit fingerprint (default 64).
#[wasm_bindgen(js_name = toHex)]
pub fn to_hex(
    #[wasm_bindgen(unchecked_param_type = "bigint")] fingerprint: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] width: Option<JsValue>,
) -> Result<String, JsError> {
    Ok(read_value("fingerprint", &fingerprint, read_width(&width)?)?.to_hex())
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
