//! The byte classes' kernels with SSE2, part of every x86-64 CPU (the crate's baseline).
//!
//! The second of the crate's two modules with `unsafe` (the other is `scan::x86_64`): SSE2's
//! intrinsics are `#[target_feature(enable = "sse2")]` functions, which only functions with
//! that attribute may call without `unsafe`, even where the build enables SSE2 everywhere.
#![allow(unsafe_code)]
// The intrinsics take and give bytes and masks as signed integers.
#![allow(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "bit patterns"
)]

use core::arch::x86_64::{
    __m128i, _mm_add_epi8, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_movemask_epi8, _mm_or_si128,
    _mm_set1_epi8, _mm_set_epi64x,
};

#[inline(always)]
pub(super) fn high_bits16(lo: u64, hi: u64) -> u32 {
    // SAFETY: as in `word_mask16`.
    unsafe { high_bits_kernel(lo, hi) }
}

#[inline(always)]
pub(super) fn fold16(lo: u64, hi: u64) -> super::RawFoldMasks {
    // SAFETY: as in `word_mask16`.
    unsafe { fold_kernel(lo, hi) }
}

#[inline(always)]
pub(super) fn word_mask16(lo: u64, hi: u64) -> u64 {
    // SAFETY: SSE2 is enabled at build time (this module is only compiled with
    // `target_feature = "sse2"`), so every CPU the binary runs on has it.
    unsafe { word_kernel(lo, hi) }
}

/// Byte-wise `lo <= b <= hi` as `b - lo < hi - lo + 1` unsigned, done as a signed compare
/// after moving both sides down by 128 (SSE2 compares bytes signed only).
#[inline]
#[target_feature(enable = "sse2")]
fn in_range(x: __m128i, lo: u8, hi: u8) -> __m128i {
    let shifted = _mm_add_epi8(x, _mm_set1_epi8(0x80u8.wrapping_sub(lo) as i8));
    _mm_cmplt_epi8(shifted, _mm_set1_epi8((0x80 + (hi - lo) + 1) as i8))
}

#[inline]
#[target_feature(enable = "sse2")]
fn high_bits_kernel(lo: u64, hi: u64) -> u32 {
    _mm_movemask_epi8(_mm_set_epi64x(hi as i64, lo as i64)) as u32
}

#[inline]
#[target_feature(enable = "sse2")]
fn fold_kernel(lo: u64, hi: u64) -> super::RawFoldMasks {
    let x = _mm_set_epi64x(hi as i64, lo as i64);
    let bits = |v: __m128i| _mm_movemask_epi8(v) as u32;
    super::RawFoldMasks {
        upper: bits(in_range(x, b'A', b'Z')),
        lead: bits(in_range(x, 0xC0, 0xFF)),
        cjk: bits(in_range(x, 0xE3, 0xE9)),
        is_80: bits(_mm_cmpeq_epi8(x, _mm_set1_epi8(0x80u8 as i8))),
    }
}

#[inline]
#[target_feature(enable = "sse2")]
fn word_kernel(lo: u64, hi: u64) -> u64 {
    let x = _mm_set_epi64x(hi as i64, lo as i64);
    let letter = in_range(_mm_or_si128(x, _mm_set1_epi8(0x20)), b'a', b'z');
    let digit = in_range(x, b'0', b'9');
    let underscore = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'_' as i8));
    // The high bit of every byte: a compare's all-ones lanes, and `x`'s bytes at or above 0x80.
    let word = _mm_or_si128(_mm_or_si128(letter, digit), _mm_or_si128(underscore, x));
    _mm_movemask_epi8(word) as u64
}
