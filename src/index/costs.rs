//! The planner's cost model constants: what a probe, a candidate check and a scanned
//! fingerprint cost, measured per scan kernels, because the kernels change their ratios (a
//! scan with AVX-512 VPOPCNTDQ is seven times one without POPCNT, a probe costs about the same).

use crate::scan::{self, Kernels};

/// The cost model's prices, in nanoseconds per query step at a million 64-bit fingerprints,
/// for one set of scan kernels: the least-squares fit, by relative error, of
/// `SIMPRINT_PLANS=1 cargo bench --bench index` (`SIMPRINT_KERNELS` for each level) and
/// `SIMPRINT_PLANS=1 node bench/index.mjs` over 54 plans at k = 3 to 18, on 2 shared cores
/// of an Intel Xeon (Emerald Rapids), 2026-11-24; the scan's price is the library's scan of
/// the million (docs/index.md gives the fits). Only their ratios steer the planner.
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
    /// A candidate in a table of folded 32-bit words ([`crate::index::plan::folds`]): half the
    /// bytes, and twice the words per vector register.
    pub check_folded_ns: f64,
    /// A fingerprint of a plain scan, which streams through memory.
    pub scan_ns: f64,
}

impl Costs {
    /// Baseline x86-64 (SSE2, no POPCNT).
    ///
    /// ```
    /// assert_eq!(simprint::Costs::PORTABLE.probe_ns, 29.0);
    /// ```
    pub const PORTABLE: Costs = Costs {
        probe_ns: 29.0,
        check_ns: 1.49,
        check_folded_ns: 0.74,
        scan_ns: 1.12,
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
    };

    /// The constants measured for `kernels`.
    ///
    /// ```
    /// use simprint::{scan::Kernels, Costs};
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

    /// The constants for the kernels this process runs ([`scan::kernels`]): what
    /// [`crate::Plan::auto`] and [`crate::Plan::estimate`] price with.
    ///
    /// ```
    /// use simprint::{scan, Costs};
    /// assert_eq!(Costs::here(), Costs::of(scan::kernels()));
    /// ```
    #[must_use]
    pub fn here() -> Costs {
        Costs::of(scan::kernels())
    }
}
