// tests/golden.json's fingerprints, index bytes and keys scheme from the package in Node and in
// workerd (Chromium: browser.test.mjs; natively and in wasm: tests/golden.rs,
// bindings/wasm/tests/core.rs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sp, { golden } from './load.mjs';
import { expectedAnswers, goldenAnswers } from '../support/golden.mjs';
import { startBundledWorker } from '../support/bundled-worker.mjs';
import { linkedProject } from '../support/linked-project.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('the golden file has every section', () => {
  assert.ok(golden.vectors.length >= 30);
  assert.ok(golden.indexBytes.vectors.length >= 6);
  assert.ok(golden.keys.vectors.length >= 6);
  // Every format version is written by some vector (the version is bytes 8 and 9).
  const versions = new Set(golden.indexBytes.vectors.map((v) => v.hex.slice(16, 20)));
  assert.deepEqual([...versions].sort(), ['0100', '0200', '0300']);
});

test('golden fingerprints, index bytes and keys in Node', () => {
  assert.deepEqual(goldenAnswers(sp, golden), expectedAnswers(golden));
});

test("golden fingerprints, index bytes and keys in workerd (and simprint/fingerprint's fingerprints)", {
  timeout: 60_000,
}, async () => {
  // A Worker importing the package by name, bundled as wrangler bundles (the workerd
  // condition, the .wasm a module of its own), answering the vectors it is sent.
  const dir = linkedProject('simprint-golden-worker-', {
    'worker.js': `import * as sp from 'simprint';
import * as lite from 'simprint/fingerprint';
import { goldenAnswers } from ${JSON.stringify(join(root, 'tests', 'support', 'golden.mjs'))};

export default {
  async fetch(request) {
    const golden = await request.json();
    const { fingerprints } = goldenAnswers(lite, golden);
    return Response.json({ ...goldenAnswers(sp, golden), lite: { fingerprints, hasIndex: 'Index' in lite } });
  },
};
`,
  });
  try {
    const mf = await startBundledWorker(dir, join(root, 'node_modules', '.bin', 'esbuild'));
    try {
      const res = await fetch(await mf.ready, { method: 'POST', body: JSON.stringify(golden) });
      assert.equal(res.status, 200);
      // simprint/fingerprint too, in the same Worker: its own .wasm, the same fingerprints.
      const expected = expectedAnswers(golden);
      const lite = { fingerprints: expected.fingerprints, hasIndex: false };
      assert.deepEqual(await res.json(), { ...expected, lite });
    } finally {
      await mf.dispose();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
