//! Random operation sequences on the index against a brute-force model (a `BTreeMap` from id
//! to fingerprint): insert, insert_many, remove, get, query, query_within, query_limited,
//! explain_query, pairs, clusters, compact, clear and a to_bytes/from_bytes round trip. Every
//! answer must equal the model's.
//!
//! Names too (a second map, name to id): insert_named, remove_named, get_named, id_for_name,
//! name_of and id_of, with numeric ids drawn where names' ids start so the two meet, and round
//! trips through format version 3. The model does not say which id a new name gets, only that
//! it is in the named range and used by no entry and no other name.
//!
//! Fingerprints are drawn near a few random centres (a few bits flipped), so queries and pairs
//! find things; bulk operations make enough entries to build segments (the insert buffer
//! holds 256), merge them, and rebuild mostly-dead ones.

use std::collections::BTreeMap;

use arbitrary::{Arbitrary, Unstructured};
use simprint::index::{FIRST_NAMED_ID, MAX_NAME_BYTES};
use simprint::test_hooks::limit_kernels;
use simprint::{Error, Fingerprint, Index, Kernels, Plan};

// The oracle the crate's own property tests use.
#[path = "../../tests/support/brute.rs"]
mod brute;
use brute::{accepted, brute_clusters, brute_pairs_of as brute_pairs, brute_query};

/// Largest model size; keeps brute-force pairs affordable per input.
const MAX_ENTRIES: usize = 3000;

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Id(pub u16);

impl Id {
    pub fn get(self) -> u64 {
        // Mostly a small range (so ids repeat), sometimes near u64::MAX or where names' ids
        // start (so numbers land on named entries and new names must skip them).
        match self.0 {
            0xfff0.. => u64::MAX - u64::from(self.0 & 0xf),
            0xffe0.. => FIRST_NAMED_ID + u64::from(self.0 & 0xf),
            _ => u64::from(self.0 % 2048),
        }
    }
}

/// A name: mostly one of 16 short ones (so names repeat), sometimes empty, CJK, or one byte
/// too long (which must be refused, changing nothing).
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Name(pub u8);

impl Name {
    pub fn get(self) -> String {
        match self.0 {
            255 => "x".repeat(MAX_NAME_BYTES + 1),
            254 => String::new(),
            253 => String::from("名前"),
            n => format!("n{}", n % 16),
        }
    }
}

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fp {
    /// Centre `centre % 8` with bits `flips` (each taken modulo the width) flipped.
    Near {
        centre: u8,
        flips: [u8; 3],
        count: u8,
    },
    Raw(u128),
}

#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub enum Op {
    Insert(Id, Fp),
    InsertMany(Vec<(Id, Fp)>),
    /// `count % 700` entries with ids from `start`, fingerprints near the centres.
    InsertRange {
        start: u16,
        count: u16,
        seed: u64,
    },
    Remove(Id),
    /// Removes ids `start .. start + count % 700`.
    RemoveRange {
        start: u16,
        count: u16,
    },
    Get(Id),
    Query(Fp, Option<u8>),
    ExplainQuery(Fp, Option<u8>),
    Pairs(Option<u8>),
    Clusters(Option<u8>),
    Compact,
    RoundTrip,
    Clear,
    InsertNamed(Name, Fp),
    RemoveNamed(Name),
    GetNamed(Name),
    /// A name's id without an entry (for a bulk insert that may never come).
    IdForName(Name),
}

#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    pub width: u8,
    pub k: u8,
    /// `plan % 5` — 0: automatic plan; 1: explicit permuted `blocks`; 2: scan; 3: multi-index
    /// with `1 + blocks % 9` substrings; 4: combined (blocks and blocks per key from `blocks`).
    /// `plan / 5 % 4` caps the kernel level for the run ([`Level`]), so the AVX2, POPCNT and
    /// portable kernels (and the plans their prices choose) are fuzzed on a CPU with more.
    pub plan: u8,
    pub blocks: u8,
    pub seed: u64,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn mask(width: u32) -> u128 {
    if width == 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

struct World {
    width: u32,
    centres: [u128; 8],
}

impl World {
    fn value(&self, fp: Fp) -> u128 {
        match fp {
            Fp::Near {
                centre,
                flips,
                count,
            } => {
                let mut v = self.centres[usize::from(centre % 8)];
                for &f in flips.iter().take(usize::from(count % 4)) {
                    v ^= 1u128 << (u32::from(f) % self.width);
                }
                v
            }
            Fp::Raw(v) => v & mask(self.width),
        }
    }

    fn fp(&self, fp: Fp) -> Fingerprint {
        Fingerprint::new(self.value(fp), self.width).expect("fits the width")
    }

    fn random_near(&self, state: &mut u64) -> u128 {
        let r = splitmix(state);
        let mut v = self.centres[(r % 8) as usize];
        for i in 0..(r >> 3) % 5 {
            v ^= 1u128 << ((r >> (8 + 8 * i)) as u32 % self.width);
        }
        v
    }
}

fn distance(a: u128, b: u128) -> u32 {
    (a ^ b).count_ones()
}

pub fn check(data: &[u8]) {
    if let Some((setup, ops)) = decode(data) {
        run(&setup, &ops);
    }
}

/// The setup and operations an input describes.
pub fn decode(data: &[u8]) -> Option<(Setup, Vec<Op>)> {
    let mut u = Unstructured::new(data);
    let setup = Setup::arbitrary(&mut u).ok()?;
    let mut ops = Vec::new();
    while !u.is_empty() {
        match Op::arbitrary(&mut u) {
            Ok(op) => ops.push(op),
            Err(_) => break,
        }
    }
    Some((setup, ops))
}

/// The kernel level an input runs at, restored when dropped: 0 the best this CPU has, then
/// AVX2, POPCNT and the portable kernels (each at most what the CPU has). Inputs saved before
/// the cap existed have `plan` below 5 and keep running at the best level.
struct Level(Kernels);

impl Level {
    fn cap(choice: u8) -> Level {
        let best = limit_kernels(Kernels::Avx512);
        let max = match choice % 4 {
            0 => Kernels::Avx512,
            1 => Kernels::Avx2,
            2 => Kernels::Popcnt,
            _ => Kernels::Portable,
        };
        limit_kernels(max);
        Level(best)
    }
}

impl Drop for Level {
    fn drop(&mut self) {
        limit_kernels(self.0);
    }
}

/// Builds the index `setup` describes and runs `ops` on it and on the model.
pub fn run(setup: &Setup, ops: &[Op]) {
    let _level = Level::cap(setup.plan / 5);
    // Widths 64 and 128 (the two engines at full width) most often, any width otherwise.
    let width = match setup.width % 4 {
        0 => 64,
        1 => 128,
        _ => 1 + u32::from(setup.width) % 128,
    };
    // k up to 24: the multi-index and combined plans probe within radii from there down.
    let k = u32::from(setup.k) % (width.min(24) + 1);
    let blocks = u32::from(setup.blocks);
    let plan = match setup.plan % 5 {
        1 => Plan::with_blocks(width, k, blocks).ok(),
        2 => Plan::scan(width, k).ok(),
        3 => Plan::multi_index(width, k, 1 + blocks % 9).ok(),
        4 => Plan::combined(
            width,
            k,
            2 + blocks % 7,
            1 + (blocks / 7) % (2 + blocks % 7),
        )
        .ok(),
        _ => None,
    };
    let mut index = match plan {
        Some(plan) => Index::with_plan(plan).expect("a valid plan"),
        None => Index::new(width, k).expect("valid width and k"),
    };
    let mut state = setup.seed;
    let centres = core::array::from_fn(|_| {
        let hi = splitmix(&mut state);
        let lo = splitmix(&mut state);
        ((u128::from(hi) << 64) | u128::from(lo)) & mask(width)
    });
    let world = World { width, centres };
    let mut model: BTreeMap<u64, u128> = BTreeMap::new();
    // Every name the index knows (given by insert_named or id_for_name), with its id; and
    // every id that ever had a name, whose name_of must follow the model's.
    let mut names: BTreeMap<String, u64> = BTreeMap::new();
    let mut ever_named = std::collections::BTreeSet::new();
    // Brute-force pairs cost n²: at most a few per input.
    let mut pair_budget = 4;
    // A k of the caller's: any from 0 to the width, or one above it (which must be refused).
    let k_of = |k: u8| u32::from(k) % (width + 2);

    for op in ops {
        match op.clone() {
            Op::Insert(id, fp) => {
                if model.len() >= MAX_ENTRIES {
                    continue;
                }
                let v = world.value(fp);
                let old = index.insert(id.get(), world.fp(fp)).expect("width matches");
                assert_eq!(
                    old.map(|f| f.value()),
                    model.insert(id.get(), v),
                    "insert {op:?}"
                );
            }
            Op::InsertMany(items) => {
                if model.len() + items.len() > MAX_ENTRIES {
                    continue;
                }
                index
                    .insert_many(items.iter().map(|&(id, fp)| (id.get(), world.fp(fp))))
                    .expect("widths match");
                for &(id, fp) in &items {
                    model.insert(id.get(), world.value(fp));
                }
            }
            Op::InsertRange { start, count, seed } => {
                let count = usize::from(count % 700);
                if model.len() + count > MAX_ENTRIES {
                    continue;
                }
                let mut s = seed;
                let items: Vec<(u64, u128)> = (0..count)
                    .map(|i| (u64::from(start) + i as u64, world.random_near(&mut s)))
                    .collect();
                index
                    .insert_many(
                        items
                            .iter()
                            .map(|&(id, v)| (id, Fingerprint::new(v, width).expect("fits"))),
                    )
                    .expect("widths match");
                model.extend(items);
            }
            Op::Remove(id) => {
                let old = index.remove(id.get()).map(|f| f.value());
                assert_eq!(
                    old,
                    remove(&mut model, &mut names, id.get()),
                    "remove {op:?}"
                );
            }
            Op::RemoveRange { start, count } => {
                for id in u64::from(start)..u64::from(start) + u64::from(count % 700) {
                    let old = index.remove(id).map(|f| f.value());
                    assert_eq!(old, remove(&mut model, &mut names, id), "remove {id}");
                }
            }
            Op::InsertNamed(name, fp) => {
                let name = name.get();
                if model.len() >= MAX_ENTRIES {
                    continue;
                }
                let before = names.get(&name).copied();
                match index.insert_named(&name, world.fp(fp)) {
                    Ok(old) => {
                        let id = index.id_of(&name).expect("stored by name");
                        check_name_id(&model, &names, &name, id, before);
                        names.insert(name, id);
                        let v = world.value(fp);
                        assert_eq!(old.map(|f| f.value()), model.insert(id, v), "{op:?}");
                    }
                    Err(e) => refused(&name, &e),
                }
            }
            Op::IdForName(name) => {
                let name = name.get();
                match index.id_for_name(&name) {
                    Ok(id) => {
                        check_name_id(&model, &names, &name, id, names.get(&name).copied());
                        names.insert(name, id);
                    }
                    Err(e) => refused(&name, &e),
                }
            }
            Op::RemoveNamed(name) => {
                let name = name.get();
                let want = names.remove(&name).and_then(|id| model.remove(&id));
                let old = index.remove_named(&name).map(|f| f.value());
                assert_eq!(old, want, "{op:?}");
            }
            Op::GetNamed(name) => {
                let name = name.get();
                let want = names.get(&name).and_then(|id| model.get(id)).copied();
                assert_eq!(index.get_named(&name).map(|f| f.value()), want, "{op:?}");
            }
            Op::Get(id) => {
                assert_eq!(
                    index.get(id.get()).map(|f| f.value()),
                    model.get(&id.get()).copied()
                );
            }
            Op::Query(fp, k) => {
                let q = world.fp(fp);
                let (got, kk) = match k.map(k_of) {
                    None => (index.query(q).expect("width matches"), index.k()),
                    Some(kk) => match index.query_within(q, kk) {
                        Ok(got) => (got, kk),
                        Err(_) => {
                            assert!(kk > width, "query_within refused k = {kk} <= {width}");
                            continue;
                        }
                    },
                };
                assert_eq!(got, brute_query(&model, q.value(), kk), "query {op:?}");
                // A limited query is the same answer cut short (limits derived from it, so the
                // input format stays as it is).
                for limit in [
                    0,
                    1,
                    got.len() / 2,
                    got.len().saturating_sub(1),
                    got.len() + 1,
                ] {
                    let cut = index
                        .query_limited(q, kk, limit)
                        .expect("k was accepted above");
                    assert_eq!(
                        cut,
                        got[..limit.min(got.len())],
                        "query_limited {limit} {op:?}"
                    );
                }
            }
            Op::ExplainQuery(fp, k) => {
                let q = world.fp(fp);
                let kk = k.map_or(index.k(), k_of);
                let Ok(seen) = index.explain_query(q, kk) else {
                    assert!(kk > width, "explain_query refused k = {kk}");
                    continue;
                };
                for c in &seen {
                    assert_eq!(
                        model.get(&c.id).map(|&v| distance(v, q.value())),
                        Some(c.distance)
                    );
                    assert_eq!(c.accepted, c.distance <= kk);
                }
                assert_eq!(
                    accepted(&seen),
                    brute_query(&model, q.value(), kk),
                    "explain {op:?}"
                );
            }
            Op::Pairs(k) | Op::Clusters(k) => {
                let kk = k.map_or(index.k(), k_of);
                // Brute force is quadratic, and a large k over many entries is mostly pairs.
                if pair_budget == 0 || (model.len() > 1000 && kk > index.k() + 4) {
                    continue;
                }
                pair_budget -= 1;
                let want = brute_pairs(&model, kk);
                if matches!(op, Op::Pairs(_)) {
                    match index.pairs_within(kk) {
                        Ok(got) => assert_eq!(got, want, "pairs {op:?}"),
                        Err(_) => assert!(kk > width),
                    }
                    if k.is_none() {
                        assert_eq!(index.pairs().expect("index k"), want);
                    }
                    // The first few by the same order, held in memory for that many.
                    if kk <= width {
                        let few = want.len() / 2 + 1;
                        let got = index.pairs_limited(kk, few).expect("k within width");
                        assert_eq!(got, want[..few.min(want.len())], "limited {op:?}");
                    }
                } else {
                    match index.clusters_within(kk) {
                        Ok(got) => assert_eq!(got, brute_clusters(&want), "clusters {op:?}"),
                        Err(_) => assert!(kk > width),
                    }
                }
            }
            Op::Compact => index.compact().expect("memory to compact"),
            Op::RoundTrip => {
                let bytes = index.to_bytes();
                let loaded = Index::from_bytes(&bytes).expect("to_bytes output loads");
                assert_eq!(loaded.to_bytes(), bytes);
                assert_eq!((loaded.width(), loaded.k()), (index.width(), index.k()));
                assert_eq!(
                    loaded.plan(),
                    index.plan(),
                    "the plan survives the round trip"
                );
                // Bytes keep the names of stored entries only.
                names.retain(|_, id| model.contains_key(id));
                index = loaded;
            }
            Op::Clear => {
                index.clear();
                model.clear();
                names.clear();
            }
        }
        assert_eq!(index.len(), model.len(), "len after {op:?}");
        for (name, &id) in &names {
            ever_named.insert(id);
            let stored = model.contains_key(&id).then_some(id);
            assert_eq!(index.id_of(name), stored, "after {op:?}");
        }
        for &id in &ever_named {
            let want = names.iter().find(|e| *e.1 == id).map(|e| e.0.as_str());
            assert_eq!(index.name_of(id), want, "name of {id} after {op:?}");
        }
    }
    // No entry has a name the model does not know.
    let named = names
        .values()
        .copied()
        .collect::<std::collections::BTreeSet<u64>>();
    for &id in model.keys() {
        assert_eq!(
            index.name_of(id).is_some(),
            named.contains(&id),
            "name of {id}"
        );
    }
    let entries: Vec<(u64, u128)> = index
        .entries()
        .iter()
        .map(|(id, f)| (*id, f.value()))
        .collect();
    assert_eq!(entries, model.into_iter().collect::<Vec<_>>());
}

/// A numeric remove: the entry goes, and with it its name, if it has one.
fn remove(
    model: &mut BTreeMap<u64, u128>,
    names: &mut BTreeMap<String, u64>,
    id: u64,
) -> Option<u128> {
    let old = model.remove(&id);
    if old.is_some() {
        names.retain(|_, named| *named != id);
    }
    old
}

/// The id `name` got: the one it had, or a new one in the named range that no entry and no
/// other name uses.
fn check_name_id(
    model: &BTreeMap<u64, u128>,
    names: &BTreeMap<String, u64>,
    name: &str,
    id: u64,
    before: Option<u64>,
) {
    if let Some(had) = before {
        assert_eq!(id, had, "{name:?} changed id");
        return;
    }
    assert!(
        id >= FIRST_NAMED_ID,
        "{name:?} got id {id}, below the named range"
    );
    assert!(!model.contains_key(&id), "{name:?} got id {id}, an entry's");
    assert!(
        names.values().all(|&other| other != id),
        "{name:?} got id {id}, another name's"
    );
}

/// A name the index refused: only one too long.
fn refused(name: &str, e: &Error) {
    assert!(
        name.len() > MAX_NAME_BYTES && matches!(e, Error::NameTooLong { .. }),
        "{} bytes refused: {e}",
        name.len()
    );
}
