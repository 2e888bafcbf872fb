//! Plain JavaScript objects and arrays, built field by field. The few shapes the bindings
//! return (plans, explanations, candidates, the defaults) need no serializer: serde and
//! serde-wasm-bindgen were about 20 KB of the `.wasm`.

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::JsValue;

/// A plain object under construction.
pub(crate) struct Obj(Object);

impl Obj {
    pub(crate) fn new() -> Obj {
        Obj(Object::new())
    }

    /// Sets `key` to `value`.
    pub(crate) fn set(self, key: &str, value: impl Into<JsValue>) -> Obj {
        // A fresh plain object with no setters: defining a field on it cannot throw.
        let _ = Reflect::set(&self.0, &JsValue::from_str(key), &value.into());
        self
    }

    pub(crate) fn done(self) -> JsValue {
        self.0.into()
    }
}

/// An array of `items`.
pub(crate) fn array(items: impl IntoIterator<Item = JsValue>) -> JsValue {
    items.into_iter().collect::<Array>().into()
}

/// `value`, or `null` for `None`.
pub(crate) fn or_null<T: Into<JsValue>>(value: Option<T>) -> JsValue {
    value.map_or(JsValue::NULL, Into::into)
}
