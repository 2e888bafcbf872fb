//! The index's byte format: versioned, little-endian, checksummed.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `b"SIMPIDX\0"` |
//! | 8 | 2 | format version, `1` |
//! | 10 | 1 | width `f`, 1 to 128 |
//! | 11 | 1 | `k`, 0 to `f` |
//! | 12 | 1 | plan: `0` automatic, `1` explicit blocks, `2` explicit scan |
//! | 13 | 1 | blocks of an explicit plan (else 0) |
//! | 14 | 2 | reserved, 0 |
//! | 16 | 8 | count `n` of entries |
//! | 24 | `n × (8 + w)` | entries by ascending id: id (`u64`), fingerprint (`w` = 8 bytes for `f ≤ 64`, else 16) |
//! | end − 8 | 8 | SipHash-1-3 (key of 16 zero bytes) of every byte before it |
//!
//! Tables are not stored: loading rebuilds them, so a buffer cannot smuggle in a table that
//! disagrees with its fingerprints. Loading checks every field and that the length is exactly
//! what the header says before allocating anything sized by it.

use alloc::format;
use alloc::vec::Vec;
use core::hash::Hasher as _;

use super::plan::{check_k, Plan};
use super::Index;
use crate::error::Error;
use crate::fingerprint::{check_fits, Fingerprint};

const MAGIC: &[u8; 8] = b"SIMPIDX\0";
const VERSION: u16 = 1;
const HEADER: usize = 24;
const CHECKSUM: usize = 8;

fn checksum(bytes: &[u8]) -> u64 {
    let mut h = siphasher::sip::SipHasher13::new_with_keys(0, 0);
    h.write(bytes);
    h.finish()
}

fn bad(why: impl core::fmt::Display) -> Error {
    Error::Bytes(format!("{why}"))
}

impl Index {
    /// The index as bytes (see the [format](self)); [`Index::from_bytes`] reads them back.
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
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(width as u8);
        out.push(self.k() as u8);
        match self.explicit_plan() {
            None => out.extend_from_slice(&[0, 0]),
            Some(p) if p.is_scan() => out.extend_from_slice(&[2, 0]),
            Some(p) => out.extend_from_slice(&[1, p.blocks().len() as u8]),
        }
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
        for (id, fp) in &entries {
            out.extend_from_slice(&id.to_le_bytes());
            out.extend_from_slice(&fp.value().to_le_bytes()[..fp_bytes]);
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads an index written by [`Index::to_bytes`].
    ///
    /// Fails with [`Error::Bytes`] on a truncated, corrupted, wrong-version or inconsistent
    /// buffer; never panics, and allocates only after the length checks out.
    ///
    /// ```
    /// use simprint::{Error, Index};
    /// let mut bytes = Index::new(64, 3)?.to_bytes();
    /// assert!(Index::from_bytes(&bytes).is_ok());
    /// bytes[20] ^= 1; // corrupt the count
    /// assert!(matches!(Index::from_bytes(&bytes), Err(Error::Bytes(_))));
    /// assert!(matches!(Index::from_bytes(b"nonsense"), Err(Error::Bytes(_))));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Index, Error> {
        if bytes.len() < HEADER + CHECKSUM {
            return Err(bad(format!(
                "index bytes: {} bytes is shorter than the {} of an empty index",
                bytes.len(),
                HEADER + CHECKSUM
            )));
        }
        if &bytes[..8] != MAGIC {
            return Err(bad("index bytes: not a simprint index (bad magic)"));
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != VERSION {
            return Err(bad(format!(
                "index bytes: format version {version} is not supported (this build reads {VERSION})"
            )));
        }
        let (width, k) = (u32::from(bytes[10]), u32::from(bytes[11]));
        check_k(width, k).map_err(|e| bad(format!("index bytes: {e}")))?;
        let (plan_kind, blocks) = (bytes[12], u32::from(bytes[13]));
        if bytes[14] != 0 || bytes[15] != 0 {
            return Err(bad("index bytes: reserved header bytes are not zero"));
        }
        let mut count = [0u8; 8];
        count.copy_from_slice(&bytes[16..24]);
        let count = u64::from_le_bytes(count);
        let fp_bytes: usize = if width <= 64 { 8 } else { 16 };
        let body = (bytes.len() - HEADER - CHECKSUM) as u64;
        if !body.is_multiple_of(8 + fp_bytes as u64) || body / (8 + fp_bytes as u64) != count {
            return Err(bad(format!(
                "index bytes: the header says {count} entries but {body} bytes of entries follow \
                 ({} bytes each): truncated or corrupted",
                8 + fp_bytes
            )));
        }
        let end = bytes.len() - CHECKSUM;
        let mut stored = [0u8; 8];
        stored.copy_from_slice(&bytes[end..]);
        if u64::from_le_bytes(stored) != checksum(&bytes[..end]) {
            return Err(bad(
                "index bytes: checksum mismatch: the buffer is corrupted",
            ));
        }
        if plan_kind != 1 && blocks != 0 {
            // Else two buffers would load as the same index: the format has one encoding.
            return Err(bad(format!(
                "index bytes: blocks is {blocks} but the plan is not explicit blocks (it must be 0)"
            )));
        }
        let plan = match plan_kind {
            0 => None,
            1 => Some(
                Plan::with_blocks(width, k, blocks)
                    .map_err(|e| bad(format!("index bytes: {e}")))?,
            ),
            2 => Some(Plan::scan(width, k)?),
            other => return Err(bad(format!("index bytes: unknown plan kind {other}"))),
        };
        let mut index = match plan {
            Some(plan) => Index::with_plan(plan)?,
            None => Index::new(width, k)?,
        };
        // The length check above bounds count by the buffer's own size.
        let mut items = Vec::with_capacity(count as usize);
        let mut last: Option<u64> = None;
        for entry in bytes[HEADER..end].chunks_exact(8 + fp_bytes) {
            let mut id = [0u8; 8];
            id.copy_from_slice(&entry[..8]);
            let id = u64::from_le_bytes(id);
            if last.is_some_and(|l| l >= id) {
                return Err(bad("index bytes: ids are not in strictly ascending order"));
            }
            last = Some(id);
            let mut v = [0u8; 16];
            v[..fp_bytes].copy_from_slice(&entry[8..]);
            let v = check_fits(u128::from_le_bytes(v), width)
                .map_err(|e| bad(format!("index bytes: id {id}: {e}")))?;
            items.push((id, Fingerprint::from_parts(v, width)));
        }
        index.insert_many(items)?;
        Ok(index)
    }
}
