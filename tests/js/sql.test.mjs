// examples/sql: all pairs within k by a SQL self-join on simprint's keys in DuckDB, compared
// with Index.pairs() on the same fingerprints. 30,000 of them keeps it within the CI budget;
// `node examples/sql/pairs.mjs --n 1000000` is the full-size run (docs/worker.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fingerprints, indexPairs, sqlPairs } from '../../examples/sql/pairs.mjs';

const N = 30000;

for (const [k, plan, kind] of [
  [3, undefined, 'permuted'],
  [6, { substrings: 4 }, 'multiIndex'],
  [9, { substrings: 4 }, 'multiIndex'],
]) {
  test(`k = ${k}, ${kind} keys: the SQL join finds exactly Index.pairs()`, async (t) => {
    const fps = fingerprints(N, { spread: k + 2 });
    const sql = await sqlPairs(fps, { k, plan });
    assert.equal(sql.plan.kind, kind);
    const want = indexPairs(fps, { k });
    assert.ok(want.length > 1000, `a test with pairs (${want.length})`);
    assert.ok(
      want.some((p) => p.distance === k),
      'pairs at exactly k',
    );
    assert.deepEqual(sql.pairs, want);
    t.diagnostic(`${want.length} pairs; ${sql.keyRows} key rows; SQL ${JSON.stringify(sql.times)}`);
  });
}
