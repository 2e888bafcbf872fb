//! The `parallel` feature against the serial path and the brute-force oracle: all pairs,
//! bulk insert and batch fingerprinting give exactly the serial answers, in the same order,
//! at any thread count. Run with `cargo test --features parallel --test parallel`.
#![cfg(all(feature = "parallel", not(target_arch = "wasm32")))]

use std::collections::BTreeMap;

use proptest::prelude::*;
use simprint::{Error, Fingerprint, Fingerprinter, Index, Options, Plan, Tokenizer};

#[path = "support/brute.rs"]
mod brute;
use brute::{brute_pairs_of, brute_query};

#[path = "support/splitmix64.rs"]
mod splitmix64;
use splitmix64::SplitMix64 as Rng;

#[path = "support/sets.rs"]
mod sets;
use sets::{fp, mask};

/// A set with near neighbours and exact duplicates around a few centres (clustered), or
/// random values; clustered sets make large buckets and many pairs.
fn values(rng: &mut Rng, width: u32, n: usize, clustered: bool) -> Vec<u128> {
    if clustered {
        sets::clustered(rng, width, n)
    } else {
        sets::random(rng, width, n)
    }
}

/// Thread counts worth trying: every core (0), one, two, more than the work has units.
const THREADS: [usize; 5] = [0, 1, 2, 3, 7];

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, .. ProptestConfig::default() })]

    /// Pairs on any thread count are the serial pairs and brute force's, for indexes of one
    /// segment (bulk), of several segments and a buffer (one insert at a time), with removed
    /// entries, explicit plans (tables on small sets), and a `k` above the index's.
    #[test]
    fn pairs_parallel_is_the_serial_answer(
        seed: u64,
        wide in any::<bool>(),
        k in 0u32..=8,
        n in 0usize..1500,
        clustered in any::<bool>(),
        extra_blocks in proptest::option::of(1u32..=3),
        bulk in any::<bool>(),
        removed in 0usize..50,
        above in 0u32..=2,
        merge_limit in proptest::option::of(256usize..800),
    ) {
        let width = if wide { 128 } else { 64 };
        let mut rng = Rng(seed);
        let vs = values(&mut rng, width, n, clustered);
        let mut index = match extra_blocks {
            Some(e) => Index::with_plan(Plan::with_blocks(width, k, k + e).unwrap()).unwrap(),
            None => Index::new(width, k).unwrap(),
        };
        // A merge limit keeps several segments: the pairs across them are work units too.
        if let Some(limit) = merge_limit {
            index.set_merge_limit(limit);
        }
        let mut model = BTreeMap::new();
        let items: Vec<(u64, u128)> = vs.iter().enumerate().map(|(i, &v)| (i as u64 * 7 % 10_007, v)).collect();
        if bulk {
            index.insert_many(items.iter().map(|&(id, v)| (id, fp(v, width)))).unwrap();
        } else {
            for &(id, v) in &items {
                index.insert(id, fp(v, width)).unwrap();
            }
        }
        model.extend(items.iter().copied());
        for _ in 0..removed.min(n) {
            let id = items[rng.below(n as u64) as usize].0;
            index.remove(id);
            model.remove(&id);
        }
        let kp = k + above;
        let serial = index.pairs_within(kp).unwrap();
        prop_assert_eq!(&serial, &brute_pairs_of(&model, kp));
        for threads in THREADS {
            prop_assert_eq!(&index.pairs_parallel(kp, threads).unwrap(), &serial, "{} threads", threads);
        }
    }

    /// A bulk insert on any thread count builds the index the serial one builds: the same
    /// entries, segments, plans and bytes, and the same answers (brute force's), also on top
    /// of an index that already holds segments, a buffer and some of the ids.
    #[test]
    fn insert_many_parallel_is_the_serial_index(
        seed: u64,
        wide in any::<bool>(),
        k in 0u32..=8,
        n in 0usize..3000,
        before in 0usize..700,
        clustered in any::<bool>(),
        extra_blocks in proptest::option::of(1u32..=3),
        threads_at in 0usize..5,
    ) {
        let width = if wide { 128 } else { 64 };
        let mut rng = Rng(seed);
        let mut serial = match extra_blocks {
            Some(e) => Index::with_plan(Plan::with_blocks(width, k, k + e).unwrap()).unwrap(),
            None => Index::new(width, k).unwrap(),
        };
        let mut model = BTreeMap::new();
        // Already stored: ids that the batch partly replaces.
        for v in values(&mut rng, width, before, clustered) {
            let id = rng.below(4000);
            serial.insert(id, fp(v, width)).unwrap();
            model.insert(id, v);
        }
        let mut parallel = serial.clone();
        // Repeated ids in the batch: the last one wins.
        let batch: Vec<(u64, u128)> = values(&mut rng, width, n, clustered)
            .into_iter()
            .map(|v| (rng.below(4000), v))
            .collect();
        model.extend(batch.iter().copied());
        let items = || batch.iter().map(|&(id, v)| (id, fp(v, width)));
        serial.insert_many(items()).unwrap();
        parallel.insert_many_parallel(items(), THREADS[threads_at]).unwrap();
        prop_assert_eq!(parallel.len(), model.len());
        prop_assert_eq!(parallel.entries(), serial.entries());
        prop_assert_eq!(parallel.segments(), serial.segments());
        for s in 0..serial.segments() {
            prop_assert_eq!(parallel.segment(s), serial.segment(s));
        }
        prop_assert_eq!(parallel.to_bytes(), serial.to_bytes());
        for _ in 0..20 {
            let q = match model.values().nth(rng.below(model.len().max(1) as u64) as usize) {
                Some(&v) if rng.below(2) == 0 => v ^ 1,
                _ => rng.wide() & mask(width),
            };
            prop_assert_eq!(parallel.query(fp(q, width)).unwrap(), brute_query(&model, q, k));
            // The same tables in the same order: every candidate examined alike.
            prop_assert_eq!(
                parallel.explain_query(fp(q, width), k).unwrap(),
                serial.explain_query(fp(q, width), k).unwrap()
            );
        }
        prop_assert_eq!(parallel.pairs().unwrap(), brute_pairs_of(&model, k));
    }

}

proptest! {
    // Fewer cases: each fingerprints hundreds of texts several ways.
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    /// Batch fingerprinting on any thread count is `fingerprint` of each text, in order, for
    /// any text (ASCII, CJK, anything) and options.
    #[test]
    fn fingerprint_parallel_is_one_by_one(
        texts in proptest::collection::vec(any::<String>(), 0..300),
        ascii in proptest::collection::vec("[a-z ]{0,200}", 0..300),
        width in 1u32..=128,
        tokenizer_at in 0usize..4,
        threads_at in 0usize..5,
    ) {
        let tokenizers = [
            Tokenizer::default(),
            Tokenizer::Words { n: 1 },
            Tokenizer::Words { n: 3 },
            Tokenizer::Chars { n: 2 },
        ];
        let options = Options { width, tokenizer: tokenizers[tokenizer_at], ..Options::default() };
        let fingerprinter = Fingerprinter::new(options).unwrap();
        for texts in [&texts, &ascii] {
            let one_by_one: Vec<Fingerprint> = texts.iter().map(|t| fingerprinter.fingerprint(t)).collect();
            prop_assert_eq!(fingerprinter.fingerprint_parallel(texts, THREADS[threads_at]), one_by_one);
        }
    }
}

/// Past `MAX_PAIRS` the parallel pairs fail as the serial ones do (3000 copies of one
/// fingerprint: 4,498,500 pairs at distance 0). Two runs only: each counts past 4 million
/// pairs, slow in a debug build.
#[test]
fn too_many_pairs_is_the_serial_error() {
    let mut index = Index::new(64, 3).unwrap();
    index
        .insert_many((0..3000).map(|id| (id, Fingerprint::new(5, 64).unwrap())))
        .unwrap();
    let error = Error::TooManyPairs {
        k: 3,
        max: simprint::index::MAX_PAIRS,
    };
    for threads in [1, 2] {
        assert_eq!(index.pairs_parallel(3, threads), Err(error.clone()));
    }
}

/// Arguments a caller may get wrong are errors, and any thread count works.
#[test]
fn bad_arguments_are_errors_and_any_thread_count_works() {
    let mut index = Index::new(64, 3).unwrap();
    assert!(matches!(
        index.pairs_parallel(65, 2),
        Err(Error::KOutOfRange { .. })
    ));
    let wrong = [(1, Fingerprint::new(1, 128).unwrap())];
    assert!(matches!(
        index.insert_many_parallel(wrong, 2),
        Err(Error::WidthMismatch { .. })
    ));
    assert!(index.is_empty());
    let items = (0..1000u64).map(|i| (i, Fingerprint::new(u128::from(i) << 30, 64).unwrap()));
    index.insert_many_parallel(items, usize::MAX).unwrap();
    assert_eq!(
        index.pairs_parallel(3, usize::MAX).unwrap(),
        index.pairs().unwrap()
    );
    let fingerprinter = Fingerprinter::new(Options::default()).unwrap();
    let none: [&str; 0] = [];
    assert!(fingerprinter.fingerprint_parallel(&none, 0).is_empty());
    assert_eq!(
        fingerprinter.fingerprint_parallel(&["a b c"], usize::MAX),
        [fingerprinter.fingerprint("a b c")]
    );
}
