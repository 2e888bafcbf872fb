// The JavaScript snippets of docs/index.md run as written against the built package, each in a
// module of its own after a prelude that gives it the values it names but does not make (a
// user's ids, texts and fingerprints); values the snippets state in comments are checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkedProject } from '../support/linked-project.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const blocks = [
  ...readFileSync(join(root, 'docs', 'index.md'), 'utf8').matchAll(/```js\n([\s\S]*?)```/g),
].map((m) => m[1]);

/** Runs `code` as a module importing 'simprint' by name; returns what it printed. */
function run(code) {
  const dir = linkedProject('simprint-docs-', { 'snippet.mjs': code });
  try {
    return execFileSync(process.execPath, ['snippet.mjs'], { cwd: dir, encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The one block of docs/index.md holding `marker`. */
function block(marker) {
  const found = blocks.filter((b) => b.includes(marker));
  assert.equal(found.length, 1, `one docs/index.md block holds ${marker}`);
  return found[0];
}

// A user's documents: some texts, two of them near copies of one another.
const TEXTS = `const texts = [
  'The Debian project maintains a large archive of free software packages, built from source.',
  'The Debian project keeps a large archive of free software packages, built from source.',
  'Preheat the oven, whisk the eggs with the sugar and fold in the flour before baking.',
  'Administrators install and upgrade software with APT, which resolves dependencies.',
  // The first with a sentence added: 10 bits from it, but a quarter larger, so its pair k is 0.
  'The Debian project maintains a large archive of free software packages, built from source. All of it is signed.',
];
`;

test('docs/index.md, "Using it": every call runs as written', () => {
  const snippet = block('const index = new Index({ k: 3 });');
  const prelude = `import { Index, fingerprint } from 'simprint';
${TEXTS}const ids = texts.map((_, i) => i);
const fingerprints = texts.map((t) => fingerprint(t));
const [text, otherText] = [texts[0], texts[1]];
const fp = fingerprint(text);
`;
  const out = run(`${prelude}${snippet}
console.log(JSON.stringify({ size: index.size, copy: copy.size, near: index.query(fingerprint(otherText)).map((m) => m.id) }));
`);
  // The five texts and id 42; the near copy within 3 of the other one.
  const { size, copy, near } = JSON.parse(out);
  assert.deepEqual([size, copy], [6, 6]);
  assert.ok(near.includes(1), out);
});

test('docs/index.md, Plan: the values its comments state', () => {
  const snippet = block("import { Plan } from 'simprint';");
  // Each line `expr; // [values]…` prints the expression and the stated values, to compare.
  const checks = [...snippet.matchAll(/^(plan\.[^;]+);\s*\/\/ (\[[^\]]*\])/gm)];
  assert.ok(checks.length >= 2, 'the block states values');
  const code = `${snippet}
const show = (v) => JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? \`\${x}n\` : x));
${checks.map(([, expr, stated]) => `console.log(show(${expr}) + ' ' + show(${stated}));`).join('\n')}
`;
  const lines = run(code).trim().split('\n');
  assert.equal(lines.length, checks.length);
  for (const [i, line] of lines.entries()) {
    const [got, stated] = line.split(' ');
    assert.equal(got, stated, checks[i][0]);
  }
});

test('docs/index.md, the pair rule with an index: the filter keeps exactly the pairs within their pair k', () => {
  const snippet = block('const n = fp.featureCount(text);');
  const prelude = `import { Fingerprinter, Index, hamming, pairK } from 'simprint';
${TEXTS}const fp = new Fingerprinter();
const index = new Index({ k: pairK(1, 1) });
const counts = new Map();
texts.forEach((t, id) => {
  index.insert(id, fp.fingerprint(t));
  counts.set(id, fp.featureCount(t));
});
const text = texts[0];
`;
  const out = run(`${prelude}${snippet}
const all = texts.map((t, id) => ({ id, distance: hamming(fp.fingerprint(t), fp.fingerprint(text)) }))
  .filter(({ id, distance }) => distance <= pairK(n, counts.get(id)));
console.log(JSON.stringify([near, all]));
`);
  const [near, all] = JSON.parse(out);
  assert.deepEqual(near.map((m) => m.id).sort(), all.map((m) => m.id).sort());
  assert.ok(
    near.some((m) => m.id === 1),
    `the near copy is kept: ${out}`,
  );
  assert.ok(!near.some((m) => m.id === 4), `the larger one is not: ${out}`);
});

test('no placeholder is left in the documentation (FIG_…, TODO, TBD)', () => {
  // Three figures of docs/cli.md stood as FIG_… from 2026-11-26 to 2026-11-28 unnoticed.
  const files = [
    'README.md',
    'DEVELOPING.md',
    'CHANGELOG.md',
    'bindings/wasm/README.md',
    ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`),
    ...readdirSync(join(root, 'examples')).map((d) => `examples/${d}/README.md`),
    'bench/README.md',
  ].filter((f) => f.endsWith('.md') && existsSync(join(root, f)));
  assert.ok(files.length > 15, files.join(' '));
  for (const f of files) {
    const text = readFileSync(join(root, f), 'utf8');
    const found = text.match(/\bFIG_[A-Z_]+\b|\bTODO\b|\bTBD\b/);
    assert.equal(found, null, `${f} holds the placeholder ${found?.[0]}`);
  }
});
