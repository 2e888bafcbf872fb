// examples/sql: all pairs within k by a SQL self-join on simprint's keys in DuckDB, compared
// with Index.pairs() on the same fingerprints. 30,000 of them keeps it within the CI budget;
// `node examples/sql/pairs.mjs --n 1000000` is the full-size run (docs/worker.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fingerprints, indexPairs, sqlPairs } from '../../examples/sql/pairs.mjs';
import { npmInstall } from '../support/npm.mjs';
import sp from './load.mjs';

const { pairK } = sp;

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

test("the pair rule in SQL: with the texts' counts, exactly the pairs also within pairK of their sizes", async (t) => {
  // Counts from 80 to 139: size ratios from 1 to 1.74 cross every limit of the pair rule
  // (at default tolerance, k falls from 12 at equal sizes to 0 past 1.23).
  const fps = fingerprints(N, { spread: 14 });
  let s = 7;
  const counts = fps.map(() => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return 80 + (s % 60);
  });
  const k = 12;
  const sql = await sqlPairs(fps, { k, plan: { substrings: 4 }, counts });
  const all = indexPairs(fps, { k });
  const want = all.filter((p) => p.distance <= pairK(counts[p.a], counts[p.b]));
  assert.ok(
    want.length > 1000 && all.length - want.length > 1000,
    `${want.length} of ${all.length}`,
  );
  assert.deepEqual(sql.pairs, want);
  // Another tolerance: its own limits.
  const tolerance = { tolerance: 0.05, far: 0.1 };
  const other = await sqlPairs(fps, { k, plan: { substrings: 4 }, counts, tolerance });
  assert.deepEqual(
    other.pairs,
    all.filter((p) => p.distance <= pairK(counts[p.a], counts[p.b], tolerance)),
  );
  t.diagnostic(`${want.length} of ${all.length} pairs within their pair k`);
  // A fingerprint without a count cannot be judged by the pair rule: refused, not dropped.
  await assert.rejects(
    sqlPairs(fps.slice(0, 10), { k, plan: { substrings: 4 }, counts: counts.slice(0, 9) }),
    /counts must give every fingerprint its feature count/,
  );
});

test('the example copied out of the repository: npm install there, then its README --check command as written', (t) => {
  const example = fileURLToPath(new URL('../../examples/sql/', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'simprint-sql-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(example, dir, { recursive: true, filter: (src) => !src.includes('node_modules') });
  npmInstall(dir);
  const command = readFileSync(join(dir, 'README.md'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('node pairs.mjs') && l.includes('--check'))
    .replace(/\s+#.*$/, '');
  const out = execFileSync('sh', ['-c', command], { cwd: dir, encoding: 'utf8' })
    .trim()
    .split('\n');
  const check = JSON.parse(out.at(-1));
  assert.equal(check.same, true);
  assert.ok(check.indexPairs > 1000, `a run with pairs (${check.indexPairs})`);
  t.diagnostic(`${command}: ${out.join(' ')}`);
});
