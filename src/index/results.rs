//! What the index answers: matches of a query, pairs, and the candidates a query examined.

/// One stored fingerprint found by a query.
///
/// ```
/// let m = simprint::Match { id: 7, distance: 2 };
/// assert_eq!((m.id, m.distance), (7, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Match {
    /// The id it was stored under.
    pub id: u64,
    /// Its Hamming distance to the query.
    pub distance: u32,
}

/// The bucket of a table a query probed: its own bucket number (the top `bucket_bits` bits
/// of the table's key) with some bits flipped, at most the table's radius of them.
///
/// ```
/// let p = simprint::Probe { bucket: 0b101, bucket_bits: 3, flips: 1 << 60 };
/// assert_eq!(p.flips.count_ones(), 1); // one bit away from the query's own bucket
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Probe {
    /// The bucket number probed.
    pub bucket: u32,
    /// Bits of the table's bucket numbers in its segment (about `log₂` of its size).
    pub bucket_bits: u32,
    /// The fingerprint bits flipped in the query to reach this bucket, as a mask of the value
    /// (`1 << (width − 1 − i)` for bit `i`); 0 for the query's own bucket.
    pub flips: u128,
}

/// A stored fingerprint a query examined: where it was found and whether the distance check
/// accepted it (see [`Index::explain_query`](crate::Index::explain_query)).
///
/// ```
/// let c = simprint::Candidate {
///     id: 3, distance: 5, segment: Some(0), table: Some(2), probe: None, accepted: false,
/// };
/// assert!(!c.accepted);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Candidate {
    /// The id it is stored under.
    pub id: u64,
    /// Its Hamming distance to the query.
    pub distance: u32,
    /// The segment holding it; `None` for the insert buffer, which is scanned.
    pub segment: Option<u32>,
    /// The table (index into the segment plan's tables) whose bucket held it; `None` when it
    /// was scanned (the buffer, a segment planned as a scan, or `k` above the index's `k`).
    pub table: Option<u32>,
    /// The bucket of that table that held it; `None` when it was scanned (or the table's
    /// radius reaches every bucket, so the table was read whole).
    pub probe: Option<Probe>,
    /// True when its distance is within the query's `k`.
    pub accepted: bool,
}

/// Two stored fingerprints within `k` of each other (`a < b`).
///
/// ```
/// let p = simprint::Pair { a: 1, b: 2, distance: 0 };
/// assert!(p.a < p.b);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pair {
    /// The smaller id.
    pub a: u64,
    /// The larger id.
    pub b: u64,
    /// Their Hamming distance.
    pub distance: u32,
}

// Sorting helpers outside the generic engine, so each is compiled once rather than once per
// fingerprint type (it keeps the wasm smaller).
