//! What the library does when told nothing: its defaults and the recommended `k`.

use wasm_bindgen::prelude::*;

use crate::convert::{count, read_text, width_from, Fields};
use crate::err;
use crate::object::Obj;
use simprint::{Algorithm, Fingerprinter, Options, Tokenizer, Tolerance};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** The library's defaults: what each option is when it is left out. */
export interface Defaults {
  /** The text pipeline's options (`fingerprint(text)` uses exactly these). */
  options: Required<Omit<Options, "n">>;
  /** The n of each tokenizer that takes `n`. */
  n: { words: number; chars: number };
  /** A new Index's width and k, and the size a `new Plan()` is planned for without `size`. */
  index: { width: number; k: number; planSize: number };
  /** The tolerance `recommendedK` uses when given none. */
  tolerance: { near: number; far: number };
  /** The quality mode: fingerprints of this width and algorithm (`new Fingerprinter({ width,
   *  algorithm })`), each text compared at that fingerprinter's own `recommendedK(text)`, or
   *  two at its `pairK(a, b)`. */
  quality: { width: number; algorithm: "simhash" | "minhash" };
}

/** What `pairK` derives its k from: `RecommendOptions` and the fingerprints' algorithm. */
export interface PairOptions extends RecommendOptions {
  /** The algorithm of the fingerprints compared (default "simhash"). */
  algorithm?: "simhash" | "minhash";
}

/** What `recommendedK` derives its k from; every field is optional. */
export interface RecommendOptions {
  /** Fingerprint width in bits, 1 to 128 (default 64; not for a Fingerprinter's method). */
  width?: number;
  /** The share of the text's words (CJK characters) that may be edited in a near-duplicate,
   *  above 0 and below 1 (default 0.1). */
  tolerance?: number;
  /** The share it must be told apart from (default twice the tolerance, at most 1). */
  far?: number;
}

/** A Fingerprinter's stream options: with `recommend`, `finishRecommending()` also gives the
 *  text's recommended k (under `tolerance` and `far`, as `recommendedK` takes them). */
export interface StreamOptions {
  recommend?: boolean;
  tolerance?: number;
  far?: number;
}
"#;

/// The library's defaults, read from the core (so callers and the demo never guess them):
/// `{ options, n: { words, chars }, index: { width, k, planSize } }`.
#[wasm_bindgen(unchecked_return_type = "Defaults")]
pub fn defaults() -> Result<JsValue, JsError> {
    let o = Options::default();
    let (word_n, char_n) = match o.tokenizer {
        Tokenizer::Auto { word_n, char_n } => (word_n, char_n),
        _ => (Tokenizer::DEFAULT_WORD_N, Tokenizer::DEFAULT_CHAR_N),
    };
    let options = Obj::new()
        .set("width", o.width)
        .set("tokenizer", o.tokenizer.name())
        .set("wordN", count(word_n))
        .set("charN", count(char_n))
        .set("normalization", o.normalization.name())
        .set("caseFold", o.case_fold)
        .set("weighting", o.weighting.name())
        .set("key", o.key.to_hex())
        .set("algorithm", o.algorithm.name())
        .done();
    let n = Obj::new()
        .set("words", count(Tokenizer::DEFAULT_WORD_N))
        .set("chars", count(Tokenizer::DEFAULT_CHAR_N))
        .done();
    let index = Obj::new()
        .set("width", o.width)
        .set("k", simprint::index::DEFAULT_K)
        .set("planSize", count(simprint::index::DEFAULT_PLAN_SIZE))
        .done();
    let tolerance = Obj::new()
        .set("near", Tolerance::DEFAULT.near)
        .set("far", Tolerance::DEFAULT.far)
        .done();
    let q = Options::quality();
    let quality = Obj::new()
        .set("width", q.width)
        .set("algorithm", q.algorithm.name())
        .done();
    Ok(Obj::new()
        .set("options", options)
        .set("n", n)
        .set("index", index)
        .set("tolerance", tolerance)
        .set("quality", quality)
        .done())
}

/// The Hamming distance bound for `text` with the default pipeline: the core's
/// `Fingerprinter::recommended_k` (docs/evaluation.md derives it). The second argument is
/// the width (a number, default 64) or `{ width, tolerance, far }`.
#[wasm_bindgen(js_name = recommendedK)]
pub fn recommended_k(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number | RecommendOptions")] options: Option<
        JsValue,
    >,
) -> Result<u32, JsError> {
    let text = read_text(&text)?;
    let (width, tolerance) = width_and_tolerance(options.as_ref())?;
    let fp = Fingerprinter::new(Options {
        width,
        ..Options::default()
    })
    .map_err(err)?;
    fp.recommended_k(&text, tolerance).map_err(err)
}

/// The Hamming distance bound for a pair of texts with `featuresA` and `featuresB` distinct
/// features (`Fingerprinter.featureCount`): the core's `Algorithm::pair_k` (docs/evaluation.md
/// derives it). The third argument is the width (a number, default 64) or `{ width,
/// tolerance, far, algorithm }`.
#[wasm_bindgen(js_name = pairK)]
pub fn pair_k(
    #[wasm_bindgen(unchecked_param_type = "number")] features_a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] features_b: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number | PairOptions")] options: Option<
        JsValue,
    >,
) -> Result<u32, JsError> {
    let (a, b) = pair_counts(&features_a, &features_b)?;
    if let Some(width) = options.as_ref().and_then(JsValue::as_f64) {
        let width = width_from(Some(width))?;
        return simprint::pair_k(width, a, b, Tolerance::DEFAULT).map_err(err);
    }
    let fields = Fields::read(&options, &["width", "tolerance", "far", "algorithm"])?;
    let field = |name| fields.as_ref().map(|f| f.number(name)).transpose();
    let width = width_from(field("width")?.flatten())?;
    let algorithm = fields
        .as_ref()
        .map(|f| f.string("algorithm"))
        .transpose()?
        .flatten()
        .as_deref()
        .map_or(Ok(Algorithm::default()), str::parse)
        .map_err(err)?;
    algorithm
        .pair_k(width, a, b, read_tolerance(fields.as_ref())?)
        .map_err(err)
}

/// `pairK` as a table for engines that cannot call it (a SQL join over `Plan.keys`): the
/// largest size ratio (larger count over smaller, each at least 1, divided as doubles) at
/// which the pair k is at least `d`; the largest double for 0, 0 past the pair k of equal
/// sizes. The core's `pair_k_limit`. The second argument is the width (a number, default 64)
/// or `{ width, tolerance, far }`.
#[wasm_bindgen(js_name = pairKLimit)]
pub fn pair_k_limit(
    #[wasm_bindgen(unchecked_param_type = "number")] d: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number | RecommendOptions")] options: Option<
        JsValue,
    >,
) -> Result<f64, JsError> {
    let d = d
        .as_f64()
        .ok_or_else(|| JsError::new("d must be a number"))?;
    let d = crate::convert::whole("d", d)?;
    let (width, tolerance) = width_and_tolerance(options.as_ref())?;
    simprint::pair_k_limit(width, d, tolerance).map_err(err)
}

/// The two feature counts of `pairK` and `Fingerprinter.pairK`: whole numbers.
pub(crate) fn pair_counts(a: &JsValue, b: &JsValue) -> Result<(u32, u32), JsError> {
    let a = a
        .as_f64()
        .ok_or_else(|| JsError::new("featuresA must be a number"))?;
    let b = b
        .as_f64()
        .ok_or_else(|| JsError::new("featuresB must be a number"))?;
    Ok((
        crate::convert::whole("featuresA", a)?,
        crate::convert::whole("featuresB", b)?,
    ))
}

/// A width given as a number, or `{ width, tolerance, far }`: the core's defaults for what is
/// left out.
fn width_and_tolerance(options: Option<&JsValue>) -> Result<(u32, Tolerance), JsError> {
    if let Some(width) = options.and_then(JsValue::as_f64) {
        return Ok((width_from(Some(width))?, Tolerance::DEFAULT));
    }
    let fields = Fields::read(&options.cloned(), &["width", "tolerance", "far"])?;
    let width = width_from(
        fields
            .as_ref()
            .map(|f| f.number("width"))
            .transpose()?
            .flatten(),
    )?;
    Ok((width, read_tolerance(fields.as_ref())?))
}

/// The largest k at which a check among `documents` unrelated fingerprints of `width` bits
/// (default 64) expects at most a tenth of a chance match: the core's
/// `recommend::collection_k`. `undefined` when no k does (a collection near 2^width / 10).
/// Use `Math.min(recommendedK(text), collectionK(index.size))`.
#[wasm_bindgen(js_name = collectionK)]
pub fn collection_k(
    #[wasm_bindgen(unchecked_param_type = "number")] documents: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] width: Option<JsValue>,
) -> Result<Option<u32>, JsError> {
    let documents = documents
        .as_f64()
        .ok_or_else(|| JsError::new("documents must be a number"))?;
    let documents = u64::from(crate::convert::whole("documents", documents)?);
    let width = match width.filter(|w| !w.is_undefined()) {
        None => width_from(None)?,
        Some(w) => width_from(Some(
            w.as_f64()
                .ok_or_else(|| JsError::new("width must be a number"))?,
        ))?,
    };
    let width = simprint::check_width(width).map_err(err)?;
    Ok(simprint::collection_k(width, documents))
}

/// `tolerance` and `far` of an options object: the core's default for what is left out, and
/// `far` at the core's ratio to a `tolerance` given alone.
pub(crate) fn read_tolerance(fields: Option<&Fields>) -> Result<Tolerance, JsError> {
    let Some(fields) = fields else {
        return Ok(Tolerance::DEFAULT);
    };
    match (fields.number("tolerance")?, fields.number("far")?) {
        (None, None) => Ok(Tolerance::DEFAULT),
        (Some(near), None) => Tolerance::new(near).map_err(err),
        (near, Some(far)) => {
            let t = Tolerance {
                near: near.unwrap_or(Tolerance::DEFAULT.near),
                far,
            };
            t.validate().map_err(err)?;
            Ok(t)
        }
    }
}
