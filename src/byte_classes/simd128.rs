//! The byte classes' kernels with WebAssembly SIMD128, for wasm built with `+simd128` (the
//! package's build). Only safe intrinsics: the vector is built from the two words with `u64x2`.

use core::arch::wasm32::{
    u64x2, u8x16_bitmask, u8x16_eq, u8x16_lt, u8x16_splat, u8x16_sub, v128, v128_or,
};

/// Byte-wise `lo <= b <= hi`, as `b - lo < hi - lo + 1` unsigned.
#[inline(always)]
fn in_range(x: v128, lo: u8, hi: u8) -> v128 {
    u8x16_lt(u8x16_sub(x, u8x16_splat(lo)), u8x16_splat(hi - lo + 1))
}

#[inline(always)]
pub(super) fn high_bits16(lo: u64, hi: u64) -> u32 {
    u32::from(u8x16_bitmask(u64x2(lo, hi)))
}

#[inline(always)]
pub(super) fn fold16(lo: u64, hi: u64) -> super::RawFoldMasks {
    let x = u64x2(lo, hi);
    let bits = |v: v128| u32::from(u8x16_bitmask(v));
    super::RawFoldMasks {
        upper: bits(in_range(x, b'A', b'Z')),
        lead: bits(in_range(x, 0xC0, 0xFF)),
        cjk: bits(in_range(x, 0xE3, 0xE9)),
        is_80: bits(u8x16_eq(x, u8x16_splat(0x80))),
    }
}

#[inline(always)]
pub(super) fn word_mask16(lo: u64, hi: u64) -> u64 {
    let x = u64x2(lo, hi);
    let letter = in_range(v128_or(x, u8x16_splat(0x20)), b'a', b'z');
    let digit = in_range(x, b'0', b'9');
    let underscore = u8x16_eq(x, u8x16_splat(b'_'));
    // The high bit of every byte: a compare's all-ones lanes, and `x`'s bytes at or above 0x80.
    u64::from(u8x16_bitmask(v128_or(
        v128_or(letter, digit),
        v128_or(underscore, x),
    )))
}
