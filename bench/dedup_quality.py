#!/usr/bin/env python3
"""Quality of `simprint dedup` and datatrove's MinHash dedup on the evaluation's corpora, as
each would be used: both deduplicate all 58,834 texts of the four corpora in one run (the texts
and labelled pairs `cargo run --release --example evaluate` writes to ~/.cache/simprint/eval/),
and a labelled pair counts as found when the tool puts both texts in one group: the same kept
original for simprint (a duplicate's group is its original's), the same cluster for datatrove.
Precision, recall and F1 of the labelled pairs per corpus (docs/evaluation.md describes them).

    cargo run --release --example evaluate                    # once: the pairs
    source scripts/lib.sh && setup_all && build_pkg            # pkg/
    ~/.cache/simprint/dedup-venv/bin/python bench/dedup_quality.py [k=auto]

Groups differ from pairs: a 20 %-edited copy joins its original's group through a 10 %-edited
one in datatrove's clusters (connected components of bucket collisions), not in simprint's
(each duplicate names its nearest kept document), so these figures are for the dedup as run,
not for the fingerprints alone (those are in docs/evaluation.md). Deterministic.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

root = Path(__file__).resolve().parents[1]
evals = Path.home() / ".cache/simprint/eval"
k = sys.argv[1] if len(sys.argv) > 1 else "auto"
work = Path(tempfile.mkdtemp(prefix="simprint-dedup-quality-"))
texts = [json.loads(line) for line in (evals / "cross-texts.jsonl").open(encoding="utf-8")]
corpus = work / "texts.jsonl"
with corpus.open("w", encoding="utf-8") as out:
    for i, text in enumerate(texts):
        out.write(json.dumps({"id": i, "text": text}, ensure_ascii=False) + "\n")

groups = {}
t0 = time.time()
args = ["node", str(root / "pkg/cli/simprint.mjs"), "dedup", str(corpus), "--clusters"] + ([] if k == "auto" else ["--k", k])
group = {}
for line in subprocess.run(args, check=True, capture_output=True, text=True).stdout.splitlines():
    c = json.loads(line)
    for d in c["duplicates"]:
        group[d] = c["original"]
groups["simprint dedup" + ("" if k == "auto" else f" --k {k}")] = ({i: group.get(i, i) for i in range(len(texts))}, time.time() - t0)

t0 = time.time()
clusters_file = work / "datatrove.tsv"
subprocess.run([sys.executable, str(root / "bench/datatrove_minhash.py"), str(corpus), str(work / "dt"), "2", "--clusters", str(clusters_file)],
               check=True, capture_output=True, text=True)
cluster = {}
for line in clusters_file.read_text().splitlines():
    doc, c = line.split("\t")
    cluster[int(doc)] = ("c", int(c))
groups["datatrove MinHash (5-grams, 14x8)"] = ({i: cluster.get(i, i) for i in range(len(texts))}, time.time() - t0)

pairs = [line.rstrip("\n").split("\t") for line in (evals / "cross-pairs.tsv").open(encoding="utf-8")][1:]
result = {}
for tool, (of, seconds) in groups.items():
    counts = defaultdict(lambda: [0, 0, 0])  # tp, fp, fn
    for row in pairs:
        name, a, b, dup = row[0], int(row[1]), int(row[2]), row[3] == "1"
        found = of[a] == of[b]
        for key in (name, "all"):
            c = counts[key]
            if found and dup:
                c[0] += 1
            elif found:
                c[1] += 1
            elif dup:
                c[2] += 1
    scores = {}
    for key, (tp, fp, fn) in sorted(counts.items()):
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        scores[key] = {"precision": round(p, 3), "recall": round(r, 3), "f1": round(2 * p * r / (p + r), 3) if p + r else 0.0}
    result[tool] = {"seconds": round(seconds, 1), "scores": scores}
print(json.dumps(result, indent=1))
subprocess.run(["rm", "-rf", str(work)])
