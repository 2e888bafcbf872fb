//! The linear scans against a plain reference: every length around the kernels' 16-wide
//! chunks, every k, both widths, and the portable kernel beside whichever the target uses
//! (bindings/wasm/tests/core.rs runs the same comparison inside wasm, with SIMD128).
#![cfg(not(target_arch = "wasm32"))]

use simprint::test_hooks::scan64_portable;
use simprint::{distances64, scan128, scan64, Hit};

#[path = "support/brute.rs"]
mod brute;
use brute::{brute_hits, near};

fn reference64(q: u64, fps: &[u64], k: u32) -> Vec<Hit> {
    brute_hits(fps.iter().map(|&fp| (q ^ fp).count_ones()), k)
}

fn reference128(q: u128, fps: &[u128], k: u32) -> Vec<Hit> {
    brute_hits(fps.iter().map(|&fp| (q ^ fp).count_ones()), k)
}

#[test]
fn scans_match_the_reference_at_every_length_and_k() {
    let q64 = 0x0123_4567_89ab_cdef_u64;
    let q128 = (u128::from(q64) << 64) | 0xfedc_ba98_7654_3210;
    for n in (0..=70).chain([255, 256, 257, 1000]) {
        let fps128 = near(q128, 128, n, n as u64 + 7);
        let fps64: Vec<u64> = near(u128::from(q64), 64, n, n as u64 + 11)
            .iter()
            .map(|&v| v as u64)
            .collect();
        for k in (0..=10).chain([31, 63, 64, 65, 100, 127, 128, 129, u32::MAX]) {
            assert_eq!(
                scan64(q64, &fps64, k),
                reference64(q64, &fps64, k),
                "n {n} k {k}"
            );
            assert_eq!(scan64_portable(q64, &fps64, k), reference64(q64, &fps64, k));
            assert_eq!(scan128(q128, &fps128, k), reference128(q128, &fps128, k));
        }
        let mut out = Vec::new();
        distances64(q64, &fps64, &mut out);
        let expected: Vec<u8> = fps64
            .iter()
            .map(|&v| (q64 ^ v).count_ones() as u8)
            .collect();
        assert_eq!(out, expected, "n {n}");
    }
}

#[test]
fn large_k_matches_everything_in_order() {
    let fps: Vec<u64> = near(0, 64, 5000, 3).iter().map(|&v| v as u64).collect();
    let hits = scan64(0, &fps, 64);
    assert_eq!(hits.len(), fps.len());
    assert_eq!(hits, reference64(0, &fps, 64));
    assert!(scan64(0, &[], 64).is_empty());
    assert!(scan128(0, &[], 128).is_empty());
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn scan64_is_the_reference(
            q: u64,
            fps in proptest::collection::vec(any::<u64>(), 0..100),
            flips in proptest::collection::vec(any::<u64>(), 0..100),
            k in 0u32..70,
        ) {
            // Half the fingerprints near the query (masks with few bits), half random.
            let fps: Vec<u64> = fps
                .iter()
                .zip(flips.iter().chain(core::iter::repeat(&u64::MAX)))
                .enumerate()
                .map(|(i, (&v, &f))| if i % 2 == 0 { q ^ (v & f & (v >> 7)) } else { v })
                .collect();
            prop_assert_eq!(scan64(q, &fps, k), reference64(q, &fps, k));
            let mut out = Vec::new();
            distances64(q, &fps, &mut out);
            let expected: Vec<u8> = fps.iter().map(|&v| (q ^ v).count_ones() as u8).collect();
            prop_assert_eq!(out, expected);
        }

        #[test]
        fn scan128_is_the_reference(
            q: u128,
            fps in proptest::collection::vec(any::<u128>(), 0..100),
            k in 0u32..140,
        ) {
            let fps: Vec<u128> = fps
                .iter()
                .enumerate()
                .map(|(i, &v)| if i % 2 == 0 { q ^ (v & (v >> 9) & (v >> 17)) } else { v })
                .collect();
            prop_assert_eq!(scan128(q, &fps, k), reference128(q, &fps, k));
        }
    }
}
