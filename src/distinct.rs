//! Distinct features of one text, with their counts: an open-addressing hash set keyed by the
//! features' full SipHash values (already uniformly spread, so they index the table directly).
//! One table per text, grown by doubling; nothing is allocated per feature.
//!
//! Whoever knows the SipHash key (the default one is public) can pick features whose hashes
//! share their low bits and make probe runs long — quadratic time. So a probe stops after
//! [`MAX_PROBE`] slots and the occurrence goes to an overflow list instead; the distinct
//! counts are then merged by sorting, which bounds the work at O(n log n) whatever the input.

use alloc::vec;
use alloc::vec::Vec;

pub(crate) struct Distinct {
    /// 0 marks an empty slot; the key 0 itself is counted in `zero`.
    keys: Vec<u128>,
    counts: Vec<u32>,
    zero: u32,
    len: usize,
    /// Occurrences whose probe run was too long (see the module docs), one entry each.
    overflow: Vec<u128>,
}

/// Longest probe run before an occurrence goes to the overflow list. Random keys at the
/// table's load (at most one half) almost never need more than a dozen.
const MAX_PROBE: usize = 32;

impl Distinct {
    pub(crate) fn new() -> Distinct {
        Distinct {
            keys: vec![0; 64],
            counts: vec![0; 64],
            zero: 0,
            len: 0,
            overflow: Vec::new(),
        }
    }

    /// Counts one occurrence of `key`.
    #[inline]
    pub(crate) fn add(&mut self, key: u128) {
        if key == 0 {
            self.len += usize::from(self.zero == 0);
            self.zero = self.zero.saturating_add(1);
            return;
        }
        if 2 * (self.len + 1) > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = (key as usize) & mask;
        for _ in 0..MAX_PROBE {
            let k = self.keys[i];
            if k == key {
                self.counts[i] = self.counts[i].saturating_add(1);
                return;
            }
            if k == 0 {
                self.keys[i] = key;
                self.counts[i] = 1;
                self.len += 1;
                return;
            }
            i = (i + 1) & mask;
        }
        self.overflow.push(key);
    }

    fn grow(&mut self) {
        let size = self.keys.len() * 2;
        let old_keys = core::mem::replace(&mut self.keys, vec![0; size]);
        let old_counts = core::mem::replace(&mut self.counts, vec![0; size]);
        let mask = self.keys.len() - 1;
        for (key, count) in old_keys.into_iter().zip(old_counts) {
            if key != 0 {
                let mut i = (key as usize) & mask;
                while self.keys[i] != 0 {
                    i = (i + 1) & mask;
                }
                self.keys[i] = key;
                self.counts[i] = count;
            }
        }
    }

    /// Every distinct key with its count, in table order (callers that sum floats sort).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u128, u32)> + '_ {
        let zero = (self.zero > 0).then_some((0u128, self.zero));
        let table = self
            .keys
            .iter()
            .zip(&self.counts)
            .filter(|(k, _)| **k != 0)
            .map(|(&k, &c)| (k, c));
        let merged = (!self.overflow.is_empty()).then(|| {
            // A key may sit in the table and in the overflow list (it found room after the
            // table grew). Sort and count only the overflow (memory in proportion to it), fold
            // the table's count into it where a key is in both, and list the rest of the table.
            let mut over = self.overflow.clone();
            over.sort_unstable();
            let mut counted: Vec<(u128, u32)> = Vec::new();
            for k in over {
                match counted.last_mut() {
                    Some((last, n)) if *last == k => *n = n.saturating_add(1),
                    _ => counted.push((k, 1)),
                }
            }
            let mut rest: Vec<(u128, u32)> = Vec::new();
            for (k, c) in table.clone() {
                match counted.binary_search_by_key(&k, |e| e.0) {
                    Ok(i) => counted[i].1 = counted[i].1.saturating_add(c),
                    Err(_) => rest.push((k, c)),
                }
            }
            rest.extend(counted);
            rest
        });
        let plain = merged.is_none().then_some(table);
        zero.into_iter()
            .chain(plain.into_iter().flatten())
            .chain(merged.into_iter().flatten())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_like_a_sorted_run_length() {
        let mut d = Distinct::new();
        let mut all = Vec::new();
        let mut x: u64 = 7;
        for i in 0..5000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let key = if i % 97 == 0 {
                0
            } else {
                u128::from(x % 1500) << 40 | u128::from(x % 1500)
            };
            d.add(key);
            all.push(key);
        }
        all.sort_unstable();
        let mut expected: Vec<(u128, u32)> = Vec::new();
        for k in all {
            match expected.last_mut() {
                Some((last, n)) if *last == k => *n += 1,
                _ => expected.push((k, 1)),
            }
        }
        let mut got: Vec<(u128, u32)> = d.iter().collect();
        got.sort_unstable();
        assert_eq!(got, expected);
    }

    #[test]
    fn colliding_keys_overflow_and_still_count_right() {
        // Keys sharing their low 20 bits all start at one slot: crafted collisions.
        let mut d = Distinct::new();
        let mut expected = Vec::new();
        for i in 1..=2000u128 {
            let key = i << 20;
            for _ in 0..(i % 3 + 1) {
                d.add(key);
            }
            expected.push((key, (i % 3 + 1) as u32));
        }
        assert!(!d.overflow.is_empty());
        let mut got: Vec<(u128, u32)> = d.iter().collect();
        got.sort_unstable();
        assert_eq!(got, expected);
    }
}
