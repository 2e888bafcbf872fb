//! # simprint
//!
//! SimHash fingerprints (Charikar 2002; Manku, Jain and Das Sarma, WWW 2007) for
//! near-duplicate detection: a `no_std` + `alloc` core that also compiles to WebAssembly for
//! JavaScript.
//!
//! Each feature of a text (a word, a shingle, a character n-gram) with weight `w` gets an
//! `f`-bit hash; `V[i] += w` where bit `i` of the hash is 1 and `V[i] -= w` where it is 0; bit
//! `i` of the fingerprint is 1 iff `V[i] > 0`. Similar texts get fingerprints at a small
//! Hamming distance.
//!
//! ```
//! use simprint::{Fingerprinter, Options};
//! let fp = Fingerprinter::new(Options::default())?;
//! let a = fp.fingerprint("SimHash maps similar documents to similar fingerprints, bit by bit.");
//! let b = fp.fingerprint("SimHash maps similar documents to similar fingerprints bit by bit!");
//! assert_eq!(a.distance(&b)?, 0); // punctuation is not a feature
//! println!("{a} {:.3}", a.compare(&b)?.similarity);
//! # Ok::<(), simprint::Error>(())
//! ```
//!
//! # The API at a glance
//!
//! | to | use |
//! |---|---|
//! | fingerprint a text | [`fingerprint()`], or [`Fingerprinter::new`]`(`[`Options`]`)` and [`Fingerprinter::fingerprint`] (options checked once) |
//! | choose the options | [`Options`]: [`Tokenizer`], [`Normalization`], [`Weighting`], [`Key`], [`Algorithm`] (SimHash or one-bit MinHash) |
//! | a fingerprint's value, hex, distance | [`Fingerprint`]: [`Fingerprint::to_hex`], [`Fingerprint::from_hex`], [`Fingerprint::distance`], [`Fingerprint::compare`] ([`Comparison`]) |
//! | the `k` to use | [`recommended_k`], [`Fingerprinter::recommend`] ([`Tolerance`], [`Recommendation`]), [`k_between`]; for two texts from both their sizes, [`pair_k`] ([`Fingerprinter::feature_count`]; as a table for SQL, [`pair_k_limit`]); in a collection at most [`collection_k`] |
//! | text in chunks | [`Fingerprinter::stream`] ([`Stream`]); with its `k`, [`Fingerprinter::stream_recommending`] |
//! | IDF weights | [`DocumentFrequencies`], [`Fingerprinter::with_document_frequencies`] |
//! | your own features, or hashes | [`Fingerprinter::fingerprint_features`], [`fingerprint_hashes`], [`Accumulator`] |
//! | how each feature pushed each bit | [`Fingerprinter::explain`] ([`Explanation`]) |
//! | which bits one feature more or less could flip | [`Explanation::fragility`] ([`BitFragility`]) |
//! | find everything within `k` | [`Index`]: [`Index::insert`], [`Index::query`], [`Index::pairs`], [`Index::clusters`], [`Index::to_bytes`]; its limits and defaults in [`index`] |
//! | an index's tables and keys | [`Plan`], [`Plan::describe`], [`Plan::probe_keys`], [`Costs`] |
//! | scan a slice of fingerprints | [`scan64`], [`scan128`], [`Scan64`], [`distances64`]; the CPU's kernels, [`kernels`] |
//! | what went wrong | [`Error`] (every fallible function returns it), [`Error::describe`] |
//! | every core, natively (the `parallel` feature, off by default: it brings in `std`) | `Index::pairs_parallel`, `Index::insert_many_parallel`, `Fingerprinter::fingerprint_parallel`: the serial answers, on a given number of threads |
//!
//! Every item is at the crate root, one path each, but for two modules of secondary items:
//! [`index`] (the index's limits and defaults) and [`normalize`] (the text folds on their
//! own). The JavaScript bindings are a crate of their own (`bindings/wasm`) and hold no
//! algorithm. The repository's `docs/` folder has the algorithm, the API side by side with
//! JavaScript's, the index, the evaluation and the measurements.
#![no_std]
// `deny`, not `forbid`: the exceptions are scan::x86_64, which calls the kernels compiled
// for CPU features that detection has established, and byte_classes::sse2, which calls SSE2's
// intrinsics (their module docs say why).
#![deny(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
// Only with the `std` feature (which `parallel` implies): the crate stays `no_std` otherwise.
#[cfg(feature = "std")]
extern crate std;

mod accumulate;
mod algorithm;
mod ascii_words;
mod byte_classes;
mod calibrate;
mod distance;
mod distinct;
mod document_frequencies;
mod edits;
mod error;
mod explain;
mod fingerprint;
mod fingerprinter;
mod fragility;
#[cfg(test)]
mod generated;
mod hash;
mod idf;
pub mod index;
mod minhash;
pub mod normalize;
mod options;
mod pair;
#[cfg(feature = "parallel")]
mod parallel;
mod recommend;
mod scan;
mod sip13;
mod sort;
mod stream;
mod tokenize;

// The items, documented at the crate root: their modules are private, so each has one path
// (rustdoc would otherwise list re-export lines and leave the items to their modules' pages).
#[doc(inline)]
pub use accumulate::{fingerprint_hashes, Accumulator};
#[doc(inline)]
pub use algorithm::Algorithm;
#[doc(inline)]
pub use calibrate::Calibration;
#[doc(inline)]
pub use distance::{hamming, hamming64, Comparison};
#[doc(inline)]
pub use document_frequencies::DocumentFrequencies;
#[doc(inline)]
pub use error::{echo, BytesProblem, Error, HexProblem, KeyProblem, NSetting, PlanProblem, Quoted};
#[doc(inline)]
pub use explain::{explain_hashes, ExplainedFeature, Explanation};
#[doc(inline)]
pub use fingerprint::{check_k, check_width, Fingerprint, MAX_WIDTH};
#[doc(inline)]
pub use fingerprinter::{fingerprint, Fingerprinter};
#[doc(inline)]
pub use fragility::BitFragility;
#[doc(inline)]
pub use hash::{FeatureHasher, Key};
#[doc(inline)]
pub use index::api::{Index, SegmentInfo};
#[doc(inline)]
pub use index::costs::{Costs, Estimate};
#[doc(inline)]
pub use index::describe::TableDescription;
#[doc(inline)]
pub use index::plan::{Block, Plan, PlanKind, TableSpec, MAX_TABLES};
#[doc(inline)]
pub use index::results::{Candidate, Match, Pair, Probe};
#[doc(inline)]
pub use options::{Normalization, Options, Weighting, QUALITY_WIDTH};
#[doc(inline)]
pub use pair::{pair_k, pair_k_limit};
#[doc(inline)]
pub use recommend::{collection_k, k_between, recommended_k, Recommendation, Tolerance};
#[doc(inline)]
pub use scan::{distances64, kernels, scan128, scan64, Hit, Kernels, Scan64};
#[doc(inline)]
pub use stream::Stream;
#[doc(inline)]
pub use tokenize::{Tokenizer, MAX_N};

/// Hooks for the repository's tests and benchmarks, not part of the API: with the
/// `test-hooks` feature only, which the crate's own dev-dependency turns on.
#[cfg(feature = "test-hooks")]
pub mod test_hooks {
    pub use crate::byte_classes::byte_classes_mismatch;
    pub use crate::scan::{bucket64_portable, limit_kernels, scan64_portable};
}

// Runs the README's Rust example as a doctest, so the README cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
