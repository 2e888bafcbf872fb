//! The streaming fingerprinter against the one-shot one: arbitrary bytes (invalid UTF-8
//! included) cut at arbitrary places, inside UTF-8 sequences too, give the fingerprint of the
//! whole text read lossily.

use arbitrary::{Arbitrary, Unstructured};
use simprint::{Fingerprinter, Options};

use crate::{text_from, FuzzOptions};

pub fn check(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(o) = FuzzOptions::arbitrary(&mut u) else {
        return;
    };
    if !o.valid {
        return; // the pipeline target covers refused options
    }
    let Ok(bytes) = text_from(&mut u) else { return };
    let cuts: Vec<u16> = Arbitrary::arbitrary(&mut u).unwrap_or_default();
    let cuts: Vec<usize> = cuts.into_iter().map(usize::from).collect();
    run(o.options, &bytes, &cuts);
}

/// Streams `bytes` cut at `cuts` (taken modulo the length, sorted; repeats give empty
/// chunks) and compares with the one-shot fingerprint; public for the regression tests.
pub fn run(options: Options, bytes: &[u8], cuts: &[usize]) {
    let fp = Fingerprinter::new(options).expect("valid options");
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    cuts.sort_unstable();
    let mut stream = fp.stream();
    let mut from = 0;
    for &c in &cuts {
        stream.update(&bytes[from..c]);
        from = c;
    }
    stream.update(&bytes[from..]);
    assert_eq!(stream.bytes(), bytes.len() as u64);
    let whole = String::from_utf8_lossy(bytes);
    assert_eq!(
        stream.finish(),
        fp.fingerprint(&whole),
        "stream != one shot: {options:?} {whole:?} cuts {cuts:?}"
    );
}
