//! `Fingerprinter.calibrate`: the core's `Fingerprinter::calibrate` over `[a, b, duplicate]`
//! triples.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

use crate::convert::{count, read_string, type_name};
use crate::err;
use crate::fingerprinter::Fingerprinter;
use crate::guard::{array_item, array_length, is_array};
use crate::object::Obj;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** A labelled pair for `calibrate`: two texts and whether they are near-duplicates. */
export type LabelledPair = readonly [a: string, b: string, duplicate: boolean];

/** What `calibrate` found: the tolerance to pass to `recommendedK`, its scores on the pairs,
 *  and for comparison the default tolerance's F1 and the best single k's. */
export interface Calibration {
  tolerance: number;
  far: number;
  precision: number;
  recall: number;
  f1: number;
  defaultF1: number;
  fixedK: number;
  fixedF1: number;
  pairs: number;
  duplicates: number;
}
"#;

#[wasm_bindgen]
impl Fingerprinter {
    /// The tolerance under which each pair's first text's `recommendedK` best separates the
    /// pairs labelled near-duplicates from the others (F1; `near` 0.02 to 0.30): the core's
    /// `Fingerprinter::calibrate`. Throws unless both kinds are present.
    ///
    /// ```js
    /// const fp = new Fingerprinter();
    /// const { tolerance } = fp.calibrate(labelled); // [[a, b, true], [a, c, false], …]
    /// const k = fp.recommendedK(text, { tolerance });
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Calibration")]
    pub fn calibrate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "readonly LabelledPair[]")] pairs: JsValue,
    ) -> Result<JsValue, JsError> {
        const WHAT: &str = "pairs";
        if !is_array(&pairs) {
            return Err(JsError::new(&format!(
                "{WHAT} must be an array of [a, b, duplicate] triples, got {}",
                type_name(&pairs)
            )));
        }
        let mut read: Vec<(String, String, bool)> = Vec::new();
        for i in 0..array_length(WHAT, &pairs)? {
            let item = array_item(WHAT, &pairs, i)?;
            let what_i = format!("{WHAT}[{i}]");
            if !is_array(&item) || array_length(&what_i, &item)? != 3 {
                return Err(JsError::new(&format!(
                    "{what_i} must be an [a, b, duplicate] triple"
                )));
            }
            let a = read_string(&format!("{what_i}[0]"), &array_item(&what_i, &item, 0)?)?;
            let b = read_string(&format!("{what_i}[1]"), &array_item(&what_i, &item, 1)?)?;
            let duplicate = array_item(&what_i, &item, 2)?.as_bool().ok_or_else(|| {
                JsError::new(&format!("{what_i}[2] (duplicate) must be a boolean"))
            })?;
            read.push((a, b, duplicate));
        }
        let c = self.inner.calibrate(read).map_err(err)?;
        Ok(Obj::new()
            .set("tolerance", c.tolerance.near)
            .set("far", c.tolerance.far)
            .set("precision", c.precision)
            .set("recall", c.recall)
            .set("f1", c.f1)
            .set("defaultF1", c.default_f1)
            .set("fixedK", c.fixed_k)
            .set("fixedF1", c.fixed_f1)
            .set("pairs", count(c.pairs))
            .set("duplicates", count(c.duplicates))
            .done())
    }
}
