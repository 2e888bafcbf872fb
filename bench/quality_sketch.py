#!/usr/bin/env python3
"""A quality-mode design measured but not built: a 64-bit SimHash to find candidates plus 192
one-bit MinHash values to verify them (8 + 24 = 32 bytes a document), on the pairs of every
corpus of the cross-corpus evaluation.

    cargo run --release --example evaluate       # writes ~/.cache/simprint/eval/cross-*
    python3 bench/quality_sketch.py [EVAL_DIR]    # datasketch 2.0.0; a few minutes

A pair is flagged when its 64-bit distance is at most recommended_k + 4 (the candidate stage,
an index query) and the Jaccard similarity estimated from the lowest bit of 192 MinHash values
of single words and CJK bigrams (2·matches/192 − 1, b-bit MinHash with b = 1) is at least t.
t is chosen two ways: on the first corpus's tuning half and applied to every corpus (as the
rule's free choices are), and on each corpus's own pairs (an oracle, as MinHashLSH's threshold
is in bench/minhash.py).
"""
import json
import os
import pathlib
import sys

import numpy as np
from datasketch import MinHash

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from minhash import SHINGLINGS, Score  # noqa: E402

VALUES = 192
SLACK = 4
THRESHOLDS = [x / 100 for x in range(30, 96)]


def main():
    folder = pathlib.Path(sys.argv[1] if len(sys.argv) > 1
                          else os.path.expanduser("~/.cache/simprint/eval"))
    texts = [json.loads(line) for line in open(folder / "cross-texts.jsonl", encoding="utf-8")]
    rows = open(folder / "cross-pairs.tsv", encoding="utf-8").read().splitlines()
    header = rows[0].split("\t")
    pairs = []
    for line in rows[1:]:
        p = dict(zip(header, line.split("\t")))
        p["a"], p["b"], p["dup"] = int(p["a"]), int(p["b"]), p["duplicate"] == "1"
        pairs.append(p)
    used = sorted({p["a"] for p in pairs} | {p["b"] for p in pairs})
    shingle = SHINGLINGS["words+cjk2"]
    signatures = MinHash.bulk(([x.encode("utf-8") for x in shingle(texts[i])] for i in used),
                              num_perm=VALUES, seed=7)
    bits = {i: (s.hashvalues & 1).astype(np.uint8) for i, s in zip(used, signatures)}
    for p in pairs:
        p["j"] = 2 * float(np.mean(bits[p["a"]] == bits[p["b"]])) - 1
        p["candidate"] = int(p["d64"]) <= int(p["k64"]) + SLACK

    def best(selected):
        out = None
        for t in THRESHOLDS:
            s = Score()
            for p in selected:
                s.add(p["candidate"] and p["j"] >= t, p["dup"])
            if out is None or s.prf()[2] > out[1]:
                out = (t, s.prf()[2])
        return out

    t, f1 = best([p for p in pairs if p["split"] == "tune"])
    print(f"# 64-bit SimHash (k + {SLACK}) and {VALUES} one-bit MinHash values: 32 bytes a document\n")
    print(f"t chosen on the first corpus's tuning half: {t} (F1 there {f1:.3f})\n")
    print(f"{'corpus':<12} {'lang':<4} {'pairs':>6}  P     R     F1    (at t = {t})")
    corpora = sorted({p["corpus"] for p in pairs})
    for corpus in corpora:
        for lang in ("en", "zh", "ja", "all"):
            s, n = Score(), 0
            for p in pairs:
                if p["corpus"] == corpus and p["split"] != "tune" and lang in ("all", p["lang"]):
                    s.add(p["candidate"] and p["j"] >= t, p["dup"])
                    n += 1
            if n:
                print(f"{corpus:<12} {lang:<4} {n:>6}  " + " ".join(f"{x:.3f}" for x in s.prf()))
    print("\nt chosen on each corpus's own pairs (an oracle, as MinHashLSH's threshold):\n")
    for corpus in corpora:
        t, f1 = best([p for p in pairs if p["corpus"] == corpus and p["split"] != "tune"])
        print(f"{corpus:<12} t = {t:.2f}  F1 {f1:.3f}")


if __name__ == "__main__":
    main()
