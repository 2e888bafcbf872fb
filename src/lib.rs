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
//! | choose the options | [`Options`]: [`Tokenizer`], [`Normalization`], [`Weighting`], [`Key`] |
//! | a fingerprint's value, hex, distance | [`Fingerprint`]: [`Fingerprint::to_hex`], [`Fingerprint::from_hex`], [`Fingerprint::distance`], [`Fingerprint::compare`] ([`Comparison`]) |
//! | the `k` to use | [`recommended_k`], [`Fingerprinter::recommend`] ([`Tolerance`], [`Recommendation`]); in a collection at most [`recommend::collection_k`] |
//! | text in chunks | [`Fingerprinter::stream`] ([`Stream`]); with its `k`, [`Fingerprinter::stream_recommending`] |
//! | IDF weights | [`DocumentFrequencies`], [`Fingerprinter::with_document_frequencies`] |
//! | your own features, or hashes | [`Fingerprinter::fingerprint_features`], [`fingerprint_hashes`], [`Accumulator`] |
//! | how each feature pushed each bit | [`Fingerprinter::explain`] ([`Explanation`]) |
//! | find everything within `k` | [`Index`]: [`Index::insert`], [`Index::query`], [`Index::pairs`], [`Index::clusters`], [`Index::to_bytes`] |
//! | an index's tables and keys | [`Plan`], [`Plan::probe_keys`] |
//! | scan a slice of fingerprints | [`scan64`], [`scan128`], [`Scan64`], [`distances64`] |
//! | what went wrong | [`Error`] (every fallible function returns it) |
//!
//! The main items are documented here at the crate root, where they are best imported from;
//! their modules hold the rest of each concept.
//!
//! Modules, one concept each, in the order a text goes through them: [`options`] (what decides
//! a fingerprint), [`normalize`] (width and case folding), [`tokenize`] (features of a text),
//! [`hash`] (keyed feature hashing), [`accumulate`] (`V` and its signs), [`fingerprinter`]
//! (all of it, options checked once), [`stream`] (text in chunks), [`explain`] (how each
//! feature pushed each bit), [`recommend`] (the `k` to use); then [`mod@fingerprint`] (the
//! value, hex), [`distance`] (Hamming distance and the estimates it gives), [`scan`] (linear
//! scans), [`index`] (exact lookup within `k`: its [planner](index::plan) and
//! [byte format](index::bytes)), and [`error`]. The JavaScript bindings are a crate of their
//! own (`bindings/wasm`) and hold no algorithm. The repository's `docs/` folder has the
//! algorithm, the API side by side with JavaScript's, the index, the evaluation and the
//! measurements.
#![no_std]
// `deny`, not `forbid`: the one exception is scan::x86_64, which calls the kernels compiled
// for CPU features that detection has established (its module docs say why).
#![deny(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

pub mod accumulate;
mod ascii_words;
pub mod distance;
mod distinct;
mod document_frequencies;
mod edits;
pub mod error;
pub mod explain;
pub mod fingerprint;
pub mod fingerprinter;
pub mod hash;
mod idf;
pub mod index;
pub mod normalize;
pub mod options;
pub mod recommend;
pub mod scan;
mod sip13;
mod sort;
pub mod stream;
pub mod tokenize;

// The main items, documented at the crate root (rustdoc otherwise lists only re-export lines
// and leaves them to their modules' pages).
#[doc(inline)]
pub use accumulate::{fingerprint_hashes, Accumulator};
#[doc(inline)]
pub use distance::{hamming, hamming64, Comparison};
#[doc(inline)]
pub use document_frequencies::DocumentFrequencies;
#[doc(inline)]
pub use error::Error;
#[doc(inline)]
pub use explain::{explain_hashes, ExplainedFeature, Explanation};
#[doc(inline)]
pub use fingerprint::{check_k, check_width, Fingerprint, MAX_WIDTH};
#[doc(inline)]
pub use fingerprinter::{fingerprint, Fingerprinter};
#[doc(inline)]
pub use hash::{FeatureHasher, Key};
#[doc(inline)]
pub use index::costs::Costs;
#[doc(inline)]
pub use index::costs::Estimate;
#[doc(inline)]
pub use index::describe::TableDescription;
#[doc(inline)]
pub use index::plan::{Block, Plan, PlanKind, TableSpec, MAX_TABLES};
#[doc(inline)]
pub use index::{Candidate, Index, Match, Pair, Probe, SegmentInfo};
#[doc(inline)]
pub use options::{Normalization, Options, Weighting};
#[doc(inline)]
pub use recommend::{recommended_k, Recommendation, Tolerance};
#[doc(inline)]
pub use scan::{distances64, scan128, scan64, Hit, Scan64};
#[doc(inline)]
pub use stream::Stream;
#[doc(inline)]
pub use tokenize::{Tokenizer, MAX_N};

// Runs the README's Rust example as a doctest, so the README cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
