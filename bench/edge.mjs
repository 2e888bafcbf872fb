// Measures the Worker past one object (examples/worker-scale: routing by key, its src/routing.js) as it
// would ship: the wrangler bundle in workerd through Miniflare on loopback, loaded through
// POST /batch with `documents` documents, once per number of objects. Reports the load rate,
// checks/s, check latency (p50, p99), sub-requests and objects per check (the Worker's
// x-simprint-* headers), candidates read per check, storage per document (the objects' SQLite
// sizes), the index memory of objects answering from memory, and workerd's resident memory.
//
//   source scripts/lib.sh && setup_path && node bench/edge.mjs [documents=1000000] [objects=1,16,64] [memoryDocuments=100000]
//
// Texts are 30 to 60 words of random syllables; one check in four is a near copy of a stored
// text (a few words changed), the rest new text.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { client } from './http.mjs';
import { syllableWord } from '../tests/js/support.mjs';
import { join } from 'node:path';

import { bundle, offline, scaleDir, secretsFor, workerOptions } from '../tests/support/workers.mjs';

const { tmp, Miniflare, fromToml } = await offline('simprint-edge-bench-', scaleDir);
// One feature key for every run (made here, not printed): near-duplicates among the random
// texts depend on it, so with a fresh key per run 'near copies found' moved by a fifth.
const secrets = secretsFor(
  ['bench'],
  createHash('sha256').update('simprint bench/edge.mjs').digest('hex').slice(0, 32),
);
const AUTHORIZATION = `Bearer ${secrets.tokens.bench}`;
const DOCUMENTS = Number(process.argv[2] ?? 1_000_000);
const OBJECTS = (process.argv[3] ?? '1,16,64').split(',').map(Number);
const MEMORY_DOCUMENTS = Number(process.argv[4] ?? 100_000);
const BATCH = 1000;
const CHECKS = 2000;
const IN_FLIGHT = 16;
const LOADERS = Number(process.env.LOADERS ?? 4); // batches in flight while loading

function start(out, persist, objects) {
  return new Miniflare(
    workerOptions(fromToml, out, {
      bindings: {
        ...secrets.bindings,
        RATE_LIMIT_PER_SECOND: 0,
        OBJECTS: objects,
        MEMORY_DOCUMENTS,
        MAX_BATCH_DOCUMENTS: BATCH,
        MAX_BODY_BYTES: 8 << 20,
      },
      persist,
    }),
  );
}

const request = client({ maxSockets: IN_FLIGHT, authorization: AUTHORIZATION });
// Batches take seconds each where objects answer from SQLite: a connection each (see http.mjs).
const load = client({ maxSockets: LOADERS, authorization: AUTHORIZATION, keepAlive: false });

let seed = 1;
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
const word = () => syllableWord(random);
const words = () => Array.from({ length: 30 + Math.floor(random() * 30) }, word);

/** Resident memory (kB) of the workerd processes this Node process started. */
function workerdRssKb() {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      if (!/^Name:\s*workerd/m.test(status)) continue;
      const ppid = Number(/^PPid:\s*(\d+)/m.exec(status)[1]);
      if (ppid !== process.pid) continue;
      total += Number(/^VmRSS:\s*(\d+)/m.exec(status)[1]);
    } catch {
      // a process that went away
    }
  }
  return total;
}

const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

const out = join(tmp, 'bundle');
bundle(out, { dir: scaleDir });
const results = [];
try {
  for (const objects of OBJECTS) {
    seed = 1;
    const mf = start(out, join(tmp, `objects-${objects}`), objects);
    const base = await mf.ready;
    // Keep a sample of stored texts for near-copy checks.
    const sample = [];
    let loaded = 0;
    let nextBatch = 0;
    const batches = Math.ceil(DOCUMENTS / BATCH);
    const t0 = performance.now();
    let lastReport = t0;
    await Promise.all(
      Array.from({ length: LOADERS }, async () => {
        while (nextBatch < batches) {
          const b = nextBatch++;
          const documents = [];
          for (let i = b * BATCH; i < Math.min(DOCUMENTS, (b + 1) * BATCH); i++) {
            const w = words();
            if (i % 1000 === 0) sample.push(w);
            documents.push({ id: `doc-${i}`, text: w.join(' ') });
          }
          const res = await load(base, 'POST', '/batch', { documents });
          if (res.status !== 200) throw new Error(`batch ${b}: ${res.status} ${res.body}`);
          loaded += documents.length;
          if (performance.now() - lastReport > 30000) {
            lastReport = performance.now();
            console.error(
              `  ${objects} objects: ${loaded} loaded, ${(loaded / ((lastReport - t0) / 1000)).toFixed(0)}/s`,
            );
          }
        }
      }),
    );
    const loadSeconds = (performance.now() - t0) / 1000;
    const before = JSON.parse((await request(base, 'GET', '/stats')).body);
    // Checks: one in four a near copy of a stored text.
    const lat = [];
    const calls = [];
    const touched = [];
    let found = 0;
    let next = 0;
    const c0 = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < CHECKS) {
          const i = next++;
          let w;
          if (i % 4 === 0) {
            w = [...sample[i % sample.length]];
            w[Math.floor(random() * w.length)] = word();
          } else w = words();
          const res = await request(base, 'POST', '/check', { text: w.join(' ') });
          if (res.status !== 200) throw new Error(`check: ${res.status} ${res.body}`);
          lat.push(res.ms);
          calls.push(res.calls);
          touched.push(res.objects);
          if (JSON.parse(res.body).duplicates.length > 0) found++;
        }
      }),
    );
    const checksPerSecond = CHECKS / ((performance.now() - c0) / 1000);
    // Latency alone: one check at a time.
    const serial = [];
    for (let i = 0; i < 300; i++)
      serial.push((await request(base, 'POST', '/check', { text: words().join(' ') })).ms);
    const stats = JSON.parse((await request(base, 'GET', '/stats')).body);
    const statsMs = [];
    for (let i = 0; i < 20; i++) statsMs.push((await request(base, 'GET', '/stats')).ms);
    const r = {
      objects,
      documents: stats.documents,
      loadPerSecond: Math.round(stats.documents / loadSeconds),
      checksPerSecond: Math.round(checksPerSecond),
      p50ms: +pct(lat, 0.5).toFixed(1),
      p99ms: +pct(lat, 0.99).toFixed(1),
      serialP50ms: +pct(serial, 0.5).toFixed(1),
      serialP99ms: +pct(serial, 0.99).toFixed(1),
      subrequestsPerCheck: +(calls.reduce((a, b) => a + b, 0) / calls.length).toFixed(2),
      maxObjectsPerCheck: Math.max(...touched),
      nearCopiesFound: `${found} of ${CHECKS}`,
      candidatesPerCheck: Math.round(
        (stats.perObject.reduce((a, o) => a + o.candidates, 0) -
          before.perObject.reduce((a, o) => a + o.candidates, 0)) /
          (CHECKS + 300),
      ),
      objectsInSql: stats.perObject.filter((o) => !o.inMemory).length,
      heldPerObjectMax: Math.max(...stats.perObject.map((o) => o.held)),
      sqlBytesPerDocument: Math.round(stats.sqlBytes / stats.documents),
      sqlBytesPerObjectMax: Math.max(...stats.perObject.map((o) => o.sqlBytes)),
      indexMemoryPerObjectMax: Math.max(...stats.perObject.map((o) => o.memoryBytes)),
      statsFanOutMs: +pct(statsMs, 0.5).toFixed(1),
      workerdRssMB: Math.round(workerdRssKb() / 1024),
    };
    console.log(JSON.stringify(r));
    results.push(r);
    await mf.dispose();
    rmSync(join(tmp, `objects-${objects}`), { recursive: true, force: true });
  }
} finally {
  request.close();
  load.close();
  rmSync(tmp, { recursive: true, force: true });
}
