//! Caller-supplied features from JavaScript: `[feature, weight]` pairs, or a `string[]` with
//! optional `weights`.
//!
//! Read pair by pair, a list costs several calls across the boundary per feature (about
//! 1.4 µs each). So `features.js` first reads the whole list on the JavaScript side and hands
//! it over as the features' UTF-8 one after another, each one's length in bytes and the
//! weights; here that text is cut back into the features, borrowed from it. When anything in
//! the list does not fit (a wrong type, a getter or proxy that throws), the list is read again
//! element by element, which gives the error naming the argument and index; well-formed lists
//! never take that way.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

use crate::convert::{js_number, read_pair, type_name, wasm_len};
use crate::err;
use crate::guard::{array_item, array_length, caught, is_array};
use crate::typed;
use simprint::{Explanation, Fingerprint};

#[wasm_bindgen(module = "/js/features.js")]
extern "C" {
    /// `{ bytes, lengths, weights }` as `joinFeatures` makes it: plain data properties.
    type Joined;
    #[wasm_bindgen(js_name = joinFeatures)]
    fn join_features(features: &JsValue, n: u32, strings_only: bool) -> Option<Joined>;
    #[wasm_bindgen(method, getter)]
    fn bytes(this: &Joined) -> Vec<u8>;
    #[wasm_bindgen(method, getter)]
    fn lengths(this: &Joined) -> Vec<u32>;
    #[wasm_bindgen(method, getter)]
    fn weights(this: &Joined) -> Option<Vec<f64>>;
    #[wasm_bindgen(js_name = copyWeights)]
    fn copy_weights(weights: &JsValue, n: u32) -> Option<Vec<f64>>;
}

/// The fingerprint of `features` (see [`List::read`]) with `fp`'s width and key.
pub(crate) fn fingerprint(
    fp: &simprint::Fingerprinter,
    features: &JsValue,
    weights: Option<&JsValue>,
) -> Result<Fingerprint, JsError> {
    let list = List::read(features, weights)?;
    fp.fingerprint_features_in(&list.text, list.iter())
        .map_err(err)
}

/// The explanation of `features` (see [`List::read`]) with `fp`'s width and key: a row per
/// feature.
pub(crate) fn explain(
    fp: &simprint::Fingerprinter,
    features: &JsValue,
    weights: Option<&JsValue>,
) -> Result<Explanation, JsError> {
    fp.explain_features(List::read(features, weights)?.iter())
        .map_err(err)
}

/// Features as the core takes them: their UTF-8 one after another in `text`, cut at `lengths`
/// (in bytes, each cut between characters), with `weights` (all 1 when `None`), each finite.
/// However they were read, they reach the core through one iterator type, so its loop is
/// compiled once.
struct List {
    text: String,
    lengths: Vec<u32>,
    weights: Option<Vec<f64>>,
}

impl List {
    /// Reads `features`: an array of `[feature, weight]` pairs, or of strings (each of weight
    /// 1, or `weights[i]` when `weights` is given, which also makes it the string form).
    fn read(features: &JsValue, weights: Option<&JsValue>) -> Result<List, JsError> {
        if !is_array(features) {
            let expected = if weights.is_some() {
                "an array of strings (with weights)"
            } else {
                "an array of strings or of [item, weight] pairs"
            };
            return Err(JsError::new(&format!(
                "features must be {expected}, got {}",
                type_name(features)
            )));
        }
        let n = array_length("features", features)?;
        // Whatever made it give up (a failure included) shows again, worded, when the list
        // is read element by element below.
        let joined = join_features(features, n, weights.is_some());
        let list = match (caught(), joined) {
            (Ok(()), Some(joined)) => List::joined(joined, n),
            _ => None,
        };
        let mut list = match list {
            Some(list) => list,
            None => read_listed(features, n, weights.is_some())?,
        };
        if let Some(w) = weights {
            list.weights = Some(read_weights(w, n)?);
        }
        Ok(list)
    }

    /// The list `joinFeatures` made, if it holds `n` features. Each string was encoded on its
    /// own, so the text is UTF-8 and every cut falls between characters: checked all the
    /// same, as reading again one by one costs nothing otherwise.
    fn joined(joined: Joined, n: u32) -> Option<List> {
        let text = String::from_utf8(joined.bytes()).ok()?;
        let lengths = joined.lengths();
        let weights = joined.weights();
        let mut at = 0usize;
        for &len in &lengths {
            at = at.checked_add(len as usize)?;
            if !text.is_char_boundary(at) {
                return None;
            }
        }
        let fits = |len: usize| len == n as usize;
        (at == text.len() && fits(lengths.len()) && weights.as_ref().is_none_or(|w| fits(w.len())))
            .then_some(List {
                text,
                lengths,
                weights,
            })
    }

    fn iter(&self) -> Iter<'_> {
        Iter {
            text: &self.text,
            at: 0,
            lengths: self.lengths.iter(),
            weights: self.weights.as_deref().map(|w| w.iter()),
        }
    }
}

/// The features of a [`List`] and their weights, in order.
struct Iter<'a> {
    text: &'a str,
    /// Where the next feature starts, in bytes.
    at: usize,
    lengths: core::slice::Iter<'a, u32>,
    weights: Option<core::slice::Iter<'a, f64>>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, f64);

    fn next(&mut self) -> Option<(&'a str, f64)> {
        let start = self.at;
        self.at = start.saturating_add(*self.lengths.next()? as usize);
        let weight = match &mut self.weights {
            Some(w) => w.next().copied().unwrap_or(1.0),
            None => 1.0,
        };
        // Always a slice: the cuts were checked when the list was made.
        Some((self.text.get(start..self.at).unwrap_or_default(), weight))
    }
}

/// `weights` for `n` features: a Float64Array or an array of numbers, each finite.
fn read_weights(value: &JsValue, n: u32) -> Result<Vec<f64>, JsError> {
    let weights = match typed::read("weights", value)? {
        Some(a) => a,
        None => read_weight_list(value, n)?,
    };
    if weights.len() != n as usize {
        return Err(count_mismatch(wasm_len(weights.len()), n));
    }
    if let Some(i) = weights.iter().position(|w| !w.is_finite()) {
        return Err(JsError::new(&format!(
            "weights[{i}] must be a finite number, got {}",
            js_number(weights[i])
        )));
    }
    Ok(weights)
}

/// `weights` as an array of `n` numbers: copied in one call when it is one, else read element
/// by element for the message naming the index.
fn read_weight_list(value: &JsValue, n: u32) -> Result<Vec<f64>, JsError> {
    if !is_array(value) {
        return Err(JsError::new(&format!(
            "weights must be a Float64Array or an array of numbers, got {}",
            type_name(value)
        )));
    }
    // Its length first: reading a short one would stop at its first hole.
    let len = array_length("weights", value)?;
    if len != n {
        return Err(count_mismatch(len, n));
    }
    let copied = copy_weights(value, n);
    if let (Ok(()), Some(w)) = (caught(), copied) {
        return Ok(w);
    }
    (0..n)
        .map(|i| {
            let w = array_item("weights", value, i)?;
            w.as_f64().ok_or_else(|| {
                JsError::new(&format!(
                    "weights[{i}] must be a finite number, got {}",
                    type_name(&w)
                ))
            })
        })
        .collect()
}

fn count_mismatch(got: u32, n: u32) -> JsError {
    JsError::new(&format!(
        "weights must hold one weight per feature: {got} for {n} features"
    ))
}

/// The features read element by element: a string each (the string form: `with_weights`, or
/// when `features[0]` is one) or a `[feature, weight]` pair each.
fn read_listed(features: &JsValue, n: u32, with_weights: bool) -> Result<List, JsError> {
    // Not preallocated from the length: a sparse array's length says nothing about memory.
    let mut list = List {
        text: String::new(),
        lengths: Vec::new(),
        weights: None,
    };
    let mut weights = Vec::new();
    let mut strings = with_weights;
    for i in 0..n {
        let item = array_item("features", features, i)?;
        if i == 0 {
            strings = strings || item.is_string();
        }
        let feature = if strings {
            item.as_string().ok_or_else(|| {
                let why = if with_weights {
                    " (weights go with an array of strings)"
                } else {
                    " like features[0]"
                };
                JsError::new(&format!(
                    "features[{i}] must be a string{why}, got {}",
                    type_name(&item)
                ))
            })?
        } else {
            let (feature, weight) = read_pair("features", i, &item, |v| {
                v.as_string()
                    .ok_or_else(|| JsError::new(&format!("features[{i}][0] must be a string")))
            })?;
            weights.push(weight);
            feature
        };
        list.text.push_str(&feature);
        list.lengths.push(wasm_len(feature.len()));
    }
    if !strings {
        list.weights = Some(weights);
    }
    Ok(list)
}
