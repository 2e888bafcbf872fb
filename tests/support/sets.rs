//! Fingerprint sets for the index's property tests (tests/index.rs, tests/parallel.rs), which
//! include this file by path beside `splitmix64.rs` (as the module `splitmix64`): values masked
//! to a width, and clustered sets whose large buckets and many pairs stress the tables.
#![allow(dead_code)]

use simprint::Fingerprint;

use super::splitmix64::SplitMix64;

/// The low `width` bits.
pub fn mask(width: u32) -> u128 {
    u128::MAX >> (128 - width)
}

/// `v`'s low `width` bits as a fingerprint of that width.
pub fn fp(v: u128, width: u32) -> Fingerprint {
    Fingerprint::new(v & mask(width), width).unwrap()
}

impl SplitMix64 {
    /// 128 random bits.
    pub fn wide(&mut self) -> u128 {
        (u128::from(self.next()) << 64) | u128::from(self.next())
    }

    /// `v` with `flips` random bits of the low `width` flipped (possibly the same bit twice).
    pub fn perturb(&mut self, v: u128, flips: u32, width: u32) -> u128 {
        (0..flips).fold(v, |v, _| v ^ (1u128 << self.below(u64::from(width))))
    }
}

/// A clustered set: a few centres, each with many near neighbours and exact duplicates.
pub fn clustered(rng: &mut SplitMix64, width: u32, n: usize) -> Vec<u128> {
    let centres: Vec<u128> = (0..1 + n / 40).map(|_| rng.wide() & mask(width)).collect();
    (0..n)
        .map(|_| {
            let c = centres[rng.below(centres.len() as u64) as usize];
            let flips = rng.below(7) as u32; // 0 gives exact duplicates
            rng.perturb(c, flips, width)
        })
        .collect()
}

/// `n` random values of `width` bits.
pub fn random(rng: &mut SplitMix64, width: u32, n: usize) -> Vec<u128> {
    (0..n).map(|_| rng.wide() & mask(width)).collect()
}
