//! Inverse document frequency: how much a feature's weight is multiplied by, from how many
//! documents of a corpus held it ([`DocumentFrequencies`] counts them).
//!
//! [`DocumentFrequencies`]: crate::DocumentFrequencies

use alloc::collections::BTreeMap;

/// The document frequencies of a corpus as weight factors: a feature in `df` of `N` documents
/// gets `ln((1 + N) / (1 + df)) + 1`. Features are keyed by their full SipHash.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Idf {
    pub(crate) documents: u64,
    pub(crate) counts: BTreeMap<u128, u32>,
}

impl Idf {
    /// Counts one document holding the features with these full hashes (each once).
    pub(crate) fn add_document(&mut self, features: impl IntoIterator<Item = u128>) {
        self.documents += 1;
        for h in features {
            let n = self.counts.entry(h).or_insert(0);
            *n = n.saturating_add(1);
        }
    }

    /// How many documents held the feature with this full hash.
    pub(crate) fn frequency(&self, full_hash: u128) -> u32 {
        self.counts.get(&full_hash).copied().unwrap_or(0)
    }

    /// The weight factor of the feature with this full hash.
    pub(crate) fn factor(&self, full_hash: u128) -> f64 {
        let df = self.frequency(full_hash);
        // libm: the same bits natively and in wasm.
        libm::log((1.0 + self.documents as f64) / (1.0 + f64::from(df))) + 1.0
    }
}
