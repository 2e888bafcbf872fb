#!/usr/bin/env python3
"""Writes the dedup benchmark's input: N documents of real text as JSONL ({"id", "text"}).

    python3 bench/dedup-corpus.py [N=1000000] [OUT=~/.cache/simprint/dedup/corpus-N.jsonl]

The text is every paragraph of the corpus `scripts/corpus.py` fetches (Debian documentation in
six languages, each page with and without its code blocks: texts that share most of their
paragraphs), in file order. Pass p groups each file's paragraphs by 1 + p % 4 from offset
p % 3, so later passes overlap earlier ones partly (near-duplicates of every degree) and
repeat them whole (exact duplicates); passes continue until N documents. Deterministic.
"""
import json
import os
import sys
from pathlib import Path

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
root = Path(os.environ.get("SIMPRINT_CORPUS", Path.home() / ".cache/simprint/corpus"))
out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path.home() / f".cache/simprint/dedup/corpus-{n}.jsonl"
out.parent.mkdir(parents=True, exist_ok=True)

files = sorted(p for p in root.glob("*/*/*.txt"))
if not files:
    sys.exit(f"no corpus in {root}: run python3 scripts/corpus.py first")
paragraphs = [[q.strip() for q in f.read_text(encoding="utf-8").split("\n\n") if q.strip()] for f in files]

written = 0
tmp = out.with_suffix(".tmp")
with tmp.open("w", encoding="utf-8") as o:
    p = 0
    while written < n:
        size, start = 1 + p % 4, p % 3
        for f, paras in zip(files, paragraphs):
            for i in range(start, len(paras), size):
                if written >= n:
                    break
                o.write(json.dumps({"id": f"{f.relative_to(root)}#{p}.{i}", "text": "\n\n".join(paras[i:i + size])}, ensure_ascii=False) + "\n")
                written += 1
        p += 1
tmp.rename(out)
print(out, written, out.stat().st_size)
