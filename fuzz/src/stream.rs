//! The streaming fingerprinter against the one-shot one: arbitrary bytes (invalid UTF-8
//! included) cut at arbitrary places, inside UTF-8 sequences too, give the fingerprint of the
//! whole text read lossily.

use arbitrary::{Arbitrary, Unstructured};
use simprint::{Fingerprinter, Options};

use crate::{text_from, FuzzOptions};

// The chunking loop the crate's own stream test uses.
#[path = "../../tests/support/cuts.rs"]
mod cuts;
use cuts::streamed;

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
    let (streamed, fed) = streamed(&fp, bytes, cuts);
    assert_eq!(fed, bytes.len() as u64);
    let whole = String::from_utf8_lossy(bytes);
    assert_eq!(
        streamed,
        fp.fingerprint(&whole),
        "stream != one shot: {options:?} {whole:?} cuts {cuts:?}"
    );
}
