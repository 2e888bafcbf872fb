//! Fingerprinting does not allocate per feature: a counting global allocator shows the number
//! of allocations stays flat (term frequencies) or grows with the logarithm of the distinct
//! features (binary weights: the table doubles) as the text grows a thousandfold.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use simprint::{Fingerprinter, Options, Tokenizer, Weighting};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed straight to the system allocator; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f` (the test binary runs this file's one test alone, so no other
/// thread allocates meanwhile).
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    f();
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

/// `words` words of mixed-case English and `words / 4` Chinese characters, with about
/// `words / 8` distinct words.
fn text(words: usize) -> String {
    let mut out = String::new();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for i in 0..words {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let id = (x >> 33) % (words as u64 / 8 + 1);
        out.push_str(if i % 7 == 0 { "Word" } else { "word" });
        out.push_str(&id.to_string());
        out.push(if i % 4 == 0 {
            char::from_u32(0x4E00 + (x % 2000) as u32).unwrap()
        } else {
            ' '
        });
    }
    out
}

#[test]
fn fingerprinting_allocates_per_text_not_per_feature() {
    let (small, large) = (text(100), text(100_000));
    let log2 = |n: usize| usize::BITS - n.leading_zeros();
    for (name, options) in [
        ("default (binary)", Options::default()),
        (
            "tf",
            Options {
                weighting: Weighting::TermFrequency,
                ..Options::default()
            },
        ),
        (
            "word bigrams, tf",
            Options {
                weighting: Weighting::TermFrequency,
                tokenizer: Tokenizer::Words { n: 2 },
                ..Options::default()
            },
        ),
        (
            "chars, log-tf",
            Options {
                weighting: Weighting::LogTermFrequency,
                tokenizer: Tokenizer::Chars { n: 3 },
                ..Options::default()
            },
        ),
        (
            "128 bits",
            Options {
                width: 128,
                ..Options::default()
            },
        ),
    ] {
        let fp = Fingerprinter::new(options).unwrap();
        let few = allocations(|| {
            std::hint::black_box(fp.fingerprint(&small));
        });
        let many = allocations(|| {
            std::hint::black_box(fp.fingerprint(&large));
        });
        // A thousand times the features: at most one more allocation per doubling of the
        // table of distinct features (and of the list of them for float weights).
        let bound = few + 2 * log2(large.len()) as usize;
        println!(
            "{name}: {few} allocations for {} bytes, {many} for {}",
            small.len(),
            large.len()
        );
        assert!(
            many <= bound,
            "{name}: {many} allocations for the large text, {few} for the small"
        );

        // Streaming: allocations per chunk, never per feature.
        let chunks = large.len().div_ceil(64 * 1024);
        let streamed = allocations(|| {
            let mut s = fp.stream();
            for chunk in large.as_bytes().chunks(64 * 1024) {
                s.update(chunk);
            }
            std::hint::black_box(s.finish());
        });
        println!("{name}: {streamed} allocations streaming it in {chunks} chunks");
        assert!(
            streamed <= bound + 4 * chunks,
            "{name}: {streamed} allocations streaming"
        );
    }
}
