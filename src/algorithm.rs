//! Which fingerprint a text's features make: SimHash's signs of weighted sums, or one bit of
//! each of `width` minima (one-bit MinHash). Both are `width` bits compared by Hamming
//! distance, so the index, the scans and `collection_k` serve either.

use crate::error::Error;

/// The kind of fingerprint a [`Fingerprinter`](crate::Fingerprinter) makes of a text's
/// features.
///
/// - **SimHash** (`"simhash"`, the default; Charikar 2002): bit `i` is the sign of the
///   features' weights summed with the sign of bit `i` of each feature's hash. Two texts' bits
///   differ with probability `θ/π`, `θ` the angle between their weighted feature vectors.
/// - **MinHash** (`"minhash"`): one-bit MinHash (b-bit minwise hashing with `b = 1`, Li and
///   König 2010), computed by one-permutation hashing (Li, Owen and Zhang 2012) with a
///   densification after Shrivastava's (2017): the features' hashes are dealt into `width` bins, and bit
///   `i` is one bit of the least hash in bin `i` (an empty bin borrows another's). Two texts'
///   bits differ with probability `(1 − J)/2`, `J` the Jaccard similarity of their sets of
///   features. It takes sets: binary weights only (no `tf`, `logtf` or IDF), and has no
///   per-bit sums to explain. On the evaluation's four corpora it separates near-duplicates
///   from copies edited twice as much better than SimHash of the same width
///   (docs/evaluation.md, "One-bit MinHash").
///
/// ```
/// use simprint::{Algorithm, Fingerprinter, Options};
/// assert_eq!("minhash".parse::<Algorithm>()?, Algorithm::MinHash);
/// assert_eq!(Algorithm::default(), Algorithm::SimHash);
/// let fp = Fingerprinter::new(Options { algorithm: Algorithm::MinHash, ..Options::default() })?;
/// let a = fp.fingerprint("the quick brown fox jumps over the lazy dog by the river bank");
/// let b = fp.fingerprint("the quick brown fox jumped over the lazy dog by the river bank");
/// assert!(a.distance(&b)? < 16);
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// SimHash (`"simhash"`, the default).
    #[default]
    SimHash,
    /// One-bit MinHash by one-permutation hashing (`"minhash"`).
    MinHash,
}

impl Algorithm {
    /// The name it is parsed from (and displayed as).
    ///
    /// ```
    /// assert_eq!(simprint::Algorithm::MinHash.name(), "minhash");
    /// ```
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Algorithm::SimHash => "simhash",
            Algorithm::MinHash => "minhash",
        }
    }
}

impl core::str::FromStr for Algorithm {
    type Err = Error;

    /// The algorithm called `"simhash"` or `"minhash"`.
    ///
    /// ```
    /// assert!("lsh".parse::<simprint::Algorithm>().is_err());
    /// ```
    fn from_str(name: &str) -> Result<Algorithm, Error> {
        match name {
            "simhash" => Ok(Algorithm::SimHash),
            "minhash" => Ok(Algorithm::MinHash),
            other => Err(Error::UnknownAlgorithm {
                name: crate::error::echo(other),
            }),
        }
    }
}

impl core::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn names_round_trip() {
        for a in [Algorithm::SimHash, Algorithm::MinHash] {
            assert_eq!(a.name().parse::<Algorithm>().unwrap(), a);
            assert_eq!(a.to_string(), a.name());
        }
        assert_eq!(
            "MinHash".parse::<Algorithm>().unwrap_err().to_string(),
            "unknown algorithm \"MinHash\": expected \"simhash\" or \"minhash\""
        );
    }
}
