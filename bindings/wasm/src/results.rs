//! Query matches and pairs built in JavaScript from parallel arrays (see `js/results.js`): one
//! call across the boundary per answer instead of several per item.

#[cfg(feature = "index")]
use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

#[cfg(feature = "index")]
use simprint::{Match, Pair};

#[wasm_bindgen(module = "/js/results.js")]
extern "C" {
    // Views of wasm memory, read before the call returns: nothing throws in it.
    #[cfg(feature = "index")]
    #[wasm_bindgen(js_name = matchesOf)]
    fn matches_of(ids: &[f64], distances: &[u32]) -> JsValue;
    #[cfg(feature = "index")]
    #[wasm_bindgen(js_name = pairsOf)]
    fn pairs_of(a: &[f64], b: &[f64], distances: &[u32]) -> JsValue;
    #[wasm_bindgen(js_name = comparisonOf)]
    fn comparison_of(
        distance: u32,
        width: u32,
        similarity: f64,
        angle: f64,
        cosine: f64,
        near: u32,
    ) -> JsValue;
}

/// The `Comparison` object of `compare`, `nearDuplicate` only when a `k` was given.
pub(crate) fn comparison(c: &simprint::Comparison, k: Option<u32>) -> JsValue {
    let near = k.map_or(2, |k| u32::from(c.near_duplicate(k)));
    comparison_of(c.distance, c.width, c.similarity, c.angle, c.cosine, near)
}

/// `[{ id, distance }]` for matches whose ids are numbers (below 2^53, as the bindings take
/// them).
#[cfg(feature = "index")]
#[allow(
    clippy::cast_precision_loss,
    reason = "ids from JavaScript are whole numbers below 2^53"
)]
pub(crate) fn numeric_matches(found: &[Match]) -> JsValue {
    let ids: Vec<f64> = found.iter().map(|m| m.id as f64).collect();
    let distances: Vec<u32> = found.iter().map(|m| m.distance).collect();
    matches_of(&ids, &distances)
}

/// `[{ a, b, distance }]` for pairs whose ids are numbers (below 2^53, as the bindings take
/// them).
#[cfg(feature = "index")]
#[allow(
    clippy::cast_precision_loss,
    reason = "ids from JavaScript are whole numbers below 2^53"
)]
pub(crate) fn numeric_pairs(pairs: &[Pair]) -> JsValue {
    let a: Vec<f64> = pairs.iter().map(|p| p.a as f64).collect();
    let b: Vec<f64> = pairs.iter().map(|p| p.b as f64).collect();
    let distances: Vec<u32> = pairs.iter().map(|p| p.distance).collect();
    pairs_of(&a, &b, &distances)
}
