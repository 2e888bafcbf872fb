//! One-shot SipHash-1-3 with a 64-bit output, for hashing one feature that lies inside a
//! larger buffer (a word inside the text).
//!
//! The `siphasher` crate computes the same function; this kernel exists for speed only. A
//! feature's last partial 8-byte block is loaded as one 8-byte word from the surrounding
//! buffer and masked, instead of being assembled from 4-, 2- and 1-byte loads chosen by its
//! length: English words have every length from 1 to 12, so those choices were branch
//! mispredictions on most words (hashing the handbook's words took 2.3× as long). Tests check
//! it against `siphasher` on every length, start and key drawn.

/// One SipRound on the state `v`.
#[inline(always)]
fn round(v: &mut [u64; 4]) {
    v[0] = v[0].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(13) ^ v[0];
    v[0] = v[0].rotate_left(32);
    v[2] = v[2].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(16) ^ v[2];
    v[0] = v[0].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(21) ^ v[0];
    v[2] = v[2].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(17) ^ v[2];
    v[2] = v[2].rotate_left(32);
}

/// The little-endian 8-byte word at `buf[at..at + 8]`.
#[inline(always)]
fn load(buf: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&buf[at..at + 8]);
    u64::from_le_bytes(word)
}

/// SipHash-1-3 under the key `(k0, k1)` of `buf[start..start + len]`; bytes of `buf` around
/// that range may be read but do not change the value.
///
/// # Panics
///
/// If the range is not inside `buf` (a caller bug: callers pass ranges they took from `buf`).
#[inline(always)]
pub(crate) fn hash(k0: u64, k1: u64, buf: &[u8], start: usize, len: usize) -> u64 {
    let mut v = self::start(k0, k1);
    let end = start + len;
    let whole_end = start + (len & !7);
    let mut at = start;
    while at < whole_end {
        let m = load(buf, at);
        v[3] ^= m;
        round(&mut v);
        v[0] ^= m;
        at += 8;
    }
    let left = end - at;
    let tail = if at + 8 <= buf.len() {
        // `left` is below 8, so the mask keeps exactly the message's bytes (none when 0).
        load(buf, at) & ((1u64 << (8 * left)) - 1)
    } else {
        tail_near_end(buf, at, end)
    };
    finish(v, len, tail)
}

/// The state SipHash starts from under the key `(k0, k1)`.
#[inline(always)]
fn start(k0: u64, k1: u64) -> [u64; 4] {
    [
        k0 ^ 0x736f_6d65_7073_6575,
        k1 ^ 0x646f_7261_6e64_6f6d,
        k0 ^ 0x6c79_6765_6e65_7261,
        k1 ^ 0x7465_6462_7974_6573,
    ]
}

/// The last block (`tail`: the message's last `len % 8` bytes, little-endian) and
/// finalization.
#[inline(always)]
fn finish(mut v: [u64; 4], len: usize, tail: u64) -> u64 {
    let b = ((len as u64) << 56) | tail;
    v[3] ^= b;
    round(&mut v);
    v[0] ^= b;
    v[2] ^= 0xff;
    round(&mut v);
    round(&mut v);
    round(&mut v);
    v[0] ^ v[1] ^ v[2] ^ v[3]
}

/// SipHash-1-3 under the key `(k0, k1)` of a message of `len` bytes, `len` below 8, given as
/// one little-endian word (`word`, its bytes past `len` zero): a CJK bigram already loaded.
#[inline(always)]
pub(crate) fn hash_short(k0: u64, k1: u64, len: usize, word: u64) -> u64 {
    debug_assert!(len < 8 && (len == 0 || word >> (8 * len) == 0));
    finish(start(k0, k1), len, word)
}

/// The six bytes `buf[at..at + 6]` as a little-endian word, if eight bytes can be read there.
#[inline(always)]
pub(crate) fn six_bytes_at(buf: &[u8], at: usize) -> Option<u64> {
    (at + 8 <= buf.len()).then(|| load(buf, at) & 0xFFFF_FFFF_FFFF)
}

/// The last partial block `buf[at..end]` (fewer than 8 bytes) when fewer than 8 bytes of
/// `buf` follow `at`: the 8 bytes ending at `end` shifted down if `buf` has them before
/// `end`, else byte by byte.
#[cold]
fn tail_near_end(buf: &[u8], at: usize, end: usize) -> u64 {
    let left = end - at;
    if left == 0 {
        return 0;
    }
    if end >= 8 {
        return load(buf, end - 8) >> (8 * (8 - left));
    }
    buf[at..end]
        .iter()
        .rev()
        .fold(0, |tail, &b| (tail << 8) | u64::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use core::hash::Hasher as _;
    use siphasher::sip::SipHasher13;

    fn reference(k0: u64, k1: u64, bytes: &[u8]) -> u64 {
        let mut s = SipHasher13::new_with_keys(k0, k1);
        s.write(bytes);
        s.finish()
    }

    #[test]
    fn every_range_of_a_buffer() {
        let buf: Vec<u8> = (0..40u32).map(|i| (i * 37 + 11) as u8).collect();
        for size in 0..=buf.len() {
            let buf = &buf[..size];
            for start in 0..=size {
                for end in start..=size {
                    assert_eq!(
                        hash(1, 2, buf, start, end - start),
                        reference(1, 2, &buf[start..end]),
                        "{size} {start} {end}"
                    );
                }
            }
        }
    }

    #[test]
    fn short_messages_as_words() {
        let buf: Vec<u8> = (0..24u32).map(|i| (i * 53 + 7) as u8).collect();
        for at in 0..16 {
            for len in 0..8 {
                let mut word = [0u8; 8];
                word[..len].copy_from_slice(&buf[at..at + len]);
                let word = u64::from_le_bytes(word);
                assert_eq!(
                    hash_short(3, 4, len, word),
                    reference(3, 4, &buf[at..at + len])
                );
            }
            assert_eq!(
                six_bytes_at(&buf, at).map(|w| hash_short(3, 4, 6, w)),
                Some(reference(3, 4, &buf[at..at + 6]))
            );
        }
        assert_eq!(six_bytes_at(&buf, 17), None);
    }

    proptest::proptest! {
        #[test]
        fn equals_siphasher(
            k0 in proptest::prelude::any::<u64>(),
            k1 in proptest::prelude::any::<u64>(),
            buf in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
            a in proptest::prelude::any::<proptest::sample::Index>(),
            b in proptest::prelude::any::<proptest::sample::Index>(),
        ) {
            let (x, y) = (a.index(buf.len() + 1), b.index(buf.len() + 1));
            let (start, end) = (x.min(y), x.max(y));
            proptest::prop_assert_eq!(
                hash(k0, k1, &buf, start, end - start),
                reference(k0, k1, &buf[start..end])
            );
        }
    }
}
