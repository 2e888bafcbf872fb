#!/usr/bin/env python3
"""datatrove's MinHash deduplication (its four stages: signatures, buckets, clusters, filter) on
the same JSONL `simprint dedup` reads, for bench/dedup.mjs: wall time per stage and documents
removed, with `workers` processes. datatrove parallelises by input file, so the input is cut
into `workers` shards first (not timed).

    ~/.cache/simprint/dedup-venv/bin/python bench/datatrove_minhash.py CORPUS.jsonl WORKDIR WORKERS [--clusters OUT.tsv]

Its defaults: 5-word shingles, 14 buckets of 8 hashes (112 permutations), English word
tokenizer. --clusters writes "id<TAB>cluster" for every document in a cluster of two or more
(for the quality comparison on the evaluation corpora).
"""
import json
import shutil
import sys
import time
from pathlib import Path

from datatrove.executor.local import LocalPipelineExecutor
from datatrove.pipeline.dedup.minhash import (
    MinhashConfig,
    MinhashDedupBuckets,
    MinhashDedupCluster,
    MinhashDedupFilter,
    MinhashDedupSignature,
)
from datatrove.pipeline.readers import JsonlReader
from datatrove.pipeline.writers.jsonl import JsonlWriter


def main():
    corpus, work, workers = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    clusters_out = sys.argv[sys.argv.index("--clusters") + 1] if "--clusters" in sys.argv else None
    shutil.rmtree(work, ignore_errors=True)
    shards = work / "input"
    shards.mkdir(parents=True)
    # Contiguous shards, so that file order is the corpus order.
    lines = corpus.read_text(encoding="utf-8").splitlines(keepends=True)
    per = -(-len(lines) // workers)
    for w in range(workers):
        (shards / f"{w:03d}.jsonl").write_text("".join(lines[w * per:(w + 1) * per]), encoding="utf-8")
    del lines
    config = MinhashConfig()
    logs = work / "logs"
    reader = lambda: JsonlReader(str(shards), glob_pattern="*.jsonl", text_key="text", id_key="id", compression=None)
    stages = {
        "signatures": LocalPipelineExecutor(
            pipeline=[reader(), MinhashDedupSignature(output_folder=str(work / "sigs"), config=config)],
            tasks=workers, workers=workers, logging_dir=str(logs / "1"), start_method="fork"),
        "buckets": LocalPipelineExecutor(
            pipeline=[MinhashDedupBuckets(input_folder=str(work / "sigs"), output_folder=str(work / "buckets"), config=config)],
            tasks=config.num_buckets, workers=workers, logging_dir=str(logs / "2"), start_method="fork"),
        "clusters": LocalPipelineExecutor(
            pipeline=[MinhashDedupCluster(input_folder=str(work / "buckets"), output_folder=str(work / "remove"), config=config,
                                          save_cluster_id=clusters_out is not None)],
            tasks=1, workers=1, logging_dir=str(logs / "3"), start_method="fork"),
        "filter": LocalPipelineExecutor(
            pipeline=[reader(), MinhashDedupFilter(input_folder=str(work / "remove"), load_cluster_ids=clusters_out is not None),
                      JsonlWriter(str(work / "out"), compression=None, expand_metadata=True)],
            tasks=workers, workers=workers, logging_dir=str(logs / "4"), start_method="fork"),
    }
    out = {"workers": workers, "seconds": {}}
    for name, stage in stages.items():
        t0 = time.time()
        stage.run()
        out["seconds"][name] = round(time.time() - t0, 1)
    out["totalSeconds"] = round(sum(out["seconds"].values()), 1)
    kept = 0
    clusters = []
    for f in sorted((work / "out").glob("*.jsonl")):
        for line in f.open(encoding="utf-8"):
            kept += 1
            if clusters_out:
                doc = json.loads(line)
                if doc.get("minhash_cluster_id", -1) != -1:
                    clusters.append(f"{doc['id']}\t{doc['minhash_cluster_id']}\n")
    out["kept"] = kept
    if clusters_out:
        # The removed documents' cluster ids are in the .clusters files, by position per shard.
        import struct
        ids = [[json.loads(l)["id"] for l in open(s, encoding="utf-8")] for s in sorted(shards.glob("*.jsonl"))]
        clusters = []
        for rank, shard_ids in enumerate(ids):
            path = work / "remove" / f"{rank:06d}.clusters"
            if path.exists():
                data = path.read_bytes()
                for doc, cluster in struct.iter_unpack("<II", data):
                    clusters.append(f"{shard_ids[doc]}\t{cluster}\n")
        Path(clusters_out).write_text("".join(clusters), encoding="utf-8")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
