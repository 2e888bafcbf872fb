#!/usr/bin/env node
// A smoke test of a Worker example, run from its folder (`npm run smoke`): starts `wrangler dev`
// on a free loopback port with the folder's .dev.vars (made by `npm run setup` if missing),
// stores a text and a near-copy of it (the README's Chinese pair), checks that the copy is
// reported exactly when simprint says it is within the k the Worker used (how far apart the two
// are depends on the key) and an unrelated text is not, deletes both, and stops. Exits 0 when
// every step answered as it should.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Fingerprinter, hamming } from 'simprint';

const dir = process.cwd();
const devVars = join(dir, '.dev.vars');
if (!existsSync(devVars)) {
  spawnSync(process.execPath, [fileURLToPath(new URL('./setup.mjs', import.meta.url))], {
    cwd: dir,
    stdio: 'inherit',
  });
}
const vars = readFileSync(devVars, 'utf8');
const tokens = /^TOKENS="([^"]*)"/m.exec(vars)?.[1];
const key = /^SIPHASH_KEY="([^"]*)"/m.exec(vars)?.[1];
const token = tokens
  ?.split(/[\s,]+/)[0]
  ?.split(':')
  .slice(1)
  .join(':');
if (!token) fail('.dev.vars has no TOKENS entry');

const port = await new Promise((resolve, reject) => {
  const server = createServer()
    .once('error', reject)
    .listen(0, '127.0.0.1', () => {
      const { port: p } = server.address();
      server.close(() => resolve(p));
    });
});
const wrangler = join(dir, 'node_modules', '.bin', 'wrangler');
if (!existsSync(wrangler)) fail('wrangler is not installed here: run `npm install` first');
const dev = spawn(wrangler, ['dev', '--ip', '127.0.0.1', '--port', String(port)], {
  cwd: dir,
  env: {
    ...process.env,
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_SEND_ERROR_REPORTS: 'false',
    WRANGLER_HIDE_BANNER: 'true',
    CI: 'true',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
await new Promise((resolve) => {
  const timer = setTimeout(() => fail(`wrangler dev did not start within 90 s:\n${output}`), 90000);
  const seen = (d) => {
    output += d;
    if (/Ready on http/.test(output)) {
      clearTimeout(timer);
      resolve();
    }
  };
  dev.stdout.on('data', seen);
  dev.stderr.on('data', seen);
  dev.once('exit', (code) => fail(`wrangler dev exited (${code}):\n${output}`));
});

const base = `http://127.0.0.1:${port}`;
const call = async (method, path, body) => {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}` },
    body,
  });
  return { status: res.status, body: await res.json() };
};
const A = 'Debian 管理员手册介绍了如何安装和配置系统，以及如何使用 APT 工具维护软件包。';
const B = 'Debian 管理员手册介绍如何安装与配置系统，以及如何使用 APT 工具来维护软件包。';
const C = 'Preheat the oven, whisk the eggs with the sugar and fold in the flour before baking.';
const steps = [];
try {
  const a = await call('PUT', '/documents/smoke-a', A);
  expect('PUT a text', a.status === 201 || a.status === 200, a);
  const b = await call('PUT', '/documents/smoke-b', B);
  const found = b.body.duplicates?.find((d) => d.id === 'smoke-a');
  // What the package says under this deployment's key and settings (GET /stats): the distance,
  // and the pair's k (K = "pair": pairK of both texts' feature counts) or the text's own (K =
  // "auto"), which the Worker may only lower (MAX_K, the size of the collection).
  const { k: mode, tolerance, width, algorithm } = (await call('GET', '/stats')).body;
  const fp = new Fingerprinter({ key, width, algorithm });
  const distance = hamming(fp.fingerprint(A), fp.fingerprint(B));
  const own =
    mode === 'pair'
      ? fp.pairK(fp.featureCount(A), fp.featureCount(B), { tolerance })
      : fp.recommendedK(B, { tolerance });
  fp.free();
  const k = Math.min(own, b.body.k);
  const agrees =
    b.status === 201 &&
    (mode === 'pair' || b.body.k <= own) &&
    (distance <= k
      ? found?.distance === distance &&
        (mode !== 'pair' || found.k === k) &&
        b.body.original === false
      : found === undefined);
  expect(
    `PUT a near-copy: ${distance} bits apart at k = ${k} (K = ${JSON.stringify(mode)}, the package's ${own}): ${found ? 'reported' : 'not reported'}, as simprint says`,
    agrees,
    b,
  );
  const c = await call('POST', '/check', C);
  expect(
    'POST /check an unrelated text: nothing reported',
    c.status === 200 && c.body.duplicates.length === 0,
    c,
  );
  const stats = await call('GET', '/stats');
  expect('GET /stats', stats.status === 200 && stats.body.documents >= 2, stats);
  for (const id of ['smoke-a', 'smoke-b']) {
    const del = await call('DELETE', `/documents/${id}`);
    expect(`DELETE ${id}`, del.status === 200, del);
  }
} catch (err) {
  steps.push(`✗ ${err.message}`);
}
dev.removeAllListeners('exit');
dev.kill('SIGTERM');
console.log(steps.join('\n'));
process.exit(steps.every((s) => s.startsWith('✓')) ? 0 : 1);

function expect(what, ok, res) {
  steps.push(ok ? `✓ ${what}` : `✗ ${what}: ${res.status} ${JSON.stringify(res.body)}`);
}

function fail(message) {
  console.error(`smoke test: ${message}`);
  process.exit(1);
}
