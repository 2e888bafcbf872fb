"""hammingbird on the sets bench/index.rs writes: a multi-index-hashing peer of simprint's index.

    SIMPRINT_KS=3,6,9 SIMPRINT_PAIRS=all cargo bench --bench index   # sets, queries, counts
    ~/.cache/simprint/venv/bin/pip install hammingbird==0.5.0        # from PyPI
    ~/.cache/simprint/venv/bin/python bench/hammingbird_index.py     # SIMPRINT_KS=3,6,9

hammingbird 0.5.0 (a Rust library with Python bindings, rayon inside) over the same million
random and million real-text 64-bit fingerprints, with one thread, as simprint's query and
all pairs run: RAYON_NUM_THREADS=1 is set before the import, since rayon sizes its pool once.

- `Index(d_bytes=8, k)`: `add_batch` of the whole set, then one `query` call per query (Python's
  call overhead, about a microsecond, is in the times); the first SIMPRINT_HB_QUERIES (default
  1000; a fifth above k = 6, where a query takes milliseconds) queries of the native run, each
  answer's length checked against simprint's match count.
- All pairs: `find_pairs_self` (its byte chunks need k < d_bytes = 8) or `find_pairs_self_bit`
  above that, in a child process capped at SIMPRINT_HB_GB (default 6) GB of address space and
  SIMPRINT_HB_SECONDS (default 120) seconds, since its candidate lists grow past the machine's
  memory at k = 6 (issue 30 saw 8.5 GB): "failed" rows say which limit ended it. The count is
  checked against simprint's, which bench/index.rs writes for the k it timed all pairs at.
"""

import os

# Before hammingbird loads: rayon reads this once, when its global pool starts.
os.environ["RAYON_NUM_THREADS"] = "1"

import multiprocessing as mp  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import hammingbird  # noqa: E402
import numpy as np  # noqa: E402

CACHE = os.path.expanduser("~/.cache/simprint/bench")
N = int(os.environ.get("SIMPRINT_N", "1000000"))
KS = [int(k) for k in os.environ.get("SIMPRINT_KS", "3,6,9").split(",")]
QUERIES = 10_000  # as written by the native run
TIMED = int(os.environ.get("SIMPRINT_HB_QUERIES", "1000"))
PAIRS_GB = float(os.environ.get("SIMPRINT_HB_GB", "6"))
PAIRS_SECONDS = float(os.environ.get("SIMPRINT_HB_SECONDS", "120"))
D_BYTES = 8


def read_u64(name, count):
    path = os.path.join(CACHE, name)
    try:
        data = np.fromfile(path, dtype="<u8")
    except OSError as e:
        sys.exit(f"cannot read {path}: {e}\nRun `cargo bench --bench index` first.")
    if data.size != count:
        sys.exit(f"{path} holds {data.size} values, not {count}: rerun the native bench.")
    # Bytes, as hammingbird takes them; Hamming distance does not depend on their order.
    return data.view(np.uint8).reshape(count, D_BYTES)


def percentile(xs, p):
    s = sorted(xs)
    return s[max(0, min(len(s), -(-len(s) * p // 100)) - 1)]


def simprint_pairs(name, k):
    path = os.path.join(CACHE, f"pairs-{name}-{N}-k{k}.u64")
    try:
        return int(np.fromfile(path, dtype="<u8")[0])
    except (OSError, IndexError):
        return None


def pairs_child(xb, k, out):
    # The cap makes an allocation past it fail inside the child (Rust aborts), not the machine.
    # An abort prints its message; a backtrace per failed k would bury the table.
    os.environ["RUST_BACKTRACE"] = "0"
    limit = int(PAIRS_GB * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    find = hammingbird.find_pairs_self if k < D_BYTES else hammingbird.find_pairs_self_bit
    t = time.perf_counter()
    pairs = find(xb, k)
    out.put(((time.perf_counter() - t) * 1e3, len(pairs)))


def all_pairs(xb, k):
    """(milliseconds, pairs) or a word saying why it did not complete."""
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=pairs_child, args=(xb, k, out))
    child.start()
    child.join(PAIRS_SECONDS)
    if child.is_alive():
        child.kill()
        child.join()
        return f"over {PAIRS_SECONDS:.0f} s"
    if child.exitcode != 0:
        return f"failed under {PAIRS_GB:g} GB (exit {child.exitcode})"
    return out.get()


def main():
    print(f"hammingbird {hammingbird.__version__}, one thread (RAYON_NUM_THREADS=1); N = {N}, "
          f"k = {KS}; {TIMED} queries ({TIMED // 5} above k = 6), each one call; all pairs "
          f"capped at {PAIRS_GB:g} GB and {PAIRS_SECONDS:.0f} s", flush=True)
    for name, title in [("random", "random (splitmix64)"),
                        ("realtext", "real text (clustered): windows of en.txt + zh.txt")]:
        xb = read_u64(f"{name}-{N}.u64", N)
        xq = read_u64(f"queries-{name}-{QUERIES}.u64", QUERIES)
        rows = []
        for k in KS:
            native = np.fromfile(os.path.join(CACHE, f"counts-{name}-{QUERIES}-k{k}.u32"),
                                 dtype="<u4")
            index = hammingbird.Index(D_BYTES, k)
            t = time.perf_counter()
            index.add_batch(xb)
            build = (time.perf_counter() - t) * 1e3
            some = TIMED if k <= 6 else TIMED // 5
            times, bad = [], 0
            for i in range(some):
                t = time.perf_counter()
                found = index.query(xq[i])
                times.append((time.perf_counter() - t) * 1e6)
                bad += len(found) != native[i]
            assert bad == 0, f"hammingbird disagrees with simprint on {bad} queries at k = {k}"
            del index
            pairs = all_pairs(xb, k)
            expected = simprint_pairs(name, k)
            if isinstance(pairs, tuple):
                if expected is not None:
                    assert pairs[1] == expected, \
                        f"hammingbird finds {pairs[1]} pairs at k = {k}, simprint {expected}"
                checked = "" if expected is not None else " (unchecked)"
                pairs_cells = [f"{pairs[0]:.0f}", f"{pairs[1]}{checked}"]
            else:
                pairs_cells = [pairs, "-"]
            row = [f"k = {k}", f"{build:.0f}", f"{statistics.median(times):.1f}",
                   f"{percentile(times, 99):.1f}", str(some)] + pairs_cells
            rows.append(row)
            print(f"  {name} k = {k}: " + ", ".join(row[1:]), flush=True)
        header = ["k", "build ms", "query median µs", "query p99 µs", "queries",
                  "all pairs ms", "pairs"]
        widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
        print(f"\n{title}, N = {N}")
        print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
        print("  ".join("-" * w for w in widths))
        for r in rows:
            print("  ".join(c.rjust(w) for c, w in zip(r, widths)))


if __name__ == "__main__":
    main()
