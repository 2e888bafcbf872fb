"""FAISS on the sets bench/index.rs writes: the reference for simprint's index.

    cargo bench --bench index             # writes the sets, queries and match counts
    pip install faiss-cpu==1.15.1         # from PyPI
    python3 bench/faiss_index.py          # SIMPRINT_KS=3,9 for other k

Two FAISS indexes over the same million random and million real-text 64-bit fingerprints, at
k = 3, 6, 9, 12, 15 and 18, one thread (as simprint's single-threaded query):

- IndexBinaryFlat.range_search: an exhaustive scan (FAISS's own popcount kernels). Its radius
  is exclusive, so it is given k + 1.
- IndexBinaryMultiHash(64, nhash, 64 // nhash): multi-index hashing with nflip = k // nhash,
  the least flips that stay exact (nhash × (nflip + 1) > k), for nhash = 4 and 5 (five
  substrings of 12 bits leave 4 bits unindexed, which keeps it exact).

Each query is one call (Python's call overhead, about a microsecond, is in the times); the
first 1000 queries of the native run, whose match counts every answer is checked against.
"""

import os
import statistics
import sys
import time

import faiss
import numpy as np

CACHE = os.path.expanduser("~/.cache/simprint/bench")
N = int(os.environ.get("SIMPRINT_N", "1000000"))
KS = [int(k) for k in os.environ.get("SIMPRINT_KS", "3,6,9,12,15,18").split(",")]
QUERIES = 10_000  # as written by the native run
TIMED = int(os.environ.get("SIMPRINT_FAISS_QUERIES", "1000"))
# Flat range search scans everything: fewer queries keep the run short.
FLAT_TIMED = 100


def read_u64(name, count):
    path = os.path.join(CACHE, name)
    try:
        data = np.fromfile(path, dtype="<u8")
    except OSError as e:
        sys.exit(f"cannot read {path}: {e}\nRun `cargo bench --bench index` first.")
    if data.size != count:
        sys.exit(f"{path} holds {data.size} values, not {count}: rerun the native bench.")
    # FAISS binary vectors are bytes; Hamming distance does not depend on their order.
    return data.view(np.uint8).reshape(count, 8)


def percentile(xs, p):
    s = sorted(xs)
    return s[max(0, min(len(s), -(-len(s) * p // 100)) - 1)]


def timed(search, queries):
    times, counts = [], []
    for q in queries:
        t = time.perf_counter()
        counts.append(search(q.reshape(1, 8)))
        times.append((time.perf_counter() - t) * 1e6)
    return times, counts


def main():
    faiss.omp_set_num_threads(1)
    print(f"FAISS {faiss.__version__}, one thread; N = {N}, k = {KS}; {TIMED} queries "
          f"({FLAT_TIMED} for the flat scan, {TIMED // 5} above k = 9), each one call",
          flush=True)
    for name, title in [("random", "random (splitmix64)"),
                        ("realtext", "real text (clustered): windows of en.txt + zh.txt")]:
        xb = read_u64(f"{name}-{N}.u64", N)
        xq = read_u64(f"queries-{name}-{QUERIES}.u64", QUERIES)[:TIMED]
        flat = faiss.IndexBinaryFlat(64)
        t = time.perf_counter()
        flat.add(xb)
        flat_build = (time.perf_counter() - t) * 1e3
        hashes = {}
        for nhash in (4, 5):
            index = faiss.IndexBinaryMultiHash(64, nhash, 64 // nhash)
            t = time.perf_counter()
            index.add(xb)
            hashes[nhash] = (index, (time.perf_counter() - t) * 1e3)
        rows = []
        for k in KS:
            native = np.fromfile(os.path.join(CACHE, f"counts-{name}-{QUERIES}-k{k}.u32"),
                                 dtype="<u4")[:TIMED]

            def range_count(index):
                def search(q):
                    lims, _, _ = index.range_search(q, k + 1)
                    return int(lims[1] - lims[0])
                return search

            times, counts = timed(range_count(flat), xq[:FLAT_TIMED])
            assert counts == list(native[:FLAT_TIMED]), f"flat disagrees at k = {k}"
            row = [f"k = {k}", f"{flat_build:.0f}", f"{statistics.median(times):.1f}",
                   f"{percentile(times, 99):.1f}"]
            # Large k make FAISS's multi-index hashing slow: fewer queries there.
            some = TIMED if k <= 9 else TIMED // 5
            for nhash, (index, build) in hashes.items():
                index.nflip = k // nhash
                times, counts = timed(range_count(index), xq[:some])
                bad = sum(c != n for c, n in zip(counts, native[:some]))
                assert bad == 0, f"MultiHash nhash {nhash} disagrees on {bad} queries at k = {k}"
                row += [f"{build:.0f}", f"{statistics.median(times):.1f}",
                        f"{percentile(times, 99):.1f}"]
            rows.append(row)
            print(f"  {name} k = {k}: " + ", ".join(row[1:]), flush=True)
        header = ["k", "flat build ms", "flat median µs", "flat p99 µs"]
        for nhash in hashes:
            header += [f"MH{nhash} build ms", f"MH{nhash} median µs", f"MH{nhash} p99 µs"]
        widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
        print(f"\n{title}, N = {N}")
        print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
        print("  ".join("-" * w for w in widths))
        for r in rows:
            print("  ".join(c.rjust(w) for c, w in zip(r, widths)))


if __name__ == "__main__":
    main()
