// Past one machine: the self-join of examples/sql/pairs.sql, unchanged, in Apache Spark SQL
// (pyspark in local mode), over fingerprints written by `simprint fingerprint` and keys by
// `simprint keys`, equal to Index.pairs() on the same fingerprints. scripts/test.sh installs
// pyspark and a Java runtime first (ensure_spark in scripts/lib.sh) and says where the venv's
// python is in SIMPRINT_SPARK_PYTHON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import simprintPackage from './load.mjs';

const { Index, pairK } = simprintPackage;
import { corpus, jsonl } from '../support/corpus.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'pkg', 'cli', 'simprint.mjs');
const python =
  process.env.SIMPRINT_SPARK_PYTHON ??
  join(homedir(), '.cache', 'simprint', 'spark-venv', 'bin', 'python');
const simprint = (args) => execFileSync(process.execPath, [cli, ...args], { encoding: 'utf8' });

// Two plans of tests/js/sql.test.mjs: permuted tables (radius 0) and multi-index hashing with
// radii 2, 2, 1, 1 (k = 6's radius 1 is inside it; a case costs Spark about 6 s).
const CASES = [
  [3, ['--blocks', '4'], 'permuted'],
  [9, ['--substrings', '4'], 'multiIndex'],
  // The pair rule: k = 12 (pairK of equal sizes) capping each pair's own pairK of its sizes,
  // from the keys' "features" and `simprint keys --pair-limits`.
  [12, ['--substrings', '4'], 'multiIndex', 'pair'],
];
const N = 4000;

test('Spark SQL runs pairs.sql unchanged on simprint keys and finds exactly Index.pairs()', (t) => {
  assert.ok(
    existsSync(python),
    `no pyspark venv at ${python}: run \`source scripts/lib.sh && ensure_spark\` (scripts/test.sh does)`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'simprint-spark-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'corpus.jsonl'), jsonl(corpus(N)));
  simprint(['fingerprint', join(dir, 'corpus.jsonl'), '-o', join(dir, 'fps.jsonl')]);
  const fps = readFileSync(join(dir, 'fps.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(fps.length, N);

  const cases = CASES.map(([k, plan, kind, rule]) => {
    const keys = join(dir, `keys-${k}.jsonl`);
    const flips = join(dir, `flips-${k}.jsonl`);
    simprint(['keys', join(dir, 'fps.jsonl'), '--k', String(k), ...plan, '-o', keys]);
    simprint(['keys', '--k', String(k), ...plan, '--flips', '-o', flips]);
    assert.equal(JSON.parse(simprint(['keys', '--k', String(k), ...plan, '--plan'])).kind, kind);
    const limits = rule === 'pair' ? join(dir, 'limits.jsonl') : undefined;
    if (limits) simprint(['keys', '--pair-limits', '-o', limits]);
    return { keys, flips, k, out: join(dir, `pairs-${k}.jsonl`), limits };
  });
  // Keys without the texts' counts (fingerprints written before counts were): the pair rule
  // cannot judge their pairs, and the job says so rather than dropping them.
  const uncounted = join(dir, 'fps-uncounted.jsonl');
  writeFileSync(uncounted, jsonl(fps.map(({ id, fingerprint }) => ({ id, fingerprint }))));
  const refused = {
    keys: join(dir, 'keys-uncounted.jsonl'),
    flips: cases[2].flips,
    k: 12,
    out: join(dir, 'pairs-uncounted.jsonl'),
    limits: cases[2].limits,
  };
  simprint(['keys', uncounted, '--k', '12', '--substrings', '4', '-o', refused.keys]);
  writeFileSync(join(dir, 'cases.json'), JSON.stringify([...cases, refused]));
  // The job as a user copies it out of the repository: pairs.py with pairs.sql beside it.
  const job = join(dir, 'job');
  mkdirSync(job);
  copyFileSync(join(root, 'examples', 'spark', 'pairs.py'), join(job, 'pairs.py'));
  copyFileSync(join(root, 'examples', 'sql', 'pairs.sql'), join(job, 'pairs.sql'));
  const started = performance.now();
  const run = spawnSync(
    python,
    [join(root, 'tests', 'support', 'spark_cases.py'), join(dir, 'cases.json'), job],
    {
      encoding: 'utf8',
      env: { ...process.env, SPARK_LOCAL_IP: '127.0.0.1', PYSPARK_PYTHON: python, HOME: dir },
    },
  );
  assert.equal(run.status, 0, `the Spark driver failed:\n${run.stderr.slice(-4000)}`);
  // The driver's timings (JSON lines among Spark's own log).
  const timings = run.stderr.split('\n').filter((l) => l.startsWith('{'));
  t.diagnostic(
    `Spark: ${((performance.now() - started) / 1000).toFixed(1)} s in all; ${timings.join(' ')}`,
  );

  const index = new Index({ k: 12 });
  const features = new Map(fps.map((d) => [d.id, d.features]));
  try {
    for (const { id, fingerprint } of fps) index.insert(id, fingerprint);
    for (const { k, out, limits } of cases) {
      const all = index.pairs(k);
      // Under the pair rule, only the pairs also within the k of their two sizes.
      const want = limits
        ? all.filter((p) => p.distance <= pairK(features.get(p.a), features.get(p.b)))
        : all;
      if (limits)
        assert.ok(
          all.length - want.length > 100,
          `pairs the sizes refuse (${all.length - want.length})`,
        );
      assert.ok(want.length > 100, `a test with pairs (${want.length} at k = ${k})`);
      assert.ok(
        want.some((p) => p.distance === k),
        `pairs at exactly k = ${k}`,
      );
      if (limits)
        t.diagnostic(`k = ${k} under the pair rule: ${want.length} of ${all.length} pairs`);
      const got = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.deepEqual(got, want, `k = ${k}`);
      t.diagnostic(`k = ${k}: ${want.length} pairs`);
    }
    assert.match(
      readFileSync(refused.out, 'utf8'),
      /"error": "--limits needs each key row's \\"features\\"/,
    );
  } finally {
    index.free();
  }
});

test('pairs.py copied out alone says where pairs.sql must be, before Spark starts', (t) => {
  assert.ok(existsSync(python), `no pyspark venv at ${python}`);
  const dir = mkdtempSync(join(tmpdir(), 'simprint-spark-alone-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(join(root, 'examples', 'spark', 'pairs.py'), join(dir, 'pairs.py'));
  const args = ['--keys', 'keys.jsonl', '--flips', 'flips.jsonl', '--k', '3'];
  for (const extra of [[], ['--sql', join(dir, 'no-such.sql')]]) {
    const run = spawnSync(python, [join(dir, 'pairs.py'), ...args, ...extra], {
      encoding: 'utf8',
      cwd: dir,
      env: { ...process.env, HOME: dir },
      timeout: 60_000,
    });
    assert.equal(run.status, 1, run.stderr);
    assert.match(
      run.stderr,
      /^pairs\.py: no pairs\.sql at .*: copy examples\/sql\/pairs\.sql beside pairs\.py or pass --sql PATH/m,
    );
    assert.doesNotMatch(run.stderr, /Spark|Traceback/);
  }
});
