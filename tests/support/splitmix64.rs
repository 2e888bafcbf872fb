//! splitmix64: a fixed, well-spread sequence of 64-bit values from a seed, without a `rand`
//! dependency. Shared by tests, examples and benchmarks (each includes this file with
//! `#[path]`), which add what else they draw from it in their own `impl` blocks.
#![allow(dead_code)]

pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `next() % n`: uniform enough in `0..n` for the small `n` drawn here.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}
