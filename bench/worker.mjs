// Measures the Cloudflare Worker example (examples/worker/) as it would ship: bundles it with
// wrangler (deploy --dry-run), runs the bundle in workerd through Miniflare on loopback, and
// prints the bundle size, the time to first response of fresh runtimes and requests/s. Every
// request carries a bearer token (the Worker's secrets are made fresh for the run); the
// objects' rate limit is off, since the point is how much one object can serve.
//
//   source scripts/lib.sh && setup_path && node bench/worker.mjs [documents=20000]
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { client } from './http.mjs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { bundle, offline, secretsFor, workerOptions } from '../tests/support/workers.mjs';

const { tmp, Miniflare, fromToml } = await offline('simprint-worker-bench-');
const secrets = secretsFor(['bench']);
const AUTHORIZATION = `Bearer ${secrets.tokens.bench}`;
const DOCUMENTS = Number(process.argv[2] ?? 20000);
const IN_FLIGHT = 32;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function bundleSizes(minify) {
  const out = join(tmp, minify ? 'bundle-min' : 'bundle');
  bundle(out, { minify });
  const sizes = {};
  for (const f of readdirSync(out).filter((name) => /\.(js|wasm)$/.test(name))) {
    const bytes = readFileSync(join(out, f));
    const kind = f.endsWith('.wasm') ? 'wasm' : 'js';
    sizes[kind] = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  }
  return { out, sizes };
}

function start(out, persist) {
  return new Miniflare(workerOptions(fromToml, out, {
    bindings: { ...secrets.bindings, RATE_LIMIT_PER_SECOND: 0 },
    persist,
  }));
}

const request = client({ maxSockets: IN_FLIGHT, authorization: AUTHORIZATION });

async function rate(label, n, job) {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < n) {
      const i = next++;
      const res = await job(i);
      if (res.status >= 300) throw new Error(`${label}: ${res.status} ${res.body}`);
    }
  }));
  const perSecond = n / ((performance.now() - t0) / 1000);
  console.log(`${label.padEnd(58)} ${perSecond.toFixed(0).padStart(6)} requests/s`);
}

// Distinct texts: 60-120 words made of random syllables (about 3,000 distinct words), so
// documents are not near-duplicates of each other, as in most real traffic.
let seed = 1;
const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'sat', 'vo', 'qui', 'der', 'an', 'tor', 'bel', 'ix', 'nu', 'pra', 'sel'];
const word = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('');
const text = () => Array.from({ length: 60 + Math.floor(random() * 60) }, word).join(' ');

try {
  const plain = bundleSizes(false);
  const min = bundleSizes(true);
  for (const [label, { sizes }] of [['bundle', plain], ['bundle --minify', min]]) {
    const raw = sizes.js.raw + sizes.wasm.raw;
    const gz = sizes.js.gzip + sizes.wasm.gzip;
    console.log(`${label.padEnd(16)} JS ${sizes.js.raw} B (${sizes.js.gzip} gzip) + wasm ${sizes.wasm.raw} B ` +
      `(${sizes.wasm.gzip} gzip) = ${raw} B, ${gz} B gzipped`);
  }

  const firsts = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const mf = start(plain.out, join(tmp, `cold-${i}`));
    const base = await mf.ready;
    const first = await request(base, 'POST', '/documents', { id: 'first', text: text() });
    firsts.push(performance.now() - t0);
    if (first.status !== 201) throw new Error(`first POST: ${first.status} ${first.body}`);
    await mf.dispose();
  }
  console.log(`fresh runtime to first response (new Miniflare, workerd start, first POST): median ` +
    `${median(firsts).toFixed(0)} ms of ${firsts.map((x) => x.toFixed(0)).join(', ')}`);

  const persist = join(tmp, 'load');
  let mf = start(plain.out, persist);
  let base = await mf.ready;
  console.log(`\n${IN_FLIGHT} requests in flight, workerd through Miniflare on loopback:`);
  await rate('GET /stats (routing + one Durable Object call)', 3000, () => request(base, 'GET', '/stats'));
  await rate(`POST /documents, new ids, up to ${DOCUMENTS} stored`, DOCUMENTS,
    (i) => request(base, 'POST', '/documents', { id: `doc-${i}`, text: text() }));
  await rate(`POST /check against ${DOCUMENTS} documents`, 3000, () => request(base, 'POST', '/check', { text: text() }));
  await rate('GET /documents/:id', 3000, (i) => request(base, 'GET', `/documents/doc-${i % DOCUMENTS}`));

  await mf.dispose();
  const t0 = performance.now();
  mf = start(plain.out, persist);
  base = await mf.ready;
  const stats = JSON.parse((await request(base, 'GET', '/stats')).body);
  console.log(`\nrestart with ${stats.documents} documents to first response: ${(performance.now() - t0).toFixed(0)} ms ` +
    `(index rebuilt from SQLite in ${stats.rebuildMs} ms; index memory ${stats.memoryBytes} bytes, ` +
    `${(stats.memoryBytes / stats.documents).toFixed(0)} per document)`);
  await mf.dispose();
} finally {
  request.close();
  rmSync(tmp, { recursive: true, force: true });
}
