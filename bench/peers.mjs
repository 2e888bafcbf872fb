// simprint's wasm build (pkg/) against the JavaScript SimHash peers on npm (`simhash`,
// `simhash-js`, `@biu/simhash`), under Node, in one run on the same real text: en.txt and
// zh.txt (the handbook), then the mixed-text samples of bench/samples.mjs (docs-en, man-en,
// docs-zh, docs-ja: Debian documentation with code, man pages, Chinese and Japanese technical
// text with commands every few words).
//
//     python3 scripts/corpus.py                    # fetch the corpus once
//     node bench/peers.mjs [SECONDS]               # SECONDS of repeats per case, default 0.5
//     GAOYA_MBPS=en.txt=97.3,zh.txt=182.1,docs-en=… node bench/peers.mjs   # adds ratios to gaoya
//
// The gaoya figures are printed by the native run (bench/peers, see its Cargo.toml), as the
// whole GAOYA_MBPS line; GAOYA_EN_MBPS and GAOYA_ZH_MBPS still set en.txt's and zh.txt's. The peers
// are devDependencies at exact versions. SIMPRINT_CORPUS=DIR reads another folder. MB/s is
// 10^6 bytes of UTF-8 input per second, the median over repeats (the machine is shared); every
// repeat fingerprints a whole file, tokenizing included.
//
// Tokenization differs between the libraries, so each row says what it does. Two of the peers
// take tokens from the caller; they get gaoya's split (ASCII whitespace and ASCII punctuation,
// empty pieces dropped), the split of the fastest Rust peer, done here by one regular
// expression. simprint gets the same tokens twice more through `fingerprintFeatures`: as
// [token, 1] pairs and as the string[] itself (the same fingerprint).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import {
  distances,
  Fingerprinter,
  fingerprintFeatures,
  hamming,
  initSync,
  scan,
} from '../pkg/simprint.js';
import { loadSample, SAMPLES } from './samples.mjs';

const wasmUrl = new URL('../pkg/simprint_bg.wasm', import.meta.url);
initSync({ module: readFileSync(wasmUrl) });

const require = createRequire(import.meta.url);
const npmSimhash = require('simhash');
const simhashJs = require('simhash-js');
const biu = require('@biu/simhash');
const version = (name) => require(`${name}/package.json`).version;

const MIN_SECONDS = Number(process.argv[2] ?? 0.5);
const MIN_REPEATS = 7;
const HAYSTACK_LEN = 1 << 20;
const K = 3;

const corpusDir = process.env.SIMPRINT_CORPUS ?? join(homedir(), '.cache/simprint/corpus');

function readCorpus(name) {
  try {
    return readFileSync(join(corpusDir, name), 'utf8');
  } catch (e) {
    console.error(`cannot read ${join(corpusDir, name)}: ${e.message}`);
    console.error(
      'Fetch the corpus first with `python3 scripts/corpus.py` ' +
        '(or point SIMPRINT_CORPUS at a folder holding en.txt and zh.txt).',
    );
    process.exit(1);
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// Times several cases in interleaved rounds (each round runs every case once), so that all of
// them see the same load on a shared, noisy machine and their ratios stay meaningful. After a
// warm-up of each case (at least one run and a quarter of MIN_SECONDS: JIT and wasm tier-up),
// runs at least MIN_REPEATS rounds and MIN_SECONDS per case in all; returns each case's median
// seconds per run.
function measureRounds(runs) {
  for (const run of runs) {
    const warmUntil = performance.now() + 250 * MIN_SECONDS;
    do run();
    while (performance.now() < warmUntil);
  }
  const times = runs.map(() => []);
  const start = performance.now();
  while (
    times[0].length < MIN_REPEATS ||
    performance.now() - start < MIN_SECONDS * 1000 * runs.length
  ) {
    runs.forEach((run, i) => {
      const t0 = performance.now();
      run();
      times[i].push((performance.now() - t0) / 1000);
    });
  }
  return times.map(median);
}

// gaoya's `whitespace_split`: split on ASCII whitespace (\t \n \f \r space, as Rust's
// is_ascii_whitespace) or ASCII punctuation, drop empty pieces. Case is kept.
const SPLIT = /[\t\n\f\r !-/:-@[-`{-~]+/;
const gaoyaSplit = (text) => text.split(SPLIT).filter((w) => w.length > 0);

// A fingerprint in hex as `width` characters '0'/'1', for the sanity table.
const hexBits = (width) => (s) => BigInt(`0x${s}`).toString(2).padStart(width, '0');

// Every case maps a text to a fingerprint as a string (so results can be compared across runs)
// and tells its width and how to read that string as bits.
const simprintDefault = new Fingerprinter();
const simprintWordsTf = new Fingerprinter({ tokenizer: 'words', n: 1, weighting: 'tf' });
const npmSimhashOf = npmSimhash(); // CRC-32 by default
const simhashJsHasher = new simhashJs.SimHash(); // defaults: 4-character chunks

const cases = [
  {
    name: 'simprint default',
    peer: false,
    width: 64,
    tokenization: 'UAX#29 words, CJK runs as char bigrams; width+case fold; binary; SipHash-1-3',
    run: (t) => simprintDefault.fingerprint(t).toString(16),
    bits: hexBits(64),
  },
  {
    name: 'simprint words tf',
    peer: false,
    width: 64,
    tokenization: 'UAX#29 words (each CJK ideograph one word); width+case fold; tf',
    run: (t) => simprintWordsTf.fingerprint(t).toString(16),
    bits: hexBits(64),
  },
  {
    name: "simprint, gaoya's split",
    peer: false,
    width: 64,
    tokenization: "gaoya's split (JS regex) -> fingerprintFeatures([[w, 1], ...]); no fold",
    run: (t) => fingerprintFeatures(gaoyaSplit(t).map((w) => [w, 1])).toString(16),
    bits: hexBits(64),
  },
  {
    name: "simprint, gaoya's split, string[]",
    peer: false,
    width: 64,
    tokenization: "gaoya's split (JS regex) -> fingerprintFeatures([w, ...]); no fold",
    run: (t) => fingerprintFeatures(gaoyaSplit(t)).toString(16),
    bits: hexBits(64),
  },
  {
    name: `simhash ${version('simhash')}`,
    peer: true,
    width: 32,
    tokenization: "caller's tokens: gaoya's split (JS regex); CRC-32; no fold",
    run: (t) => npmSimhashOf(gaoyaSplit(t)).join(''), // an array of 32 numbers 0/1
    bits: (s) => s,
  },
  {
    name: `simhash-js ${version('simhash-js')}`,
    peer: true,
    width: 32,
    tokenization: 'own: 4-UTF-16-unit chunks of the raw text; Jenkins lookup3; no fold',
    run: (t) => simhashJsHasher.hash(t).toString(16),
    bits: hexBits(32),
  },
  {
    name: `@biu/simhash ${version('@biu/simhash')}`,
    peer: true,
    width: 64,
    tokenization: "caller's {text, weight}: gaoya's split, weight 1; Jenkins lookup3 (hex)",
    // A string of '0'/'1': as long as the first token's hash in binary (64 or fewer).
    run: (t) => biu.simhash(gaoyaSplit(t).map((w) => ({ text: w, weight: 1 }))),
    bits: (s) => s.padEnd(64, '0'),
  },
];

const bitDistance = (a, b) => [...a].reduce((n, ch, i) => n + (ch !== b[i]), 0);

const texts = { 'en.txt': readCorpus('en.txt'), 'zh.txt': readCorpus('zh.txt') };
for (const name of Object.keys(SAMPLES)) {
  try {
    texts[name] = loadSample(name);
  } catch (e) {
    console.error(`cannot build the sample ${name}: ${e.message}`);
    console.error('Fetch the corpus first with `python3 scripts/corpus.py`.');
    process.exit(1);
  }
}
const gaoyaNative = {
  'en.txt': Number(process.env.GAOYA_EN_MBPS) || undefined,
  'zh.txt': Number(process.env.GAOYA_ZH_MBPS) || undefined,
};
for (const pair of (process.env.GAOYA_MBPS ?? '').split(',').filter(Boolean)) {
  const [name, rate] = pair.split('=');
  gaoyaNative[name] = Number(rate) || undefined;
}

function printTable(header, rows, left) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) =>
    r.map((c, i) => (left.includes(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header).trimEnd());
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r).trimEnd());
}

const ratio = (a, b) => (b ? `${(a / b).toFixed(2)}x` : '-');

console.log(
  `simprint wasm (pkg/) vs JS SimHash peers under Node ${process.version}; corpus ${corpusDir}`,
);
{
  const st = statSync(wasmUrl);
  console.log(`pkg/simprint_bg.wasm: ${st.size} bytes, built ${st.mtime.toISOString()}`);
}
console.log(
  `MB/s = 10^6 UTF-8 input bytes/s, median of >= ${MIN_REPEATS} repeats (>= ${MIN_SECONDS} s) ` +
    'per case after warm-up, the cases of a table interleaved round by round; each repeat ' +
    'fingerprints the whole file.\n',
);

// Tier-up first: V8 compiles the wasm with its baseline compiler and optimizes it in the
// background, which on a loaded 2-core machine took longer than the first texts' own warm-up
// (their rates came out 20-40 % low). simprint over every text for two seconds first.
{
  const until = performance.now() + 2000;
  while (performance.now() < until)
    for (const text of Object.values(texts)) simprintDefault.fingerprint(text);
}

const rows = [];
const fingerprintNotes = [];
// Per text: simprint default's rate, the fastest JS peer's, and gaoya native's (if given).
const summary = {};
for (const [file, text] of Object.entries(texts)) {
  const bytes = Buffer.byteLength(text, 'utf8');
  const runs = cases.map((c) => {
    const expected = c.run(text);
    const bits = c.bits(expected);
    const zeros = bits.length - bits.replace(/0+$/, '').length;
    if (zeros >= 8) {
      fingerprintNotes.push(
        `${c.name}: the fingerprint of ${file} ends in ${zeros} zero bits (chance 1 in 256 for 8).`,
      );
    }
    return () => {
      if (c.run(text) !== expected) throw new Error(`${c.name}: fingerprint changed between runs`);
    };
  });
  const rates = measureRounds(runs).map((secs) => bytes / secs);
  const peerRates = rates.filter((_, i) => cases[i].peer);
  const fastest = Math.max(...peerRates);
  const fastestName = cases[rates.indexOf(fastest)].name;
  cases.forEach((c, i) => {
    rows.push([
      `${file} (${(bytes / 1e6).toFixed(2)} MB)`,
      c.name,
      c.tokenization,
      String(c.width),
      (rates[i] / 1e6).toFixed(1),
      c.peer ? (rates[i] === fastest ? '(fastest)' : '-') : ratio(rates[i], fastest),
      c.peer ? '-' : ratio(rates[i] / 1e6, gaoyaNative[file]),
    ]);
  });
  rows.push(['', `fastest JS peer on ${file}: ${fastestName}`, '', '', '', '', '']);
  summary[file] = { simprint: rates[0], fastest, fastestName };
}
printTable(
  ['text', 'case', 'tokenization', 'bits', 'MB/s', 'x fastest JS peer', 'x gaoya native'],
  rows,
  [0, 1, 2],
);
for (const note of fingerprintNotes) console.log(`Note: ${note}`);
if (!Object.values(gaoyaNative).some(Boolean)) {
  console.log(
    '(x gaoya native: set GAOYA_MBPS from ' +
      '`cargo run --release --manifest-path bench/peers/Cargo.toml`)',
  );
}
// Issue 19's same-run ratios: mixed text against English built the same way; English man
// pages against the fastest JS peer and gaoya native.
if (summary['docs-en']) {
  const en = summary['docs-en'].simprint;
  for (const file of [
    'docs-zh',
    'help-zh',
    'guide-zh',
    'docs-ja',
    'help-ja',
    'guide-ja',
    'man-en',
  ]) {
    const s = summary[file];
    if (!s) continue;
    const gaoya = gaoyaNative[file]
      ? `, ${ratio(s.simprint / 1e6, gaoyaNative[file])} gaoya native`
      : '';
    console.log(
      `simprint default on ${file}: ${(s.simprint / 1e6).toFixed(1)} MB/s, ` +
        `${((100 * s.simprint) / en).toFixed(0)} % of docs-en's ${(en / 1e6).toFixed(1)} MB/s, ` +
        `${ratio(s.simprint, s.fastest)} the fastest JS peer (${s.fastestName})${gaoya}`,
    );
  }
}

// Sanity, not speed: how far apart different pages of the handbook land. Pages of one book share
// vocabulary, so less than half the bits is expected; bits that are biased or stuck show up as
// a fraction of 1 bits far from 0.5.
{
  const pages = (lang) =>
    readdirSync(join(corpusDir, lang))
      .filter((f) => f.endsWith('.txt'))
      .sort()
      .map((f) => readFileSync(join(corpusDir, lang, f), 'utf8'));
  const sanity = [];
  let pageCounts = '';
  for (const lang of ['en', 'zh']) {
    let docs;
    try {
      docs = pages(lang);
    } catch {
      continue; // a corpus folder with only en.txt and zh.txt
    }
    pageCounts += `${docs.length} ${lang} pages; `;
    for (const c of cases) {
      const fps = docs.map((d) => c.bits(c.run(d)));
      let sum = 0;
      let pairs = 0;
      for (let i = 0; i < fps.length; i++) {
        for (let j = i + 1; j < fps.length; j++) {
          sum += bitDistance(fps[i], fps[j]);
          pairs++;
        }
      }
      const ones = fps.reduce((n, f) => n + bitDistance(f, '0'.repeat(c.width)), 0);
      sanity.push([
        lang,
        c.name,
        String(c.width),
        (sum / pairs / c.width).toFixed(3),
        (ones / fps.length / c.width).toFixed(3),
      ]);
    }
  }
  if (sanity.length) {
    console.log(
      `\nSanity: mean Hamming distance between different pages (${pageCounts}all pairs), ` +
        'as a fraction of the width, and the mean fraction of 1 bits:',
    );
    printTable(['pages', 'case', 'bits', 'distance/width', 'ones/width'], sanity, [0, 1]);
  }
}

// Hamming distance: one query against 2^20 fingerprints, with each library's own distance
// function where it has one.
{
  // xorshift64: fixed values, so every run scans the same haystack.
  let x = 0x5eedn;
  const big = new BigUint64Array(HAYSTACK_LEN);
  for (let i = 0; i < HAYSTACK_LEN; i++) {
    x ^= BigInt.asUintN(64, x << 13n);
    x ^= x >> 7n;
    x ^= BigInt.asUintN(64, x << 17n);
    big[i] = x;
  }
  const bigints = Array.from(big);
  const needle = big[HAYSTACK_LEN >> 1] ^ 0b1011n;
  const expectHits = bigints.filter((f) => hamming(needle, f) <= K).length;
  const check = (n, what) => {
    if (n !== expectHits) throw new Error(`${what}: ${n} hits, expected ${expectHits}`);
  };
  const cases = [];
  cases.push({
    name: 'simprint hamming',
    what: 'hamming(a, b) on BigInts, one call per pair',
    run: () => {
      let n = 0;
      for (let i = 0; i < HAYSTACK_LEN; i++) if (hamming(needle, bigints[i]) <= K) n++;
      check(n, 'hamming');
    },
  });
  cases.push({
    name: 'simprint distances',
    what: 'distances(q, BigUint64Array) -> Uint8Array, one call',
    run: () => {
      const d = distances(needle, big);
      let n = 0;
      for (let i = 0; i < d.length; i++) if (d[i] <= K) n++;
      check(n, 'distances');
    },
  });
  cases.push({
    name: 'simprint scan',
    what: 'scan(q, BigUint64Array, k) -> hits, one call',
    run: () => check(scan(needle, big, K).length, 'scan'),
  });
  {
    // Reference, not a peer: what plain JS does on the same data as two 32-bit halves.
    const words = new Uint32Array(big.buffer);
    const qlo = Number(needle & 0xffffffffn) >>> 0;
    const qhi = Number(needle >> 32n) >>> 0;
    const pop = (v) => {
      v -= (v >>> 1) & 0x55555555;
      v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
      return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
    };
    cases.push({
      name: 'plain JS (reference)',
      what: 'SWAR popcount of two Uint32 halves, inline',
      run: () => {
        let n = 0;
        for (let i = 0; i < HAYSTACK_LEN; i++) {
          if (pop(words[2 * i] ^ qlo) + pop(words[2 * i + 1] ^ qhi) <= K) n++;
        }
        check(n, 'plain JS');
      },
    });
  }
  const notes = [];
  {
    // simhash-js: 32-bit fingerprints, compared as hex strings (its hash() returns a number,
    // but Comparator parses its arguments with parseInt(x, 16)). The low 32 bits of each value.
    const hex = bigints.map((f) => Number(f & 0xffffffffn).toString(16));
    const q = Number(needle & 0xffffffffn).toString(16);
    const d = simhashJs.Comparator.hammingDistance(q, hex[HAYSTACK_LEN >> 1]);
    if (d !== 3) {
      notes.push(
        `simhash-js Comparator.hammingDistance gives ${d} for two fingerprints 3 bits apart.`,
      );
    }
    cases.push({
      name: `simhash-js ${version('simhash-js')}`,
      peer: true,
      what: 'Comparator.hammingDistance(hexA, hexB), 32-bit',
      run: () => {
        let sink = 0;
        for (let i = 0; i < HAYSTACK_LEN; i++)
          sink += simhashJs.Comparator.hammingDistance(q, hex[i]);
        if (sink === 0) throw new Error('simhash-js distances were all 0');
      },
    });
  }
  {
    // @biu/simhash: fingerprints are strings of '0'/'1'; it offers similarity(a, b) only.
    const bits = bigints.map((f) => f.toString(2).padStart(64, '0'));
    const q = needle.toString(2).padStart(64, '0');
    cases.push({
      name: `@biu/simhash ${version('@biu/simhash')}`,
      peer: true,
      what: "similarity(a, b) on 64-char '0'/'1' strings",
      run: () => {
        let n = 0;
        for (let i = 0; i < HAYSTACK_LEN; i++) if (biu.similarity(q, bits[i]) >= 1 - K / 64) n++;
        check(n, '@biu/simhash');
      },
    });
  }
  const rows = measureRounds(cases.map((c) => c.run)).map((secs, i) => ({
    ...cases[i],
    rate: HAYSTACK_LEN / secs,
  }));
  const fastest = Math.max(...rows.filter((r) => r.peer).map((r) => r.rate));
  console.log(
    `\nHamming distance, one 64-bit query against ${HAYSTACK_LEN} fingerprints (k = ${K}), ` +
      'median comparisons/s (npm simhash has no distance function):',
  );
  printTable(
    ['case', 'what', 'comparisons/s', 'x fastest JS peer'],
    rows.map((r) => [
      r.name,
      r.what,
      r.rate.toExponential(3),
      r.peer ? (r.rate === fastest ? '(fastest)' : '-') : ratio(r.rate, fastest),
    ]),
    [0, 1],
  );
  for (const note of notes) console.log(`Note: ${note}`);
}
