//! The classes of bytes the passes over a whole text look for, sixteen bytes at a time:
//! word bytes for the ASCII word scanner ([`crate::ascii_words`]), and for the fold
//! ([`crate::normalize`]) capitals, lead bytes of Han and kana, and bytes where a character
//! that may fold starts ([`fold_classes16`]).
//!
//! Both passes read every byte of a text. Eight bytes at a time in a `u64` ([`word_mask8`])
//! a class is a dozen operations and a multiply to gather the bits; sixteen at a time in a
//! vector register it is a compare or two per class and one instruction that gathers the
//! bytes' high bits (SSE2's `pmovmskb`, which every x86-64 CPU has; WebAssembly SIMD128's
//! `i8x16.bitmask`). The vector forms give the same masks as the arithmetic (tests check every
//! byte value at every position); elsewhere (aarch64, wasm without SIMD128) [`word_mask16`] is
//! two [`word_mask8`]s and the fold keeps its eight-byte arithmetic.

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

/// [`word_mask8`] of sixteen bytes, `lo` the first eight: bit `k` set if byte `k` is a word byte.
#[inline(always)]
pub(crate) fn word_mask16(lo: u64, hi: u64) -> u64 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    let mask = simd128::word_mask16(lo, hi);
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    let mask = sse2::word_mask16(lo, hi);
    #[cfg(not(any(
        all(target_arch = "wasm32", target_feature = "simd128"),
        all(target_arch = "x86_64", target_feature = "sse2")
    )))]
    let mask = word_mask8(lo) | word_mask8(hi) << 8;
    mask
}

/// Sixteen bytes as the fold sees them, bit `k` for byte `k` (see `normalize::Block`, their
/// eight-byte form): A–Z (`upper`), lead bytes E3–E9 of Han and kana (`cjk`), and where a
/// character that may fold starts (`stop`: any other lead byte, and a byte 80 followed by
/// another or last in the block, as in U+3000's 80 80).
#[cfg(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "x86_64", target_feature = "sse2")
))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FoldClasses {
    pub(crate) upper: u32,
    pub(crate) cjk: u32,
    pub(crate) stop: u32,
}

/// The raw masks a backend gathers: A–Z, at or above C0 (lead bytes), E3–E9, and equal to 80.
#[cfg(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "x86_64", target_feature = "sse2")
))]
struct RawFoldMasks {
    upper: u32,
    lead: u32,
    cjk: u32,
    is_80: u32,
}

#[cfg(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "x86_64", target_feature = "sse2")
))]
impl RawFoldMasks {
    #[inline(always)]
    fn classes(self) -> FoldClasses {
        let pair = self.is_80 & ((self.is_80 >> 1) | 1 << 15);
        FoldClasses {
            upper: self.upper,
            cjk: self.cjk,
            stop: (self.lead & !self.cjk) | pair,
        }
    }
}

/// [`FoldClasses`] of sixteen bytes, `lo` the first eight.
#[cfg(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "x86_64", target_feature = "sse2")
))]
#[inline(always)]
pub(crate) fn fold_classes16(lo: u64, hi: u64) -> FoldClasses {
    #[cfg(target_arch = "wasm32")]
    let raw = simd128::fold16(lo, hi);
    #[cfg(target_arch = "x86_64")]
    let raw = sse2::fold16(lo, hi);
    raw.classes()
}

/// The high bits of sixteen bytes, bit `k` set if byte `k` is at or above 0x80 (not ASCII).
#[cfg(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "x86_64", target_feature = "sse2")
))]
#[inline(always)]
pub(crate) fn high_bits16(lo: u64, hi: u64) -> u32 {
    #[cfg(target_arch = "wasm32")]
    let bits = simd128::high_bits16(lo, hi);
    #[cfg(target_arch = "x86_64")]
    let bits = sse2::high_bits16(lo, hi);
    bits
}

/// [`high_bits16`] of sixteen bytes, for the wasm tests.
///
/// ```
/// use simprint::test_hooks::high_bits;
/// let [lo, hi] = [*b"ab\xe4\xb8\xadcde", *b"fgh\x80ijkl"].map(u64::from_le_bytes);
/// assert_eq!(high_bits(lo, hi), 0b0000_1000_0001_1100);
/// ```
#[cfg(all(
    feature = "test-hooks",
    any(
        all(target_arch = "wasm32", target_feature = "simd128"),
        all(target_arch = "x86_64", target_feature = "sse2")
    )
))]
#[must_use]
pub fn high_bits(lo: u64, hi: u64) -> u32 {
    high_bits16(lo, hi)
}

/// [`word_mask16`] and two [`word_mask8`]s of the same sixteen bytes, for the wasm tests, which run the
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
    (word_mask16(lo, hi), word_mask8(lo) | word_mask8(hi) << 8)
}

/// [`fold_classes16`] of sixteen bytes as `(upper, cjk, stop)`, for the wasm tests, which run
/// the SIMD128 path no native test reaches.
///
/// ```
/// use simprint::test_hooks::fold_classes;
/// // "Ab" and 中 (E4 B8 AD), a fullwidth Ａ (EF BC A1, a stop), U+3000 (E3 80 80, its
/// // 80 80 a stop) and spaces.
/// let bytes = *b"Ab\xe4\xb8\xad\xef\xbc\xa1\xe3\x80\x80     ";
/// let [lo, hi] = [&bytes[..8], &bytes[8..]].map(|h| u64::from_le_bytes(h.try_into().unwrap()));
/// assert_eq!(fold_classes(lo, hi), (0b1, 0b1_0000_0100, 0b0010_0010_0000));
/// ```
#[cfg(all(
    feature = "test-hooks",
    any(
        all(target_arch = "wasm32", target_feature = "simd128"),
        all(target_arch = "x86_64", target_feature = "sse2")
    )
))]
#[must_use]
pub fn fold_classes(lo: u64, hi: u64) -> (u32, u32, u32) {
    let c = fold_classes16(lo, hi);
    (c.upper, c.cjk, c.stop)
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
                        word_mask16(lo, hi),
                        want,
                        "byte {b:#04x} at {k} among {fill:#04x}"
                    );
                    assert_eq!(
                        word_mask8(lo) | word_mask8(hi) << 8,
                        want,
                        "byte {b:#04x} at {k}"
                    );
                }
            }
        }
    }

    /// The fold's classes by their definition, one byte at a time.
    #[cfg(any(
        all(target_arch = "wasm32", target_feature = "simd128"),
        all(target_arch = "x86_64", target_feature = "sse2")
    ))]
    fn fold_by_bytes(bytes: &[u8; 16]) -> FoldClasses {
        let bits = |f: &dyn Fn(usize) -> bool| (0..16).fold(0u32, |m, i| m | u32::from(f(i)) << i);
        let cjk = bits(&|i| (0xE3..=0xE9).contains(&bytes[i]));
        FoldClasses {
            upper: bits(&|i| bytes[i].is_ascii_uppercase()),
            cjk,
            stop: bits(&|i| {
                (bytes[i] >= 0xC0 && cjk >> i & 1 == 0)
                    || (bytes[i] == 0x80 && (i == 15 || bytes[i + 1] == 0x80))
            }),
        }
    }

    #[cfg(any(
        all(target_arch = "wasm32", target_feature = "simd128"),
        all(target_arch = "x86_64", target_feature = "sse2")
    ))]
    #[test]
    fn fold_classes_of_every_byte_at_every_position() {
        for b in 0..=255u8 {
            for k in 0..16 {
                // Neighbours that are 80 (pairs), leads of both kinds, capitals and spaces.
                for fill in [b' ', b'Q', 0x80, 0xE4, 0xEF] {
                    let mut bytes = [fill; 16];
                    bytes[k] = b;
                    let lo = u64::from_le_bytes(bytes[..8].try_into().unwrap());
                    let hi = u64::from_le_bytes(bytes[8..].try_into().unwrap());
                    assert_eq!(
                        fold_classes16(lo, hi),
                        fold_by_bytes(&bytes),
                        "byte {b:#04x} at {k} among {fill:#04x}"
                    );
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
                word_mask16(lo, hi),
                word_mask8(lo) | word_mask8(hi) << 8,
                "{lo:#x} {hi:#x}"
            );
        }
    }
}
