//! `Index::from_bytes` on arbitrary bytes: never panics, and whatever it accepts is the
//! canonical encoding of what it loaded (`to_bytes` gives the same bytes back) and follows the
//! documented format of its version (docs/index.md: its length, and in version 3 the names
//! section, read here field by field), with every entry findable and every name resolving both
//! ways. A loaded index then takes a new name: its id is free and in the named range, and the
//! index still round-trips.
//!
//! Random bytes almost never get past the magic and the checksum, so the first input byte
//! picks how the buffer is made: raw; the rest with a correct checksum appended; or a header
//! built from fields (any values, right magic), entries from the rest, a count that matches
//! or not, and a correct checksum — so the field checks behind the checksum are fuzzed too.
//! Ids start at 0, around `FIRST_NAMED_ID` or end at `u64::MAX`; in the named mode a names
//! section follows, now and then with a fault the reader must refuse.
//! Each buffer is also loaded under a small memory limit (256 B to 128 MB, from the input):
//! what loads must fit it, and explicit plans of up to 256 tables are drawn so that small
//! inputs describe indexes far larger than themselves (in the hostile-input review of 0.1.0,
//! 2.4 MB described 508 MB).

use arbitrary::{Arbitrary, Unstructured};
use simprint::index::{FIRST_NAMED_ID, MAX_NAME_BYTES};
use simprint::Index;

const MAGIC: &[u8; 8] = b"SIMPIDX\0";

// The format's checksum, written out apart from the crate's (shared with its tests).
#[path = "../../tests/support/index_bytes.rs"]
pub mod format;
pub use format::sealed;

#[derive(Arbitrary, Debug)]
struct Header {
    version: u16,
    width: u8,
    k: u8,
    plan: u8,
    blocks: u8,
    reserved: u16,
    /// Its sign is added to the true count one time in eight.
    count_error: i8,
    /// Entry ids are made ascending by adding these steps (a 0 step repeats an id).
    ascending: bool,
    /// Where ids start: 0, 2 below or at `FIRST_NAMED_ID`, or so the last is `u64::MAX`.
    start: u8,
    /// Below 5: a fault in the names section (see `names_section`); 5: an empty name.
    names_fault: u8,
}

/// The memory limit the buffer is also loaded under, from the input's first byte.
fn limit(data: &[u8]) -> usize {
    1 << (8 + data.first().map_or(0, |b| b / 4) % 20)
}

pub fn buffer(data: &[u8]) -> Option<Vec<u8>> {
    let (&mode, rest) = data.split_first()?;
    match mode % 4 {
        0 => Some(rest.to_vec()),
        1 => Some(sealed(rest.to_vec())),
        _ => {
            let mut u = Unstructured::new(rest);
            let h = Header::arbitrary(&mut u).ok()?;
            // Mostly plausible fields: version 1 (2 for the plans only it holds), width
            // 1..=128, k up to the width, no reserved bits, plan 0..=4 (each field wrong one
            // time in eight).
            let pick = |raw: u8, good: u8| if raw.is_multiple_of(8) { raw } else { good };
            let width = pick(h.width, 1 + h.width % 128);
            let k = pick(h.k, h.k % (width.clamp(1, 25) + 1));
            let plan = pick(h.plan, h.plan % 5);
            // Mode 3 writes names for some entries: version 3, flag byte 15.
            let named = mode % 4 == 3;
            let good_version = if named {
                3
            } else if plan >= 3 {
                2
            } else {
                1
            };
            let version = if h.version % 8 == 0 {
                h.version
            } else {
                good_version
            };
            let blocks = match plan {
                // Up to 24 more blocks than k: at k = 2, 23 blocks make 253 tables.
                1 => pick(h.blocks, k.saturating_add(1 + h.blocks % 24)),
                3 => pick(h.blocks, 1 + h.blocks % 12),
                4 => pick(h.blocks, 2 + h.blocks % 10),
                _ => pick(h.blocks, 0),
            };
            // Byte 14 is blocks per key for a combined plan, else reserved.
            let key_blocks = if plan == 4 {
                1 + (h.reserved as u8) % blocks.max(1)
            } else {
                0
            };
            let reserved = if h.reserved % 8 == 0 {
                h.reserved
            } else {
                u16::from(key_blocks) | (u16::from(named) << 8)
            };
            let fp_bytes = if width <= 64 { 8 } else { 16 };
            let entries = u.take_rest();
            let n = entries.len() / (8 + fp_bytes);
            let off = if h.count_error % 8 == 0 {
                i64::from(h.count_error.signum())
            } else {
                0
            };
            let count = (n as i64 + off).max(0) as u64;
            let mut out = Vec::new();
            out.extend_from_slice(MAGIC);
            out.extend_from_slice(&version.to_le_bytes());
            out.extend_from_slice(&[width, k, plan, blocks]);
            out.extend_from_slice(&reserved.to_le_bytes());
            out.extend_from_slice(&count.to_le_bytes());
            let raw_ids: Vec<u64> = entries
                .chunks_exact(8 + fp_bytes)
                .map(|e| {
                    let mut raw = [0u8; 8];
                    raw.copy_from_slice(&e[..8]);
                    u64::from_le_bytes(raw)
                })
                .collect();
            // Ids relative to the start: small steps (repeats included), so neighbours and
            // repeats are common, or the raw values.
            let mut rel = 0u64;
            let rel_ids: Vec<u64> = raw_ids
                .iter()
                .map(|&raw| {
                    rel = if h.ascending {
                        rel.wrapping_add(raw % 4)
                    } else {
                        raw
                    };
                    rel
                })
                .collect();
            let base = match h.start % 4 {
                0 => 0,
                1 => FIRST_NAMED_ID - 2,
                2 => FIRST_NAMED_ID,
                _ => u64::MAX.wrapping_sub(rel_ids.last().copied().unwrap_or(0)),
            };
            let mut ids = Vec::new();
            for (e, (&raw, &rel)) in entries
                .chunks_exact(8 + fp_bytes)
                .zip(raw_ids.iter().zip(&rel_ids))
            {
                let id = base.wrapping_add(rel);
                out.extend_from_slice(&id.to_le_bytes());
                ids.push(id);
                let mut fp = e[8..].to_vec();
                // Mostly fingerprints that fit the width.
                if raw % 16 != 0 && width < 128 {
                    let mut v = [0u8; 16];
                    v[..fp_bytes].copy_from_slice(&fp);
                    let v = u128::from_le_bytes(v) & ((1u128 << width) - 1);
                    fp.copy_from_slice(&v.to_le_bytes()[..fp_bytes]);
                }
                out.extend_from_slice(&fp);
            }
            if named {
                names_section(&mut out, &ids, h.names_fault % 16);
            }
            Some(sealed(out))
        }
    }
}

/// Appends a names section naming every other id of `ids` by its decimal form; `fault` below 5
/// spoils it in one way the reader must refuse: the last name repeating the first, a named
/// id one past its entry's, ids in descending order, a name's length past the section (and
/// past [`MAX_NAME_BYTES`]), a name that is not UTF-8; 5 makes the first name empty (valid).
fn names_section(out: &mut Vec<u8>, ids: &[u64], fault: u8) {
    let mut chosen: Vec<u64> = ids.iter().copied().step_by(2).collect();
    if fault == 2 {
        chosen.reverse();
    }
    out.extend_from_slice(&(chosen.len() as u64).to_le_bytes());
    let last = chosen.len().saturating_sub(1);
    for (i, &id) in chosen.iter().enumerate() {
        let mut name = if fault == 0 && i == last && i > 0 {
            chosen[0]
        } else {
            id
        }
        .to_string()
        .into_bytes();
        if fault == 5 && i == 0 {
            name.clear();
        }
        if fault == 4 && i == last {
            name.push(0xff);
        }
        let id = if fault == 1 && i == last {
            id.wrapping_add(1)
        } else {
            id
        };
        let len = if fault == 3 && i == last {
            MAX_NAME_BYTES as u32 + 1
        } else {
            name.len() as u32
        };
        out.extend_from_slice(&id.to_le_bytes());
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&name);
    }
}

pub fn check(data: &[u8]) {
    if let Some(bytes) = buffer(data) {
        run_limited(&bytes, limit(data));
        run(&bytes);
    }
}

/// Loads `bytes` under a memory limit: refused with an error that names the limit, or loaded
/// into an index that fits it.
pub fn run_limited(bytes: &[u8], limit: usize) {
    match Index::from_bytes_limited(bytes, limit) {
        Ok(index) => assert!(
            index.memory_bytes() <= limit,
            "loaded into {} bytes under a limit of {limit}",
            index.memory_bytes()
        ),
        Err(e) => {
            let message = e.to_string();
            assert!(
                message.starts_with("index bytes: "),
                "unclear error: {message}"
            );
        }
    }
}

/// Loads `bytes`; on success checks the round trip and the entries. Public for the
/// regression tests.
pub fn run(bytes: &[u8]) {
    let index = match Index::from_bytes(bytes) {
        Ok(index) => index,
        Err(e) => {
            let message = e.to_string();
            assert!(
                message.starts_with("index bytes: "),
                "unclear error: {message}"
            );
            return;
        }
    };
    let again = index.to_bytes();
    assert_eq!(
        again, bytes,
        "accepted bytes that are not what to_bytes writes"
    );
    let entries = index.entries();
    assert_eq!(entries.len(), index.len());
    assert!(entries.windows(2).all(|w| w[0].0 < w[1].0));
    for &(id, fp) in entries.iter().take(64) {
        assert_eq!(index.get(id), Some(fp));
        let found = index.query_within(fp, 0).expect("width matches");
        assert!(
            found.iter().any(|m| m.id == id && m.distance == 0),
            "id {id} not found"
        );
    }
    check_format(bytes, &index);
    let reloaded = Index::from_bytes(&again).expect("to_bytes output loads");
    assert_eq!(reloaded.entries(), entries);
    add_a_name(index);
}

/// `bytes`, accepted as `index`, read field by field as the format documents them for their
/// version: header fields, entries, and in version 3 exactly the index's names, then the
/// checksum; no byte left over.
fn check_format(bytes: &[u8], index: &Index) {
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    let (plan_kind, names_flag) = (bytes[12], bytes[15]);
    assert_eq!(
        (u32::from(bytes[10]), u32::from(bytes[11])),
        (index.width(), index.k())
    );
    let entries = index.entries();
    let named: Vec<(u64, &str)> = entries
        .iter()
        .filter_map(|&(id, _)| index.name_of(id).map(|name| (id, name)))
        .collect();
    // The oldest version that holds the index: 3 with names, else 2 for the plans only it
    // knows, else 1.
    let want = if !named.is_empty() {
        3
    } else if plan_kind >= 3 {
        2
    } else {
        1
    };
    assert_eq!(version, want, "version {version} for plan kind {plan_kind}");
    assert_eq!(names_flag, u8::from(version == 3));
    assert_eq!(u64_at(16), entries.len() as u64);
    let fp_bytes = if index.width() <= 64 { 8 } else { 16 };
    let mut at = 24;
    for &(id, fp) in &entries {
        assert_eq!(u64_at(at), id);
        let mut v = [0u8; 16];
        v[..fp_bytes].copy_from_slice(&bytes[at + 8..at + 8 + fp_bytes]);
        assert_eq!(u128::from_le_bytes(v), fp.value());
        at += 8 + fp_bytes;
    }
    if version == 3 {
        assert_eq!(u64_at(at), named.len() as u64, "names count");
        at += 8;
        for &(id, name) in &named {
            assert_eq!(u64_at(at), id);
            assert!(id >= FIRST_NAMED_ID, "a name on id {id}");
            let len = u32::from_le_bytes(bytes[at + 8..at + 12].try_into().expect("4 bytes"));
            let len = len as usize;
            assert!(len <= MAX_NAME_BYTES);
            assert_eq!(&bytes[at + 12..at + 12 + len], name.as_bytes());
            assert_eq!(index.id_of(name), Some(id));
            assert_eq!(index.get_named(name), index.get(id));
            at += 12 + len;
        }
    }
    assert_eq!(at + 8, bytes.len(), "bytes past what the format holds");
}

/// A new name in the loaded index (a second outside review found that one on `u64::MAX` overflowed
/// the next name's id): its id is in the named range and used by no entry (so by no name: a loaded
/// index names only entries), and the index with it round-trips.
fn add_a_name(mut index: Index) {
    let before = index.entries();
    let mut name = String::from("new");
    while index.id_of(&name).is_some() {
        name.push('+');
    }
    let fp = before.first().map_or_else(
        || simprint::Fingerprint::new(0, index.width()).expect("0 fits"),
        |e| e.1,
    );
    let id = index.id_for_name(&name).expect("a short name");
    assert!(id >= FIRST_NAMED_ID, "new name got id {id}");
    assert!(index.get(id).is_none(), "new name got id {id}, in use");
    assert_eq!(index.insert_named(&name, fp), Ok(None));
    assert_eq!(index.id_of(&name), Some(id));
    assert_eq!(index.len(), before.len() + 1);
    let bytes = index.to_bytes();
    let loaded = Index::from_bytes(&bytes).expect("to_bytes output loads");
    assert_eq!(loaded.id_of(&name), Some(id));
    assert_eq!(loaded.entries(), index.entries());
    check_format(&bytes, &loaded);
}
