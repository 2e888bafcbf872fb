//! The exported keys scheme against the index: a store that files each fingerprint under its
//! key in every table (`Plan::keys`) and looks up a query's probe keys (`Plan::probe_keys`),
//! then checks distances, answers exactly what the index and a brute-force scan answer, for
//! every kind of plan. This is what the Worker's routing by key and the SQL example rely on.

use std::collections::{BTreeMap, HashMap};

use simprint::{Fingerprint, Index, Plan};

#[path = "support/brute.rs"]
mod brute;
#[path = "support/splitmix64.rs"]
mod splitmix64;
use splitmix64::SplitMix64 as Rng;

/// A fingerprint near `base`: up to `spread` random bits flipped.
fn near(rng: &mut Rng, base: u128, width: u32, spread: u64) -> u128 {
    let mut v = base;
    for _ in 0..rng.below(spread + 1) {
        v ^= 1u128 << rng.below(u64::from(width));
    }
    v
}

/// The tables as an exact-key store: (table, key) -> ids.
fn file(plan: &Plan, model: &BTreeMap<u64, u128>) -> HashMap<(usize, u128), Vec<u64>> {
    let mut tables: HashMap<(usize, u128), Vec<u64>> = HashMap::new();
    for (&id, &v) in model {
        let fp = Fingerprint::new(v, plan.width()).unwrap();
        for (t, key) in plan.keys(fp).into_iter().enumerate() {
            tables.entry((t, key)).or_default().push(id);
        }
    }
    tables
}

#[test]
fn probe_keys_find_exactly_what_the_index_finds() {
    let mut rng = Rng(17);
    let plans = [
        Plan::multi_index(64, 9, 4).unwrap(),
        Plan::multi_index(64, 9, 10).unwrap(), // k + 1 substrings: radius 0, one key per table
        Plan::multi_index(64, 12, 5).unwrap(),
        Plan::with_blocks(64, 3, 4).unwrap(),
        Plan::combined(64, 6, 6, 2).unwrap(),
        Plan::multi_index(128, 14, 8).unwrap(),
        Plan::multi_index(32, 4, 3).unwrap(),
    ];
    for plan in &plans {
        let (width, k) = (plan.width(), plan.k());
        let mask = u128::MAX >> (128 - width);
        // Clusters of near fingerprints, so that many are within k of each other.
        let mut model = BTreeMap::new();
        let mut bases = Vec::new();
        for id in 0..3000u64 {
            if bases.is_empty() || rng.below(8) == 0 {
                bases.push(u128::from(rng.next()) << 64 | u128::from(rng.next()));
            }
            let base = bases[rng.below(bases.len() as u64) as usize] & mask;
            model.insert(id, near(&mut rng, base, width, u64::from(k) + 3) & mask);
        }
        let tables = file(plan, &model);
        let mut index = Index::with_plan(plan.clone()).unwrap();
        for (&id, &v) in &model {
            index
                .insert(id, Fingerprint::new(v, width).unwrap())
                .unwrap();
        }
        for q in 0..200u64 {
            let base = *model.get(&rng.below(3000)).unwrap();
            let qv = if q % 2 == 0 {
                near(&mut rng, base, width, u64::from(k) + 2) & mask
            } else {
                base
            };
            let fp = Fingerprint::new(qv, width).unwrap();
            let mut found: Vec<u64> = Vec::new();
            plan.for_each_probe_key(fp, |t, key| {
                if let Some(ids) = tables.get(&(t, key)) {
                    found.extend(ids.iter().filter(|id| (model[id] ^ qv).count_ones() <= k));
                }
            })
            .unwrap();
            found.sort_unstable();
            found.dedup();
            let mut want: Vec<u64> = brute::brute_query(&model, qv, k)
                .iter()
                .map(|m| m.id)
                .collect();
            want.sort_unstable();
            assert_eq!(found, want, "{plan:?}, query {qv:#x}");
            let mut from_index: Vec<u64> = index.query(fp).unwrap().iter().map(|m| m.id).collect();
            from_index.sort_unstable();
            assert_eq!(from_index, want);
        }
    }
}

#[test]
fn the_keys_scheme_is_blocks_concatenated_first_highest() {
    // Combined plan of 4 blocks of 4 bits at 16 bits, keys of 2 blocks: table 0 is blocks
    // {0, 1}, table 1 {0, 2}, ..., table 5 {2, 3}.
    let plan = Plan::combined(16, 3, 4, 2).unwrap();
    let fp = Fingerprint::new(0x1234, 16).unwrap();
    assert_eq!(plan.keys(fp), [0x12, 0x13, 0x14, 0x23, 0x24, 0x34]);
    let by_table = plan.probe_keys_by_table(fp).unwrap();
    for (t, keys) in by_table.iter().enumerate() {
        assert_eq!(keys[0], plan.keys(fp)[t]);
        let radius = plan.tables()[t].radius;
        assert!(keys.iter().all(|k| (k ^ keys[0]).count_ones() <= radius));
        assert_eq!(keys.len() as u64, plan.probe_counts()[t]);
    }
}
