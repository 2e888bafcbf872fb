// The index in the wasm build (pkg/) under Node: the measurements of bench/index.rs
// (build, memory, query median and p99, linear scan, all pairs, bytes round trip) on the same
// random and real-text sets, at 100k and 1M fingerprints, k = 3, width 64.
//
//     cargo bench --bench index     # writes the real-text fingerprints this reads
//     node bench/index.mjs
//
// The random set and the queries come from the same splitmix64 seeds as the native bench, so
// they are bit-identical to it (both print the first and last random value to compare); the
// real-text set is the native bench's cache file. Reports medians: the machine is shared.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

import { Index, initSync, scan } from "../pkg/simprint.js";

initSync({ module: readFileSync(new URL("../pkg/simprint_bg.wasm", import.meta.url)) });

const K = 3;
const SIZES = [100_000, 1_000_000];
const QUERIES = 20_000;
const SCAN_QUERIES = 100;
// Runs of the all-pairs and bytes round-trip measurements (median reported).
const RUNS = 3;

// The seeds of bench/index.rs.
const RANDOM_SEED = 0x5eed0001n;
const QUERY_SEED = 0x5eed0002n;

const largest = SIZES[SIZES.length - 1];
const cachePath = join(homedir(), `.cache/simprint/bench/realtext-${largest}.u64`);

// splitmix64 in BigInt arithmetic, exactly as the Rust bench computes it.
function splitmix64(seed) {
  let state = seed;
  const next = () => {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  };
  // Uniform in 0..n by multiply-shift, as in Rust.
  const below = (n) => Number((next() * BigInt(n)) >> 64n);
  return { next, below };
}

function randomSet(n) {
  const rng = splitmix64(RANDOM_SEED);
  const out = new BigUint64Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.next();
  return out;
}

function readRealText() {
  let bytes;
  try {
    bytes = readFileSync(cachePath);
  } catch (e) {
    console.error(`cannot read ${cachePath}: ${e.message}`);
    console.error("Run `cargo bench --bench index` first: it writes the real-text fingerprints.");
    process.exit(1);
  }
  if (bytes.length !== largest * 8) {
    console.error(`${cachePath} holds ${bytes.length} bytes, not ${largest * 8}.`);
    console.error("Run `cargo bench --bench index` again to rewrite it.");
    process.exit(1);
  }
  // DataView reads little-endian whatever the platform's byte order.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const out = new BigUint64Array(largest);
  for (let i = 0; i < largest; i++) out[i] = view.getBigUint64(i * 8, true);
  return out;
}

// Alternating: a stored fingerprint with 0–3 distinct random bits flipped, then a random value.
function makeQueries(fps, count) {
  const rng = splitmix64(QUERY_SEED);
  const out = [];
  for (let i = 0; i < count; i++) {
    if (i % 2 === 1) {
      out.push(rng.next());
      continue;
    }
    const base = fps[rng.below(fps.length)];
    const flips = rng.below(4);
    let mask = 0n;
    let set = 0;
    while (set < flips) {
      const bit = 1n << BigInt(rng.below(64));
      if ((mask & bit) === 0n) set++;
      mask |= bit;
    }
    out.push(base ^ mask);
  }
  return out;
}

const sorted = (xs) => Float64Array.from(xs).sort();
function median(xs) {
  const s = sorted(xs);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
// Nearest rank.
function percentile(xs, p) {
  const s = sorted(xs);
  const rank = Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length)));
  return s[rank - 1];
}

const now = () => process.hrtime.bigint();
const us = (t0, t1) => Number(t1 - t0) / 1e3;
const ms = (t0, t1) => Number(t1 - t0) / 1e6;

// Median milliseconds of RUNS runs of f, and its last result (earlier ones go to `discard`).
function medianMs(f, discard = () => {}) {
  const times = [];
  let last;
  for (let r = 0; r < RUNS; r++) {
    if (last !== undefined) discard(last);
    const t0 = now();
    last = f();
    times.push(ms(t0, now()));
  }
  return [median(times), last];
}

function build(ids, fps) {
  const t0 = now();
  const index = new Index({ k: K });
  index.insertMany(ids, fps);
  return [ms(t0, now()), index];
}

// One column of a set's table: the measurements at one size.
function measure(fps) {
  const n = fps.length;
  const ids = new Uint32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const [build1, first] = build(ids, fps);
  first.free();
  const [build2, index] = build(ids, fps);
  if (index.size !== n) throw new Error(`index holds ${index.size}, not ${n}`);
  const plan = index.plan();

  const qs = makeQueries(fps, QUERIES);
  // Warm-up, so the JIT and the wasm tier-up are done before timing.
  let hits = 0;
  for (const q of qs) hits += index.query(q).length;
  const times = new Float64Array(QUERIES);
  for (let i = 0; i < QUERIES; i++) {
    const t0 = now();
    index.query(qs[i]);
    times[i] = us(t0, now());
  }
  let t0 = now();
  for (const q of qs) index.query(q);
  const mean = us(t0, now()) / QUERIES;
  const near = times.filter((_, i) => i % 2 === 0);
  const random = times.filter((_, i) => i % 2 === 1);

  // The scan is the reference: the index must find exactly what it finds.
  const scanTimes = [];
  for (const q of qs.slice(0, SCAN_QUERIES)) {
    const t0 = now();
    const found = scan(q, fps, K);
    scanTimes.push(us(t0, now()));
    const byIndex = index.query(q).length;
    if (found.length !== byIndex) {
      throw new Error(`index and scan disagree on ${q.toString(16)}: ${byIndex} vs ${found.length}`);
    }
  }

  const [pairsMs, pairs] = medianMs(() => index.pairs().length);
  const [toMs, bytes] = medianMs(() => index.toBytes());
  const [fromMs, loaded] = medianMs(
    () => Index.fromBytes(bytes),
    (l) => l.free(),
  );
  if (loaded.size !== n) throw new Error(`fromBytes gave ${loaded.size}, not ${n}`);
  const memory = index.memoryBytes() / n;
  loaded.free();
  index.free();

  return [
    build1.toFixed(1),
    build2.toFixed(1),
    `${plan.blocks.length} blocks, ${plan.tables.length} tables`,
    memory.toFixed(1),
    median(times).toFixed(2),
    percentile(times, 99).toFixed(2),
    mean.toFixed(2),
    median(near).toFixed(2),
    median(random).toFixed(2),
    (hits / QUERIES).toFixed(2),
    median(scanTimes).toFixed(0),
    (median(scanTimes) / median(times)).toFixed(0),
    pairsMs.toFixed(1),
    String(pairs),
    toMs.toFixed(1),
    fromMs.toFixed(1),
    String(bytes.length),
  ];
}

const ROWS = [
  "build, run 1 (ms)",
  "build, run 2 (ms)",
  "plan",
  "memory per fingerprint (bytes)",
  "query median (µs)",
  "query p99 (µs)",
  "query mean, one loop (µs)",
  "query median, stored ±0–3 bits (µs)",
  "query median, random (µs)",
  "matches per query (mean)",
  "linear scan median (µs)",
  "scan median / query median",
  "all pairs (ms)",
  "pairs within 3",
  "toBytes (ms)",
  "fromBytes (ms)",
  "bytes length",
];

function printTable(title, columns) {
  const rows = [["measure", ...columns.map(([n]) => `N = ${n}`)]];
  ROWS.forEach((name, r) => rows.push([name, ...columns.map(([, c]) => c[r])]));
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(`\n${title}`);
  console.log(line(rows[0]));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows.slice(1)) console.log(line(row));
}

const realtext = readRealText();
const random = randomSet(largest);
const overhead = [];
for (let i = 0; i < 10_000; i++) {
  const t0 = now();
  overhead.push(us(t0, now()));
}
const hex = (v) => `0x${v.toString(16).padStart(16, "0")}`;
console.log(
  `simprint index, wasm (pkg/) under Node ${process.version}; k = ${K}, width 64; ${QUERIES} queries ` +
    `(half stored ±0–3 bits, half random), scan over ${SCAN_QUERIES}, pairs and bytes median of ${RUNS}`,
);
console.log(`timer overhead per timed query: ${median(overhead).toFixed(3)} µs (median)`);
console.log(`random set check: fps[0] = ${hex(random[0])}, fps[${largest - 1}] = ${hex(random[largest - 1])}`);
console.log(`real text: ${largest} fingerprints from ${cachePath}`);

for (const [title, set] of [
  ["random (splitmix64)", random],
  ["real text (clustered): windows of en.txt + zh.txt", realtext],
]) {
  // The smaller sets are prefixes of the largest, as natively.
  const columns = SIZES.map((n) => [n, measure(set.subarray(0, n))]);
  printTable(title, columns);
}
