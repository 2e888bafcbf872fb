//! Linear scans: one fingerprint against many, the small-`n` path and the index's reference.

use alloc::vec::Vec;

/// A fingerprint found by a scan: its position in the scanned slice and its distance.
///
/// ```
/// let hits = simprint::scan64(0, &[0b1, 0xff, 0b11], 2);
/// assert_eq!(hits, [simprint::Hit { index: 0, distance: 1 }, simprint::Hit { index: 2, distance: 2 }]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hit {
    /// Position in the scanned slice.
    pub index: usize,
    /// Hamming distance to the query.
    pub distance: u32,
}

/// Every position `i` with `hamming(query, fps[i]) <= k`, sorted by distance, then position.
///
/// ```
/// let hits = simprint::scan64(0b1010, &[0b1010, 0b0000, 0b1011], 1);
/// assert_eq!(hits.iter().map(|h| h.index).collect::<Vec<_>>(), [0, 2]);
/// ```
pub fn scan64(query: u64, fps: &[u64], k: u32) -> Vec<Hit> {
    scan_by(fps, k, |&fp| (fp ^ query).count_ones())
}

/// [`scan64`] for fingerprints wider than 64 bits.
///
/// ```
/// let hits = simprint::scan128(1 << 100, &[0, 1 << 100], 0);
/// assert_eq!(hits, [simprint::Hit { index: 1, distance: 0 }]);
/// ```
pub fn scan128(query: u128, fps: &[u128], k: u32) -> Vec<Hit> {
    scan_by(fps, k, |&fp| (fp ^ query).count_ones())
}

fn scan_by<T>(fps: &[T], k: u32, distance: impl Fn(&T) -> u32) -> Vec<Hit> {
    let mut hits: Vec<Hit> = fps
        .iter()
        .enumerate()
        .filter_map(|(index, fp)| {
            let distance = distance(fp);
            (distance <= k).then_some(Hit { index, distance })
        })
        .collect();
    hits.sort_unstable_by_key(|h| (h.distance, h.index));
    hits
}

/// The distance from `query` to every fingerprint of `fps`, in order, into `out` (cleared
/// first). One byte each: distances are at most 64.
///
/// ```
/// let mut out = Vec::new();
/// simprint::distances64(0, &[0, 1, u64::MAX], &mut out);
/// assert_eq!(out, [0, 1, 64]);
/// ```
pub fn distances64(query: u64, fps: &[u64], out: &mut Vec<u8>) {
    out.clear();
    out.extend(fps.iter().map(|&fp| (fp ^ query).count_ones() as u8));
}
