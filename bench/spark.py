#!/usr/bin/env python3
"""The Spark step of the capacity plan (docs/cli.md#capacity-plan-for-a-billion-documents):
the self-join of examples/sql/pairs.sql over keys written by `simprint keys`, in local mode,
timed step by step, with the rows each step handles.

    source scripts/lib.sh && ensure_spark
    simprint fingerprint corpus.jsonl -o fps.jsonl
    simprint keys fps.jsonl --k 3 --blocks 4 -o keys.jsonl && simprint keys --k 3 --blocks 4 --flips -o flips.jsonl
    SPARK_LOCAL_IP=127.0.0.1 $SIMPRINT_SPARK_PYTHON bench/spark.py keys.jsonl flips.jsonl 3 [cores=2]

Prints one JSON object: seconds and rows of each step (loading the keys, the probes, the
candidate pairs the key join yields before the Hamming filter, the pairs), so that each
step's cost per row can be scaled to another size.
"""
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "spark"))
from pairs import SQL, named_queries, pairs, session  # noqa: E402
from pyspark.sql.types import LongType, StringType  # noqa: E402

keys_path, flips_path, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
cores = int(sys.argv[4]) if len(sys.argv) > 4 else 2
t0 = time.time()
spark = session(local=cores)
out = {"cores": cores, "k": k, "sessionSeconds": round(time.time() - t0, 1)}


def timed(name, run):
    started = time.time()
    rows = run()
    out[name] = {"rows": rows, "seconds": round(time.time() - started, 1)}


# Ids as they come: numbers or strings (read from the first row of the first file).
first = next(Path(keys_path).glob("*") if Path(keys_path).is_dir() else iter([Path(keys_path)]))
with first.open(encoding="utf-8") as f:
    numeric = isinstance(json.loads(f.readline())["id"], int)
result = pairs(spark, keys_path, flips_path, k, LongType() if numeric else StringType())
# The same views pairs() made, materialised one at a time so that each step is timed alone.
timed("keys", lambda: spark.table("keys").cache().count())
timed("probes", lambda: spark.table("probes").cache().count())
timed("candidates", lambda: spark.sql(
    "SELECT count(*) AS n FROM probes p JOIN keys b ON b.tbl = p.tbl AND b.key = p.key WHERE p.id < b.id").collect()[0].n)
timed("pairs", lambda: result.count())
out["totalSeconds"] = round(time.time() - t0, 1)
print(json.dumps(out))
spark.stop()
