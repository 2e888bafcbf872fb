//! The planner's cost model: what a probe, a candidate check and a scanned fingerprint cost,
//! measured per scan kernels, because the kernels change their ratios (a scan with AVX-512
//! VPOPCNTDQ is seven times one without POPCNT, a probe costs about the same); a plan's
//! estimate under them, and the automatic choice of the cheapest plan.

use super::describe::TableDescription;
use super::plan::{binomial, combined_radius, Plan};
use crate::error::Error;
use crate::scan::{self, Kernels};

/// The cost model's prices, in nanoseconds per query step at a million fingerprints, for one
/// set of scan kernels. For fingerprints up to 64 bits (and, unmeasured, 65 to 127): the
/// least-squares fit, by relative error, of `SIMPRINT_PLANS=1 cargo bench --bench index`
/// (`SIMPRINT_KERNELS` for each level) and `SIMPRINT_PLANS=1 node bench/index.mjs` over 54
/// plans at k = 3 to 18, on 2 shared cores of an Intel Xeon (Emerald Rapids), 2026-11-24.
/// For 128-bit fingerprints (the `_128` prices): the same with `SIMPRINT_WIDTH=128` at k = 14
/// to 38, fitted over the plans within twice the fastest of their `k`, on a 2-core AMD EPYC,
/// 2026-11-28. The scan's price is the library's scan of the million (docs/index.md gives
/// the fits). Only the ratios within one width steer the planner, which never compares plans
/// of different widths.
///
/// ```
/// use simprint::{Costs, Plan};
/// let n = 1_000_000;
/// // At k = 18 a multi-index plan beats a scan at every level; at k = 30 none does.
/// for costs in [Costs::PORTABLE, Costs::AVX512, Costs::SIMD128] {
///     assert!(!Plan::auto_with(64, 18, n, costs).is_scan());
///     assert!(Plan::auto_with(64, 30, n, costs).is_scan());
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Costs {
    /// A probe: the bucket number, its directory entries and the bucket's cache lines, which
    /// at a million fingerprints come from memory (batched, so several misses overlap).
    pub probe_ns: f64,
    /// A candidate in a table of whole fingerprints: its distance check, a chunk at a time.
    pub check_ns: f64,
    /// A candidate in a table of folded 32-bit words ([`TableDescription::folded`]): half the
    /// bytes, and twice the words per vector register.
    pub check_folded_ns: f64,
    /// A fingerprint of a plain scan, which streams through memory.
    pub scan_ns: f64,
    /// [`Costs::probe_ns`] for 128-bit fingerprints.
    pub probe_128_ns: f64,
    /// [`Costs::check_ns`] for 128-bit fingerprints: two words a candidate. (Folded tables
    /// price at [`Costs::check_folded_ns`] at any width: their words are 32 bits.)
    pub check_128_ns: f64,
    /// [`Costs::scan_ns`] for 128-bit fingerprints: two words a fingerprint.
    pub scan_128_ns: f64,
}

impl Costs {
    /// Baseline x86-64 (SSE2, no POPCNT), and the level aarch64 and every other target runs.
    /// Its 128-bit prices are its 64-bit ones: measured on baseline x86-64 they came out at
    /// 20.4, 2.64 and 1.87 ns, but that is a software popcount's scan, which would move
    /// 128-bit plans toward tables on aarch64, whose count is in hardware (nearer the POPCNT
    /// level, where a scan costs 0.37) and which no one measured; so this level plans 128
    /// bits as before.
    ///
    /// ```
    /// use simprint::Costs;
    /// assert_eq!(Costs::PORTABLE.probe_ns, 29.0);
    /// assert_eq!(Costs::PORTABLE.scan_128_ns, Costs::PORTABLE.scan_ns);
    /// ```
    pub const PORTABLE: Costs = Costs {
        probe_ns: 29.0,
        check_ns: 1.49,
        check_folded_ns: 0.74,
        scan_ns: 1.12,
        probe_128_ns: 29.0,
        check_128_ns: 1.49,
        scan_128_ns: 1.12,
    };
    /// x86-64 with POPCNT.
    ///
    /// ```
    /// assert!(simprint::Costs::POPCNT.scan_ns < simprint::Costs::PORTABLE.scan_ns);
    /// ```
    pub const POPCNT: Costs = Costs {
        probe_ns: 29.3,
        check_ns: 0.98,
        check_folded_ns: 0.66,
        scan_ns: 0.42,
        probe_128_ns: 22.1,
        check_128_ns: 0.98,
        scan_128_ns: 0.37,
    };
    /// x86-64 with AVX2.
    ///
    /// ```
    /// assert!(simprint::Costs::AVX2.scan_ns < simprint::Costs::POPCNT.scan_ns);
    /// ```
    pub const AVX2: Costs = Costs {
        probe_ns: 29.5,
        check_ns: 1.02,
        check_folded_ns: 0.59,
        scan_ns: 0.39,
        probe_128_ns: 27.4,
        check_128_ns: 0.43,
        scan_128_ns: 0.36,
    };
    /// x86-64 with AVX-512 VPOPCNTDQ.
    ///
    /// ```
    /// assert!(simprint::Costs::AVX512.check_ns < simprint::Costs::AVX2.check_ns);
    /// ```
    pub const AVX512: Costs = Costs {
        probe_ns: 33.8,
        check_ns: 0.62,
        check_folded_ns: 0.35,
        scan_ns: 0.30,
        probe_128_ns: 27.2,
        check_128_ns: 0.41,
        scan_128_ns: 0.26,
    };
    /// WebAssembly with SIMD128 under Node 20 (V8): a probe costs half again what it costs
    /// natively, a check about what the portable native one does.
    ///
    /// ```
    /// assert!(simprint::Costs::SIMD128.probe_ns > simprint::Costs::PORTABLE.probe_ns);
    /// ```
    pub const SIMD128: Costs = Costs {
        probe_ns: 49.5,
        check_ns: 1.35,
        check_folded_ns: 1.01,
        scan_ns: 0.72,
        probe_128_ns: 56.7,
        check_128_ns: 3.11,
        scan_128_ns: 0.84,
    };

    /// The constants measured for `kernels`.
    ///
    /// ```
    /// use simprint::{Costs, Kernels};
    /// assert_eq!(Costs::of(Kernels::Avx2), Costs::AVX2);
    /// assert_eq!(Costs::of(Kernels::Simd128), Costs::SIMD128);
    /// ```
    #[must_use]
    pub fn of(kernels: Kernels) -> Costs {
        match kernels {
            Kernels::Popcnt => Costs::POPCNT,
            Kernels::Avx2 => Costs::AVX2,
            Kernels::Avx512 => Costs::AVX512,
            Kernels::Simd128 => Costs::SIMD128,
            Kernels::Portable => Costs::PORTABLE,
        }
    }

    /// The constants for the kernels this process runs ([`kernels`](crate::kernels)): what
    /// [`crate::Plan::auto`] and [`crate::Plan::estimate`] price with.
    ///
    /// ```
    /// use simprint::{kernels, Costs};
    /// assert_eq!(Costs::here(), Costs::of(kernels()));
    /// ```
    #[must_use]
    pub fn here() -> Costs {
        Costs::of(scan::kernels())
    }
}

/// The number of fingerprints a plan is sized for when its caller gives none (the JavaScript
/// `new Plan({ width, k })`): a million, the size the cost model's constants were measured at.
///
/// ```
/// use simprint::index::DEFAULT_PLAN_SIZE;
/// let plan = simprint::Plan::auto(64, 3, DEFAULT_PLAN_SIZE);
/// assert_eq!(plan.tables().len(), 4);
/// ```
pub const DEFAULT_PLAN_SIZE: usize = 1_000_000;

/// What one query against `n` random fingerprints costs under a plan, by the cost model
/// ([`Plan::estimate`]).
///
/// ```
/// let e = simprint::Plan::multi_index(64, 9, 5)?.estimate(1_000_000);
/// assert_eq!(e.probes, 69.0); // 1 + 13 buckets in each of four 13-bit substrings, 1 + 12 in the last
/// assert!(e.candidates > 9_000.0 && e.candidates < 11_000.0);
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Buckets visited.
    pub probes: f64,
    /// Fingerprints in them, each checked.
    pub candidates: f64,
    /// `probes × probe_ns + candidates × check_ns` (`check_folded_ns` for tables that fold),
    /// or `n × scan_ns` for a scan ([`Costs`]).
    pub nanos: f64,
}

/// Most tables [`Plan::auto`] uses for `k` at `width` and `n` fingerprints: 4 up to `k = 5`,
/// one more for each 6 more bits of `k`, at most 7; 8 above 64 bits at `k` = 12 to 32 up to
/// [`EIGHTH_TABLE_MAX_N`]. A table costs 8 bytes per fingerprint when it holds folded words
/// ([`TableDescription::folded`]: small `k`) and 12 when it holds whole 64-bit fingerprints
/// (20 above 64 bits), on top of the 16 of each fingerprint and its id (24 above 64 bits); so
/// at 64 bits memory stays under 70 bytes per fingerprint up to `k = 5`, and under 16 + 12 ×
/// tables beyond. The eighth table: at the `k` the rule gives 128-bit fingerprints (about 22
/// to 31), seven substrings of 18 or 19 bits need radii of 2 and 3, thousands of probes, where
/// eight of 16 bits took 0.5 to 0.8 of the time a query at a million, natively and in wasm,
/// for 7 % more memory. Its buckets grow with `n` past 2^16 keys, and at two million it was
/// 9 % slower at `k = 26` (25 % at four million, 23 % at ten million at `k = 22`), which the
/// cost model, fitted on 64-bit tables, does not foresee; past 32, in wasm, it was slower than
/// the scan chosen with seven. From `k` = 12 since 2026-11-28 (one-bit MinHash, the quality
/// mode, is asked at 14 to 24): at 12 to 17 the cap of six had kept 128-bit plans to six
/// substrings of 21 or 22 bits, and eight of 16 bits (the model's choice with the cap at
/// eight) took 0.4 to 0.6 of their time at a million and 100,000 random fingerprints with
/// AVX-512 and AVX2, 0.6 to 0.7 with the portable kernels, for 19 % more memory; on real text,
/// where matches cost more, 0.78 to 0.90 with AVX2 and AVX-512, but up to 15 % more with the
/// portable kernels at `k = 17`. docs/evaluation.md, "The quality
/// mode".
pub(crate) fn max_auto_tables(width: u32, k: u32, n: usize) -> usize {
    let eighth = width > 64 && (12..=32).contains(&k) && n <= EIGHTH_TABLE_MAX_N;
    if eighth {
        8
    } else {
        4 + (k / 6).min(3) as usize
    }
}

/// The most fingerprints a plan above 64 bits gets its eighth table for (2^20, just over a
/// million: the largest size at which it was measured faster at every `k` it applies to).
pub(crate) const EIGHTH_TABLE_MAX_N: usize = 1 << 20;

impl Plan {
    /// The plan the index uses for `n` fingerprints: of every permuted, multi-index and
    /// combined plan with at most 4 to 7 tables (4 up to `k = 5`, one more for each 6 more
    /// bits of `k`: memory; 8 above 64 bits at `k` = 12 to 32 up to about a million), the one
    /// the cost model prices lowest with the constants of the kernels this process runs
    /// ([`Costs::here`]), or a scan when that is cheaper. Plans may differ between CPUs;
    /// answers never do.
    ///
    /// ```
    /// use simprint::{Plan, PlanKind};
    /// assert_eq!(Plan::auto(64, 3, 1_000_000).kind(), PlanKind::Permuted { blocks: 4 });
    /// assert!(Plan::auto(64, 40, 1_000_000).is_scan()); // no table plan helps at k = 40
    /// ```
    #[must_use]
    pub fn auto(width: u32, k: u32, n: usize) -> Plan {
        Plan::auto_with(width, k, n, Costs::here())
    }

    /// [`Plan::auto`] priced with given constants: the same choice on every machine.
    ///
    /// ```
    /// use simprint::{Costs, Plan, PlanKind};
    /// let plan = Plan::auto_with(64, 9, 1_000_000, Costs::PORTABLE);
    /// assert!(matches!(plan.kind(), PlanKind::MultiIndex { .. }));
    /// ```
    #[must_use]
    pub fn auto_with(width: u32, k: u32, n: usize, costs: Costs) -> Plan {
        let Ok(scan) = Plan::scan(width, k) else {
            // Only reachable with a bad width or k, which callers check first.
            return Plan::scan_unchecked(width.clamp(1, 128), 0);
        };
        let max_tables = max_auto_tables(width, k, n);
        let mut best = (scan.estimate_with(n, costs).nanos, scan);
        let mut consider = |plan: Result<Plan, Error>| {
            let Ok(plan) = plan else { return };
            if plan.tables().len() > max_tables {
                return;
            }
            let cost = plan.estimate_with(n, costs).nanos;
            // Strictly cheaper: ties keep the earlier, simpler plan.
            if cost < best.0 {
                best = (cost, plan);
            }
        };
        for blocks in (k + 1)..=width.min(k + 8) {
            consider(Plan::with_blocks(width, k, blocks));
        }
        for substrings in 1..=width.min(32) {
            consider(Plan::multi_index(width, k, substrings));
        }
        for blocks in 3..=width.min(16) {
            for key_blocks in 2..blocks {
                // Radius 0 is a permuted plan, already priced.
                if combined_radius(k, blocks, key_blocks) > 0
                    && binomial(blocks, key_blocks) <= max_tables as u64
                {
                    consider(Plan::combined(width, k, blocks, key_blocks));
                }
            }
        }
        best.1
    }

    /// The cost model's price of one query against `n` random fingerprints, with the
    /// constants of the kernels this process runs ([`Plan::estimate_with`]).
    ///
    /// ```
    /// use simprint::Plan;
    /// let n = 1_000_000;
    /// let paper = Plan::with_blocks(64, 3, 4)?.estimate(n);
    /// assert_eq!(paper.probes, 4.0);
    /// assert!(Plan::scan(64, 3)?.estimate(n).nanos > 100.0 * paper.nanos);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn estimate(&self, n: usize) -> Estimate {
        self.estimate_with(n, Costs::here())
    }

    /// The cost model's price of one query against `n` random fingerprints under `costs`:
    /// each table's probes and candidates ([`Plan::describe`]), each probe at `probe_ns` and
    /// each candidate at `check_ns` (`check_folded_ns` in a table of folded words), or the
    /// `_128` prices for a 128-bit plan.
    ///
    /// ```
    /// use simprint::{Costs, Plan};
    /// let e = Plan::scan(64, 9)?.estimate_with(1_000_000, Costs::PORTABLE);
    /// assert_eq!(e.nanos, 1_000_000.0 * Costs::PORTABLE.scan_ns);
    /// let wide = Plan::scan(128, 9)?.estimate_with(1_000_000, Costs::SIMD128);
    /// assert_eq!(wide.nanos, 1_000_000.0 * Costs::SIMD128.scan_128_ns);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn estimate_with(&self, n: usize, costs: Costs) -> Estimate {
        let nf = n as f64;
        let (probe_ns, check_ns, scan_ns) = if self.width() == 128 {
            (costs.probe_128_ns, costs.check_128_ns, costs.scan_128_ns)
        } else {
            (costs.probe_ns, costs.check_ns, costs.scan_ns)
        };
        if self.is_scan() {
            return Estimate {
                probes: 0.0,
                candidates: nf,
                nanos: nf * scan_ns,
            };
        }
        let (mut probes, mut candidates, mut nanos) = (0.0, 0.0, 0.0);
        for spec in self.tables() {
            let t = TableDescription::of(spec, self.k(), n);
            let check = if t.folded {
                costs.check_folded_ns
            } else {
                check_ns
            };
            let p = t.probes as f64;
            probes += p;
            candidates += t.candidates;
            nanos += p * probe_ns + t.candidates * check;
        }
        Estimate {
            probes,
            candidates,
            nanos,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PlanKind;

    /// Every level's measured prices.
    const MEASURED: [Costs; 5] = [
        Costs::PORTABLE,
        Costs::POPCNT,
        Costs::AVX2,
        Costs::AVX512,
        Costs::SIMD128,
    ];

    #[test]
    fn auto_plans() {
        // The paper's setting: 4 tables of 16-bit keys at a million fingerprints.
        let p = Plan::auto(64, 3, 1_000_000);
        assert_eq!(
            (p.blocks().len(), p.tables().len(), p.tables()[0].key_bits),
            (4, 4, 16)
        );
        assert!(Plan::auto(64, 0, 1_000_000).tables().len() == 1);
        for k in 0..=24 {
            for n in [0, 100, 10_000, 1_000_000, 100_000_000] {
                for width in [32, 64, 128] {
                    let p = Plan::auto(width, k.min(width), n);
                    assert!(p.tables().len() <= max_auto_tables(width, k.min(width), n));
                }
            }
        }
        assert!(Plan::auto(64, 3, 50).is_scan());
    }

    #[test]
    fn auto_plans_under_every_costs() {
        let nan = Costs {
            probe_ns: f64::NAN,
            check_ns: f64::NAN,
            check_folded_ns: f64::NAN,
            scan_ns: f64::NAN,
            probe_128_ns: f64::NAN,
            check_128_ns: f64::NAN,
            scan_128_ns: f64::NAN,
        };
        let odd = Costs {
            probe_ns: -1.0,
            check_ns: f64::INFINITY,
            check_folded_ns: 0.0,
            scan_ns: 1e300,
            probe_128_ns: -1.0,
            check_128_ns: f64::INFINITY,
            scan_128_ns: 1e300,
        };
        for costs in MEASURED.into_iter().chain([nan, odd]) {
            for k in 0..=24 {
                for n in [0, 1_000, 1_000_000, 100_000_000] {
                    let p = Plan::auto_with(64, k, n, costs);
                    assert_eq!((p.width(), p.k()), (64, k));
                    assert!(
                        p.tables().len() <= max_auto_tables(64, k, n),
                        "{costs:?} k {k} n {n}"
                    );
                }
            }
        }
        // The measured constants agree on the paper's setting, and NaN prices fall back to a
        // scan (never a plan no comparison chose).
        for costs in MEASURED {
            assert_eq!(
                Plan::auto_with(64, 3, 1_000_000, costs).kind(),
                PlanKind::Permuted { blocks: 4 }
            );
        }
        assert!(Plan::auto_with(64, 9, 1_000_000, nan).is_scan());
    }

    /// The quality mode's `k` at 128 bits and a million: eight substrings of 16 bits under
    /// every cost set (seven of 18 or 19 bits, the cap at 64 bits, took twice the time); at
    /// two million, seven at most again. Past 32 the measured levels scan at 38, and wasm's
    /// 128-bit prices scan at two million from 32 (where the 64-bit ones took seven tables,
    /// as slow as the scan).
    #[test]
    fn wide_plans_use_the_eighth_table() {
        for costs in MEASURED {
            for k in [14, 16, 22, 26, 30] {
                let plan = Plan::auto_with(128, k, 1_000_000, costs);
                assert_eq!(
                    plan.kind(),
                    PlanKind::MultiIndex { substrings: 8 },
                    "{costs:?} k {k}"
                );
            }
            assert!(Plan::auto_with(64, 22, 1_000_000, costs).tables().len() <= 7);
            assert!(Plan::auto_with(128, 26, 2_000_000, costs).tables().len() <= 7);
        }
        for costs in [Costs::AVX2, Costs::AVX512, Costs::SIMD128] {
            assert!(
                Plan::auto_with(128, 38, 1_000_000, costs).is_scan(),
                "{costs:?}"
            );
        }
        assert!(Plan::auto_with(128, 32, 2_000_000, Costs::SIMD128).is_scan());
    }

    /// 128-bit plans are priced with the `_128` prices, every other width with the 64-bit
    /// ones (widths 65 to 127 were not measured and plan as before).
    #[test]
    fn the_128_bit_prices_price_128_bit_plans_only() {
        let n = 1_000_000;
        for costs in [Costs::PORTABLE, Costs::AVX512, Costs::SIMD128] {
            let scan = |width| Plan::scan(width, 9).unwrap().estimate_with(n, costs).nanos;
            assert_eq!(scan(128), 1e6 * costs.scan_128_ns);
            assert_eq!(scan(96), 1e6 * costs.scan_ns);
            assert_eq!(scan(64), 1e6 * costs.scan_ns);
            let plan = Plan::multi_index(128, 22, 8).unwrap();
            let e = plan.estimate_with(n, costs);
            let priced = e.probes * costs.probe_128_ns + e.candidates * costs.check_128_ns;
            assert!(
                (e.nanos - priced).abs() < 1e-9 * priced,
                "{} {priced}",
                e.nanos
            );
            // Prices of another width leave a plan where it was.
            let other = Costs {
                probe_128_ns: 1e9,
                check_128_ns: 1e9,
                scan_128_ns: 1e9,
                ..costs
            };
            for k in [3, 9, 20, 30] {
                assert_eq!(
                    Plan::auto_with(96, k, n, costs),
                    Plan::auto_with(96, k, n, other)
                );
            }
            let other = Costs {
                probe_ns: 1e9,
                check_ns: 1e9,
                scan_ns: 1e9,
                ..costs
            };
            for k in [20, 30, 36] {
                assert_eq!(
                    Plan::auto_with(128, k, n, costs),
                    Plan::auto_with(128, k, n, other)
                );
            }
        }
    }

    #[test]
    fn max_auto_tables_by_k() {
        assert_eq!(
            [3, 9, 12, 18, 40].map(|k| max_auto_tables(64, k, 1_000_000)),
            [4, 5, 6, 7, 7]
        );
        assert_eq!(
            [3, 9, 11, 12, 17, 18, 32, 33, 40].map(|k| max_auto_tables(128, k, 1_000_000)),
            [4, 5, 5, 8, 8, 8, 8, 7, 7]
        );
        assert_eq!(
            [EIGHTH_TABLE_MAX_N, EIGHTH_TABLE_MAX_N + 1].map(|n| max_auto_tables(128, 22, n)),
            [8, 7]
        );
    }
}
