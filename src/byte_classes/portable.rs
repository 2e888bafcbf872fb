//! The byte classes without vector instructions: the word mask as arithmetic on a `u64` (what
//! aarch64 and wasm without SIMD128 run), and every class byte by byte, their definitions,
//! which the tests hold the vector kernels to (and which stand in for them where there are
//! none: callers then keep their eight-byte steps, see [`super::VECTORS`]).
// On targets with vector kernels only the tests and `word_mask8` use this module.
#![allow(
    dead_code,
    reason = "the kernels of targets without vectors, the tests' definitions"
)]

/// `b` in every byte of a `u64`.
const fn splat(b: u8) -> u64 {
    0x0101_0101_0101_0101 * b as u64
}

/// `x` as eight bytes (first byte lowest): bit `k` of the result is set if byte `k` is a word
/// byte (a letter, digit or `_`, or at or above 0x80).
#[inline]
pub(crate) fn word_mask8(x: u64) -> u64 {
    // Bytes at or above 0x80 keep their high bit, which marks them below.
    let bytes = x;
    // The ASCII tests run on the low seven bits: byte-wise `b >= c` into each byte's high bit,
    // b + (0x80 - c) stays below 0x100 as every byte is then below 0x80, so no carry crosses
    // into the next byte.
    let x = x & splat(0x7F);
    let at_least = |v: u64, c: u8| v + splat(0x80 - c);
    let lower = x | splat(0x20);
    // `b >= lo` and not `b > hi`: hi's test implies lo's, so xor keeps exactly the range.
    let letter = at_least(lower, b'a') ^ at_least(lower, b'z' + 1);
    let digit = at_least(x, b'0') ^ at_least(x, b'9' + 1);
    // Zero bytes of x ^ '_' are the underscores: adding 0x7f sets the high bit of all others.
    let underscore = !((x ^ splat(b'_')).wrapping_add(splat(0x7f)));
    let high = (letter | digit | underscore | bytes) & splat(0x80);
    // Gather the eight high bits (bits 8k + 7) into the top byte (bit 56 + k): each product
    // term lands on its own bit, so nothing carries, and the top byte holds just them.
    high.wrapping_mul(0x0002_0408_1020_4081) >> 56
}

#[inline]
pub(super) fn word_mask16(lo: u64, hi: u64) -> u64 {
    word_mask8(lo) | word_mask8(hi) << 8
}

/// Bit `k` set where `test` holds for byte `k` of the sixteen bytes `lo`, `hi`.
fn bits(lo: u64, hi: u64, test: impl Fn(u8) -> bool) -> u32 {
    let bytes = ((u128::from(hi) << 64) | u128::from(lo)).to_le_bytes();
    (0..16).fold(0, |m, k| m | u32::from(test(bytes[k])) << k)
}

/// Word bytes, by definition.
pub(super) fn word_bytes(lo: u64, hi: u64) -> u64 {
    u64::from(bits(lo, hi, |b| {
        b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
    }))
}

pub(super) fn high_bits16(lo: u64, hi: u64) -> u32 {
    bits(lo, hi, |b| b >= 0x80)
}

pub(super) fn fold16(lo: u64, hi: u64) -> super::RawFoldMasks {
    super::RawFoldMasks {
        upper: bits(lo, hi, |b| b.is_ascii_uppercase()),
        lead: bits(lo, hi, |b| b >= 0xC0),
        cjk: bits(lo, hi, |b| (0xE3..=0xE9).contains(&b)),
        is_80: bits(lo, hi, |b| b == 0x80),
    }
}
