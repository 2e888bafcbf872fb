//! Document frequencies for IDF weighting: how many documents of a corpus hold each feature.

use alloc::collections::BTreeMap;

use crate::error::Error;
use crate::pipeline::{Fingerprinter, Options};

/// How many documents of a corpus contain each feature, for inverse-document-frequency
/// weights ([`Fingerprinter::with_document_frequencies`]): a feature in `df` of `N` documents
/// weighs `ln((1 + N) / (1 + df)) + 1` times its term weight, so words every document has
/// count least and a feature the corpus never saw counts most.
///
/// Features are keyed by their full 64-bit (128-bit for widths above 64) SipHash under the
/// options' key, so the table holds no text.
///
/// ```
/// use simprint::{DocumentFrequencies, Options};
/// let mut df = DocumentFrequencies::new(Options::default())?;
/// df.add("the cat sat on the mat");
/// df.add("the dog sat");
/// assert_eq!(df.documents(), 2);
/// assert_eq!(df.frequency("the"), 2); // counted once per document
/// assert_eq!(df.frequency("cat"), 1);
/// assert!(df.idf("cat") > df.idf("the"));
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct DocumentFrequencies {
    fingerprinter: Fingerprinter,
    documents: u64,
    counts: BTreeMap<u128, u32>,
}

impl DocumentFrequencies {
    /// An empty table for texts fingerprinted with `options` (the weighting is ignored).
    ///
    /// ```
    /// let df = simprint::DocumentFrequencies::new(simprint::Options::default())?;
    /// assert_eq!(df.documents(), 0);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn new(options: Options) -> Result<DocumentFrequencies, Error> {
        Ok(DocumentFrequencies {
            fingerprinter: Fingerprinter::new(options)?,
            documents: 0,
            counts: BTreeMap::new(),
        })
    }

    /// The options the table was built with.
    ///
    /// ```
    /// let df = simprint::DocumentFrequencies::new(simprint::Options::default())?;
    /// assert_eq!(df.options().width, 64);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn options(&self) -> &Options {
        self.fingerprinter.options()
    }

    /// Counts one document: each distinct feature of `text` once.
    ///
    /// ```
    /// let mut df = simprint::DocumentFrequencies::new(simprint::Options::default())?;
    /// df.add("a a a");
    /// assert_eq!(df.frequency("a"), 1);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn add(&mut self, text: &str) {
        self.documents += 1;
        let folded = self.fingerprinter.fold(text);
        for (h, _) in self.fingerprinter.counts_of(&folded) {
            let n = self.counts.entry(h).or_insert(0);
            *n = n.saturating_add(1);
        }
    }

    /// Number of documents counted.
    ///
    /// ```
    /// let df = simprint::DocumentFrequencies::new(simprint::Options::default())?;
    /// assert_eq!(df.documents(), 0);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn documents(&self) -> u64 {
        self.documents
    }

    /// Number of distinct features seen.
    ///
    /// ```
    /// let mut df = simprint::DocumentFrequencies::new(simprint::Options::default())?;
    /// df.add("one two two");
    /// assert_eq!(df.features(), 2);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn features(&self) -> usize {
        self.counts.len()
    }

    /// How many documents held `feature` (a feature as the tokenizer makes it, e.g. a
    /// lowercase word, or two words joined by a space for `wordN = 2`).
    ///
    /// ```
    /// let mut df = simprint::DocumentFrequencies::new(simprint::Options::default())?;
    /// df.add("Hello world");
    /// assert_eq!(df.frequency("hello"), 1);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn frequency(&self, feature: &str) -> u32 {
        let h = self.fingerprinter.hasher().full_hash_joined(&[feature], "");
        self.counts.get(&h).copied().unwrap_or(0)
    }

    /// The IDF factor of `feature`: `ln((1 + N) / (1 + df)) + 1`.
    ///
    /// ```
    /// let df = simprint::DocumentFrequencies::new(simprint::Options::default())?;
    /// assert_eq!(df.idf("anything"), 1.0); // no documents: every factor is 1
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn idf(&self, feature: &str) -> f64 {
        self.idf_of_hash(self.fingerprinter.hasher().full_hash_joined(&[feature], ""))
    }

    pub(crate) fn idf_of_hash(&self, full_hash: u128) -> f64 {
        let df = self.counts.get(&full_hash).copied().unwrap_or(0);
        // libm: the same bits natively and in wasm.
        libm::log((1.0 + self.documents as f64) / (1.0 + f64::from(df))) + 1.0
    }
}
