//! Ids as JavaScript gives them: whole numbers from 0 to 2^53 − 1 (`Number.MAX_SAFE_INTEGER`),
//! so every id survives the round trip through a `number` exactly, or strings the core keeps as
//! names; and a query's `limit`, a safe integer too.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

use crate::convert::{js_number, type_name};
use crate::guard::{array_item, array_length, is_array, is_whole};
use crate::typed;

pub(crate) const MAX_SAFE_ID: f64 = 9_007_199_254_740_991.0;

/// An id as JavaScript gives it: a number, or a string the core keeps as a name.
pub(crate) enum IdIn {
    Number(u64),
    Name(String),
}

pub(crate) fn read_id(value: &JsValue) -> Result<IdIn, JsError> {
    read_id_at(value, None)
}

/// An id, called `ids[i]` in messages when it is element `i` of an array, else `id`. (The
/// name is only formatted on error: bulk reads stay allocation-free.)
pub(crate) fn read_id_at(value: &JsValue, at: Option<usize>) -> Result<IdIn, JsError> {
    if let Some(name) = value.as_string() {
        return Ok(IdIn::Name(name));
    }
    let Some(x) = value.as_f64() else {
        return Err(JsError::new(&format!(
            "{} must be a number or a string, got {}",
            id_name(at),
            type_name(value)
        )));
    };
    id_from_f64(x, at).map(IdIn::Number)
}

pub(crate) fn id_name(at: Option<usize>) -> String {
    at.map_or_else(|| "id".into(), |i| format!("ids[{i}]"))
}

pub(crate) fn id_from_f64(x: f64, at: Option<usize>) -> Result<u64, JsError> {
    if is_whole(x) && (0.0..=MAX_SAFE_ID).contains(&x) {
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "checked: a whole number from 0 to 2^53 - 1"
        )]
        Ok(x as u64)
    } else {
        Err(JsError::new(&format!(
            "{} must be a whole number from 0 to 2^53 - 1, got {}",
            id_name(at),
            js_number(x)
        )))
    }
}

pub(crate) fn read_ids(value: &JsValue) -> Result<Vec<IdIn>, JsError> {
    if let Some(a) = typed::read::<u32>("ids", value)? {
        return Ok(a.into_iter().map(|n| IdIn::Number(u64::from(n))).collect());
    }
    if let Some(a) = typed::read::<f64>("ids", value)? {
        return a
            .into_iter()
            .enumerate()
            .map(|(i, x)| id_from_f64(x, Some(i)).map(IdIn::Number))
            .collect();
    }
    if is_array(value) {
        // Element by element: a getter that throws is an error, and a sparse array's length
        // allocates nothing.
        return (0..array_length("ids", value)?)
            .map(|i| read_id_at(&array_item("ids", value, i)?, Some(i as usize)))
            .collect();
    }
    Err(JsError::new(&format!(
        "ids must be a Uint32Array, a Float64Array or an array of numbers and strings, got {}",
        type_name(value)
    )))
}

/// A query's `limit`: undefined or null for no limit, else a whole number from 0 to 2^53 − 1
/// (safe integers, as ids). A limit above what wasm's `usize` holds cannot be below the
/// index's size, so it means no limit.
pub(crate) fn read_limit(value: &Option<JsValue>) -> Result<usize, JsError> {
    let Some(v) = value.as_ref().filter(|v| !v.is_undefined() && !v.is_null()) else {
        return Ok(usize::MAX);
    };
    let x = v
        .as_f64()
        .ok_or_else(|| JsError::new(&format!("limit must be a number, got {}", type_name(v))))?;
    limit_from(x)
}

/// A query's `limit` given as a number: see [`read_limit`].
pub(crate) fn limit_from(x: f64) -> Result<usize, JsError> {
    if is_whole(x) && (0.0..=MAX_SAFE_ID).contains(&x) {
        // `as` saturates: on wasm32 a limit above 2^32 - 1 becomes usize::MAX, no limit.
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a whole number from 0 up, saturating on purpose"
        )]
        Ok(x as usize)
    } else {
        Err(JsError::new(&format!(
            "limit must be a whole number from 0 to 2^53 - 1, got {}",
            js_number(x)
        )))
    }
}
