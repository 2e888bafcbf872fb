//! Allocation that fails with an error instead of aborting: the index's arrays are sized by
//! its callers' data, and in wasm an aborted allocation kills the instance.

use alloc::vec::Vec;

use crate::error::Error;

/// An empty vector with room for `n` elements, or [`Error::OutOfMemory`].
pub(crate) fn try_vec_with_capacity<T>(n: usize) -> Result<Vec<T>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| Error::OutOfMemory {
        bytes: n.saturating_mul(core::mem::size_of::<T>()),
    })?;
    Ok(v)
}

/// `n` zeros, or [`Error::OutOfMemory`].
pub(super) fn zeroed<T: Copy + Default>(n: usize) -> Result<Vec<T>, Error> {
    let mut v = try_vec_with_capacity(n)?;
    v.resize(n, T::default());
    Ok(v)
}

/// `n` items of `items` in a vector reserved fallibly.
pub(super) fn collect<T>(n: usize, items: impl Iterator<Item = T>) -> Result<Vec<T>, Error> {
    let mut out = try_vec_with_capacity(n)?;
    out.extend(items);
    Ok(out)
}
