//! One-bit MinHash by one-permutation hashing: each feature's hash picks one of `width` bins
//! (by its top bits) and competes there to be the least; bit `i` of the fingerprint is the
//! lowest bit of bin `i`'s least hash. A bin no feature reached borrows the least hash of
//! another: the first filled bin in an order of the bins its own (after Shrivastava's
//! "optimal densification", 2017), so two texts whose bins are empty at the same places
//! borrow from the same places.
//!
//! An empty bin borrows by an order of the bins of its own (`Order`, an affine permutation),
//! found in at most about `width·√width` cheap steps a text.
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
    /// least hash, or of the bin it borrows from ([`Order`]). No feature at all gives all
    /// zeros, as SimHash's empty text does.
    pub(crate) fn fingerprint(&self) -> Fingerprint {
        let width = self.mins.len();
        // The filled bins, as a mask (two words: a variable shift of a u128 is a call in wasm)
        // and as a list (at most 128 of each).
        let (mut mask, mut list, mut filled) = ([0u64; 2], [0u8; 128], 0usize);
        for (i, &least) in self.mins.iter().enumerate() {
            if least != EMPTY {
                mask[i >> 6] |= 1 << (i & 63);
                list[filled] = u8::try_from(i).unwrap_or(u8::MAX);
                filled += 1;
            }
        }
        // Bit i of the fingerprint is bit `width − 1 − i` of its value, kept in two words.
        let mut value = [0u64; 2];
        if filled > 0 {
            for (i, &least) in self.mins.iter().enumerate() {
                let least = if least == EMPTY {
                    self.mins[Order::of(i, width).first_filled(&mask, &list[..filled], width)]
                } else {
                    least
                };
                let at = width - 1 - i;
                value[at >> 6] |= (least & 1) << (at & 63);
            }
        }
        // A width of 1 to 128 (the fingerprinter's, checked), each bit set below it.
        Fingerprint::from_parts(
            u128::from(value[1]) << 64 | u128::from(value[0]),
            u32::try_from(width).unwrap_or(crate::fingerprint::MAX_WIDTH),
        )
    }
}

/// An empty bin's own order of the bins, in which it takes the first filled one (the bins'
/// "optimal densification" of Shrivastava 2017: each empty bin draws its donor by an order of
/// its own, so two texts whose filled bins mostly agree mostly borrow alike, and different
/// empty bins borrow independently). The order is `x_a = d + a·c` modulo `P`, the power of two
/// at or above the width, for an odd `c` and any `d` drawn from the bin's number, bins past the
/// width skipped: a permutation, so it meets every filled bin. An affine order, not a random
/// sequence, so that the first filled bin can be found two ways with the same answer: by
/// walking the order (about `P/filled` steps) or, when few bins are filled, by the least
/// position among them (`(t − d)·c⁻¹ mod P`, one multiply each); at most about
/// `width·√P` steps a text, where probing a random sequence took `width²` for a text of one
/// feature (30 µs in wasm at 128 bits).
struct Order {
    /// `P − 1`.
    mask: u32,
    d: u32,
    c: u32,
    /// `c⁻¹ mod P`.
    inverse: u32,
}

impl Order {
    #[allow(
        clippy::cast_possible_truncation,
        reason = "a width of at most 128; the low and high halves of a mix taken on purpose"
    )]
    fn of(bin: usize, width: usize) -> Order {
        let mask = (width as u32).next_power_of_two() - 1;
        let r = mix(bin as u64 ^ 0x6d69_6e68_6173_6821);
        let c = (r as u32 | 1) & mask.max(1);
        // Newton's iteration for the inverse of an odd number modulo a power of two: each step
        // doubles the correct low bits, from 3 (c·c ≡ 1 mod 8) to 24, past the 7 of P ≤ 128.
        let mut inverse = c;
        for _ in 0..3 {
            inverse = inverse.wrapping_mul(2u32.wrapping_sub(c.wrapping_mul(inverse)));
        }
        Order {
            mask,
            d: (r >> 32) as u32 & mask,
            c,
            inverse: inverse & mask,
        }
    }

    /// The position of bin `t` in the order.
    fn position(&self, t: u32) -> u32 {
        (t.wrapping_sub(self.d) & self.mask).wrapping_mul(self.inverse) & self.mask
    }

    /// The first bin of the order in `filled` (also given as `mask`, bit `i` for bin `i`; at
    /// least one).
    fn first_filled(&self, mask: &[u64; 2], filled: &[u8], width: usize) -> usize {
        debug_assert!(!filled.is_empty());
        if filled.len() * filled.len() <= self.mask as usize + 1 {
            self.least_position(filled)
        } else {
            self.walk(mask, width)
        }
    }

    /// Few filled bins: the one of least position.
    fn least_position(&self, filled: &[u8]) -> usize {
        let mut best = (u32::MAX, 0usize);
        for &t in filled {
            let at = self.position(u32::from(t));
            if at < best.0 {
                best = (at, usize::from(t));
            }
        }
        best.1
    }

    /// Many: walk the order; a filled bin comes within about `P/filled` steps.
    fn walk(&self, mask: &[u64; 2], width: usize) -> usize {
        let mut x = self.d;
        loop {
            let bin = x as usize;
            if bin < width && mask[bin >> 6] >> (bin & 63) & 1 == 1 {
                return bin;
            }
            x = x.wrapping_add(self.c) & self.mask;
        }
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
    fn both_ways_to_the_first_filled_bin_agree() {
        // Random fill patterns at every width: the least position and the walk find one bin.
        let mut state = 7u64;
        for width in 1..=128usize {
            for _ in 0..20 {
                state = mix(state);
                let keep = state % 8 + 1;
                let (mut mask, mut list) = ([0u64; 2], Vec::new());
                for i in 0..width {
                    if mix(state ^ i as u64).is_multiple_of(keep) {
                        mask[i >> 6] |= 1 << (i & 63);
                        list.push(i as u8);
                    }
                }
                if list.is_empty() {
                    continue;
                }
                for bin in 0..width {
                    let order = Order::of(bin, width);
                    let walked = order.walk(&mask, width);
                    assert_eq!(order.least_position(&list), walked, "{width} {bin}");
                    assert!(mask[walked >> 6] >> (walked & 63) & 1 == 1);
                }
            }
        }
    }

    #[test]
    fn each_order_is_a_permutation() {
        for width in [1usize, 2, 3, 13, 37, 64, 100, 128] {
            for bin in 0..width {
                let order = Order::of(bin, width);
                let p = order.mask as usize + 1;
                let mut seen = vec![false; p];
                for t in 0..p as u32 {
                    let at = order.position(t) as usize;
                    assert!(!seen[at], "{width} {bin}: two bins at {at}");
                    seen[at] = true;
                }
            }
        }
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
