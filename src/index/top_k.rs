//! The first `limit` answers of a query or of the pairs, in memory for `limit`.

use alloc::vec::Vec;

use crate::error::Error;

/// The first `limit` keys in ascending order of a stream that may repeat a key (an id found
/// by several tables), in memory `O(limit)`: keys collect until there are twice `limit` (plus a
/// little, so tiny limits do not sort every few keys), then are sorted, deduplicated and cut
/// back to `limit`. Once `limit` distinct keys are held, the largest of them is a bound:
/// anything not below it cannot be in the answer and is dropped without being stored. Each cut
/// sorts `O(limit)` keys and drops at least `limit`, so the time is `O(m log limit)` for `m`
/// keys offered. Matches are keyed `(distance, id)`, pairs `(distance, a, b)`.
pub(super) struct TopK<K> {
    limit: usize,
    cut_at: usize,
    held: Vec<K>,
    bound: Option<K>,
}

impl<K: crate::sort::Sort> TopK<K> {
    pub(super) fn new(limit: usize) -> TopK<K> {
        TopK {
            limit,
            cut_at: limit.saturating_mul(2).max(limit.saturating_add(64)),
            held: Vec::new(),
            bound: None,
        }
    }

    // Called once per match, not per candidate: one out-of-line copy keeps the wasm smaller.
    #[inline(never)]
    pub(super) fn offer(&mut self, key: K) -> Result<(), Error> {
        // Equal to the bound is the bound itself found again by another table.
        if self.bound.is_some_and(|b| key >= b) {
            return Ok(());
        }
        // Fallible growth: a failure is an error rather than an abort.
        self.held.try_reserve(1).map_err(|_| Error::OutOfMemory {
            bytes: self
                .held
                .len()
                .saturating_mul(2 * core::mem::size_of::<K>()),
        })?;
        self.held.push(key);
        if self.held.len() >= self.cut_at {
            self.cut();
        }
        Ok(())
    }

    fn cut(&mut self) {
        crate::sort::sort(&mut self.held);
        self.held.dedup();
        self.held.truncate(self.limit);
        if self.held.len() == self.limit {
            self.bound = self.held.last().copied();
        }
    }

    pub(super) fn finish(mut self) -> Vec<K> {
        self.cut();
        self.held
    }
}
