//! The scan kernels on x86-64, chosen at run time: the portable kernels compiled again with
//! POPCNT, with AVX2, and with AVX-512 VPOPCNTDQ enabled, and the best the CPU has picked
//! once per process.
//!
//! Why not only at build time: the crate is built for baseline x86-64 (SSE2, no POPCNT
//! instruction), because a binary must run wherever it is copied. There LLVM counts bits with
//! a dozen shifts and masks per word; the same loop built for AVX-512 VPOPCNTDQ counts eight
//! words in one instruction, 4 to 7 times faster (docs/performance.md). The kernels are the
//! portable ones, inlined into each wrapper, except the index's bucket checks, written for
//! AVX2 and AVX-512 where the compiled portable loop fell short: every level gives exactly the
//! same answers, in the same order, and tests compare each level with plain popcounts.
//!
//! This is the crate's one module with `unsafe`: calling a `#[target_feature]` function is
//! unsafe because the CPU must have the feature, which the detection below establishes.
#![allow(unsafe_code)]

use core::sync::atomic::{AtomicU8, Ordering};

use super::Kernels;

// cpuid checks, including that the OS saves the wide registers (XCR0), done once and cached.
cpufeatures::new!(cpu_popcnt, "popcnt");
cpufeatures::new!(cpu_avx2, "avx2", "popcnt");
cpufeatures::new!(
    cpu_avx512,
    "avx512f",
    "avx512vl",
    "avx512vpopcntdq",
    "popcnt"
);

/// The level in use, as `Kernels as u8`; 0 until first detected.
static LEVEL: AtomicU8 = AtomicU8::new(0);

/// The best level this CPU has.
fn detect() -> Kernels {
    if cpu_avx512::get() {
        Kernels::Avx512
    } else if cpu_avx2::get() {
        Kernels::Avx2
    } else if cpu_popcnt::get() {
        Kernels::Popcnt
    } else {
        Kernels::Portable
    }
}

fn from_u8(level: u8) -> Kernels {
    match level {
        2 => Kernels::Popcnt,
        3 => Kernels::Avx2,
        4 => Kernels::Avx512,
        _ => Kernels::Portable,
    }
}

/// The level the kernels run at.
#[inline]
pub(super) fn level() -> Kernels {
    match LEVEL.load(Ordering::Relaxed) {
        0 => {
            let best = detect();
            // A racing `limit` keeps its (lower) choice.
            let _ = LEVEL.compare_exchange(0, best as u8, Ordering::Relaxed, Ordering::Relaxed);
            from_u8(LEVEL.load(Ordering::Relaxed))
        }
        level => from_u8(level),
    }
}

/// Runs the kernels at `max` or the best level below it this CPU has (`Simd128` means no
/// limit). Returns the level now in use. For tests and benchmarks only.
#[cfg(any(test, feature = "test-hooks"))]
pub(super) fn limit(max: Kernels) -> Kernels {
    let best = detect();
    let chosen = if (max as u8) < (best as u8) {
        max
    } else {
        best
    };
    LEVEL.store(chosen as u8, Ordering::Relaxed);
    chosen
}

/// How far clearing bits beats counting them in [`super::portable::within64_clearing`], by
/// level: POPCNT and AVX2 count faster than they clear 3 bits, VPOPCNTQ faster than clearing 1
/// (a 2^20 scan at k = 1, 3, 6 and 9 for each level, in one run; docs/performance.md).
const fn clear_up_to(level: Kernels) -> u32 {
    match level {
        Kernels::Popcnt => 2,
        Kernels::Avx2 => 3,
        Kernels::Avx512 => 0,
        _ => 6,
    }
}

/// For each kernel: a wrapper per level that inlines the portable code with the level's
/// features enabled, and a function that calls the wrapper of the level in use. A kernel with
/// `tuned` takes the level's [`clear_up_to`] as its last argument.
macro_rules! kernels {
    ($(
        $(#[$doc:meta])*
        fn $name:ident($($arg:ident: $ty:ty),*) => $kernel:ident $($tuned:ident)? $(, avx2 $own2:path)? $(, avx512 $own:path)?;
    )*) => {$(
        $(#[$doc])*
        #[inline]
        pub(super) fn $name($($arg: $ty),*) {
            #[target_feature(enable = "popcnt")]
            fn popcnt($($arg: $ty),*) {
                super::portable::$kernel($($arg,)* $(kernels!(@$tuned Kernels::Popcnt))?)
            }
            #[target_feature(enable = "avx2,popcnt")]
            fn avx2($($arg: $ty),*) {
                kernels!(@avx2 [$($own2)?] $kernel ($($arg),*) $($tuned)?)
            }
            #[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq,popcnt")]
            fn avx512($($arg: $ty),*) {
                kernels!(@avx512 [$($own)?] $kernel ($($arg),*) $($tuned)?)
            }
            match level() {
                // SAFETY: `level` returns a level only when the CPU has its features.
                Kernels::Avx512 => unsafe { avx512($($arg),*) },
                // SAFETY: as above.
                Kernels::Avx2 => unsafe { avx2($($arg),*) },
                // SAFETY: as above.
                Kernels::Popcnt => unsafe { popcnt($($arg),*) },
                _ => super::portable::$kernel($($arg,)* $(kernels!(@$tuned Kernels::Portable))?),
            }
        }
    )*};
    (@tuned $level:expr) => {
        clear_up_to($level)
    };
    // A kernel written for AVX2 or AVX-512 where the compiler's vectorization of the portable
    // one falls short; else the portable one compiled for the level.
    (@avx2 [] $kernel:ident ($($arg:ident),*) $($tuned:ident)?) => {
        super::portable::$kernel($($arg,)* $(kernels!(@$tuned Kernels::Avx2))?)
    };
    (@avx2 [$own:path] $kernel:ident ($($arg:ident),*) $($tuned:ident)?) => {
        $own($($arg),*)
    };
    (@avx512 [] $kernel:ident ($($arg:ident),*) $($tuned:ident)?) => {
        super::portable::$kernel($($arg,)* $(kernels!(@$tuned Kernels::Avx512))?)
    };
    (@avx512 [$own:path] $kernel:ident ($($arg:ident),*) $($tuned:ident)?) => {
        $own($($arg),*)
    };
}

kernels! {
    /// [`super::portable::within64`] at the level in use, clearing bits while that is faster.
    fn within64(q: u64, fps: &[u64], k: u32, found: &mut dyn FnMut(usize, u32))
        => within64_clearing tuned;
    /// [`super::portable::within128`] at the level in use.
    fn within128(q: u128, fps: &[u128], k: u32, found: &mut dyn FnMut(usize, u32))
        => within128, avx512 avx512::within128;
    /// [`super::portable::within128`] over one bucket at the level in use (the AVX2 kernel
    /// with AVX-512 too: faster on short slices than the AVX-512 one).
    fn within128_in(q: u128, fps: &[u128], k: u32, found: &mut dyn FnMut(usize, u32))
        => within128, avx2 avx2::within128, avx512 avx2::within128;
    /// [`super::portable::within32`] at the level in use.
    fn within32(q: u32, xs: &[u32], k: u32, found: &mut dyn FnMut(usize)) => within32;
    /// [`super::portable::within32_in`] at the level in use.
    fn within32_in(
        q: u32,
        all: &[u32],
        range: core::ops::Range<usize>,
        k: u32,
        found: &mut dyn FnMut(usize)
    ) => within32_in, avx2 avx2::within32_in, avx512 avx512::within32_in;
    /// [`super::portable::within64_in`] at the level in use.
    fn within64_in(
        q: u64,
        all: &[u64],
        range: core::ops::Range<usize>,
        k: u32,
        found: &mut dyn FnMut(usize, u32)
    ) => within64_in, avx2 avx2::within64_in, avx512 avx512::within64_in;
    /// [`super::portable::cross64`] at the level in use.
    fn cross64(
        xs: &[u64],
        ys: &[u64],
        after: bool,
        k: u32,
        found: &mut dyn FnMut(usize, usize, u32)
    ) => cross64 tuned, avx512 avx512::cross64;
    /// [`super::portable::distances64`] at the level in use.
    fn distances64(q: u64, fps: &[u64], out: &mut [u8]) => distances64;
}

/// Prefetches each cache line `xs` touches with hint `HINT` (`_MM_HINT_T0`: every level,
/// `_MM_HINT_T1`: L2 and below; see [`super::prefetch`]).
#[inline]
pub(super) fn prefetch<const HINT: i32, T>(xs: &[T]) {
    use core::arch::x86_64::_mm_prefetch;
    let bytes = core::mem::size_of_val(xs);
    if bytes == 0 {
        return;
    }
    let start = xs.as_ptr().cast::<i8>();
    // The line of the first byte, every 64 bytes after it, and the line of the last byte.
    let mut offset = 0;
    while offset < bytes {
        // SAFETY: the address is inside `xs`; a prefetch never faults and changes nothing
        // but the cache.
        unsafe { _mm_prefetch::<HINT>(start.add(offset)) };
        offset += 64;
    }
    // SAFETY: as above: the last byte of `xs`.
    unsafe { _mm_prefetch::<HINT>(start.add(bytes - 1)) };
}

/// Calls `found(base + j)` for each set bit `j` of `hits`, lowest first: the hits of a step
/// of the AVX2 and AVX-512 bucket checks.
#[inline(always)]
fn report<M: Into<u32>>(hits: M, base: usize, found: &mut (impl FnMut(usize) + ?Sized)) {
    let mut hits: u32 = hits.into();
    while hits != 0 {
        found(base + hits.trailing_zeros() as usize);
        hits &= hits - 1;
    }
}

/// The index's bucket check written for AVX2: sixteen words a step in four registers, counted
/// with a nibble table (`vpshufb`) summed per word (`vpsadbw`), one branch for the sixteen.
/// Compiled from the portable code, LLVM checked four words a step and spilled its loop state
/// to the stack: 0.65 ns a candidate with the buckets in cache.
mod avx2 {
    use core::arch::x86_64::{
        __m256i, _mm256_add_epi64, _mm256_add_epi8, _mm256_and_si256, _mm256_castsi256_pd,
        _mm256_castsi256_ps, _mm256_cmpgt_epi32, _mm256_cmpgt_epi64, _mm256_loadu_si256,
        _mm256_madd_epi16, _mm256_maddubs_epi16, _mm256_movemask_pd, _mm256_movemask_ps,
        _mm256_sad_epu8, _mm256_set1_epi16, _mm256_set1_epi32, _mm256_set1_epi64x,
        _mm256_set1_epi8, _mm256_set_epi64x, _mm256_setr_epi8, _mm256_setzero_si256,
        _mm256_shuffle_epi32, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_xor_si256,
    };
    use core::ops::Range;

    use super::report;

    /// Per byte of `x`, its set bits: a nibble table (`vpshufb`) for each half.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn byte_counts(x: __m256i) -> __m256i {
        let nibble = _mm256_set1_epi8(0x0f);
        let table = _mm256_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2,
            3, 3, 4,
        );
        let lo = _mm256_shuffle_epi8(table, _mm256_and_si256(x, nibble));
        let hi = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble));
        _mm256_add_epi8(lo, hi)
    }

    /// Per 64-bit lane of `x`, its set bits: the byte counts summed per lane (`vpsadbw`).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn lane_counts(x: __m256i) -> __m256i {
        _mm256_sad_epu8(byte_counts(x), _mm256_setzero_si256())
    }

    /// One step of the bucket kernels: the four registers at `p` through `far` (all ones in a
    /// lane that is out of reach), or `None` when every lane of the four is: one branch for
    /// the step.
    ///
    /// # Safety
    ///
    /// `p` must point at 128 readable bytes (no alignment needed).
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn four(p: *const __m256i, far: &impl Fn(__m256i) -> __m256i) -> Option<[__m256i; 4]> {
        // SAFETY: the caller's 128 bytes are the four loads'.
        let v = unsafe {
            [
                far(_mm256_loadu_si256(p)),
                far(_mm256_loadu_si256(p.add(1))),
                far(_mm256_loadu_si256(p.add(2))),
                far(_mm256_loadu_si256(p.add(3))),
            ]
        };
        let all_far = _mm256_and_si256(_mm256_and_si256(v[0], v[1]), _mm256_and_si256(v[2], v[3]));
        (_mm256_movemask_pd(_mm256_castsi256_pd(all_far)) != 0xf).then_some(v)
    }

    /// [`super::super::portable::within64_in`] with AVX2.
    #[target_feature(enable = "avx2,popcnt")]
    #[allow(
        clippy::cast_possible_wrap,
        clippy::cast_sign_loss,
        reason = "the bits are what count, not the sign"
    )]
    pub(super) fn within64_in(
        q: u64,
        all: &[u64],
        range: Range<usize>,
        k: u32,
        found: &mut dyn FnMut(usize, u32),
    ) {
        let xs = &all[range];
        let qv = _mm256_set1_epi64x(q as i64);
        // A word is out when its count is greater than k (counts are at most 64).
        let kv = _mm256_set1_epi64x(i64::from(k.min(64)));
        // Per 64-bit lane: all ones when the word is farther than k from q.
        let far = |v: __m256i| _mm256_cmpgt_epi64(lane_counts(_mm256_xor_si256(v, qv)), kv);
        let near = |f: __m256i| !(_mm256_movemask_pd(_mm256_castsi256_pd(f)) as u32) & 0xf;
        let mut emit = |i: usize| found(i, (xs[i] ^ q).count_ones());
        let mut base = 0;
        let mut steps = xs.chunks_exact(16);
        for step in &mut steps {
            // SAFETY: `step` is 128 readable bytes.
            if let Some([a, b, c, d]) = unsafe { four(step.as_ptr().cast(), &far) } {
                let hits = near(a) | near(b) << 4 | near(c) << 8 | near(d) << 12;
                report(hits, base, &mut emit);
            }
            base += 16;
        }
        let mut fours = steps.remainder().chunks_exact(4);
        for four in &mut fours {
            // SAFETY: `four` is 32 readable bytes; the load needs no alignment.
            let v = unsafe { _mm256_loadu_si256(four.as_ptr().cast::<__m256i>()) };
            report(near(far(v)), base, &mut emit);
            base += 4;
        }
        for (i, &x) in fours.remainder().iter().enumerate() {
            let d = (x ^ q).count_ones();
            if d <= k {
                found(base + i, d);
            }
        }
    }

    /// Per 32-bit lane of `x`, its set bits: the byte counts summed in pairs (`vpmaddubsw`),
    /// then the pairs (`vpmaddwd`).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn lane_counts32(x: __m256i) -> __m256i {
        let pairs = _mm256_maddubs_epi16(byte_counts(x), _mm256_set1_epi8(1));
        _mm256_madd_epi16(pairs, _mm256_set1_epi16(1))
    }

    /// [`super::super::portable::within32_in`] with AVX2 above `k` = 4: thirty-two words a
    /// step in four registers with one branch, each word's count summed from the nibble
    /// table's (`vpmaddubsw`, `vpmaddwd`) where the compiled portable loop summed them with
    /// shuffles. Buckets of 61 and 122 words (in cache) took 0.86 and 0.80 of its time, of 15
    /// the same (docs/performance.md).
    #[target_feature(enable = "avx2,popcnt")]
    #[allow(
        clippy::cast_possible_wrap,
        clippy::cast_sign_loss,
        reason = "the bits are what count, not the sign"
    )]
    pub(super) fn within32_in(
        q: u32,
        all: &[u32],
        range: Range<usize>,
        k: u32,
        found: &mut dyn FnMut(usize),
    ) {
        if k <= 4 {
            // Clearing up to four bits a word, the portable kernel's test there, is cheaper
            // than counting them.
            return super::super::portable::within32_in(q, all, range, k, found);
        }
        let (start, end) = (range.start, range.end);
        let qv = _mm256_set1_epi32(q as i32);
        // A word is out when its count is greater than k (counts are at most 32).
        let kv = _mm256_set1_epi32(k.min(32) as i32);
        let far = |v: __m256i| _mm256_cmpgt_epi32(lane_counts32(_mm256_xor_si256(v, qv)), kv);
        let near = |f: __m256i| !(_mm256_movemask_ps(_mm256_castsi256_ps(f)) as u32) & 0xff;
        let mut i = start;
        while i + 32 <= end {
            let p = all[i..i + 32].as_ptr().cast::<__m256i>();
            // SAFETY: 128 readable bytes at `p`; the loads need no alignment.
            let v = unsafe {
                [
                    far(_mm256_loadu_si256(p)),
                    far(_mm256_loadu_si256(p.add(1))),
                    far(_mm256_loadu_si256(p.add(2))),
                    far(_mm256_loadu_si256(p.add(3))),
                ]
            };
            let all_far =
                _mm256_and_si256(_mm256_and_si256(v[0], v[1]), _mm256_and_si256(v[2], v[3]));
            if _mm256_movemask_ps(_mm256_castsi256_ps(all_far)) != 0xff {
                let hits = near(v[0]) | near(v[1]) << 8 | near(v[2]) << 16 | near(v[3]) << 24;
                report(hits, i - start, found);
            }
            i += 32;
        }
        // Eight at a time, reading past the range's end while `all` has the words (the next
        // buckets' entries, never reported): a bucket of a few entries is one step.
        while i < end {
            let Some(eight) = all.get(i..i + 8) else {
                for (j, &x) in all[i..end].iter().enumerate() {
                    if (x ^ q).count_ones() <= k {
                        found(i - start + j);
                    }
                }
                return;
            };
            // SAFETY: `eight` is 32 readable bytes; the load needs no alignment.
            let v = unsafe { _mm256_loadu_si256(eight.as_ptr().cast::<__m256i>()) };
            let inside = 0xff >> 8usize.saturating_sub(end - i);
            report(near(far(v)) & inside, i - start, found);
            i += 8;
        }
    }

    /// [`super::super::portable::within128`] over a bucket with AVX2: two fingerprints a
    /// register, counted as [`within64_in`] counts words, each half's count added to the
    /// other's (`vpshufd`), eight fingerprints a step with one branch. The index's 128-bit
    /// buckets (about 15 fingerprints at a million) took 0.78 to 0.92 of the time of the
    /// portable loop's two scalar `popcnt`s a fingerprint, with AVX2 and also with AVX-512,
    /// where it beat the AVX-512 kernel below; over a whole scan it was 17 to 21 % slower than
    /// the portable loop with AVX2, so scans keep the loop (docs/performance.md, "128-bit
    /// kernels").
    #[target_feature(enable = "avx2,popcnt")]
    #[allow(
        clippy::cast_possible_wrap,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "the bits are what count, not the sign"
    )]
    pub(super) fn within128(q: u128, fps: &[u128], k: u32, found: &mut dyn FnMut(usize, u32)) {
        // A u128 is its low word then its high word in memory (little-endian).
        let qv = _mm256_set_epi64x((q >> 64) as i64, q as i64, (q >> 64) as i64, q as i64);
        let kv = _mm256_set1_epi64x(i64::from(k.min(128)));
        // Per 64-bit lane: all ones when its fingerprint (both lanes of a 128-bit half) is
        // farther than k from q.
        let far = |v: __m256i| {
            let words = lane_counts(_mm256_xor_si256(v, qv));
            let both = _mm256_add_epi64(words, _mm256_shuffle_epi32::<0x4e>(words));
            _mm256_cmpgt_epi64(both, kv)
        };
        // Bits 0 and 2 of the lanes' signs: one per fingerprint.
        let near = |f: __m256i| {
            let m = !(_mm256_movemask_pd(_mm256_castsi256_pd(f)) as u32);
            (m & 1) | (m >> 1 & 2)
        };
        let mut emit = |i: usize| found(i, (fps[i] ^ q).count_ones());
        let mut base = 0;
        let mut steps = fps.chunks_exact(8);
        for step in &mut steps {
            // SAFETY: `step` is 128 readable bytes.
            if let Some([a, b, c, d]) = unsafe { four(step.as_ptr().cast(), &far) } {
                let hits = near(a) | near(b) << 2 | near(c) << 4 | near(d) << 6;
                report(hits, base, &mut emit);
            }
            base += 8;
        }
        for (i, &x) in steps.remainder().iter().enumerate() {
            let d = (x ^ q).count_ones();
            if d <= k {
                found(base + i, d);
            }
        }
    }
}

/// The index's bucket checks written for AVX-512: eight 64-bit or sixteen 32-bit words per
/// instruction, the hits as a mask, and the bucket's tail read with a masked load (no padding,
/// no scalar loop). Compiled from the portable code, LLVM kept four words per register and
/// spilled its loop state: a bucket check took 0.6 ns per word against 0.1 for a scan.
mod avx512 {
    use core::arch::x86_64::{
        __m512i, _mm512_add_epi64, _mm512_cmple_epu32_mask, _mm512_cmple_epu64_mask,
        _mm512_loadu_si512, _mm512_maskz_loadu_epi32, _mm512_maskz_loadu_epi64,
        _mm512_popcnt_epi32, _mm512_popcnt_epi64, _mm512_set1_epi32, _mm512_set1_epi64,
        _mm512_set_epi64, _mm512_shuffle_epi32, _mm512_xor_si512, _MM_PERM_BADC,
    };
    use core::ops::Range;

    use super::report;

    /// [`super::super::portable::within64_in`] with AVX-512 VPOPCNTDQ.
    #[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq,popcnt")]
    #[allow(
        clippy::cast_possible_wrap,
        reason = "the bits are what count, not the sign"
    )]
    pub(super) fn within64_in(
        q: u64,
        all: &[u64],
        range: Range<usize>,
        k: u32,
        found: &mut dyn FnMut(usize, u32),
    ) {
        let xs = &all[range];
        let qv = _mm512_set1_epi64(q as i64);
        let kv = _mm512_set1_epi64(i64::from(k));
        let mut emit = |i: usize| found(i, (xs[i] ^ q).count_ones());
        // Sixteen words a step, one branch for both registers' hits.
        let mut pairs = xs.chunks_exact(16);
        let mut base = 0;
        for pair in &mut pairs {
            // SAFETY: `pair` is 128 readable bytes; the loads need no alignment.
            let (a, b) = unsafe {
                (
                    _mm512_loadu_si512(pair.as_ptr().cast::<__m512i>()),
                    _mm512_loadu_si512(pair.as_ptr().add(8).cast::<__m512i>()),
                )
            };
            let da = _mm512_popcnt_epi64(_mm512_xor_si512(a, qv));
            let db = _mm512_popcnt_epi64(_mm512_xor_si512(b, qv));
            let hits = u32::from(_mm512_cmple_epu64_mask(da, kv))
                | u32::from(_mm512_cmple_epu64_mask(db, kv)) << 8;
            report(hits, base, &mut emit);
            base += 16;
        }
        let mut chunks = pairs.remainder().chunks_exact(8);
        for chunk in &mut chunks {
            // SAFETY: `chunk` is 64 readable bytes; the load needs no alignment.
            let v = unsafe { _mm512_loadu_si512(chunk.as_ptr().cast::<__m512i>()) };
            let d = _mm512_popcnt_epi64(_mm512_xor_si512(v, qv));
            report(_mm512_cmple_epu64_mask(d, kv), base, &mut emit);
            base += 8;
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            // Fewer than 8 left: one lane per word.
            let lanes = (1u8 << rest.len()) - 1;
            // SAFETY: only the `rest.len()` lanes in the mask are read, and a masked load
            // does not fault on the lanes it leaves out.
            let v = unsafe { _mm512_maskz_loadu_epi64(lanes, rest.as_ptr().cast::<i64>()) };
            let d = _mm512_popcnt_epi64(_mm512_xor_si512(v, qv));
            report(_mm512_cmple_epu64_mask(d, kv) & lanes, base, &mut emit);
        }
    }

    /// [`super::super::portable::within128`] over a scan with AVX-512 VPOPCNTDQ: four
    /// fingerprints a register, each half's count added to the other's (`vpshufd`), sixteen
    /// fingerprints a step and the tail read with masked loads. A scan of a million took 0.71
    /// of the time of the portable loop's two scalar `popcnt`s a fingerprint; on the index's
    /// short buckets the AVX2 kernel above is faster (docs/performance.md, "128-bit
    /// kernels").
    #[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq,popcnt")]
    #[allow(
        clippy::cast_possible_wrap,
        clippy::cast_possible_truncation,
        reason = "the bits are what count, not the sign"
    )]
    pub(super) fn within128(q: u128, fps: &[u128], k: u32, found: &mut dyn FnMut(usize, u32)) {
        // A u128 is its low word then its high word in memory (little-endian).
        let (lo, hi) = (q as i64, (q >> 64) as i64);
        let qv = _mm512_set_epi64(hi, lo, hi, lo, hi, lo, hi, lo);
        let kv = _mm512_set1_epi64(i64::from(k.min(128)));
        // Per fingerprint, bit 2i of the lanes' mask (both lanes hold its count): bit i.
        let hits = |v: __m512i| {
            let words = _mm512_popcnt_epi64(_mm512_xor_si512(v, qv));
            let both = _mm512_add_epi64(words, _mm512_shuffle_epi32::<_MM_PERM_BADC>(words));
            let m = u32::from(_mm512_cmple_epu64_mask(both, kv)) & 0x55;
            let m = (m | m >> 1) & 0x33;
            (m | m >> 2) & 0x0f
        };
        let mut emit = |i: usize| found(i, (fps[i] ^ q).count_ones());
        let mut steps = fps.chunks_exact(16);
        let mut base = 0;
        for step in &mut steps {
            let p = step.as_ptr().cast::<__m512i>();
            // SAFETY: `step` is 256 readable bytes; the loads need no alignment.
            let (a, b, c, d) = unsafe {
                (
                    _mm512_loadu_si512(p),
                    _mm512_loadu_si512(p.add(1)),
                    _mm512_loadu_si512(p.add(2)),
                    _mm512_loadu_si512(p.add(3)),
                )
            };
            let found_here = hits(a) | hits(b) << 4 | hits(c) << 8 | hits(d) << 12;
            report(found_here, base, &mut emit);
            base += 16;
        }
        for chunk in steps.remainder().chunks(4) {
            // Two lanes per fingerprint left in this register.
            let lanes = ((1u16 << (2 * chunk.len())) - 1) as u8;
            // SAFETY: only the lanes in the mask are read, and a masked load does not fault
            // on the lanes it leaves out.
            let v = unsafe { _mm512_maskz_loadu_epi64(lanes, chunk.as_ptr().cast::<i64>()) };
            report(hits(v) & ((1 << chunk.len()) - 1), base, &mut emit);
            base += chunk.len();
        }
    }

    /// [`super::super::portable::cross64`] with AVX-512 VPOPCNTDQ: the rows in one call, so
    /// the per-row cost is the loop, not entering a kernel.
    #[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq,popcnt")]
    pub(super) fn cross64(
        xs: &[u64],
        ys: &[u64],
        after: bool,
        k: u32,
        found: &mut dyn FnMut(usize, usize, u32),
    ) {
        for (i, &x) in xs.iter().enumerate() {
            let start = if after { (i + 1).min(ys.len()) } else { 0 };
            within64_in(x, ys, start..ys.len(), k, &mut |j, d| {
                found(i, start + j, d)
            });
        }
    }

    /// [`super::super::portable::within32_in`] with AVX-512 VPOPCNTDQ.
    #[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq,popcnt")]
    #[allow(
        clippy::cast_possible_wrap,
        reason = "the bits are what count, not the sign"
    )]
    pub(super) fn within32_in(
        q: u32,
        all: &[u32],
        range: Range<usize>,
        k: u32,
        found: &mut dyn FnMut(usize),
    ) {
        let xs = &all[range];
        let qv = _mm512_set1_epi32(q as i32);
        let kv = _mm512_set1_epi32(k.min(33) as i32);
        let mut chunks = xs.chunks_exact(16);
        let mut base = 0;
        for chunk in &mut chunks {
            // SAFETY: `chunk` is 64 readable bytes; the load needs no alignment.
            let v = unsafe { _mm512_loadu_si512(chunk.as_ptr().cast::<__m512i>()) };
            let d = _mm512_popcnt_epi32(_mm512_xor_si512(v, qv));
            report(_mm512_cmple_epu32_mask(d, kv), base, found);
            base += 16;
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let lanes = (1u16 << rest.len()) - 1;
            // SAFETY: only the `rest.len()` lanes in the mask are read, and a masked load
            // does not fault on the lanes it leaves out.
            let v = unsafe { _mm512_maskz_loadu_epi32(lanes, rest.as_ptr().cast::<i32>()) };
            let d = _mm512_popcnt_epi32(_mm512_xor_si512(v, qv));
            report(_mm512_cmple_epu32_mask(d, kv) & lanes, base, found);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// Every level this CPU has answers exactly as plain popcounts do, for every kernel.
    #[test]
    fn every_level_matches_plain_popcounts() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let q = next();
        // Near and far words, so that every chunk path (hit, no hit) runs.
        let fps: Vec<u64> = (0..1000)
            .map(|i| match i % 3 {
                0 => q ^ (next() & next() & next()),
                1 => q ^ (1 << (next() % 64)),
                _ => next(),
            })
            .collect();
        let wide: Vec<u128> = fps
            .iter()
            .map(|&x| u128::from(x) << 64 | u128::from(x.rotate_left(7)))
            .collect();
        let q128 = u128::from(q) << 64 | u128::from(q.rotate_left(7));
        let narrow: Vec<u32> = fps.iter().map(|&x| x as u32).collect();
        let before = level();
        let mut missing = Vec::new();
        for max in [
            Kernels::Portable,
            Kernels::Popcnt,
            Kernels::Avx2,
            Kernels::Avx512,
        ] {
            let used = limit(max);
            // `limit` falls back silently on a CPU without `max`: check the fallback against
            // std's own detection, and say which levels this run could not cover.
            assert_eq!(used, std_best(max), "limit({max:?})");
            assert_eq!(level(), used, "the level in use after limit({max:?})");
            if used != max {
                missing.push(max);
            }
            for k in [0, 1, 3, 5, 6, 7, 9, 12, 18, 31, 40, 64, 70] {
                let mut got = Vec::new();
                within64(q, &fps, k, &mut |i, d| got.push((i, d)));
                let want: Vec<_> = (0..fps.len())
                    .map(|i| (i, (fps[i] ^ q).count_ones()))
                    .filter(|&(_, d)| d <= k)
                    .collect();
                assert_eq!(got, want, "within64 {used:?} k {k}");

                // Ranges of every length mod 16 (and the AVX2 kernel's 16-, 4- and 1-word
                // steps in every mix) and ones that end at the slice's end: the masked tails and
                // the padded reads past a range.
                for range in
                    (0..=40)
                        .map(|n| 500..500 + n)
                        .chain([10..700, 983..1000, 1000..1000, 0..1000])
                {
                    let mut got = Vec::new();
                    let from = range.start;
                    within64_in(q, &fps, range.clone(), k, &mut |i, d| {
                        got.push((i + from, d))
                    });
                    let want_in: Vec<_> = want
                        .iter()
                        .copied()
                        .filter(|&(i, _)| range.contains(&i))
                        .collect();
                    assert_eq!(got, want_in, "within64_in {used:?} k {k} {range:?}");
                }

                // Slices of every length mod 16 (the AVX-512 kernel's steps of sixteen and
                // masked tails of one to four per register, the AVX2 kernel's steps of eight).
                for range in (0..=40).map(|n| 500..500 + n).chain([0..1000, 983..1000]) {
                    let part = &wide[range.clone()];
                    let mut got = Vec::new();
                    within128(q128, part, 2 * k, &mut |i, d| got.push((i, d)));
                    let want: Vec<_> = (0..part.len())
                        .map(|i| (i, (part[i] ^ q128).count_ones()))
                        .filter(|&(_, d)| d <= 2 * k)
                        .collect();
                    assert_eq!(got, want, "within128 {used:?} k {k} {range:?}");
                    let mut got_in = Vec::new();
                    within128_in(q128, part, 2 * k, &mut |i, d| got_in.push((i, d)));
                    assert_eq!(got_in, want, "within128_in {used:?} k {k} {range:?}");
                }

                let q32 = q as u32;
                let want: Vec<_> = (0..narrow.len())
                    .filter(|&i| (narrow[i] ^ q32).count_ones() <= k)
                    .collect();
                let mut got = Vec::new();
                within32(q32, &narrow, k, &mut |i| got.push(i));
                assert_eq!(got, want, "within32 {used:?} k {k}");
                for range in
                    (0..=33)
                        .map(|n| 400..400 + n)
                        .chain([3..997, 977..1000, 1000..1000, 0..1000])
                {
                    let mut got = Vec::new();
                    let from = range.start;
                    within32_in(q32, &narrow, range.clone(), k, &mut |i| got.push(i + from));
                    let want_in: Vec<_> =
                        want.iter().copied().filter(|i| range.contains(i)).collect();
                    assert_eq!(got, want_in, "within32_in {used:?} k {k} {range:?}");
                }
            }
            // Joins of two runs and of one run with itself, of lengths around the kernel's
            // steps (the rows of a bucket pair).
            for (xs, ys, after) in [
                (&fps[0..37], &fps[100..261], false),
                (&fps[300..417], &fps[300..417], true),
                (&fps[500..501], &fps[500..517], true),
                (&fps[600..600], &fps[600..610], false),
            ] {
                for k in [0, 3, 9, 18, 64] {
                    let mut got = Vec::new();
                    cross64(xs, ys, after, k, &mut |i, j, d| got.push((i, j, d)));
                    let mut want = Vec::new();
                    for (i, &x) in xs.iter().enumerate() {
                        for (j, &y) in ys.iter().enumerate() {
                            let d = (x ^ y).count_ones();
                            if d <= k && (!after || j > i) {
                                want.push((i, j, d));
                            }
                        }
                    }
                    assert_eq!(got, want, "cross64 {used:?} k {k} after {after}");
                }
            }
            let mut out = alloc::vec![0; fps.len()];
            distances64(q, &fps, &mut out);
            assert!(out
                .iter()
                .zip(&fps)
                .all(|(&d, &x)| u32::from(d) == (x ^ q).count_ones()));
        }
        limit(before);
        if !missing.is_empty() {
            // Straight to stderr: the test harness captures eprintln! of passing tests, and
            // this is worth seeing in every run.
            extern crate std;
            use std::io::Write as _;
            let _ = std::writeln!(
                std::io::stderr(),
                "x86_64 kernels: this CPU lacks {missing:?}; those levels fell back and did not run"
            );
        }
    }

    /// The best level at most `max` that std's feature detection (not `cpufeatures`) finds.
    fn std_best(max: Kernels) -> Kernels {
        extern crate std;
        use std::is_x86_feature_detected as has;
        let popcnt = has!("popcnt");
        let avx2 = popcnt && has!("avx2");
        let avx512 = popcnt && has!("avx512f") && has!("avx512vl") && has!("avx512vpopcntdq");
        [
            (Kernels::Avx512, avx512),
            (Kernels::Avx2, avx2),
            (Kernels::Popcnt, popcnt),
        ]
        .into_iter()
        .find(|&(level, present)| present && level as u8 <= max as u8)
        .map_or(Kernels::Portable, |(level, _)| level)
    }
}
