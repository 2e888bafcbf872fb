//! The brute-force oracle every index answer is checked against: a scan of a model of what
//! is stored. Shared by the property tests (tests/index.rs, tests/regressions.rs) and the fuzz
//! crate (fuzz/src/index_ops.rs), which include this file by path.
#![allow(dead_code)]

use std::collections::BTreeMap;

use simprint::{Candidate, Hit, Match, Pair};

/// Every stored `(id, value)` within `k` of `q`, by distance, then id.
pub fn brute_query(model: &BTreeMap<u64, u128>, q: u128, k: u32) -> Vec<Match> {
    let mut out: Vec<Match> = model
        .iter()
        .map(|(&id, &v)| Match {
            id,
            distance: (v ^ q).count_ones(),
        })
        .filter(|m| m.distance <= k)
        .collect();
    out.sort_by_key(|m| (m.distance, m.id));
    out
}

/// Every pair of `entries` (distinct ids) within `k`, `a < b`, by distance, then ids.
pub fn brute_pairs(entries: &[(u64, u128)], k: u32) -> Vec<Pair> {
    let mut out = Vec::new();
    for (i, &(a, va)) in entries.iter().enumerate() {
        for &(b, vb) in &entries[i + 1..] {
            let distance = (va ^ vb).count_ones();
            if distance <= k {
                out.push(Pair {
                    a: a.min(b),
                    b: a.max(b),
                    distance,
                });
            }
        }
    }
    out.sort_by_key(|p| (p.distance, p.a, p.b));
    out
}

/// [`brute_pairs`] of a model.
pub fn brute_pairs_of(model: &BTreeMap<u64, u128>, k: u32) -> Vec<Pair> {
    let entries: Vec<(u64, u128)> = model.iter().map(|(&a, &b)| (a, b)).collect();
    brute_pairs(&entries, k)
}

/// The connected components of `pairs`: each sorted, by first id; ids with no pair left out.
pub fn brute_clusters(pairs: &[Pair]) -> Vec<Vec<u64>> {
    // A plain union-find over the ids.
    fn root(parent: &mut BTreeMap<u64, u64>, x: u64) -> u64 {
        let mut r = x;
        while let Some(&p) = parent.get(&r).filter(|&&p| p != r) {
            r = p;
        }
        parent.insert(x, r);
        r
    }
    let mut parent: BTreeMap<u64, u64> = BTreeMap::new();
    for p in pairs {
        parent.entry(p.a).or_insert(p.a);
        parent.entry(p.b).or_insert(p.b);
        let (ra, rb) = (root(&mut parent, p.a), root(&mut parent, p.b));
        parent.insert(ra.max(rb), ra.min(rb));
    }
    let ids: Vec<u64> = parent.keys().copied().collect();
    let mut groups: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for id in ids {
        let r = root(&mut parent, id);
        groups.entry(r).or_default().push(id);
    }
    let mut out: Vec<Vec<u64>> = groups.into_values().collect();
    for g in &mut out {
        g.sort_unstable();
    }
    out.sort_by_key(|g| g[0]);
    out
}

/// Every position of `distances` within `k`, by distance, then position: what a scan returns.
pub fn brute_hits(distances: impl Iterator<Item = u32>, k: u32) -> Vec<Hit> {
    let mut hits: Vec<Hit> = distances
        .enumerate()
        .map(|(index, distance)| Hit { index, distance })
        .filter(|h| h.distance <= k)
        .collect();
    hits.sort_by_key(|h| (h.distance, h.index));
    hits
}

/// `n` values at every distance from `q`: each flips a pseudo-random `0..=width` bits of the
/// low `width` (xorshift from `seed`, so the same seed gives the same values everywhere).
pub fn near(q: u128, width: u32, n: usize, seed: u64) -> Vec<u128> {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..n)
        .map(|_| {
            let flips = next() % (u64::from(width) + 1);
            (0..flips).fold(q, |v, _| v ^ 1 << (next() % u64::from(width)))
        })
        .collect()
}

/// What a query answers, from the candidates `explain_query` examined: the accepted ones, by
/// distance, then id, each id once (several tables may have found it).
pub fn accepted(candidates: &[Candidate]) -> Vec<Match> {
    let mut out: Vec<Match> = candidates
        .iter()
        .filter(|c| c.accepted)
        .map(|c| Match {
            id: c.id,
            distance: c.distance,
        })
        .collect();
    out.sort_by_key(|m| (m.distance, m.id));
    out.dedup();
    out
}
