// Linear scans in wasm (pkg/) under Node: `scan` and `distances` over 2^20 fingerprints, at
// several k, 64 and 128 bits. Each call includes copying the BigUint64Array into wasm memory,
// as every caller pays it.
//
//     node bench/scan.mjs [SECONDS]     # SECONDS of interleaved repeats per case, default 0.5
//
// The cases run interleaved round by round (the machine is shared and noisy), and the table
// gives the median comparisons/s and the ratio to the k = 3 scan.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { distances, initSync, scan } from '../pkg/simprint.js';

initSync({ module: readFileSync(new URL('../pkg/simprint_bg.wasm', import.meta.url)) });

const MIN_SECONDS = Number(process.argv[2] ?? 0.5);
const MIN_REPEATS = 9;
const N = 1 << 20;

// xorshift64: the same haystack as bench/peers.mjs, with the query 3 bits from one entry.
let x = 0x5eedn;
const next = () => {
  x ^= BigInt.asUintN(64, x << 13n);
  x ^= x >> 7n;
  x ^= BigInt.asUintN(64, x << 17n);
  return x;
};
const fps64 = new BigUint64Array(N);
for (let i = 0; i < N; i++) fps64[i] = next();
const q64 = fps64[N >> 1] ^ 0b1011n;
// 128-bit: two words per fingerprint, most significant first.
const fps128 = new BigUint64Array(2 * N);
for (let i = 0; i < 2 * N; i++) fps128[i] = next();
const q128 = ((fps128[N] << 64n) | fps128[N + 1]) ^ 0b1011n;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const cases = [];
for (const k of [0, 3, 6, 9, 20]) {
  cases.push({ name: `scan 64-bit k = ${k}`, run: () => scan(q64, fps64, k).length });
}
cases.push({ name: 'distances 64-bit', run: () => distances(q64, fps64).length });
for (const k of [3, 20]) {
  cases.push({ name: `scan 128-bit k = ${k}`, run: () => scan(q128, fps128, k, 128).length });
}

// Warm-up (JIT and wasm tier-up), then interleaved rounds.
const warmUntil = performance.now() + Math.max(200, 250 * MIN_SECONDS);
do for (const c of cases) c.run();
while (performance.now() < warmUntil);
const times = cases.map(() => []);
const start = performance.now();
while (
  times[0].length < MIN_REPEATS ||
  performance.now() - start < MIN_SECONDS * 1000 * cases.length
) {
  cases.forEach((c, i) => {
    const t0 = performance.now();
    c.run();
    times[i].push((performance.now() - t0) / 1000);
  });
}

const rates = times.map((t) => N / median(t));
const yardstick = rates[cases.findIndex((c) => c.name === 'scan 64-bit k = 3')];
const rows = cases.map((c, i) => [
  c.name,
  rates[i].toExponential(3),
  `${(rates[i] / yardstick).toFixed(2)}x`,
]);
const header = ['case', 'comparisons/s', 'vs k = 3 scan'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) =>
  r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(
  `simprint scans in wasm (pkg/) under Node ${process.version}, ${N} fingerprints, medians of ${times[0].length} rounds`,
);
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of rows) console.log(line(r));
