// Runs the README's examples exactly as written: the Node one as a user's module that imports
// the package by name (node_modules/simprint links to the built pkg/), the Cloudflare Worker one
// bundled and run in workerd, the browser one in a page in Chromium, the Rust one as a project.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { extname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBundledWorker } from '../support/bundled-worker.mjs';
import { linkedProject } from '../support/linked-project.mjs';
import { launchChromium } from '../support/chromium.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('the README JavaScript example runs as written', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = readme.match(/```js\n([\s\S]*?)```/);
  assert.ok(block, 'README has a ```js block');
  const dir = linkedProject('simprint-readme-', { 'example.mjs': block[1] });
  try {
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

/** The README's ```js block under the heading `## heading`. */
function blockUnder(heading) {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.split(`\n## ${heading}\n`)[1];
  const block = section?.match(/^[^#]*?```js\n([\s\S]*?)```/)?.[1];
  assert.ok(block, `README has a \`\`\`js block under "## ${heading}"`);
  return block;
}

// Two texts for the snippets that compare a pair: the README's Chinese pair (three characters
// edited out of forty) under a key of the test's, and what the package says of them under Node.
const PAIR = [
  'Debian 管理员手册介绍了如何安装和配置系统，以及如何使用 APT 工具维护软件包。',
  'Debian 管理员手册介绍如何安装与配置系统，以及如何使用 APT 工具来维护软件包。',
];
const KEY = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';

/** `compare` of the pair at the pair rule's k, as the snippets compute it, under Node. */
async function pairAnswer(options) {
  const sp = await import(join(root, 'pkg', 'node.mjs'));
  const fp = new sp.Fingerprinter(options);
  const [a, b] = PAIR.map((text) => fp.fingerprintCounted(text));
  const answer = sp.compare(a.fingerprint, b.fingerprint, { k: fp.pairK(a.features, b.features) });
  fp.free();
  return answer;
}

test('the README Cloudflare Worker snippet, as written, bundled as wrangler bundles and run in workerd', {
  timeout: 60_000,
}, async () => {
  const dir = linkedProject('simprint-readme-worker-', {
    'worker.js': blockUnder('Cloudflare Worker'),
  });
  try {
    const mf = await startBundledWorker(dir, join(root, 'node_modules', '.bin', 'esbuild'), {
      SIPHASH_KEY: KEY,
    });
    try {
      const res = await fetch(await mf.ready, {
        method: 'POST',
        body: JSON.stringify({ texts: PAIR }),
      });
      assert.equal(res.status, 200);
      const answer = await res.json();
      assert.deepEqual(answer, await pairAnswer({ key: KEY }));
      assert.equal(typeof answer.nearDuplicate, 'boolean');
    } finally {
      await mf.dispose();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the README browser snippet, as written, in a page next to pkg/ in Chromium', {
  timeout: 60_000,
}, async () => {
  // The page the snippet expects: #left and #right holding the texts, #out for the answer, and
  // the snippet as its module script; served with pkg/ beside it from 127.0.0.1.
  const dir = mkdtempSync(join(tmpdir(), 'simprint-readme-browser-'));
  symlinkSync(join(root, 'pkg'), join(dir, 'pkg'), 'dir');
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><meta charset="utf-8"><textarea id="left">${PAIR[0]}</textarea>` +
      `<textarea id="right">${PAIR[1]}</textarea><p id="out"></p>` +
      `<script type="module">${blockUnder('Browser')}</script>`,
  );
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = createServer((req, res) => {
    const path = join(dir, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    try {
      const body = readFileSync(path.endsWith('/') ? join(path, 'index.html') : path);
      res.writeHead(200, {
        'content-type': types[extname(path) || '.html'] ?? 'application/octet-stream',
      });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => document.querySelector('#out').textContent !== '');
    assert.deepEqual(errors, []);
    const { distance, nearDuplicate } = await pairAnswer({ width: 64 });
    assert.equal(
      await page.textContent('#out'),
      `${distance} bits apart: ${nearDuplicate ? 'near-duplicates' : 'different texts'}`,
    );
  } finally {
    await browser.close();
    server.close();
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
