// What the package's commonest calls cost from JavaScript under Node, one call at a time: the
// text's crossing into wasm, options objects, results made into objects, BigInts read from
// inside wasm, the batch call against a loop. With BASE=DIR, another build of the package is
// loaded into the same process and every case runs for both builds in turn (the order swapped
// each round), so the ratio compares them on the same machine state.
//
//     python3 scripts/corpus.py                          # fetch the corpus once
//     source scripts/lib.sh && setup_all && build_pkg    # pkg/
//     node bench/calls.mjs [ROUNDS=11]                   # PKG=DIR for another build than pkg/
//     BASE=/path/to/an/older/pkg node bench/calls.mjs    # that build beside this one
//
// Texts are 150-character and 1,000-character pieces of the `docs-en` and `docs-zh` samples
// (bench/samples.mjs; LATIN=NAME and CJK=NAME for others, e.g. handbook-de and lilypond-zh); fingerprints are random 64-bit values; the index cases use 20,000 of them
// with numeric ids (and, for one case, string ids). Per case, the median over rounds of the mean
// time per call of a timed batch. The machine is shared: read the ratio, not the absolute figure.
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { splitmix64 } from '../tests/js/support.mjs';
import { loadSample } from './samples.mjs';

const ROUNDS = Number(process.argv[2] ?? 11);
const here = new URL('..', import.meta.url).pathname;
const PKG = resolve(process.env.PKG ?? `${here}/pkg`);
const BASE = process.env.BASE && resolve(process.env.BASE);

const load = (dir) => import(pathToFileURL(`${dir}/node.mjs`).href);
const builds = [['this', await load(PKG)]];
if (BASE) builds.push(['base', await load(BASE)]);

function pieces(name, chars, count) {
  const text = [...loadSample(name).toString('utf8')];
  const out = [];
  for (let i = 0; i + chars <= text.length && out.length < count; i += chars)
    out.push(text.slice(i, i + chars).join(''));
  return out;
}
const LATIN = process.env.LATIN ?? 'docs-en';
const CJK = process.env.CJK ?? 'docs-zh';
const en150 = pieces(LATIN, 150, 2000);
const en1k = pieces(LATIN, 1000, 500);
const zh150 = pieces(CJK, 150, 2000);
const next = splitmix64(0x5eed);
const N = 20_000;
const fps = Array.from({ length: N }, () => next());
const near = fps.map((f, i) => f ^ (1n << BigInt(i % 64)) ^ (1n << BigInt((i * 7) % 64)));

// Each case of one build: [calls per batch, the batch].
function cases(sp) {
  const fp = new sp.Fingerprinter();
  const small = new sp.Index({ k: 3 });
  const named = new sp.Index({ k: 3 });
  fps.forEach((f, i) => {
    small.insert(i, f);
    named.insert(`doc-${i}`, f);
  });
  const each = (texts, f) => [texts.length, () => texts.forEach(f)];
  return {
    [`fingerprint(text), 150 characters of ${LATIN}`]: each(en150, (t) => sp.fingerprint(t)),
    [`fp.fingerprint(text), 1,000 characters of ${LATIN}`]: each(en1k, (t) => fp.fingerprint(t)),
    [`fp.fingerprint(text), 150 characters of ${CJK}`]: each(zh150, (t) => fp.fingerprint(t)),
    [`fp.fingerprintCounted(text), 150 characters of ${LATIN}`]: each(en150, (t) =>
      fp.fingerprintCounted(t),
    ),
    [`fp.fingerprintMany(texts), per 150-character ${LATIN} text`]: [
      en150.length,
      () => fp.fingerprintMany(en150),
    ],
    [`fp.fingerprintMany(texts), per 150-character ${CJK} text`]: [
      zh150.length,
      () => fp.fingerprintMany(zh150),
    ],
    [`fingerprint(text, {}), 150 characters of ${LATIN}`]: each(en150, (t) =>
      sp.fingerprint(t, {}),
    ),
    'new Fingerprinter({ width: 128 })': [
      2000,
      () => {
        for (let i = 0; i < 2000; i++) new sp.Fingerprinter({ width: 128 }).free();
      },
    ],
    'pairK(n, m, { tolerance: 0.1 })': [
      5000,
      () => {
        for (let i = 0; i < 5000; i++) sp.pairK(100 + (i & 63), 120, { tolerance: 0.1 });
      },
    ],
    'compare(a, b, { width: 64 })': [
      5000,
      () => {
        for (let i = 0; i < 5000; i++) sp.compare(fps[i], near[i], { width: 64 });
      },
    ],
    'new Index({ k: 3 })': [
      2000,
      () => {
        for (let i = 0; i < 2000; i++) new sp.Index({ k: 3 }).free();
      },
    ],
    'index.insert(i, fp), 20,000 into an index for k = 3': [
      N,
      () => {
        const index = new sp.Index({ k: 3 });
        for (let i = 0; i < N; i++) index.insert(i, fps[i]);
        index.free();
      },
    ],
    'index.query(fp), k = 3 index of 20,000': [
      N,
      () => {
        for (let i = 0; i < N; i++) small.query(near[i]);
      },
    ],
    'index.query(fp, 3)': [
      N,
      () => {
        for (let i = 0; i < N; i++) small.query(near[i], 3);
      },
    ],
    'index.query(fp, 2, 16)': [
      N,
      () => {
        for (let i = 0; i < N; i++) small.query(near[i], 2, 16);
      },
    ],
    'index.query(fp), string ids': [
      N,
      () => {
        for (let i = 0; i < N; i++) named.query(near[i]);
      },
    ],
  };
}

const all = builds.map(([name, sp]) => [name, cases(sp)]);
const names = Object.keys(all[0][1]);
const times = Object.fromEntries(names.map((n) => [n, builds.map(() => [])]));
for (let round = 0; round < ROUNDS; round++) {
  for (const name of names) {
    const order = round % 2 ? [...all.keys()].reverse() : [...all.keys()];
    for (const b of order) {
      const [calls, batch] = all[b][1][name];
      const t0 = performance.now();
      batch();
      times[name][b].push(((performance.now() - t0) * 1000) / calls);
    }
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
};
console.log(
  `simprint per-call costs under Node ${process.version}: ${PKG}${BASE ? ` against ${BASE}` : ''}, ${ROUNDS} rounds, medians (µs a call)`,
);
for (const name of names) {
  const [mine, base] = times[name].map(median);
  const row = `${name.padEnd(60)} ${mine.toFixed(3).padStart(8)}`;
  console.log(
    base === undefined
      ? row
      : `${row}  base ${base.toFixed(3).padStart(8)}  this/base ${(mine / base).toFixed(2)}`,
  );
}
