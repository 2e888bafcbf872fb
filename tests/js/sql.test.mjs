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
