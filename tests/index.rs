//! The index against a brute-force scan: random sets, clustered sets, random operation
//! sequences, explicit plans, pairs, clusters and the byte format.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use proptest::prelude::*;
use simprint::{Error, Index, Match, Plan};

#[path = "support/brute.rs"]
mod brute;
#[path = "support/index_bytes.rs"]
mod index_bytes;
use brute::{accepted, brute_pairs_of as brute_pairs, brute_query as brute};

/// A small deterministic generator for building sets inside a proptest case.
#[path = "support/splitmix64.rs"]
mod splitmix64;
use splitmix64::SplitMix64 as Rng;

#[path = "support/sets.rs"]
mod sets;
use sets::{clustered, fp, mask};

fn check_queries(index: &Index, model: &BTreeMap<u64, u128>, rng: &mut Rng, width: u32) {
    let k = index.k();
    let stored: Vec<u128> = model.values().copied().collect();
    for i in 0..40 {
        let q = if stored.is_empty() || i % 4 == 0 {
            rng.wide() & mask(width)
        } else {
            let base = stored[rng.below(stored.len() as u64) as usize];
            let flips = rng.below(u64::from(k) + 3) as u32;
            rng.perturb(base, flips, width)
        };
        for kq in [k, k.saturating_sub(1), k / 2, 1, 0, k + 2] {
            let kq = kq.min(width);
            assert_eq!(
                index.query_within(fp(q, width), kq).unwrap(),
                brute(model, q, kq),
                "query {q:x} within {kq} (index k {k}, plan {:?})",
                index.plan()
            );
            // The examined candidates, accepted and deduplicated, are the answer.
            let seen = index.explain_query(fp(q, width), kq).unwrap();
            assert_eq!(accepted(&seen), brute(model, q, kq));
            check_limited(index, q, kq, rng);
        }
    }
}

/// `query_limited` is `query_within` cut to the limit, for limits around every size that
/// matters: none, one, a few, about the answer's length, and more than it.
fn check_limited(index: &Index, q: u128, k: u32, rng: &mut Rng) {
    let width = index.width();
    let all = index.query_within(fp(q, width), k).unwrap();
    let n = all.len();
    let mut limits = vec![0, 1, 2, n.saturating_sub(1), n, n + 1, usize::MAX];
    limits.push(rng.below(n as u64 + 2) as usize);
    for limit in limits {
        assert_eq!(
            index.query_limited(fp(q, width), k, limit).unwrap(),
            all[..limit.min(n)],
            "query {q:x} within {k}, limit {limit} (plan {:?})",
            index.plan()
        );
    }
}

fn build(width: u32, k: u32, blocks: Option<u32>) -> Index {
    match blocks {
        Some(b) => Index::with_plan(Plan::with_blocks(width, k, b).unwrap()).unwrap(),
        None => Index::new(width, k).unwrap(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn random_and_clustered_sets_match_brute_force(
        seed: u64,
        wide in any::<bool>(),
        k in 0u32..=8,
        n in 0usize..1500,
        is_clustered in any::<bool>(),
        extra_blocks in proptest::option::of(1u32..=3),
        bulk in any::<bool>(),
    ) {
        let width = if wide { 128 } else { 64 };
        let mut rng = Rng(seed);
        let values = if is_clustered { clustered(&mut rng, width, n) } else {
            (0..n).map(|_| rng.wide() & mask(width)).collect()
        };
        // Explicit plans force tables even on small sets; auto plans scan small segments.
        let mut index = build(width, k, extra_blocks.map(|e| k + e));
        let mut model = BTreeMap::new();
        let items: Vec<(u64, u128)> = values.iter().enumerate().map(|(i, &v)| (i as u64 * 3, v)).collect();
        if bulk {
            index.insert_many(items.iter().map(|&(id, v)| (id, fp(v, width)))).unwrap();
        } else {
            for &(id, v) in &items {
                index.insert(id, fp(v, width)).unwrap();
            }
        }
        model.extend(items.iter().copied());
        prop_assert_eq!(index.len(), model.len());
        check_queries(&index, &model, &mut rng, width);
        prop_assert_eq!(index.pairs().unwrap(), brute_pairs(&model, k));
        let mut compacted = index.clone();
        compacted.compact().unwrap();
        prop_assert!(compacted.segments() <= 1);
        check_queries(&compacted, &model, &mut rng, width);

        // The byte format keeps every answer.
        let loaded = Index::from_bytes(&index.to_bytes()).unwrap();
        prop_assert_eq!(loaded.len(), index.len());
        prop_assert_eq!(loaded.entries(), index.entries());
        check_queries(&loaded, &model, &mut rng, width);
    }

    /// Many copies of a few fingerprints: long runs of equal distances and ids found by
    /// several tables, where a bounded query must cut and deduplicate correctly.
    #[test]
    fn query_limited_is_query_within_cut_to_the_limit(
        seed: u64,
        wide in any::<bool>(),
        k in 0u32..=6,
        n in 0usize..2000,
        distinct in 1usize..6,
        extra_blocks in proptest::option::of(1u32..=3),
        bulk in any::<bool>(),
        limit in 0usize..300,
        kq_less in 0u32..=2,
    ) {
        let width = if wide { 128 } else { 64 };
        let mut rng = Rng(seed);
        let centres: Vec<u128> = (0..distinct).map(|_| rng.wide() & mask(width)).collect();
        let mut index = build(width, k, extra_blocks.map(|e| k + e));
        let mut model = BTreeMap::new();
        for i in 0..n {
            let c = centres[rng.below(distinct as u64) as usize];
            let flips = rng.below(u64::from(k) + 2) as u32;
            let v = if rng.below(3) == 0 { rng.perturb(c, flips, width) } else { c };
            // Ids in a scrambled order, so table order is not id order.
            let id = (i as u64).wrapping_mul(0x9e37_79b9) % 1_000_003;
            model.insert(id, v);
            if !bulk {
                index.insert(id, fp(v, width)).unwrap();
            }
        }
        if bulk {
            index.insert_many(model.iter().map(|(&id, &v)| (id, fp(v, width)))).unwrap();
        }
        for &c in &centres {
            let flips = rng.below(2) as u32;
            let q = rng.perturb(c, flips, width);
            let kq = k.saturating_sub(kq_less);
            let want: Vec<Match> = brute(&model, q, kq).into_iter().take(limit).collect();
            prop_assert_eq!(index.query_limited(fp(q, width), kq, limit).unwrap(), want);
            check_limited(&index, q, kq, &mut rng);
            check_limited(&index, q, (k + 3).min(width), &mut rng);
        }
    }

    #[test]
    fn random_operation_sequences_match_a_model(
        seed: u64,
        wide in any::<bool>(),
        k in 0u32..=8,
        ops in proptest::collection::vec((0u8..10, 0u64..400), 1..900),
        merge_limit in proptest::option::of(256usize..700),
    ) {
        let width = if wide { 128 } else { 64 };
        let mut rng = Rng(seed);
        let mut index = Index::new(width, k).unwrap();
        // A merge limit leaves several segments for queries, replacements and removals to cross.
        if let Some(limit) = merge_limit {
            index.set_merge_limit(limit);
        }
        let mut model: BTreeMap<u64, u128> = BTreeMap::new();
        // Ids drawn from 0..400, so replacements and removals hit stored ids often; values
        // cluster around a few centres so queries find things.
        let centres: Vec<u128> = (0..6).map(|_| rng.wide() & mask(width)).collect();
        for (op, id) in ops {
            match op {
                0..=4 => {
                    let c = centres[rng.below(6) as usize];
                    let flips = rng.below(6) as u32;
                    let v = rng.perturb(c, flips, width);
                    let old = index.insert(id, fp(v, width)).unwrap();
                    prop_assert_eq!(old.map(|f| f.value()), model.insert(id, v));
                }
                5 | 6 => {
                    prop_assert_eq!(index.remove(id).map(|f| f.value()), model.remove(&id));
                }
                7 => {
                    let batch: Vec<(u64, u128)> = (0..rng.below(300))
                        .map(|i| (id + i * 7 % 400, rng.perturb(centres[i as usize % 6], 3, width)))
                        .collect();
                    index.insert_many(batch.iter().map(|&(i, v)| (i, fp(v, width)))).unwrap();
                    model.extend(batch.iter().copied());
                }
                8 => {
                    prop_assert_eq!(index.get(id).map(|f| f.value()), model.get(&id).copied());
                    let c = centres[rng.below(6) as usize];
                    let q = rng.perturb(c, 2, width);
                    prop_assert_eq!(index.query(fp(q, width)).unwrap(), brute(&model, q, k));
                }
                _ => {
                    if rng.below(20) == 0 {
                        index.clear();
                        model.clear();
                    }
                }
            }
            prop_assert_eq!(index.len(), model.len());
        }
        check_queries(&index, &model, &mut rng, width);
        prop_assert_eq!(index.pairs().unwrap(), brute_pairs(&model, k));
        let entries: Vec<(u64, u128)> = index.entries().iter().map(|(i, f)| (*i, f.value())).collect();
        prop_assert_eq!(entries, model.iter().map(|(&a, &b)| (a, b)).collect::<Vec<_>>());
    }
}

#[test]
fn pairs_above_the_index_k_and_clusters() {
    let mut rng = Rng(7);
    let values = clustered(&mut rng, 64, 800);
    let model: BTreeMap<u64, u128> = values
        .iter()
        .enumerate()
        .map(|(i, &v)| (i as u64, v))
        .collect();
    let mut index = Index::new(64, 2).unwrap();
    index
        .insert_many(model.iter().map(|(&i, &v)| (i, fp(v, 64))))
        .unwrap();
    assert_eq!(index.pairs_within(5).unwrap(), brute_pairs(&model, 5));
    // Clusters are the connected components of the pair graph.
    let clusters = index.clusters_within(3).unwrap();
    let pairs = brute_pairs(&model, 3);
    let cluster_of = |id: u64| clusters.iter().position(|c| c.contains(&id));
    for p in &pairs {
        assert!(cluster_of(p.a).is_some() && cluster_of(p.a) == cluster_of(p.b));
    }
    let members: usize = clusters.iter().map(Vec::len).sum();
    let mut in_pairs: Vec<u64> = pairs.iter().flat_map(|p| [p.a, p.b]).collect();
    in_pairs.sort_unstable();
    in_pairs.dedup();
    assert_eq!(members, in_pairs.len());
    for c in &clusters {
        assert!(c.windows(2).all(|w| w[0] < w[1]));
    }
}

#[test]
fn memory_stays_under_100_bytes_per_fingerprint_at_k3() {
    let mut rng = Rng(11);
    let mut index = Index::new(64, 3).unwrap();
    index
        .insert_many((0..200_000u64).map(|i| (i, fp(u128::from(rng.next()), 64))))
        .unwrap();
    let per = index.memory_bytes() as f64 / index.len() as f64;
    assert!(per < 100.0, "{per} bytes per fingerprint");
    assert_eq!(index.plan().tables().len(), 4);
}

#[test]
fn bad_bytes_are_errors_not_panics() {
    let mut rng = Rng(3);
    let mut index = Index::with_plan(Plan::with_blocks(64, 3, 5).unwrap()).unwrap();
    index
        .insert_many((0..50u64).map(|i| (i, fp(u128::from(rng.next()), 64))))
        .unwrap();
    let bytes = index.to_bytes();
    let loaded = Index::from_bytes(&bytes).unwrap();
    assert_eq!(loaded.plan(), index.plan());
    // Every truncation and every single-bit flip is caught.
    for len in 0..bytes.len() {
        assert!(
            matches!(
                Index::from_bytes(&bytes[..len]),
                Err(Error::MalformedIndexBytes { .. })
            ),
            "len {len}"
        );
    }
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut b = bytes.clone();
            b[i] ^= 1 << bit;
            assert!(Index::from_bytes(&b).is_err(), "flip byte {i} bit {bit}");
        }
    }
    // A hostile header claiming 2^60 entries in a short buffer: an error, no allocation.
    let mut hostile = Index::new(64, 3).unwrap().to_bytes();
    hostile[16..24].copy_from_slice(&(1u64 << 60).to_le_bytes());
    let err = Index::from_bytes(&hostile).unwrap_err().to_string();
    assert!(err.contains("truncated or corrupted"), "{err}");
    // Wrong version, with a valid checksum, names the version.
    let mut other = Index::new(64, 3).unwrap().to_bytes();
    other[8] = 3;
    let other = index_bytes::sealed(other[..other.len() - 8].to_vec());
    let err = Index::from_bytes(&other).unwrap_err().to_string();
    assert!(err.contains("format version 3"), "{err}");
}

#[test]
fn bad_arguments() {
    assert!(matches!(
        Index::new(0, 0),
        Err(Error::WidthOutOfRange { width: 0 })
    ));
    assert!(matches!(
        Index::new(64, 65),
        Err(Error::KOutOfRange { k: 65, width: 64 })
    ));
    let mut index = Index::new(64, 3).unwrap();
    assert!(matches!(
        index.insert(1, fp(1, 128)),
        Err(Error::WidthMismatch {
            left: 128,
            right: 64
        })
    ));
    assert!(matches!(
        index.query_within(fp(1, 64), 65),
        Err(Error::KOutOfRange { .. })
    ));
    // A limit of 0 still checks its arguments.
    assert!(matches!(
        index.query_limited(fp(1, 64), 65, 0),
        Err(Error::KOutOfRange { .. })
    ));
    assert!(matches!(
        index.query_limited(fp(1, 128), 3, 0),
        Err(Error::WidthMismatch {
            left: 128,
            right: 64
        })
    ));
    assert!(index
        .insert_many([(1, fp(1, 64)), (2, fp(1, 128))])
        .is_err());
    assert!(index.is_empty(), "a failed insert_many stores nothing");
}

/// A plan of kind `kind` (0 automatic, 1 permuted, 2 multi-index, 3 combined, 4 scan) with
/// `a` and `b` choosing its numbers; `None` when those numbers make no plan for this width
/// and `k`.
fn plan_of(width: u32, k: u32, kind: u8, a: u32, b: u32) -> Option<Plan> {
    match kind {
        0 => None,
        1 => Plan::with_blocks(width, k, k + 1 + a % 3).ok(),
        2 => Plan::multi_index(width, k, 1 + a % 8).ok(),
        3 => {
            let blocks = 2 + a % 7;
            Plan::combined(width, k, blocks, 1 + b % blocks).ok()
        }
        _ => Plan::scan(width, k).ok(),
    }
}

/// Every answer of `index` against the model: queries (all, limited, explained), pairs and
/// clusters.
fn check_everything(index: &Index, model: &BTreeMap<u64, u128>, rng: &mut Rng) {
    let (width, k) = (index.width(), index.k());
    check_queries(index, model, rng, width);
    let pairs = brute_pairs(model, k);
    assert_eq!(
        index.pairs().unwrap(),
        pairs,
        "pairs (plan {:?})",
        index.plan()
    );
    assert_eq!(index.clusters().unwrap(), brute::brute_clusters(&pairs));
    let limit = rng.below(pairs.len() as u64 + 2) as usize;
    assert_eq!(
        index.pairs_limited(k, limit).unwrap(),
        pairs[..limit.min(pairs.len())]
    );
    // Per-query k: every pairs path at any k up to the index's (what the index is built for
    // is the largest k it will be asked), exactly.
    for kq in [
        k.saturating_sub(1),
        k / 2,
        rng.below(u64::from(k) + 1) as u32,
    ] {
        let want = brute_pairs(model, kq);
        assert_eq!(
            index.pairs_within(kq).unwrap(),
            want,
            "pairs within {kq} (index k {k})"
        );
        let limit = rng.below(want.len() as u64 + 2) as usize;
        assert_eq!(
            index.pairs_limited(kq, limit).unwrap(),
            want[..limit.min(want.len())]
        );
        let mut visited = Vec::new();
        index
            .for_each_pair(kq, |p| {
                visited.push(p);
                core::ops::ControlFlow::Continue(())
            })
            .unwrap();
        visited.sort_by_key(|p| (p.distance, p.a, p.b));
        assert_eq!(visited, want, "for_each_pair within {kq} (index k {k})");
        assert_eq!(
            index.clusters_within(kq).unwrap(),
            brute::brute_clusters(&want)
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, .. ProptestConfig::default() })]

    /// Every kind of plan, explicit or chosen by the planner, at every k from 0 to 24 and the
    /// widths at the edges of the 64- and 128-bit engines, on random and clustered sets,
    /// through inserts, removals and re-inserts.
    #[test]
    fn every_plan_kind_at_every_k_matches_brute_force(
        seed: u64,
        width in proptest::sample::select(vec![1u32, 32, 63, 64, 65, 128]),
        k in 0u32..=24,
        kind in 0u8..5,
        a: u32,
        b: u32,
        n in 0usize..900,
        is_clustered in any::<bool>(),
        bulk in any::<bool>(),
    ) {
        let k = k.min(width);
        let mut rng = Rng(seed);
        let values: Vec<u128> = if is_clustered {
            clustered(&mut rng, width, n)
        } else {
            (0..n).map(|_| rng.wide() & mask(width)).collect()
        };
        let mut index = match plan_of(width, k, kind, a, b) {
            Some(plan) => Index::with_plan(plan).unwrap(),
            None => Index::new(width, k).unwrap(),
        };
        let mut model = BTreeMap::new();
        let items: Vec<(u64, u128)> = (0u64..).zip(values).collect();
        if bulk {
            index.insert_many(items.iter().map(|&(id, v)| (id, fp(v, width)))).unwrap();
        } else {
            for &(id, v) in &items {
                index.insert(id, fp(v, width)).unwrap();
            }
        }
        model.extend(items.iter().copied());
        check_everything(&index, &model, &mut rng);

        // Remove a third, re-insert half of those elsewhere, replace a few in place.
        for &(id, _) in &items {
            if rng.below(3) != 0 {
                continue;
            }
            prop_assert_eq!(index.remove(id).map(|f| f.value()), model.remove(&id));
            if rng.below(2) == 0 {
                let base = items[rng.below(items.len() as u64) as usize].1;
                let v = rng.perturb(base, 2, width);
                index.insert(id, fp(v, width)).unwrap();
                model.insert(id, v);
            }
        }
        prop_assert_eq!(index.len(), model.len());
        check_everything(&index, &model, &mut rng);

        let loaded = Index::from_bytes(&index.to_bytes()).unwrap();
        prop_assert_eq!(loaded.entries(), index.entries());
        prop_assert_eq!(loaded.plan(), index.plan());
        let mut compacted = loaded;
        compacted.compact().unwrap();
        check_everything(&compacted, &model, &mut rng);
    }
}

/// Larger sets than the property tests afford, so tables have bucket numbers of 10 bits and
/// more and probes flip many of them. `SIMPRINT_HEAVY=1` adds k up to 24 and 128 bits.
#[test]
fn larger_sets_at_large_k_match_brute_force() {
    let heavy = std::env::var_os("SIMPRINT_HEAVY").is_some();
    let ks: &[u32] = if heavy {
        &[0, 3, 6, 9, 12, 15, 18, 21, 24]
    } else {
        &[9, 15]
    };
    let widths: &[u32] = if heavy { &[64, 128] } else { &[64] };
    for &width in widths {
        for &k in ks {
            let mut rng = Rng(u64::from(k) * 31 + u64::from(width));
            let values = clustered(&mut rng, width, 6000);
            let model: BTreeMap<u64, u128> = (0u64..).zip(values).collect();
            let mut plans = vec![None];
            for m in [3, 4, 5] {
                plans.push(Plan::multi_index(width, k, m).ok());
            }
            plans.push(Plan::combined(width, k, 6, 2).ok());
            for plan in plans {
                let mut index = match plan {
                    Some(p) => Index::with_plan(p).unwrap(),
                    None => Index::new(width, k).unwrap(),
                };
                index
                    .insert_many(model.iter().map(|(&id, &v)| (id, fp(v, width))))
                    .unwrap();
                for _ in 0..30 {
                    let base = model[&rng.below(model.len() as u64)];
                    let flips = rng.below(u64::from(k) + 3) as u32;
                    let q = rng.perturb(base, flips, width);
                    assert_eq!(
                        index.query(fp(q, width)).unwrap(),
                        brute(&model, q, k),
                        "width {width}, k {k}, plan {:?}",
                        index.plan()
                    );
                }
                if heavy || k <= 9 {
                    assert_eq!(index.pairs().unwrap(), brute_pairs(&model, k));
                }
            }
        }
    }
}

/// Every kernel level the CPU has answers queries as a brute-force scan does, with
/// buckets of dozens of entries (seven substrings of 9 or 10 bits at 30,000 fingerprints),
/// so the bucket checks run their vector steps as well as their tails: folded words at `k`
/// up to 6, whole fingerprints above. The levels are the process's (`limit_kernels`); other
/// tests running meanwhile answer the same at any level.
#[test]
fn every_kernel_level_matches_brute_force() {
    use simprint::test_hooks::limit_kernels;
    use simprint::Kernels;
    let before = simprint::kernels();
    let mut rng = Rng(0x5eed);
    let values = clustered(&mut rng, 64, 30_000);
    let model: BTreeMap<u64, u128> = (0u64..).zip(values).collect();
    for level in [
        Kernels::Portable,
        Kernels::Popcnt,
        Kernels::Avx2,
        Kernels::Avx512,
    ] {
        if limit_kernels(level) != level {
            continue;
        }
        for k in [3, 5, 6, 7, 9] {
            let plan = Plan::multi_index(64, k, 7).unwrap();
            let folded = plan.describe(model.len()).iter().all(|t| t.folded);
            assert_eq!(folded, k <= 6, "k {k}");
            let mut index = Index::with_plan(plan).unwrap();
            index
                .insert_many(model.iter().map(|(&id, &v)| (id, fp(v, 64))))
                .unwrap();
            for _ in 0..40 {
                let base = model[&rng.below(model.len() as u64)];
                let flips = rng.below(u64::from(k) + 3) as u32;
                let q = rng.perturb(base, flips, 64);
                assert_eq!(
                    index.query(fp(q, 64)).unwrap(),
                    brute(&model, q, k),
                    "{level:?} k {k} plan {:?}",
                    index.plan()
                );
            }
        }
    }
    limit_kernels(before);
}

/// The fixtures under tests/fixtures/ were written by the format's version 1 (simprint at
/// 03b6b7a, before multi-index plans). Every one still loads, holds what it held, answers as
/// a brute-force scan does, and is written back byte for byte: plans version 1 knows are
/// still written as version 1.
#[test]
fn version_1_files_still_load() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let cases = [
        ("v1-auto-w64-k3", 64, 3, None),
        (
            "v1-blocks5-w64-k3",
            64,
            3,
            Some(simprint::PlanKind::Permuted { blocks: 5 }),
        ),
        ("v1-scan-w32-k4", 32, 4, Some(simprint::PlanKind::Scan)),
        ("v1-auto-w128-k9", 128, 9, None),
    ];
    for (name, width, k, kind) in cases {
        let bytes = std::fs::read(dir.join(format!("index-{name}.bin"))).unwrap();
        assert_eq!(
            u16::from_le_bytes([bytes[8], bytes[9]]),
            1,
            "{name} is version 1"
        );
        let index = Index::from_bytes(&bytes).unwrap();
        assert_eq!((index.width(), index.k()), (width, k), "{name}");
        let text = std::fs::read_to_string(dir.join(format!("index-{name}.entries"))).unwrap();
        let model: BTreeMap<u64, u128> = text
            .lines()
            .map(|l| {
                let (id, v) = l.split_once(' ').unwrap();
                (id.parse().unwrap(), u128::from_str_radix(v, 16).unwrap())
            })
            .collect();
        let entries: Vec<(u64, u128)> = index
            .entries()
            .iter()
            .map(|(i, f)| (*i, f.value()))
            .collect();
        assert_eq!(
            entries,
            model.iter().map(|(&a, &b)| (a, b)).collect::<Vec<_>>(),
            "{name}"
        );
        if let Some(kind) = kind {
            assert_eq!(index.plan().kind(), kind, "{name}");
        }
        let mut rng = Rng(5);
        check_everything(&index, &model, &mut rng);
        assert_eq!(index.to_bytes(), bytes, "{name} is written back as it was");
    }
}

#[test]
fn version_2_holds_the_new_plan_kinds() {
    let mut rng = Rng(9);
    let plans = [
        Plan::multi_index(64, 9, 4).unwrap(),
        Plan::multi_index(100, 20, 7).unwrap(),
        Plan::combined(64, 9, 6, 2).unwrap(),
    ];
    for plan in plans {
        let width = plan.width();
        let mut index = Index::with_plan(plan.clone()).unwrap();
        index
            .insert_many((0..400u64).map(|i| (i, fp(rng.wide(), width))))
            .unwrap();
        let bytes = index.to_bytes();
        assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 2);
        let loaded = Index::from_bytes(&bytes).unwrap();
        assert_eq!(loaded.plan(), plan);
        assert_eq!(loaded.entries(), index.entries());
        assert_eq!(loaded.to_bytes(), bytes);
        // Version 1 knows no multi-index or combined plan.
        let mut old = bytes[..bytes.len() - 8].to_vec();
        old[8] = 1;
        let err = Index::from_bytes(&index_bytes::sealed(old)).unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains("unknown plan kind") || message.contains("reserved"),
            "{message}"
        );
    }
    // The blocks-per-key byte means something only for a combined plan.
    let mut bytes = Index::with_plan(Plan::multi_index(64, 9, 4).unwrap())
        .unwrap()
        .to_bytes();
    bytes.truncate(bytes.len() - 8);
    bytes[14] = 2;
    assert!(matches!(
        Index::from_bytes(&index_bytes::sealed(bytes)),
        Err(Error::MalformedIndexBytes { .. })
    ));
}
