//! Document frequencies for IDF weighting: how many documents of a corpus hold each feature,
//! and the fingerprinters that use them.

use alloc::sync::Arc;

use crate::error::Error;
use crate::fingerprinter::Fingerprinter;
use crate::idf::Idf;
use crate::options::Options;

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
    /// Shared with the fingerprinters made from it; copied on the next `add` (so they keep
    /// the table they were given).
    idf: Arc<Idf>,
}

impl DocumentFrequencies {
    /// An empty table for texts fingerprinted with `options` (the weighting is ignored).
    ///
    /// # Errors
    ///
    /// What [`Options::validate`] refuses.
    ///
    /// ```
    /// let df = simprint::DocumentFrequencies::new(simprint::Options::default())?;
    /// assert_eq!(df.documents(), 0);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn new(options: Options) -> Result<DocumentFrequencies, Error> {
        Ok(DocumentFrequencies {
            fingerprinter: Fingerprinter::new(options)?,
            idf: Arc::new(Idf::default()),
        })
    }

    /// The options the table was built with.
    ///
    /// ```
    /// let df = simprint::DocumentFrequencies::new(simprint::Options::default())?;
    /// assert_eq!(df.options().width, 64);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
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
        let folded = self.fingerprinter.fold(text);
        let features = self.fingerprinter.counts_of(&folded);
        Arc::make_mut(&mut self.idf).add_document(features.iter().map(|&(h, _)| h));
    }

    /// Number of documents counted.
    ///
    /// ```
    /// let df = simprint::DocumentFrequencies::new(simprint::Options::default())?;
    /// assert_eq!(df.documents(), 0);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn documents(&self) -> u64 {
        self.idf.documents
    }

    /// Number of distinct features seen.
    ///
    /// ```
    /// let mut df = simprint::DocumentFrequencies::new(simprint::Options::default())?;
    /// df.add("one two two");
    /// assert_eq!(df.features(), 2);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn features(&self) -> usize {
        self.idf.counts.len()
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
    #[must_use]
    pub fn frequency(&self, feature: &str) -> u32 {
        self.idf
            .frequency(self.fingerprinter.hasher().full_hash_joined(&[feature], ""))
    }

    /// The IDF factor of `feature`: `ln((1 + N) / (1 + df)) + 1`.
    ///
    /// ```
    /// let df = simprint::DocumentFrequencies::new(simprint::Options::default())?;
    /// assert_eq!(df.idf("anything"), 1.0); // no documents: every factor is 1
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn idf(&self, feature: &str) -> f64 {
        self.idf
            .factor(self.fingerprinter.hasher().full_hash_joined(&[feature], ""))
    }
}

impl Fingerprinter {
    /// Uses inverse document frequencies from `df` as it is now (later `add` calls do not
    /// change this fingerprinter): each feature's weight is multiplied by
    /// `ln((1 + N) / (1 + df)) + 1`, so features common across the corpus count less. `df`
    /// must have been built with the same options, apart from the weighting.
    ///
    /// # Errors
    ///
    /// [`Error::OptionsMismatch`] when `df` was built with other options than this
    /// fingerprinter's (the weighting aside); [`Error::NotForMinHash`] for a
    /// [`Algorithm::MinHash`](crate::Algorithm::MinHash) fingerprinter, which has no weights.
    ///
    /// ```
    /// use simprint::{DocumentFrequencies, Fingerprinter, Options};
    /// let mut df = DocumentFrequencies::new(Options::default())?;
    /// for doc in ["the cat sat", "the dog ran", "the bird flew"] {
    ///     df.add(doc);
    /// }
    /// let fp = Fingerprinter::new(Options::default())?.with_document_frequencies(&df)?;
    /// let e = fp.explain("the cat")?;
    /// assert!(e.features[0].weight < e.features[1].weight); // "the" is in every document
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn with_document_frequencies(
        mut self,
        df: &DocumentFrequencies,
    ) -> Result<Fingerprinter, Error> {
        if self.options().algorithm == crate::Algorithm::MinHash {
            return Err(Error::NotForMinHash {
                what: "document frequencies",
            });
        }
        let same = Options {
            weighting: self.options().weighting,
            ..*df.options()
        } == *self.options();
        if !same {
            return Err(Error::OptionsMismatch);
        }
        self.idf = Some(df.idf.clone());
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Weighting;

    #[test]
    fn logtf_and_idf_weights() {
        let text = "spam spam spam eggs";
        let log = Fingerprinter::new(Options {
            weighting: Weighting::LogTermFrequency,
            ..Options::default()
        })
        .unwrap();
        let rows = [("spam", 1.0 + libm::log(3.0)), ("eggs", 1.0)];
        // Same weights; the pipeline sums in hash order, the rows in given order, and both
        // must give the same signs.
        assert_eq!(
            log.fingerprint(text),
            log.fingerprint_features(rows).unwrap()
        );
        assert_eq!(
            log.explain(text).unwrap().fingerprint,
            log.fingerprint(text)
        );

        let mut df = DocumentFrequencies::new(Options::default()).unwrap();
        for doc in ["spam and eggs", "spam only", "spam again"] {
            df.add(doc);
        }
        let idf = Fingerprinter::new(Options::default())
            .unwrap()
            .with_document_frequencies(&df)
            .unwrap();
        let e = idf.explain(text).unwrap();
        assert_eq!(e.fingerprint, idf.fingerprint(text));
        let weight = |f: &str| {
            e.features
                .iter()
                .find(|r| r.text.as_deref() == Some(f))
                .unwrap()
                .weight
        };
        assert_eq!(weight("spam"), libm::log(4.0 / 4.0) + 1.0);
        assert_eq!(weight("eggs"), libm::log(4.0 / 2.0) + 1.0);
        // A table built with other options is refused.
        let other = Fingerprinter::new(Options {
            case_fold: false,
            ..Options::default()
        })
        .unwrap();
        assert!(matches!(
            other.with_document_frequencies(&df),
            Err(Error::OptionsMismatch)
        ));
    }
}
