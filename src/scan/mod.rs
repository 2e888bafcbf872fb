//! Linear scans: one fingerprint against many, the small-`n` path and the index's reference.
//!
//! The loops themselves are kernels behind one internal API: `portable` everywhere; on x86-64
//! the same code compiled for POPCNT, AVX2 and AVX-512 VPOPCNTDQ, the best the CPU has chosen
//! at run time (`x86_64`); and explicit WebAssembly SIMD128 code (`simd128`) for 64-bit scans
//! when the wasm is built with `+simd128`. [`kernels`] says which run. All give exactly the
//! distances of `(a ^ b).count_ones()`.

use alloc::vec;
use alloc::vec::Vec;

pub(crate) mod portable;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod simd128;

#[cfg(target_arch = "x86_64")]
mod x86_64;

// The kernels behind the internal API: one module per target, each with the same functions.
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
use portable as kernel;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use simd128 as kernel;
#[cfg(target_arch = "x86_64")]
use x86_64 as kernel;

/// Which compiled kernels the scans and the index's bucket checks run: they differ in speed
/// only, never in answers. The index's cost model has constants per kernels
/// ([`crate::Costs::of`]).
///
/// ```
/// use simprint::{kernels, Kernels};
/// let k = kernels();
/// assert!(matches!(k, Kernels::Portable | Kernels::Popcnt | Kernels::Avx2 | Kernels::Avx512 | Kernels::Simd128));
/// println!("scanning with {}", k.name());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kernels {
    /// Plain Rust as the target was built (baseline x86-64: SSE2, no POPCNT instruction).
    Portable = 1,
    /// x86-64 with the POPCNT instruction.
    Popcnt = 2,
    /// x86-64 with AVX2 (and POPCNT).
    Avx2 = 3,
    /// x86-64 with AVX-512 F, VL and VPOPCNTDQ: eight popcounts per instruction.
    Avx512 = 4,
    /// WebAssembly built with `+simd128`.
    Simd128 = 5,
}

impl Kernels {
    /// A short lower-case name: `portable`, `popcnt`, `avx2`, `avx512` or `simd128`.
    ///
    /// ```
    /// assert_eq!(simprint::Kernels::Avx2.name(), "avx2");
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kernels::Portable => "portable",
            Kernels::Popcnt => "popcnt",
            Kernels::Avx2 => "avx2",
            Kernels::Avx512 => "avx512",
            Kernels::Simd128 => "simd128",
        }
    }
}

impl core::fmt::Display for Kernels {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The kernels this process runs: on x86-64 the best the CPU has (detected once), elsewhere
/// what the target was built with.
///
/// ```
/// use simprint::{kernels, Kernels};
/// // On x86-64, AVX-512 exactly where std's own detection finds its popcount instructions.
/// #[cfg(target_arch = "x86_64")]
/// assert_eq!(
///     kernels() == Kernels::Avx512,
///     std::is_x86_feature_detected!("avx512vpopcntdq")
///         && std::is_x86_feature_detected!("avx512vl")
/// );
/// println!("scanning with {}", kernels());
/// ```
#[must_use]
pub fn kernels() -> Kernels {
    #[cfg(target_arch = "x86_64")]
    return x86_64::level();
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return Kernels::Simd128;
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
    return Kernels::Portable;
}

/// Runs the kernels at `max`, or at the best level below it that the CPU has, for the rest of
/// the process; returns the kernels now used. For benchmarks and tests that compare levels in
/// one run (answers never change); elsewhere than x86-64 it changes nothing.
///
/// ```
/// use simprint::{kernels, test_hooks::limit_kernels, Kernels};
/// let before = kernels();
/// assert_eq!(limit_kernels(Kernels::Portable), Kernels::Portable);
/// assert_eq!(kernels(), Kernels::Portable);
/// assert_eq!(simprint::scan64(0, &[1, 3], 1), [simprint::Hit { index: 0, distance: 1 }]);
/// assert_eq!(limit_kernels(before), before);
/// ```
#[cfg(feature = "test-hooks")]
#[allow(
    clippy::must_use_candidate,
    reason = "called for its effect; the result only informs"
)]
pub fn limit_kernels(max: Kernels) -> Kernels {
    #[cfg(target_arch = "x86_64")]
    return x86_64::limit(max);
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = max;
        kernels()
    }
}

/// A fingerprint found by a scan: its position in the scanned slice and its distance.
///
/// ```
/// let hits = simprint::scan64(0, &[0b1, 0xff, 0b11], 2);
/// assert_eq!(hits, [simprint::Hit { index: 0, distance: 1 }, simprint::Hit { index: 2, distance: 2 }]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hit {
    /// Position in the scanned slice.
    pub index: usize,
    /// Hamming distance to the query.
    pub distance: u32,
}

/// Every position `i` with `hamming(query, fps[i]) <= k`, sorted by distance, then position.
///
/// ```
/// let hits = simprint::scan64(0b1010, &[0b1010, 0b0000, 0b1011], 1);
/// assert_eq!(hits.iter().map(|h| h.index).collect::<Vec<_>>(), [0, 2]);
/// ```
#[must_use]
pub fn scan64(query: u64, fps: &[u64], k: u32) -> Vec<Hit> {
    let mut hits = Vec::new();
    within64(query, fps, k, &mut |index, distance| {
        hits.push(Hit { index, distance })
    });
    sort_hits(hits)
}

/// [`scan64`] for fingerprints wider than 64 bits.
///
/// ```
/// let hits = simprint::scan128(1 << 100, &[0, 1 << 100], 0);
/// assert_eq!(hits, [simprint::Hit { index: 1, distance: 0 }]);
/// ```
#[must_use]
pub fn scan128(query: u128, fps: &[u128], k: u32) -> Vec<Hit> {
    let mut hits = Vec::new();
    within128(query, fps, k, &mut |index, distance| {
        hits.push(Hit { index, distance })
    });
    sort_hits(hits)
}

/// The distance from `query` to every fingerprint of `fps`, in order, into `out` (cleared
/// first). One byte each: distances are at most 64.
///
/// ```
/// let mut out = Vec::new();
/// simprint::distances64(0, &[0, 1, u64::MAX], &mut out);
/// assert_eq!(out, [0, 1, 64]);
/// ```
pub fn distances64(query: u64, fps: &[u64], out: &mut Vec<u8>) {
    out.clear();
    out.resize(fps.len(), 0);
    #[cfg(target_arch = "x86_64")]
    x86_64::distances64(query, fps, out);
    // Portable elsewhere: explicit SIMD128 was no faster than it under Node.
    #[cfg(not(target_arch = "x86_64"))]
    portable::distances64(query, fps, out);
}

/// Calls `found(i, distance)` for every `i` (ascending) with `hamming64(q, fps[i]) <= k`: the
/// kernel the scans and the index's bucket checks share.
#[inline]
pub(crate) fn within64(q: u64, fps: &[u64], k: u32, found: &mut dyn FnMut(usize, u32)) {
    kernel::within64(q, fps, k, found);
}

/// Calls `found(i)` for every `i` (ascending) with `(xs[i] ^ q).count_ones() <= k`: the
/// index's bucket filter on folded 32-bit words. Portable everywhere: LLVM vectorizes it for
/// SSE2 and SIMD128 alike.
#[inline]
pub(crate) fn within32(q: u32, xs: &[u32], k: u32, found: &mut dyn FnMut(usize)) {
    #[cfg(target_arch = "x86_64")]
    x86_64::within32(q, xs, k, found);
    #[cfg(not(target_arch = "x86_64"))]
    portable::within32(q, xs, k, found);
}

/// [`within32`] over `all[range]` (positions counted from `range.start`), free to read whole
/// chunks past the range's end: the index's buckets are short runs of one long array.
#[inline]
pub(crate) fn within32_in(
    q: u32,
    all: &[u32],
    range: core::ops::Range<usize>,
    k: u32,
    found: &mut dyn FnMut(usize),
) {
    #[cfg(target_arch = "x86_64")]
    x86_64::within32_in(q, all, range, k, found);
    #[cfg(not(target_arch = "x86_64"))]
    portable::within32_in(q, all, range, k, found);
}

/// Starts bringing every cache line of `xs` into cache without waiting for any, so that the
/// misses of many buckets overlap before they are read. On x86-64 a prefetch instruction per
/// line, which retires at once: into every level, or with `far` into L2 and L3 only (for lines
/// read later, see the index's `FAR_AHEAD`); elsewhere (wasm has no prefetch) one read per
/// line, whose value the caller must keep alive (`black_box`) so the reads are not dropped.
#[inline]
pub(crate) fn prefetch<T: Copy + Default + core::ops::BitXor<Output = T>>(
    xs: &[T],
    far: bool,
) -> T {
    #[cfg(target_arch = "x86_64")]
    {
        if far {
            x86_64::prefetch::<{ core::arch::x86_64::_MM_HINT_T1 }, T>(xs);
        } else {
            x86_64::prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }, T>(xs);
        }
        T::default()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        // A read brings the line to every level: `far` changes nothing.
        let _ = far;
        let step = (64 / core::mem::size_of::<T>()).max(1);
        let last = xs.last().copied().unwrap_or_default();
        xs.iter().step_by(step).fold(last, |sum, &x| sum ^ x)
    }
}

/// Calls `found(i, j, distance)` for every `xs[i]`, `ys[j]` within `k` of each other, by `i`
/// then `j` (with `after`, only `j > i`, the two starting at the same entry): the all-pairs
/// join of two buckets, or of one with itself. x86-64 only (see the index's all-pairs join).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn cross64(
    xs: &[u64],
    ys: &[u64],
    after: bool,
    k: u32,
    found: &mut dyn FnMut(usize, usize, u32),
) {
    x86_64::cross64(xs, ys, after, k, found);
}

/// [`within32_in`] for 64-bit words.
#[inline]
pub(crate) fn within64_in(
    q: u64,
    all: &[u64],
    range: core::ops::Range<usize>,
    k: u32,
    found: &mut dyn FnMut(usize, u32),
) {
    #[cfg(target_arch = "x86_64")]
    x86_64::within64_in(q, all, range, k, found);
    #[cfg(not(target_arch = "x86_64"))]
    portable::within64_in(q, all, range, k, found);
}

/// [`within64`] for 128-bit fingerprints.
#[inline]
pub(crate) fn within128(q: u128, fps: &[u128], k: u32, found: &mut dyn FnMut(usize, u32)) {
    #[cfg(target_arch = "x86_64")]
    x86_64::within128(q, fps, k, found);
    // Portable elsewhere: explicit SIMD128 was slower than two scalar popcounts under Node.
    #[cfg(not(target_arch = "x86_64"))]
    portable::within128(q, fps, k, found);
}

/// [`within128`] for the index's buckets, a few to a few hundred fingerprints each: its own
/// kernels, as [`within64_in`] has, since what is fastest over a short slice and over a whole
/// scan differs by level (docs/performance.md, "128-bit kernels").
#[inline]
pub(crate) fn within128_in(q: u128, fps: &[u128], k: u32, found: &mut dyn FnMut(usize, u32)) {
    #[cfg(target_arch = "x86_64")]
    x86_64::within128_in(q, fps, k, found);
    #[cfg(not(target_arch = "x86_64"))]
    portable::within128(q, fps, k, found);
}

/// [`scan64`] over fingerprints that arrive a part at a time (copied in steps from elsewhere,
/// as the JavaScript bindings copy a `BigUint64Array`): positions count across the parts.
///
/// ```
/// use simprint::{scan64, Scan64};
/// let fps = [0b1, 0xff, 0b11, 0, 0b111];
/// let mut scan = Scan64::new(0, 2);
/// for part in fps.chunks(2) {
///     scan.feed(part);
/// }
/// assert_eq!(scan.finish(), scan64(0, &fps, 2));
/// ```
#[derive(Clone, Debug)]
pub struct Scan64 {
    query: u64,
    k: u32,
    seen: usize,
    hits: Vec<Hit>,
}

impl Scan64 {
    /// A scan for fingerprints within `k` of `query`.
    ///
    /// ```
    /// assert!(simprint::Scan64::new(0, 3).finish().is_empty());
    /// ```
    #[must_use]
    pub fn new(query: u64, k: u32) -> Scan64 {
        Scan64 {
            query,
            k,
            seen: 0,
            hits: Vec::new(),
        }
    }

    /// Scans the next part.
    ///
    /// ```
    /// let mut scan = simprint::Scan64::new(0, 0);
    /// scan.feed(&[1, 0]);
    /// scan.feed(&[0]);
    /// assert_eq!(scan.finish().iter().map(|h| h.index).collect::<Vec<_>>(), [1, 2]);
    /// ```
    pub fn feed(&mut self, part: &[u64]) {
        let (seen, hits) = (self.seen, &mut self.hits);
        within64(self.query, part, self.k, &mut |i, distance| {
            hits.push(Hit {
                index: seen + i,
                distance,
            });
        });
        self.seen += part.len();
    }

    /// The hits, sorted by distance, then position.
    ///
    /// ```
    /// let mut scan = simprint::Scan64::new(0, 64);
    /// scan.feed(&[3, 1]);
    /// assert_eq!(scan.finish()[0], simprint::Hit { index: 1, distance: 1 });
    /// ```
    #[must_use]
    pub fn finish(self) -> Vec<Hit> {
        sort_hits(self.hits)
    }
}

/// Hits found in position order, sorted by distance, then position. Distances are at most 128,
/// so many hits (a large `k`) are counting-sorted in linear time; a stable order by distance
/// keeps positions ascending within each distance. A few are insertion-sorted (stable too),
/// which needs no table and no sort of their own type (see `crate::sort`).
pub(crate) fn sort_hits(mut hits: Vec<Hit>) -> Vec<Hit> {
    if hits.len() <= 64 {
        for i in 1..hits.len() {
            let h = hits[i];
            let mut j = i;
            while j > 0 && hits[j - 1].distance > h.distance {
                hits[j] = hits[j - 1];
                j -= 1;
            }
            hits[j] = h;
        }
        return hits;
    }
    let mut starts = [0usize; 130];
    for h in &hits {
        starts[h.distance as usize + 1] += 1;
    }
    for d in 1..starts.len() {
        starts[d] += starts[d - 1];
    }
    let mut sorted = vec![
        Hit {
            index: 0,
            distance: 0
        };
        hits.len()
    ];
    for h in hits {
        let at = &mut starts[h.distance as usize];
        sorted[*at] = h;
        *at += 1;
    }
    sorted
}

/// The index's portable bucket check over `all[range]` (positions from `range.start`, free to
/// read past the range's end as the index's buckets allow), with its hits as [`scan64`] gives
/// them: for tests that run it where it is compiled differently (wasm32). Not part of the API.
///
/// ```
/// use simprint::test_hooks::bucket64_portable;
/// let all = [7u64, 0, 1, 3, 0xff];
/// assert_eq!(bucket64_portable(0, &all, 1..4, 1), simprint::scan64(0, &all[1..4], 1));
/// ```
#[cfg(feature = "test-hooks")]
#[must_use]
pub fn bucket64_portable(
    query: u64,
    all: &[u64],
    range: core::ops::Range<usize>,
    k: u32,
) -> Vec<Hit> {
    let mut hits = Vec::new();
    portable::within64_in(query, all, range, k, &mut |index, distance| {
        hits.push(Hit { index, distance })
    });
    sort_hits(hits)
}

/// [`scan64`] through the portable kernel whatever the target, so tests can compare it with
/// the SIMD128 one inside WebAssembly.
///
/// ```
/// use simprint::test_hooks::scan64_portable;
/// assert_eq!(scan64_portable(0, &[1, 3], 1), simprint::scan64(0, &[1, 3], 1));
/// ```
#[cfg(feature = "test-hooks")]
#[must_use]
pub fn scan64_portable(query: u64, fps: &[u64], k: u32) -> Vec<Hit> {
    let mut hits = Vec::new();
    portable::within64(query, fps, k, &mut |index, distance| {
        hits.push(Hit { index, distance })
    });
    sort_hits(hits)
}
