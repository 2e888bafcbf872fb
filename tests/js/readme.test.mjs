// Runs the README's JavaScript example exactly as written, as a user's module that imports
// the package by name (node_modules/simprint links to the built pkg/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('the README JavaScript example runs as written', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = readme.match(/```js\n([\s\S]*?)```/);
  assert.ok(block, 'README has a ```js block');
  const dir = mkdtempSync(join(tmpdir(), 'simprint-readme-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(join(root, 'pkg'), join(dir, 'node_modules', 'simprint'), 'dir');
    writeFileSync(join(dir, 'example.mjs'), block[1]);
    const out = execFileSync(process.execPath, ['example.mjs'], { cwd: dir, encoding: 'utf8' });
    const lines = out.trim().split('\n');
    // The example prints the pair's hex fingerprints, their distance and the recommended k,
    // then what the index finds: check the shapes, and that the index found the copy.
    const [hexA, hexB, d, k] = lines[0].split(' ');
    assert.match(hexA, /^[0-9a-f]{16}$/);
    assert.match(hexB, /^[0-9a-f]{16}$/);
    assert.ok(Number(d) <= Number(k), out);
    assert.deepEqual(JSON.parse(lines[1]), [{ id: 1, distance: Number(d) }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the README Rust example as a project of its own, depending on the crate by path as the README says', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const code = readme.match(/```rust\n([\s\S]*?)```/)?.[1];
  const dependency = readme.match(
    /```toml\n\[dependencies\]\n(simprint = \{ path = "[^"]+" \})/,
  )?.[1];
  assert.ok(code && dependency, 'README has the ```rust example and the ```toml dependency line');
  // The README's path, `../simprint`, from a project beside the checkout: here the checkout
  // itself, through a symlink named as the README names it.
  const dir = mkdtempSync(join(tmpdir(), 'simprint-rust-readme-'));
  try {
    symlinkSync(root, join(dir, 'simprint'), 'dir');
    const project = join(dir, 'app');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(
      join(project, 'Cargo.toml'),
      `[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n${dependency}\n`,
    );
    writeFileSync(join(project, 'src', 'main.rs'), code);
    // A target folder of its own inside the checkout's: cached between local runs.
    const out = execFileSync('cargo', ['run', '--quiet'], {
      cwd: project,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CARGO_TARGET_DIR: join(root, 'target', 'readme-rust') },
    });
    // `{a} {b} {similarity}`: the two fingerprints' hex and the similarity of 7 bits in 64.
    assert.match(out.trim(), /^d792e189381a8b87 [0-9a-f]{16} 0\.891$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the package ships every module simprint.js imports', () => {
  // What `npm publish` would upload, against the relative imports of the entry module and of
  // everything it imports in turn: the glue, and the bindings' own JS under snippets/.
  const pkg = join(root, 'pkg');
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: pkg,
      encoding: 'utf8',
    }),
  );
  const files = new Set(packed.files.map((f) => f.path));
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    assert.ok(files.has(file), `${file} is not in the package`);
    const text = readFileSync(join(pkg, file), 'utf8');
    for (const m of text.matchAll(/^(?:import|export) .* from ['"](\.\.?\/[^'"]+)['"];?$/gm)) {
      visit(posix.normalize(posix.join(posix.dirname(file), m[1])));
    }
  };
  // simprint, then simprint/fingerprint (the same files in fingerprint/, over its own .wasm).
  for (const dir of ['', 'fingerprint/']) {
    visit(`${dir}simprint.js`);
    assert.ok(
      [...seen].some((f) => f.startsWith(`${dir}snippets/`)),
      `${dir}simprint.js reaches its snippets`,
    );
    assert.ok(seen.has(`${dir}simprint_glue.js`));
    for (const f of ['simprint_bg.wasm', 'simprint.d.ts'])
      assert.ok(files.has(`${dir}${f}`), `${dir}${f} is not in the package`);
  }
});
