//! The integer a fingerprint is held in, `u64` up to 64 bits and `u128` above: the index is
//! generic over it, so fingerprints of 64 bits or fewer never pay for 128-bit arithmetic.

use alloc::vec::Vec;

use super::shape::KeyShape;
use crate::error::Error;
use crate::sort;

/// The integer a fingerprint is held in: `u64` for widths up to 64, `u128` above.
pub(crate) trait Bits:
    Copy
    + Eq
    + Ord
    + Default
    + Send
    + Sync
    + core::ops::BitXor<Output = Self>
    + core::fmt::Debug
    + 'static
{
    const BYTES: usize;
    fn from_u128(v: u128) -> Self;
    fn to_u128(self) -> u128;
    fn distance(self, other: Self) -> u32;
    fn xor(self, other: Self) -> Self;
    /// Calls `found(i, distance)` for each `i` (ascending) with `fps[i]` within `k` of `q`:
    /// the scan kernel, so buckets and scans are checked a chunk at a time.
    fn within(q: Self, fps: &[Self], k: u32, found: &mut dyn FnMut(usize, u32));
    /// [`Bits::within`] over `all[range]`, free to read past the range (see
    /// `scan::within32_in`).
    fn within_in(
        q: Self,
        all: &[Self],
        range: core::ops::Range<usize>,
        k: u32,
        found: &mut dyn FnMut(usize, u32),
    );
    /// Calls `found(i, j, distance)` for each `xs[i]`, `ys[j]` within `k` (with `after`, only
    /// `j > i`): the all-pairs join of two buckets (see `scan::cross64`). x86-64 only: in wasm
    /// the join of whole buckets measured twice as slow as one call per row, and 23 KB larger.
    #[cfg(target_arch = "x86_64")]
    fn cross(
        xs: &[Self],
        ys: &[Self],
        after: bool,
        k: u32,
        found: &mut dyn FnMut(usize, usize, u32),
    );
    /// The bucket of `self` in a table of this key shape (the key's top bits).
    fn bucket(self, shape: &KeyShape) -> usize;
    /// The bits of `self` in `mask`, XOR-folded to 32: the popcount of `fold(a) ^ fold(b)` is
    /// at most that of `(a ^ b) & mask`.
    fn fold(self, mask: u128) -> u32;
    /// `entries` (distinct ids) sorted by id.
    fn sort_by_id(entries: Vec<(u64, Self)>) -> Result<Vec<(u64, Self)>, Error>;
}

impl Bits for u64 {
    const BYTES: usize = 8;
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "values of 64 bits or fewer"
    )]
    fn from_u128(v: u128) -> u64 {
        v as u64
    }
    #[inline]
    fn to_u128(self) -> u128 {
        u128::from(self)
    }
    #[inline]
    fn distance(self, other: u64) -> u32 {
        (self ^ other).count_ones()
    }
    #[inline]
    fn xor(self, other: u64) -> u64 {
        self ^ other
    }
    #[inline]
    fn within(q: u64, fps: &[u64], k: u32, found: &mut dyn FnMut(usize, u32)) {
        crate::scan::within64(q, fps, k, found);
    }
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn cross(
        xs: &[u64],
        ys: &[u64],
        after: bool,
        k: u32,
        found: &mut dyn FnMut(usize, usize, u32),
    ) {
        crate::scan::cross64(xs, ys, after, k, found);
    }
    #[inline]
    fn within_in(
        q: u64,
        all: &[u64],
        range: core::ops::Range<usize>,
        k: u32,
        found: &mut dyn FnMut(usize, u32),
    ) {
        crate::scan::within64_in(q, all, range, k, found);
    }
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "masks of blocks within 64 bits; buckets below 2^26"
    )]
    fn bucket(self, shape: &KeyShape) -> usize {
        // Keys of fingerprints up to 64 bits fit a u64: no u128 arithmetic on the hot path.
        let key = shape.parts.iter().fold(0u64, |key, &(shift, mask, len)| {
            // A single 64-bit block is the whole key (and `<< 64` would overflow).
            let key = if len >= 64 { 0 } else { key << len };
            key | ((self >> shift) & mask as u64)
        });
        key.checked_shr(shape.bucket_shift).unwrap_or(0) as usize
    }
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "masks within 64 bits; the fold keeps the low 32 bits on purpose"
    )]
    fn fold(self, mask: u128) -> u32 {
        let x = self & mask as u64;
        (x ^ (x >> 32)) as u32
    }
    fn sort_by_id(mut entries: Vec<(u64, u64)>) -> Result<Vec<(u64, u64)>, Error> {
        // Distinct ids: the pairs sort as by id alone.
        sort::sort(&mut entries);
        Ok(entries)
    }
}

impl Bits for u128 {
    const BYTES: usize = 16;
    #[inline]
    fn from_u128(v: u128) -> u128 {
        v
    }
    #[inline]
    fn to_u128(self) -> u128 {
        self
    }
    #[inline]
    fn distance(self, other: u128) -> u32 {
        (self ^ other).count_ones()
    }
    #[inline]
    fn xor(self, other: u128) -> u128 {
        self ^ other
    }
    #[inline]
    fn within(q: u128, fps: &[u128], k: u32, found: &mut dyn FnMut(usize, u32)) {
        crate::scan::within128(q, fps, k, found);
    }
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn cross(
        xs: &[u128],
        ys: &[u128],
        after: bool,
        k: u32,
        found: &mut dyn FnMut(usize, usize, u32),
    ) {
        for (i, &x) in xs.iter().enumerate() {
            let start = if after { (i + 1).min(ys.len()) } else { 0 };
            crate::scan::within128_in(x, &ys[start..], k, &mut |j, d| found(i, start + j, d));
        }
    }
    #[inline]
    fn within_in(
        q: u128,
        all: &[u128],
        range: core::ops::Range<usize>,
        k: u32,
        found: &mut dyn FnMut(usize, u32),
    ) {
        crate::scan::within128_in(q, &all[range], k, found);
    }
    #[inline]
    fn bucket(self, shape: &KeyShape) -> usize {
        shape.key(self).checked_shr(shape.bucket_shift).unwrap_or(0) as usize
    }
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "the fold keeps the low 32 bits on purpose"
    )]
    fn fold(self, mask: u128) -> u32 {
        let x = self & mask;
        let x = x ^ (x >> 64);
        (x ^ (x >> 32)) as u32
    }
    fn sort_by_id(entries: Vec<(u64, u128)>) -> Result<Vec<(u64, u128)>, Error> {
        // Through (id, position) pairs: no sort of this type's own (see `crate::sort`).
        sort::by_distinct_key(&entries, |e| e.0)
    }
}
