//! What the library does when told nothing: its defaults and the recommended `k`.

use wasm_bindgen::prelude::*;

use crate::convert::{read_text, read_width};
use crate::object::Obj;
use simprint::{Options, Tokenizer};

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
        .set("wordN", f64_of(word_n))
        .set("charN", f64_of(char_n))
        .set("normalization", o.normalization.name())
        .set("caseFold", o.case_fold)
        .set("weighting", o.weighting.name())
        .set("key", o.key.to_hex())
        .done();
    let n = Obj::new()
        .set("words", f64_of(Tokenizer::DEFAULT_WORD_N))
        .set("chars", f64_of(Tokenizer::DEFAULT_CHAR_N))
        .done();
    let index = Obj::new()
        .set("width", o.width)
        .set("k", simprint::index::DEFAULT_K)
        .set("planSize", f64_of(simprint::index::plan::DEFAULT_PLAN_SIZE))
        .done();
    Ok(Obj::new()
        .set("options", options)
        .set("n", n)
        .set("index", index)
        .done())
}

/// A count as a JavaScript number (every one the core defines is far below 2^53).
#[allow(clippy::cast_precision_loss, reason = "small constants")]
fn f64_of(n: usize) -> f64 {
    n as f64
}

/// The Hamming distance bound to use for `text` with the default pipeline at `width` bits
/// (default 64): the core's `recommended_k`, whose doc comment and docs/evaluation.md give
/// the rule (at 64 bits 11 for text without CJK, 13 for all-CJK text, in between by the CJK
/// share, one more up to 40 words or CJK characters), scaled by width / 64.
#[wasm_bindgen(js_name = recommendedK)]
pub fn recommended_k(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] width: Option<JsValue>,
) -> Result<u32, JsError> {
    let width = read_width(&width)?;
    Ok(simprint::recommended_k(&read_text(&text)?, width))
}
