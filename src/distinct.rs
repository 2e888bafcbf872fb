//! Distinct features of one text, with their counts: an open-addressing hash set keyed by the
//! features' full SipHash values (already uniformly spread, so they index the table directly).
//! One table per text, grown by doubling; nothing is allocated per feature.
//!
//! Keys are stored in 8 bytes when the hashes are 64-bit (widths up to 64, the default) and
//! 16 otherwise, and counts only when the weighting uses them: for binary weights a slot is
//! one `u64`, so the table stays in cache longer and text of all-different words costs less.
//!
//! Whoever knows the SipHash key (the default one is public) can pick features whose hashes
//! share their low bits and make probe runs long — quadratic time. So a probe stops after
//! [`MAX_PROBE`] slots and the occurrence goes to an overflow list instead; the distinct
//! counts are then merged by sorting, which bounds the work at O(n log n) whatever the input.

use alloc::vec;
use alloc::vec::Vec;

/// A table key: a full feature hash, 64 or 128 bits wide.
pub(crate) trait Key: Copy + Eq + Ord + Default {
    fn from_hash(hash: u128) -> Self;
    fn to_hash(self) -> u128;
    /// 32 well-mixed bits of the key, which place it in the table.
    fn bits(self) -> u32;
}

impl Key for u64 {
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "64-bit keys are the low half"
    )]
    fn from_hash(hash: u128) -> u64 {
        hash as u64
    }
    #[inline]
    fn to_hash(self) -> u128 {
        u128::from(self)
    }
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "a hash: any of its bits will do"
    )]
    fn bits(self) -> u32 {
        (self >> 32) as u32
    }
}

impl Key for u128 {
    #[inline]
    fn from_hash(hash: u128) -> u128 {
        hash
    }
    #[inline]
    fn to_hash(self) -> u128 {
        self
    }
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "a hash: any of its bits will do"
    )]
    fn bits(self) -> u32 {
        (self >> 32) as u32
    }
}

/// The slot a key with [`Key::bits`] `bits` starts its probe at in a table of `slots` slots:
/// the bits scaled to the table's size by a multiply (which, unlike a mask, allows sizes
/// between powers of two).
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "below `slots`, which is a usize"
)]
fn home(bits: u32, slots: usize) -> usize {
    ((u64::from(bits) * slots as u64) >> 32) as usize
}

/// The distinct full hashes of one text (see the [module docs](self)).
pub(crate) enum Distinct {
    /// Hashes that fit 64 bits (widths up to 64).
    Narrow(Table<u64>),
    /// 128-bit hashes.
    Wide(Table<u128>),
}

impl Distinct {
    /// A set for `wide` (128-bit) or 64-bit hashes, counting occurrences if `counting`
    /// (else every key reports a count of 1).
    pub(crate) fn new(wide: bool, counting: bool) -> Distinct {
        Distinct::for_text(wide, counting, 0, 0)
    }

    /// [`Distinct::new`] sized for a text of `text_len` bytes of which `cjk` characters are
    /// three-byte Han or kana, so that its table does not grow (and rehash, and fault in fresh
    /// pages) as it fills. A CJK character starts a bigram where a word takes several bytes.
    ///
    /// A short text's features are mostly distinct (the first kilobyte of English a new word
    /// every 9 to 10 bytes, 150 characters of Chinese technical text about 90 features), so it
    /// gets room for all of them at half load: a slot per 4 bytes of the rest and two per CJK
    /// character, up to [`SHORT_SLOTS`]. A long text repeats itself, and gets a slot per 16
    /// bytes of the rest and one per CJK character: filled to half, a distinct feature per 32
    /// bytes and per two CJK characters. Manuals that do not repeat themselves have one per 2.2 Han and kana,
    /// their words included (GIMP's and Debian Edu's Chinese; LilyPond's one per 2.7), the
    /// handbook's Chinese one per 3.7, the Chinese docs sample one per 5.5, Japanese one per
    /// 10; English a distinct word per 80 to 100 bytes in a megabyte. The larger of the two,
    /// rounded up to a power of two or 1.5 times one, at most [`MAX_START_SLOTS`]. Sized for
    /// long texts alone, at a slot per two CJK characters (until 2026-11-27), short documents
    /// and those manuals grew their tables on every call (docs/performance.md).
    pub(crate) fn for_text(wide: bool, counting: bool, text_len: usize, cjk: usize) -> Distinct {
        let rest = text_len.saturating_sub(3 * cjk);
        let short = (rest / 4 + 2 * cjk).min(SHORT_SLOTS);
        let wanted = short.max(rest / 16 + cjk);
        let power = wanted.next_power_of_two();
        let slots = if power / 4 * 3 >= wanted {
            power / 4 * 3
        } else {
            power
        }
        .clamp(MIN_SLOTS, MAX_START_SLOTS);
        if wide {
            Distinct::Wide(Table::new(counting, slots))
        } else {
            Distinct::Narrow(Table::new(counting, slots))
        }
    }

    /// True for a set of 64-bit hashes that counts nothing (binary weights, widths up to 64):
    /// adding a hash it holds changes nothing.
    #[inline]
    pub(crate) fn is_narrow_set(&self) -> bool {
        matches!(self, Distinct::Narrow(t) if !t.counting)
    }

    /// Counts one occurrence of `hash`; true when it is the first and the table holds it
    /// (false for an occurrence sent to the overflow list: see [`Distinct::overflowed`]).
    #[inline]
    pub(crate) fn add(&mut self, hash: u128) -> bool {
        match self {
            Distinct::Narrow(t) => t.add(u64::from_hash(hash)),
            Distinct::Wide(t) => t.add(hash),
        }
    }

    /// [`Distinct::add`] with the 64-bit table's probe inlined, for a caller that is itself
    /// out of line and called for every feature (the fingerprinter's set of binary features).
    #[inline(always)]
    pub(crate) fn add_inlined(&mut self, hash: u128) -> bool {
        match self {
            Distinct::Narrow(t) => t.add_inlined(u64::from_hash(hash)),
            Distinct::Wide(t) => t.add(hash),
        }
    }

    /// True when some occurrence went to the overflow list, so [`Distinct::add`]'s answers
    /// did not name every distinct hash exactly once ([`Distinct::for_each_key`] still does).
    #[inline]
    pub(crate) fn overflowed(&self) -> bool {
        match self {
            Distinct::Narrow(t) => !t.overflow.is_empty(),
            Distinct::Wide(t) => !t.overflow.is_empty(),
        }
    }

    /// Every distinct hash with its count (1 when not counting), in table order (callers
    /// that sum floats sort). Counts are `u32`s widened, so the pairs sort as the crate's
    /// other `(u128, u64)` pairs do (see `sort`).
    pub(crate) fn counts(&self) -> Vec<(u128, u64)> {
        match self {
            Distinct::Narrow(t) => t.counts(),
            Distinct::Wide(t) => t.counts(),
        }
    }

    /// The number of distinct hashes.
    pub(crate) fn len(&self) -> usize {
        match self {
            Distinct::Narrow(t) => t.distinct_len(),
            Distinct::Wide(t) => t.distinct_len(),
        }
    }

    /// Calls `f` with every distinct hash, in table order.
    #[inline]
    pub(crate) fn for_each_key(&self, f: impl FnMut(u128)) {
        match self {
            Distinct::Narrow(t) => t.for_each_key(f),
            Distinct::Wide(t) => t.for_each_key(f),
        }
    }
}

pub(crate) struct Table<K> {
    /// 0 marks an empty slot; the key 0 itself is counted in `zero`.
    keys: Vec<K>,
    /// Parallel to `keys` when counting, else empty.
    counts: Vec<u32>,
    counting: bool,
    zero: u32,
    len: usize,
    /// Occurrences whose probe run was too long (see the module docs), one entry each.
    overflow: Vec<K>,
}

/// Longest probe run before an occurrence goes to the overflow list. Random keys at the
/// table's load (at most one half) almost never need more than a dozen.
const MAX_PROBE: usize = 32;

/// The most slots [`Distinct::for_text`] gives a short text for every feature to be distinct
/// (128 KB of 64-bit keys): reached at about 64 KB of English or 8,000 CJK characters, past
/// which a text repeats its features enough for the longer texts' sizing.
const SHORT_SLOTS: usize = 1 << 14;

/// The smallest table.
const MIN_SLOTS: usize = 64;

/// The largest table made before any feature is seen (768 KB of 64-bit keys): what a text
/// of 1 MB of Chinese technical writing needs (at a half-full table, its 38 000 distinct
/// features do not fit 2^16 slots). Kept below the size of such a text, so that the folded
/// copy of the text and the table, freed together, stay below what glibc's allocator then
/// hands back to the system (and faults in again for the next text).
const MAX_START_SLOTS: usize = 3 << 15;

impl<K: Key> Table<K> {
    fn new(counting: bool, slots: usize) -> Table<K> {
        Table {
            keys: vec![K::default(); slots],
            counts: if counting { vec![0; slots] } else { Vec::new() },
            counting,
            zero: 0,
            len: 0,
            overflow: Vec::new(),
        }
    }

    // Out of line in wasm, where the inliner's lower threshold kept it so anyway: a call
    // inlined there would bring the body with it (see `add_inlined`).
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    fn add(&mut self, key: K) -> bool {
        self.add_inlined(key)
    }

    /// [`Table::add`]'s body, inlined where it is called: by `add`, and by
    /// [`Distinct::add_inlined`] for the 64-bit table.
    #[inline(always)]
    fn add_inlined(&mut self, key: K) -> bool {
        let empty = K::default();
        if key == empty {
            let first = self.zero == 0;
            self.len += usize::from(first);
            self.zero = self.zero.saturating_add(1);
            return first;
        }
        if 2 * (self.len + 1) > self.keys.len() {
            self.grow();
        }
        let slots = self.keys.len();
        let mut i = home(key.bits(), slots);
        for _ in 0..MAX_PROBE {
            let k = self.keys[i];
            if k == key {
                if self.counting {
                    self.counts[i] = self.counts[i].saturating_add(1);
                }
                return false;
            }
            if k == empty {
                self.keys[i] = key;
                if self.counting {
                    self.counts[i] = 1;
                }
                self.len += 1;
                return true;
            }
            i += 1;
            if i == slots {
                i = 0;
            }
        }
        self.overflow.push(key);
        false
    }

    #[cold]
    fn grow(&mut self) {
        let size = self.keys.len() * 2;
        let empty = K::default();
        let old_keys = core::mem::replace(&mut self.keys, vec![empty; size]);
        let old_counts = if self.counting {
            core::mem::replace(&mut self.counts, vec![0; size])
        } else {
            Vec::new()
        };
        for (at, key) in old_keys.into_iter().enumerate() {
            if key != empty {
                let mut i = home(key.bits(), size);
                while self.keys[i] != empty {
                    i += 1;
                    if i == size {
                        i = 0;
                    }
                }
                self.keys[i] = key;
                if self.counting {
                    self.counts[i] = old_counts[at];
                }
            }
        }
    }

    fn count_at(&self, i: usize) -> u32 {
        if self.counting {
            self.counts[i]
        } else {
            1
        }
    }

    fn for_each_key(&self, mut f: impl FnMut(u128)) {
        if self.overflow.is_empty() {
            if self.zero > 0 {
                f(0);
            }
            // Whether a slot is empty is a coin toss at the table's load, so a branch on it
            // would be mispredicted about every other slot: the keys of each 64 slots are
            // first gathered without branches, then visited.
            let mut found = [K::default(); 64];
            for block in self.keys.chunks(64) {
                let mut n = 0;
                for &k in block {
                    found[n] = k;
                    n += usize::from(k != K::default());
                }
                for &k in &found[..n] {
                    f(k.to_hash());
                }
            }
        } else {
            for (k, _) in self.counts() {
                f(k);
            }
        }
    }

    /// [`Distinct::len`]: the table's count (the key 0 in it), unless hostile input sent
    /// occurrences to the overflow list, which may repeat keys.
    fn distinct_len(&self) -> usize {
        if self.overflow.is_empty() {
            self.len
        } else {
            self.counts().len()
        }
    }

    fn counts(&self) -> Vec<(u128, u64)> {
        let empty = K::default();
        let mut out: Vec<(u128, u64)> = Vec::with_capacity(self.len);
        if self.zero > 0 {
            out.push((0, u64::from(if self.counting { self.zero } else { 1 })));
        }
        let table = self
            .keys
            .iter()
            .enumerate()
            .filter(|(_, &k)| k != empty)
            .map(|(i, &k)| (k, self.count_at(i)));
        if self.overflow.is_empty() {
            out.extend(table.map(|(k, c)| (k.to_hash(), u64::from(c))));
            return out;
        }
        // A key may sit in the table and in the overflow list (it found room after the table
        // grew). Sort and count only the overflow (memory in proportion to it), fold the
        // table's count into it where a key is in both, and list the rest of the table.
        let mut over: Vec<(u128, u64)> = self.overflow.iter().map(|k| (k.to_hash(), 0)).collect();
        crate::sort::sort(&mut over);
        let mut counted: Vec<(u128, u32)> = Vec::new();
        for (k, _) in over {
            match counted.last_mut() {
                Some((last, n)) if *last == k => {
                    if self.counting {
                        *n = n.saturating_add(1);
                    }
                }
                _ => counted.push((k, 1)),
            }
        }
        for (k, c) in table {
            match counted.binary_search_by_key(&k.to_hash(), |e| e.0) {
                Ok(i) => {
                    if self.counting {
                        counted[i].1 = counted[i].1.saturating_add(c);
                    }
                }
                Err(_) => out.push((k.to_hash(), u64::from(c))),
            }
        }
        out.extend(counted.into_iter().map(|(k, c)| (k, u64::from(c))));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every (width, counting) kind of table, and the counts it must report for `keys`.
    fn check_all_kinds(keys: &[u128], expect_overflow: bool) {
        let mut sorted = keys.to_vec();
        sorted.sort_unstable();
        let mut expected: Vec<(u128, u64)> = Vec::new();
        for &k in &sorted {
            match expected.last_mut() {
                Some((last, n)) if *last == k => *n += 1,
                _ => expected.push((k, 1)),
            }
        }
        for wide in [false, true] {
            for counting in [false, true] {
                let mut d = Distinct::new(wide, counting);
                let mut firsts = Vec::new();
                for &k in keys {
                    if d.add(k) {
                        firsts.push(k);
                    }
                }
                assert_eq!(d.overflowed(), expect_overflow);
                if !expect_overflow {
                    // Without overflow, `add` says true once for each distinct key.
                    firsts.sort_unstable();
                    let distinct: Vec<u128> = expected.iter().map(|e| e.0).collect();
                    assert_eq!(firsts, distinct, "wide {wide}, counting {counting}");
                }
                let mut got = d.counts();
                got.sort_unstable();
                let want: Vec<(u128, u64)> = expected
                    .iter()
                    .map(|&(k, c)| (k, if counting { c } else { 1 }))
                    .collect();
                assert_eq!(got, want, "wide {wide}, counting {counting}");
                assert_eq!(d.len(), want.len(), "wide {wide}, counting {counting}");
                let mut keys_seen = Vec::new();
                d.for_each_key(|k| keys_seen.push(k));
                keys_seen.sort_unstable();
                let want_keys: Vec<u128> = want.iter().map(|e| e.0).collect();
                assert_eq!(keys_seen, want_keys);
            }
        }
    }

    #[test]
    fn counts_like_a_sorted_run_length() {
        let mut keys = Vec::new();
        let mut x: u64 = 7;
        for i in 0..5000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            keys.push(if i % 97 == 0 {
                0
            } else {
                // 1500 distinct keys of 64 bits, spread (as a hash's are) by an odd multiplier.
                u128::from((x % 1500).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            });
        }
        check_all_kinds(&keys, false);
    }

    /// A table sized for a text does not grow while it holds a distinct feature per four CJK
    /// characters and per 32 bytes of the rest (the handbook's Chinese has one per 3.7), up to
    /// the largest table made in advance.
    #[test]
    fn a_table_sized_for_a_text_holds_its_distinct_features_without_growing() {
        let holds = |cjk: usize, rest: usize, distinct: usize| {
            let mut d = Distinct::for_text(false, false, rest + 3 * cjk, cjk);
            let Distinct::Narrow(t) = &d else {
                unreachable!("64-bit hashes");
            };
            let slots = t.keys.len();
            for i in 1..=distinct as u64 {
                d.add(u128::from(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
            }
            let Distinct::Narrow(t) = &d else {
                unreachable!("64-bit hashes");
            };
            assert_eq!(t.keys.len(), slots, "cjk {cjk}, rest {rest}: grew");
            assert_eq!(t.len, distinct);
        };
        // Short texts whose every CJK character starts a new bigram and whose words are all
        // different (a word per 8 bytes).
        for cjk in [0usize, 50, 150, 1_000, 3_000] {
            for rest in [0usize, 100, 1_000, 10_000, 30_000] {
                holds(cjk, rest, (cjk + rest / 8).min(SHORT_SLOTS / 2));
            }
        }
        // Long texts as dense as GIMP's Chinese help (a distinct feature per 2.2 CJK
        // characters) and a little more, and English at a new word per 32 bytes.
        for cjk in [0usize, 1_000, 10_000, 50_000, 90_000, 130_000, 400_000] {
            for rest in [0usize, 10_000, 150_000, 500_000] {
                holds(cjk, rest, (cjk / 2 + rest / 32).min(MAX_START_SLOTS / 2));
            }
        }
    }

    #[test]
    fn colliding_keys_overflow_and_still_count_right() {
        // Keys whose bits 32–63, which place them, are all zero start at one slot: crafted
        // collisions.
        let mut keys = Vec::new();
        for i in 1..=2000u128 {
            for _ in 0..(i % 3 + 1) {
                keys.push(i << 20);
            }
        }
        check_all_kinds(&keys, true);
    }
}
