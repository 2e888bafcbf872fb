//! Feature hashing: each feature's UTF-8 bytes through keyed SipHash-1-3, cut to `f` bits.
//! The rules are [`FeatureHasher`]'s documentation.

use core::hash::Hasher as _;

use siphasher::sip::SipHasher13 as Sip64;
use siphasher::sip128::{Hasher128 as _, SipHasher13 as Sip128};

use crate::error::{Error, KeyProblem};

/// A 128-bit SipHash key.
///
/// The default is the 16 ASCII bytes `simprint-sip-key`
/// (hex `73696d7072696e742d7369702d6b6579`): a fixed, public constant, so the same text gives
/// the same fingerprint on every install and platform. Anyone who knows the key can craft text
/// that lands on a chosen fingerprint; use a secret key where that matters.
///
/// ```
/// use simprint::Key;
/// assert_eq!(Key::default().to_hex(), "73696d7072696e742d7369702d6b6579");
/// let key = Key::from_hex("000102030405060708090a0b0c0d0e0f")?;
/// assert_eq!(key.bytes()[15], 15);
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key([u8; 16]);

impl Key {
    /// The documented default key, `b"simprint-sip-key"`.
    pub const DEFAULT: Key = Key(*b"simprint-sip-key");

    /// A key from its 16 bytes (SipHash reads `k0` from bytes 0..8 and `k1` from 8..16,
    /// little-endian).
    ///
    /// ```
    /// let key = simprint::Key::new([7; 16]);
    /// assert_eq!(key.bytes(), [7; 16]);
    /// ```
    #[must_use]
    pub const fn new(bytes: [u8; 16]) -> Key {
        Key(bytes)
    }

    /// The key's 16 bytes.
    ///
    /// ```
    /// assert_eq!(&simprint::Key::default().bytes(), b"simprint-sip-key");
    /// ```
    #[must_use]
    pub const fn bytes(&self) -> [u8; 16] {
        self.0
    }

    /// Parses exactly 32 hex digits (either case), byte 0 first.
    ///
    /// # Errors
    ///
    /// [`Error::MalformedKey`] unless it is exactly 32 hex digits.
    ///
    /// ```
    /// use simprint::{Error, Key};
    /// assert!(matches!(Key::from_hex("abc"), Err(Error::MalformedKey { .. })));
    /// ```
    pub fn from_hex(hex: &str) -> Result<Key, Error> {
        let digits = hex.as_bytes();
        if digits.len() != 32 {
            return Err(Error::MalformedKey {
                problem: KeyProblem::WrongLength {
                    chars: hex.chars().count(),
                },
            });
        }
        let mut bytes = [0u8; 16];
        for (byte, pair) in bytes.iter_mut().zip(digits.chunks_exact(2)) {
            let hi = (pair[0] as char).to_digit(16);
            let lo = (pair[1] as char).to_digit(16);
            match (hi, lo) {
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "two hex digits: at most 255"
                )]
                (Some(hi), Some(lo)) => *byte = (hi * 16 + lo) as u8,
                _ => {
                    return Err(Error::MalformedKey {
                        problem: KeyProblem::NotHex,
                    })
                }
            }
        }
        Ok(Key(bytes))
    }

    /// The key as 32 lowercase hex digits.
    ///
    /// ```
    /// assert_eq!(simprint::Key::new([0xab; 16]).to_hex(), "ab".repeat(16));
    /// ```
    #[must_use]
    pub fn to_hex(&self) -> alloc::string::String {
        use core::fmt::Write as _;
        let mut out = alloc::string::String::with_capacity(32);
        for b in self.0 {
            let _ = write!(out, "{b:02x}");
        }
        out
    }
}

impl Default for Key {
    fn default() -> Key {
        Key::DEFAULT
    }
}

/// Hashes features to `f`-bit values with a fixed key and width: each feature's UTF-8 bytes
/// through keyed SipHash-1-3, cut to `f` bits.
///
/// * Widths 1 to 64 use the 64-bit SipHash-1-3 output and keep its **most significant** `f`
///   bits (`h >> (64 − f)`). Because `V[i]` only depends on bit `i` of each hash, a narrower
///   fingerprint is exactly the top bits of a wider one, for any width up to 64.
/// * Widths 65 to 128 use the 128-bit SipHash-1-3 output `(h2 << 64) | h1` (the two output words
///   of the 128-bit variant) and keep its most significant `f` bits.
///
/// SipHash-1-3 is the cheapest SipHash variant; its output is well mixed for non-adversarial
/// text, and the key keeps fingerprints unpredictable to anyone who does not know it.
///
/// A feature is a sequence of string parts hashed as their concatenation, so a word shingle
/// `"a b"` is hashed without building the string.
///
/// ```
/// use simprint::{FeatureHasher, Key};
/// let h = FeatureHasher::new(Key::default(), 64)?;
/// assert_eq!(h.hash_parts(&["near", " ", "duplicate"]), h.hash_str("near duplicate"));
/// assert_eq!(h.hash_str("x") >> 56, FeatureHasher::new(Key::default(), 8)?.hash_str("x"));
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureHasher {
    k0: u64,
    k1: u64,
    width: u32,
}

impl FeatureHasher {
    /// The hasher of the default options: 64 bits under [`Key::DEFAULT`].
    pub const DEFAULT_64: FeatureHasher = FeatureHasher::unchecked(Key::DEFAULT, 64);

    const fn unchecked(key: Key, width: u32) -> FeatureHasher {
        let b = key.0;
        FeatureHasher {
            k0: u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
            k1: u64::from_le_bytes([b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]]),
            width,
        }
    }

    /// A hasher for `width`-bit fingerprints (`1..=128`) under `key`.
    ///
    /// # Errors
    ///
    /// [`Error::WidthOutOfRange`] for a width outside `1..=128`.
    ///
    /// ```
    /// assert!(simprint::FeatureHasher::new(simprint::Key::default(), 129).is_err());
    /// ```
    pub fn new(key: Key, width: u32) -> Result<FeatureHasher, Error> {
        Ok(FeatureHasher::unchecked(
            key,
            crate::fingerprint::check_width(width)?,
        ))
    }

    /// The width of the hashes this hasher gives.
    ///
    /// ```
    /// let h = simprint::FeatureHasher::new(simprint::Key::default(), 16)?;
    /// assert_eq!(h.width(), 16);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The `f`-bit hash of one string.
    ///
    /// ```
    /// let h = simprint::FeatureHasher::new(simprint::Key::default(), 3)?;
    /// assert!(h.hash_str("any feature") < 8);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn hash_str(&self, feature: &str) -> u128 {
        self.hash_joined(&[feature], "")
    }

    /// The `f`-bit hash of the concatenation of `parts`.
    ///
    /// ```
    /// let h = simprint::FeatureHasher::new(simprint::Key::default(), 128)?;
    /// assert_eq!(h.hash_parts(&["回", "家"]), h.hash_str("回家"));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn hash_parts(&self, parts: &[&str]) -> u128 {
        self.hash_joined(parts, "")
    }

    /// The `f`-bit hash of `parts` joined by `separator` (a word shingle is its words joined
    /// by one space), without building the joined string.
    ///
    /// ```
    /// let h = simprint::FeatureHasher::new(simprint::Key::default(), 64)?;
    /// assert_eq!(h.hash_joined(&["near", "duplicate"], " "), h.hash_str("near duplicate"));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn hash_joined(&self, parts: &[&str], separator: &str) -> u128 {
        self.cut(self.full_hash_joined(parts, separator))
    }

    /// The whole SipHash-1-3 output (64 bits for widths up to 64, else 128) before cutting.
    #[inline(always)]
    pub(crate) fn full_hash_joined(&self, parts: &[&str], separator: &str) -> u128 {
        match parts {
            [one] if self.width <= 64 => {
                u128::from(Sip64::new_with_keys(self.k0, self.k1).hash(one.as_bytes()))
            }
            _ => self.full_hash_slow(parts, separator),
        }
    }

    /// [`FeatureHasher::full_hash_joined`] of parts cut from `text`. A single part (a word, or
    /// a CJK n-gram the tokenizer found in one slice: the common case) is hashed where it lies
    /// in `text`, which lets the hash load its last bytes as one word; nothing else is inlined
    /// into the tokenizer's loop.
    #[inline(always)]
    pub(crate) fn full_hash_in(&self, text: &str, parts: &[&str], separator: &str) -> u128 {
        if let ([one], true) = (parts, self.width <= 64) {
            if let Some(start) = offset_in(text, one) {
                return u128::from(crate::sip13::hash(
                    self.k0,
                    self.k1,
                    text.as_bytes(),
                    start,
                    one.len(),
                ));
            }
        }
        self.full_hash_joined(parts, separator)
    }

    /// The full 64-bit hashes of the `count` six-byte slices of `bytes` starting at `start`,
    /// `start + 3`, …: the bigrams of a run of three-byte characters (Han, kana), in one loop.
    /// Widths up to 64 only. The hash is inlined with its length known, so each bigram is one
    /// 8-byte load, masked, and four SipRounds.
    #[inline]
    pub(crate) fn bigrams_of_3_byte_chars(
        &self,
        bytes: &[u8],
        start: usize,
        count: usize,
        mut f: impl FnMut(u64),
    ) {
        for k in 0..count {
            f(crate::sip13::hash(
                self.k0,
                self.k1,
                bytes,
                start + 3 * k,
                6,
            ));
        }
    }

    /// The full 64-bit hash of a feature of `len` bytes (below 8) given as one little-endian
    /// word, its bytes past `len` zero. Widths up to 64 only.
    #[inline(always)]
    pub(crate) fn full_hash_short(&self, len: usize, word: u64) -> u64 {
        crate::sip13::hash_short(self.k0, self.k1, len, word)
    }

    /// The full 64-bit hash of `bytes[start..start + len]`. Widths up to 64 only.
    #[inline]
    pub(crate) fn full_hash_at(&self, bytes: &[u8], start: usize, len: usize) -> u64 {
        crate::sip13::hash(self.k0, self.k1, bytes, start, len)
    }

    /// [`FeatureHasher::full_hash_joined`] for several parts or 128-bit hashes.
    #[inline(never)]
    fn full_hash_slow(&self, parts: &[&str], separator: &str) -> u128 {
        // One-shot hashing of one contiguous buffer skips the streaming hasher's tail
        // bookkeeping: short shingles and CJK n-grams after copying their parts to the
        // stack. Same function, same value.
        let mut buf = [0u8; 64];
        let bytes: Option<&[u8]> = match parts {
            [one] => Some(one.as_bytes()),
            _ => join_into(&mut buf, parts, separator),
        };
        if self.width <= 64 {
            let sip = Sip64::new_with_keys(self.k0, self.k1);
            if let Some(bytes) = bytes {
                return u128::from(sip.hash(bytes));
            }
            let mut s = sip;
            write_joined(&mut s, parts, separator);
            u128::from(s.finish())
        } else {
            let sip = Sip128::new_with_keys(self.k0, self.k1);
            let (h1, h2) = match bytes {
                Some(bytes) => sip.hash(bytes).as_u64(),
                None => {
                    let mut s = sip;
                    write_joined(&mut s, parts, separator);
                    s.finish128().as_u64()
                }
            };
            (u128::from(h2) << 64) | u128::from(h1)
        }
    }

    /// Keeps the top `f` bits of a full hash.
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "full hashes are 64-bit at widths up to 64"
    )]
    pub(crate) fn cut(&self, full: u128) -> u128 {
        if self.width <= 64 {
            debug_assert!(full >> 64 == 0, "a full hash of 64 bits at widths up to 64");
            // A 64-bit shift: a 128-bit one by a variable amount is a call into compiler-rt
            // in wasm, made for every feature.
            u128::from((full as u64) >> (64 - self.width))
        } else {
            full >> (128 - self.width)
        }
    }
}

/// Where `part` starts in `text`, if it is a slice of it.
#[inline(always)]
pub(crate) fn offset_in(text: &str, part: &str) -> Option<usize> {
    let start = (part.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    (start.checked_add(part.len())? <= text.len()).then_some(start)
}

/// `parts` joined by `separator` in `buf`, if they fit.
fn join_into<'b>(buf: &'b mut [u8; 64], parts: &[&str], separator: &str) -> Option<&'b [u8]> {
    let mut len = 0;
    for (i, p) in parts.iter().enumerate() {
        for piece in [if i > 0 { separator } else { "" }, p] {
            let end = len + piece.len();
            buf.get_mut(len..end)?.copy_from_slice(piece.as_bytes());
            len = end;
        }
    }
    Some(&buf[..len])
}

fn write_joined(s: &mut impl core::hash::Hasher, parts: &[&str], separator: &str) {
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            s.write(separator.as_bytes());
        }
        s.write(p.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_sip13_outputs() {
        // Literal values, written once (2026-11-26), so that a siphasher upgrade or a change to
        // how features reach it fails here instead of silently moving every fingerprint. The
        // first is the SipHash-1-3 reference vector of the empty message under key 00..0f.
        // Each text is also hashed in two parts: joined on the stack, or streamed when longer
        // than the 64-byte buffer (the long one), so every path is pinned.
        let long = "the quick brown fox jumps over the lazy dog, twice over and over again";
        let counting = Key::new(core::array::from_fn(|i| i as u8));
        let cases: [(Key, &str, u64, u128); 8] = [
            (
                counting,
                "",
                0xabac_0158_050f_c4dc,
                0x0130_30dd_6adb_62fd_bea5_8827_b2bc_7ee7,
            ),
            (
                counting,
                "a",
                0x1c26_97ab_786a_6237,
                0x678a_ae37_5dd7_2f49_a84f_7c63_de37_3c08,
            ),
            (
                counting,
                "simhash",
                0xe822_e613_1d97_fb15,
                0x2444_0326_2cbb_77db_d23f_a6fa_498b_2c54,
            ),
            (
                counting,
                long,
                0xe027_68b1_aafd_aa0a,
                0xfa16_f0ac_bb50_c875_eada_9083_0797_fc79,
            ),
            (
                Key::DEFAULT,
                "",
                0x7151_3548_16a1_999b,
                0xea12_1538_ac7d_c16f_788a_e659_9716_0560,
            ),
            (
                Key::DEFAULT,
                "a",
                0xde19_1f17_2c4e_61af,
                0x564d_a77b_5dd2_1304_de8a_e6eb_39b9_4013,
            ),
            (
                Key::DEFAULT,
                "simhash",
                0x19f8_1809_a2cb_f700,
                0x7679_053f_962f_9761_ce57_94e6_3be2_e18c,
            ),
            (
                Key::DEFAULT,
                long,
                0xa9d5_4976_8597_e0ea,
                0xffc6_ad1d_4e93_f240_b02a_f3eb_1343_02e3,
            ),
        ];
        for (key, text, want64, want128) in cases {
            let h64 = FeatureHasher::new(key, 64).unwrap();
            let h128 = FeatureHasher::new(key, 128).unwrap();
            // The crate's own one-shot kernel (src/sip13.rs), which the tokenizer uses.
            let own = h64.full_hash_at(text.as_bytes(), 0, text.len());
            assert_eq!(own, want64, "sip13::hash of {text:?}");
            let halves = [&text[..text.len() / 2], &text[text.len() / 2..]];
            for (h, want) in [(h64, u128::from(want64)), (h128, want128)] {
                assert_eq!(h.hash_str(text), want, "{} bits of {text:?}", h.width());
                assert_eq!(
                    h.hash_parts(&halves),
                    want,
                    "{} bits of {halves:?}",
                    h.width()
                );
            }
        }
    }

    #[test]
    fn parts_hash_as_their_concatenation() {
        for width in [1, 7, 64, 65, 100, 128] {
            let h = FeatureHasher::new(Key::default(), width).unwrap();
            let whole = "the quick brown fox jumps over the lazy dog, twice over";
            for cut in 0..=whole.len() {
                if whole.is_char_boundary(cut) {
                    assert_eq!(
                        h.hash_parts(&[&whole[..cut], &whole[cut..]]),
                        h.hash_str(whole)
                    );
                }
            }
        }
    }

    #[test]
    fn narrow_widths_keep_the_top_bits() {
        let h64 = FeatureHasher::new(Key::default(), 64).unwrap();
        let h128 = FeatureHasher::new(Key::default(), 128).unwrap();
        for width in 1..=128u32 {
            let h = FeatureHasher::new(Key::default(), width).unwrap();
            let (full, top) = if width <= 64 {
                (&h64, 64)
            } else {
                (&h128, 128)
            };
            assert_eq!(
                h.hash_str("feature"),
                full.hash_str("feature") >> (top - width)
            );
        }
    }

    #[test]
    fn key_hex() {
        assert_eq!(Key::from_hex(&Key::DEFAULT.to_hex()).unwrap(), Key::DEFAULT);
        assert!(Key::from_hex("73696d7072696e742d7369702d6b65").is_err());
        assert!(Key::from_hex("zz696d7072696e742d7369702d6b6579").is_err());
        // 32 bytes but multi-byte characters must not be sliced mid-character.
        assert!(Key::from_hex("éééééééééééééééé").is_err());
    }
}
