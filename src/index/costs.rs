//! The planner's cost model constants: what a probe, a candidate check and a scanned
//! fingerprint cost, measured per scan kernels, because the kernels change their ratios (a
//! scan with AVX-512 VPOPCNTDQ is seven times one without POPCNT, a probe costs about the same).

use crate::scan::{self, Kernels};

/// The cost model's prices, in nanoseconds per query step at a million 64-bit fingerprints,
/// for one set of scan kernels: the least-squares fit, by relative error, of
/// `SIMPRINT_PLANS=1 cargo bench --bench index` over 54 plans at k = 3 to 18 on 2 shared
/// cores of an AMD EPYC (docs/index.md gives the fits). Only their ratios steer the planner.
///
/// ```
/// use simprint::{Costs, Plan};
/// let n = 1_000_000;
/// // At k = 18 a multi-index plan beats a scan without POPCNT, not one with AVX-512.
/// let slow = Plan::auto_with(64, 18, n, Costs::PORTABLE);
/// let fast = Plan::auto_with(64, 18, n, Costs::AVX512);
/// assert!(!slow.is_scan() && fast.is_scan());
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
    /// Baseline x86-64 (SSE2, no POPCNT), and WebAssembly: the wasm fit under Node 20 has the
    /// same ratio of probe to check (docs/index.md), so native and wasm builds without
    /// POPCNT plan alike.
    ///
    /// ```
    /// assert_eq!(simprint::Costs::PORTABLE.probe_ns, 31.0);
    /// ```
    pub const PORTABLE: Costs = Costs {
        probe_ns: 31.0,
        check_ns: 1.1,
        check_folded_ns: 0.5,
        scan_ns: 0.7,
    };
    /// x86-64 with POPCNT.
    ///
    /// ```
    /// assert!(simprint::Costs::POPCNT.scan_ns < simprint::Costs::PORTABLE.scan_ns);
    /// ```
    pub const POPCNT: Costs = Costs {
        probe_ns: 24.0,
        check_ns: 0.74,
        check_folded_ns: 0.44,
        scan_ns: 0.21,
    };
    /// x86-64 with AVX2.
    ///
    /// ```
    /// assert!(simprint::Costs::AVX2.scan_ns < simprint::Costs::POPCNT.scan_ns);
    /// ```
    pub const AVX2: Costs = Costs {
        probe_ns: 28.0,
        check_ns: 0.72,
        check_folded_ns: 0.36,
        scan_ns: 0.17,
    };
    /// x86-64 with AVX-512 VPOPCNTDQ.
    ///
    /// ```
    /// assert!(simprint::Costs::AVX512.scan_ns < 0.1);
    /// ```
    pub const AVX512: Costs = Costs {
        probe_ns: 26.0,
        check_ns: 0.63,
        check_folded_ns: 0.32,
        scan_ns: 0.094,
    };

    /// The constants measured for `kernels` (WebAssembly SIMD128 has the portable ones: the
    /// wasm scan is no faster per fingerprint relative to a probe).
    ///
    /// ```
    /// use simprint::{scan::Kernels, Costs};
    /// assert_eq!(Costs::of(Kernels::Avx2), Costs::AVX2);
    /// ```
    #[must_use]
    pub fn of(kernels: Kernels) -> Costs {
        match kernels {
            Kernels::Popcnt => Costs::POPCNT,
            Kernels::Avx2 => Costs::AVX2,
            Kernels::Avx512 => Costs::AVX512,
            Kernels::Portable | Kernels::Simd128 => Costs::PORTABLE,
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
