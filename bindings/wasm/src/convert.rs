//! JavaScript values into the core's types: numbers, strings, BigInt fingerprints, option
//! objects and `[item, weight]` pairs. Type errors are worded here; every rule on a value is
//! the core's.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use js_sys::Array;
use wasm_bindgen::prelude::*;

use crate::guard::guarded_fields;

use crate::err;
use crate::guard::{array_item, array_length, caught, is_array, is_whole};
use simprint::Fingerprint;

/// A JavaScript number as JavaScript prints it (Rust's float formatting would add ~20 KB).
pub(crate) fn js_number(x: f64) -> String {
    js_sys::Number::from(x)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default()
}

/// A JavaScript number as the whole number (`u32`) the core takes for the setting called
/// `what`: a number that is not one is a conversion error here; its range is the core's to
/// check (`width` 1 to 128, `k` up to the width, ...).
pub(crate) fn whole(what: &str, x: f64) -> Result<u32, JsError> {
    if !is_whole(x) || x < 0.0 || x.is_nan() {
        Err(JsError::new(&format!(
            "{what} must be a whole number, got {}",
            js_number(x)
        )))
    } else if x > f64::from(u32::MAX) {
        Err(JsError::new(&format!(
            "{what} must be a whole number no larger than 4294967295, got {}",
            js_number(x)
        )))
    } else {
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "checked above: a whole number in range"
        )]
        Ok(x as u32)
    }
}

/// A width given as a number, or the core's default width.
pub(crate) fn width_from(x: Option<f64>) -> Result<u32, JsError> {
    x.map_or(Ok(simprint::Options::default().width), |w| {
        whole("width", w)
    })
}

/// An n-gram size given as a number, or `default`.
pub(crate) fn size(what: &str, x: Option<f64>, default: usize) -> Result<usize, JsError> {
    x.map_or(Ok(default), |n| whole(what, n).map(|n| n as usize))
}

/// The fields of an options object, each read once (by guard.js, so a getter that throws is an
/// error, not an exception through wasm) and type-checked by name.
///
/// All of them are read in one call out of wasm, which also checks the object's keys: reading
/// them one by one took two to five calls each (the key made a JavaScript string, the read, the
/// failure check, `undefined` and `null` tests), about 0.4 µs a field under Node 20, so 4 µs
/// for the ten fields of `fingerprint(text, {})`.
pub(crate) struct Fields<'a> {
    names: &'a [&'a str],
    /// `[present, value of names[0], value of names[1], ...]`.
    values: Array,
    /// Bit `i` set when `names[i]` is neither undefined nor null.
    present: u32,
}

impl<'a> Fields<'a> {
    /// `None` for undefined or null, our error for anything else that is not a plain object or
    /// has a field not in `fields` (at most 32 of them).
    pub(crate) fn read(
        value: &Option<JsValue>,
        fields: &'a [&'a str],
    ) -> Result<Option<Fields<'a>>, JsError> {
        let Some(value) = value.as_ref().filter(|v| !v.is_undefined() && !v.is_null()) else {
            return Ok(None);
        };
        if !value.is_object() || is_array(value) {
            return Err(JsError::new(&format!(
                "options must be an object, got {}",
                type_name(value)
            )));
        }
        debug_assert!(fields.len() <= 32, "guard.js's mask has 32 bits");
        // As the message below lists them, so one `join` serves both.
        let names = fields.join(", ");
        let read = guarded_fields(value, &names);
        // guard.js: [mask, ...values], [UNKNOWN (-1), key] or [THREW (-2), index or -1].
        let code = read.get(0).as_f64().unwrap_or(-2.0);
        if code == -1.0 {
            // A misspelt option would otherwise be silently ignored: name it instead.
            let key = read.get(1).as_string().unwrap_or_default();
            return Err(JsError::new(&format!(
                "options: unknown field `{}`, expected one of {names}",
                simprint::echo(&key),
            )));
        }
        if code < 0.0 {
            let i = read.get(1).as_f64().unwrap_or(-1.0);
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "guard.js's index into `fields`, or -1"
            )]
            let field = (i >= 0.0).then(|| fields.get(i as usize)).flatten();
            let what = field.map_or_else(|| "options".into(), |name| format!("options.{name}"));
            let why = caught().err().unwrap_or_default();
            return Err(JsError::new(&format!("{what} could not be read: {why}")));
        }
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "guard.js's mask of at most 32 bits"
        )]
        let present = code as u32;
        Ok(Some(Fields {
            names: fields,
            values: read,
            present,
        }))
    }

    /// The field's value; `None` when undefined or null.
    pub(crate) fn get(&self, name: &str) -> Result<Option<JsValue>, JsError> {
        Ok(self
            .names
            .iter()
            .position(|n| *n == name)
            .filter(|&i| self.present >> i & 1 == 1)
            .map(|i| {
                #[allow(clippy::cast_possible_truncation, reason = "at most 32 names")]
                let at = i as u32 + 1;
                self.values.get(at)
            }))
    }

    pub(crate) fn number(&self, name: &str) -> Result<Option<f64>, JsError> {
        self.get(name)?
            .map(|v| {
                v.as_f64().ok_or_else(|| {
                    JsError::new(&format!("{name} must be a number, got {}", type_name(&v)))
                })
            })
            .transpose()
    }

    pub(crate) fn string(&self, name: &str) -> Result<Option<String>, JsError> {
        self.get(name)?
            .map(|v| {
                v.as_string().ok_or_else(|| {
                    JsError::new(&format!("{name} must be a string, got {}", type_name(&v)))
                })
            })
            .transpose()
    }

    pub(crate) fn boolean(&self, name: &str) -> Result<Option<bool>, JsError> {
        self.get(name)?
            .map(|v| {
                v.as_bool().ok_or_else(|| {
                    JsError::new(&format!(
                        "{name} must be true or false, got {}",
                        type_name(&v)
                    ))
                })
            })
            .transpose()
    }
}

/// A count as a JavaScript number: exact, since every `usize` of wasm32 (and every count the
/// core defines natively) is far below 2^53.
#[allow(clippy::cast_precision_loss, reason = "counts far below 2^53")]
pub(crate) fn count(n: usize) -> f64 {
    n as f64
}

pub(crate) fn read_text(value: &JsValue) -> Result<String, JsError> {
    read_string("text", value)
}

/// A string argument called `what` in messages.
pub(crate) fn read_string(what: &str, value: &JsValue) -> Result<String, JsError> {
    value.as_string().ok_or_else(|| {
        JsError::new(&format!(
            "{what} must be a string, got {}",
            type_name(value)
        ))
    })
}

pub(crate) fn type_name(value: &JsValue) -> String {
    if value.is_null() {
        "null".into()
    } else if is_array(value) {
        "an array".into()
    } else {
        value.js_typeof().as_string().unwrap_or_default()
    }
}

/// A fingerprint argument: a non-negative BigInt that fits `width` bits.
pub(crate) fn read_value(what: &str, value: &JsValue, width: u32) -> Result<Fingerprint, JsError> {
    // Hex, as toHex writes it and JSON carries it, reads as the core reads hex.
    if let Some(hex) = value.as_string() {
        return Fingerprint::from_hex(&hex, width)
            .map_err(|e| JsError::new(&format!("{what}: {}", crate::describe(&e))));
    }
    if !value.is_bigint() {
        return Err(JsError::new(&format!(
            "{what} must be a BigInt or a hex string, got {}",
            type_name(value)
        )));
    }
    let v = u128::try_from(value.clone())
        .map_err(|_| JsError::new(&format!("{what} must be a BigInt from 0 to 2^128 - 1")))?;
    Fingerprint::new(v, width)
        .map_err(|e| JsError::new(&format!("{what}: {}", crate::describe(&e))))
}

/// A `width` argument (undefined or null: the core's default), checked by the core.
pub(crate) fn read_width(value: &Option<JsValue>) -> Result<u32, JsError> {
    let w = match value.as_ref().filter(|v| !v.is_undefined() && !v.is_null()) {
        None => None,
        Some(v) => Some(v.as_f64().ok_or_else(|| {
            JsError::new(&format!("width must be a number, got {}", type_name(v)))
        })?),
    };
    simprint::check_width(width_from(w)?).map_err(err)
}

/// Reads `[item, weight]` pairs from a JS array, converting items with `item`.
pub(crate) fn read_pairs<T>(
    what: &str,
    value: &JsValue,
    mut item: impl FnMut(usize, &JsValue) -> Result<T, JsError>,
) -> Result<Vec<(T, f64)>, JsError> {
    if !is_array(value) {
        return Err(JsError::new(&format!(
            "{what} must be an array of [item, weight] pairs, got {}",
            type_name(value)
        )));
    }
    // Not preallocated from the length: a sparse array's length says nothing about memory.
    let mut out = Vec::new();
    for i in 0..array_length(what, value)? {
        let pair = array_item(what, value, i)?;
        out.push(read_pair(what, i, &pair, |v| item(i as usize, v))?);
    }
    Ok(out)
}

/// `what[i]`, which must be an `[item, weight]` pair with a finite weight; the item is
/// converted with `item`.
pub(crate) fn read_pair<T>(
    what: &str,
    i: u32,
    pair: &JsValue,
    item: impl FnOnce(&JsValue) -> Result<T, JsError>,
) -> Result<(T, f64), JsError> {
    let what_i = format!("{what}[{i}]");
    if !is_array(pair) || array_length(&what_i, pair)? != 2 {
        return Err(JsError::new(&format!(
            "{what}[{i}] must be a [item, weight] pair"
        )));
    }
    let weight = array_item(&what_i, pair, 1)?
        .as_f64()
        .filter(|w| w.is_finite())
        .ok_or_else(|| {
            JsError::new(&format!(
                "{what}[{i}][1] (the weight) must be a finite number"
            ))
        })?;
    Ok((item(&array_item(&what_i, pair, 0)?)?, weight))
}

pub(crate) fn read_hashes(value: &JsValue, width: u32) -> Result<Vec<(u128, f64)>, JsError> {
    read_pairs("hashes", value, |i, v| {
        read_value(&format!("hashes[{i}][0]"), v, width).map(|fp| fp.value())
    })
}

pub(crate) fn bigint(fp: Fingerprint) -> JsValue {
    JsValue::from(fp.value())
}

/// A length or position in wasm32 memory as the `u32` JavaScript gets: every one fits.
#[allow(clippy::cast_possible_truncation, reason = "wasm32: usize is 32 bits")]
pub(crate) fn wasm_len(n: usize) -> u32 {
    n as u32
}

/// A distance (`k`) as a whole number, `default` when undefined or null; the core checks its
/// range against the width (and gives the message for a k above it), except for numbers
/// beyond `u32`.
pub(crate) fn read_k(value: &Option<JsValue>, default: u32) -> Result<u32, JsError> {
    match value.as_ref().filter(|v| !v.is_undefined() && !v.is_null()) {
        None => Ok(default),
        Some(v) => {
            let x = v.as_f64().ok_or_else(|| {
                JsError::new(&format!("k must be a number, got {}", type_name(v)))
            })?;
            whole("k", x)
        }
    }
}
