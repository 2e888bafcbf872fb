//! The scan kernels in explicit WebAssembly SIMD128, for wasm built with `+simd128`: two
//! 64-bit fingerprints per `v128`, the same chunk-then-recheck shape as [`super::portable`].
//!
//! Only safe intrinsics: vectors are built with `u64x2` from slice elements (LLVM merges the
//! two adjacent reads into one `v128.load`) and read back with `u64x2_extract_lane`.

use core::arch::wasm32::*;

use super::portable;

/// Fingerprints tested together before one branch (four `v128`).
const CHUNK: usize = 8;

#[inline(always)]
fn pair(fps: &[u64], i: usize) -> v128 {
    u64x2(fps[i], fps[i + 1])
}

/// Per 64-bit lane: all ones iff the lane has at most `K` bits set (`K` times `x &= x - 1`).
#[inline(always)]
fn at_most<const K: u32>(x: v128) -> v128 {
    let mut x = x;
    for _ in 0..K {
        x = v128_and(x, i64x2_sub(x, u64x2_splat(1)));
    }
    i64x2_eq(x, u64x2_splat(0))
}

/// Nonzero iff one of the four pairs of lanes has at most `K` bits set.
#[inline(always)]
fn any_at_most<const K: u32>(x: [v128; 4]) -> v128 {
    v128_or(
        v128_or(at_most::<K>(x[0]), at_most::<K>(x[1])),
        v128_or(at_most::<K>(x[2]), at_most::<K>(x[3])),
    )
}

/// The popcounts of four 64-bit lanes (`a`'s two, then `b`'s) as `u32x4`.
#[inline(always)]
fn popcounts4(a: v128, b: v128) -> v128 {
    // Bytes to 16-bit to 32-bit sums leave two halves per fingerprint; add the halves.
    let a = u32x4_extadd_pairwise_u16x8(u16x8_extadd_pairwise_u8x16(i8x16_popcnt(a)));
    let b = u32x4_extadd_pairwise_u16x8(u16x8_extadd_pairwise_u8x16(i8x16_popcnt(b)));
    i32x4_add(
        i32x4_shuffle::<0, 2, 4, 6>(a, b),
        i32x4_shuffle::<1, 3, 5, 6>(a, b),
    )
}

/// Calls `found(i, distance)` for every `i` (ascending) with `(fps[i] ^ q).count_ones() <= k`.
#[inline]
pub(crate) fn within64(q: u64, fps: &[u64], k: u32, found: &mut impl FnMut(usize, u32)) {
    match k {
        0 => chunked64(q, fps, k, found, any_at_most::<0>),
        1 => chunked64(q, fps, k, found, any_at_most::<1>),
        2 => chunked64(q, fps, k, found, any_at_most::<2>),
        3 => chunked64(q, fps, k, found, any_at_most::<3>),
        4 => chunked64(q, fps, k, found, any_at_most::<4>),
        _ if k < 64 => {
            let kv = u32x4_splat(k);
            chunked64(q, fps, k, found, |x| {
                v128_or(
                    u32x4_le(popcounts4(x[0], x[1]), kv),
                    u32x4_le(popcounts4(x[2], x[3]), kv),
                )
            })
        }
        // Everything is within 64 bits: no test to vectorize.
        _ => portable::within64(q, fps, k, found),
    }
}

/// Tests [`CHUNK`] fingerprints at a time with `any` (nonzero iff one of them is within `k`),
/// re-checking a chunk one by one only when it says so.
#[inline(always)]
fn chunked64(
    q: u64,
    fps: &[u64],
    k: u32,
    found: &mut impl FnMut(usize, u32),
    any: impl Fn([v128; 4]) -> v128,
) {
    let qv = u64x2_splat(q);
    let whole = fps.len() / CHUNK * CHUNK;
    let mut base = 0;
    while base < whole {
        let x = [0, 2, 4, 6].map(|j| v128_xor(pair(fps, base + j), qv));
        if v128_any_true(any(x)) {
            exact64(q, &fps[base..base + CHUNK], k, base, found);
        }
        base += CHUNK;
    }
    exact64(q, &fps[whole..], k, whole, found);
}

#[inline(always)]
fn exact64(q: u64, fps: &[u64], k: u32, base: usize, found: &mut impl FnMut(usize, u32)) {
    for (i, &fp) in fps.iter().enumerate() {
        let d = (fp ^ q).count_ones();
        if d <= k {
            found(base + i, d);
        }
    }
}

/// [`within64`] for 128-bit fingerprints: one `v128` each.
#[inline]
pub(crate) fn within128(q: u128, fps: &[u128], k: u32, found: &mut impl FnMut(usize, u32)) {
    if k >= 128 {
        return portable::within128(q, fps, k, found);
    }
    let qv = u64x2(q as u64, (q >> 64) as u64);
    let kv = u32x4_splat(k);
    let one = |v: u128| v128_xor(u64x2(v as u64, (v >> 64) as u64), qv);
    let whole = fps.len() / 4 * 4;
    let mut base = 0;
    while base < whole {
        // Four fingerprints: the halves' popcounts, then each pair of halves added.
        let a = popcounts4(one(fps[base]), one(fps[base + 1]));
        let b = popcounts4(one(fps[base + 2]), one(fps[base + 3]));
        let d = i32x4_add(
            i32x4_shuffle::<0, 2, 4, 6>(a, b),
            i32x4_shuffle::<1, 3, 5, 7>(a, b),
        );
        if v128_any_true(u32x4_le(d, kv)) {
            for i in 0..4 {
                let dist = u32x4_extract_lane_dyn(d, i);
                if dist <= k {
                    found(base + i, dist);
                }
            }
        }
        base += 4;
    }
    portable::within128(q, &fps[whole..], k, &mut |i, d| found(whole + i, d));
}

/// Lane `i` (0 to 3) of a `u32x4`.
#[inline(always)]
fn u32x4_extract_lane_dyn(v: v128, i: usize) -> u32 {
    match i {
        0 => u32x4_extract_lane::<0>(v),
        1 => u32x4_extract_lane::<1>(v),
        2 => u32x4_extract_lane::<2>(v),
        _ => u32x4_extract_lane::<3>(v),
    }
}

/// `out[i] = (fps[i] ^ q).count_ones()`; `out` is exactly as long as `fps`.
#[inline]
pub(crate) fn distances64(q: u64, fps: &[u64], out: &mut [u8]) {
    debug_assert_eq!(fps.len(), out.len());
    let qv = u64x2_splat(q);
    let whole = fps.len() / 16 * 16;
    let mut base = 0;
    while base < whole {
        let x = |j: usize| v128_xor(pair(fps, base + j), qv);
        // Sixteen distances as u32x4, narrowed to one u8x16.
        let d0 = popcounts4(x(0), x(2));
        let d1 = popcounts4(x(4), x(6));
        let d2 = popcounts4(x(8), x(10));
        let d3 = popcounts4(x(12), x(14));
        let bytes = u8x16_narrow_i16x8(i16x8_narrow_i32x4(d0, d1), i16x8_narrow_i32x4(d2, d3));
        out[base..base + 8].copy_from_slice(&u64x2_extract_lane::<0>(bytes).to_le_bytes());
        out[base + 8..base + 16].copy_from_slice(&u64x2_extract_lane::<1>(bytes).to_le_bytes());
        base += 16;
    }
    portable::distances64(q, &fps[whole..], &mut out[whole..]);
}
