//! The streaming fingerprinter against the one-shot one: arbitrary bytes (invalid UTF-8
//! included) cut at arbitrary places, inside UTF-8 sequences too, give the fingerprint of the
//! whole text read lossily; with IDF weights too (the stream weighs features through the
//! fingerprinter it came from).

use arbitrary::{Arbitrary, Unstructured};
use simprint::{DocumentFrequencies, Fingerprinter, Options};

use crate::{text_from, FuzzOptions};

// The chunking loop the crate's own stream test uses.
#[path = "../../tests/support/cuts.rs"]
mod cuts;
use cuts::streamed;

pub fn check(data: &[u8]) {
    if let Some((o, bytes, cuts, with_idf)) = decode(data) {
        if o.valid {
            run(o.options, &bytes, &cuts, with_idf);
        }
        // Else nothing: the pipeline target covers refused options.
    }
}

/// The options, text bytes, cuts and IDF choice an input describes.
pub fn decode(data: &[u8]) -> Option<(FuzzOptions, Vec<u8>, Vec<usize>, bool)> {
    let mut u = Unstructured::new(data);
    let o = FuzzOptions::arbitrary(&mut u).ok()?;
    let bytes = text_from(&mut u).ok()?;
    let cuts: Vec<u16> = Arbitrary::arbitrary(&mut u).unwrap_or_default();
    let with_idf = bool::arbitrary(&mut u).unwrap_or(false);
    Some((
        o,
        bytes,
        cuts.into_iter().map(usize::from).collect(),
        with_idf,
    ))
}

/// Streams `bytes` cut at `cuts` (taken modulo the length, sorted; repeats give empty
/// chunks) and compares with the one-shot fingerprint, with IDF weights from the text and
/// another document when `with_idf`; public for the regression tests.
pub fn run(options: Options, bytes: &[u8], cuts: &[usize], with_idf: bool) {
    let mut fp = Fingerprinter::new(options).expect("valid options");
    let whole = String::from_utf8_lossy(bytes);
    if with_idf {
        let mut df = DocumentFrequencies::new(options).expect("valid options");
        df.add(&whole);
        df.add("a second document");
        fp = fp.with_document_frequencies(&df).expect("same options");
    }
    let (streamed, fed) = streamed(&fp, bytes, cuts);
    assert_eq!(fed, bytes.len() as u64);
    assert_eq!(
        streamed,
        fp.fingerprint(&whole),
        "stream != one shot: {options:?} idf {with_idf} {whole:?} cuts {cuts:?}"
    );
}
