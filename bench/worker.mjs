// Measures the Cloudflare Worker example with one object per tenant (examples/worker/) as it
// would ship: bundles it with wrangler (deploy --dry-run), runs the bundle in workerd through
// Miniflare on loopback, and prints the bundle size, the time to first response of fresh
// runtimes and requests/s. Then its capacity: one object holding `capacity` documents (written
// straight into its SQLite table, as if stored one by one), restarted: the time to its first
// response and to rebuild its index, the isolate's JavaScript heap (V8's own count, through
// workerd's inspector) and the package's WebAssembly memory, which together are what a
// Worker's 128 MB limit counts, and checks/s and stores/s at that size. Every request carries
// a bearer token (secrets made fresh for the run); the rate limit is off, since the point is
// how much one object can serve.
//
//   source scripts/lib.sh && setup_path && node bench/worker.mjs [documents=20000] [capacity=1200000]
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { client } from './http.mjs';
import { syllableWord } from '../tests/js/support.mjs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import sp from '../tests/js/load.mjs';

import {
  bundle,
  offline,
  secretsFor,
  workerDir,
  workerOptions,
} from '../tests/support/workers.mjs';

const { tmp, Miniflare, fromToml } = await offline('simprint-worker-bench-');
const secrets = secretsFor(['bench']);
const AUTHORIZATION = `Bearer ${secrets.tokens.bench}`;
const DOCUMENTS = Number(process.argv[2] ?? 20000);
const CAPACITY = Number(process.argv[3] ?? 1200000);
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

function start(out, persist, extra = {}) {
  return new Miniflare(
    workerOptions(fromToml, out, {
      bindings: { ...secrets.bindings, RATE_LIMIT_PER_SECOND: 0 },
      persist,
      ...extra,
    }),
  );
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address();
        server.close(() => resolve(port));
      });
  });

/** V8's heap usage of every isolate workerd's inspector at `port` lists: [{ title, usage }]. */
async function heapUsage(port) {
  const { default: WebSocket } = await import(join(workerDir, 'node_modules', 'ws', 'index.js'));
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  return Promise.all(
    targets.map(
      (target) =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(target.webSocketDebuggerUrl);
          ws.once('error', reject);
          ws.once('open', () => ws.send(JSON.stringify({ id: 1, method: 'Runtime.getHeapUsage' })));
          ws.on('message', (data) => {
            const message = JSON.parse(String(data));
            if (message.id !== 1) return;
            ws.close();
            resolve({ title: target.title, usage: message.result ?? message.error });
          });
        }),
    ),
  );
}

/** Every SQLite file under `dir` whose schema has a `documents` table: the object's storage. */
function objectDatabases(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...objectDatabases(path));
    else if (entry.name.endsWith('.sqlite') && statSync(path).size > 0) {
      const tables = execFileSync(
        'python3',
        [
          '-c',
          'import sqlite3,sys; print(",".join(r[0] for r in sqlite3.connect(sys.argv[1]).execute("select name from sqlite_master")))',
          path,
        ],
        { encoding: 'utf8' },
      );
      if (tables.split(',').includes('documents')) found.push(path);
    }
  }
  return found;
}

/**
 * Adds `n` documents to the object's table (ids c-0 …, numbers after the one stored, random
 * 64-bit fingerprints: unrelated texts; feature counts of 50 to 110, as the texts sent have),
 * in one transaction, as stores one by one would leave it.
 */
function fillTable(db, n) {
  execFileSync(
    'python3',
    [
      '-c',
      `
import random, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
start = db.execute('select coalesce(max(num), -1) + 1 from documents').fetchone()[0]
rng = random.Random(7)
rows = ((f'c-{i}', start + i, format(rng.getrandbits(64), '016x'), 700, rng.randint(50, 110), 1764000000000, 1764000000000) for i in range(int(sys.argv[2])))
with db:
    db.executemany('insert into documents (id, num, fingerprint, text_length, features, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)', rows)
print(db.execute('select count(*) from documents').fetchone()[0])
`,
      db,
      String(n),
    ],
    { encoding: 'utf8' },
  );
}

const request = client({ maxSockets: IN_FLIGHT, authorization: AUTHORIZATION });

async function rate(label, n, job) {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < n) {
        const i = next++;
        const res = await job(i);
        if (res.status >= 300) throw new Error(`${label}: ${res.status} ${res.body}`);
      }
    }),
  );
  const perSecond = n / ((performance.now() - t0) / 1000);
  console.log(`${label.padEnd(58)} ${perSecond.toFixed(0).padStart(6)} requests/s`);
}

// Distinct texts: 60-120 words made of random syllables (about 3,000 distinct words), so
// documents are not near-duplicates of each other, as in most real traffic.
let seed = 1;
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
const word = () => syllableWord(random);
const text = () => Array.from({ length: 60 + Math.floor(random() * 60) }, word).join(' ');

try {
  const plain = bundleSizes(false);
  const min = bundleSizes(true);
  for (const [label, { sizes }] of [
    ['bundle', plain],
    ['bundle --minify', min],
  ]) {
    const raw = sizes.js.raw + sizes.wasm.raw;
    const gz = sizes.js.gzip + sizes.wasm.gzip;
    console.log(
      `${label.padEnd(16)} JS ${sizes.js.raw} B (${sizes.js.gzip} gzip) + wasm ${sizes.wasm.raw} B ` +
        `(${sizes.wasm.gzip} gzip) = ${raw} B, ${gz} B gzipped`,
    );
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
  console.log(
    `fresh runtime to first response (new Miniflare, workerd start, first POST): median ` +
      `${median(firsts).toFixed(0)} ms of ${firsts.map((x) => x.toFixed(0)).join(', ')}`,
  );

  const persist = join(tmp, 'load');
  let mf = start(plain.out, persist);
  let base = await mf.ready;
  console.log(`\n${IN_FLIGHT} requests in flight, workerd through Miniflare on loopback:`);
  await rate('GET /stats (routing + one Durable Object call)', 3000, () =>
    request(base, 'GET', '/stats'),
  );
  await rate(`POST /documents, new ids, up to ${DOCUMENTS} stored`, DOCUMENTS, (i) =>
    request(base, 'POST', '/documents', { id: `doc-${i}`, text: text() }),
  );
  await rate(`POST /check against ${DOCUMENTS} documents`, 3000, () =>
    request(base, 'POST', '/check', { text: text() }),
  );
  await rate('GET /documents/:id', 3000, (i) =>
    request(base, 'GET', `/documents/doc-${i % DOCUMENTS}`),
  );

  await mf.dispose();
  const t0 = performance.now();
  mf = start(plain.out, persist);
  base = await mf.ready;
  const stats = JSON.parse((await request(base, 'GET', '/stats')).body);
  console.log(
    `\nrestart with ${stats.documents} documents to first response: ${(performance.now() - t0).toFixed(0)} ms ` +
      `(index rebuilt from SQLite in ${stats.rebuildMs} ms; index memory ${stats.memoryBytes} bytes, ` +
      `${(stats.memoryBytes / stats.documents).toFixed(0)} per document)`,
  );
  await mf.dispose();

  // Capacity: the object above with CAPACITY documents more, restarted with the inspector on.
  const [db] = objectDatabases(persist);
  if (!db) throw new Error(`no SQLite file with a documents table under ${persist}`);
  fillTable(db, CAPACITY);
  const inspectorPort = await freePort();
  const t1 = performance.now();
  mf = start(plain.out, persist, { inspectorPort });
  base = await mf.ready;
  const big = JSON.parse((await request(base, 'GET', '/stats')).body);
  const ready = performance.now() - t1;
  const heaps = await heapUsage(inspectorPort);
  const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
  console.log(
    `\none object with ${big.documents} documents (K ${JSON.stringify(big.k)}, MAX_K ${big.maxK}, ` +
      `the index planned for k = ${big.indexK}; texts checked at ` +
      `min(${big.k === 'pair' ? 'pairK' : 'recommendedK'}, collectionK = ${sp.collectionK(big.documents)}) here):`,
  );
  console.log(
    `  restart to first response: ${ready.toFixed(0)} ms (index rebuilt from SQLite in ${big.rebuildMs} ms)`,
  );
  console.log(
    `  index ${mb(big.memoryBytes)} (${(big.memoryBytes / big.documents).toFixed(1)} bytes per document); ` +
      `the package's WebAssembly memory ${mb(big.wasmMemoryBytes)}`,
  );
  for (const { title, usage } of heaps) {
    console.log(
      `  isolate ${JSON.stringify(title)}: JavaScript heap used ${mb(usage.usedSize)} of ${mb(usage.totalSize)}` +
        (usage.backingStorageSize !== undefined
          ? `, array buffers ${mb(usage.backingStorageSize)}`
          : '') +
        `; with the WebAssembly memory ${mb(usage.usedSize + big.wasmMemoryBytes)} of the 128 MB a Worker may use`,
    );
  }
  await rate(`POST /check against ${big.documents} documents`, 3000, () =>
    request(base, 'POST', '/check', { text: text() }),
  );
  await rate(`PUT /documents/:id, new ids, onto ${big.documents}`, 2000, (i) =>
    request(base, 'POST', '/documents', { id: `new-${i}`, text: text() }),
  );
  await mf.dispose();
} finally {
  request.close();
  rmSync(tmp, { recursive: true, force: true });
}
