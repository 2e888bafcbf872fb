// The Worker examples as a user takes them: each folder copied out of the repository (with the
// packed packages its build put in vendor/), installed there with npm, bundled by its own
// pinned wrangler (`npm run bundle`, the `wrangler deploy --dry-run` of a deployment) and run
// under `wrangler dev` by its own smoke test (`npm run smoke`). Then, in the copy of
// examples/worker under `wrangler dev`: wrangler dev puts a proxy in front of workerd; a
// request body the Worker stops reading while the client is still sending breaks that proxy's
// upload, and the next request used to get "503 Your worker restarted mid-request". Every
// refusal of a body (too large by count or by Content-Length, the deadline, bad UTF-8, bad
// JSON; chunked or not) is followed here by a normal request, which must be served by the same
// object instance.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaleDir, secretsFor, workerDir } from '../support/workers.mjs';

const MAX_BODY = 64 * 1024;
const TIMEOUT_MS = 1500;
const tmp = mkdtempSync(join(tmpdir(), 'simprint-dev-'));
const copy = join(tmp, 'dedup');
const home = join(tmp, 'home');
mkdirSync(home);
// What wrangler and npm need of HOME, kept in the temporary folder; no calls to Cloudflare.
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  WRANGLER_HIDE_BANNER: 'true',
  CI: 'true',
  npm_config_cache: join(process.env.HOME ?? tmp, '.npm'),
};
const secrets = secretsFor(['demo']);
const TOKEN = secrets.tokens.demo;
let dev;
let port;
let output = '';

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port: p } = server.address();
      server.close(() => resolve(p));
    });
  });

/** `example`'s folder as a user copies it (`cp -r`), without what the repository installed in it. */
function copyOut(example, to) {
  cpSync(example, to, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|\.wrangler|dist|\.dev\.vars)$/.test(src),
  });
  return to;
}

const npm = (dir, ...args) =>
  execFileSync('npm', args, { cwd: dir, env, stdio: 'pipe', encoding: 'utf8' });

for (const example of [workerDir, scaleDir]) {
  const name = example === workerDir ? 'worker' : 'worker-scale';
  test(`examples/${name} copied out of the repository installs, bundles, runs under npm run dev and passes its smoke test`, {
    timeout: 600_000,
  }, (t) => {
    const dir = copyOut(example, join(tmp, `copy-${name}`));
    assert.ok(
      readdirSync(join(dir, 'vendor')).length === 2,
      'the packed packages travel in vendor/',
    );
    npm(dir, 'install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error');
    npm(dir, 'run', 'bundle', '--silent');
    assert.ok(
      readdirSync(join(dir, 'dist')).some((f) => f.endsWith('.wasm')),
      'the bundle carries the .wasm',
    );
    const smoke = npm(dir, 'run', 'smoke', '--silent');
    t.diagnostic(smoke.trim().replace(/\n/g, '; '));
    assert.ok(existsSync(join(dir, '.dev.vars')), 'npm run smoke made .dev.vars (npm run setup)');
    assert.doesNotMatch(smoke, /✗/);
    assert.match(
      smoke,
      // As shipped: the pair rule in both examples.
      /✓ PUT a near-copy: [0-9]+ bits apart at k = [0-9]+ \(K = "pair", the package's [0-9]+\): (not )?reported, as simprint says/,
    );
  });
}

before(async () => {
  // The refusal tests run in a copy of examples/worker whose dependencies are linked, not reinstalled.
  copyOut(workerDir, copy);
  execFileSync('ln', ['-s', join(workerDir, 'node_modules'), join(copy, 'node_modules')]);
  writeFileSync(join(copy, '.dev.vars'), `TOKENS="demo:${TOKEN}"\nSIPHASH_KEY="${secrets.key}"\n`);
  port = await freePort();
  dev = spawn(
    join(copy, 'node_modules', '.bin', 'wrangler'),
    [
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(await freePort()),
      '--var',
      `MAX_BODY_BYTES:${MAX_BODY}`,
      '--var',
      `BODY_TIMEOUT_MS:${TIMEOUT_MS}`,
      '--var',
      'RATE_LIMIT_PER_SECOND:0',
    ],
    {
      cwd: copy,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`wrangler dev did not start:\n${output}`)),
      90000,
    );
    const seen = (d) => {
      output += d;
      if (/Ready on http/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    dev.stdout.on('data', seen);
    dev.stderr.on('data', seen);
    dev.once('exit', (code) => reject(new Error(`wrangler dev exited (${code}):\n${output}`)));
  });
});

after(async () => {
  if (dev && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once('exit', resolve));
    dev.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (dev.exitCode === null) dev.kill('SIGKILL');
  }
  rmSync(tmp, { recursive: true, force: true });
});

/**
 * A POST of `pieces` (strings or bytes), chunked unless `contentLength` is given, `pauseMs`
 * between pieces; after the last piece the request ends unless `hold` (the client goes quiet
 * until the answer comes). Resolves to { status, text }.
 */
function post(path, pieces, { method = 'POST', contentLength, pauseMs = 0, hold = false } = {}) {
  return new Promise((resolve, reject) => {
    const headers = {
      authorization: `Bearer ${TOKEN}`,
      'content-type': path === '/documents' ? 'application/json' : 'text/plain',
    };
    if (contentLength !== undefined) headers['content-length'] = String(contentLength);
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers });
    let answered = false;
    req.on('error', (e) => (answered ? undefined : reject(e)));
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode, text });
      });
    });
    req.flushHeaders();
    (async () => {
      for (const piece of pieces) {
        if (answered) return;
        if (!req.write(piece)) await new Promise((r) => req.once('drain', r));
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      }
      if (!hold && !answered) req.end();
    })().catch(() => {});
  });
}

const json = (body) => JSON.stringify(body);
let n = 0;

/**
 * A normal store right after a refusal: served (201), by the object instance of before.
 *
 * `cut`: the refused body was still open when the Worker answered (a client that stalls past the
 * deadline never finishes it), so wrangler dev's proxy has to tear down its connection to the
 * Worker mid-upload. A request it sends on that connection while it does so fails, and the proxy
 * answers it 503 "Your worker restarted mid-request" whatever the cause (its check for a restart
 * compares the request's URL, path included, with the Worker's bare address). The Worker did not
 * restart: one retry is allowed there, and the object instance must still be the one of before.
 */
async function servedAfter(what, instance, { cut = false } = {}) {
  n++;
  const store = () =>
    post('/documents', [json({ id: `after-${n}`, text: `a normal document after ${what}` })]);
  let res = await store();
  if (cut && res.status === 503 && /restarted mid-request/.test(res.text)) res = await store();
  assert.equal(res.status, 201, `after ${what}: ${res.status} ${res.text}`);
  const stats = await post('/check', ['a check of a text']);
  assert.equal(stats.status, 200, `after ${what}: ${stats.text}`);
  if (instance)
    assert.equal(await currentInstance(), instance, `after ${what}: the object restarted`);
}

async function currentInstance() {
  return new Promise((resolve, reject) => {
    httpRequest(
      { host: '127.0.0.1', port, path: '/stats', headers: { authorization: `Bearer ${TOKEN}` } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve(JSON.parse(text).instance));
      },
    )
      .on('error', reject)
      .end();
  });
}

const bigChunks = (bytes) =>
  Array.from({ length: Math.ceil(bytes / 8192) }, () => 'x'.repeat(8192));

test('wrangler dev: every refused body leaves the Worker serving the next request, chunked or not', async () => {
  await servedAfter('start');
  const instance = await currentInstance();
  const cases = [
    [
      'a chunked text body past MAX_BODY_BYTES',
      413,
      () => post('/documents/big', bigChunks(4 * MAX_BODY), { method: 'PUT' }),
    ],
    [
      'a Content-Length past MAX_BODY_BYTES, body sent',
      413,
      () => {
        const pieces = bigChunks(2 * MAX_BODY);
        return post('/documents/big', pieces, {
          method: 'PUT',
          contentLength: pieces.reduce((t, p) => t + Buffer.byteLength(p), 0),
        });
      },
    ],
    [
      'a chunked JSON body past MAX_JSON_BYTES',
      413,
      () => post('/documents', ['{"id":"big","text":"', ...bigChunks(MAX_BODY), '"}']),
    ],
    [
      'bad UTF-8, chunked',
      400,
      () =>
        post('/documents/u', ['text ', Buffer.from([0xc3, 0x28]), 'x'.repeat(30000)], {
          method: 'PUT',
        }),
    ],
    [
      'bad UTF-8, Content-Length',
      400,
      () => {
        const body = Buffer.concat([Buffer.from('text '), Buffer.from([0xc3, 0x28])]);
        return post('/documents/u', [body], { method: 'PUT', contentLength: body.length });
      },
    ],
    [
      'bad JSON, chunked',
      400,
      () => post('/documents', ['{"id": nope', ', "text": "', 'y'.repeat(20000), '"}']),
    ],
    [
      'bad JSON, Content-Length',
      400,
      () => post('/documents', ['{"id": nope}'], { contentLength: 12 }),
    ],
    [
      'the deadline, chunked',
      408,
      () => post('/documents/slow', ['abc', 'def'], { method: 'PUT', pauseMs: 100, hold: true }),
      { cut: true },
    ],
    [
      'the deadline, Content-Length',
      408,
      () => post('/documents/slow', ['abc'], { method: 'PUT', contentLength: 1000, hold: true }),
      { cut: true },
    ],
  ];
  for (const [what, status, send, options] of cases) {
    const res = await send();
    assert.equal(res.status, status, `${what}: ${res.text}`);
    assert.match(res.text, /^\{"error":/, what);
    await servedAfter(what, instance, options);
  }
});
