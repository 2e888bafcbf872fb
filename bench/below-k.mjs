// bench/below_k.rs in the wasm build (pkg/) under Node: an index built for the largest k its
// queries will ask (12), asked within smaller k, on the sets and queries `cargo bench --bench
// index` writes; medians of the rounds, the k cases interleaved. With BASE=DIR another build
// of the package is timed beside this one in the same process, case by case in turn, and the
// match counts of the two must agree.
//
//     cargo bench --bench index                 # writes the sets and queries once
//     node bench/below-k.mjs                    # SIMPRINT_K=12 SIMPRINT_QUERY_KS=0,3,6,9,11,12
//     BASE=/path/to/other/pkg node bench/below-k.mjs
//     SIMPRINT_ONE_BY_ONE=1 node bench/below-k.mjs   # filled one insert at a time, then compacted
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

const ROUNDS = 5;
const K = Number(process.env.SIMPRINT_K ?? 12);
const QUERY_KS = (process.env.SIMPRINT_QUERY_KS ?? '0,3,6,9,11,12')
  .split(',')
  .map(Number)
  .filter((k) => k <= K);
// One `insert` a fingerprint, as a Worker's store or `simprint dedup` grows (several
// segments), timed again after `compact()`.
const ONE_BY_ONE = process.env.SIMPRINT_ONE_BY_ONE === '1';
const builds = [['this', resolve(new URL('../pkg', import.meta.url).pathname)]];
if (process.env.BASE) builds.unshift(['base', resolve(process.env.BASE)]);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function readU64(name) {
  const path = join(homedir(), '.cache/simprint/bench', name);
  try {
    const b = readFileSync(path);
    return new BigUint64Array(b.buffer, b.byteOffset, b.length / 8);
  } catch (e) {
    console.error(`cannot read ${path}: ${e.message}`);
    console.error('Run `cargo bench --bench index` first: it writes the sets and queries.');
    process.exit(1);
  }
}

const modules = [];
for (const [name, dir] of builds) modules.push([name, await import(join(dir, 'node.mjs'))]);
console.log(
  `queries within k' on an index built for k = ${K}, N = 1000000, wasm under Node ${process.version}; medians of ${ROUNDS} rounds (µs a query)${builds.length > 1 ? '; base → this' : ''}`,
);
function time(set, indexes, queries, label) {
  const times = indexes.map(() => QUERY_KS.map(() => []));
  const matches = indexes.map(() => QUERY_KS.map(() => 0));
  for (let r = 0; r < ROUNDS; r++) {
    QUERY_KS.forEach((k, c) => {
      indexes.forEach((index, b) => {
        const start = performance.now();
        let found = 0;
        for (const q of queries) found += index.query(q, k).length;
        times[b][c].push(((performance.now() - start) * 1000) / queries.length);
        matches[b][c] = found;
      });
    });
  }
  const cells = QUERY_KS.map((k, c) => {
    if (matches.some((m) => m[c] !== matches[0][c]))
      throw new Error(`${set} within ${k}: the builds found ${matches.map((m) => m[c])} matches`);
    const t = times.map((ts) => median(ts[c]).toFixed(2)).join(' → ');
    return `k' = ${k}: ${t} (${matches[0][c]} matches)`;
  });
  console.log(`${`${set}, ${label}`.padEnd(9)} ${cells.join(' | ')}`);
}

for (const set of ['mixed', 'random', 'realtext']) {
  const fps = readU64(`${set}-1000000.u64`);
  const queries = [...readU64(`queries-${set}-10000.u64`)];
  const ids = Float64Array.from(fps, (_, i) => i);
  const indexes = modules.map(([, m]) => {
    const index = new m.Index({ k: K });
    if (ONE_BY_ONE) for (let i = 0; i < fps.length; i++) index.insert(i, fps[i]);
    else index.insertMany(ids, fps);
    return index;
  });
  time(set, indexes, queries, `segments ${indexes[0].segments}`);
  if (ONE_BY_ONE) {
    const start = performance.now();
    for (const index of indexes) index.compact();
    const ms = (performance.now() - start) / indexes.length;
    time(set, indexes, queries, `compacted (${ms.toFixed(0)} ms)`);
  }
  for (const index of indexes) index.free();
}
