//! Feeding a stream in chunks: shared by the stream's property test (src/stream.rs) and the
//! fuzz target (fuzz/src/stream.rs).
#![allow(dead_code)]

use simprint::{Fingerprint, Fingerprinter};

/// `bytes` fed to a new stream of `fp` in chunks cut at `cuts` (taken modulo the length and
/// sorted; repeats give empty chunks); the stream's fingerprint and its byte count.
pub fn streamed(fp: &Fingerprinter, bytes: &[u8], cuts: &[usize]) -> (Fingerprint, u64) {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    cuts.sort_unstable();
    let mut stream = fp.stream();
    let mut from = 0;
    for &c in &cuts {
        stream.update(&bytes[from..c]);
        from = c;
    }
    stream.update(&bytes[from..]);
    let fed = stream.bytes();
    (stream.finish(), fed)
}

/// [`streamed`] through a stream that also recommends a `k`
/// (`Fingerprinter::stream_recommending` at the default tolerance): its fingerprint and
/// recommendation.
pub fn streamed_recommending(
    fp: &Fingerprinter,
    bytes: &[u8],
    cuts: &[usize],
) -> (Fingerprint, Option<simprint::Recommendation>) {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    cuts.sort_unstable();
    let mut stream = fp
        .stream_recommending(simprint::Tolerance::DEFAULT)
        .expect("the default tolerance is valid");
    let mut from = 0;
    for &c in &cuts {
        stream.update(&bytes[from..c]);
        from = c;
    }
    stream.update(&bytes[from..]);
    stream.finish_recommending()
}
