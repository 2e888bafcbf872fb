// The npm package as users install it: the tarball `npm pack` makes of pkg/ (scripts/test.sh
// writes it to target/npm/), installed into fresh projects and used with the code a user would
// write first, with no set-up: Node ESM and CommonJS, TypeScript in strict mode, a vite build
// and an esbuild bundle each loaded in Chromium, and a copy of the Worker example in workerd.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import httpServer from 'http-server';
import { golden } from './load.mjs';
import { launchChromium } from '../support/chromium.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const version = JSON.parse(readFileSync(join(root, 'pkg', 'package.json'), 'utf8')).version;
const tarball = join(root, 'target', 'npm', `simprint-${version}.tgz`);
const KNOWN = golden.vectors.find((v) => v.name === 'english default');
const NOT_READY = /^simprint is not initialised: call init\(\) first/;

const scratch = mkdtempSync(join(tmpdir(), 'simprint-package-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A fresh project folder `name` with the tarball installed as a user would. */
function project(name, packageJson = {}) {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, ...packageJson }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', tarball],
    { cwd: dir, stdio: 'pipe' });
  return dir;
}

const run = (cwd, args) => execFileSync(process.execPath, args, { cwd, encoding: 'utf8' }).trim();

test('the tarball holds every file the exports map and the entries name', () => {
  const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').map((f) => f.replace(/^package\//, ''));
  const pkg = JSON.parse(readFileSync(join(root, 'pkg', 'package.json'), 'utf8'));
  const targets = JSON.stringify(pkg.exports).match(/"\.\/[^"]+"/g).map((t) => t.slice(3, -1));
  for (const f of [...targets, 'README.md', 'LICENSE-MIT', 'LICENSE-APACHE']) assert.ok(listed.includes(f), `${f} is not in the tarball`);
  // One .wasm for every entry.
  assert.deepEqual(listed.filter((f) => f.endsWith('.wasm')), ['simprint_bg.wasm']);
  // The README is the package's own, short one.
  assert.ok(readFileSync(join(root, 'pkg', 'README.md'), 'utf8').split('\n').length < 120);
});

test('Node, ES module: import and call, nothing else', () => {
  const dir = project('node-esm', { type: 'module' });
  writeFileSync(join(dir, 'main.js'), `
import init, { fingerprint, toHex, Index, fromHex } from 'simprint';
const fp = fingerprint(${JSON.stringify(KNOWN.text)});
const index = new Index({ k: 3 });
index.insert(1, fp);
await init(); // resolves at once: already initialised
console.log(toHex(fp), JSON.stringify(index.query(fromHex(toHex(fp)))));
`);
  assert.equal(run(dir, ['main.js']), `${KNOWN.hex} [{"id":1,"distance":0}]`);
});

test('Node, CommonJS: require with no ES module support', () => {
  const dir = project('node-cjs');
  writeFileSync(join(dir, 'main.js'), `
const { fingerprint, toHex, Index } = require('simprint');
const index = new Index({ k: 3 });
index.insert(7, fingerprint(${JSON.stringify(KNOWN.text)}));
console.log(toHex(fingerprint(${JSON.stringify(KNOWN.text)})), index.size, index instanceof Index);
`);
  assert.equal(run(dir, ['--no-experimental-require-module', 'main.js']), `${KNOWN.hex} 1 true`);
});

test('TypeScript, strict, lib es2020 + dom, no skipLibCheck: node16 (ESM and CJS) and bundler', () => {
  const dir = project('typescript', { type: 'module' });
  writeFileSync(join(dir, 'main.ts'), `
import init, { fingerprint, toHex, Index, Fingerprinter, defaults, type IndexMatch, type Explanation } from 'simprint';
import wasm from 'simprint/simprint_bg.wasm';
const module: WebAssembly.Module = wasm;
const ready: Promise<unknown> = init();
const fp: bigint = fingerprint('hello world', { width: 64, tokenizer: 'words' });
const index = new Index({ k: 3 });
index.insert(1, fp);
const found: IndexMatch[] = index.query(fp);
const e: Explanation = new Fingerprinter().explain('x');
console.log(toHex(fp), found.length, e.width, defaults().options.width, module, ready);
`);
  writeFileSync(join(dir, 'legacy.cts'), `
import simprint = require('simprint');
const hex: string = simprint.toHex(simprint.fingerprint('x'));
console.log(hex);
`);
  const options = { strict: true, lib: ['es2020', 'dom'], target: 'es2020', noEmit: true, types: [] };
  for (const [resolution, files] of [['node16', ['main.ts', 'legacy.cts']], ['bundler', ['main.ts']]]) {
    const module = resolution === 'node16' ? 'node16' : 'esnext';
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { ...options, module, moduleResolution: resolution }, files,
    }));
    try {
      execFileSync(bin('tsc'), ['-p', dir], { cwd: dir, encoding: 'utf8' });
    } catch (e) {
      assert.fail(`tsc (${resolution}) failed:\n${e.stdout}${e.stderr}`);
    }
  }
});

describe('browsers: a vite build and an esbuild bundle in Chromium', { timeout: 120_000 }, () => {
  let browser;
  let server;
  let base;
  // The page a user writes: a call before init() fails clearly, after it works.
  const PAGE_JS = `
import init, { fingerprint, toHex } from 'simprint';
INIT_IMPORT
let early;
try { fingerprint('x'); early = 'no error'; } catch (e) { early = e.message; }
await INIT_CALL;
document.body.dataset.early = early;
document.body.dataset.hex = toHex(fingerprint(${JSON.stringify(KNOWN.text)}));
`;
  const HTML = (script) => `<!doctype html><meta charset="utf-8"><title>simprint</title><script type="module" src="${script}"></script>`;

  before(async () => {
    browser = await launchChromium();
    server = httpServer.createServer({ root: scratch, cache: -1, silent: true });
    await new Promise((ok, fail) => {
      server.server.once('error', fail);
      server.listen(0, '127.0.0.1', ok);
    });
    base = `http://127.0.0.1:${server.server.address().port}`;
  });

  after(async () => {
    await browser?.close();
    if (server) {
      server.server.closeAllConnections();
      await new Promise((ok) => server.server.close(ok));
    }
  });

  async function load(path) {
    const page = await browser.context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()} ${r.url()}`));
    try {
      await page.goto(`${base}/${path}`);
      await page.waitForFunction(() => document.body?.dataset.hex, null, { timeout: 10_000 }).catch(() => {});
      const data = await page.evaluate(() => ({ ...document.body.dataset }));
      assert.deepEqual(problems, [], path);
      return data;
    } finally {
      await page.close();
    }
  }

  test('vite build: the .wasm found through import.meta.url and emitted as an asset', async () => {
    const dir = project('vite', { type: 'module' });
    writeFileSync(join(dir, 'main.js'), PAGE_JS.replace('INIT_IMPORT', '').replace('INIT_CALL', 'init()'));
    writeFileSync(join(dir, 'index.html'), HTML('./main.js'));
    execFileSync(bin('vite'), ['build', '--base', './', '--logLevel', 'error'], { cwd: dir, stdio: 'pipe' });
    assert.ok(readdirSync(join(dir, 'dist', 'assets')).some((f) => f.endsWith('.wasm')), 'vite emitted the .wasm');
    const data = await load('vite/dist/index.html');
    assert.match(data.early, NOT_READY);
    assert.equal(data.hex, KNOWN.hex);
  });

  test('esbuild bundle: the .wasm imported with the file loader and given to init()', async () => {
    const dir = project('esbuild', { type: 'module' });
    writeFileSync(join(dir, 'main.js'), PAGE_JS
      .replace('INIT_IMPORT', "import wasmUrl from 'simprint/simprint_bg.wasm';")
      .replace('INIT_CALL', 'init({ module_or_path: new URL(wasmUrl, import.meta.url) })'));
    writeFileSync(join(dir, 'index.html'), HTML('./dist/main.js'));
    execFileSync(bin('esbuild'), ['main.js', '--bundle', '--format=esm', '--loader:.wasm=file', '--outdir=dist', '--log-level=error'],
      { cwd: dir, stdio: 'pipe' });
    const data = await load('esbuild/index.html');
    assert.match(data.early, NOT_READY);
    assert.equal(data.hex, KNOWN.hex);
  });
});

test('a copy of the Worker example, installed on its own, bundled by its wrangler and run in workerd', { timeout: 180_000 }, async () => {
  const dir = join(scratch, 'worker');
  cpSync(join(root, 'examples', 'worker'), dir, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|dist|\.wrangler)$/.test(src) && !/\.dev\.vars$/.test(src),
  });
  // Its package.json names the tarball relative to the repository; a copy points at it.
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  pkg.dependencies.simprint = `file:${tarball}`;
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  const home = join(scratch, 'worker-home');
  mkdirSync(home, { recursive: true });
  const env = {
    ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache'),
    CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false',
  };
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--prefer-offline', '--loglevel=error'],
    { cwd: dir, stdio: 'pipe' });
  execFileSync('npm', ['run', 'bundle', '--silent'], { cwd: dir, stdio: 'pipe', env });
  const out = join(dir, 'dist');
  assert.ok(readdirSync(out).some((f) => f.endsWith('.wasm')), 'the bundle carries the .wasm');

  // The bundle in workerd (Miniflare), with the copy's wrangler.toml as wrangler reads it and
  // the secrets its `npm run setup` makes.
  execFileSync('npm', ['run', 'setup', '--silent'], { cwd: dir, stdio: 'pipe', env });
  const { Miniflare } = await import('miniflare');
  const { unstable_getMiniflareWorkerOptions } = await import('wrangler');
  const fromToml = unstable_getMiniflareWorkerOptions(join(dir, 'wrangler.toml'), undefined, {
    envFiles: [join(scratch, 'no-such.env')],
  }).workerOptions;
  const vars = Object.fromEntries(readFileSync(join(dir, '.dev.vars'), 'utf8').split('\n')
    .map((l) => /^([A-Z_][A-Z0-9_]*)="([^"]*)"$/.exec(l)).filter(Boolean).map((m) => [m[1], m[2]]));
  const token = vars.TOKENS.split(' ')[0].split(':').slice(1).join(':');
  const mf = new Miniflare({
    host: '127.0.0.1', port: 0, cf: false, modules: true,
    scriptPath: join(out, 'index.js'), modulesRoot: out,
    modulesRules: [{ type: 'ESModule', include: ['**/*.js'] }, ...fromToml.modulesRules],
    compatibilityDate: fromToml.compatibilityDate,
    bindings: { ...fromToml.bindings, ...vars },
    durableObjects: fromToml.durableObjects,
  });
  try {
    const url = await mf.ready;
    const post = (body) => fetch(new URL('/documents', url), {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    const first = await post({ id: 'a', text: KNOWN.text });
    assert.equal(first.status, 201, await first.clone().text());
    const again = await (await post({ id: 'b', text: KNOWN.text })).json();
    assert.deepEqual(again.duplicates, [{ id: 'a', distance: 0, earlier: true }]);
  } finally {
    await mf.dispose();
  }
});
