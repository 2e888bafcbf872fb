//! The classes of bytes the passes over a whole text look for, sixteen bytes at a time:
//! word bytes for the ASCII word scanner ([`crate::ascii_words`]), and for the fold
//! ([`crate::normalize`]) capitals, lead bytes of Han and kana, and bytes where a character
//! that may fold starts ([`fold_classes16`]), and where ASCII ends ([`high_bits16`]).
//!
//! Both passes read every byte of a text. Eight bytes at a time in a `u64` ([`word_mask8`])
//! a class is a dozen operations and a multiply to gather the bits; sixteen at a time in a
//! vector register it is a compare or two per class and one instruction that gathers the
//! bytes' high bits (SSE2's `pmovmskb`, which every x86-64 CPU has; WebAssembly SIMD128's
//! `i8x16.bitmask`). The kernels are `sse2.rs` and `simd128.rs`; `portable.rs` has the
//! arithmetic and each class byte by byte, their definition, which tests hold every kernel to
//! (every byte value at every position, natively and in wasm). Elsewhere (aarch64, wasm without
//! SIMD128) [`word_mask16`] is two [`word_mask8`]s and the callers keep their eight-byte steps
//! ([`VECTORS`]).

mod portable;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2;

#[cfg(not(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "x86_64", target_feature = "sse2")
)))]
use portable as kernels;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use simd128 as kernels;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use sse2 as kernels;

/// Whether this target tests sixteen bytes at once with vector instructions. Where it does
/// not, [`fold_classes16`] and [`high_bits16`] are the byte-by-byte definitions, slower than
/// the callers' own eight-byte steps, which they keep.
pub(crate) const VECTORS: bool = cfg!(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "x86_64", target_feature = "sse2")
));

pub(crate) use portable::word_mask8;

/// [`word_mask8`] of sixteen bytes, `lo` the first eight: bit `k` set if byte `k` is a word byte.
#[inline(always)]
pub(crate) fn word_mask16(lo: u64, hi: u64) -> u64 {
    kernels::word_mask16(lo, hi)
}

/// Sixteen bytes as the fold sees them, bit `k` for byte `k` (see `normalize::Block`, their
/// eight-byte form): A–Z (`upper`), lead bytes E3–E9 of Han and kana (`cjk`), and where a
/// character that may fold starts (`stop`: any other lead byte, and a byte 80 followed by
/// another or last in the block, as in U+3000's 80 80).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FoldClasses {
    pub(crate) upper: u32,
    pub(crate) cjk: u32,
    pub(crate) stop: u32,
}

/// The raw masks a kernel gathers: A–Z, at or above C0 (lead bytes), E3–E9, and equal to 80.
struct RawFoldMasks {
    upper: u32,
    lead: u32,
    cjk: u32,
    is_80: u32,
}

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
#[inline(always)]
pub(crate) fn fold_classes16(lo: u64, hi: u64) -> FoldClasses {
    kernels::fold16(lo, hi).classes()
}

/// The high bits of sixteen bytes, bit `k` set if byte `k` is at or above 0x80 (not ASCII).
#[inline(always)]
pub(crate) fn high_bits16(lo: u64, hi: u64) -> u32 {
    kernels::high_bits16(lo, hi)
}

/// The first class of sixteen bytes where this target's kernels and the eight-byte arithmetic
/// differ from the definitions, trying every byte value at every position of a block among
/// neighbours of each kind (spaces, letters, 80s that pair, leads of both kinds), so a carry
/// or a lane mix-up shows; `None` when none does. The unit tests run it natively and the
/// wasm tests under SIMD128, whose kernels no native test reaches.
///
/// ```
/// assert_eq!(simprint::test_hooks::byte_classes_mismatch(), None);
/// ```
#[cfg(any(test, feature = "test-hooks"))]
#[must_use]
pub fn byte_classes_mismatch() -> Option<alloc::string::String> {
    for b in 0..=255u8 {
        for k in 0..16 {
            for fill in [b' ', b'Q', b'a', 0x80, 0xE4, 0xEF] {
                let mut bytes = [fill; 16];
                bytes[k] = b;
                let x = u128::from_le_bytes(bytes);
                #[allow(clippy::cast_possible_truncation, reason = "the halves")]
                let (lo, hi) = (x as u64, (x >> 64) as u64);
                let word = portable::word_bytes(lo, hi);
                let fold = portable::fold16(lo, hi).classes();
                let wrong = [
                    (word_mask16(lo, hi) != word, "word bytes"),
                    (
                        word_mask8(lo) | word_mask8(hi) << 8 != word,
                        "word bytes, 8 at a time",
                    ),
                    (fold_classes16(lo, hi) != fold, "the fold's classes"),
                    (
                        high_bits16(lo, hi) != portable::high_bits16(lo, hi),
                        "high bits",
                    ),
                ];
                if let Some((_, class)) = wrong.iter().find(|(w, _)| *w) {
                    return Some(alloc::format!("{class}: {b:#04x} at {k} among {fill:#04x}"));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernels_equal_the_definitions() {
        assert_eq!(byte_classes_mismatch(), None);
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
                portable::word_bytes(lo, hi),
                "{lo:#x} {hi:#x}"
            );
            assert_eq!(fold_classes16(lo, hi), portable::fold16(lo, hi).classes());
        }
    }
}
