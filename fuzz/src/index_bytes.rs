//! `Index::from_bytes` on arbitrary bytes: never panics, and whatever it accepts is the
//! canonical encoding of what it loaded (`to_bytes` gives the same bytes back), with every
//! entry findable.
//!
//! Random bytes almost never get past the magic and the checksum, so the first input byte
//! picks how the buffer is made: raw; the rest with a correct checksum appended; or a header
//! built from fields (any values, right magic), entries from the rest, a count that matches
//! or not, and a correct checksum — so the field checks behind the checksum are fuzzed too.
//! Each buffer is also loaded under a small memory limit (256 B to 128 MB, from the input):
//! what loads must fit it, and explicit plans of up to 256 tables are drawn so that small
//! inputs describe indexes far larger than themselves (issue 12: 2.4 MB described 508 MB).

use arbitrary::{Arbitrary, Unstructured};
use simprint::Index;

const MAGIC: &[u8; 8] = b"SIMPIDX\0";

// The format's checksum, written out apart from the crate's (shared with its tests).
#[path = "../../tests/support/index_bytes.rs"]
mod format;
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
}

/// The memory limit the buffer is also loaded under, from the input's first byte.
fn limit(data: &[u8]) -> usize {
    1 << (8 + data.first().map_or(0, |b| b / 4) % 20)
}

fn buffer(data: &[u8]) -> Option<Vec<u8>> {
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
            let pick = |raw: u8, good: u8| if raw % 8 == 0 { raw } else { good };
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
            let mut id = 0u64;
            let mut ids = Vec::new();
            for e in entries.chunks_exact(8 + fp_bytes) {
                let mut raw = [0u8; 8];
                raw.copy_from_slice(&e[..8]);
                let raw = u64::from_le_bytes(raw);
                if h.ascending {
                    // Small steps (repeats included), so neighbours and repeats are common.
                    id = id.wrapping_add(raw % 4);
                } else {
                    id = raw;
                }
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
                // Every other entry named by its id in decimal; one time in eight the last
                // name repeats the first (a duplicate the reader must refuse).
                let chosen: Vec<u64> = ids.iter().copied().step_by(2).collect();
                out.extend_from_slice(&(chosen.len() as u64).to_le_bytes());
                for (i, &id) in chosen.iter().enumerate() {
                    let repeat = i + 1 == chosen.len() && i > 0 && h.count_error % 8 == 1;
                    let name = if repeat { chosen[0] } else { id }.to_string();
                    out.extend_from_slice(&id.to_le_bytes());
                    out.extend_from_slice(&(name.len() as u32).to_le_bytes());
                    out.extend_from_slice(name.as_bytes());
                }
            }
            Some(sealed(out))
        }
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
    let fp_bytes = if index.width() <= 64 { 8 } else { 16 };
    assert_eq!(bytes.len(), 24 + entries.len() * (8 + fp_bytes) + 8);
    for &(id, fp) in entries.iter().take(64) {
        assert_eq!(index.get(id), Some(fp));
        let found = index.query_within(fp, 0).expect("width matches");
        assert!(
            found.iter().any(|m| m.id == id && m.distance == 0),
            "id {id} not found"
        );
    }
    let reloaded = Index::from_bytes(&again).expect("to_bytes output loads");
    assert_eq!(reloaded.entries(), entries);
}
