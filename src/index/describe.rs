//! How each table of a plan is laid out and probed at a size: its bucket bits, the buckets a
//! query probes and in which order, and whether it holds folded words. The index builds its
//! tables and the cost model prices them from these numbers, and [`Plan::describe`] and
//! [`Plan::probe_order`] give them to callers, so nothing outside the core recomputes them.

use alloc::vec::Vec;

use super::flips::Flips;
use super::plan::{binomial, Plan, TableSpec};
use super::shape::KeyShape;

/// Most bits a bucket number has (a directory of 2²⁶ buckets is 256 MiB per table).
pub(crate) const MAX_BUCKET_BITS: u32 = 26;

/// Most of a table's candidates that may pass its first check on folded words for the table
/// to hold them ([`folds`]): 0.1%.
const FOLD_MAX_PASS: f64 = 0.001;

/// One table of a plan as the index builds it for `n` fingerprints, and what a query within
/// the plan's `k` reads in it ([`Plan::describe`]).
///
/// ```
/// use simprint::Plan;
/// // Multi-index hashing at k = 9: four 16-bit substrings probed within 2, 2, 1 and 1.
/// let tables = Plan::multi_index(64, 9, 4)?.describe(1_000_000);
/// let t = &tables[0];
/// assert_eq!((t.bucket_bits, t.probe_radius, t.probes), (16, 2, 1 + 16 + 120));
/// assert!(!t.read_whole && !t.folded); // too many candidates pass a folded check at k = 9
/// assert_eq!(tables[3].probes, 1 + 16);
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableDescription {
    /// Bits of the table's bucket numbers: the top `bucket_bits` bits of its key, about one
    /// bucket per fingerprint (`⌊log₂ n⌋`), at most one per key value, at most 26.
    pub bucket_bits: u32,
    /// Most bucket bits a probe flips: the table's radius, or the plan's `k` when that is less
    /// (a bucket more flips away holds nothing within `k`); 0 when the table is read whole.
    pub probe_radius: u32,
    /// Buckets a query probes: `Σ C(bucket_bits, i)` for `i ≤ probe_radius`, or 1 when the
    /// table is read whole.
    pub probes: u64,
    /// True when the radius reaches every bucket (`radius ≥ bucket_bits`): a query then reads
    /// the table whole, once, rather than bucket by bucket.
    pub read_whole: bool,
    /// True when the table holds each fingerprint's bits outside the bucket number folded to
    /// 32 (a first check, then an exact one for the few that pass); false when it holds whole
    /// fingerprints. A table folds when at most 0.1% of its random candidates would pass the
    /// folded check.
    pub folded: bool,
    /// Fingerprints a query checks in it among `n` random ones, by the cost model: the
    /// probed buckets' share of `n`.
    pub candidates: f64,
}

impl TableDescription {
    /// `spec`'s table in a plan for `k`, built for `n` fingerprints.
    pub(crate) fn of(spec: &TableSpec, k: u32, n: usize) -> TableDescription {
        let bits = bucket_bits(spec.key_bits, n);
        let nf = n as f64;
        let read_whole = spec.radius >= bits;
        let probe_radius = if read_whole { 0 } else { spec.radius.min(k) };
        let probes = if read_whole {
            1
        } else {
            probes(bits, probe_radius)
        };
        TableDescription {
            bucket_bits: bits,
            probe_radius,
            probes,
            read_whole,
            folded: fold_pass_rate(bits, spec.radius, k) <= FOLD_MAX_PASS,
            candidates: if read_whole {
                nf
            } else {
                // 2^bits exactly, as libm's exp2 gives it, without exp2's 4 KB table in the
                // .wasm (`bits` is at most MAX_BUCKET_BITS).
                probes as f64 * nf / (1u64 << bits) as f64
            },
        }
    }
}

impl Plan {
    /// Each table as the index builds it for `n` fingerprints (a segment of that size): its
    /// bucket bits, the buckets a query within the plan's `k` probes, whether it is read whole
    /// and whether it holds folded words. Empty for a scan.
    ///
    /// ```
    /// use simprint::Plan;
    /// let plan = Plan::with_blocks(64, 3, 4)?; // permuted: radius 0, one probe per table
    /// assert!(plan.describe(1_000_000).iter().all(|t| t.probes == 1 && t.folded));
    /// // Ten fingerprints: 3 bucket bits; a radius of 3 or more reads such a table whole.
    /// let t = Plan::multi_index(64, 12, 4)?.describe(10)[0];
    /// assert_eq!((t.bucket_bits, t.read_whole, t.probes), (3, true, 1));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn describe(&self, n: usize) -> Vec<TableDescription> {
        self.tables()
            .iter()
            .map(|t| TableDescription::of(t, self.k(), n))
            .collect()
    }

    /// The buckets a query within the plan's `k` probes in table `table` of a segment of `n`
    /// fingerprints, in the order the index probes them: each as the fingerprint bits flipped
    /// in the query to reach it (a mask of the value, `1 << (width − 1 − i)` for bit `i`, as
    /// [`Probe::flips`](crate::Probe::flips)). The query's own bucket first, then by number of
    /// flipped bits, then ascending as masks over the bucket number (whose lowest bit is the
    /// key's last bucket bit). A table read whole has one probe, flipping nothing. As many as
    /// [`TableDescription::probes`]; none past the last table.
    ///
    /// ```
    /// use simprint::Plan;
    /// let plan = Plan::multi_index(16, 3, 2)?; // two 8-bit substrings, the first within 1
    /// let order: Vec<u128> = plan.probe_order(0, 200).collect(); // 7 bucket bits at 200
    /// assert_eq!(order.len(), 8);
    /// assert_eq!(order[0], 0); // its own bucket
    /// // The bucket number's lowest bit is fingerprint bit 6 (the key's bits 0–6 are on top).
    /// assert_eq!(order[1], 1 << (15 - 6));
    /// assert_eq!(order[7], 1 << 15); // the bucket number's highest bit: fingerprint bit 0
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn probe_order(&self, table: usize, n: usize) -> impl Iterator<Item = u128> + '_ {
        let found = self.tables().get(table).map(|spec| {
            let d = TableDescription::of(spec, self.k(), n);
            let shape = KeyShape::new(self, table, d.bucket_bits);
            let flips = Flips::<u32>::new(d.bucket_bits, d.probe_radius);
            flips.map(move |m| shape.fingerprint_bits(m))
        });
        found.into_iter().flatten()
    }
}

/// The bits of a table's bucket number for `n` fingerprints under a key of `key_bits`: about
/// one bucket per fingerprint (`⌊log₂ n⌋`), at most one per key value, at most
/// [`MAX_BUCKET_BITS`].
pub(crate) fn bucket_bits(key_bits: u32, n: usize) -> u32 {
    let log = usize::BITS - 1 - n.max(1).leading_zeros();
    key_bits.min(log).min(MAX_BUCKET_BITS)
}

/// Buckets a probe within `radius` visits when bucket numbers have `bits` bits: the keys
/// within `radius` of one, `Σ C(bits, i)` for `i ≤ radius` (all `2^bits` once the radius
/// reaches `bits`).
pub(crate) fn probes(bits: u32, radius: u32) -> u64 {
    (0..=radius.min(bits)).fold(0u64, |sum, i| sum.saturating_add(binomial(bits, i)))
}

/// The share of a table's random candidates that pass a first check on 32 folded bits, when
/// bucket numbers have `bits` bits, the table is probed within `radius` and the query within
/// `k`: a candidate in a bucket `w` flips away passes when the 32 bits hold at most `k − w`
/// differences, which random bits do with probability `P(Binomial(32, ½) ≤ k − w)`.
///
/// A table holds folded 32-bit words rather than whole fingerprints (a quarter less memory at
/// 64 bits) when at most [`FOLD_MAX_PASS`] pass: each that passes costs two reads from
/// elsewhere (its slot, then its fingerprint). Measured at a million random 64-bit
/// fingerprints, four 16-bit substrings: folded and whole tables answer as fast at `k = 3` and
/// `6` (pass rates up to 0.03%), folded ones 10–20% slower at `k = 9` (0.14–0.39%) and twice
/// as slow at `k = 12` (1.4–2.9%).
fn fold_pass_rate(bits: u32, radius: u32, k: u32) -> f64 {
    // P(Binomial(32, ½) ≤ t).
    let within = |t: u32| {
        let ways = (0..=t.min(32)).fold(0u64, |sum, i| sum + binomial(32, i));
        ways as f64 / 4_294_967_296.0
    };
    if radius >= bits {
        // Every bucket is read as one: nothing is known of the bucket bits.
        return within(k);
    }
    let (mut pass, mut all) = (0.0, 0.0);
    for w in 0..=radius.min(k) {
        let probes = binomial(bits, w) as f64;
        all += probes;
        pass += probes * within(k - w);
    }
    pass / all
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether a table of `bits` bucket bits and `radius` holds folded words at `k`.
    fn folds(bits: u32, radius: u32, k: u32) -> bool {
        fold_pass_rate(bits, radius, k) <= FOLD_MAX_PASS
    }

    #[test]
    fn a_power_of_two_is_libms_exp2() {
        for bits in 0..=MAX_BUCKET_BITS {
            assert_eq!((1u64 << bits) as f64, libm::exp2(f64::from(bits)));
        }
    }

    #[test]
    fn bucket_bits_probes_and_folds() {
        assert_eq!(bucket_bits(16, 1_000_000), 16);
        assert_eq!(bucket_bits(21, 1_000_000), 19);
        assert_eq!(bucket_bits(21, 0), 0);
        assert_eq!(bucket_bits(40, usize::MAX), MAX_BUCKET_BITS);
        assert_eq!(probes(16, 0), 1);
        assert_eq!(probes(16, 2), 1 + 16 + 120);
        assert_eq!(probes(3, 5), 8);
        assert_eq!(probes(20, 3), 1 + 20 + 190 + 1140);
        assert!(fold_pass_rate(16, 2, 9) < 0.002); // most probes flip 2 bits: 7 left of 32
        assert!(fold_pass_rate(16, 3, 12) > 0.01);
        assert!(folds(16, 0, 3) && folds(16, 1, 6) && !folds(16, 2, 9) && !folds(16, 3, 12));
    }

    /// The order is the flip enumeration's, each bucket mask turned into the fingerprint bits
    /// it stands for: checked here against a plain reconstruction from the key's bit positions.
    #[test]
    fn probe_order_is_every_bucket_within_the_radius_as_fingerprint_bits() {
        let plans = [
            Plan::multi_index(16, 3, 2).unwrap(),
            Plan::combined(24, 6, 4, 2).unwrap(),
            Plan::with_blocks(20, 2, 4).unwrap(),
            Plan::multi_index(100, 20, 5).unwrap(),
        ];
        for plan in &plans {
            for n in [0, 1, 9, 300, 5000] {
                for (t, d) in plan.describe(n).iter().enumerate() {
                    let order: Vec<u128> = plan.probe_order(t, n).collect();
                    assert_eq!(order.len() as u64, d.probes, "{plan:?} n {n} table {t}");
                    // The key's fingerprint positions, first block first: the bucket number
                    // is its first `bucket_bits`, its lowest bit the last of those.
                    let positions: Vec<u32> = plan.tables()[t]
                        .blocks
                        .iter()
                        .flat_map(|&b| {
                            let block = plan.blocks()[b as usize];
                            block.start..block.start + block.len
                        })
                        .collect();
                    let bucket = &positions[..d.bucket_bits as usize];
                    let mask_of = |flips: u128| {
                        (0..d.bucket_bits).fold(0u32, |m, j| {
                            let bit = bucket[(d.bucket_bits - 1 - j) as usize];
                            m | (((flips >> (plan.width() - 1 - bit)) & 1) as u32) << j
                        })
                    };
                    let masks: Vec<u32> = order.iter().map(|&f| mask_of(f)).collect();
                    let mut want: Vec<u32> = (0..1u32 << d.bucket_bits)
                        .filter(|m| m.count_ones() <= d.probe_radius)
                        .collect();
                    want.sort_by_key(|m| (m.count_ones(), *m));
                    assert_eq!(masks, want, "{plan:?} n {n} table {t}");
                    // Only bucket bits are flipped.
                    let bucket_mask = bucket
                        .iter()
                        .fold(0u128, |m, &b| m | 1 << (plan.width() - 1 - b));
                    assert!(order.iter().all(|&f| f & !bucket_mask == 0));
                }
                assert_eq!(plan.probe_order(plan.tables().len(), n).count(), 0);
            }
        }
    }
}
