//! The text pipeline on arbitrary text and options: nothing panics, bad options are errors,
//! and every way of computing a fingerprint agrees with `Fingerprinter::fingerprint`:
//! `explain` (its fingerprint, `V` and rows), the rows fed back through `fingerprint_features`,
//! other widths (narrower fingerprints are the top bits of wider ones), IDF weights, hex. With
//! a trailing byte that reads `true`, one-bit MinHash instead: the set of features (the
//! explanation of the same text under SimHash's options) fed back through
//! `fingerprint_features`, the count, and what MinHash refuses.

use arbitrary::{Arbitrary, Unstructured};
use simprint::{
    Algorithm, DocumentFrequencies, Error, Fingerprint, Fingerprinter, Options, Weighting,
};

use crate::{text_from, FuzzOptions};

pub fn check(data: &[u8]) {
    if let Some((o, bytes, with_idf)) = decode(data) {
        run(
            o.options,
            o.valid,
            &String::from_utf8_lossy(&bytes),
            with_idf,
        );
    }
}

/// The options, text bytes and IDF choice an input describes.
pub fn decode(data: &[u8]) -> Option<(FuzzOptions, Vec<u8>, bool)> {
    let mut u = Unstructured::new(data);
    let o = FuzzOptions::arbitrary(&mut u).ok()?;
    let bytes = text_from(&mut u).ok()?;
    let with_idf = bool::arbitrary(&mut u).unwrap_or(false);
    // Read last, so that inputs saved before MinHash existed decode as they did.
    let min_hash = bool::arbitrary(&mut u).unwrap_or(false);
    let o = if min_hash {
        FuzzOptions {
            options: Options {
                algorithm: Algorithm::MinHash,
                ..o.options
            },
            valid: o.valid && o.options.weighting == Weighting::Binary,
        }
    } else {
        o
    };
    Some((o, bytes, with_idf))
}

/// The properties for one text under `options`; public for the regression tests.
pub fn run(options: Options, valid: bool, text: &str, with_idf: bool) {
    let fp = match Fingerprinter::new(options) {
        Ok(fp) => {
            assert!(valid, "accepted invalid options {options:?}");
            fp
        }
        Err(e) => {
            assert!(!valid, "refused valid options {options:?}: {e}");
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let width = options.width;
    let got = fp.fingerprint(text);
    assert_eq!(got.width(), width);
    assert!(
        width == 128 || got.value() >> width == 0,
        "bits above the width"
    );

    if options.algorithm == Algorithm::MinHash {
        min_hash(&fp, options, text, got, with_idf);
        return;
    }

    // explain() gives the same fingerprint, V of the width, bit i set iff V[i] > 0.
    let e = fp.explain(text).expect("SimHash explains");
    assert_eq!(
        e.fingerprint, got,
        "explain disagrees: {options:?} {text:?}"
    );
    assert_eq!(e.v.len(), width as usize);
    for (i, v) in e.v.iter().enumerate() {
        assert!(v.is_finite());
        assert_eq!(got.bit(i as u32), *v > 0.0, "bit {i} against V = {v}");
    }
    let mut seen = std::collections::HashSet::new();
    for row in &e.features {
        let feature = row.text.as_deref().expect("text features have text");
        assert!(seen.insert(feature), "feature {feature:?} listed twice");
        assert_eq!(
            row.hash,
            fp.hasher().hash_str(feature),
            "row hash of {feature:?}"
        );
        assert!(row.weight.is_finite() && row.weight > 0.0);
    }
    // The rows as caller-supplied features: the same fingerprint. Integral weights are summed
    // exactly; logtf sums floats in another order, so it is left out.
    if options.weighting != Weighting::LogTermFrequency {
        let rows = e
            .features
            .iter()
            .map(|r| (r.text.clone().unwrap_or_default(), r.weight));
        assert_eq!(
            fp.fingerprint_features(rows).ok(),
            Some(got),
            "rows disagree"
        );
    }
    if options.weighting == Weighting::Binary {
        assert!(e.features.iter().all(|r| r.weight == 1.0));
    }

    // The same text at 64 (or 128) bits: this fingerprint is its top `width` bits.
    let full_width = if width <= 64 { 64 } else { 128 };
    if full_width != width {
        let full = Fingerprinter::new(Options {
            width: full_width,
            ..options
        })
        .expect("valid")
        .fingerprint(text);
        assert_eq!(
            full.value() >> (full_width - width),
            got.value(),
            "not a prefix of the {full_width}-bit fingerprint"
        );
    }

    // Hex round trip and the recommended k.
    assert_eq!(Fingerprint::from_hex(&got.to_hex(), width), Ok(got));
    assert!(simprint::recommended_k(text, width) <= width);

    if with_idf {
        let mut df = DocumentFrequencies::new(options).expect("valid options");
        df.add(text);
        df.add("a second document");
        let idf = fp
            .clone()
            .with_document_frequencies(&df)
            .expect("same options");
        let fi = idf.fingerprint(text);
        assert_eq!(
            idf.explain(text).expect("SimHash explains").fingerprint,
            fi,
            "IDF explain disagrees"
        );
    }
}

/// One-bit MinHash: the fingerprint of the text's set of features, however they are given;
/// the count; its `k` within the width; and what a set of features has not.
fn min_hash(fp: &Fingerprinter, options: Options, text: &str, got: Fingerprint, with_idf: bool) {
    let sim = Fingerprinter::new(Options {
        algorithm: Algorithm::SimHash,
        ..options
    })
    .expect("valid");
    let features = sim.explain(text).expect("SimHash explains").features;
    let set = features
        .iter()
        .map(|r| (r.text.clone().unwrap_or_default(), 1.0));
    assert_eq!(
        fp.fingerprint_features(set).ok(),
        Some(got),
        "the set disagrees"
    );
    assert_eq!(
        fp.fingerprint_counted(text),
        (got, features.len() as u32),
        "count disagrees"
    );
    if features.is_empty() {
        assert_eq!(got.value(), 0, "no features, yet bits");
    }
    assert_eq!(Fingerprint::from_hex(&got.to_hex(), options.width), Ok(got));
    let k = fp
        .recommended_k(text, simprint::Tolerance::DEFAULT)
        .expect("default tolerance");
    assert!(k <= options.width);
    assert!(matches!(fp.explain(text), Err(Error::NotForMinHash { .. })));
    if with_idf {
        let df = DocumentFrequencies::new(options).expect("valid options");
        assert!(matches!(
            fp.clone().with_document_frequencies(&df),
            Err(Error::NotForMinHash { .. })
        ));
    }
}
