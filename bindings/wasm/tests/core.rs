//! The core inside WebAssembly, run by wasm-bindgen-test-runner under Node (scripts/test.sh):
//! the same golden vectors (fingerprints, index bytes, keys), worked examples and errors as natively.
#![cfg(target_arch = "wasm32")]

#[path = "../../../tests/support/brute.rs"]
mod brute;
#[path = "../../../tests/support/golden.rs"]
mod common;
use brute::{brute_hits as reference, near};

use simprint::{explain_hashes, Error, Fingerprint, Fingerprinter, Options, Tokenizer};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn golden_vectors_in_wasm() {
    let golden = common::golden();
    for (v, hex) in golden.vectors.iter().zip(common::computed()) {
        assert_eq!(v.hex, hex, "golden vector {:?}", v.name);
    }
}

#[wasm_bindgen_test]
fn golden_index_bytes_and_keys_in_wasm() {
    let golden = common::golden();
    for (v, hex) in golden
        .index_bytes
        .vectors
        .iter()
        .zip(common::computed_index_bytes())
    {
        assert_eq!(v.hex, hex, "index bytes {:?}", v.name);
        let read = simprint::Index::from_bytes(&common::bytes_of(&v.hex)).unwrap();
        assert_eq!(common::hex_of(&read.to_bytes()), v.hex, "{:?}", v.name);
    }
    for v in &golden.keys.vectors {
        assert_eq!(&common::keys_of(v), v, "keys vector {:?}", v.name);
    }
}

#[wasm_bindgen_test]
fn worked_examples_in_wasm() {
    let three = [
        (0b101, 1.0),
        (0b011, 2.0),
        (0b100, 0.0),
        (0b001, 3.0),
        (0b110, 0.0),
    ];
    let e = explain_hashes(3, three).unwrap();
    assert_eq!(e.v, [-4.0, -2.0, 6.0]);
    assert_eq!(e.fingerprint.to_binary(), "001");
    let e = explain_hashes(6, [(0b100101, 4.0), (0b101011, 5.0)]).unwrap();
    assert_eq!(e.v, [9.0, -9.0, 1.0, -1.0, 1.0, 9.0]);
    assert_eq!(e.fingerprint.to_binary(), "101011");
}

#[wasm_bindgen_test]
fn errors_in_wasm() {
    let with = |width, tokenizer| {
        Fingerprinter::new(Options {
            width,
            tokenizer,
            ..Options::default()
        })
    };
    assert_eq!(
        with(0, Tokenizer::default()).unwrap_err(),
        Error::WidthOutOfRange { width: 0 }
    );
    assert_eq!(
        with(129, Tokenizer::default()).unwrap_err(),
        Error::WidthOutOfRange { width: 129 }
    );
    assert!(with(64, Tokenizer::Words { n: 0 }).is_err());
    assert!("sentences".parse::<Tokenizer>().is_err());
    assert!(Fingerprint::from_hex("12g4", 64).is_err());
    assert!(Fingerprint::from_hex("1ff", 8).is_err());
    // Still working after the errors.
    assert_eq!(
        with(64, Tokenizer::default())
            .unwrap()
            .fingerprint("")
            .value(),
        0
    );
}

#[wasm_bindgen_test]
fn streaming_in_wasm() {
    let fp = Fingerprinter::new(Options::default()).unwrap();
    let text = "Streaming 指纹 in wasm, split inside characters: 一字不差。 ｶﾞｲﾄﾞ\n".repeat(10);
    for step in [1, 2, 3, 7, 64] {
        let mut s = fp.stream();
        for chunk in text.as_bytes().chunks(step) {
            s.update(chunk);
        }
        assert_eq!(s.finish(), fp.fingerprint(&text), "chunks of {step}");
    }
}

// The index's bucket check has a wasm-only path above k = 6 (chunks of 8, no branch per
// word): over every range of a few arrays, at every k, it must give the reference's hits, also
// where a chunk reads past the range (the next bucket's words) or runs into the array's end.
#[wasm_bindgen_test]
fn bucket_check_matches_the_reference() {
    use simprint::test_hooks::bucket64_portable;
    let q = 0x0123_4567_89ab_cdef_u64;
    for n in [0, 1, 7, 8, 9, 17, 40] {
        let all: Vec<u64> = near(u128::from(q), 64, n, n as u64 + 5)
            .iter()
            .map(|&v| v as u64)
            .collect();
        for start in 0..=n {
            for end in start..=n {
                for k in (0..=12).chain([18, 32, 63, 64, 65]) {
                    let expected =
                        reference(all[start..end].iter().map(|&v| (q ^ v).count_ones()), k);
                    assert_eq!(
                        bucket64_portable(q, &all, start..end, k),
                        expected,
                        "n {n} range {start}..{end} k {k}"
                    );
                }
            }
        }
    }
}

// The wasm is built with SIMD128, so scan64 runs the SIMD kernel here: both it and the portable
// kernel must give exactly the reference's hits (scan128 and distances64 are portable anyway).
#[wasm_bindgen_test]
fn simd_and_portable_scans_match_the_reference() {
    use simprint::test_hooks::scan64_portable;
    let q64 = 0x0123_4567_89ab_cdef_u64;
    let q128 = (u128::from(q64) << 64) | 0xfedc_ba98_7654_3210;
    for n in (0..=40).chain([255, 256, 257, 1000]) {
        let fps64: Vec<u64> = near(u128::from(q64), 64, n, n as u64 + 11)
            .iter()
            .map(|&v| v as u64)
            .collect();
        let fps128 = near(q128, 128, n, n as u64 + 7);
        for k in (0..=10).chain([31, 63, 64, 65, 100, 127, 128, 129, u32::MAX]) {
            let expected = reference(fps64.iter().map(|&v| (q64 ^ v).count_ones()), k);
            assert_eq!(simprint::scan64(q64, &fps64, k), expected, "n {n} k {k}");
            assert_eq!(scan64_portable(q64, &fps64, k), expected, "n {n} k {k}");
            let expected = reference(fps128.iter().map(|&v| (q128 ^ v).count_ones()), k);
            assert_eq!(simprint::scan128(q128, &fps128, k), expected, "n {n} k {k}");
        }
        let expected: Vec<u8> = fps64
            .iter()
            .map(|&v| (q64 ^ v).count_ones() as u8)
            .collect();
        let mut out = Vec::new();
        simprint::distances64(q64, &fps64, &mut out);
        assert_eq!(out, expected, "n {n}");
    }
}

// The byte classes the word scanner and the fold test have SIMD128 kernels in wasm only:
// every byte value at every position of a 16-byte block against their definitions.
#[wasm_bindgen_test]
fn byte_classes_match_their_definitions() {
    assert_eq!(simprint::test_hooks::byte_classes_mismatch(), None);
}
