//! The index byte format's checksum, written out from its documented definition (SipHash-1-3
//! with the all-zero key over every byte before it), kept apart from the crate's own so a test
//! of the format does not trust the code it tests. Shared by tests/regressions.rs,
//! tests/index.rs and the fuzz crate, which build buffers that get past the checksum.
#![allow(dead_code)]

/// A sealed buffer of an index of `width`-bit fingerprints (1 to 64) at `k` with an automatic
/// plan, holding `entries` (ids ascending) and, when `names` is not empty, a version 3 names
/// section of them (ids ascending); written field by field from the documented format
/// (docs/index.md), so it can say what no writer would.
pub fn index_bytes(width: u8, k: u8, entries: &[(u64, u64)], names: &[(u64, &str)]) -> Vec<u8> {
    let version: u16 = if names.is_empty() { 1 } else { 3 };
    let mut body = b"SIMPIDX\0".to_vec();
    body.extend_from_slice(&version.to_le_bytes());
    body.extend_from_slice(&[width, k, 0, 0, 0, u8::from(version == 3)]);
    body.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for &(id, fp) in entries {
        body.extend_from_slice(&id.to_le_bytes());
        body.extend_from_slice(&fp.to_le_bytes());
    }
    if !names.is_empty() {
        body.extend_from_slice(&(names.len() as u64).to_le_bytes());
        for &(id, name) in names {
            body.extend_from_slice(&id.to_le_bytes());
            body.extend_from_slice(&(name.len() as u32).to_le_bytes());
            body.extend_from_slice(name.as_bytes());
        }
    }
    sealed(body)
}

/// `body` followed by its checksum.
pub fn sealed(mut body: Vec<u8>) -> Vec<u8> {
    let sum = sip13_zero_key(&body);
    body.extend_from_slice(&sum.to_le_bytes());
    body
}

/// SipHash-1-3 with the all-zero key.
pub fn sip13_zero_key(bytes: &[u8]) -> u64 {
    let (mut v0, mut v1, mut v2, mut v3) = (
        0x736f_6d65_7073_6575_u64,
        0x646f_7261_6e64_6f6d_u64,
        0x6c79_6765_6e65_7261_u64,
        0x7465_6462_7974_6573_u64,
    );
    let round = |v0: &mut u64, v1: &mut u64, v2: &mut u64, v3: &mut u64| {
        *v0 = v0.wrapping_add(*v1);
        *v1 = v1.rotate_left(13) ^ *v0;
        *v0 = v0.rotate_left(32);
        *v2 = v2.wrapping_add(*v3);
        *v3 = v3.rotate_left(16) ^ *v2;
        *v0 = v0.wrapping_add(*v3);
        *v3 = v3.rotate_left(21) ^ *v0;
        *v2 = v2.wrapping_add(*v1);
        *v1 = v1.rotate_left(17) ^ *v2;
        *v2 = v2.rotate_left(32);
    };
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let m = u64::from_le_bytes(c.try_into().unwrap());
        v3 ^= m;
        round(&mut v0, &mut v1, &mut v2, &mut v3);
        v0 ^= m;
    }
    let mut last = [0u8; 8];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    last[7] = bytes.len() as u8;
    let m = u64::from_le_bytes(last);
    v3 ^= m;
    round(&mut v0, &mut v1, &mut v2, &mut v3);
    v0 ^= m;
    v2 ^= 0xff;
    for _ in 0..3 {
        round(&mut v0, &mut v1, &mut v2, &mut v3);
    }
    v0 ^ v1 ^ v2 ^ v3
}
