//! The index's byte format: versioned, little-endian, checksummed (the layout is documented
//! on the [`index`](crate::index) module).

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::hash::Hasher as _;

use super::api::{Index, Inner};
use super::bits::Bits;
use super::engine::Engine;
use super::fallible::try_vec_with_capacity;
use super::names::{FIRST_NAMED_ID, MAX_NAME_BYTES};
use super::plan::{check_k, Plan, PlanKind};
use crate::error::{BytesProblem, Error};
use crate::fingerprint::check_fits;

const MAGIC: &[u8; 8] = b"SIMPIDX\0";
/// The newest version written and read; every version from 1 up to it is read.
const VERSION: u16 = 3;
const HEADER: usize = 24;
const CHECKSUM: usize = 8;

fn checksum(bytes: &[u8]) -> u64 {
    let mut h = siphasher::sip::SipHasher13::new_with_keys(0, 0);
    h.write(bytes);
    h.finish()
}

fn bad(problem: BytesProblem) -> Error {
    Error::MalformedIndexBytes { problem }
}

/// A header field the rest of the crate rejected (a width, `k` or plan that cannot be).
fn bad_header(e: Error) -> Error {
    bad(BytesProblem::BadHeader(Box::new(e)))
}

/// The most memory [`Index::from_bytes`] lets the index of a `len`-byte buffer take: 16 times
/// the buffer, or 64 MiB when that is more. Planned automatically, an index takes 4 to 10
/// times its buffer (65 to 150 bytes per fingerprint of 16 or 24 bytes), so this refuses only
/// explicit plans of many tables over many fingerprints.
///
/// ```
/// assert_eq!(simprint::index::default_load_limit(1 << 30), 16 << 30);
/// assert_eq!(simprint::index::default_load_limit(100), 64 << 20);
/// ```
#[must_use]
pub fn default_load_limit(len: usize) -> usize {
    len.saturating_mul(16).max(64 << 20)
}

impl Index {
    /// The index as bytes (see [the format](crate::index#the-byte-format));
    /// [`Index::from_bytes`] reads them back.
    ///
    /// ```
    /// use simprint::{Fingerprint, Index};
    /// let mut index = Index::new(64, 3)?;
    /// index.insert(7, Fingerprint::new(0xabc, 64)?)?;
    /// let bytes = index.to_bytes();
    /// assert_eq!(bytes.len(), 24 + 16 + 8);
    /// assert_eq!(Index::from_bytes(&bytes)?.get(7), index.get(7));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let width = self.width();
        let fp_bytes = if width <= 64 { 8 } else { 16 };
        let entries = self.entries();
        let mut out = Vec::with_capacity(HEADER + entries.len() * (8 + fp_bytes) + CHECKSUM);
        // Names of stored entries only: a name given by id_for_name and never used is dropped.
        let named: Vec<(u64, &str)> = self
            .names
            .iter()
            .filter(|&(id, _)| self.get(id).is_some())
            .collect();
        // Plan kind, its two numbers, and the oldest version that knows the kind; names need 3.
        let (kind, first, second, version) = match self.explicit_plan().map(Plan::kind) {
            None => (0, 0, 0, 1u16),
            Some(PlanKind::Scan) => (2, 0, 0, 1),
            Some(PlanKind::Permuted { blocks }) => (1, blocks, 0, 1),
            Some(PlanKind::MultiIndex { substrings }) => (3, substrings, 0, 2),
            Some(PlanKind::Combined { blocks, key_blocks }) => (4, blocks, key_blocks, 2),
        };
        let version = if named.is_empty() { version } else { 3 };
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&version.to_le_bytes());
        // Widths are at most 128, k at most the width, blocks at most the width.
        let byte = |n: u32| u8::try_from(n).unwrap_or(u8::MAX);
        out.push(byte(width));
        out.push(byte(self.k()));
        out.extend_from_slice(&[kind, byte(first), byte(second), u8::from(version == 3)]);
        out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
        for (id, fp) in &entries {
            out.extend_from_slice(&id.to_le_bytes());
            out.extend_from_slice(&fp.value().to_le_bytes()[..fp_bytes]);
        }
        if !named.is_empty() {
            out.extend_from_slice(&(named.len() as u64).to_le_bytes());
            for (id, name) in named {
                out.extend_from_slice(&id.to_le_bytes());
                // Names are at most MAX_NAME_BYTES long.
                let len = u32::try_from(name.len()).unwrap_or(u32::MAX);
                out.extend_from_slice(&len.to_le_bytes());
                out.extend_from_slice(name.as_bytes());
            }
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads an index written by [`Index::to_bytes`], if it takes no more memory than
    /// [`default_load_limit`] of the buffer's length ([`Index::from_bytes_limited`] sets
    /// another limit).
    ///
    /// Fails with [`Error::MalformedIndexBytes`] on a truncated, corrupted, wrong-version or inconsistent
    /// buffer, and with [`Error::IndexTooLarge`] when the index it describes would take more memory
    /// than the limit; never panics, and allocates only after both check out.
    ///
    /// # Errors
    ///
    /// [`Error::MalformedIndexBytes`] for a buffer that is truncated, corrupted, of another
    /// version or inconsistent; [`Error::IndexTooLarge`] past the memory limit;
    /// [`Error::OutOfMemory`] when the memory cannot be had.
    ///
    /// ```
    /// use simprint::{Error, Index};
    /// let mut bytes = Index::new(64, 3)?.to_bytes();
    /// assert!(Index::from_bytes(&bytes).is_ok());
    /// bytes[20] ^= 1; // corrupt the count
    /// assert!(matches!(Index::from_bytes(&bytes), Err(Error::MalformedIndexBytes { .. })));
    /// assert!(matches!(Index::from_bytes(b"nonsense"), Err(Error::MalformedIndexBytes { .. })));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Index, Error> {
        Index::from_bytes_limited(bytes, default_load_limit(bytes.len()))
    }

    /// [`Index::from_bytes`] with the memory limit given: the index the buffer describes
    /// (its fingerprints and the tables of its plan, as [`Index::memory_bytes`] would report
    /// them once loaded) must take at most `max_memory` bytes, else [`Error::IndexTooLarge`]
    /// before anything is built. `usize::MAX` trusts the buffer; building can still fail with
    /// [`Error::OutOfMemory`], never an abort.
    ///
    /// # Errors
    ///
    /// As [`Index::from_bytes`], with `max_memory` as the limit.
    ///
    /// ```
    /// use simprint::{Error, Fingerprint, Index, Plan};
    /// // An explicit plan with 56 tables: 1,000 fingerprints need about 0.8 MB.
    /// let mut index = Index::with_plan(Plan::with_blocks(64, 5, 8)?)?;
    /// index.insert_many((0..1000u64).map(|i| (i, Fingerprint::new(u128::from(i), 64).unwrap())))?;
    /// let bytes = index.to_bytes();
    /// assert!(matches!(Index::from_bytes_limited(&bytes, 100_000), Err(Error::IndexTooLarge { .. })));
    /// let loaded = Index::from_bytes_limited(&bytes, 1 << 20)?;
    /// assert!(loaded.memory_bytes() <= 1 << 20);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn from_bytes_limited(bytes: &[u8], max_memory: usize) -> Result<Index, Error> {
        if bytes.len() < HEADER + CHECKSUM {
            return Err(bad(BytesProblem::TooShort {
                len: bytes.len(),
                min: HEADER + CHECKSUM,
            }));
        }
        if &bytes[..8] != MAGIC {
            return Err(bad(BytesProblem::NotAnIndex));
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version == 0 || version > VERSION {
            return Err(bad(BytesProblem::UnsupportedVersion {
                version,
                supported: VERSION,
            }));
        }
        let (width, k) = (u32::from(bytes[10]), u32::from(bytes[11]));
        check_k(width, k).map_err(bad_header)?;
        let (plan_kind, blocks, key_blocks) =
            (bytes[12], u32::from(bytes[13]), u32::from(bytes[14]));
        // Byte 14 is reserved in version 1, and means something only for combined plans; byte
        // 15 says names follow, which is what version 3 is for.
        if bytes[15] > 1 || (key_blocks != 0 && (version == 1 || plan_kind != 4)) {
            return Err(bad(BytesProblem::ReservedNotZero));
        }
        if (bytes[15] == 1) != (version == 3) {
            return Err(bad(BytesProblem::NamesWithoutVersion));
        }
        let mut count = [0u8; 8];
        count.copy_from_slice(&bytes[16..24]);
        let count = u64::from_le_bytes(count);
        let fp_bytes: usize = if width <= 64 { 8 } else { 16 };
        let body = (bytes.len() - HEADER - CHECKSUM) as u64;
        let entry = 8 + fp_bytes as u64;
        // Version 3: the entries, then at least the names' count.
        let fits = if version == 3 {
            count
                .checked_mul(entry)
                .is_some_and(|e| e.checked_add(8).is_some_and(|least| least <= body))
        } else {
            body.is_multiple_of(entry) && body / entry == count
        };
        if !fits {
            return Err(bad(BytesProblem::CountMismatch {
                count,
                body,
                entry: 8 + fp_bytes,
            }));
        }
        if !matches!(plan_kind, 1 | 3 | 4) && blocks != 0 {
            // Else two buffers would load as the same index: the format has one encoding.
            return Err(bad(BytesProblem::BlocksWithoutPlan { blocks }));
        }
        if version == 2 && plan_kind <= 2 {
            return Err(bad(BytesProblem::NeedlessVersion { kind: plan_kind }));
        }
        let plan = match plan_kind {
            0 => None,
            1 => Some(Plan::with_blocks(width, k, blocks).map_err(bad_header)?),
            2 => Some(Plan::scan(width, k).map_err(bad_header)?),
            3 if version >= 2 => Some(Plan::multi_index(width, k, blocks).map_err(bad_header)?),
            4 if version >= 2 => {
                Some(Plan::combined(width, k, blocks, key_blocks).map_err(bad_header)?)
            }
            kind => return Err(bad(BytesProblem::UnknownPlanKind { kind })),
        };
        let index = match plan {
            Some(plan) => Index::with_plan(plan)?,
            None => Index::new(width, k)?,
        };
        // The length check above bounds count by the buffer's own size, so it fits a usize.
        let n = usize::try_from(count).unwrap_or(usize::MAX);
        let entries_end = HEADER + n * (8 + fp_bytes);
        let names_len = bytes.len() - CHECKSUM - entries_end;
        let need = match &index.inner {
            Inner::Narrow(e) => e.bytes_after_load(n),
            Inner::Wide(e) => e.bytes_after_load(n),
        }
        .saturating_add(names_bytes_bound(names_len));
        if need > max_memory {
            return Err(Error::IndexTooLarge {
                bytes: need,
                limit: max_memory,
                fingerprints: n,
                tables: index.plan_for_len(n).tables().len(),
            });
        }
        // Cheap checks first: the checksum reads every byte.
        let end = bytes.len() - CHECKSUM;
        let mut stored = [0u8; 8];
        stored.copy_from_slice(&bytes[end..]);
        if u64::from_le_bytes(stored) != checksum(&bytes[..end]) {
            return Err(bad(BytesProblem::ChecksumMismatch));
        }
        // One reservation of the whole size first: without the memory, an error now rather
        // than after the entries were read.
        drop(try_vec_with_capacity::<u8>(need)?);
        let entries = &bytes[HEADER..entries_end];
        let Index {
            mut inner,
            mut names,
        } = index;
        match &mut inner {
            Inner::Narrow(e) => load(e, entries, width, fp_bytes)?,
            Inner::Wide(e) => load(e, entries, width, fp_bytes)?,
        }
        let mut loaded = Index {
            inner,
            names: core::mem::take(&mut names),
        };
        if version == 3 {
            read_names(&mut loaded, &bytes[entries_end..end])?;
        }
        Ok(loaded)
    }
}

/// The most memory the names of a `section`-byte names section take once loaded (as
/// `Names::bytes` counts it): each name kept twice (both ways), and a map node's overhead per
/// name, at most one name per 12 bytes. Saturating: on wasm32 the product overflows `usize`
/// for a section of over 322 MB, and a wrapped estimate would let it past the memory limit.
fn names_bytes_bound(section: usize) -> usize {
    section
        .saturating_mul(2)
        .saturating_add((section / 12).saturating_mul(160))
}

/// Reads the names section into `index`: a count of at least one, then ids ascending, each an
/// entry's and at least [`FIRST_NAMED_ID`], each with a UTF-8 name of at most
/// [`MAX_NAME_BYTES`] bytes used once.
fn read_names(index: &mut Index, mut section: &[u8]) -> Result<(), Error> {
    let malformed = || bad(BytesProblem::MalformedNames);
    let mut take = |n: usize| -> Result<&[u8], Error> {
        let (head, rest) = section.split_at_checked(n).ok_or_else(malformed)?;
        section = rest;
        Ok(head)
    };
    let le64 = |b: &[u8]| {
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        u64::from_le_bytes(a)
    };
    let count = le64(take(8)?);
    if count == 0 {
        return Err(bad(BytesProblem::NamesWithoutVersion));
    }
    let mut last: Option<u64> = None;
    for _ in 0..count {
        let id = le64(take(8)?);
        let mut len = [0u8; 4];
        len.copy_from_slice(take(4)?);
        let len = usize::try_from(u32::from_le_bytes(len)).unwrap_or(usize::MAX);
        if len > MAX_NAME_BYTES || last.is_some_and(|l| l >= id) || index.get(id).is_none() {
            return Err(malformed());
        }
        if id < FIRST_NAMED_ID {
            return Err(bad(BytesProblem::NamedIdBelowRange { id }));
        }
        last = Some(id);
        let name = core::str::from_utf8(take(len)?).map_err(|_| malformed())?;
        if index.names.id_of(name).is_some() {
            return Err(malformed());
        }
        index.names.restore(id, String::from(name));
    }
    if !section.is_empty() {
        return Err(malformed());
    }
    Ok(())
}

/// Reads the entries into `engine` as one segment: checked (ascending ids, fingerprints
/// within the width), in one vector reserved fallibly.
fn load<B: Bits>(
    engine: &mut Engine<B>,
    entries: &[u8],
    width: u32,
    fp_bytes: usize,
) -> Result<(), Error> {
    let mut items = try_vec_with_capacity(entries.len() / (8 + fp_bytes))?;
    let mut last: Option<u64> = None;
    for entry in entries.chunks_exact(8 + fp_bytes) {
        let mut id = [0u8; 8];
        id.copy_from_slice(&entry[..8]);
        let id = u64::from_le_bytes(id);
        if last.is_some_and(|l| l >= id) {
            return Err(bad(BytesProblem::IdsNotAscending));
        }
        last = Some(id);
        let mut v = [0u8; 16];
        v[..fp_bytes].copy_from_slice(&entry[8..]);
        let v = u128::from_le_bytes(v);
        if check_fits(v, width).is_err() {
            return Err(bad(BytesProblem::EntryTooWide {
                id,
                bits: 128 - v.leading_zeros(),
                width,
            }));
        }
        items.push((id, B::from_u128(v)));
    }
    engine.insert_many(items)
}

#[cfg(test)]
mod tests {
    use super::names_bytes_bound;

    #[test]
    fn the_names_bound_saturates() {
        // What a section of over 322 MB is to a 32-bit usize.
        assert_eq!(names_bytes_bound(usize::MAX), usize::MAX);
        assert_eq!(names_bytes_bound(usize::MAX / 12), usize::MAX);
        assert_eq!(names_bytes_bound(120), 240 + 10 * 160);
    }
}
