//! Work spread over threads, for the `parallel` feature: the calling thread and up to
//! `threads - 1` scoped threads take numbered units of work from one counter, so a slow unit
//! (a large bucket, a long text) holds up one thread, not a fixed share of the work.
//!
//! `std::thread::scope` rather than rayon: the work is a few coarse loops, a counter spreads
//! it as well as work stealing would, and the crate keeps its dependencies to the three it
//! has. A thread that cannot be started leaves its share to the others (the calling thread
//! always works), so a process out of threads gets a slower answer, not a panic.

use alloc::vec::Vec;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Most threads one call starts: a guard against `usize::MAX` (or a mistyped count) starting
/// millions; far above the cores of any machine these loops pay off on.
pub(crate) const MAX_THREADS: usize = 256;

/// The threads a call uses: `threads`, or every core when it is 0 (`available_parallelism`,
/// 1 when unknown); at most [`MAX_THREADS`], and no more than there are `units`.
pub(crate) fn threads_for(threads: usize, units: usize) -> usize {
    let wanted = if threads == 0 {
        std::thread::available_parallelism().map_or(1, core::num::NonZeroUsize::get)
    } else {
        threads
    };
    wanted.min(MAX_THREADS).min(units).max(1)
}

/// Runs `work(&mut state, unit)` for each unit in `0..units`, each unit once, on
/// [`threads_for`]`(threads, units)` threads; every thread starts from `init()`. `work`
/// returns false to stop every thread after the units they are in. Returns the threads'
/// states (the calling thread's first); which thread ran which unit is not fixed, so callers
/// put the results in order by unit themselves.
pub(crate) fn run<S: Send>(
    threads: usize,
    units: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> bool + Sync,
) -> Vec<S> {
    let threads = threads_for(threads, units);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let worker = || {
        let mut state = init();
        while !stop.load(Ordering::Relaxed) {
            let unit = next.fetch_add(1, Ordering::Relaxed);
            if unit >= units {
                break;
            }
            if !work(&mut state, unit) {
                stop.store(true, Ordering::Relaxed);
            }
        }
        state
    };
    if threads == 1 {
        return alloc::vec![worker()];
    }
    std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads)
            .filter_map(|_| std::thread::Builder::new().spawn_scoped(scope, worker).ok())
            .collect();
        let mut states = Vec::with_capacity(threads);
        states.push(worker());
        for handle in others {
            match handle.join() {
                Ok(state) => states.push(state),
                // A panic in a worker is a bug of the crate's own: carry it to the caller as
                // a serial run would.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        states
    })
}

/// `0..n` cut into at most `parts` ranges of nearly equal length (none empty).
pub(crate) fn split(n: usize, parts: usize) -> impl Iterator<Item = core::ops::Range<usize>> {
    let step = n.div_ceil(parts.max(1)).max(1);
    (0..n)
        .step_by(step)
        .map(move |start| start..(start + step).min(n))
}

impl crate::Fingerprinter {
    /// The fingerprints of `texts`, in their order, computed on `threads` threads (0: one per
    /// core; 1: on the calling thread alone). Exactly what [`Fingerprinter::fingerprint`]
    /// gives each text; only with the `parallel` feature (native code: it uses `std`).
    ///
    /// Texts are handed out in small runs as threads free up, so a few long texts among
    /// short ones do not leave a thread idle. At most 256 threads are started, never more
    /// than there are runs; a thread the system refuses leaves its share to the others.
    ///
    /// ```
    /// use simprint::{Fingerprinter, Options};
    /// let fp = Fingerprinter::new(Options::default())?;
    /// let texts = ["the first text", "the second text", "a third, longer text"];
    /// let all = fp.fingerprint_parallel(&texts, 0);
    /// assert_eq!(all, texts.map(|t| fp.fingerprint(t)));
    /// assert_eq!(fp.fingerprint_parallel(&texts, 1), all); // one thread: the same answer
    /// # Ok::<(), simprint::Error>(())
    /// ```
    ///
    /// [`Fingerprinter::fingerprint`]: crate::Fingerprinter::fingerprint
    #[must_use]
    pub fn fingerprint_parallel<T: AsRef<str> + Sync>(
        &self,
        texts: &[T],
        threads: usize,
    ) -> Vec<crate::Fingerprint> {
        // Runs of texts small enough to even out the threads' loads, large enough that taking
        // one from the counter costs nothing beside fingerprinting it.
        let run_len = texts
            .len()
            .div_ceil(64 * threads_for(threads, texts.len()))
            .clamp(1, 256);
        let runs = texts.len().div_ceil(run_len);
        let done = run(
            threads,
            runs,
            Vec::new,
            |out: &mut Vec<(usize, Vec<crate::Fingerprint>)>, r| {
                let start = r * run_len;
                let these = &texts[start..(start + run_len).min(texts.len())];
                out.push((
                    r,
                    these.iter().map(|t| self.fingerprint(t.as_ref())).collect(),
                ));
                true
            },
        );
        // Each thread's runs in the order it took them; put them back in the texts' order.
        let mut by_run: Vec<Vec<crate::Fingerprint>> = alloc::vec![Vec::new(); runs];
        for (r, fps) in done.into_iter().flatten() {
            by_run[r] = fps;
        }
        by_run.into_iter().flatten().collect()
    }
}
