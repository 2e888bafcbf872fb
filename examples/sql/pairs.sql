-- All pairs within k on simprint's keys scheme: the self-join that examples/sql/pairs.mjs runs
-- in DuckDB and examples/spark/pairs.py runs in Spark SQL, both reading this file unchanged.
-- Each query is named by its "-- name:" line; the runner makes a table (or view) of that name
-- from it and reads the last.
--
-- It reads four tables:
--   keys(tbl, id, fp, n, key)  each fingerprint's key in each table (Plan.keys; simprint
--                              keys), with its text's distinct features n (featureCount; read
--                              only under the pair rule)
--   flips(tbl, flip)           each table's flip masks: the keys within its radius of 0
--                              (Plan.probeKeysByTable(0); simprint keys --flips)
--   params(k, pair)            one row: the distance pairs must be within, and 1 to keep only
--                              pairs within the pair rule's k of their sizes too (else 0)
--   limits(d, ratio)           the pair rule as a table (pairKLimit; simprint keys
--                              --pair-limits): a pair's k is at least d while the larger n
--                              over the smaller (each at least 1) is at most ratio; empty
--                              when pair is 0
-- fp, key and flip are 64-bit integers (DuckDB UBIGINT, Spark BIGINT: the same bits).
-- XOR is spelt (a | b) & ~(a & b): DuckDB's xor() and Spark's ^ have no spelling in common.

-- name: probes
-- Each key with every key within its table's radius (the key XOR each flip mask), as rows
-- of their own, so that the join below is on plain equality (a hash join).
SELECT a.tbl, a.id, a.fp, a.n, (a.key | m.flip) & ~(a.key & m.flip) AS key
FROM keys a JOIN flips m ON m.tbl = a.tbl

-- name: near
-- Two fingerprints within k have, in some table, keys within that table's radius (the plan's
-- pigeonhole argument), so this finds every pair; a pair near in several tables is found
-- several times, hence DISTINCT.
SELECT DISTINCT p.id AS a, b.id AS b, CAST(bit_count((p.fp | b.fp) & ~(p.fp & b.fp)) AS INTEGER) AS distance,
  CAST(GREATEST(p.n, b.n, 1) AS DOUBLE) / CAST(GREATEST(LEAST(p.n, b.n), 1) AS DOUBLE) AS ratio
FROM probes p JOIN keys b ON b.tbl = p.tbl AND b.key = p.key CROSS JOIN params
WHERE p.id < b.id AND bit_count((p.fp | b.fp) & ~(p.fp & b.fp)) <= params.k

-- name: pairs
-- Under the pair rule, each pair also within the k of its sizes: its distance d has a limits
-- row whose ratio its own does not pass (divided as DOUBLE, as the library divides).
SELECT n.a, n.b, n.distance
FROM near n CROSS JOIN params
LEFT JOIN limits l ON l.d = n.distance
WHERE params.pair = 0 OR n.ratio <= l.ratio
ORDER BY n.distance, n.a, n.b
