//! The `DocumentFrequencies` class: IDF weights from a corpus.

use alloc::format;

use wasm_bindgen::prelude::*;

use crate::convert::{read_string, read_text, type_name};
use crate::err;
use crate::fingerprinter::Fingerprinter;
use crate::options::read_options;
use simprint::Weighting;

/// Document frequencies of a corpus, for IDF weights: add the corpus' documents, then get a
/// fingerprinter that multiplies each feature's weight by its IDF.
///
/// ```js
/// const df = new DocumentFrequencies();          // same options as the fingerprints
/// for (const doc of corpus) df.add(doc);
/// const fp = df.fingerprinter();                 // or df.fingerprinter("logtf")
/// fp.fingerprint(text);
/// ```
#[wasm_bindgen]
pub struct DocumentFrequencies {
    inner: simprint::DocumentFrequencies,
}

#[wasm_bindgen]
impl DocumentFrequencies {
    /// An empty table for texts fingerprinted with `options` (the weighting is ignored).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: Option<JsValue>,
    ) -> Result<DocumentFrequencies, JsError> {
        let df = simprint::DocumentFrequencies::new(read_options(&options)?).map_err(err)?;
        Ok(DocumentFrequencies { inner: df })
    }

    /// Counts one document (each distinct feature once).
    pub fn add(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<(), JsError> {
        let text = read_text(&text)?;
        // Fingerprinters made earlier keep the table they were given (the core copies it).
        self.inner.add(&text);
        Ok(())
    }

    /// Documents counted so far.
    #[wasm_bindgen(getter)]
    pub fn documents(&self) -> f64 {
        self.inner.documents() as f64
    }

    /// Distinct features seen.
    #[wasm_bindgen(getter)]
    pub fn features(&self) -> f64 {
        self.inner.features() as f64
    }

    /// How many documents held `feature` (as the tokenizer makes it, e.g. a lowercase word).
    pub fn frequency(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] feature: JsValue,
    ) -> Result<u32, JsError> {
        Ok(self.inner.frequency(&read_string("feature", &feature)?))
    }

    /// A fingerprinter with this table's options and IDF weights; `weighting` ("binary" by
    /// default, "tf" or "logtf") sets the term weight the IDF multiplies. It keeps the
    /// table as it is now: later `add` calls do not change it.
    pub fn fingerprinter(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "\"tf\" | \"logtf\" | \"binary\"")]
        weighting: Option<JsValue>,
    ) -> Result<Fingerprinter, JsError> {
        let weighting = match weighting.filter(|w| !w.is_undefined() && !w.is_null()) {
            None => Weighting::default(),
            Some(w) => {
                let name = w.as_string().ok_or_else(|| {
                    JsError::new(&format!(
                        "weighting must be a string, got {}",
                        type_name(&w)
                    ))
                })?;
                name.parse::<Weighting>().map_err(err)?
            }
        };
        let options = simprint::Options {
            weighting,
            ..*self.inner.options()
        };
        let inner = simprint::Fingerprinter::new(options)
            .and_then(|f| f.with_document_frequencies(&self.inner))
            .map_err(err)?;
        Ok(Fingerprinter { inner })
    }

    /// The IDF factor of `feature`: ln((1 + N) / (1 + df)) + 1.
    pub fn idf(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] feature: JsValue,
    ) -> Result<f64, JsError> {
        Ok(self.inner.idf(&read_string("feature", &feature)?))
    }
}
