// What the quality mode (128-bit fingerprints at their recommended k) costs in the index, in
// the wasm build (pkg/) under Node: bench/quality_index.rs's measurement (a million random
// 128-bit fingerprints; per k the plan, bytes per fingerprint, build time, median and p99 of
// 1,000 queries, half a stored fingerprint with up to k/2 bits flipped, half random).
//
//     node bench/quality-index.mjs     # SIMPRINT_KS=22,26,30 for other k, SIMPRINT_N for N,
//                                      # SIMPRINT_SUBSTRINGS=8 for a multi-index plan of 8
//                                      # substrings instead of the planner's (0: a scan)
//     SIMPRINT_REAL=1 node bench/quality-index.mjs   # real text instead of random values
//
// With SIMPRINT_REAL=1 the fingerprints are the quality mode's (defaults().quality) of N
// overlapping 1,200-character windows of the mixed-text samples (bench/samples.mjs; near
// neighbours abound), and the queries half stored ones with up to k/2 bits flipped, half windows
// between two stored ones.
import { readFileSync } from 'node:fs';

import { Fingerprinter, Index, defaults, initSync } from '../pkg/simprint.js';
import { splitmix64 } from '../tests/js/support.mjs';
import { SAMPLES, loadSample } from './samples.mjs';

initSync({ module: readFileSync(new URL('../pkg/simprint_bg.wasm', import.meta.url)) });

const KS = (process.env.SIMPRINT_KS ?? '22,26,30').split(',').map(Number);
const N = Number(process.env.SIMPRINT_N ?? 1_000_000);
const QUERIES = 1000;
const SUBSTRINGS = process.env.SIMPRINT_SUBSTRINGS;
const planOptions =
  SUBSTRINGS === undefined
    ? {}
    : SUBSTRINGS === '0'
      ? { scan: true }
      : { substrings: Number(SUBSTRINGS) };

// A seeded set, not the native run's values.
const next = splitmix64(0x5eed0128n);
const MASK = (1n << 64n) - 1n;

const REAL = process.env.SIMPRINT_REAL === '1';
const WINDOW = 1200;
const text = REAL ? Object.keys(SAMPLES).map(loadSample).join('\n') : '';
const step = Math.max(1, Math.floor((text.length - WINDOW) / N));
const fp = REAL ? new Fingerprinter(defaults().quality) : null;
const windowAt = (i, shift = 0) =>
  fp.fingerprint(text.slice(i * step + shift, i * step + shift + WINDOW));

const words = new BigUint64Array(2 * N); // two words per fingerprint, high first
for (let i = 0; i < N; i++) {
  const v = REAL ? windowAt(i) : (next() << 64n) | next();
  words[2 * i] = v >> 64n;
  words[2 * i + 1] = v & MASK;
}
const ids = new Float64Array(N).map((_, i) => i);
const value = (i) => (words[2 * i] << 64n) | words[2 * i + 1];
const queries = [];
for (let i = 0; i < QUERIES; i++) {
  const other = REAL
    ? windowAt(Number(next() % BigInt(N - 1)), step >> 1)
    : (next() << 64n) | next();
  queries.push(i % 2 ? other : value(Number(next() % BigInt(N))));
}

const percentile = (xs, p) => xs.sort((a, b) => a - b)[Math.round((xs.length - 1) * p)];
console.log(
  `simprint index, wasm (pkg/) under Node ${process.version}; width 128, N = ${N}${REAL ? ` quality-mode fingerprints of real text (windows every ${step} characters)` : ' random'}; ${QUERIES} queries`,
);
console.log(
  '  k | plan                         | bytes/fp | build s | median µs |  p99 µs | matches',
);
for (const k of KS) {
  let t = performance.now();
  const index = new Index({ width: 128, k, ...planOptions });
  index.insertMany(ids, words);
  const build = (performance.now() - t) / 1000;
  const plan = index.plan();
  const times = [];
  let matches = 0;
  let flips = BigInt(k);
  for (const [i, q0] of queries.entries()) {
    let q = q0;
    if (i % 2 === 0) {
      flips = (flips * 6364136223846793005n + 1442695040888963407n) & MASK;
      for (let f = 0n; f < flips % BigInt(Math.floor(k / 2) + 1); f++)
        q ^= 1n << ((flips >> (8n + f)) % 128n);
    }
    t = performance.now();
    matches += index.query(q).length;
    times.push((performance.now() - t) * 1000);
  }
  const name = plan.blocks?.length ? `${plan.kind}, ${plan.blocks.length} blocks` : plan.kind;
  console.log(
    `${String(k).padStart(3)} | ${name.padEnd(28)} | ${(index.memoryBytes() / N).toFixed(1).padStart(8)} | ` +
      `${build.toFixed(1).padStart(7)} | ${percentile(times, 0.5).toFixed(1).padStart(9)} | ` +
      `${percentile(times, 0.99).toFixed(1).padStart(7)} | ${matches}`,
  );
  index.free();
}
