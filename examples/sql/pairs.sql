-- All pairs within k on simprint's keys scheme: the self-join that examples/sql/pairs.mjs runs
-- in DuckDB and examples/spark/pairs.py runs in Spark SQL, both reading this file unchanged.
-- Each query is named by its "-- name:" line; the runner makes a table (or view) of that name
-- from it and reads the last.
--
-- It reads three tables:
--   keys(tbl, id, fp, key)  each fingerprint's key in each table (Plan.keys; simprint keys)
--   flips(tbl, flip)        each table's flip masks: the keys within its radius of 0
--                           (Plan.probeKeysByTable(0); simprint keys --flips)
--   params(k)               one row: the distance pairs must be within
-- fp, key and flip are 64-bit integers (DuckDB UBIGINT, Spark BIGINT: the same bits).
-- XOR is spelt (a | b) & ~(a & b): DuckDB's xor() and Spark's ^ have no spelling in common.

-- name: probes
-- Each key with every key within its table's radius (the key XOR each flip mask), as rows
-- of their own, so that the join below is on plain equality (a hash join).
SELECT a.tbl, a.id, a.fp, (a.key | m.flip) & ~(a.key & m.flip) AS key
FROM keys a JOIN flips m ON m.tbl = a.tbl

-- name: pairs
-- Two fingerprints within k have, in some table, keys within that table's radius (the plan's
-- pigeonhole argument), so this finds every pair; a pair near in several tables is found
-- several times, hence DISTINCT.
SELECT DISTINCT p.id AS a, b.id AS b, CAST(bit_count((p.fp | b.fp) & ~(p.fp & b.fp)) AS INTEGER) AS distance
FROM probes p JOIN keys b ON b.tbl = p.tbl AND b.key = p.key CROSS JOIN params
WHERE p.id < b.id AND bit_count((p.fp | b.fp) & ~(p.fp & b.fp)) <= params.k
ORDER BY distance, a, b
