//! The options object of the text pipeline, read into the core's [`Options`](simprint::Options).

use alloc::format;

use wasm_bindgen::prelude::*;

use crate::convert::{size, width_from, Fields};
use crate::err;
use simprint::{Algorithm, Key, Normalization, Options, Tokenizer, Weighting};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Options of the text pipeline; every field is optional. (The defaults written here are
 *  the core's, as `defaults()` returns them.) */
export interface Options {
  /** Fingerprint width in bits, 1 to 128. Default ${defaults.options.width}. */
  width?: number;
  /** "auto": CJK runs as character n-grams, other text as words; "words": word n-gram
   *  shingles; "chars": grapheme-cluster n-grams. Default "${defaults.options.tokenizer}". */
  tokenizer?: "auto" | "words" | "chars";
  /** n-gram size for "words" (default ${defaults.n.words}) and "chars" (default ${defaults.n.chars}), 1 to 64. */
  n?: number;
  /** With "auto": words per shingle outside CJK runs. Default ${defaults.options.wordN}. */
  wordN?: number;
  /** With "auto": characters per n-gram inside CJK runs. Default ${defaults.options.charN}. */
  charN?: number;
  /** "width": fold full-width and half-width forms first, so Ｔｅｘｔ１ matches Text1 and ｶﾀｶﾅ
   *  matches カタカナ; "none": the text as given. Default "${defaults.options.normalization}". */
  normalization?: "width" | "none";
  /** Lowercase the text (after normalizing). Default ${defaults.options.caseFold}. */
  caseFold?: boolean;
  /** "binary": 1 per distinct feature; "tf": a feature weighs its number of occurrences;
   *  "logtf": 1 + ln(occurrences). Default "${defaults.options.weighting}". */
  weighting?: "tf" | "logtf" | "binary";
  /** 128-bit SipHash key as 32 hex digits. Default ${defaults.options.key} (the bytes of
   *  "simprint-sip-key"). */
  key?: string;
  /** "simhash": signs of the features' weighted sums; "minhash": one bit of each of `width`
   *  minima (one-bit MinHash: sets, so binary weights only; no `explain`).
   *  Default "${defaults.options.algorithm}". */
  algorithm?: "simhash" | "minhash";
}
"#;

pub(crate) fn read_options(value: &Option<JsValue>) -> Result<Options, JsError> {
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
            "algorithm",
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
                    "wordN and charN apply only to tokenizer \"auto\", not {}: use n",
                    simprint::Quoted(&simprint::echo(name), '"')
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
        case_fold: o
            .boolean("caseFold")?
            .unwrap_or(Options::default().case_fold),
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
        algorithm: o
            .string("algorithm")?
            .as_deref()
            .map_or(Ok(Algorithm::default()), str::parse)
            .map_err(err)?,
    };
    options.validate().map_err(err)?;
    Ok(options)
}

/// A fingerprinter for caller-supplied features (only the width and key options apply) and
/// the `weights` option.
pub(crate) fn feature_options(
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
pub(crate) fn weights_option(value: &Option<JsValue>) -> Result<Option<JsValue>, JsError> {
    match Fields::read(value, &["weights"])? {
        Some(o) => o.get("weights"),
        None => Ok(None),
    }
}
