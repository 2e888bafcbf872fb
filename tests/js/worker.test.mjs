// The Cloudflare Worker example with one object per tenant (examples/worker/) in real workerd,
// through Miniflare's API: the settings come from its wrangler.toml, the secrets (tokens,
// SipHash key) are made fresh for each run, the Durable Object persists to a temporary
// directory, and everything talks over loopback HTTP. Also: the shared body reader and text
// sink (examples/worker-common) under Node, and the bundle wrangler would upload.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import sp from './load.mjs';
import {
  bundle,
  offline,
  readDevVars,
  root,
  scaleDir,
  secretsFor,
  workerOptions,
} from '../support/workers.mjs';
import {
  FLUSH_UNITS,
  readJson,
  readText,
  TextSink,
} from '../../examples/worker-common/src/body.js';
import { addressable } from '../../examples/worker-common/src/ids.js';
import { mulberry32 as rng, SYLLABLES } from './support.mjs';
import { defaultMaxK } from '../../examples/worker/src/settings.js';

const MAX_DUPLICATES = 100;
// The canary text of examples/worker-common/src/scheme.js (which imports the workerd package).
const CANARY =
  'simprint scheme canary: The quick brown fox jumps over the lazy dog. 敏捷的棕色狐狸跳过了懒狗。';
const compareIds = (a, b) => (a === b ? 0 : Buffer.compare(Buffer.from(a), Buffer.from(b)));

const { tmp, Miniflare, fromToml } = await offline('simprint-worker-');
// The other example, for the behaviours both share (tokens, tenants, limits, secrets).
const scale = await offline('simprint-worker-scale-', scaleDir);

// The Worker runs as wrangler would upload it: bundled with the packages it depends on (its
// package.json; scripts/test.sh installs them), whose `workerd` entry brings the .wasm.
const BUNDLE = join(tmp, 'bundle');
bundle(BUNDLE);
const SCALE_BUNDLE = join(scale.tmp, 'bundle');
bundle(SCALE_BUNDLE, { dir: scaleDir });
const EXAMPLES = ['worker', 'worker-scale'];

// Two tenants with a fresh token each, and a SipHash key: the Worker's secrets for this run.
// The key is fixed because the fixtures below depend on it (B within K of A: distance 6 under
// this key; under some keys it is 10).
const secrets = secretsFor(['alpha', 'beta'], '5e1f0c2a9b7d4e3f8a6c1b2d3e4f5a6b');
const KEY = secrets.key;
const ALPHA = secrets.tokens.alpha;
const BETA = secrets.tokens.beta;

// Most tests check fingerprints and send more requests than the shipped rate limit allows:
// they run with fingerprints shown and no rate limit, unless `shipped` asks for wrangler.toml's.
const TEST_VARS = { EXPOSE_FINGERPRINTS: true, RATE_LIMIT_PER_SECOND: 0 };

function start({
  persist,
  vars = {},
  shipped = false,
  withSecrets = true,
  ratelimits,
  example = 'worker',
  out,
}) {
  const scaled = example === 'worker-scale';
  return new (scaled ? scale.Miniflare : Miniflare)(
    workerOptions(scaled ? scale.fromToml : fromToml, out ?? (scaled ? SCALE_BUNDLE : BUNDLE), {
      bindings: {
        ...(withSecrets ? secrets.bindings : {}),
        ...(shipped ? {} : TEST_VARS),
        ...vars,
      },
      persist,
      ...(ratelimits ? { ratelimits } : {}),
    }),
  );
}

const bearer = (token) => ({ authorization: `Bearer ${token}` });

/** A JSON client of one runtime, sending `token` (tenant alpha's unless told); every answer must be JSON. */
function client(base, token = ALPHA) {
  return async function call(method, path, body, headers = {}) {
    const init = { method, headers: { ...(token === null ? {} : bearer(token)), ...headers } };
    if (body !== undefined) {
      if (body instanceof ReadableStream) {
        init.body = body;
        init.duplex = 'half';
      } else if (typeof body === 'string' || body instanceof Uint8Array) init.body = body;
      else {
        // An object goes as JSON, and says so (POST /check reads any other body as the text).
        init.body = JSON.stringify(body);
        init.headers = { 'content-type': 'application/json', ...init.headers };
      }
    }
    const res = await fetch(new URL(path, base), init);
    const text = await res.text();
    assert.match(
      res.headers.get('content-type') ?? '',
      /^application\/json/,
      `${method} ${path}: ${text}`,
    );
    return { status: res.status, body: JSON.parse(text), headers: res.headers };
  };
}

/**
 * A POST whose answer may come before the body is sent: the worker refuses an oversized body
 * as soon as it knows (from Content-Length, or once the streamed bytes pass the cap) and the
 * runtime may then close the connection. fetch() reports that as "fetch failed" when the close
 * races its upload, so this client sends the headers, feeds body chunks only until the answer
 * arrives, reads the answer, and only then drops the connection.
 */
function postRefusedEarly(
  base,
  path,
  { method = 'POST', declaredLength, chunk, prefix, maxBytes },
) {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'text/plain', ...bearer(ALPHA) };
    if (declaredLength !== undefined) headers['content-length'] = String(declaredLength);
    const req = httpRequest(new URL(path, base), { method, headers });
    let answered = false;
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    req.on('response', (res) => {
      answered = true;
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('error', reject);
      res.on('end', () => {
        req.destroy();
        const text = Buffer.concat(parts).toString('utf8');
        try {
          assert.match(res.headers['content-type'] ?? '', /^application\/json/, text);
          resolve({ status: res.statusCode, body: JSON.parse(text) });
        } catch (e) {
          reject(e);
        }
      });
    });
    req.flushHeaders();
    if (declaredLength !== undefined) return; // the declared length alone must be refused
    let sent = 0;
    const feed = () => {
      while (!answered && sent <= maxBytes) {
        const piece = sent === 0 ? prefix : chunk;
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', feed);
      }
      // Past the cap and still no answer: finish the request so a wrong status shows up as such.
      if (!answered) req.end();
    };
    feed();
  });
}

// Fingerprints as the Worker makes them: under the deployment's secret key.
const hex = (text, width = 64) => sp.toHex(sp.fingerprint(text, { width, key: KEY }), width);
const distance = (x, y) =>
  sp.hamming(sp.fingerprint(x, { key: KEY }), sp.fingerprint(y, { key: KEY }));

// Real-looking text: B is A with three words changed (distance 6 at 64 bits), C is unrelated.
const A =
  'The Debian project maintains a large archive of free software packages. Every package is built from ' +
  'source by automated build daemons, signed with the archive keys and mirrored to hundreds of servers ' +
  'around the world. Administrators install and upgrade software with APT, which resolves dependencies, ' +
  'downloads the files it needs and verifies their signatures before anything is unpacked on the system.';
const B = A.replace('maintains', 'keeps')
  .replace('hundreds', 'dozens')
  .replace('Administrators', 'Users');
const C =
  'Preheat the oven to two hundred degrees. Whisk the eggs with the sugar until pale and thick, fold in ' +
  'the sifted flour and the melted butter, pour the batter into a lined tin and bake the sponge for ' +
  'twenty minutes, until it is golden and springs back when pressed.';
const MAX_BODY = Number(fromToml.bindings.MAX_BODY_BYTES);
const MAX_JSON = Number(fromToml.bindings.MAX_JSON_BYTES);
// The k a text is checked at with K = "auto": its own recommended k (under the key) at most MAX_K.
const fingerprinter = new sp.Fingerprinter({ key: KEY });
const kOf = (text) => fingerprinter.recommendedK(text);
// With K = "pair" (as shipped) a text is checked against a stored one at pairK of their feature
// counts, and answers the largest such k, that of equal sizes.
const pairKOf = (text, stored) =>
  sp.pairK(fingerprinter.featureCount(text), fingerprinter.featureCount(stored));
const PAIR_K = sp.pairK(1, 1);
const MAX_K = Number(fromToml.bindings.MAX_K ?? defaultMaxK(64));

// Deterministic pseudo-random numbers (mulberry32) and texts.
function randomText(next, words) {
  const out = [];
  for (let i = 0; i < words; i++) {
    const n = 1 + Math.floor(next() * 3);
    let w = '';
    for (let j = 0; j < n; j++) w += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    out.push(w);
  }
  return `${out.join(' ')}.`;
}

/** Runs `jobs` (functions returning promises) with at most `limit` in flight. */
async function pool(jobs, limit) {
  const results = new Array(jobs.length);
  let nextJob = 0;
  const runners = Array.from({ length: limit }, async () => {
    while (nextJob < jobs.length) {
      const i = nextJob++;
      results[i] = await jobs[i]();
    }
  });
  await Promise.all(runners);
  return results;
}

async function listAll(call) {
  const ids = [];
  let after = '';
  for (;;) {
    const { status, body } = await call(
      'GET',
      `/documents?limit=1000&after=${encodeURIComponent(after)}`,
    );
    assert.equal(status, 200);
    ids.push(...body.ids);
    if (body.next === null) return ids;
    after = body.next;
  }
}

const measured = {};
const persist = join(tmp, 'do');
let mf;
let call;
let base;
// Documents the tests below expect to be stored, id -> text.
const expected = new Map();

before(async () => {
  const t0 = performance.now();
  mf = start({ persist });
  const url = await mf.ready;
  const ready = performance.now() - t0;
  base = url;
  call = client(url);
  const first = await call('POST', '/documents', { id: 'debian', text: A });
  measured.freshReadyMs = ready;
  measured.freshFirstResponseMs = performance.now() - t0;
  assert.equal(first.status, 201, JSON.stringify(first.body));
  expected.set('debian', A);
});

after(async () => {
  await mf?.dispose();
  rmSync(tmp, { recursive: true, force: true });
  console.log(
    `worker measurements: ${JSON.stringify(measured, (_k, v) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v))}`,
  );
});

/** A Request whose body arrives as `bytes` cut into pieces of 1 to `most` bytes. */
function chunkedRequest(bytes, next, most) {
  let pos = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (pos >= bytes.length) return controller.close();
      const n = 1 + Math.floor(next() * most);
      controller.enqueue(bytes.slice(pos, pos + n));
      pos += n;
    },
  });
  return new Request('http://x/', { method: 'POST', body, duplex: 'half' });
}

test('the body reader: any chunking gives the text; bad UTF-8, oversize and lone surrogates refused (Node)', async () => {
  const next = rng(7);
  const alphabet = ['a', 'é', '😀', '中文', '\n', ' ', 'word', '👍🏽'];
  for (let iter = 0; iter < 300; iter++) {
    let text = '';
    for (let n = Math.floor(next() * 200); n > 0; n--)
      text += alphabet[Math.floor(next() * alphabet.length)];
    let got = '';
    await readText(
      chunkedRequest(new TextEncoder().encode(text), next, 5),
      { maxBytes: 1e6, timeoutMs: 5000 },
      { update: (p) => (got += p) },
    );
    assert.equal(got, text);
  }
  const refused = async (bytes, limits, status, pattern) => {
    const err = await readText(chunkedRequest(bytes, next, 3), limits, { update() {} }).then(
      () => null,
      (e) => e,
    );
    assert.equal(err?.status, status, String(err));
    assert.match(err.message, pattern);
  };
  await refused(
    Uint8Array.of(0x61, 0xc3, 0x28, 0x62),
    { maxBytes: 100, timeoutMs: 5000 },
    400,
    /not valid UTF-8/,
  );
  await refused(
    Uint8Array.of(0x61, 0xe2, 0x82),
    { maxBytes: 100, timeoutMs: 5000 },
    400,
    /not valid UTF-8/,
  ); // cut short
  await refused(
    Uint8Array.of(0xed, 0xa0, 0x80),
    { maxBytes: 100, timeoutMs: 5000 },
    400,
    /not valid UTF-8/,
  ); // a surrogate
  await refused(
    new Uint8Array(101).fill(0x61),
    { maxBytes: 100, timeoutMs: 5000 },
    413,
    /larger than 100 bytes/,
  );
  const json = (s) =>
    readJson(chunkedRequest(new TextEncoder().encode(s), next, 4), {
      maxBytes: 1000,
      timeoutMs: 5000,
    });
  assert.deepEqual(await json('{"id": "x", "text": "a\\u00e9😀"}'), { id: 'x', text: 'aé😀' });
  for (const [body, pattern] of [
    ['', /empty/],
    ['{"id": 1', /not valid JSON/],
    ['{"text": "\\ud800"}', /lone surrogate/],
    ['{"\\udc00": 1}', /lone surrogate/],
    ['['.repeat(80) + ']'.repeat(80), /nests too deep/],
  ]) {
    const err = await json(body).then(
      () => null,
      (e) => e,
    );
    assert.equal(err?.status, 400, body);
    assert.match(err.message, pattern, body);
  }
});

test('the text sink batches pieces without splitting surrogate pairs (Node)', () => {
  const next = rng(9);
  const alphabet = ['a', ' ', 'é', '中', '😀', '👍🏽', '\n'];
  let text = '';
  while (text.length < 3 * FLUSH_UNITS + 123)
    text += alphabet[Math.floor(next() * alphabet.length)];
  const batches = [];
  const sink = new TextSink(new sp.Fingerprinter()); // the package's streaming fingerprinter
  const consume = sink.consume.bind(sink);
  sink.consume = (t) => {
    batches.push(t);
    consume(t);
  };
  for (let i = 0; i < text.length; ) {
    const n = 1 + Math.floor(next() * 5000);
    sink.update(text.slice(i, i + n)); // pieces may end inside a surrogate pair
    i += n;
  }
  const { fingerprint, k } = sink.finish();
  assert.equal(fingerprint, sp.fingerprint(text));
  assert.equal(k, new sp.Fingerprinter().recommendedK(text), 'the streamed k is the one-shot k');
  assert.equal(batches.join(''), text);
  assert.equal(sink.units, text.length);
  assert.ok(batches.length >= 3);
  for (const b of batches.slice(0, -1)) {
    assert.ok(b.length >= FLUSH_UNITS - 1);
    const last = b.charCodeAt(b.length - 1);
    assert.ok(!(last >= 0xd800 && last <= 0xdbff), 'no batch ends in a high surrogate');
  }
});

test('insert; near-duplicate, exact duplicate found; unrelated not found', async () => {
  assert.ok(distance(A, B) <= pairKOf(B, A), 'the fixture is a near-duplicate');
  const near = await call('POST', '/documents', { id: 'debian-edited', text: B });
  assert.equal(near.status, 201);
  assert.equal(near.body.fingerprint, hex(B), 'the fingerprint equals the package under Node');
  const d = distance(A, B);
  assert.ok(d > 0);
  assert.deepEqual(near.body, {
    id: 'debian-edited',
    fingerprint: hex(B),
    k: PAIR_K,
    duplicates: [{ id: 'debian', distance: d, k: pairKOf(B, A), earlier: true }],
    truncated: false,
    original: false,
    stored: true,
  });
  expected.set('debian-edited', B);

  const exact = await call('POST', '/documents', { id: 'debian-copy', text: A });
  assert.equal(exact.status, 201);
  assert.deepEqual(exact.body.duplicates, [
    { id: 'debian', distance: 0, k: PAIR_K, earlier: true },
    { id: 'debian-edited', distance: d, k: pairKOf(A, B), earlier: true },
  ]);
  expected.set('debian-copy', A);

  const unrelated = await call('POST', '/documents', { id: 'sponge-cake', text: C });
  assert.equal(unrelated.status, 201);
  assert.deepEqual(unrelated.body.duplicates, []);
  assert.equal(unrelated.body.original, true, 'nothing like it came earlier: the one to keep');
  expected.set('sponge-cake', C);

  // Posting the same document again (a client's retry) gives the same answer, without itself.
  const retry = await call('POST', '/documents', { id: 'debian-copy', text: A });
  assert.equal(retry.status, 200, 'a replace is 200, a creation 201');
  assert.deepEqual(retry.body, exact.body);
});

test('the README\'s Chinese pair under ten keys, flagged exactly when the library says: at pairK (as shipped), at recommendedK (K = "auto"), at a fixed K', async () => {
  // The README's Chinese example: three characters edited in forty, 28 distinct features (CJK
  // bigrams) each. Its pair k is 12 and its recommended k 16; how far apart the two are
  // depends on the key (9 bits under the public one).
  const zhA = 'Debian 管理员手册介绍了如何安装和配置系统，以及如何使用 APT 工具维护软件包。';
  const zhB = 'Debian 管理员手册介绍如何安装与配置系统，以及如何使用 APT 工具来维护软件包。';
  const next = rng(25);
  const flagged = { pair: 0, auto: 0 };
  for (let i = 0; i < 10; i++) {
    const key = Array.from({ length: 16 }, () =>
      Math.floor(next() * 256)
        .toString(16)
        .padStart(2, '0'),
    ).join('');
    const fp = new sp.Fingerprinter({ key });
    const distanceUnderKey = sp.hamming(fp.fingerprint(zhA), fp.fingerprint(zhB));
    const [countA, countB] = [fp.featureCount(zhA), fp.featureCount(zhB)];
    const pairK = fp.pairK(countA, countB);
    const autoK = Math.min(fp.recommendedK(zhB), MAX_K);
    const pairK5 = fp.pairK(countA, countB, { tolerance: 0.05 });
    const autoK5 = Math.min(fp.recommendedK(zhB, { tolerance: 0.05 }), MAX_K);
    fp.free();
    for (const mode of ['pair', 'auto']) {
      const persist = join(tmp, `zh-${mode}-${i}`);
      const k = mode === 'pair' ? pairK : autoK;
      // As shipped for "pair" (wrangler.toml's K), set for "auto".
      const rt = start({
        persist,
        vars: { SIPHASH_KEY: key, ...(mode === 'auto' ? { K: 'auto' } : {}) },
      });
      try {
        const c = client(await rt.ready);
        assert.equal((await c('PUT', '/documents/zh-a', zhA)).status, 201);
        const b = await c('PUT', '/documents/zh-b', zhB);
        const found = b.body.duplicates.find((d) => d.id === 'zh-a');
        assert.equal(
          found !== undefined,
          distanceUnderKey <= k,
          `${mode}, key ${i}: ${distanceUnderKey} bits apart, k ${k}`,
        );
        if (mode === 'pair') {
          assert.equal(b.body.k, PAIR_K, 'the largest pair k, that of equal sizes');
          if (found)
            assert.deepEqual(found, { id: 'zh-a', distance: distanceUnderKey, k, earlier: true });
        } else {
          assert.equal(b.body.k, k, 'checked at its own recommended k');
          if (found)
            assert.deepEqual(found, { id: 'zh-a', distance: distanceUnderKey, earlier: true });
        }
        if (found) flagged[mode]++;
      } finally {
        await rt.dispose();
      }
      if (i > 1) continue;
      // TOLERANCE (what fp.calibrate fits) sets each pair's or text's k, streamed or JSON, and
      // stats show it.
      const tolerant = start({
        persist,
        vars: { SIPHASH_KEY: key, TOLERANCE: '0.05', ...(mode === 'auto' ? { K: 'auto' } : {}) },
      });
      try {
        const c = client(await tolerant.ready);
        const k5 = mode === 'pair' ? pairK5 : autoK5;
        assert.ok(k5 < k, `tolerance 0.05 gives ${k5}, the default ${k}`);
        for (const body of [zhB, { text: zhB }]) {
          const checked = await c('POST', '/check', body, {
            'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
          });
          assert.equal(checked.body.k, mode === 'pair' ? sp.pairK(1, 1, { tolerance: 0.05 }) : k5);
          assert.equal(
            checked.body.duplicates.some((d) => d.id === 'zh-a'),
            distanceUnderKey <= k5,
          );
        }
        assert.equal((await c('GET', '/stats')).body.tolerance, 0.05);
        assert.equal((await c('GET', '/stats')).body.k, mode);
      } finally {
        await tolerant.dispose();
      }
    }
    if (i > 1) continue;
    // A fixed K checks every text at that k instead.
    const fixedK = start({ persist: join(tmp, `zh-pair-${i}`), vars: { SIPHASH_KEY: key, K: 8 } });
    try {
      const fixed = await client(await fixedK.ready)('POST', '/check', zhB, {
        'content-type': 'text/plain',
      });
      assert.equal(fixed.body.k, 8);
      assert.equal(
        fixed.body.duplicates.some((d) => d.id === 'zh-b' && d.distance === 0),
        true,
      );
      assert.equal(
        fixed.body.duplicates.some((d) => d.id === 'zh-a'),
        distanceUnderKey <= 8,
      );
    } finally {
      await fixedK.dispose();
    }
  }
  // How often each rule flags this one short pair of scattered edits (over 1,000 random keys:
  // 56 to 60 % at the pair k 12, 91 to 93 % at the recommended 16; bench/worker-rules.mjs).
  assert.ok(flagged.pair >= 5, `pair: flagged under ${flagged.pair} of 10 keys`);
  assert.ok(flagged.auto >= 7, `auto: flagged under ${flagged.auto} of 10 keys`);
});

test('GET, DELETE, dry runs and /check', async () => {
  const got = await call('GET', '/documents/debian');
  assert.equal(got.status, 200);
  assert.equal(got.body.id, 'debian');
  assert.equal(got.body.fingerprint, hex(A));
  assert.equal(got.body.textLength, A.length);
  assert.equal(got.body.features, fingerprinter.featureCount(A), 'stored for pairK');

  // Ids are any strings: percent-encoded in the path.
  const odd = 'a/b c?d#é😀';
  assert.equal(
    (await call('POST', '/documents', { id: odd, text: `${C} Serve warm.` })).status,
    201,
  );
  assert.equal((await call('GET', `/documents/${encodeURIComponent(odd)}`)).body.id, odd);
  const del = await call('DELETE', `/documents/${encodeURIComponent(odd)}`);
  assert.deepEqual([del.status, del.body], [200, { id: odd, deleted: true }]);
  assert.equal((await call('GET', `/documents/${encodeURIComponent(odd)}`)).status, 404);
  assert.equal((await call('DELETE', `/documents/${encodeURIComponent(odd)}`)).status, 404);
  const after = await call('POST', '/check', { text: C });
  assert.deepEqual(
    after.body.duplicates,
    [{ id: 'sponge-cake', distance: 0, k: PAIR_K, earlier: true }],
    'a deleted document is not found',
  );

  const dry = await call('POST', '/documents?dryRun=1', { id: 'dry', text: B });
  assert.equal(dry.status, 200);
  assert.equal(dry.body.stored, false);
  assert.deepEqual(
    dry.body.duplicates.map((m) => m.id),
    ['debian-edited', 'debian', 'debian-copy'],
  );
  assert.equal((await call('GET', '/documents/dry')).status, 404, 'a dry run stores nothing');

  const check = await call('POST', '/check', { text: A });
  assert.equal(check.status, 200);
  assert.deepEqual(check.body.duplicates.map((m) => [m.id, m.distance]).slice(0, 2), [
    ['debian', 0],
    ['debian-copy', 0],
  ]);
  const own = await call('POST', '/check', { id: 'debian', text: A });
  assert.ok(
    !own.body.duplicates.some((m) => m.id === 'debian'),
    'an id given to /check leaves itself out',
  );
  const stats = await call('GET', '/stats');
  assert.equal(stats.body.documents, expected.size);
  assert.equal(stats.body.indexed, expected.size);
});

test('a text body streamed in small chunks, split inside UTF-8 sequences, fingerprinted as it arrives', async () => {
  // Over FLUSH_UNITS of text, so the sink hands it on in batches.
  const text = `${A} Ünïcödé 中文文本 😀👍🏽 "quoted" back\\slash\n${'tail 😀 end '.repeat(12000)}`;
  assert.ok(text.length > 2 * FLUSH_UNITS);
  const bytes = new TextEncoder().encode(text);
  const next = rng(3);
  let pos = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (pos >= bytes.length) return controller.close();
      const n = pos < 4096 ? 1 + Math.floor(next() * 7) : 1 + Math.floor(next() * 5000);
      controller.enqueue(bytes.slice(pos, pos + n));
      pos += n;
    },
  });
  const res = await call('PUT', '/documents/streamed', body, {
    'content-type': 'text/plain; charset=utf-8',
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.fingerprint, hex(text));
  assert.equal(res.body.k, PAIR_K, 'the streamed text is checked at the pair k of equal sizes');
  const stored = (await call('GET', '/documents/streamed')).body;
  assert.equal(stored.textLength, text.length);
  assert.equal(
    stored.features,
    fingerprinter.featureCount(text),
    'the stream counted its features',
  );
  expected.set('streamed', text);
});

test('bad input: 413, 400, 404, 405 with JSON errors, and the isolate keeps serving', async () => {
  const instance = (await call('GET', '/stats')).body.instance;
  const expectError = async (status, method, path, body, pattern, headers) => {
    const res = await call(method, path, body, headers);
    assert.equal(
      res.status,
      status,
      `${method} ${path} ${String(body).slice(0, 80)}: ${JSON.stringify(res.body)}`,
    );
    assert.equal(typeof res.body.error, 'string');
    assert.deepEqual(Object.keys(res.body), ['error']);
    if (pattern) assert.match(res.body.error, pattern);
    return res;
  };
  // 413: a declared length over MAX_BODY_BYTES (refused before any byte of the body is read),
  // and a chunked body that only grows past it; a JSON body past MAX_JSON_BYTES.
  const expect413 = (res) => {
    assert.equal(res.status, 413, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['error']);
    assert.match(res.body.error, /larger than/);
  };
  expect413(
    await postRefusedEarly(base, '/documents/big', { method: 'PUT', declaredLength: MAX_BODY + 1 }),
  );
  expect413(
    await postRefusedEarly(base, '/documents/big', {
      method: 'PUT',
      prefix: new TextEncoder().encode('text '),
      chunk: new Uint8Array(64 * 1024).fill(0x78),
      maxBytes: MAX_BODY * 2,
    }),
  );
  expect413(await call('POST', '/documents', { id: 'big-json', text: 'x'.repeat(MAX_JSON) }));
  // Exactly at the limits is fine.
  assert.equal(
    (await call('POST', '/check', 'y'.repeat(MAX_BODY), { 'content-type': 'text/plain' })).status,
    200,
  );
  const atLimit = JSON.stringify({ text: '' });
  assert.equal(
    (
      await call(
        'POST',
        '/check',
        `${atLimit.slice(0, -1) + ' '.repeat(MAX_JSON - atLimit.length)}}`,
        { 'content-type': 'application/json' },
      )
    ).status,
    200,
  );

  // 400: JSON, fields, types, UTF-8, ids, flags.
  const bad = [
    ['', /empty/],
    ['   ', /empty/],
    ['not json', /not valid JSON/],
    ['{"id": "x", "text": "abc"', /not valid JSON/],
    ['{"id": "x", "text": "abc"} extra', /not valid JSON/],
    ['{"id": "x", "text": "a\u0001b"}', /not valid JSON/],
    ['[]', /must be a JSON object/],
    ['"text"', /must be a JSON object/],
    ['null', /must be a JSON object/],
    ['{}', /missing "id"/],
    ['{"id": "x"}', /missing "text"/],
    ['{"text": "abc"}', /missing "id"/],
    ['{"id": 5, "text": "abc"}', /"id" must be a string/],
    ['{"id": null, "text": "abc"}', /"id" must be a string/],
    ['{"id": "x", "text": 5}', /"text" must be a string/],
    ['{"id": "x", "text": ["a"]}', /"text" must be a string/],
    ['{"id": "", "text": "abc"}', /must not be empty/],
    [JSON.stringify({ id: 'i'.repeat(257), text: 'abc' }), /longer than 256/],
    [
      Uint8Array.of(...new TextEncoder().encode('{"id":"x","text":"'), 0xc3, 0x28, 0x22, 0x7d),
      /UTF-8/,
    ],
    [`{"a": ${'['.repeat(100)}${']'.repeat(100)}}`, /nests too deep/],
  ];
  for (const [body, pattern] of bad) await expectError(400, 'POST', '/documents', body, pattern);
  await expectError(400, 'POST', '/check', '{"text": 1}', /"text" must be a string/, {
    'content-type': 'application/json',
  });
  await expectError(400, 'PUT', '/documents/x', Uint8Array.of(0x61, 0xff, 0x62), /UTF-8/);
  await expectError(400, 'PUT', `/documents/${'i'.repeat(257)}`, 'text', /longer than 256/);
  await expectError(400, 'POST', '/documents?dryRun=maybe', { id: 'x', text: 'a' }, /dryRun/);
  await expectError(400, 'GET', '/documents?limit=0', undefined, /limit/);
  await expectError(400, 'GET', '/documents/%E0%A4%A', undefined, /percent-encoding/);

  // 404: unknown routes and missing documents.
  for (const path of ['/', '/nope', '/documents/a/b', '/check/x', '/documentsx']) {
    await expectError(404, 'GET', path, undefined, /no route/);
  }
  await expectError(404, 'GET', '/documents/missing', undefined, /no document/);
  await expectError(404, 'DELETE', '/documents/missing', undefined, /no document/);

  // 405: wrong methods, with Allow.
  for (const [method, path, allow] of [
    ['GET', '/check', 'POST'],
    ['PUT', '/documents', 'GET, POST'],
    ['DELETE', '/documents', 'GET, POST'],
    ['POST', '/documents/x', 'GET, PUT, DELETE'],
    ['PATCH', '/documents/x', 'GET, PUT, DELETE'],
    ['POST', '/stats', 'GET'],
  ]) {
    const res = await expectError(
      405,
      method,
      path,
      method === 'GET' ? undefined : '{}',
      /not allowed/,
    );
    assert.equal(res.headers.get('allow'), allow);
  }

  // Nothing above changed the store, and the same isolate still answers.
  const stats = await call('GET', '/stats');
  assert.equal(stats.body.documents, expected.size);
  assert.equal(stats.body.instance, instance, 'the object was not restarted');
  assert.equal((await call('POST', '/check', { text: A })).body.duplicates[0].id, 'debian');
});

test('bounded concurrent load: 2,000 requests, 32 in flight; every acknowledged document present once', async (t) => {
  const next = rng(11);
  const docs = Array.from({ length: 1500 }, (_, i) => ({
    id: `load-${i}`,
    text: randomText(next, 30 + Math.floor(next() * 40)),
  }));
  const ops = docs.map((d) => ({ op: 'post', ...d }));
  for (let i = 0; i < 300; i++) ops.push({ op: 'post', ...docs[Math.floor(next() * docs.length)] }); // retries
  for (let i = 0; i < 200; i++)
    ops.push({ op: 'get', id: docs[Math.floor(next() * docs.length)].id });
  for (let i = ops.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [ops[i], ops[j]] = [ops[j], ops[i]];
  }
  assert.equal(ops.length, 2000);

  const t0 = performance.now();
  const results = await pool(
    ops.map(
      (o) => () =>
        o.op === 'post'
          ? call('POST', '/documents', { id: o.id, text: o.text })
          : call('GET', `/documents/${o.id}`),
    ),
    32,
  );
  const seconds = (performance.now() - t0) / 1000;
  measured.loadRequestsPerSecond = ops.length / seconds;
  t.diagnostic(
    `2,000 requests, 32 in flight: ${seconds.toFixed(2)} s, ${(ops.length / seconds).toFixed(0)} requests/s`,
  );

  const created = new Map();
  ops.forEach((o, i) => {
    const { status, body } = results[i];
    if (o.op === 'get') {
      assert.ok(status === 200 || status === 404, `GET ${o.id}: ${status}`);
      if (status === 200)
        assert.equal(body.fingerprint, hex(o.text ?? docs.find((d) => d.id === o.id).text));
      return;
    }
    assert.ok(status === 200 || status === 201, `POST ${o.id}: ${status} ${JSON.stringify(body)}`);
    assert.equal(body.id, o.id);
    assert.equal(body.fingerprint, hex(o.text));
    assert.ok(!body.duplicates.some((m) => m.id === o.id));
    if (status === 201) created.set(o.id, (created.get(o.id) ?? 0) + 1);
    expected.set(o.id, o.text);
  });
  // Serialized writes: each id was created by exactly one of its concurrent posts.
  assert.equal(created.size, docs.length);
  assert.ok([...created.values()].every((n) => n === 1));

  const ids = await listAll(call);
  assert.equal(new Set(ids).size, ids.length, 'no id listed twice');
  assert.deepEqual(ids, [...expected.keys()].sort(compareIds));
  const stats = await call('GET', '/stats');
  assert.equal(stats.body.documents, expected.size);
  assert.equal(stats.body.indexed, expected.size, 'the index holds exactly the stored documents');
  const stored = await pool(
    docs.map((d) => () => call('GET', `/documents/${d.id}`)),
    32,
  );
  docs.forEach((d, i) => assert.equal(stored[i].body.fingerprint, hex(d.text), d.id));
});

test('restart of the runtime: every document still there, queries still find them', async (t) => {
  const listed = await listAll(call);
  await mf.dispose();
  const t0 = performance.now();
  mf = start({ persist });
  base = await mf.ready;
  call = client(base);
  const first = await call('GET', '/stats'); // wakes the object: rebuilds its index from SQLite
  measured.restartFirstResponseMs = performance.now() - t0;
  measured.rebuildMs = first.body.rebuildMs;
  t.diagnostic(
    `restart to first response with ${first.body.documents} documents: ` +
      `${measured.restartFirstResponseMs.toFixed(0)} ms (index rebuilt in ${measured.rebuildMs} ms)`,
  );
  assert.equal(first.body.documents, expected.size);
  assert.equal(first.body.indexed, expected.size);
  assert.deepEqual(await listAll(call), listed);
  for (const [id, text] of expected) {
    if (!id.startsWith('load-') || id.endsWith('7')) {
      const got = await call('GET', `/documents/${encodeURIComponent(id)}`);
      assert.equal(got.body.fingerprint, hex(text), id);
    }
  }
  const near = await call('POST', '/check', { text: B });
  assert.deepEqual(
    near.body.duplicates.map((m) => m.id),
    ['debian-edited', 'debian', 'debian-copy'],
  );
  const load = await call('POST', '/check', { text: expected.get('load-42') });
  assert.equal(load.body.duplicates[0].id, 'load-42');
  assert.equal(load.body.duplicates[0].distance, 0);
  assert.equal((await call('POST', '/documents', { id: 'after-restart', text: C })).status, 201);
  expected.set('after-restart', C);
});

test('restart in the middle of a concurrent load: every acknowledged document survives', async (t) => {
  // Its own store: requests cut off by the restart may or may not have been written, which
  // the other tests' exact expectations could not allow for.
  const dir = join(tmp, 'restart-under-load');
  let runtime = start({ persist: dir });
  let base = await runtime.ready;
  const instanceBefore = (await client(base)('GET', '/stats')).body.instance;
  const next = rng(23);
  const docs = Array.from({ length: 1000 }, (_, i) => ({
    id: `r-${i}`,
    text: randomText(next, 30 + Math.floor(next() * 40)),
  }));

  // One POST; resolves to { status, body } or { error } (a cut connection, a timeout, or a
  // non-JSON answer from a runtime going down).
  const post = async (url, doc) => {
    try {
      const res = await fetch(new URL('/documents', url), {
        method: 'POST',
        headers: bearer(ALPHA),
        body: JSON.stringify(doc),
        signal: AbortSignal.timeout(30000),
      });
      const text = await res.text();
      return { status: res.status, body: JSON.parse(text) };
    } catch (error) {
      return { error };
    }
  };

  const acknowledged = new Map(); // id -> text: answered 200/201 with stored: true
  const failed = new Set(); // ids whose request failed (in flight at the restart)
  let ackedBeforeRestart = 0;
  let restarting = null;
  let inFlightAtRestart = 0;
  let inFlight = 0;
  const restart = async () => {
    ackedBeforeRestart = acknowledged.size;
    inFlightAtRestart = inFlight;
    const t0 = performance.now();
    await runtime.dispose(); // cuts whatever is in flight
    runtime = start({ persist: dir });
    base = await runtime.ready;
    t.diagnostic(
      `restarted after ${ackedBeforeRestart} acknowledgements with ${inFlightAtRestart} requests in flight; ` +
        `the new runtime was ready in ${(performance.now() - t0).toFixed(0)} ms`,
    );
  };
  let nextDoc = 0;
  const runner = async () => {
    while (nextDoc < docs.length) {
      const doc = docs[nextDoc++];
      if (restarting) await restarting;
      inFlight++;
      const res = await post(base, doc);
      inFlight--;
      if (!res.error && (res.status === 200 || res.status === 201)) {
        assert.equal(res.body.id, doc.id);
        assert.equal(res.body.fingerprint, hex(doc.text));
        assert.equal(res.body.stored, true);
        acknowledged.set(doc.id, doc.text);
      } else {
        failed.add(doc.id);
      }
      if (!restarting && acknowledged.size >= 300) restarting = restart();
    }
  };
  await Promise.all(Array.from({ length: 32 }, runner));
  await restarting;
  t.diagnostic(
    `${acknowledged.size} acknowledged, ${failed.size} failed (in flight at the restart)`,
  );
  assert.ok(restarting, 'the runtime was restarted');
  assert.ok(ackedBeforeRestart >= 300 && ackedBeforeRestart < docs.length);
  assert.ok(acknowledged.size > ackedBeforeRestart + 300, 'the load went on after the restart');
  assert.ok(failed.size <= 32, 'only requests in flight at the restart failed');
  assert.equal(acknowledged.size + failed.size, docs.length);

  // Every acknowledged document is stored with its fingerprint, listed once, indexed, and
  // found by a query for its own text.
  const call2 = client(base);
  const stats = (await call2('GET', '/stats')).body;
  assert.notEqual(stats.instance, instanceBefore, 'a new object instance answers');
  const listed = await listAll(call2);
  assert.equal(new Set(listed).size, listed.length, 'no id listed twice');
  for (const id of acknowledged.keys())
    assert.ok(listed.includes(id), `${id} acknowledged but not listed`);
  assert.equal(stats.documents, listed.length);
  assert.equal(
    stats.indexed,
    listed.length,
    'the rebuilt index holds exactly the stored documents',
  );
  const checks = await pool(
    [...acknowledged].map(([id, text]) => async () => {
      const got = await call2('GET', `/documents/${id}`);
      const found = await call2('POST', '/check', { text });
      return { id, text, got, found };
    }),
    16,
  );
  for (const { id, text, got, found } of checks) {
    assert.equal(got.status, 200, `${id} acknowledged but missing`);
    assert.equal(got.body.fingerprint, hex(text), id);
    assert.ok(
      found.body.duplicates.some((m) => m.id === id && m.distance === 0),
      `${id} not found by its own text`,
    );
  }
  // A request cut off by the restart was written entirely or not at all; retried, it lands.
  let writtenAnyway = 0;
  for (const id of failed) {
    const text = docs.find((d) => d.id === id).text;
    const got = await call2('GET', `/documents/${id}`);
    assert.ok(
      got.status === 404 || (got.status === 200 && got.body.fingerprint === hex(text)),
      `${id}: ${got.status}`,
    );
    if (got.status === 200) writtenAnyway++;
    const retry = await call2('POST', '/documents', { id, text });
    assert.ok(retry.status === 200 || retry.status === 201, `${id}: retry ${retry.status}`);
  }
  t.diagnostic(
    `of the ${failed.size} cut off, ${writtenAnyway} had been written before the restart`,
  );
  assert.deepEqual(await listAll(call2), docs.map((d) => d.id).sort(compareIds));
  await runtime.dispose();
});

test('a changed WIDTH or a bad setting is a JSON 500, never mixed fingerprints or a crash', async () => {
  await mf.dispose();
  mf = start({ persist, vars: { WIDTH: 32 } });
  base = await mf.ready;
  call = client(base);
  const post = await call('POST', '/documents', { id: 'w32', text: A });
  assert.equal(post.status, 500);
  assert.match(post.body.error, /scheme/);
  assert.equal(
    (await call('GET', '/documents/debian')).status,
    200,
    'stored documents stay readable',
  );
  await mf.dispose();

  for (const [vars, pattern] of [
    [{ K: 99 }, /K must be "pair", "auto" or a whole number from 0 to 64, not 99/],
    [{ MAX_K: 65 }, /MAX_K must be a whole number from 0 to 64/],
    [{ TOLERANCE: 'ten' }, /TOLERANCE must be a number, not "ten"/],
    // The library's own check and words.
    [{ TOLERANCE: 1.5 }, /TOLERANCE 1.5: tolerance must be a share of the text edited above 0/],
  ]) {
    mf = start({ persist: join(tmp, 'bad-config'), vars });
    base = await mf.ready;
    call = client(base);
    const bad = await call('POST', '/documents', { id: 'x', text: A });
    assert.equal(bad.status, 500);
    assert.match(bad.body.error, pattern);
    await mf.dispose();
  }

  mf = start({ persist });
  base = await mf.ready;
  call = client(base);
  assert.equal(
    (await call('GET', '/stats')).body.documents,
    expected.size,
    'nothing was written meanwhile',
  );
});

test(`300 copies of one text; a check returns the nearest ${MAX_DUPLICATES}, in storage order, truncated`, async () => {
  const copies = start({ persist: join(tmp, 'copies') });
  try {
    const s = client(await copies.ready);
    const d = distance(A, B);
    // Stored first but farther away: the exact copies come before it however many there are.
    assert.equal((await s('POST', '/documents', { id: 'near', text: B })).status, 201);
    // Stored one at a time in a scrambled order, so storage order is not id order.
    const ids = Array.from(
      { length: 300 },
      (_, i) => `copy-${String((i * 7) % 300).padStart(3, '0')}`,
    );
    for (const [i, id] of ids.entries()) {
      const res = await s('POST', '/documents', { id, text: A });
      assert.equal(res.status, 201);
      // The i copies before it and "near" (within K).
      assert.equal(res.body.duplicates.length, Math.min(i + 1, MAX_DUPLICATES));
      assert.equal(res.body.truncated, i + 1 > MAX_DUPLICATES, `post ${i}`);
    }
    // Equally near documents come in the order they were stored.
    const order = ids;
    const want = order
      .slice(0, MAX_DUPLICATES)
      .map((id) => ({ id, distance: 0, k: PAIR_K, earlier: true }));

    const check = await s('POST', '/check', { text: A });
    assert.equal(check.status, 200);
    assert.deepEqual(check.body, {
      id: null,
      fingerprint: hex(A),
      k: PAIR_K,
      duplicates: want,
      truncated: true,
      original: false,
      stored: false,
    });
    assert.deepEqual(
      (await s('POST', '/check', { text: A })).body,
      check.body,
      'the same answer again',
    );
    // Its own id is left out and the next one takes its place.
    const own = await s('POST', '/check', { id: order[0], text: A });
    assert.deepEqual(
      own.body.duplicates,
      order
        .slice(1, MAX_DUPLICATES + 1)
        .map((id) => ({ id, distance: 0, k: PAIR_K, earlier: true })),
    );
    assert.equal(own.body.truncated, true);
    // Nearer first: from B, the near-duplicate stored as "near" (distance 0) leads the copies (distance d).
    const fromB = await s('POST', '/check', { text: B });
    assert.deepEqual(fromB.body.duplicates.slice(0, 3), [
      { id: 'near', distance: 0, k: PAIR_K, earlier: true },
      ...want.slice(0, 2).map((m) => ({ ...m, distance: d, k: pairKOf(B, A) })),
    ]);
    assert.equal(fromB.body.duplicates.length, MAX_DUPLICATES);
    // With the copies deleted down to fewer than the cap, nothing is left out.
    for (const id of order.slice(0, 250))
      assert.equal((await s('DELETE', `/documents/${id}`)).status, 200);
    const rest = await s('POST', '/check', { text: A });
    assert.deepEqual(rest.body.duplicates, [
      ...order.slice(250).map((id) => ({ id, distance: 0, k: PAIR_K, earlier: true })),
      { id: 'near', distance: d, k: pairKOf(A, B), earlier: true },
    ]);
    assert.equal(rest.body.truncated, false);
  } finally {
    await copies.dispose();
  }
});

// ---- Trust (hostile input): ids that mean one row, tokens and tenants, limits, secret key ----

/** A runtime of its own, persisting under tmp/`name`, that a test can restart and dispose of. */
async function own(name, options = {}) {
  const persist = join(tmp, name);
  const rt = {
    as: (token) => client(rt.base, token),
    async restart() {
      await rt.mf.dispose();
      rt.mf = start({ persist, ...options });
      rt.base = await rt.mf.ready;
      rt.call = rt.as(ALPHA);
    },
    dispose: () => rt.mf.dispose(),
  };
  rt.mf = start({ persist, ...options });
  rt.base = await rt.mf.ready;
  rt.call = rt.as(ALPHA);
  return rt;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const item = (id) => `/documents/${encodeURIComponent(id)}`;
// The id workerd's SQLite gave back for an id with one lone surrogate (stored as 3 bytes that
// are not UTF-8, read back as 3 U+FFFD): the id the review's requests collapsed into.
const F3 = '\ufffd\ufffd\ufffd';
const LONE = /not well-formed Unicode/;

/** `text` as a stream of `size`-byte chunks (so UTF-8 sequences and escapes are split). */
function chunked(text, size) {
  const bytes = new TextEncoder().encode(text);
  let pos = 0;
  return new ReadableStream({
    pull(controller) {
      if (pos >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(pos, pos + size));
      pos += size;
    },
  });
}

/**
 * POSTs `json` in writes of `size` bytes over node:http, and stops writing if the answer comes
 * first. (A 400 found mid-body is answered once the body is in, so a reset instead of the
 * answer here means the Worker answered early and the runtime closed the connection.)
 */
function postInPieces(base, path, json, size) {
  return new Promise((resolve, reject) => {
    const bytes = Buffer.from(json);
    const req = httpRequest(new URL(path, base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(ALPHA) },
    });
    let answered = false;
    req.on('error', (e) => answered || reject(e));
    req.on('response', (res) => {
      answered = true;
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => {
        req.destroy();
        resolve({
          status: res.statusCode,
          body: JSON.parse(Buffer.concat(parts).toString('utf8')),
        });
      });
    });
    req.flushHeaders();
    let pos = 0;
    const feed = () => {
      if (answered) return;
      if (pos >= bytes.length) return void req.end();
      req.write(bytes.subarray(pos, pos + size));
      pos += size;
      setImmediate(feed);
    };
    feed();
  });
}

/** Every UTF-16 unit of `text` outside ASCII written as a \u escape (so pairs become two escapes). */
const escapeAll = (text) =>
  text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

test('ids with lone surrogates ("\\ud800", "\\udc00") are refused, not stored to come back as one id after a restart', async () => {
  const rt = await own('lone-ids');
  try {
    for (const id of [
      '\ud800',
      '\udc00',
      'a\ud800',
      '\udc00b',
      '\ud800\ud800',
      '\ude00\ud83d',
      '\ud83d\ud83d\ude00',
    ]) {
      const res = await rt.call('POST', '/documents', { id, text: C }); // JSON.stringify escapes them: \ud800
      assert.equal(res.status, 400, `${JSON.stringify(id)}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.error, LONE);
    }
    assert.match((await rt.call('POST', '/check', { id: '\udc00', text: C })).body.error, LONE);
    assert.match(
      (await rt.call('POST', '/documents?dryRun=1', { id: '\ud800', text: C })).body.error,
      LONE,
    );
    // A pair is one character, escaped or not, split across chunks or not.
    const pair = await rt.call(
      'POST',
      '/documents',
      chunked('{"id": "\\ud83d\\ude00", "text": "x"}', 1),
    );
    assert.deepEqual([pair.status, pair.body.id], [201, '😀']);
    await rt.restart();
    assert.deepEqual(await listAll(rt.call), ['😀'], 'only the acknowledged id, after a restart');
    assert.equal((await rt.call('GET', item('😀'))).body.id, '😀');
    assert.equal((await rt.call('GET', item(F3))).status, 404);
  } finally {
    await rt.dispose();
  }
});

test('DELETE answers "deleted" only when the row went: the document does not come back after a restart', async () => {
  const rt = await own('delete-means-gone');
  try {
    // The review's sequence: two lone-surrogate ids, a restart, then a DELETE of the id they read back as.
    for (const id of ['\ud800', '\udc00'])
      assert.equal((await rt.call('POST', '/documents', { id, text: A })).status, 400);
    assert.equal((await rt.call('POST', '/documents', { id: F3, text: A })).status, 201);
    await rt.restart();
    assert.deepEqual(await listAll(rt.call), [F3]);
    const del = await rt.call('DELETE', item(F3));
    assert.deepEqual([del.status, del.body], [200, { id: F3, deleted: true }]);
    assert.equal((await rt.call('DELETE', item(F3))).status, 404);
    await rt.restart();
    assert.equal((await rt.call('GET', item(F3))).status, 404, 'a deleted document stays deleted');
    assert.deepEqual(await listAll(rt.call), []);
    assert.deepEqual((await rt.call('POST', '/check', { text: A })).body.duplicates, []);
    const { documents, indexed } = (await rt.call('GET', '/stats')).body;
    assert.deepEqual([documents, indexed], [0, 0]);
  } finally {
    await rt.dispose();
  }
});

test('a store answered "stored" is readable at once and after a restart ("\\ufffd\\ufffd\\ufffd" after "\\ud800")', async () => {
  const rt = await own('stored-means-readable');
  try {
    assert.equal((await rt.call('POST', '/documents', { id: '\ud800', text: A })).status, 400);
    await rt.restart();
    const post = await rt.call('POST', '/documents', { id: F3, text: B });
    assert.deepEqual([post.status, post.body.stored], [201, true]);
    const got = await rt.call('GET', item(F3));
    assert.deepEqual(
      [got.status, got.body.id, got.body.fingerprint, got.body.textLength],
      [200, F3, hex(B), B.length],
    );
    const replaced = await rt.call('POST', '/documents', { id: F3, text: C });
    assert.deepEqual([replaced.status, replaced.body.stored], [200, true]);
    assert.equal((await rt.call('GET', item(F3))).body.fingerprint, hex(C));
    await rt.restart();
    assert.equal((await rt.call('GET', item(F3))).body.fingerprint, hex(C));
    assert.deepEqual((await rt.call('POST', '/check', { text: C })).body.duplicates, [
      { id: F3, distance: 0, k: PAIR_K, earlier: true },
    ]);
  } finally {
    await rt.dispose();
  }
});

test('ids "." and ".." are refused (no URL path names them); other dotted and odd ids round-trip, also after a restart', async () => {
  for (const id of ['.', '..']) assert.equal(addressable(id), false, id);
  const fine = [
    '...',
    '.a',
    'a.',
    '%2e',
    '%2E',
    '.%2e',
    '%2e%2e',
    './',
    '../x',
    'a/..',
    '\\',
    '\t',
    ' ',
    '?x',
    '#',
    '%',
    '😀.',
  ];
  for (const id of fine) assert.equal(addressable(id), true, JSON.stringify(id));
  const rt = await own('dot-ids');
  try {
    for (const id of ['.', '..']) {
      for (const path of ['/documents', '/documents?dryRun=1', '/check']) {
        const res = await rt.call('POST', path, { id, text: A });
        assert.equal(res.status, 400, `${path} ${id}`);
        assert.match(res.body.error, /cannot be used in a URL path/);
      }
    }
    for (const id of fine)
      assert.equal(
        (await rt.call('POST', '/documents', { id, text: `${C} ${id}` })).status,
        201,
        id,
      );
    await rt.restart();
    assert.deepEqual(await listAll(rt.call), [...fine].sort(compareIds));
    for (const id of fine) {
      const got = await rt.call('GET', item(id));
      assert.deepEqual([got.status, got.body.id], [200, id], JSON.stringify(id));
      assert.deepEqual((await rt.call('DELETE', item(id))).body, { id, deleted: true });
    }
    await rt.restart();
    assert.deepEqual(await listAll(rt.call), []);
  } finally {
    await rt.dispose();
  }
});

test('texts with lone surrogates are refused, also when \\u escapes and pairs are split across streamed chunks', async () => {
  const rt = await own('lone-texts');
  try {
    const bad = [
      'a \ud800 b',
      'ends in a high \ud83d',
      '\ude00 starts with a low',
      'high high low \ud83d\ud83d\ude00',
      'low before high \ude00\ud83d',
      `${'long '.repeat(2000)}\ud800`,
    ];
    for (const [i, text] of bad.entries()) {
      const json = escapeAll(JSON.stringify({ id: `bad-${i}`, text }));
      const sizes = json.length > 1000 ? [json.length, 999] : [json.length, 1, 5];
      for (const size of sizes) {
        const res = await postInPieces(rt.base, '/documents', json, size);
        assert.equal(res.status, 400, `${i}: ${JSON.stringify(res.body)}`);
        assert.match(res.body.error, /not well-formed Unicode: it has a lone surrogate/);
      }
    }
    // Pairs as escapes and as UTF-8, cut anywhere: the fingerprint of the text they spell.
    const good = `${A} 😀 👍🏽 中文 𝄞`;
    const json = escapeAll(JSON.stringify({ id: 'good', text: good })).replace(
      '\\ud834',
      '\\uD834',
    );
    const res = await rt.call('POST', '/documents', chunked(json, 1));
    assert.deepEqual([res.status, res.body.fingerprint], [201, hex(good)]);
    await rt.restart();
    assert.deepEqual(await listAll(rt.call), ['good'], 'nothing of the refused bodies was stored');
  } finally {
    await rt.dispose();
  }
});

test('secure by default: without TOKENS or SIPHASH_KEY, or with malformed ones, every request is refused', async () => {
  const persist = join(tmp, 'unconfigured');
  const PUBLIC_KEY = Buffer.from('simprint-sip-key').toString('hex');
  const cases = [
    [{ withSecrets: false }, /not configured: the TOKENS secret is not set/],
    [{ vars: { TOKENS: ' , ' } }, /no tenant:token entries/],
    [{ vars: { SIPHASH_KEY: '' } }, /not configured: the SIPHASH_KEY secret is not set/],
    [
      { vars: { SIPHASH_KEY: 'secret-but-not-hex-0123456789abc' } },
      /SIPHASH_KEY secret must be 32 hex digits/,
    ],
    [{ vars: { SIPHASH_KEY: PUBLIC_KEY } }, /public default key/],
    [
      { vars: { TOKENS: `alpha:${ALPHA} beta:too-short` } },
      /TOKENS entry 2: a token is at least 32/,
    ],
    [{ vars: { TOKENS: `alpha ${ALPHA}` } }, /TOKENS entry 1 is not of the form tenant:token/],
    [{ vars: { TOKENS: `Alpha/x:${ALPHA}` } }, /TOKENS entry 1: a tenant is/],
    [
      { vars: { TOKENS: `alpha:${ALPHA},beta:${ALPHA}` } },
      /TOKENS entry 2: the same token is given twice/,
    ],
    // Weak secrets: guessable keys and tokens, and values printed in the example's files.
    ...[
      '00000000000000000000000000000000',
      'ffffffffffffffffffffffffffffffff',
      'abababababababababababababababab',
    ].map((key) => [
      { vars: { SIPHASH_KEY: key } },
      /SIPHASH_KEY is one byte repeated; make one with `npm run setup`/,
    ]),
    [
      { vars: { SIPHASH_KEY: '00112233445566778899AABBCCDDEEFF' } },
      /SIPHASH_KEY is a value printed in the example's files/,
    ],
    [
      { vars: { TOKENS: `alpha:${ALPHA} beta:${'a'.repeat(32)}` } },
      /TOKENS entry 2: a token needs at least 8 different characters; make one with/,
    ],
    [
      { vars: { TOKENS: `alpha:${'ab'.repeat(24)}` } },
      /TOKENS entry 1: a token needs at least 8 different characters/,
    ],
    [
      { vars: { TOKENS: 'demo:demo-token-not-secret-0123456789abcdef' } },
      /TOKENS entry 1: the token is a value printed/,
    ],
  ];
  for (const [options, pattern] of cases) {
    const rt = start({ persist, shipped: true, ...options });
    try {
      const call = client(await rt.ready);
      for (const [method, path, body] of [
        ['POST', '/documents', { id: 'x', text: A }],
        ['GET', '/documents/x'],
        ['GET', '/stats'],
      ]) {
        const res = await call(method, path, body);
        assert.equal(
          res.status,
          500,
          `${JSON.stringify(options)} ${method} ${path}: ${JSON.stringify(res.body)}`,
        );
        assert.match(res.body.error, pattern);
        for (const secret of [
          ALPHA,
          KEY,
          'secret-but-not-hex',
          PUBLIC_KEY,
          '0'.repeat(32),
          'a'.repeat(32),
          'demo-token',
        ]) {
          assert.ok(!res.body.error.includes(secret), 'no secret in the answer');
        }
      }
    } finally {
      await rt.dispose();
    }
  }
  const rt = start({ persist, shipped: true });
  try {
    const stats = await client(await rt.ready)('GET', '/stats');
    assert.equal(stats.body.documents, 0, 'nothing was stored meanwhile');
  } finally {
    await rt.dispose();
  }
});

test('npm run setup makes a working .dev.vars with fresh random secrets, and keeps an existing one', async () => {
  const dir = join(tmp, 'setup');
  mkdirSync(dir);
  // The examples' `npm run setup` (simprint-worker-setup), run in the folder it writes into.
  const setup = join(root, 'examples', 'worker-common', 'bin', 'setup.mjs');
  const run = () => execFileSync(process.execPath, [setup], { cwd: dir, encoding: 'utf8' });
  assert.match(run(), /\.dev\.vars written/);
  const vars = readDevVars(join(dir, '.dev.vars'));
  assert.deepEqual(Object.keys(vars).sort(), ['SIPHASH_KEY', 'TOKENS']);
  assert.match(run(), /exists: kept/);
  assert.deepEqual(readDevVars(join(dir, '.dev.vars')), vars, 'a second run changes nothing');
  rmSync(join(dir, '.dev.vars'));
  run();
  const again = readDevVars(join(dir, '.dev.vars'));
  assert.notEqual(again.SIPHASH_KEY, vars.SIPHASH_KEY, 'a new file has new secrets');
  assert.notEqual(again.TOKENS, vars.TOKENS);
  const [demo, other] = vars.TOKENS.split(/[\s,]+/).map((entry) =>
    entry.slice(entry.indexOf(':') + 1),
  );
  const rt = start({ persist: join(tmp, 'dev-vars'), shipped: true, withSecrets: false, vars });
  try {
    const base = await rt.ready;
    assert.equal(
      (await client(base, demo)('POST', '/documents', { id: 'post-1', text: A })).status,
      201,
    );
    assert.equal((await client(base, demo)('GET', '/documents/post-1')).status, 200);
    assert.equal((await client(base, other)('GET', '/documents/post-1')).status, 404);
  } finally {
    await rt.dispose();
  }
});

test('401 with WWW-Authenticate: Bearer for a missing, malformed or unknown token, on every route; nothing changes', async () => {
  const routes = [
    ['POST', '/documents', { id: 'intruder', text: A }],
    ['POST', '/check', { text: A }],
    ['GET', '/documents'],
    ['GET', '/documents/debian'],
    ['DELETE', '/documents/debian'],
    ['GET', '/stats'],
    ['GET', '/nope'],
    ['PUT', '/documents', {}],
  ];
  const authorizations = [
    undefined,
    `Basic ${Buffer.from(`alpha:${ALPHA}`).toString('base64')}`,
    'Bearer',
    'Bearer ',
    `${ALPHA}`,
    `Bearer ${ALPHA}x`,
    `Bearer ${ALPHA.slice(0, -1)}`,
    `Bearer ${ALPHA.slice(0, -1)}${ALPHA.at(-1) === 'A' ? 'B' : 'A'}`,
    `Bearer ${ALPHA} ${ALPHA}`,
    `Bearer "${ALPHA}"`,
    `Bearer ${KEY}`,
    'Bearer tenant:alpha',
  ];
  const anonymous = client(base, null);
  for (const authorization of authorizations) {
    for (const [method, path, body] of routes) {
      const res = await anonymous(
        method,
        path,
        body,
        authorization === undefined ? {} : { authorization },
      );
      assert.equal(
        res.status,
        401,
        `${authorization} ${method} ${path}: ${JSON.stringify(res.body)}`,
      );
      assert.deepEqual(Object.keys(res.body), ['error']);
      assert.match(res.headers.get('www-authenticate'), /^Bearer realm="simprint"/);
    }
  }
  assert.equal(
    (await call('GET', '/documents/debian')).status,
    200,
    'the DELETEs above did nothing',
  );
  assert.equal(
    (await call('GET', '/documents/intruder')).status,
    404,
    'the POSTs above stored nothing',
  );
  // The scheme name is case-insensitive (RFC 9110).
  assert.equal(
    (await anonymous('GET', '/documents/debian', undefined, { authorization: `bearer ${ALPHA}` }))
      .status,
    200,
  );
});

test('tenants are isolated: another tenant never reads, lists, deletes or is reported a duplicate of a document', async () => {
  // alpha has two tokens (as while rotating one): both are alpha.
  const ALPHA2 = `${ALPHA.slice(0, 20)}-second-token-of-alpha`;
  for (const example of EXAMPLES) {
    const rt = await own(`tenants-${example}`, {
      example,
      vars: { TOKENS: `alpha:${ALPHA}\nbeta:${BETA}\nalpha:${ALPHA2}` },
    });
    try {
      const alpha = rt.as(ALPHA);
      const beta = rt.as(BETA);
      assert.equal((await alpha('POST', '/documents', { id: 'shared', text: A })).status, 201);
      assert.equal((await alpha('POST', '/documents', { id: 'alpha-only', text: B })).status, 201);
      for (const [method, path] of [
        ['GET', '/documents/shared'],
        ['GET', '/documents/alpha-only'],
        ['DELETE', '/documents/shared'],
      ]) {
        assert.equal((await beta(method, path)).status, 404, `beta ${method} ${path}`);
      }
      assert.deepEqual(await listAll(beta), []);
      assert.deepEqual((await beta('POST', '/check', { text: A })).body.duplicates, []);
      assert.deepEqual(
        (await beta('POST', '/documents?dryRun=1', { id: 'x', text: B })).body.duplicates,
        [],
      );
      // beta's "shared" is its own document.
      const betas = await beta('POST', '/documents', { id: 'shared', text: C });
      assert.deepEqual([betas.status, betas.body.duplicates], [201, []]);
      assert.deepEqual((await alpha('POST', '/check', { text: C })).body.duplicates, []);
      assert.equal((await alpha('GET', '/documents/shared')).body.fingerprint, hex(A));
      assert.equal((await beta('GET', '/documents/shared')).body.fingerprint, hex(C));
      assert.equal(
        (await rt.as(ALPHA2)('GET', '/documents/alpha-only')).body.fingerprint,
        hex(B),
        "alpha's second token",
      );
      assert.deepEqual((await beta('DELETE', '/documents/shared')).body, {
        id: 'shared',
        deleted: true,
      });
      await rt.restart();
      assert.deepEqual(await listAll(rt.as(ALPHA)), ['alpha-only', 'shared']);
      assert.deepEqual(await listAll(rt.as(BETA)), []);
      const [sa, sb] = [
        (await rt.as(ALPHA)('GET', '/stats')).body,
        (await rt.as(BETA)('GET', '/stats')).body,
      ];
      assert.deepEqual(
        [sa.tenant, sa.documents, sb.tenant, sb.documents],
        ['alpha', 2, 'beta', 0],
        example,
      );
    } finally {
      await rt.dispose();
    }
  }
});

test('fingerprints stay inside unless EXPOSE_FINGERPRINTS: by default no answer carries one', async () => {
  const rt = await own('hidden', { shipped: true });
  try {
    const post = await rt.call('POST', '/documents', { id: 'debian', text: A });
    assert.equal(post.status, 201);
    assert.deepEqual(Object.keys(post.body).sort(), [
      'duplicates',
      'id',
      'k',
      'original',
      'stored',
      'truncated',
    ]);
    for (const path of ['/check', '/documents?dryRun=1']) {
      const res = await rt.call('POST', path, { id: 'other', text: B });
      assert.deepEqual(
        Object.keys(res.body).sort(),
        ['duplicates', 'id', 'k', 'original', 'stored', 'truncated'],
        path,
      );
      assert.deepEqual(res.body.duplicates, [
        { id: 'debian', distance: distance(A, B), k: pairKOf(B, A), earlier: true },
      ]);
    }
    const got = await rt.call('GET', '/documents/debian');
    assert.deepEqual(Object.keys(got.body).sort(), [
      'createdAt',
      'features',
      'id',
      'textLength',
      'updatedAt',
    ]);
    const stats = (await rt.call('GET', '/stats')).body;
    assert.equal(stats.exposeFingerprints, false);
    assert.ok(!JSON.stringify(stats).includes(hex(A)));
  } finally {
    await rt.dispose();
  }
});

test('fingerprints are made under SIPHASH_KEY; the stored scheme is a digest, and changes with the key', async () => {
  const check = await call('POST', '/check', { text: A });
  assert.equal(check.body.fingerprint, hex(A));
  assert.notEqual(
    check.body.fingerprint,
    sp.toHex(sp.fingerprint(A)),
    'not the public default key',
  );
  const rt = await own('rekey');
  const other = secretsFor([], 'f0e1d2c3b4a5968778695a4b3c2d1e0f').key;
  try {
    assert.equal((await rt.call('POST', '/documents', { id: 'one', text: A })).status, 201);
    const { scheme } = (await rt.call('GET', '/stats')).body;
    assert.match(scheme, /^w64:[0-9a-f]{32}$/);
    // Neither the canary's fingerprint under the key nor under the public key shows in it.
    for (const canary of [hex(CANARY), sp.toHex(sp.fingerprint(CANARY))])
      assert.ok(!scheme.includes(canary));

    // Another key: the object refuses to mix fingerprints, but its documents stay readable.
    const rekeyed = await own('rekey', { vars: { SIPHASH_KEY: other } });
    await rt.dispose();
    try {
      const refused = await rekeyed.call('POST', '/documents', { id: 'two', text: A });
      assert.equal(refused.status, 500);
      assert.match(refused.body.error, /scheme .*SIPHASH_KEY/);
      assert.equal((await rekeyed.call('POST', '/check', { text: A })).status, 500);
      assert.equal((await rekeyed.call('GET', '/documents/one')).status, 200);
      assert.equal((await rekeyed.call('GET', '/stats')).body.scheme, 'stale');
      // Re-adding: once its old documents are deleted, the object takes the new key's scheme.
      assert.equal((await rekeyed.call('DELETE', '/documents/one')).status, 200);
      const readded = await rekeyed.call('POST', '/documents', { id: 'one', text: A });
      assert.equal(readded.status, 201);
      assert.equal(readded.body.fingerprint, sp.toHex(sp.fingerprint(A, { key: other })));
      const newScheme = (await rekeyed.call('GET', '/stats')).body.scheme;
      assert.match(newScheme, /^w64:[0-9a-f]{32}$/);
      assert.notEqual(newScheme, scheme);
      await rekeyed.restart();
      assert.equal(
        (await rekeyed.call('POST', '/check', { text: A })).body.duplicates[0].id,
        'one',
      );
    } finally {
      await rekeyed.dispose();
    }
    // And back under the first key, the object refuses again.
    const back = await own('rekey');
    try {
      assert.match((await back.call('POST', '/check', { text: A })).body.error, /scheme/);
    } finally {
      await back.dispose();
    }
  } catch (err) {
    await rt.dispose().catch(() => {});
    throw err;
  }
});

// The Worker as released before feature counts were kept (its last commit), to test an upgrade.
const PREVIOUS = '15f23b3';

test("an object stored by the previous version: its documents are checked at the asking text's own k until stored again, then at pairK; the index is replanned", async (t) => {
  // Bundle the previous version's src/ (from git) against today's packages, as wrangler would,
  // outside the repository (other tests copy examples/worker while this one runs).
  const dir = join(tmp, 'previous');
  const out = join(tmp, 'previous-bundle');
  mkdirSync(join(dir, 'src'), { recursive: true });
  symlinkSync(join(root, 'examples', 'worker', 'node_modules'), join(dir, 'node_modules'));
  for (const file of ['index.js', 'settings.js', 'store.js']) {
    const source = execFileSync('git', ['show', `${PREVIOUS}:examples/worker/src/${file}`], {
      cwd: root,
    });
    writeFileSync(join(dir, 'src', file), source);
  }
  writeFileSync(
    join(dir, 'wrangler.toml'),
    readFileSync(join(root, 'examples', 'worker', 'wrangler.toml')),
  );
  bundle(out, { config: join(dir, 'wrangler.toml') });
  const persist = join(tmp, 'upgrade');
  // The previous version read K = "auto" from wrangler.toml.
  const old = start({ persist, out, vars: { K: 'auto' } });
  try {
    const c = client(await old.ready);
    for (const [id, text] of [
      ['debian', A],
      ['sponge', C],
    ]) {
      assert.equal((await c('POST', '/documents', { id, text })).status, 201);
    }
  } finally {
    await old.dispose();
  }
  t.diagnostic(`bundled and ran ${PREVIOUS}'s src/`);

  const rt = start({ persist });
  try {
    const c = client(await rt.ready);
    assert.equal((await c('GET', '/documents/debian')).body.features, null, 'not counted then');
    let stats = (await c('GET', '/stats')).body;
    assert.deepEqual(
      [stats.documents, stats.uncounted, stats.indexK, stats.k],
      [2, 2, MAX_K, 'pair'],
    );
    // Against an uncounted document, the asking text's own recommended k.
    const before = await c('POST', '/check', { text: B });
    const k = Math.min(kOf(B), MAX_K);
    assert.equal(before.body.k, Math.max(k, PAIR_K));
    assert.deepEqual(before.body.duplicates, [
      { id: 'debian', distance: distance(A, B), k, earlier: true },
    ]);
    // Stored again, it has its count and its pair k.
    assert.equal((await c('POST', '/documents', { id: 'debian', text: A })).status, 200);
    assert.equal(
      (await c('GET', '/documents/debian')).body.features,
      fingerprinter.featureCount(A),
    );
    const after = await c('POST', '/check', { text: B });
    assert.deepEqual(after.body.duplicates, [
      { id: 'debian', distance: distance(A, B), k: pairKOf(B, A), earlier: true },
    ]);
    assert.equal((await c('GET', '/stats')).body.uncounted, 1);
    // The last uncounted one deleted: no text is checked past the pair k, and the index is
    // planned for it.
    assert.equal((await c('DELETE', '/documents/sponge')).status, 200);
    stats = (await c('GET', '/stats')).body;
    assert.deepEqual([stats.documents, stats.uncounted, stats.indexK], [1, 0, PAIR_K]);
    assert.equal((await c('POST', '/check', { text: B })).body.k, PAIR_K);
  } finally {
    await rt.dispose();
  }
  // And after a restart (the counts rebuilt from the table).
  const again = start({ persist });
  try {
    const c = client(await again.ready);
    const stats = (await c('GET', '/stats')).body;
    assert.deepEqual([stats.uncounted, stats.indexK], [0, PAIR_K]);
    assert.deepEqual((await c('POST', '/check', { text: B })).body.duplicates, [
      { id: 'debian', distance: distance(A, B), k: pairKOf(B, A), earlier: true },
    ]);
  } finally {
    await again.dispose();
  }
});

test('K = "pair": a near match refused for its size does not hide a farther one accepted, past the first page of matches', async () => {
  // Refused: A with eight new words, 9 to 11 bits from A, their pair k 8 (their sizes differ
  // by 16 %). Accepted: a copy of A's size with words substituted, 12 bits from A. More than a
  // page of the refused are nearer than the accepted one, so the object must ask for more.
  const a = fingerprinter.fingerprint(A);
  const nA = fingerprinter.featureCount(A);
  const next = rng(11);
  const word = () =>
    SYLLABLES[Math.floor(next() * SYLLABLES.length)] +
    SYLLABLES[Math.floor(next() * SYLLABLES.length)];
  const refused = [];
  while (refused.length < MAX_DUPLICATES + 20) {
    const v = `${A} ${Array.from({ length: 8 }, word).join(' ')}`;
    const d = sp.hamming(a, fingerprinter.fingerprint(v));
    const k = fingerprinter.pairK(nA, fingerprinter.featureCount(v));
    if (d >= 9 && d <= 11 && d > k) refused.push(v);
  }
  const words = A.split(' ');
  let accepted;
  while (!accepted) {
    const v = words.map((w) => (next() < 0.12 ? word() : w)).join(' ');
    if (fingerprinter.featureCount(v) === nA && sp.hamming(a, fingerprinter.fingerprint(v)) === 12)
      accepted = v;
  }
  const rt = await own('pair-pages');
  try {
    for (const [i, text] of refused.entries()) {
      assert.equal((await rt.call('POST', '/documents', { id: `r${i}`, text })).status, 201);
    }
    assert.equal(
      (await rt.call('POST', '/documents', { id: 'accepted', text: accepted })).status,
      201,
    );
    const check = await rt.call('POST', '/check', { text: A });
    assert.deepEqual(check.body.duplicates, [
      { id: 'accepted', distance: 12, k: PAIR_K, earlier: true },
    ]);
    assert.equal(check.body.truncated, false);
    assert.equal(check.body.original, false);
  } finally {
    await rt.dispose();
  }
});

test('ALGORITHM = "minhash", WIDTH = 128: the quality mode at the edge, under a scheme of its own', async () => {
  const quality = sp.defaults().quality;
  const vars = { WIDTH: quality.width, ALGORITHM: quality.algorithm };
  const mh = new sp.Fingerprinter({ ...quality, key: KEY });
  const rt = await own('minhash', { vars });
  try {
    const first = await rt.call('POST', '/documents', { id: 'debian', text: A });
    assert.equal(first.status, 201);
    assert.equal(
      first.body.fingerprint,
      sp.toHex(mh.fingerprint(A), 128),
      'the package under Node',
    );
    // MinHash's pair k of equal sizes (17 at 128 bits), not SimHash's (23).
    const pairK = (a, b) => mh.pairK(mh.featureCount(a), mh.featureCount(b));
    assert.equal(first.body.k, pairK(A, A));
    assert.notEqual(first.body.k, sp.pairK(1, 1, 128));
    const d = sp.hamming(mh.fingerprint(A), mh.fingerprint(B));
    assert.ok(d <= pairK(B, A), 'the fixture is a near-duplicate under MinHash too');
    // A text body, fingerprinted and counted as it streams in: as in one piece.
    const streamed = await rt.call('PUT', '/documents/edited', B);
    assert.equal(streamed.status, 201);
    assert.equal(streamed.body.fingerprint, sp.toHex(mh.fingerprint(B), 128));
    assert.equal(streamed.body.k, pairK(B, B));
    assert.deepEqual(streamed.body.duplicates, [
      { id: 'debian', distance: d, k: pairK(B, A), earlier: true },
    ]);
    assert.equal((await rt.call('GET', '/documents/edited')).body.features, mh.featureCount(B));
    assert.deepEqual((await rt.call('POST', '/check', { text: C })).body.duplicates, []);
    const stats = (await rt.call('GET', '/stats')).body;
    assert.equal(stats.algorithm, 'minhash');
    assert.match(stats.scheme, /^w128-minhash:[0-9a-f]{32}$/);
    await rt.restart();
    assert.deepEqual(
      (await rt.call('POST', '/check', { text: B })).body.duplicates.map((m) => m.id),
      ['edited', 'debian'],
    );
  } finally {
    await rt.dispose();
  }
  // The same object under SimHash at 128 bits: refused, not compared.
  const simhash = await own('minhash', { vars: { WIDTH: 128 } });
  try {
    const refused = await simhash.call('POST', '/check', { text: A });
    assert.equal(refused.status, 500);
    assert.match(refused.body.error, /w128-minhash:.*this deployment makes w128:.*ALGORITHM/);
  } finally {
    await simhash.dispose();
  }
  // A misspelt ALGORITHM is the library's message, as a JSON 500.
  const bad = await own('minhash-bad', { vars: { ALGORITHM: 'MinHash' } });
  try {
    const res = await bad.call('POST', '/check', { text: A });
    assert.equal(res.status, 500);
    assert.match(res.body.error, /ALGORITHM "MinHash": unknown algorithm "MinHash"/);
  } finally {
    await bad.dispose();
  }
});

test('rate limit as shipped (100 a second, bursts of 200, per tenant): a flood gets 429 with Retry-After; a refused store stores nothing', async () => {
  const rt = await own('flood', { shipped: true });
  try {
    // As many stores as it takes to outrun the refill (up to 3,000), 32 in flight.
    const results = [];
    let next = 0;
    let limited = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < 3000 && limited < 100) {
          const i = next++;
          const res = await rt.call('POST', '/documents', {
            id: `f-${i}`,
            text: `flood ${i} ${C}`,
          });
          results.push({ id: `f-${i}`, ...res });
          if (res.status === 429) limited++;
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const stored = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 429);
    assert.equal(stored.length + refused.length, results.length);
    assert.ok(
      refused.length >= 100,
      `${results.length} requests in ${seconds.toFixed(2)} s, none refused`,
    );
    assert.ok(stored.length >= 200, 'the burst passes');
    assert.ok(
      stored.length <= 200 + Math.ceil(100 * seconds) + 1,
      `${stored.length} stored in ${seconds.toFixed(2)} s`,
    );
    for (const r of refused) {
      assert.match(r.headers.get('retry-after'), /^[1-9][0-9]*$/);
      assert.deepEqual(Object.keys(r.body), ['error']);
      assert.match(r.body.error, /too many requests/);
    }
    // Another tenant has objects (and buckets) of its own.
    assert.equal((await rt.as(BETA)('POST', '/documents', { id: 'b', text: A })).status, 201);
    await sleep(1000 * Math.max(...refused.map((r) => Number(r.headers.get('retry-after')))));
    assert.deepEqual(
      await listAll(rt.call),
      stored.map((r) => r.id).sort(compareIds),
      'exactly the acknowledged stores',
    );
  } finally {
    await rt.dispose();
  }
});

for (const example of EXAMPLES) {
  test(`rate limit (${example}): one budget per tenant; RATE_LIMIT_BURST requests, then RATE_LIMIT_PER_SECOND; every route counts; a 429 writes nothing`, async () => {
    // HEAL_AFTER_MS short: a write left pending by a refusal would be finished (and seen) below.
    const rt = await own(`bucket-${example}`, {
      example,
      vars: { RATE_LIMIT_PER_SECOND: 0.5, RATE_LIMIT_BURST: 3, HEAL_AFTER_MS: 500 },
    });
    try {
      assert.equal((await rt.call('POST', '/documents', { id: 'x', text: A })).status, 201);
      assert.equal((await rt.call('GET', '/documents/y')).status, 404);
      assert.deepEqual((await rt.call('GET', '/stats')).body.rateLimit, {
        perSecond: 0.5,
        burst: 3,
      });
      const routes = [
        ['POST', '/check', { text: A }],
        ['POST', '/documents', { id: 'z', text: B }],
        ['PUT', '/documents/z', B],
        ['POST', '/documents?dryRun=1', { id: 'z', text: B }],
        ['GET', '/documents/x'],
        ['DELETE', '/documents/x'],
        ['GET', '/documents'],
        ['GET', '/stats'],
      ];
      if (example === 'worker-scale')
        routes.push(['POST', '/batch', { documents: [{ id: 'z', text: B }] }]);
      // However many objects a tenant's documents are spread over, the budget is the tenant's.
      for (const [method, path, body] of routes) {
        const res = await rt.call(method, path, body);
        assert.equal(res.status, 429, `${method} ${path}`);
        assert.equal(res.headers.get('retry-after'), '2', 'one request every 2 s');
      }
      assert.equal((await rt.as(BETA)('GET', '/documents/x')).status, 404, "beta's bucket is full");
      await sleep(2000);
      if (example === 'worker-scale') {
        // A batch costs one token per document: 2 when 1 is there is a 429 that stores neither.
        const two = await rt.call('POST', '/batch', {
          documents: [
            { id: 'z', text: B },
            { id: 'w', text: C },
          ],
        });
        assert.equal(two.status, 429, JSON.stringify(two.body));
        assert.equal(two.headers.get('retry-after'), '2');
        // More documents than a burst holds can never pass: 413, also stored nowhere.
        const four = await rt.call('POST', '/batch', {
          documents: ['p', 'q', 'r', 's'].map((id) => ({ id, text: C + id })),
        });
        assert.equal(four.status, 413, JSON.stringify(four.body));
        assert.match(four.body.error, /RATE_LIMIT_BURST/);
      }
      assert.equal(
        (await rt.call('GET', '/documents/z')).status,
        404,
        'a refused store stored nothing',
      );
      await sleep(4000);
      assert.deepEqual(
        await listAll(rt.call),
        ['x'],
        'nothing refused was written, even later (no healing of refused writes)',
      );
    } finally {
      await rt.dispose();
    }
  });
}

test("with Cloudflare's rate limiting binding (simulated by Miniflare) the Worker counts per tenant before reading the body", async () => {
  const rt = await own('binding', {
    vars: { RATE_LIMIT_PER_SECOND: 0.1, RATE_LIMIT_BURST: 1 }, // the buckets, which the binding replaces
    ratelimits: { RATE_LIMITER: { simple: { limit: 5, period: 10 } } },
  });
  try {
    // Miniflare counts in fixed 10 s windows: start early in one so all of this falls in it.
    if (Date.now() % 10000 > 6000) await sleep(10100 - (Date.now() % 10000));
    // Five pass, more than the objects' buckets (a burst of 1) would let through: they are off.
    for (let i = 0; i < 5; i++)
      assert.equal(
        (await rt.call('POST', '/documents', { id: `b-${i}`, text: A })).status,
        201,
        `${i}`,
      );
    const refused = await rt.call('GET', '/documents/b-0');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '10');
    // Refused before the body is read: a body that never ends is answered at once.
    const slow = await postSlowly(rt.base, {
      prefix: '{"id": "never", "text": "',
      intervalMs: 100,
      giveUpMs: 5000,
    });
    assert.equal(slow.status, 429);
    assert.ok(slow.ms < 2000, `${slow.ms} ms`);
    assert.equal((await rt.as(BETA)('GET', '/documents/b-0')).status, 404, 'beta counts apart');
    assert.equal((await rt.as(BETA)('GET', '/stats')).body.rateLimit, 'binding');
  } finally {
    await rt.dispose();
  }
});

/**
 * A POST whose body trickles in: the headers and `prefix`, then one byte every `intervalMs`
 * until the answer comes (or `giveUpMs` passes: { status: 'no answer' }). Resolves to
 * { status, body, ms, closed } where `closed` says whether the server closed the connection
 * within 1 s of answering while the client kept sending.
 */
function postSlowly(base, { prefix, intervalMs, giveUpMs }) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = httpRequest(new URL('/documents', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(ALPHA) },
    });
    let answer = null;
    const drip = setInterval(() => req.write('x'), intervalMs);
    const giveUp = setTimeout(
      () => finish({ status: 'no answer', ms: performance.now() - t0 }),
      giveUpMs,
    );
    const finish = (result) => {
      clearInterval(drip);
      clearTimeout(giveUp);
      req.destroy();
      resolve(result);
    };
    req.on('error', (e) => (answer ? finish({ ...answer, closed: true }) : reject(e)));
    req.on('close', () => answer && finish({ ...answer, closed: true }));
    req.on('response', (res) => {
      const ms = performance.now() - t0;
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => {
        answer = {
          status: res.statusCode,
          body: JSON.parse(Buffer.concat(parts).toString('utf8')),
          ms,
          closed: false,
        };
        clearTimeout(giveUp);
        setTimeout(() => finish(answer), 1000); // still open after 1 s of sending: not closed
      });
    });
    req.flushHeaders();
    req.write(prefix);
  });
}

test('a body that trickles in is cut off after BODY_TIMEOUT_MS with a 408; eight at once do not hold the Worker', async () => {
  const rt = await own('slow-bodies', { vars: { BODY_TIMEOUT_MS: 400 } });
  try {
    const slow = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        postSlowly(rt.base, {
          prefix: `{"id": "slow-${i}", "text": "`,
          intervalMs: 50,
          giveUpMs: 4000,
        }),
      ),
    );
    for (const res of slow) {
      assert.equal(res.status, 408, JSON.stringify(res));
      assert.match(res.body.error, /not received within 400 ms/);
      assert.ok(res.ms >= 350 && res.ms < 3000, `${res.ms} ms`);
      assert.ok(
        res.closed,
        'the upload was cut off: the connection closed under the client still sending',
      );
    }
    // Answered on time, the same runtime stores a body sent at once; nothing of the slow ones.
    assert.equal((await rt.call('POST', '/documents', { id: 'fast', text: A })).status, 201);
    assert.deepEqual(await listAll(rt.call), ['fast']);
  } finally {
    await rt.dispose();
  }
});

test('the bundle wrangler would upload runs in workerd; its size', async (t) => {
  const out = join(tmp, 'bundle');
  bundle(out);
  const files = readdirSync(out).filter((f) => f.endsWith('.js') || f.endsWith('.wasm'));
  assert.deepEqual(files.map((f) => f.split('.').pop()).sort(), ['js', 'wasm']);
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    const bytes = readFileSync(join(out, f));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
    measured[`bundle ${f.endsWith('.js') ? 'js' : 'wasm'} bytes`] = bytes.length;
  }
  measured.bundleBytes = raw;
  measured.bundleGzipBytes = gzip;
  t.diagnostic(`bundle (JS + wasm): ${raw} bytes, ${gzip} gzipped`);

  const t0 = performance.now();
  const bundled = start({ persist: join(tmp, 'bundled'), out });
  try {
    const b = client(await bundled.ready);
    const res = await b('POST', '/documents', { id: 'debian', text: A });
    measured.bundleFreshFirstResponseMs = performance.now() - t0;
    assert.equal(res.status, 201);
    assert.equal(res.body.fingerprint, hex(A));
    assert.equal((await b('POST', '/check', { text: B })).body.duplicates[0].id, 'debian');
  } finally {
    await bundled.dispose();
  }
});
