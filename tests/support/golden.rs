//! Reads tests/golden.json (shared with the JS tests) into core options.
#![allow(dead_code)]

use serde::Deserialize;
use simprint::{Key, Normalization, Options, Tokenizer, Weighting};

pub const GOLDEN: &str = include_str!("../golden.json");

#[derive(Deserialize)]
pub struct Golden {
    pub vectors: Vec<Vector>,
}

#[derive(Deserialize)]
pub struct Vector {
    pub name: String,
    pub text: String,
    pub options: JsonOptions,
    pub hex: String,
}

/// The JavaScript spelling of the options, as the golden file stores them.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JsonOptions {
    width: Option<u32>,
    tokenizer: Option<String>,
    n: Option<usize>,
    word_n: Option<usize>,
    char_n: Option<usize>,
    normalization: Option<String>,
    case_fold: Option<bool>,
    weighting: Option<String>,
    key: Option<String>,
}

impl JsonOptions {
    /// Unspecified fields take the library's defaults, as in JavaScript.
    pub fn to_options(&self) -> Options {
        let defaults = Options::default();
        let tokenizer = match self.tokenizer.as_deref() {
            None | Some("auto") => Tokenizer::Auto {
                word_n: self.word_n.unwrap_or(Tokenizer::DEFAULT_WORD_N),
                char_n: self.char_n.unwrap_or(Tokenizer::DEFAULT_CHAR_N),
            },
            Some(name) => match name.parse::<Tokenizer>().expect("golden tokenizer") {
                Tokenizer::Words { n } => Tokenizer::Words {
                    n: self.n.unwrap_or(n),
                },
                Tokenizer::Chars { n } => Tokenizer::Chars {
                    n: self.n.unwrap_or(n),
                },
                auto => auto,
            },
        };
        Options {
            width: self.width.unwrap_or(defaults.width),
            tokenizer,
            normalization: self
                .normalization
                .as_deref()
                .map_or(defaults.normalization, |n| {
                    n.parse::<Normalization>().unwrap()
                }),
            case_fold: self.case_fold.unwrap_or(defaults.case_fold),
            weighting: self
                .weighting
                .as_deref()
                .map_or(defaults.weighting, |w| w.parse::<Weighting>().unwrap()),
            key: self
                .key
                .as_deref()
                .map_or(defaults.key, |k| Key::from_hex(k).unwrap()),
        }
    }
}

pub fn golden() -> Golden {
    serde_json::from_str(GOLDEN).expect("tests/golden.json parses")
}

/// Every vector's computed hex, in file order.
pub fn computed() -> Vec<String> {
    golden()
        .vectors
        .iter()
        .map(|v| {
            let fp = simprint::Fingerprinter::new(v.options.to_options()).expect("valid options");
            fp.fingerprint(&v.text).to_hex()
        })
        .collect()
}
