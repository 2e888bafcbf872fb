// The index in the wasm build (pkg/) under Node: the measurements of bench/index.rs (build,
// memory, query median and p99, the linear scan, all pairs, loading from bytes) on the same
// million random and million real-text fingerprints (and their mix) and the same queries, at
// k = 3, 6, 9, 12, 15 and 18 (width 64), the k cases interleaved round by round.
//
//     cargo bench --bench index     # writes the sets, queries and match counts this reads
//     node bench/index.mjs          # SIMPRINT_KS=3,9 for other k; SIMPRINT_PLANS=1 to time
//                                   # every candidate plan and fit the cost model (wasm);
//                                   # SIMPRINT_WIDTH=128 with it for the 128-bit prices (the
//                                   # native sweep at that width writes the set first)
//
// Every query's match count must equal the native run's (written beside the sets): the two
// builds answer alike. Reports medians: the machine is shared.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import { Index, initSync, scan } from '../pkg/simprint.js';
import { splitmix64 } from '../tests/js/support.mjs';

initSync({ module: readFileSync(new URL('../pkg/simprint_bg.wasm', import.meta.url)) });

const KS = (process.env.SIMPRINT_KS ?? '3,6,9,12,15,18').split(',').map(Number);
const N = Number(process.env.SIMPRINT_N ?? 1_000_000);
const QUERIES = 10_000;
const ROUNDS = 5;
const SCAN_QUERIES = 50;
// As bench/index.rs: "all" for every k, "none" for query-only runs.
const PAIRS_KS = { all: KS, none: [] }[process.env.SIMPRINT_PAIRS] ?? [3, 9];

const cacheDir = join(homedir(), '.cache/simprint/bench');

function readU64(name, count) {
  const path = join(cacheDir, name);
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    console.error(`cannot read ${path}: ${e.message}`);
    console.error('Run `cargo bench --bench index` first: it writes the sets and queries.');
    process.exit(1);
  }
  if (bytes.length !== count * 8) {
    console.error(`${path} holds ${bytes.length} bytes, not ${count * 8}: rerun the native bench.`);
    process.exit(1);
  }
  // DataView reads little-endian whatever the platform's byte order.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const out = new BigUint64Array(count);
  for (let i = 0; i < count; i++) out[i] = view.getBigUint64(i * 8, true);
  return out;
}

function readCounts(name) {
  const bytes = readFileSync(join(cacheDir, name));
  return new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
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

function describe(plan) {
  const radii = plan.tables.map((t) => t.radius).join(',');
  const bits = plan.tables[0]?.keyBits ?? 0;
  switch (plan.kind) {
    case 'scan':
      return 'scan';
    case 'permuted':
      return `perm ${plan.blocks.length}b, ${plan.tables.length} × ${bits}-bit`;
    case 'multiIndex':
      return `MIH ${plan.blocks.length} × ${bits}-bit r ${radii}`;
    default:
      return `comb ${plan.blocks.length}b ${plan.tables.length} × ${plan.tables[0].blocks.length} r ${radii}`;
  }
}

function build(options, ids, fps) {
  const t0 = now();
  const index = new Index({ width: 64, ...options });
  index.insertMany(ids, fps);
  return [ms(t0, now()), index];
}

function measureSet(name, fps, queries) {
  const n = fps.length;
  const ids = new Uint32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const cases = KS.map((k) => {
    const [buildMs, index] = build({ k }, ids, fps);
    if (index.size !== n) throw new Error(`index holds ${index.size}, not ${n}`);
    return { k, index, buildMs, times: [], counts: new Uint32Array(QUERIES), scans: [] };
  });
  // Warm-up, so the JIT and the wasm tier-up are done before timing.
  for (const c of cases) for (let i = 0; i < QUERIES; i += 10) c.index.query(queries[i]);
  const perRound = Math.ceil(QUERIES / ROUNDS);
  for (let r = 0; r < ROUNDS; r++) {
    for (const c of cases) {
      for (let i = r * perRound; i < Math.min(QUERIES, (r + 1) * perRound); i++) {
        const t0 = now();
        const found = c.index.query(queries[i]);
        c.times.push(us(t0, now()));
        c.counts[i] = found.length;
      }
    }
  }
  for (const q of queries.slice(0, SCAN_QUERIES)) {
    for (const c of cases) {
      const t0 = now();
      const found = scan(q, fps, c.k);
      c.scans.push(us(t0, now()));
      if (found.length !== c.index.query(q).length) {
        throw new Error(`index and scan disagree on ${q.toString(16)} at k = ${c.k}`);
      }
    }
  }
  for (const c of cases) {
    // The native run's counts: both builds must find the same.
    const native = readCounts(`counts-${name}-${QUERIES}-k${c.k}.u32`);
    const differ = c.counts.findIndex((x, i) => x !== native[i]);
    if (differ >= 0) {
      throw new Error(
        `k = ${c.k}, query ${differ}: ${c.counts[differ]} matches, natively ${native[differ]}`,
      );
    }
    if (PAIRS_KS.includes(c.k)) {
      // A limit of one still visits every pair (counted natively), holding one.
      const t0 = now();
      c.index.pairs(c.k, 1);
      c.pairsMs = ms(t0, now());
    }
    const bytes = c.index.toBytes();
    const t0 = now();
    const loaded = Index.fromBytes(bytes);
    c.fromBytesMs = ms(t0, now());
    loaded.free();
  }
  return cases;
}

const ROWS = [
  'plan',
  'build (ms)',
  'memory per fingerprint (bytes)',
  'query median (µs)',
  'query p99 (µs)',
  'p99 / median',
  'query median, stored ±0–3 bits (µs)',
  'query median, random (µs)',
  'matches per query (mean)',
  'scan median (µs)',
  'scan / query median',
  'all pairs (ms)',
  'fromBytes (ms)',
];

function column(c) {
  const n = c.index.size;
  const query = median(c.times);
  const p99 = percentile(c.times, 99);
  // A case's times are in query order: even positions are the near queries, as natively.
  const near = c.times.filter((_, i) => i % 2 === 0);
  const random = c.times.filter((_, i) => i % 2 === 1);
  const matches = c.counts.reduce((a, b) => a + b, 0) / QUERIES;
  const scanMedian = median(c.scans);
  return [
    describe(c.index.plan()),
    c.buildMs.toFixed(0),
    (c.index.memoryBytes() / n).toFixed(1),
    query.toFixed(2),
    p99.toFixed(2),
    (p99 / query).toFixed(1),
    median(near).toFixed(2),
    median(random).toFixed(2),
    matches.toFixed(2),
    scanMedian.toFixed(0),
    (scanMedian / query).toFixed(0),
    c.pairsMs === undefined ? '-' : c.pairsMs.toFixed(0),
    c.fromBytesMs.toFixed(0),
  ];
}

function printTable(title, header, rows) {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i].length)));
  const line = (row) =>
    row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

function printCases(title, cases) {
  const columns = cases.map(column);
  const rows = ROWS.map((name, r) => [name, ...columns.map((c) => c[r])]);
  printTable(title, ['measure', ...cases.map((c) => `k = ${c.k}`)], rows);
  for (const c of cases) c.index.free();
}

// Every plan the planner weighs at each k, timed on the same queries, and the cost model's
// constants fitted to them by relative error (as bench/index.rs does natively). At width 128
// `fps` holds two words a fingerprint, the high one first.
function sweepPlans(fps, queries, width = 64) {
  const n = width === 128 ? fps.length / 2 : fps.length;
  const ids = new Uint32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const qs = queries.slice(0, 2000);
  const rows = [];
  const points = [];
  const near = [];
  for (const k of KS) {
    // At most 8 tables, counted before building: wasm memory holds 4 GB.
    const choose = (n, r) => (r < 0 || r > n ? 0 : r === 0 ? 1 : (choose(n - 1, r - 1) * n) / r);
    const options = [];
    for (let b = k + 1; b <= k + 3; b++) if (choose(b, k) <= 8) options.push({ k, blocks: b });
    for (let m = 1; m <= 10; m++) options.push({ k, substrings: m });
    for (let b = 3; b <= 12; b++) {
      for (let c = 2; c < b; c++)
        if (choose(b, c) <= 8) options.push({ k, blocks: b, keyBlocks: c });
    }
    const scanCost = new Index({ width, k, scan: true });
    scanCost.insertMany(ids, fps);
    // At 64 bits the plans priced under a scan; at 128 twice that, since the 64-bit
    // constants misprice wider plans, which is what a sweep at 128 bits is for.
    const limit = scanCost.plan().estimate.nanos * (width === 128 ? 2 : 1);
    scanCost.free();
    const autoPlan = (() => {
      const index = new Index({ width, k });
      index.insertMany(ids, fps);
      const d = describe(index.plan());
      index.free();
      return d;
    })();
    const chosen = [];
    for (const o of options) {
      let index;
      try {
        index = new Index({ width, ...o });
      } catch {
        continue;
      }
      index.insertMany(ids, fps);
      const plan = index.plan();
      const duplicate = chosen.some((c) => describe(c.plan) === describe(plan));
      const combinedAtZero = plan.kind === 'combined' && plan.tables[0].radius === 0;
      if (plan.tables.length > 8 || plan.estimate.nanos >= limit || duplicate || combinedAtZero) {
        index.free();
        continue;
      }
      chosen.push({ index, plan, times: [] });
    }
    if (width === 128) {
      // The scan too, timed beside the tables: its query over n is wasm's scan price.
      const index = new Index({ width, k, scan: true });
      index.insertMany(ids, fps);
      chosen.push({ index, plan: index.plan(), times: [] });
    }
    for (const c of chosen) for (const q of qs.slice(0, 200)) c.index.query(q);
    const per = Math.ceil(qs.length / ROUNDS);
    for (let r = 0; r < ROUNDS; r++) {
      for (const c of chosen) {
        for (const q of qs.slice(r * per, (r + 1) * per)) {
          const t0 = now();
          c.index.query(q);
          c.times.push(Number(now() - t0));
        }
      }
    }
    const fastest = Math.min(
      ...chosen.filter((c) => c.plan.kind !== 'scan').map((c) => median(c.times)),
    );
    for (const c of chosen) {
      const measured = median(c.times);
      if (c.plan.kind === 'scan') {
        console.log(
          `k = ${k}: scan ${(measured / 1000).toFixed(1)} µs, scan_ns = ${(measured / n).toFixed(3)}`,
        );
        c.index.free();
        continue;
      }
      const terms = [0, 0, 0];
      for (const t of c.plan.tables) {
        const cands = t.radius >= t.bucketBits ? n : (t.probes * n) / 2 ** t.bucketBits;
        terms[0] += t.probes;
        terms[t.folded ? 2 : 1] += cands;
      }
      points.push([terms, measured]);
      // A table read whole (radius at least its bucket bits) is a scan by another name,
      // whose candidates stream at a scan's rate: not what a probe's are.
      const whole = c.plan.tables.some((t) => t.radius >= t.bucketBits);
      if (measured <= 2 * fastest && !whole) near.push([terms, measured]);
      const d = describe(c.plan);
      rows.push([
        String(k),
        d + (d === autoPlan ? ' (auto)' : ''),
        String(c.plan.tables.length),
        c.plan.estimate.probes.toFixed(0),
        c.plan.estimate.candidates.toFixed(0),
        (c.plan.estimate.nanos / 1000).toFixed(1),
        (measured / 1000).toFixed(1),
      ]);
      c.index.free();
    }
  }
  printTable(
    `every plan at N = ${n} (random set; median of ${qs.length} queries)`,
    ['k', 'plan', 'tables', 'probes', 'candidates', 'model µs', 'measured µs'],
    rows,
  );
  fitAndPrint(`over ${points.length} plans`, points);
  // The plans within twice the fastest of their k, but those reading a table whole: those the
  // planner's choice is made among, which a fit over every plan (dominated by plans of
  // thousands of probes) misprices. The 128-bit prices are this fit.
  fitAndPrint(
    `over the ${near.length} plans within twice the fastest of their k (no table read whole)`,
    near,
  );
}

// Least squares by relative error for t = probe·p + check·c + folded·f.
function fitAndPrint(title, points) {
  const m = [0, 1, 2].map(() => [0, 0, 0, 0]);
  for (const [a, t] of points) {
    const w = 1 / (t * t);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) m[i][j] += w * a[i] * a[j];
      m[i][3] += w * a[i] * t;
    }
  }
  for (let i = 0; i < 3; i++) {
    let p = i;
    for (let r = i + 1; r < 3; r++) if (Math.abs(m[r][i]) > Math.abs(m[p][i])) p = r;
    [m[i], m[p]] = [m[p], m[i]];
    for (let r = 0; r < 3; r++) {
      if (r === i || m[i][i] === 0) continue;
      const f = m[r][i] / m[i][i];
      for (let c = i; c < 4; c++) m[r][c] -= f * m[i][c];
    }
  }
  const x = m.map((row, i) => row[3] / row[i]);
  console.log(
    `fit by relative error ${title}: PROBE_NS = ${x[0].toFixed(1)}, ` +
      `CHECK_NS = ${x[1].toFixed(2)}, CHECK_FOLDED_NS = ${x[2].toFixed(2)}`,
  );
}

const random = readU64(`random-${N}.u64`, N);
const realtext = readU64(`realtext-${N}.u64`, N);
// Written by index.rs (a tenth real text, nine tenths random), not rebuilt here.
const mixed = readU64(`mixed-${N}.u64`, N);
const hex = (v) => `0x${v.toString(16).padStart(16, '0')}`;
if (process.env.SIMPRINT_PLANS && process.env.SIMPRINT_WIDTH === '128') {
  // Written by `SIMPRINT_PLANS=1 SIMPRINT_WIDTH=128 cargo bench --bench index`; queries drawn
  // here as the native sweep draws them: half a stored value with 0 to 3 bits flipped, half
  // random (not the same draws).
  const words = readU64(`random128-${N}.u64`, 2 * N);
  const next = splitmix64(0x5eed0002n);
  const queries = [];
  for (let i = 0; i < 2000; i++) {
    if (i % 2) {
      queries.push((next() << 64n) | next());
      continue;
    }
    const j = Number(next() % BigInt(N));
    let q = (words[2 * j] << 64n) | words[2 * j + 1];
    for (let f = Number(next() % 4n); f > 0; f--) q ^= 1n << (next() % 128n);
    queries.push(q);
  }
  sweepPlans(words, queries, 128);
  process.exit(0);
}
if (process.env.SIMPRINT_PLANS) {
  sweepPlans(random, readU64(`queries-random-${QUERIES}.u64`, QUERIES));
  process.exit(0);
}
const overhead = [];
for (let i = 0; i < 10_000; i++) {
  const t0 = now();
  overhead.push(us(t0, now()));
}
console.log(
  `simprint index, wasm (pkg/) under Node ${process.version}; N = ${N}, width 64, k = ${KS.join(', ')}; ` +
    `${QUERIES} queries (half stored ±0–3 bits, half random) in ${ROUNDS} rounds over every k; ` +
    `scans over ${SCAN_QUERIES}; pairs at k = ${PAIRS_KS.join(', ')}`,
);
console.log(`timer overhead per timed query: ${median(overhead).toFixed(3)} µs (median)`);
console.log(`random set check: fps[0] = ${hex(random[0])}, fps[${N - 1}] = ${hex(random[N - 1])}`);

for (const [name, title, set] of [
  ['random', 'random (splitmix64)', random],
  ['realtext', 'real text (clustered): windows of en.txt + zh.txt', realtext],
  ['mixed', 'mixed: a tenth real text (clustered), nine tenths random', mixed],
]) {
  const queries = Array.from(readU64(`queries-${name}-${QUERIES}.u64`, QUERIES));
  printCases(`${title}, N = ${N}`, measureSet(name, set, queries));
}
