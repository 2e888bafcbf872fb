//! The portable scan kernels: plain Rust that LLVM vectorizes with whatever the target has
//! (SSE2 on baseline x86-64, which has no POPCNT instruction).
//!
//! The test "distance within `k`" runs over chunks of [`CHUNK`] fingerprints and only says
//! whether the chunk holds a hit; the rare chunk that does is re-checked one by one with the
//! exact distance. So the common chunk costs no branch per fingerprint, and the test itself
//! can be cheaper than a popcount: for small `k`, clearing the lowest set bit `k` times leaves
//! zero exactly when at most `k` bits were set.

/// Fingerprints tested together before one branch.
pub(crate) const CHUNK: usize = 16;

/// True iff `x` has at most `K` bits set: `K` times `x &= x - 1`, then `x == 0`.
#[inline(always)]
fn at_most<const K: u32>(x: u64) -> bool {
    let mut x = x;
    for _ in 0..K {
        x &= x.wrapping_sub(1);
    }
    x == 0
}

/// Calls `found(i, distance)` for every `i` (ascending) with `(fps[i] ^ q).count_ones() <= k`.
// Always inlined on x86-64, where each level's wrapper must compile its own copy with its
// features; elsewhere left to the compiler, which keeps the wasm small.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
#[cfg_attr(
    not(feature = "test-hooks"),
    allow(
        dead_code,
        reason = "the kernel where no other is built; on x86-64 and in wasm only test_hooks calls it"
    )
)]
pub(crate) fn within64(q: u64, fps: &[u64], k: u32, found: &mut dyn FnMut(usize, u32)) {
    // Clearing bits up to k = 6, a popcount above: measured on baseline x86-64, clearing does
    // 2.4e9/s at k = 3, 1.4e9/s at 6 and 1.0e9/s at 8, the vectorized popcount 1.2e9/s.
    within64_clearing(q, fps, k, found, 6);
}

/// [`within64`] that clears bits for `k <= clear_up_to` (at most 6) and counts them above:
/// where the CPU has a vector popcount, counting wins from k = 1.
// Always inlined on x86-64, where each level's wrapper must compile its own copy with its
// features; elsewhere left to the compiler, which keeps the wasm small.
#[cfg_attr(
    not(feature = "test-hooks"),
    allow(dead_code, reason = "in wasm SIMD128 builds only within64 calls it")
)]
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
pub(crate) fn within64_clearing(
    q: u64,
    fps: &[u64],
    k: u32,
    found: &mut dyn FnMut(usize, u32),
    clear_up_to: u32,
) {
    match k {
        0 => chunked64(q, fps, k, found, at_most::<0>),
        1 if clear_up_to >= 1 => chunked64(q, fps, k, found, at_most::<1>),
        2 if clear_up_to >= 2 => chunked64(q, fps, k, found, at_most::<2>),
        3 if clear_up_to >= 3 => chunked64(q, fps, k, found, at_most::<3>),
        4 if clear_up_to >= 4 => chunked64(q, fps, k, found, at_most::<4>),
        5 if clear_up_to >= 5 => chunked64(q, fps, k, found, at_most::<5>),
        6 if clear_up_to >= 6 => chunked64(q, fps, k, found, at_most::<6>),
        _ if k < 64 => chunked64(q, fps, k, found, |x| x.count_ones() <= k),
        // Everything is within 64 bits.
        _ => {
            for (i, &fp) in fps.iter().enumerate() {
                found(i, (fp ^ q).count_ones());
            }
        }
    }
}

#[inline(always)]
fn chunked64(
    q: u64,
    fps: &[u64],
    k: u32,
    found: &mut dyn FnMut(usize, u32),
    within: impl Fn(u64) -> bool,
) {
    let mut chunks = fps.chunks_exact(CHUNK);
    let mut base = 0;
    for chunk in &mut chunks {
        // `|` rather than `||`: no early exit, so the chunk is one vectorizable reduction.
        let any = chunk.iter().fold(false, |any, &fp| any | within(fp ^ q));
        if any {
            exact64(q, chunk, k, base, found);
        }
        base += CHUNK;
    }
    exact64(q, chunks.remainder(), k, base, found);
}

#[inline(always)]
fn exact64(q: u64, fps: &[u64], k: u32, base: usize, found: &mut dyn FnMut(usize, u32)) {
    for (i, &fp) in fps.iter().enumerate() {
        let d = (fp ^ q).count_ones();
        if d <= k {
            found(base + i, d);
        }
    }
}

/// [`within64`] for 128-bit fingerprints.
// Always inlined on x86-64, where each level's wrapper must compile its own copy with its
// features; elsewhere left to the compiler, which keeps the wasm small.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
pub(crate) fn within128(q: u128, fps: &[u128], k: u32, found: &mut dyn FnMut(usize, u32)) {
    let mut chunks = fps.chunks_exact(CHUNK);
    let mut base = 0;
    for chunk in &mut chunks {
        let any = chunk
            .iter()
            .fold(false, |any, &fp| any | ((fp ^ q).count_ones() <= k));
        if any {
            exact128(q, chunk, k, base, found);
        }
        base += CHUNK;
    }
    exact128(q, chunks.remainder(), k, base, found);
}

#[inline(always)]
fn exact128(q: u128, fps: &[u128], k: u32, base: usize, found: &mut dyn FnMut(usize, u32)) {
    for (i, &fp) in fps.iter().enumerate() {
        let d = (fp ^ q).count_ones();
        if d <= k {
            found(base + i, d);
        }
    }
}

/// `out[i] = (fps[i] ^ q).count_ones()`; `out` is exactly as long as `fps`.
// Always inlined on x86-64, where each level's wrapper must compile its own copy with its
// features; elsewhere left to the compiler, which keeps the wasm small.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
pub(crate) fn distances64(q: u64, fps: &[u64], out: &mut [u8]) {
    debug_assert_eq!(fps.len(), out.len());
    // Eight at a time into a small array: LLVM then packs eight distances per store instead
    // of narrowing two at a time (1.5e9/s against 1.2e9/s on baseline x86-64).
    let mut outs = out.chunks_exact_mut(8);
    let mut chunks = fps.chunks_exact(8);
    for (o, chunk) in (&mut outs).zip(&mut chunks) {
        let mut d = [0u8; 8];
        for (d, &fp) in d.iter_mut().zip(chunk) {
            *d = distance_byte(fp ^ q);
        }
        o.copy_from_slice(&d);
    }
    for (o, &fp) in outs.into_remainder().iter_mut().zip(chunks.remainder()) {
        *o = distance_byte(fp ^ q);
    }
}

/// The distance `x.count_ones()` of a 64-bit XOR, which is at most 64: one byte.
#[inline]
#[allow(clippy::cast_possible_truncation, reason = "at most 64")]
fn distance_byte(x: u64) -> u8 {
    x.count_ones() as u8
}

/// True iff `x` has at most `K` bits set, for 32-bit words.
#[inline(always)]
fn at_most32<const K: u32>(x: u32) -> bool {
    let mut x = x;
    for _ in 0..K {
        x &= x.wrapping_sub(1);
    }
    x == 0
}

/// Calls `found(i)` for every `i` (ascending) with `(xs[i] ^ q).count_ones() <= k`: the
/// index's first check of a bucket, on 32-bit words (four to an SSE2 or SIMD128 register).
// Always inlined on x86-64, where each level's wrapper must compile its own copy with its
// features; elsewhere left to the compiler, which keeps the wasm small.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
pub(crate) fn within32(q: u32, xs: &[u32], k: u32, found: &mut dyn FnMut(usize)) {
    match k {
        0 => chunked32(q, xs, k, found, at_most32::<0>),
        1 => chunked32(q, xs, k, found, at_most32::<1>),
        2 => chunked32(q, xs, k, found, at_most32::<2>),
        3 => chunked32(q, xs, k, found, at_most32::<3>),
        4 => chunked32(q, xs, k, found, at_most32::<4>),
        _ if k < 32 => chunked32(q, xs, k, found, |x| x.count_ones() <= k),
        _ => (0..xs.len()).for_each(found),
    }
}

/// Chunks of 8: buckets are often small, and 8 words are two registers.
#[inline(always)]
fn chunked32(
    q: u32,
    xs: &[u32],
    k: u32,
    found: &mut dyn FnMut(usize),
    within: impl Fn(u32) -> bool,
) {
    let mut chunks = xs.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        let any = chunk.iter().fold(false, |any, &x| any | within(x ^ q));
        if any {
            exact32(q, chunk, k, base, found);
        }
        base += 8;
    }
    exact32(q, chunks.remainder(), k, base, found);
}

#[inline(always)]
fn exact32(q: u32, xs: &[u32], k: u32, base: usize, found: &mut dyn FnMut(usize)) {
    for (i, &x) in xs.iter().enumerate() {
        if (x ^ q).count_ones() <= k {
            found(base + i);
        }
    }
}

/// [`within32`] over `all[range]`, reading whole chunks of 8 past the range's end while `all`
/// has them: a bucket of a few entries is checked in vector registers instead of one by one,
/// and what lies past it (the next buckets) is never reported. Calls `found(i)` with `i`
/// counted from `range.start`.
// Always inlined on x86-64, where each level's wrapper must compile its own copy with its
// features; elsewhere left to the compiler, which keeps the wasm small.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
pub(crate) fn within32_in(
    q: u32,
    all: &[u32],
    range: core::ops::Range<usize>,
    k: u32,
    found: &mut dyn FnMut(usize),
) {
    match k {
        0 => padded32(q, all, range, k, found, at_most32::<0>),
        1 => padded32(q, all, range, k, found, at_most32::<1>),
        2 => padded32(q, all, range, k, found, at_most32::<2>),
        3 => padded32(q, all, range, k, found, at_most32::<3>),
        4 => padded32(q, all, range, k, found, at_most32::<4>),
        _ if k < 32 => padded32(q, all, range, k, found, |x| x.count_ones() <= k),
        _ => (0..range.len()).for_each(found),
    }
}

#[inline(always)]
fn padded32(
    q: u32,
    all: &[u32],
    range: core::ops::Range<usize>,
    k: u32,
    found: &mut dyn FnMut(usize),
    within: impl Fn(u32) -> bool,
) {
    let (start, end) = (range.start, range.end);
    let mut i = start;
    while i < end {
        let Some(chunk) = all.get(i..i + 8) else {
            exact32(q, &all[i..end], k, i - start, found);
            return;
        };
        let any = chunk.iter().fold(false, |any, &x| any | within(x ^ q));
        if any {
            let stop = (end - i).min(8);
            exact32(q, &chunk[..stop], k, i - start, found);
        }
        i += 8;
    }
}

/// [`within64`]'s test over `all[range]`, padded to whole chunks of 4 like [`within32_in`]
/// (in wasm, of 8 above `k` = 6: `counted64`).
// Always inlined on x86-64, where each level's wrapper must compile its own copy with its
// features; elsewhere left to the compiler, which keeps the wasm small.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
pub(crate) fn within64_in(
    q: u64,
    all: &[u64],
    range: core::ops::Range<usize>,
    k: u32,
    found: &mut dyn FnMut(usize, u32),
) {
    match k {
        0 => padded64(q, all, range, k, found, at_most::<0>),
        1 => padded64(q, all, range, k, found, at_most::<1>),
        2 => padded64(q, all, range, k, found, at_most::<2>),
        3 => padded64(q, all, range, k, found, at_most::<3>),
        4 => padded64(q, all, range, k, found, at_most::<4>),
        5 => padded64(q, all, range, k, found, at_most::<5>),
        6 => padded64(q, all, range, k, found, at_most::<6>),
        #[cfg(target_arch = "wasm32")]
        _ => counted64(q, all, range, k, found),
        #[cfg(not(target_arch = "wasm32"))]
        _ => padded64(q, all, range, k, found, |x| x.count_ones() <= k),
    }
}

/// [`padded64`] for larger `k` in wasm, where the popcount is an instruction (`i64.popcnt`),
/// and the SIMD128 scan's kernel above `k` = 4 (over the whole slice):
/// whether a chunk of 8 holds a word within `k` is the sign of an OR of `popcount - k - 1`,
/// with no branch per word. Under Node 20 the index's queries at `k` = 9 to 18 took 4 to 10 %
/// less time than with [`padded64`]'s chunks of 4 (whose test LLVM compiles to a branch per
/// word); chunks of 16 or 32 were faster still at `k` = 9 and 12 but made `k` = 6 and 7 (other
/// kernels) up to twice as slow, through the code around them (docs/performance.md).
#[cfg(target_arch = "wasm32")]
#[inline(always)]
pub(crate) fn counted64(
    q: u64,
    all: &[u64],
    range: core::ops::Range<usize>,
    k: u32,
    found: &mut dyn FnMut(usize, u32),
) {
    // Any k of 64 or more takes every word: popcount - 65 is negative.
    #[allow(clippy::cast_possible_wrap, reason = "at most 65")]
    let limit = k.min(64) as i32 + 1;
    let (start, end) = (range.start, range.end);
    let mut i = start;
    while i < end {
        let Some(chunk) = all.get(i..i + 8) else {
            exact64(q, &all[i..end], k, i - start, found);
            return;
        };
        #[allow(clippy::cast_possible_wrap, reason = "a popcount is at most 64")]
        let any = chunk
            .iter()
            .fold(0i32, |acc, &x| acc | ((x ^ q).count_ones() as i32 - limit));
        if any < 0 {
            let stop = (end - i).min(8);
            exact64(q, &chunk[..stop], k, i - start, found);
        }
        i += 8;
    }
}

#[inline(always)]
fn padded64(
    q: u64,
    all: &[u64],
    range: core::ops::Range<usize>,
    k: u32,
    found: &mut dyn FnMut(usize, u32),
    within: impl Fn(u64) -> bool,
) {
    let (start, end) = (range.start, range.end);
    let mut i = start;
    while i < end {
        let Some(chunk) = all.get(i..i + 4) else {
            exact64(q, &all[i..end], k, i - start, found);
            return;
        };
        let any = chunk.iter().fold(false, |any, &x| any | within(x ^ q));
        if any {
            let stop = (end - i).min(4);
            exact64(q, &chunk[..stop], k, i - start, found);
        }
        i += 4;
    }
}

/// Calls `found(i, j, distance)` for every `xs[i]`, `ys[j]` within `k` of each other, by `i`
/// then `j`; with `after`, only `j > i` (`xs` and `ys` then start at the same entry): a join
/// of two buckets, or of one with itself, in one call.
// x86-64 only: each level's wrapper compiles its own copy. Elsewhere the index joins a row at a
// time (in wasm a whole-bucket join measured twice as slow).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn cross64(
    xs: &[u64],
    ys: &[u64],
    after: bool,
    k: u32,
    found: &mut dyn FnMut(usize, usize, u32),
    clear_up_to: u32,
) {
    for (i, &x) in xs.iter().enumerate() {
        let start = if after { (i + 1).min(ys.len()) } else { 0 };
        within64_clearing(
            x,
            &ys[start..],
            k,
            &mut |j, d| found(i, start + j, d),
            clear_up_to,
        );
    }
}
