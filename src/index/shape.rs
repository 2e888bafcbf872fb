//! A table's key shape: which fingerprint bits make its key (its blocks' bits concatenated, the
//! first block highest), how the bucket number is cut from the key, and which fingerprint bits
//! each bucket bit comes from.

use alloc::vec::Vec;

use super::plan::Plan;

/// Extracts one table's key from a fingerprint, and its bucket number from the key.
#[derive(Clone, Debug)]
pub(crate) struct KeyShape {
    /// (right shift to bring the block to bit 0, mask of its length, its length) per block.
    pub(super) parts: Vec<(u32, u128, u32)>,
    /// Right shift from key to bucket number (`key_bits − bucket_bits`).
    pub(super) bucket_shift: u32,
}

impl KeyShape {
    /// The shape of `plan`'s table `table` with bucket numbers of `bucket_bits` bits (at most
    /// the key's).
    pub(crate) fn new(plan: &Plan, table: usize, bucket_bits: u32) -> KeyShape {
        let spec = &plan.tables()[table];
        let parts = spec
            .blocks
            .iter()
            .map(|&b| {
                let block = plan.blocks()[b as usize];
                let shift = plan.width() - block.start - block.len;
                (shift, u128::MAX >> (128 - block.len), block.len)
            })
            .collect();
        KeyShape {
            parts,
            bucket_shift: spec.key_bits - bucket_bits,
        }
    }

    /// The key of the fingerprint `v`.
    #[inline]
    pub(crate) fn key(&self, v: u128) -> u128 {
        self.parts.iter().fold(0u128, |key, &(shift, mask, len)| {
            // len < 128 whenever there are two or more parts; a single 128-bit block is the key.
            let key = if len >= 128 { 0 } else { key << len };
            key | ((v >> shift) & mask)
        })
    }

    /// The fingerprint bits (as a mask of the value) that bits `mask` of the bucket number
    /// come from: what a probe's flips flip in the query.
    pub(crate) fn fingerprint_bits(&self, mask: u32) -> u128 {
        let mut out = 0u128;
        for j in 0..32u32 {
            if mask >> j & 1 == 0 {
                continue;
            }
            // Bit j of the bucket is bit `bucket_shift + j` of the key, counted from its lowest;
            // the last part holds the key's lowest bits.
            let mut p = self.bucket_shift + j;
            for &(shift, _, len) in self.parts.iter().rev() {
                if p < len {
                    out |= 1u128 << (shift + p);
                    break;
                }
                p -= len;
            }
        }
        out
    }

    /// Heap bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.parts.capacity() * 32
    }
}
