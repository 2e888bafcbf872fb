// `simprint/fingerprint` (pkg/fingerprint/): the package without `Index` and `Plan`, a .wasm of
// its own built from the same core with the bindings' `index` feature off. It must be the full
// package's API less those two classes, and answer exactly as the full package does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import full, { golden } from './load.mjs';
import * as lite from '../../pkg/fingerprint/simprint.js';
import { expectedAnswers, goldenAnswers } from '../support/golden.mjs';

lite.initSync({
  module: readFileSync(new URL('../../pkg/fingerprint/simprint_bg.wasm', import.meta.url)),
});

const INDEX_ONLY = ['Index', 'Plan'];

/** The names a .d.ts exports (classes, functions, interfaces, types). */
const declared = (file) =>
  [
    ...readFileSync(new URL(file, import.meta.url), 'utf8').matchAll(
      /^export (?:declare )?(?:class|function|interface|type) (\w+)/gm,
    ),
  ].map((m) => m[1]);

test('its exports are the full package less Index and Plan, and nothing of its own', () => {
  const names = (m) => Object.keys(m).sort();
  assert.deepEqual(
    names(lite),
    names(full).filter((n) => !INDEX_ONLY.includes(n)),
  );
  for (const name of INDEX_ONLY) assert.equal(name in lite, false, `${name} is exported`);
});

test('its types declare the same less the index types', () => {
  const fullTypes = new Set(declared('../../pkg/simprint.d.ts'));
  const liteTypes = declared('../../pkg/fingerprint/simprint.d.ts');
  for (const name of liteTypes) assert.ok(fullTypes.has(name), `${name} is not in the full types`);
  // Only what the index and the plan take and give is left out.
  const missing = [...fullTypes].filter((n) => !liteTypes.includes(n)).sort();
  assert.ok(
    missing.every((n) => /^(Index|Plan|FromBytes)/.test(n)),
    `left out: ${missing.join(', ')}`,
  );
  assert.ok(missing.includes('Index') && missing.includes('Plan'));
  assert.ok(liteTypes.includes('Fingerprinter') && liteTypes.includes('ScanHit'));
  // The package.json points each condition of the entry at these types.
  const pkg = JSON.parse(readFileSync(new URL('../../pkg/package.json', import.meta.url), 'utf8'));
  const entry = JSON.stringify(pkg.exports['./fingerprint']);
  assert.match(entry, /"\.\/fingerprint\/simprint\.d\.ts"/);
  assert.match(entry, /"\.\/fingerprint\/simprint\.d\.cts"/);
});

test('the golden fingerprints', () => {
  assert.deepEqual(goldenAnswers(lite, golden).fingerprints, expectedAnswers(golden).fingerprints);
});

test('its smaller .wasm has no index: about two thirds of the full one', () => {
  const size = (f) => readFileSync(new URL(f, import.meta.url)).length;
  const ratio = size('../../pkg/fingerprint/simprint_bg.wasm') / size('../../pkg/simprint_bg.wasm');
  assert.ok(ratio < 0.75, `the fingerprint-only .wasm is ${ratio.toFixed(2)} of the full one`);
});

test('every other function answers as the full package does, errors included', () => {
  const a = 'The quick brown fox jumps over the lazy dog near the river bank today.';
  const b = 'The quick brown fox jumped over the lazy dog near the river bank today.';
  const same = (f) => {
    const answer = (m) => {
      try {
        return { value: f(m) };
      } catch (e) {
        return { threw: `${e.constructor.name}: ${e.message}` };
      }
    };
    assert.deepEqual(answer(lite), answer(full));
    return answer(lite);
  };
  same((m) => m.fingerprint(a, { width: 128, tokenizer: 'chars', n: 4 }));
  same((m) => m.fingerprintHex(b));
  same((m) => m.compare(m.fingerprint(a), m.fingerprint(b), 3));
  same((m) => m.explain(a).v);
  same((m) => m.recommendedK(a, { width: 128, tolerance: 0.05 }));
  same((m) => m.collectionK(1_000_000));
  same((m) => m.defaults());
  const fps = new BigUint64Array([a, b, 'other text entirely'].map((t) => full.fingerprint(t)));
  same((m) => m.scan(fps[0], fps, 10));
  same((m) => Array.from(m.distances(fps[1], fps)));
  same((m) => {
    const s = new m.Fingerprinter().stream();
    s.update(a.slice(0, 20));
    s.update(a.slice(20));
    return s.finish();
  });
  same((m) => {
    const fp = new m.Fingerprinter();
    const pairs = [
      [a, b, true],
      [a, 'nothing alike at all, a different sentence', false],
    ];
    const c = fp.calibrate(pairs);
    fp.free();
    return c;
  });
  // Errors: the same messages, thrown as Errors.
  const threw = [
    same((m) => m.fingerprint(a, { width: 129 })),
    same((m) => m.fingerprint(a, { tokenizer: 'sentences' })),
    same((m) => m.hamming('xyz', 1n)),
    same((m) => m.scan(1n, fps, -1)),
    same((m) => new m.Fingerprinter().calibrate([[a, b, true]])),
  ];
  for (const t of threw) assert.match(t.threw, /^Error: ./);
});
