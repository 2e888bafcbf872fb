// Per-call and per-document costs of the wasm build (pkg/) under Node, beside native: documents
// cut from the mixed-text samples (bench/samples.mjs) at 100 B, 1 KB, 10 KB and 100 KB and
// fingerprinted one call each, 150-character texts, the whole 1 MB sample as one string, and
// hamming(a, b), compare(a, b) and fingerprintCounted(text) per call.
//
//     python3 scripts/corpus.py                        # fetch the corpus once
//     cargo build --release --example per_document     # the native side (optional)
//     node bench/per-document.mjs [SECONDS]            # default 10 s of rounds
//
// Warm: after a warm-up, round by round, each case once per round in a shuffled order, the
// native program run once per round too (so the two sides share the machine's moods); per
// case the median over rounds of the pass's MB/s and of its per-call p50 and p99. Cold: the
// first calls of a fresh process (a child per case, COLD_RUNS times, interleaved): the first
// call, and the p50 and p99 of the first calls over the case's documents (at most 1,000).
//
// SAMPLES=docs-en,docs-zh picks samples; PKG=DIR measures another build of the package;
// NATIVE=0 skips the native side; QUALITY=1 fingerprints in the quality mode (defaults().quality:
// one-bit MinHash at 128 bits) on both sides instead of the default options. The machine is shared: compare ratios within one run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

import { loadSample } from './samples.mjs';

const PKG = resolve(process.env.PKG ?? new URL('../pkg', import.meta.url).pathname);
const SIZES = [100, 1_000, 10_000, 100_000];
const SHORT_CHARS = 150;
const BATCH = 10_000;
// The calls too short to time one by one are timed in batches of CALLS_PER_BATCH; the median
// batch says the per-call cost without the batches another process preempted.
const CALLS_PER_BATCH = 100;
const COLD_CALLS = 1_000;
const COLD_RUNS = Number(process.env.COLD_RUNS ?? 3);
const SAMPLE_NAMES = (process.env.SAMPLES ?? 'docs-en,docs-zh').split(',');
const QUALITY = process.env.QUALITY === '1';
const NATIVE =
  process.env.NATIVE_BIN ??
  join(new URL('..', import.meta.url).pathname, 'target/release/examples/per_document');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length))) - 1];
};

// Consecutive pieces of about `size` bytes of UTF-8: each cut at the last space or newline in
// its second half, else at a character boundary, so documents end where text would.
function cut(buf, size) {
  const docs = [];
  let p = 0;
  while (p < buf.length) {
    let end = Math.min(buf.length, p + size);
    if (end < buf.length) {
      let e = end;
      while (e > p + size / 2 && buf[e - 1] !== 0x20 && buf[e - 1] !== 0x0a) e--;
      if (e > p + size / 2) end = e;
      else while ((buf[end] & 0xc0) === 0x80) end--;
    }
    docs.push(buf.subarray(p, end).toString('utf8'));
    p = end;
  }
  return docs;
}

// 150-character texts (UTF-16 code units of whole characters), one after another.
function short(text) {
  const docs = [];
  const chars = [...text];
  for (let i = 0; i + SHORT_CHARS <= chars.length; i += SHORT_CHARS) {
    docs.push(chars.slice(i, i + SHORT_CHARS).join(''));
  }
  return docs;
}

// The cases of one sample: name, documents.
function cases(sample) {
  const text = loadSample(sample);
  const buf = Buffer.from(text, 'utf8');
  return [
    [`${sample}/150 chars`, short(text)],
    ...SIZES.map((size) => [
      `${sample}/${size >= 1000 ? `${size / 1000} KB` : `${size} B`}`,
      cut(buf, size),
    ]),
    [`${sample}/one string`, [text]],
  ];
}

async function load() {
  const mod = await import(pathToFileURL(join(PKG, 'simprint.js')).href);
  mod.initSync({ module: readFileSync(join(PKG, 'simprint_bg.wasm')) });
  return mod;
}

// One pass over `docs`, each call timed: seconds of the pass and of each call.
function pass(fp, docs) {
  const calls = new Float64Array(docs.length);
  const start = performance.now();
  for (let i = 0; i < docs.length; i++) {
    const t0 = performance.now();
    fp.fingerprint(docs[i]);
    calls[i] = (performance.now() - t0) / 1000;
  }
  return { seconds: (performance.now() - start) / 1000, calls };
}

// Child mode: `--cold SAMPLE CASE`: the first calls of a fresh instance, as JSON.
if (process.argv[2] === '--cold') {
  const [, , , sample, name] = process.argv;
  const docs = cases(sample)
    .find(([n]) => n === name)[1]
    .slice(0, COLD_CALLS);
  const t0 = performance.now();
  const mod = await load();
  const init = (performance.now() - t0) / 1000;
  const fp = new mod.Fingerprinter(QUALITY ? mod.defaults().quality : undefined);
  const { calls } = pass(fp, docs);
  console.log(
    JSON.stringify({
      init,
      first: calls[0],
      p50: median(calls),
      p99: percentile(calls, 99),
      n: calls.length,
    }),
  );
  process.exit(0);
}

const MIN_SECONDS = Number(process.argv[2] ?? 10);
const mod = await load();
const fp = new mod.Fingerprinter(QUALITY ? mod.defaults().quality : undefined);
const all = SAMPLE_NAMES.flatMap(cases);

// The documents for the native program, one file per case.
const dir = join(homedir(), '.cache/simprint/bench/per-document');
mkdirSync(dir, { recursive: true });
const files = all.map(([name, docs]) => {
  const file = join(dir, `${name.replace(/[/ ]/g, '_')}.txt`);
  writeFileSync(file, docs.join('\0'));
  return file;
});
const native = process.env.NATIVE !== '0' && existsSync(NATIVE);
if (process.env.NATIVE !== '0' && !native) {
  console.error(`(no native side: build it with \`cargo build --release --example per_document\`)`);
}
let kernels = '-';

// xorshift64 pairs, the values the native program uses.
let x = 0x5eedn;
const next = () => {
  x ^= BigInt.asUintN(64, x << 13n);
  x ^= x >> 7n;
  x ^= BigInt.asUintN(64, x << 17n);
  return x;
};
const pairs = Array.from({ length: BATCH }, () => [next(), next()]);
const shortDocs = all[0][1];

const warm = Object.fromEntries(all.map(([name]) => [name, { wasm: [], native: [] }]));
const perCall = {
  hamming: [],
  compare: [],
  'fingerprint() 150 chars': [],
  'Fingerprinter 150 chars': [],
  'fingerprintCounted 150 chars': [],
};
const perCallNative = { hamming: [], compare: [] };

// The per-call cost of `call(i)`: the median over batches of CALLS_PER_BATCH calls.
function perCallOf(n, call) {
  const batches = [];
  for (let start = 0; start + CALLS_PER_BATCH <= n; start += CALLS_PER_BATCH) {
    const t0 = performance.now();
    for (let i = start; i < start + CALLS_PER_BATCH; i++) call(i);
    batches.push((performance.now() - t0) / 1000 / CALLS_PER_BATCH);
  }
  return median(batches);
}

function roundOfCalls() {
  let sink = 0;
  perCall.hamming.push(perCallOf(BATCH, (i) => (sink += mod.hamming(pairs[i][0], pairs[i][1]))));
  perCall.compare.push(
    perCallOf(BATCH, (i) => (sink += mod.compare(pairs[i][0], pairs[i][1]).distance)),
  );
  const n = Math.min(BATCH, shortDocs.length);
  perCall['fingerprint() 150 chars'].push(perCallOf(n, (i) => mod.fingerprint(shortDocs[i])));
  perCall['Fingerprinter 150 chars'].push(perCallOf(n, (i) => fp.fingerprint(shortDocs[i])));
  // What the Workers and `simprint dedup` call per document (the pair rule needs the count).
  perCall['fingerprintCounted 150 chars'].push(
    perCallOf(n, (i) => (sink += fp.fingerprintCounted(shortDocs[i]).features)),
  );
  if (sink === 0) throw new Error('no distances');
}

function runNative() {
  const out = spawnSync(NATIVE, ['1', ...files], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (out.status !== 0) throw new Error(`native side failed: ${out.stderr}`);
  for (const line of out.stdout.trim().split('\n')) {
    const r = JSON.parse(line);
    if (r.kernels) kernels = r.kernels;
    else if (r.file) warm[all[files.indexOf(r.file)][0]].native.push(r);
    else {
      perCallNative.hamming.push(r.hamming);
      perCallNative.compare.push(r.compare);
    }
  }
}

// Warm-up: JIT and wasm tier-up.
const warmUntil = performance.now() + 2000;
while (performance.now() < warmUntil) {
  for (const [, docs] of all) pass(fp, docs);
  roundOfCalls();
}
let rounds = 0;
const start = performance.now();
while (rounds < 5 || performance.now() - start < MIN_SECONDS * 1000) {
  const order = [...all.keys()].sort(() => Math.random() - 0.5);
  for (const i of order) {
    const [name, docs] = all[i];
    const { seconds, calls } = pass(fp, docs);
    const bytes = docs.reduce((n, d) => n + Buffer.byteLength(d), 0);
    warm[name].wasm.push({ bytes, seconds, p50: median(calls), p99: percentile(calls, 99) });
  }
  roundOfCalls();
  if (native) runNative();
  rounds++;
}

// Cold: children, interleaved by run.
const cold = Object.fromEntries(all.map(([name]) => [name, []]));
for (let run = 0; run < COLD_RUNS; run++) {
  for (const [name] of all) {
    const sample = name.split('/')[0];
    const out = spawnSync(
      process.execPath,
      [new URL(import.meta.url).pathname, '--cold', sample, name],
      {
        encoding: 'utf8',
        env: { ...process.env },
      },
    );
    if (out.status !== 0) throw new Error(`cold run failed: ${out.stderr}`);
    cold[name].push(JSON.parse(out.stdout));
  }
}

const us = (s) => (s * 1e6).toFixed(s < 1e-6 ? 3 : s < 1e-5 ? 2 : 1);
const mbps = (rs) => median(rs.map((r) => r.bytes / r.seconds / 1e6));
const rows = [];
for (const [name, docs] of all) {
  const w = warm[name];
  const n = w.native.length > 0;
  const c = cold[name];
  rows.push([
    name,
    String(docs.length),
    mbps(w.wasm).toFixed(1),
    us(median(w.wasm.map((r) => r.p50))),
    us(median(w.wasm.map((r) => r.p99))),
    n ? mbps(w.native).toFixed(1) : '-',
    n ? us(median(w.native.map((r) => r.p50))) : '-',
    n ? (mbps(w.wasm) / mbps(w.native)).toFixed(2) : '-',
    n ? (median(w.native.map((r) => r.p50)) / median(w.wasm.map((r) => r.p50))).toFixed(2) : '-',
    us(median(c.map((r) => r.first))),
    us(median(c.map((r) => r.p50))),
    us(median(c.map((r) => r.p99))),
    String(c[0].n),
  ]);
}
const header = [
  'case',
  'docs',
  'wasm MB/s',
  'p50 µs',
  'p99 µs',
  'native MB/s',
  'native p50 µs',
  'wasm/native',
  'p50 ratio',
  'cold 1st µs',
  'cold p50 µs',
  'cold p99 µs',
  'cold calls',
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) =>
  r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(
  `simprint wasm (${PKG}) under Node ${process.version}, ${rounds} rounds of every case; ` +
    `native kernels: ${kernels} (baseline x86-64 build); medians over rounds, cold over ${COLD_RUNS} fresh processes`,
);
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of rows) console.log(line(r));
console.log(
  '\nMB/s: the pass over every document (preempted calls included); p50 ratio: native p50 / wasm p50, ' +
    "the per-document figure the machine's load disturbs least.",
);
console.log(
  `per call (median of batches of ${CALLS_PER_BATCH} calls, median over rounds; hamming/compare: 64-bit BigInts):`,
);
for (const [name, xs] of Object.entries(perCall)) {
  const nat = perCallNative[name];
  console.log(
    `  ${name.padEnd(24)} ${us(median(xs)).padStart(7)} µs` +
      (nat?.length ? `   native ${us(median(nat))} µs` : ''),
  );
}
