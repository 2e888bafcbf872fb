//! Explanations: `V`, the bits, and how each feature pushed each bit, for teaching and
//! debugging.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::accumulate::{Accumulator, UnitCounter};
use crate::error::Error;
use crate::fingerprint::Fingerprint;
use crate::fingerprinter::Fingerprinter;
use crate::sort;

/// One feature's part in a fingerprint.
///
/// ```
/// let e = simprint::explain_hashes(3, [(0b101, 1.0)])?;
/// let row = &e.features[0];
/// assert_eq!((row.text.as_deref(), row.weight, row.hash), (None, 1.0, 0b101));
/// assert_eq!(row.hash_bits(3), "101");
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ExplainedFeature {
    /// The feature's text; `None` for pre-hashed features.
    pub text: Option<String>,
    /// Its weight: for text, the number of occurrences (`tf`) or 1 (`binary`).
    pub weight: f64,
    /// Its `f`-bit hash: it added `+weight` to `V[i]` where bit `i` is 1 and `−weight` where 0.
    pub hash: u128,
}

impl ExplainedFeature {
    /// The hash as `width` characters of `0` and `1`, bit 0 (most significant) first.
    ///
    /// ```
    /// let e = simprint::explain_hashes(6, [(0b100101, 4.0)])?;
    /// assert_eq!(e.features[0].hash_bits(6), "100101");
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn hash_bits(&self, width: u32) -> String {
        (0..width)
            .map(|i| {
                if (self.hash >> (width - 1 - i)) & 1 == 1 {
                    '1'
                } else {
                    '0'
                }
            })
            .collect()
    }
}

/// How a fingerprint came about: `V` (the per-bit weights), the fingerprint (the signs), and
/// one row per distinct feature in order of first appearance.
///
/// ```
/// use simprint::{Fingerprinter, Options, Weighting};
/// let tf = Options { width: 8, weighting: Weighting::TermFrequency, ..Options::default() };
/// let fp = Fingerprinter::new(tf)?;
/// let e = fp.explain("to be or not to be")?;
/// assert_eq!(e.fingerprint, fp.fingerprint("to be or not to be"));
/// assert_eq!(e.v.len(), 8);
/// let to = &e.features[0];
/// assert_eq!((to.text.as_deref(), to.weight), (Some("to"), 2.0));
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// The resulting fingerprint: bit `i` is 1 iff `v[i] > 0`.
    pub fingerprint: Fingerprint,
    /// `V`, bit 0 first.
    pub v: Vec<f64>,
    /// One row per distinct feature.
    pub features: Vec<ExplainedFeature>,
}

impl Explanation {
    fn from_rows(width: u32, features: Vec<ExplainedFeature>) -> Result<Explanation, Error> {
        let mut acc = Accumulator::new(width)?;
        for row in &features {
            acc.add(row.hash, row.weight)?;
        }
        Ok(Explanation {
            fingerprint: acc.fingerprint(),
            v: acc.v().to_vec(),
            features,
        })
    }
}

impl Fingerprinter {
    /// Explains [`Fingerprinter::fingerprint`] of `text`: same fingerprint, plus `V` and the
    /// feature rows.
    ///
    /// # Errors
    ///
    /// [`Error::NotForMinHash`] for a [`Algorithm::MinHash`](crate::Algorithm::MinHash)
    /// fingerprinter: its bits are not sums of the features' weights.
    ///
    /// ```
    /// use simprint::{Fingerprinter, Options, Weighting};
    /// let tf = Options { weighting: Weighting::TermFrequency, ..Options::default() };
    /// let e = Fingerprinter::new(tf)?.explain("回家罗回家罗")?;
    /// let texts: Vec<_> = e.features.iter().map(|f| f.text.clone().unwrap()).collect();
    /// assert_eq!(texts, ["回家", "家罗", "罗回"]);
    /// assert_eq!(e.features[0].weight, 2.0);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn explain(&self, text: &str) -> Result<Explanation, Error> {
        if self.options().algorithm == crate::Algorithm::MinHash {
            return Err(Error::NotForMinHash { what: "explain" });
        }
        let folded = self.fold(text);
        // (text, full hash, occurrences) per distinct feature, in order of first appearance.
        let mut found: Vec<(String, u128, u32)> = Vec::new();
        // Positions as u64, so that the map is the same type as the index's names and its
        // B-tree code is compiled once for both.
        let mut index: BTreeMap<String, u64> = BTreeMap::new();
        self.options()
            .tokenizer
            .for_each_feature(&folded, |parts, sep| {
                let feature = parts.join(sep);
                match index.get(&feature) {
                    Some(&i) => found[sort::from_position(i)].2 += 1,
                    None => {
                        let full = self.hasher().full_hash_joined(&[&feature], "");
                        index.insert(feature.clone(), sort::position(found.len()));
                        found.push((feature, full, 1));
                    }
                }
            });
        let width = self.options().width;
        let rows: Vec<ExplainedFeature> = found
            .iter()
            .map(|(text, full, count)| ExplainedFeature {
                text: Some(text.clone()),
                weight: self.weight_of(*full, u64::from(*count)),
                hash: self.hasher().cut(*full),
            })
            .collect();
        let (fingerprint, v) = if self.integral_weights() {
            // Exact integer counts, as the fingerprint itself does.
            let mut acc = UnitCounter::new(width);
            for row in &rows {
                // Counts are exact in f64 far beyond any text length.
                #[allow(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "integral weights are whole, positive counts"
                )]
                let times = row.weight as u64;
                for _ in 0..times {
                    acc.add(row.hash);
                }
            }
            (acc.fingerprint(), acc.v().map(|x| x as f64).collect())
        } else {
            // Float weights are summed in full-hash order, as the fingerprint sums them.
            let mut order: Vec<(u128, u64)> = found
                .iter()
                .enumerate()
                .map(|(i, f)| (f.1, sort::position(i)))
                .collect();
            sort::sort(&mut order);
            let mut acc = Accumulator::new(width).unwrap_or_else(|_| {
                unreachable!("the width was checked when the fingerprinter was built")
            });
            for (_, i) in order {
                let row = &rows[sort::from_position(i)];
                acc.add_trusted(row.hash, row.weight);
            }
            (acc.fingerprint(), acc.v().to_vec())
        };
        Ok(Explanation {
            fingerprint,
            v,
            features: rows,
        })
    }

    /// Explains [`Fingerprinter::fingerprint_features`]: one row per pair, as given.
    ///
    /// # Errors
    ///
    /// [`Error::NonFiniteWeight`] for a weight that is not finite; [`Error::NotForMinHash`]
    /// for a MinHash fingerprinter.
    ///
    /// ```
    /// let fp = simprint::Fingerprinter::new(simprint::Options::default())?;
    /// let e = fp.explain_features([("美国", 4.0), ("51区", 5.0)])?;
    /// assert_eq!(e.features.len(), 2);
    /// assert_eq!(e.v.iter().map(|x| x.abs()).fold(0.0, f64::max), 9.0);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn explain_features<S: AsRef<str>>(
        &self,
        features: impl IntoIterator<Item = (S, f64)>,
    ) -> Result<Explanation, Error> {
        if self.options().algorithm == crate::Algorithm::MinHash {
            return Err(Error::NotForMinHash { what: "explain" });
        }
        let rows = features
            .into_iter()
            .map(|(text, weight)| {
                let text = text.as_ref();
                ExplainedFeature {
                    hash: self.hasher().hash_str(text),
                    text: Some(text.into()),
                    weight,
                }
            })
            .collect();
        Explanation::from_rows(self.options().width, rows)
    }
}

/// Explains [`fingerprint_hashes`](crate::fingerprint_hashes): `V` and the bits of pre-hashed
/// features, one row per pair.
///
/// # Errors
///
/// As [`fingerprint_hashes`](crate::fingerprint_hashes): a bad width, a hash wider than it, a
/// weight that is not finite.
///
/// ```
/// // The reference material's 3-bit worked example.
/// let hashes = [(0b101, 1.0), (0b011, 2.0), (0b100, 0.0), (0b001, 3.0), (0b110, 0.0)];
/// let e = simprint::explain_hashes(3, hashes)?;
/// assert_eq!(e.v, [-4.0, -2.0, 6.0]);
/// assert_eq!(e.fingerprint.to_binary(), "001");
/// # Ok::<(), simprint::Error>(())
/// ```
pub fn explain_hashes(
    width: u32,
    features: impl IntoIterator<Item = (u128, f64)>,
) -> Result<Explanation, Error> {
    let rows = features
        .into_iter()
        .map(|(hash, weight)| ExplainedFeature {
            text: None,
            weight,
            hash,
        })
        .collect();
    Explanation::from_rows(width, rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{Options, Weighting};
    use crate::tokenize::Tokenizer;

    #[test]
    fn explain_agrees_with_fingerprint_for_every_option() {
        let texts = [
            "",
            "The quick brown fox jumps over the lazy dog. The dog sleeps.",
            "你妈妈喊你回家吃饭哦,回家罗回家罗",
            "東京タワーは高い。Tokyo Tower is tall 🗼",
        ];
        for width in [3, 8, 64, 100, 128] {
            for tokenizer in [
                Tokenizer::default(),
                Tokenizer::Words { n: 1 },
                Tokenizer::Words { n: 3 },
                Tokenizer::Chars { n: 1 },
                Tokenizer::Chars { n: 4 },
            ] {
                for weighting in [
                    Weighting::TermFrequency,
                    Weighting::LogTermFrequency,
                    Weighting::Binary,
                ] {
                    let options = Options {
                        width,
                        tokenizer,
                        weighting,
                        ..Options::default()
                    };
                    let fp = Fingerprinter::new(options).unwrap();
                    for text in texts {
                        let e = fp.explain(text).unwrap();
                        assert_eq!(e.fingerprint, fp.fingerprint(text), "{options:?} {text}");
                        let total: f64 = e.features.iter().map(|f| f.weight).sum();
                        assert!(e.v.iter().all(|v| v.abs() <= total));
                    }
                }
            }
        }
    }

    #[test]
    fn bad_pre_hashed_input() {
        assert_eq!(
            explain_hashes(0, []),
            Err(Error::WidthOutOfRange { width: 0 })
        );
        assert!(matches!(
            explain_hashes(3, [(8, 1.0)]),
            Err(Error::ValueTooWide { .. })
        ));
        assert!(matches!(
            explain_hashes(3, [(1, f64::NAN)]),
            Err(Error::NonFiniteWeight { weight: _ })
        ));
    }
}
