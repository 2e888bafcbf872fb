//! The limits and defaults of the near-duplicate index ([`Index`](crate::Index), which finds
//! every stored fingerprint within Hamming distance `k` of a query, exactly, with the tables
//! of a [`Plan`](crate::Plan)), and its byte format.
//!
//! The index is a log-structured set of immutable segments: new fingerprints go to
//! a small buffer that queries scan; a full buffer becomes a segment with its own tables
//! (planned for its size by [`Plan::auto`](crate::Plan::auto)); segments of similar size are
//! merged, so there are `O(log n)` of them and each fingerprint is rebuilt `O(log n)` times. A
//! bulk [`Index::insert_many`](crate::Index::insert_many) builds one segment directly. Removal
//! marks a slot dead; merges and rebuilds drop dead slots.
//!
//! # The byte format
//!
//! [`Index::to_bytes`](crate::Index::to_bytes) writes an index versioned, little-endian and
//! checksummed:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `b"SIMPIDX\0"` |
//! | 8 | 2 | format version, `1` or `2` |
//! | 10 | 1 | width `f`, 1 to 128 |
//! | 11 | 1 | `k`, 0 to `f` |
//! | 12 | 1 | plan: `0` automatic, `1` explicit permuted blocks, `2` explicit scan; from version 2 also `3` explicit multi-index, `4` explicit combined |
//! | 13 | 1 | blocks (substrings for `3`) of an explicit plan `1`, `3` or `4`, else 0 |
//! | 14 | 1 | blocks per key of a combined plan (`4`), else 0; reserved (0) in version 1 |
//! | 15 | 1 | `1` in version 3 (a names section follows the entries), else 0 |
//! | 16 | 8 | count `n` of entries |
//! | 24 | `n × (8 + w)` | entries by ascending id: id (`u64`), fingerprint (`w` = 8 bytes for `f ≤ 64`, else 16) |
//! | | | version 3 only, the names of named entries ([`Index::insert_named`](crate::Index::insert_named)): count `m` (`u64`, at least 1), then `m` of id (`u64`, ascending, each an entry's, at least [`FIRST_NAMED_ID`]), length `l` (`u32`, at most [`MAX_NAME_BYTES`]), `l` bytes of UTF-8 |
//! | end − 8 | 8 | SipHash-1-3 (key of 16 zero bytes) of every byte before it |
//!
//! A writer uses the oldest version that holds the index: version 1 for an index keyed by
//! numbers whose plan version 1 knows (automatic, permuted blocks, scan), so those files are
//! byte for byte what earlier releases wrote and read; version 2 for explicit multi-index and
//! combined plans; version 3 for an index with named entries, whatever its plan. Readers take
//! all three.
//!
//! Tables are not stored: loading rebuilds them, so a buffer cannot smuggle in a table that
//! disagrees with its fingerprints. Loading checks every field and that the length is exactly
//! what the header says before allocating anything sized by it, and then that the index the
//! buffer describes fits a memory limit: an explicit plan of many tables can make a small
//! buffer describe a large index (253 tables take about 3 KB per fingerprint of 16 bytes), so
//! [`Index::from_bytes`](crate::Index::from_bytes) refuses an index of more than [`default_load_limit`] bytes and
//! [`Index::from_bytes_limited`](crate::Index::from_bytes_limited) takes the limit from the caller.

// The index's types are documented at the crate root (`simprint::Index`, `simprint::Plan`, …);
// this module holds its limits and defaults.
pub(crate) mod api;
mod bits;
pub(crate) mod bytes;
mod clusters;
pub(crate) mod costs;
pub(crate) mod describe;
mod engine;
mod examine;
pub(crate) mod fallible;
mod flips;
mod keys;
mod names;
mod pairs;
#[cfg(feature = "parallel")]
mod parallel;
pub(crate) mod plan;
mod radii;
pub(crate) mod results;
mod segment;
mod shape;
mod table;
mod top_k;

pub use self::bytes::default_load_limit;
pub use self::costs::DEFAULT_PLAN_SIZE;
pub use self::keys::MAX_PROBE_KEYS;
pub use self::names::{FIRST_NAMED_ID, MAX_NAME_BYTES};

/// The `k` an index is built for when its user gives none (the JavaScript `Index` and
/// `Plan`): 12, the largest `k` the pair rule asks at 64 bits ([`crate::pair_k`] of two texts
/// of equal size, under [`crate::Tolerance::DEFAULT`]; sizes that differ ask less), so every
/// pair-rule query, and English prose's [`crate::recommended_k`] (about 11), is answered from
/// the index's tables. Above its `k` a query scans: at a million random fingerprints in wasm a
/// query at 12 took 48 µs built for 12 and 374 µs built for 11 (a scan), for 76 bytes a
/// fingerprint against 65 (docs/index.md). Queries may ask for any other `k`
/// ([`Index::query_within`](crate::Index::query_within)): build the index for the largest `k`
/// you will ask (13 to 16 for the recommended `k` of Chinese and Japanese text).
///
/// ```
/// use simprint::{pair_k, Tolerance};
/// assert_eq!(simprint::index::DEFAULT_K, pair_k(64, 500, 500, Tolerance::DEFAULT)?);
/// # Ok::<(), simprint::Error>(())
/// ```
pub const DEFAULT_K: u32 = 12;

/// The `k` an index of `width`-bit fingerprints is built for when its user gives none: the
/// pair rule's largest at that width, as [`DEFAULT_K`] at 64 (23 at 128); for a width outside 1
/// to 128, which no index takes, [`DEFAULT_K`] scaled to it.
///
/// ```
/// use simprint::index::default_k;
/// assert_eq!([default_k(64), default_k(128)], [12, 23]);
/// assert!(default_k(8) <= 8 && default_k(1) <= 1);
/// ```
#[must_use]
pub fn default_k(width: u32) -> u32 {
    crate::pair::pair_k(width, 1, 1, crate::Tolerance::DEFAULT)
        .unwrap_or_else(|_| crate::recommend::scale(DEFAULT_K, width))
}

/// Most pairs [`Index::pairs`](crate::Index::pairs) and
/// [`Index::pairs_within`](crate::Index::pairs_within) list (4,194,304, about 100 MB of
/// [`Pair`](crate::Pair)s): past it they return
/// [`Error::TooManyPairs`](crate::Error::TooManyPairs) having held no more than this many.
/// [`Index::pairs_limited`](crate::Index::pairs_limited) returns the first pairs of any answer,
/// and [`Index::for_each_pair`](crate::Index::for_each_pair) visits every pair holding none.
pub const MAX_PAIRS: usize = 1 << 22;
