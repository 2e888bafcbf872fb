//! Fingerprint accumulation: the per-bit weight vector `V` and its signs.
//! The rule is [`Accumulator`]'s documentation.

use crate::error::Error;
use crate::fingerprint::{check_fits, check_width, Fingerprint, MAX_WIDTH};

/// Accumulates weighted, pre-hashed features into `V` (the general, teaching-friendly path).
///
/// 1. `V` starts as `f` zeros.
/// 2. For each feature with weight `w` and `f`-bit hash `h`: `V[i] += w` where bit `i` of `h`
///    is 1, `V[i] -= w` where it is 0 (bit 0 is the most significant of the `f` bits).
/// 3. Bit `i` of the fingerprint is 1 iff `V[i] > 0`. **Tie rule:** `V[i] == 0` gives 0, as do
///    negative values; an empty text therefore has the all-zero fingerprint.
///
/// ```
/// use simprint::Accumulator;
/// // The reference material's 6-bit example: 美国 → 100101 weight 4, 51区 → 101011 weight 5.
/// let mut acc = Accumulator::new(6)?;
/// acc.add(0b100101, 4.0)?;
/// acc.add(0b101011, 5.0)?;
/// assert_eq!(acc.v(), [9.0, -9.0, 1.0, -1.0, 1.0, 9.0]);
/// assert_eq!(acc.fingerprint().to_binary(), "101011");
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Accumulator {
    width: u32,
    v: [f64; MAX_WIDTH as usize],
}

impl Accumulator {
    /// An all-zero `V` for `width` bits (`1..=128`).
    ///
    /// # Errors
    ///
    /// [`Error::WidthOutOfRange`] for a width outside `1..=128`.
    ///
    /// ```
    /// assert!(simprint::Accumulator::new(0).is_err());
    /// ```
    pub fn new(width: u32) -> Result<Accumulator, Error> {
        Ok(Accumulator {
            width: check_width(width)?,
            v: [0.0; MAX_WIDTH as usize],
        })
    }

    /// Adds one feature: `+weight` on the bits where `hash` is 1, `−weight` where it is 0.
    ///
    /// Fails if `hash` has bits above the width or `weight` is not finite; `V` is unchanged
    /// then. Any finite weight is accepted: 0 changes nothing, a negative weight pushes the
    /// other way.
    ///
    /// # Errors
    ///
    /// [`Error::ValueTooWide`] for a hash with bits at or above the width,
    /// [`Error::NonFiniteWeight`] for a NaN or infinite weight; `V` is unchanged then.
    ///
    /// ```
    /// let mut acc = simprint::Accumulator::new(3)?;
    /// assert!(acc.add(0b1000, 1.0).is_err());
    /// assert!(acc.add(0b101, f64::NAN).is_err());
    /// acc.add(0b101, 2.0)?;
    /// assert_eq!(acc.v(), [2.0, -2.0, 2.0]);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn add(&mut self, hash: u128, weight: f64) -> Result<(), Error> {
        check_fits(hash, self.width)?;
        if !weight.is_finite() {
            return Err(Error::NonFiniteWeight { weight });
        }
        self.add_trusted(hash, weight);
        Ok(())
    }

    /// [`Accumulator::add`] for a hash known to fit and a finite weight (the pipeline's own).
    pub(crate) fn add_trusted(&mut self, hash: u128, weight: f64) {
        debug_assert!(check_fits(hash, self.width).is_ok() && weight.is_finite());
        let width = self.width as usize;
        // Bit 0 of the fingerprint moved to the top of the u128, then each half's bits from
        // the top. `V[i] -= w` is `V[i] += -w` exactly, so flipping the sign bit of `w` where
        // the hash bit is 0 gives the same sums with no branch (and lets the loop vectorize).
        let aligned = hash << (128 - width);
        #[allow(clippy::cast_possible_truncation, reason = "the u128's two halves")]
        let halves = [(aligned >> 64) as u64, aligned as u64];
        let w = weight.to_bits();
        for (v, half) in self.v[..width].chunks_mut(64).zip(halves) {
            for (i, vi) in v.iter_mut().enumerate() {
                let zero = !(half >> (63 - i)) & 1;
                *vi += f64::from_bits(w ^ (zero << 63));
            }
        }
    }

    /// `V` of the unit-weight hashes counted in `unit`, exactly: its entries are integers far
    /// below 2^53, so this is what adding each of those hashes with weight 1 would have given.
    pub(crate) fn from_unit(unit: &UnitCounter) -> Accumulator {
        let mut acc = Accumulator {
            width: unit.width,
            v: [0.0; MAX_WIDTH as usize],
        };
        for (vi, x) in acc.v.iter_mut().zip(unit.v()) {
            *vi = x as f64;
        }
        acc
    }

    /// The current `V`, one entry per bit, bit 0 first.
    ///
    /// ```
    /// assert_eq!(simprint::Accumulator::new(2)?.v(), [0.0, 0.0]);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn v(&self) -> &[f64] {
        &self.v[..self.width as usize]
    }

    /// The width in bits.
    ///
    /// ```
    /// assert_eq!(simprint::Accumulator::new(5)?.width(), 5);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The fingerprint of what was added so far: bit `i` is 1 iff `V[i] > 0`.
    ///
    /// ```
    /// let mut acc = simprint::Accumulator::new(2)?;
    /// acc.add(0b10, 1.0)?;
    /// acc.add(0b01, 1.0)?; // V = (0, 0): ties give 0
    /// assert_eq!(acc.fingerprint().value(), 0);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint::from_parts(signs(self.v().iter().map(|&x| x > 0.0)), self.width)
    }
}

/// Packs per-bit signs (bit 0 first) into the low bits of a `u128`.
fn signs(positive: impl Iterator<Item = bool>) -> u128 {
    positive.fold(0u128, |acc, p| (acc << 1) | u128::from(p))
}

/// Counts, per bit, how many unit-weight hashes had a 1 there: `V[i] = 2·ones[i] − total`.
///
/// This is the text pipeline's path (every occurrence, or every distinct feature, weighs 1), so
/// it stays in exact integers and never sees an invalid hash or weight. The counts are kept
/// bit-sliced (a vertical counter): `planes[l]` holds bit `l` of every position's count, so
/// adding a hash is a ripple-carry over at most 8 words instead of 64 additions; every 255
/// hashes the planes are flushed into plain counters.
#[derive(Clone)]
pub(crate) struct UnitCounter {
    width: u32,
    total: u64,
    /// Flushed counts by value bit (0 = least significant), two 64-bit lanes; none until the
    /// first flush, so a short text's counter is a few words, neither allocated nor zeroed.
    counts: Option<alloc::boxed::Box<[u64; MAX_WIDTH as usize]>>,
    planes: [[u64; PLANES]; 2],
    pending: u32,
}

const PLANES: usize = 8;
/// Hashes the planes can count before they must be flushed (2^PLANES − 1).
const PLANE_LIMIT: u32 = (1 << PLANES) - 1;

impl UnitCounter {
    pub(crate) fn new(width: u32) -> UnitCounter {
        UnitCounter {
            width,
            total: 0,
            counts: None,
            planes: [[0; PLANES]; 2],
            pending: 0,
        }
    }

    /// Adds a hash already known to fit the width.
    // Out of line in wasm, where the inliner's lower threshold kept it so anyway: inlined,
    // its body now would come with it to every place a feature is handed over.
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    pub(crate) fn add(&mut self, hash: u128) {
        self.add_inlined(hash);
    }

    /// [`UnitCounter::add`] inlined wherever it is called: for the hot caller that already is
    /// a call of its own (the set of distinct features' `add_to_set`).
    #[inline(always)]
    #[allow(clippy::cast_possible_truncation, reason = "the u128's two halves")]
    pub(crate) fn add_inlined(&mut self, hash: u128) {
        self.total += 1;
        ripple(&mut self.planes[0], hash as u64);
        if self.width > 64 {
            ripple(&mut self.planes[1], (hash >> 64) as u64);
        }
        self.pending += 1;
        if self.pending == PLANE_LIMIT {
            self.flush();
        }
    }

    fn flush(&mut self) {
        let lanes = self.lanes();
        let counts = self
            .counts
            .get_or_insert_with(|| alloc::boxed::Box::new([0; MAX_WIDTH as usize]));
        add_planes(counts, &self.planes[..lanes]);
        self.planes = [[0; PLANES]; 2];
        self.pending = 0;
    }

    /// The lanes of 64 positions the width uses: lane 1 holds nothing at widths up to 64.
    fn lanes(&self) -> usize {
        if self.width > 64 {
            2
        } else {
            1
        }
    }

    /// Flushed counts plus what the planes hold, by value bit.
    fn all_counts(&self) -> [u64; MAX_WIDTH as usize] {
        let mut counts = self
            .counts
            .as_deref()
            .copied()
            .unwrap_or([0; MAX_WIDTH as usize]);
        add_planes(&mut counts, &self.planes[..self.lanes()]);
        counts
    }

    /// `V` as exact integers, bit 0 (the most significant of the width) first.
    pub(crate) fn v(&self) -> impl Iterator<Item = i64> {
        // Counts of features: far below i64::MAX for any text that fits in memory.
        let signed = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        let total = signed(self.total);
        let counts = self.all_counts();
        let w = self.width as usize;
        (0..w).map(move |i| 2 * signed(counts[w - 1 - i]) - total)
    }

    pub(crate) fn fingerprint(&self) -> Fingerprint {
        if self.total == u64::from(self.pending) {
            // Never flushed (fewer than 255 hashes: every short text), so each position's
            // count is the number its planes spell, and bit j of the value is set iff
            // `2·count_j > total`, i.e. `count_j > total / 2` (rounded down). That comparison
            // runs bit-sliced, top plane first, on 64 positions at once: 8 steps a lane
            // instead of reading 64 counts back out of the planes, which was most of a short
            // text's fixed cost in wasm.
            let half = self.total >> 1;
            let above = |planes: &[u64; PLANES]| {
                let (mut greater, mut equal) = (0u64, !0u64);
                for (l, &plane) in planes.iter().enumerate().rev() {
                    if (half >> l) & 1 == 0 {
                        greater |= equal & plane;
                        equal &= !plane;
                    } else {
                        equal &= plane;
                    }
                }
                greater
            };
            // Positions at or past the width count 0, never above half: the value fits.
            let value =
                (u128::from(above(&self.planes[1])) << 64) | u128::from(above(&self.planes[0]));
            return Fingerprint::from_parts(value, self.width);
        }
        Fingerprint::from_parts(signs(self.v().map(|x| x > 0)), self.width)
    }
}

/// Adds the counts the bit-sliced `planes` spell to `counts` (64 positions a lane). Each eight
/// positions are a square of bits, a byte of each plane, turned on its side
/// ([`transpose8`]) so that one word holds their eight counts as bytes: some fifty operations
/// for eight positions, where reading each position's bit out of each plane took 64 shifts
/// and adds (a flush every 255 distinct features was 3 % of a 10 KB document's time in wasm).
fn add_planes(counts: &mut [u64; MAX_WIDTH as usize], planes: &[[u64; PLANES]]) {
    for (lane, planes) in planes.iter().enumerate() {
        for group in 0..8 {
            // Byte l: the bits of plane l at positions 8·group to 8·group + 7.
            let rows = planes.iter().enumerate().fold(0u64, |rows, (l, &plane)| {
                rows | ((plane >> (8 * group)) & 0xFF) << (8 * l)
            });
            let columns = transpose8(rows);
            let at = lane * 64 + group * 8;
            for (j, count) in counts[at..at + 8].iter_mut().enumerate() {
                *count += (columns >> (8 * j)) & 0xFF;
            }
        }
    }
}

/// The 8×8 matrix of bits `x` (row `r` in byte `r`, column `c` in bit `c` of it) transposed:
/// bit `8r + c` moves to `8c + r`. Three rounds of swapping blocks across the diagonal (the
/// classic one, as in Hacker's Delight).
#[inline]
fn transpose8(x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    let x = x ^ t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    let x = x ^ t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// Adds the bits of `x` to the bit-sliced counters: a binary ripple-carry, one word per level.
#[inline]
fn ripple(planes: &mut [u64; PLANES], x: u64) {
    // Every level, always: an early exit when the carry dies out costs a mispredicted branch
    // on most hashes, more than the few levels it saves.
    let mut carry = x;
    for plane in planes.iter_mut() {
        let next = *plane & carry;
        *plane ^= carry;
        carry = next;
    }
}

/// The fingerprint of pre-hashed `(hash, weight)` features of `width` bits: the algorithm with
/// nothing in front of it, as in the reference material's worked examples.
///
/// Fails on a bad width, a hash with bits above the width, or a weight that is not finite.
///
/// # Errors
///
/// [`Error::WidthOutOfRange`] for a bad width, [`Error::ValueTooWide`] for a hash with bits
/// above it, [`Error::NonFiniteWeight`] for a weight that is not finite.
///
/// ```
/// let hashes = [(0b101, 1.0), (0b011, 2.0), (0b100, 0.0), (0b001, 3.0), (0b110, 0.0)];
/// assert_eq!(simprint::fingerprint_hashes(3, hashes)?.to_binary(), "001");
/// # Ok::<(), simprint::Error>(())
/// ```
pub fn fingerprint_hashes(
    width: u32,
    features: impl IntoIterator<Item = (u128, f64)>,
) -> Result<Fingerprint, Error> {
    let mut acc = Accumulator::new(width)?;
    for (hash, weight) in features {
        acc.add(hash, weight)?;
    }
    Ok(acc.fingerprint())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit `i` (from the most significant of `width` bits) of `hash`.
    fn bit(hash: u128, width: u32, i: u32) -> bool {
        (hash >> (width - 1 - i)) & 1 == 1
    }

    #[test]
    fn three_bit_worked_example() {
        // w1..w5 with hashes 101, 011, 100, 001, 110 and weights 1, 2, 0, 3, 0.
        let mut acc = Accumulator::new(3).unwrap();
        for (h, w) in [
            (0b101, 1.0),
            (0b011, 2.0),
            (0b100, 0.0),
            (0b001, 3.0),
            (0b110, 0.0),
        ] {
            acc.add(h, w).unwrap();
        }
        assert_eq!(acc.v(), [-4.0, -2.0, 6.0]);
        assert_eq!(acc.fingerprint().to_binary(), "001");
    }

    #[test]
    fn transpose8_moves_every_bit_across_the_diagonal() {
        for r in 0..8 {
            for c in 0..8 {
                assert_eq!(transpose8(1 << (8 * r + c)), 1 << (8 * c + r), "{r} {c}");
            }
        }
        let x = 0x0123_4567_89ab_cdef_u64;
        assert_eq!(transpose8(transpose8(x)), x);
    }

    #[test]
    fn planes_add_the_counts_they_spell() {
        // Planes of pseudo-random bits: each position's count is read bit by bit, as before.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut planes = [[0u64; PLANES]; 2];
        for plane in planes.iter_mut().flatten() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *plane = x;
        }
        let mut counts = [0u64; MAX_WIDTH as usize];
        counts[5] = 1000;
        let mut want = counts;
        for (lane, lane_planes) in planes.iter().enumerate() {
            for (l, &plane) in lane_planes.iter().enumerate() {
                for p in 0..64 {
                    want[lane * 64 + p] += ((plane >> p) & 1) << l;
                }
            }
        }
        add_planes(&mut counts, &planes);
        assert_eq!(counts, want);
        // One lane leaves the other alone.
        let mut one = [0u64; MAX_WIDTH as usize];
        add_planes(&mut one, &planes[..1]);
        want[5] -= 1000;
        assert_eq!(one[..64], want[..64]);
        assert!(one[64..].iter().all(|&c| c == 0));
    }

    #[test]
    fn unit_counter_matches_weighted_accumulator() {
        for width in [1u32, 3, 63, 64, 65, 127, 128] {
            let mut acc = Accumulator::new(width).unwrap();
            let mut unit = UnitCounter::new(width);
            let mut x: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834;
            for _ in 0..1037 {
                x = x
                    .wrapping_mul(0x2360_ed05_1fc6_5da4_4385_df64_9fcc_f645)
                    .wrapping_add(1);
                let h = x >> (128 - width);
                acc.add(h, 1.0).unwrap();
                unit.add(h);
                // After every hash: below 255 the fingerprint comes from the planes alone.
                assert_eq!(acc.fingerprint(), unit.fingerprint());
            }
            let v: alloc::vec::Vec<f64> = unit.v().map(|x| x as f64).collect();
            assert_eq!(acc.v(), &v[..]);
            assert_eq!(acc.fingerprint(), unit.fingerprint());
        }
    }

    #[test]
    fn unit_counter_short_texts_skewed_bits() {
        // Counts far from half (bits mostly 0 or mostly 1) and exact ties, before any flush.
        for width in [1u32, 7, 64, 65, 128] {
            for skew in [0u8, 1, 2] {
                let mut acc = Accumulator::new(width).unwrap();
                let mut unit = UnitCounter::new(width);
                let mut x: u128 = 0x0f1e_2d3c_4b5a_6978_8796_a5b4_c3d2_e1f0;
                let mut next = || {
                    x = x
                        .wrapping_mul(0x2360_ed05_1fc6_5da4_4385_df64_9fcc_f645)
                        .wrapping_add(1);
                    x >> (128 - width)
                };
                for _ in 0..300 {
                    let h = match skew {
                        0 => next() & next(),
                        1 => next() | next(),
                        _ => next(),
                    };
                    acc.add(h, 1.0).unwrap();
                    unit.add(h);
                    assert_eq!(acc.fingerprint(), unit.fingerprint());
                }
            }
        }
    }

    #[test]
    fn branch_free_add_equals_the_definition() {
        let mut x: u128 = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210;
        for width in [1u32, 2, 3, 31, 63, 64, 65, 100, 127, 128] {
            let mut acc = Accumulator::new(width).unwrap();
            let mut reference = [0.0f64; MAX_WIDTH as usize];
            for step in 0..200 {
                x = x
                    .wrapping_mul(0x2360_ed05_1fc6_5da4_4385_df64_9fcc_f645)
                    .wrapping_add(1);
                let h = x >> (128 - width);
                let weight = [1.0, -2.5, 0.1, 1e-300, -0.0, 7.25e10][step % 6];
                acc.add(h, weight).unwrap();
                for (i, r) in reference[..width as usize].iter_mut().enumerate() {
                    if bit(h, width, i as u32) {
                        *r += weight;
                    } else {
                        *r -= weight;
                    }
                }
            }
            let bits = |v: &[f64]| {
                v.iter()
                    .map(|x| x.to_bits())
                    .collect::<alloc::vec::Vec<_>>()
            };
            assert_eq!(
                bits(acc.v()),
                bits(&reference[..width as usize]),
                "width {width}"
            );
        }
    }

    #[test]
    fn rejected_adds_leave_v_unchanged() {
        let mut acc = Accumulator::new(128).unwrap();
        acc.add(u128::MAX, 1.5).unwrap();
        assert!(acc.add(1, f64::INFINITY).is_err());
        assert!(acc.v().iter().all(|&x| x == 1.5));
        let mut acc = Accumulator::new(64).unwrap();
        assert!(acc.add(1 << 64, 1.0).is_err());
        assert!(acc.v().iter().all(|&x| x == 0.0));
    }
}
