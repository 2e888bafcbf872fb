//! Reads tests/golden.json (shared with the JS tests) into core options.
#![allow(dead_code)]

use serde::Deserialize;
use simprint::{Key, Options, Tokenizer, Weighting};

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
    case_fold: Option<bool>,
    weighting: Option<String>,
    key: Option<String>,
}

impl JsonOptions {
    pub fn to_options(&self) -> Options {
        let tokenizer = match self.tokenizer.as_deref().unwrap_or("auto") {
            "auto" => Tokenizer::Auto {
                word_n: self.word_n.unwrap_or(1),
                char_n: self.char_n.unwrap_or(2),
            },
            "words" => Tokenizer::Words {
                n: self.n.unwrap_or(1),
            },
            "chars" => Tokenizer::Chars {
                n: self.n.unwrap_or(2),
            },
            other => panic!("golden file names unknown tokenizer {other}"),
        };
        Options {
            width: self.width.unwrap_or(64),
            tokenizer,
            case_fold: self.case_fold.unwrap_or(true),
            weighting: Weighting::from_name(self.weighting.as_deref().unwrap_or("tf")).unwrap(),
            key: self
                .key
                .as_deref()
                .map_or(Key::DEFAULT, |k| Key::from_hex(k).unwrap()),
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
