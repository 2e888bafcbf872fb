#!/usr/bin/env python3
"""All pairs within k on Apache Spark: the self-join of examples/sql/pairs.sql, unchanged, over
the keys `simprint keys` writes. The same query DuckDB runs on one machine runs here on as many
as the cluster has (docs/cli.md#past-one-machine-spark).

    simprint fingerprint corpus.jsonl -o fps.jsonl
    simprint keys fps.jsonl --k 3 --blocks 4 -o keys.jsonl
    simprint keys --k 3 --blocks 4 --flips -o flips.jsonl
    spark-submit pairs.py --keys keys.jsonl --flips flips.jsonl --k 3 --out pairs/

With --limits (`simprint keys --pair-limits -o limits.jsonl`), each pair is also kept only
within the pair rule's k of its two texts' sizes (the keys' "features", which simprint
fingerprint writes), as simprint dedup and the Workers judge pairs; --k then caps it.

The join is examples/sql/pairs.sql: pairs.py reads it from --sql, else from beside itself
(copy it there when you copy pairs.py out), else from the repository's examples/sql/. In
cluster mode spark-submit ships only the script: add `--files pairs.sql` and `--sql pairs.sql`.

--keys and --flips take anything spark.read.json takes (a file, a folder, a glob, s3a://…);
--out writes the pairs as JSON lines into a folder (Spark's part files); without it they are
collected and printed, one JSON object a line (for small runs and the test). --local runs
Spark in this process with local[N] (the test's mode); without it the master is whatever
spark-submit gives.

Fingerprints and keys arrive as hex (JSON has no 64-bit integers); they become BIGINTs with
the same 64 bits (conv(hex, 16, -10): unsigned hex read, printed signed), which XOR,
bit_count and equality treat exactly as DuckDB treats its UBIGINTs. Up to 64 bits only.
"""
import argparse
import json
import sys
from pathlib import Path

from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import DoubleType, IntegerType, LongType, StringType, StructField, StructType

HERE = Path(__file__).resolve().parent
# Where pairs.sql is looked for without --sql: beside this script, then the repository's.
SQL_PLACES = [HERE / "pairs.sql", HERE.parent / "sql" / "pairs.sql"]


def read_sql(path=None):
    """The text of pairs.sql: `path`, else the first of SQL_PLACES that exists. SystemExit with
    what to do when there is none (before Spark starts)."""
    places = [Path(path)] if path else SQL_PLACES
    for place in places:
        if place.is_file():
            return place.read_text(encoding="utf-8")
    raise SystemExit(
        "pairs.py: no pairs.sql at " + ", ".join(str(p) for p in places)
        + ": copy examples/sql/pairs.sql beside pairs.py or pass --sql PATH"
        + " (in cluster mode: spark-submit --files pairs.sql pairs.py --sql pairs.sql ...)")


def named_queries(text):
    """The named queries of pairs.sql, as examples/sql/pairs.mjs reads them: [(name, sql)]."""
    out = []
    for part in text.split("\n-- name: ")[1:]:
        name, *body = part.split("\n")
        out.append((name.strip(), "\n".join(l for l in body if not l.startswith("--")).strip()))
    return out


def signed(column):
    """Hex of up to 64 bits as the BIGINT with the same bits."""
    return F.conv(F.col(column), 16, -10).cast(LongType())


def pairs(spark, keys_path, flips_path, k, id_type=StringType(), sql=None, limits_path=None):
    """The DataFrame of pairs {a, b, distance}: the last query of `sql` (pairs.sql's text;
    read_sql() when None); with `limits_path`, under the pair rule too."""
    keys = spark.read.json(keys_path, schema=StructType([
        StructField("id", id_type), StructField("fingerprint", StringType()),
        StructField("features", LongType()),
        StructField("table", LongType()), StructField("key", StringType())]))
    keys.select(F.col("table").alias("tbl"), "id", signed("fingerprint").alias("fp"),
                F.col("features").alias("n"), signed("key").alias("key")) \
        .createOrReplaceTempView("keys")
    flips = spark.read.json(flips_path, schema=StructType([StructField("table", LongType()), StructField("flip", StringType())]))
    flips.select(F.col("table").alias("tbl"), signed("flip").alias("flip")).createOrReplaceTempView("flips")
    if limits_path and keys.where(F.col("features").isNull()).limit(1).count():
        # Without a count the pair rule cannot judge a pair (SQL would drop it silently).
        raise ValueError("--limits needs each key row's \"features\" (simprint fingerprint writes "
                         "them and simprint keys passes them on); some rows have none")
    limit_schema = StructType([StructField("d", LongType()), StructField("ratio", DoubleType())])
    limits = spark.read.json(limits_path, schema=limit_schema) if limits_path \
        else spark.createDataFrame([], limit_schema)
    limits.select(F.col("d").cast(IntegerType()).alias("d"), "ratio").createOrReplaceTempView("limits")
    spark.sql(f"SELECT CAST({int(k)} AS INT) AS k, CAST({1 if limits_path else 0} AS INT) AS pair") \
        .createOrReplaceTempView("params")
    queries = named_queries(sql if sql is not None else read_sql())
    for name, sql in queries[:-1]:
        spark.sql(sql).createOrReplaceTempView(name)
    return spark.sql(queries[-1][1])


def session(local=None):
    """A SparkSession: spark-submit's master, or with `local` cores in this process on loopback
    only, without the web UI (the test's mode; SPARK_LOCAL_IP=127.0.0.1 keeps Spark's own
    sockets there too)."""
    builder = SparkSession.builder.appName("simprint pairs")
    if local:
        builder = builder.master(f"local[{local}]") \
            .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1") \
            .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false") \
            .config("spark.sql.shuffle.partitions", str(local * 2))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keys", required=True)
    parser.add_argument("--flips", required=True)
    parser.add_argument("--k", type=int, required=True)
    parser.add_argument("--out")
    parser.add_argument("--local", type=int, metavar="N", help="run in this process on N cores")
    parser.add_argument("--numeric-ids", action="store_true", help="ids are whole numbers (compared as numbers)")
    parser.add_argument("--sql", metavar="PATH", help="pairs.sql (default: beside pairs.py, else examples/sql/)")
    parser.add_argument("--limits", metavar="PATH", help="the pair rule's table (simprint keys --pair-limits): "
                        "keep only pairs within the k of their sizes too")
    args = parser.parse_args()
    sql = read_sql(args.sql)
    spark = session(args.local)
    try:
        try:
            result = pairs(spark, args.keys, args.flips, args.k, LongType() if args.numeric_ids else StringType(),
                           sql, args.limits)
        except ValueError as e:
            raise SystemExit(f"pairs.py: {e}") from None
        if args.out:
            result.write.mode("errorifexists").json(args.out)
        else:
            for row in result.toLocalIterator():
                sys.stdout.write(json.dumps({"a": row.a, "b": row.b, "distance": row.distance}) + "\n")
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
