//! The teaching path beside [`Segment::query`]: every fingerprint a query examines, in the
//! order it examines them, with the table and probe that found it (`Index::explain_query`).
//! Plain loops over the same probes; the fast path batches and prefetches them instead.

use super::bits::Bits;
use super::results::Probe;
use super::segment::Segment;

impl<B: Bits> Segment<B> {
    /// Calls `seen(id, distance, table, probe)` for every live fingerprint a query for `q`
    /// within `k` examines: each one in a bucket the query probes in each table, or every one
    /// when the plan is a scan (`None`). For teaching and debugging; [`Segment::query`] is the
    /// fast path.
    pub(super) fn examine(
        &self,
        q: B,
        k: u32,
        seen: &mut impl FnMut(u64, u32, Option<u32>, Option<Probe>),
    ) {
        if self.tables.is_empty() {
            for (slot, &fp) in self.fps.iter().enumerate() {
                if !self.is_dead(slot) {
                    seen(self.ids[slot], fp.distance(q), None, None);
                }
            }
            return;
        }
        for ((t, table), &reach) in (0u32..).zip(&self.tables).zip(self.radii(k)) {
            let Some(radius) = super::radii::radius(reach) else {
                continue;
            };
            let own = q.bucket(&table.shape);
            table.each_probe(t, q, radius, &mut |p| {
                let probe = (!table.read_whole).then(|| Probe {
                    // Below 2^26.
                    bucket: u32::try_from(own ^ p.flips as usize).unwrap_or(u32::MAX),
                    bucket_bits: table.bits,
                    flips: table.shape.fingerprint_bits(p.flips),
                });
                for i in p.start as usize..p.end as usize {
                    let slot = table.slots[i] as usize;
                    if !self.is_dead(slot) {
                        let d = self.fps[slot].distance(q);
                        seen(self.ids[slot], d, Some(t), probe);
                    }
                }
            });
        }
    }
}
