#!/usr/bin/env python3
"""The Spark test's driver (tests/js/spark.test.mjs): runs examples/spark/pairs.py's join for
each case in one local Spark session (one JVM start for all of them) and writes each case's
pairs as JSON lines.

    python spark_cases.py CASES.json [JOB]   # [{"keys": …, "flips": …, "k": …, "out": …, "limits"?: …}, …]

JOB is the folder pairs.py is imported from (default: examples/spark): the test passes a copy
of it made out of the repository, pairs.sql beside it, as a user copies the job.
"""
import json
import sys
import time
from pathlib import Path

JOB = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).resolve().parents[2] / "examples" / "spark"
sys.path.insert(0, str(JOB))
from pairs import pairs, session  # noqa: E402
from pyspark.sql.types import LongType  # noqa: E402

cases = json.loads(Path(sys.argv[1]).read_text())
started = time.time()
spark = session(local=2)
# A few thousand rows: compiling Spark's generated code costs more than it saves.
spark.conf.set("spark.sql.codegen.wholeStage", "false")
print(json.dumps({"sessionSeconds": round(time.time() - started, 1)}), file=sys.stderr)
try:
    for case in cases:
        t0 = time.time()
        try:
            rows = pairs(spark, case["keys"], case["flips"], case["k"], LongType(),
                         limits_path=case.get("limits")).collect()
        except ValueError as e:
            # A case the job must refuse: its message, for the test to check.
            Path(case["out"]).write_text(json.dumps({"error": str(e)}) + "\n", encoding="utf-8")
            continue
        with open(case["out"], "w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps({"a": row.a, "b": row.b, "distance": row.distance}) + "\n")
        print(json.dumps({"k": case["k"], "pairs": len(rows), "seconds": round(time.time() - t0, 1)}), file=sys.stderr)
finally:
    spark.stop()
