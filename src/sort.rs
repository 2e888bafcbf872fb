//! Every sort of the crate, in three element types.
//!
//! Each element type `sort_unstable` is instantiated for compiles its quicksort and small-sort
//! networks anew, 3 to 14 KB of wasm each: fourteen of them were a seventh of the `.wasm`. So
//! everything sorts through [`sort`], whose [`Sort`] types are `(u64, u64)` and `(u128, u64)`
//! pairs (a key and a value, or a key and a position to gather by) and the `(u32, u64, u64)`
//! keys of [`Index::pairs`](crate::Index::pairs) (24 bytes where a pair would take 32, in
//! lists of up to 2^23 keys); `clippy.toml` refuses the slice sorts anywhere else. Pairs whose
//! keys are distinct (ids, hashes) sort exactly as by the key alone.

use alloc::vec::Vec;

use crate::error::Error;
use crate::index::fallible::try_vec_with_capacity;

/// An element type the crate sorts.
pub(crate) trait Sort: Ord + Copy {
    /// Sorts `v` ascending (not stably: equal elements are equal).
    fn sort(v: &mut [Self]);
}

/// Sorts `v` ascending.
#[inline]
pub(crate) fn sort<T: Sort>(v: &mut [T]) {
    T::sort(v);
}

// The three instantiations of the slice sort.
#[allow(
    clippy::disallowed_methods,
    reason = "the sorts everything goes through"
)]
mod sorts {
    impl super::Sort for (u64, u64) {
        fn sort(v: &mut [Self]) {
            v.sort_unstable();
        }
    }

    impl super::Sort for (u128, u64) {
        fn sort(v: &mut [Self]) {
            v.sort_unstable();
        }
    }

    impl super::Sort for (u32, u64, u64) {
        fn sort(v: &mut [Self]) {
            v.sort_unstable();
        }
    }
}

/// A position as the second half of a pair.
#[inline]
pub(crate) fn position(i: usize) -> u64 {
    i as u64
}

/// A position back from the second half of a pair made by [`position`].
#[inline]
#[allow(
    clippy::cast_possible_truncation,
    reason = "made by `position` from a usize"
)]
pub(crate) fn from_position(i: u64) -> usize {
    i as usize
}

/// `items` sorted by `key`, which must be distinct (ids): (key, position) pairs are sorted and
/// the items gathered by them. Memory for the pairs and the copy is asked for fallibly.
pub(crate) fn by_distinct_key<T: Copy>(
    items: &[T],
    key: impl Fn(&T) -> u64,
) -> Result<Vec<T>, Error> {
    let mut order = try_vec_with_capacity(items.len())?;
    order.extend(items.iter().enumerate().map(|(i, t)| (key(t), position(i))));
    sort(&mut order);
    let mut out = try_vec_with_capacity(items.len())?;
    out.extend(order.iter().map(|&(_, i)| items[from_position(i)]));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_distinct_key_sorts_by_the_key_alone() {
        let items = [(5u64, 'a'), (1, 'z'), (3, 'm'), (2, 'b')];
        let sorted = by_distinct_key(&items, |e| e.0).unwrap();
        assert_eq!(sorted, [(1, 'z'), (2, 'b'), (3, 'm'), (5, 'a')]);
    }
}
