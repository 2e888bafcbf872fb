//! Which bytes of a block of text are word bytes for the ASCII word scanner
//! ([`crate::ascii_words`]): ASCII letters, digits and `_`, and every byte at or above 0x80
//! (a byte of a Latin letter; the scanner's callers hand it no other non-ASCII text).
//!
//! The scanner turns each 64-byte block into a mask of such bytes, so this test runs on every
//! byte of English text. Eight bytes at a time in a `u64` ([`mask8`]) it is a dozen operations
//! and a multiply to gather the bits; sixteen at a time in a vector register ([`mask16`]) it
//! is five compares, four ORs and one instruction that gathers the bytes' high bits (SSE2's
//! `pmovmskb`, which every x86-64 CPU has; WebAssembly SIMD128's `i8x16.bitmask`). Both give
//! the same mask (a test checks every byte value at every position); elsewhere (aarch64,
//! wasm without SIMD128) [`mask16`] is two [`mask8`]s.

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2;

/// `b` in every byte of a `u64`.
const fn splat(b: u8) -> u64 {
    0x0101_0101_0101_0101 * b as u64
}

/// `x` as eight bytes (first byte lowest): bit `k` of the result is set if byte `k` is a word
/// byte (a letter, digit or `_`, or at or above 0x80).
#[inline]
pub(crate) fn mask8(x: u64) -> u64 {
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

/// [`mask8`] of sixteen bytes, `lo` the first eight: bit `k` set if byte `k` is a word byte.
#[inline(always)]
pub(crate) fn mask16(lo: u64, hi: u64) -> u64 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    let mask = simd128::mask16(lo, hi);
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    let mask = sse2::mask16(lo, hi);
    #[cfg(not(any(
        all(target_arch = "wasm32", target_feature = "simd128"),
        all(target_arch = "x86_64", target_feature = "sse2")
    )))]
    let mask = mask8(lo) | mask8(hi) << 8;
    mask
}

/// [`mask16`] and two [`mask8`]s of the same sixteen bytes, for the wasm tests, which run the
/// SIMD128 path no native test reaches.
///
/// ```
/// use simprint::test_hooks::word_byte_masks;
/// let [lo, hi] = [*b"a_9 .\xc3\xa9Z", *b"--x y:01"].map(u64::from_le_bytes);
/// assert_eq!(word_byte_masks(lo, hi), (0b1101_0100_1110_0111, 0b1101_0100_1110_0111));
/// ```
#[cfg(feature = "test-hooks")]
#[must_use]
pub fn word_byte_masks(lo: u64, hi: u64) -> (u64, u64) {
    (mask16(lo, hi), mask8(lo) | mask8(hi) << 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a word byte is, one byte at a time.
    fn is_word_byte(b: u8) -> bool {
        b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
    }

    #[test]
    fn every_byte_at_every_position() {
        for b in 0..=255u8 {
            for k in 0..16 {
                // The byte among neighbours of both kinds, so a carry or a lane mix-up shows.
                for fill in [b' ', b'a', 0xE4] {
                    let mut bytes = [fill; 16];
                    bytes[k] = b;
                    let lo = u64::from_le_bytes(bytes[..8].try_into().unwrap());
                    let hi = u64::from_le_bytes(bytes[8..].try_into().unwrap());
                    let want =
                        (0..16).fold(0u64, |m, i| m | u64::from(is_word_byte(bytes[i])) << i);
                    assert_eq!(
                        mask16(lo, hi),
                        want,
                        "byte {b:#04x} at {k} among {fill:#04x}"
                    );
                    assert_eq!(mask8(lo) | mask8(hi) << 8, want, "byte {b:#04x} at {k}");
                }
            }
        }
    }

    #[test]
    fn random_blocks() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (lo, hi) = (x, x.rotate_left(29) ^ 0x5f5f_3030_4141_8080);
            assert_eq!(
                mask16(lo, hi),
                mask8(lo) | mask8(hi) << 8,
                "{lo:#x} {hi:#x}"
            );
        }
    }
}
