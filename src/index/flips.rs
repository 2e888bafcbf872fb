//! The bit-flip enumeration behind every probe: all masks of at most `radius` set bits among
//! the low `bits` bits. The index probes bucket numbers with it (`u32` masks, at most 26 bits)
//! and [`Plan::probe_keys`](crate::Plan::probe_keys) whole table keys (`u128`, up to 128
//! bits), so both walk the same masks in the same order.

/// An unsigned integer a mask of flips fits in.
pub(crate) trait Mask: Copy + Eq {
    const ZERO: Self;
    const BITS: u32;
    /// The lowest `w` bits set (`w ≤ BITS`).
    fn low_ones(w: u32) -> Self;
    /// The next mask of the same number of set bits in ascending order, or `None` when it
    /// would not fit in the type (Gosper's next-combination step).
    fn next_same_weight(self) -> Option<Self>;
    /// True when no bit at or above `bits` is set.
    fn below(self, bits: u32) -> bool;
}

macro_rules! mask {
    ($t:ty) => {
        impl Mask for $t {
            const ZERO: $t = 0;
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn low_ones(w: u32) -> $t {
                <$t>::MAX.checked_shr(Self::BITS - w).unwrap_or(0)
            }
            #[inline]
            fn next_same_weight(self) -> Option<$t> {
                let low = self & self.wrapping_neg();
                let up = self.checked_add(low)?;
                // `/ low` as a shift: low is a power of two, and a division costs tens of
                // cycles. A shift past the type's width leaves nothing, as the division would.
                Some(
                    up | (up ^ self)
                        .checked_shr(low.trailing_zeros() + 2)
                        .unwrap_or(0),
                )
            }
            #[inline]
            fn below(self, bits: u32) -> bool {
                bits >= Self::BITS || self >> bits == 0
            }
        }
    };
}
mask!(u32);
mask!(u128);

/// Every mask of at most `radius` set bits among the low `bits` bits (`bits` at most the mask
/// type's width): 0 first, then by number of bits, ascending within each number. The one
/// enumeration of probes: the index's queries and joins walk it, and
/// [`Plan::probe_order`](crate::Plan::probe_order) shows it.
#[derive(Clone, Debug)]
pub(crate) struct Flips<M> {
    bits: u32,
    /// Most set bits, at most `bits`.
    radius: u32,
    /// Set bits of `next`.
    weight: u32,
    next: Option<M>,
}

impl<M: Mask> Flips<M> {
    #[inline]
    pub(crate) fn new(bits: u32, radius: u32) -> Flips<M> {
        let bits = bits.min(M::BITS);
        Flips {
            bits,
            radius: radius.min(bits),
            weight: 0,
            next: Some(M::ZERO),
        }
    }
}

impl<M: Mask> Iterator for Flips<M> {
    type Item = M;

    #[inline]
    fn next(&mut self) -> Option<M> {
        let m = self.next?;
        self.next = match m.next_same_weight() {
            // Gosper's step keeps 0 at 0: the weight-0 mask is the only one of its weight.
            Some(next) if self.weight > 0 && next.below(self.bits) => Some(next),
            _ if self.weight < self.radius => {
                self.weight += 1;
                Some(M::low_ones(self.weight))
            }
            _ => None,
        };
        Some(m)
    }
}

/// Calls `visit(flips)` for every mask of [`Flips`], in its order.
#[inline]
pub(crate) fn for_each_flip<M: Mask>(bits: u32, radius: u32, visit: &mut impl FnMut(M)) {
    for m in Flips::new(bits, radius) {
        visit(m);
    }
}

#[cfg(test)]
mod tests {
    use super::for_each_flip;
    use alloc::vec::Vec;

    fn masks<M: super::Mask>(bits: u32, radius: u32) -> Vec<M> {
        let mut out = Vec::new();
        for_each_flip(bits, radius, &mut |m| out.push(m));
        out
    }

    #[test]
    fn every_mask_within_the_radius_once_in_order() {
        for bits in 0..=10u32 {
            for radius in 0..=bits + 1 {
                let want: Vec<u32> = (0..=radius.min(bits))
                    .flat_map(|w| (0u32..1 << bits).filter(move |m| m.count_ones() == w))
                    .collect();
                assert_eq!(
                    masks::<u32>(bits, radius),
                    want,
                    "bits {bits}, radius {radius}"
                );
                let wide: Vec<u32> = masks::<u128>(bits, radius)
                    .into_iter()
                    .map(|m| u32::try_from(m).unwrap())
                    .collect();
                assert_eq!(wide, want, "u128, bits {bits}, radius {radius}");
            }
        }
    }

    #[test]
    fn the_top_bits_of_the_type() {
        // 128 bits, radius 2: 1 + 128 + 8128 masks, the last one the top two bits.
        let all = masks::<u128>(128, 2);
        assert_eq!(all.len(), 1 + 128 + 8128);
        assert_eq!(*all.last().unwrap(), 3u128 << 126);
        assert_eq!(masks::<u128>(128, 1).last(), Some(&(1u128 << 127)));
        assert_eq!(masks::<u32>(32, 1).len(), 33);
        assert_eq!(masks::<u32>(32, 1).last(), Some(&(1u32 << 31)));
    }
}
