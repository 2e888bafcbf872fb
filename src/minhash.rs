//! One-bit MinHash by one-permutation hashing: each feature's hash picks one of `width` bins
//! (by its top bits) and competes there to be the least; bit `i` of the fingerprint is the
//! lowest bit of bin `i`'s least hash. A bin no feature reached borrows the least hash of
//! another, found by a probe sequence of its own ("optimal densification", Shrivastava 2017),
//! so two texts whose bins are empty at the same places borrow from the same places.
//!
//! Two texts' bins hold the same least hash with probability about their Jaccard similarity
//! `J`; where they hold different ones, the lowest bits still agree half the time, so each bit
//! differs with probability `(1 − J)/2`. One bit a bin loses some of what a full minimum says
//! (Li and König 2010), and keeps the fingerprint `width` bits compared by Hamming distance,
//! so the index serves it as it serves SimHash.
//!
//! Feeding is one multiply and one compare per occurrence, idempotent (a repeat changes
//! nothing), so a text's set of features is never built.

use alloc::vec;
use alloc::vec::Vec;

use crate::fingerprint::Fingerprint;

/// An empty bin. A feature whose folded hash is exactly this (one in 2^64) is not counted.
const EMPTY: u64 = u64::MAX;

/// Bins holding the least folded hash each has seen.
#[derive(Clone, Debug)]
pub(crate) struct MinSketch {
    mins: Vec<u64>,
}

/// A 64-bit feature hash from a full one: the two halves of a 128-bit hash folded together
/// (the fingerprinter hashes with 64 bits for MinHash, so the high half is zero there).
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "each half taken on purpose, the high one shifted down first"
)]
fn fold(full: u128) -> u64 {
    (full as u64) ^ ((full >> 64) as u64)
}

/// The bin of a folded hash among `bins` (at most 128): its top 32 bits scaled to `0..bins`
/// (a multiply, not a division, and no bias worth a bit for so few bins).
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "below `bins`, at most 128, after the shift"
)]
fn bin_of(hash: u64, bins: usize) -> usize {
    (((hash >> 32) * bins as u64) >> 32) as usize
}

/// A bijective mix of 64 bits (the finalizer of SplitMix64's generator): the probe sequence of
/// an empty bin.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The chance that one bit of two one-bit MinHash fingerprints differs for texts of Jaccard
/// similarity `jaccard`: their bins' least hashes differ with chance `1 − J`, and then their
/// lowest bits with chance ½.
pub(crate) fn flip_probability(jaccard: f64) -> f64 {
    (1.0 - jaccard.clamp(0.0, 1.0)) / 2.0
}

impl MinSketch {
    /// `width` empty bins (`1 ≤ width ≤ 128`, checked by the fingerprinter).
    pub(crate) fn new(width: u32) -> MinSketch {
        MinSketch {
            mins: vec![EMPTY; width as usize],
        }
    }

    /// One occurrence of the feature with full hash `full`.
    #[inline(always)]
    pub(crate) fn add(&mut self, full: u128) {
        let hash = fold(full);
        let bin = bin_of(hash, self.mins.len());
        if hash < self.mins[bin] {
            self.mins[bin] = hash;
        }
    }

    /// The fingerprint: bit `i` (bit 0 the most significant) is the lowest bit of bin `i`'s
    /// least hash, or of the bin it borrows from. No feature at all gives all zeros, as
    /// SimHash's empty text does.
    pub(crate) fn fingerprint(&self) -> Fingerprint {
        let width = self.mins.len();
        let filled = self.mins.iter().filter(|&&m| m != EMPTY).count();
        let mut value = 0u128;
        if filled > 0 {
            for (i, &least) in self.mins.iter().enumerate() {
                let least = if least == EMPTY {
                    self.borrowed(i, filled)
                } else {
                    least
                };
                value |= u128::from(least & 1) << (width - 1 - i);
            }
        }
        // A width of 1 to 128 (the fingerprinter's, checked), each bit set below it.
        Fingerprint::from_parts(
            value,
            u32::try_from(width).unwrap_or(crate::fingerprint::MAX_WIDTH),
        )
    }

    /// The least hash an empty bin takes: that of the first filled bin its probe sequence
    /// meets. Each probe hits a filled bin with chance `filled/width`; after `8·width` misses
    /// (a chance below e^-8 even with one filled bin) the next filled bin to the right is
    /// taken, so the search always ends.
    fn borrowed(&self, bin: usize, filled: usize) -> u64 {
        let width = self.mins.len();
        debug_assert!(filled > 0);
        for attempt in 1..=8 * width as u64 {
            let probe = bin_of(mix(((bin as u64) << 32) | attempt), width);
            if self.mins[probe] != EMPTY {
                return self.mins[probe];
            }
        }
        (1..width)
            .map(|step| self.mins[(bin + step) % width])
            .find(|&m| m != EMPTY)
            .unwrap_or(EMPTY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sketch(width: u32, hashes: impl IntoIterator<Item = u128>) -> Fingerprint {
        let mut s = MinSketch::new(width);
        for h in hashes {
            s.add(h);
        }
        s.fingerprint()
    }

    /// A stand-in for feature hashes: distinct, well spread.
    fn h(i: u64) -> u128 {
        u128::from(mix(i ^ 0x5151))
    }

    #[test]
    fn a_set_not_a_list() {
        let once = sketch(64, (0..50).map(h));
        let twice = sketch(64, (0..50).chain((0..50).rev()).map(h));
        assert_eq!(once, twice);
        assert_eq!(sketch(64, []).value(), 0);
        assert_eq!(sketch(128, []).value(), 0);
    }

    #[test]
    fn every_width_and_a_single_feature() {
        for width in 1..=128 {
            let one = sketch(width, [h(7)]);
            // Every bin borrows the one filled bin: all bits equal its lowest bit.
            let bit = (fold(h(7)) & 1) as u128;
            let all = if width == 128 {
                u128::MAX
            } else {
                (1 << width) - 1
            };
            assert_eq!(one.value(), if bit == 1 { all } else { 0 }, "{width}");
        }
    }

    #[test]
    fn bits_differ_about_as_the_jaccard_similarity_says() {
        // Sets of 1,000 sharing 800: J = 800/1200; each bit differs with chance (1 − J)/2.
        let (mut differ, mut bits) = (0u32, 0u32);
        for trial in 0..40u64 {
            let base = trial * 10_000;
            let a = sketch(128, (base..base + 1000).map(h));
            let b = sketch(128, (base + 200..base + 1200).map(h));
            differ += a.distance(&b).unwrap();
            bits += 128;
        }
        let expect = (1.0 - 800.0 / 1200.0) / 2.0;
        let seen = f64::from(differ) / f64::from(bits);
        assert!((seen - expect).abs() < 0.02, "{seen} against {expect}");
    }

    #[test]
    fn sparse_texts_still_compare() {
        // Five features of 128 bins: most bins borrow, and a copy sharing four of five stays
        // far closer than an unrelated set.
        let a = sketch(128, (0..5).map(h));
        let b = sketch(128, (1..6).map(h));
        let c = sketch(128, (100..105).map(h));
        assert!(a.distance(&b).unwrap() < a.distance(&c).unwrap());
    }
}
