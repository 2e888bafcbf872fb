//! Reads tests/golden.json (shared with the JS tests) into core options, plans and indexes, and
//! computes what each of its vectors pins.
#![allow(dead_code)]

use serde::Deserialize;
use simprint::{Fingerprint, Index, Key, Normalization, Options, Plan, Tokenizer, Weighting};

pub const GOLDEN: &str = include_str!("../golden.json");

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Golden {
    pub vectors: Vec<Vector>,
    pub index_bytes: Section<IndexVector>,
    pub keys: Section<KeysVector>,
}

#[derive(Deserialize)]
pub struct Section<T> {
    pub about: String,
    pub vectors: Vec<T>,
}

/// A small index and its `to_bytes`, as hex.
#[derive(Deserialize)]
pub struct IndexVector {
    pub name: String,
    pub options: JsonPlan,
    /// In insertion order: `[id, fingerprint hex]`, the id a number or a name.
    pub entries: Vec<(Id, String)>,
    pub hex: String,
}

#[derive(Deserialize, Clone, Debug, PartialEq)]
#[serde(untagged)]
pub enum Id {
    Number(u64),
    Name(String),
}

/// A plan and one fingerprint's table keys and probe keys (lowercase hex without leading
/// zeros, as the Worker and SQL examples store them).
#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct KeysVector {
    pub name: String,
    pub plan: JsonPlan,
    pub fingerprint: String,
    pub keys: Vec<String>,
    pub probe_keys: Vec<ProbeTable>,
}

/// One table's probe keys: how many, the first few in order, and a digest of all of them in
/// order (the sum of (position + 1) * key, mod 2^128, positions from 0).
#[derive(Deserialize, Debug, PartialEq)]
pub struct ProbeTable {
    pub count: u64,
    pub head: Vec<String>,
    pub digest: String,
}

/// How many probe keys of each table the golden file lists.
pub const PROBE_HEAD: usize = 12;

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
    algorithm: Option<String>,
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
            algorithm: self
                .algorithm
                .as_deref()
                .map_or(defaults.algorithm, |a| a.parse().unwrap()),
        }
    }
}

/// Index and Plan options spelled as in JavaScript (`new Index(options)`, `new Plan(options)`).
#[derive(Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JsonPlan {
    pub width: u32,
    pub k: u32,
    blocks: Option<u32>,
    substrings: Option<u32>,
    key_blocks: Option<u32>,
    scan: Option<bool>,
}

impl JsonPlan {
    /// The explicit plan the options ask for; `None` when the index plans itself.
    pub fn plan(&self) -> Option<Plan> {
        let (width, k) = (self.width, self.k);
        let plan = match (self.scan, self.blocks, self.key_blocks, self.substrings) {
            (Some(true), None, None, None) => Plan::scan(width, k),
            (None, Some(blocks), None, None) => Plan::with_blocks(width, k, blocks),
            (None, Some(blocks), Some(key_blocks), None) => {
                Plan::combined(width, k, blocks, key_blocks)
            }
            (None, None, None, Some(substrings)) => Plan::multi_index(width, k, substrings),
            (None, None, None, None) => return None,
            _ => panic!("golden plan options not understood: {self:?}"),
        };
        Some(plan.expect("golden plan is valid"))
    }

    pub fn index(&self) -> Index {
        match self.plan() {
            Some(plan) => Index::with_plan(plan),
            None => Index::new(self.width, self.k),
        }
        .expect("golden index options are valid")
    }
}

pub fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn bytes_of(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect()
}

/// The index a vector describes, its entries inserted in order.
pub fn index_of(v: &IndexVector) -> Index {
    let mut index = v.options.index();
    for (id, hex) in &v.entries {
        let fp = Fingerprint::from_hex(hex, v.options.width).expect("golden fingerprint");
        match id {
            Id::Number(id) => index.insert(*id, fp),
            Id::Name(name) => index.insert_named(name, fp),
        }
        .expect("golden entry");
    }
    index
}

/// Every index vector's computed bytes as hex, in file order.
pub fn computed_index_bytes() -> Vec<String> {
    golden()
        .index_bytes
        .vectors
        .iter()
        .map(|v| hex_of(&index_of(v).to_bytes()))
        .collect()
}

/// A keys vector as the library computes it from its plan and fingerprint.
pub fn keys_of(v: &KeysVector) -> KeysVector {
    let plan = v.plan.plan().expect("keys vectors name a plan");
    let fp = Fingerprint::from_hex(&v.fingerprint, v.plan.width).expect("golden fingerprint");
    let hex = |key: &u128| format!("{key:x}");
    let probe_keys = plan
        .probe_keys_by_table(fp)
        .expect("golden probe keys")
        .iter()
        .map(|keys| ProbeTable {
            count: keys.len() as u64,
            head: keys.iter().take(PROBE_HEAD).map(hex).collect(),
            digest: format!("{:x}", digest(keys)),
        })
        .collect();
    KeysVector {
        name: v.name.clone(),
        plan: v.plan.clone(),
        fingerprint: v.fingerprint.clone(),
        keys: plan.keys(fp).iter().map(hex).collect(),
        probe_keys,
    }
}

/// The sum of (position + 1) * key, mod 2^128: pins every key and its place.
pub fn digest(keys: &[u128]) -> u128 {
    keys.iter().enumerate().fold(0u128, |sum, (i, &key)| {
        sum.wrapping_add((i as u128 + 1).wrapping_mul(key))
    })
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
