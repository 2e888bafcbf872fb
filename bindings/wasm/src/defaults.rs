//! What the library does when told nothing: its defaults and the recommended `k`.

use alloc::string::String;

use serde::Serialize;
use wasm_bindgen::prelude::*;

use alloc::string::ToString;

use crate::convert::{read_text, read_width};
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
#[serde(rename_all = "camelCase")]
struct JsDefaultIndex {
    width: u32,
    k: u32,
    plan_size: usize,
}

#[derive(Serialize)]
struct JsDefaults {
    options: JsDefaultOptions,
    n: JsDefaultN,
    index: JsDefaultIndex,
}

/// The library's defaults, read from the core (so callers and the demo never guess them):
/// `{ options, n: { words, chars }, index: { width, k, planSize } }`.
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
            plan_size: simprint::index::plan::DEFAULT_PLAN_SIZE,
        },
    };
    out.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
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
