// Fingerprinting throughput of the wasm build (pkg/) under Node, on the real-text corpus:
// en.txt, zh.txt and the mixed-text samples (docs-en, man-en, docs-zh, docs-ja, and the held-out
// help-zh, guide-zh, help-ja, guide-ja).
//
//     python3 scripts/corpus.py             # fetch the corpus once
//     node bench/fingerprint.mjs [SECONDS]  # SECONDS of repeats per case, default 1
//
// Then the same-run shares: each text's rate over docs-en's and en.txt's, the texts interleaved
// round by round, with the held-out READMEs of other projects (readme-zh, readme-ja) when
// `python3 scripts/revisions.py` has fetched them and applications' manuals (kicad-zh, gimp-zh, …). SIMPRINT_CORPUS=DIR reads another folder. Reports the median over repeats:
// the machine is shared, and the median shrugs off the occasional slow run that a mean would not.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { Fingerprinter, defaults, hamming, initSync } from '../pkg/simprint.js';
import {
  loadAppSamples,
  loadReadmeSample,
  loadSample,
  README_SAMPLES,
  SAMPLES,
} from './samples.mjs';

initSync({ module: readFileSync(new URL('../pkg/simprint_bg.wasm', import.meta.url)) });

const MIN_SECONDS = Number(process.argv[2] ?? 1);
const MIN_REPEATS = 5;
const HAYSTACK_LEN = 100_000;

function loadCorpus() {
  const dir = process.env.SIMPRINT_CORPUS ?? join(homedir(), '.cache/simprint/corpus');
  const texts = {};
  for (const name of ['en.txt', 'zh.txt']) {
    try {
      texts[name] = readFileSync(join(dir, name), 'utf8');
    } catch (e) {
      console.error(`cannot read ${join(dir, name)}: ${e.message}`);
      console.error(
        'Fetch the corpus first with `python3 scripts/corpus.py` ' +
          '(or point SIMPRINT_CORPUS at a folder holding en.txt and zh.txt).',
      );
      process.exit(1);
    }
  }
  return texts;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// Runs `run` until MIN_SECONDS have passed (and at least MIN_REPEATS times), after a warm-up
// long enough for the JIT and the wasm tier-up; returns the seconds of each repeat.
function measure(run) {
  const warmUntil = performance.now() + Math.max(200, 250 * MIN_SECONDS);
  do run();
  while (performance.now() < warmUntil);
  const times = [];
  const start = performance.now();
  while (times.length < MIN_REPEATS || performance.now() - start < MIN_SECONDS * 1000) {
    const t0 = performance.now();
    run();
    times.push((performance.now() - t0) / 1000);
  }
  return times;
}

const texts = loadCorpus();
// The mixed-text samples of bench/samples.mjs (the same bytes as bench/common.rs builds).
for (const name of Object.keys(SAMPLES)) texts[name] = loadSample(name);
const rows = [];

for (const [label, options] of [
  ['default', {}],
  ['width128', { width: 128 }],
  ['minhash64', { algorithm: 'minhash' }],
  ['minhash128', { width: 128, algorithm: 'minhash' }],
]) {
  const fp = new Fingerprinter(options);
  for (const [file, text] of Object.entries(texts)) {
    const bytes = Buffer.byteLength(text, 'utf8');
    const expected = fp.fingerprint(text);
    const times = measure(() => {
      if (fp.fingerprint(text) !== expected) throw new Error('fingerprint changed between runs');
    });
    const rates = times.map((t) => bytes / t);
    rows.push([
      `fingerprint/${file}/${label}`,
      String(times.length),
      (median(rates) / 1e6).toFixed(2),
      'MB/s',
      (median(rates) / 2 ** 20).toFixed(2),
    ]);
  }
  fp.free();
}

// The quality mode's fingerprint with its count (fingerprintCounted, for the pair rule)
// against the fingerprint alone: 5,000-character documents of en.txt and zh.txt, one call each.
{
  const quality = new Fingerprinter(defaults().quality);
  for (const file of ['en.txt', 'zh.txt']) {
    const docs = Array.from({ length: 200 }, (_, i) =>
      texts[file].slice(i * 5000, i * 5000 + 5000),
    );
    for (const [label, f] of [
      ['fingerprint', (d) => quality.fingerprint(d)],
      ['fingerprintCounted', (d) => quality.fingerprintCounted(d)],
    ]) {
      const times = measure(() => {
        for (const d of docs) f(d);
      });
      const perCall = median(times) / docs.length;
      rows.push([
        `quality/${file}/5000 chars/${label}`,
        String(times.length),
        (perCall * 1e6).toFixed(1),
        'µs a call',
        '-',
      ]);
    }
  }
  quality.free();
}

{
  // xorshift64: fixed values, so every run scans the same haystack.
  let x = 0x5eedn;
  const haystack = Array.from({ length: HAYSTACK_LEN }, () => {
    x ^= BigInt.asUintN(64, x << 13n);
    x ^= x >> 7n;
    x ^= BigInt.asUintN(64, x << 17n);
    return x;
  });
  const needle = haystack[HAYSTACK_LEN >> 1] ^ 0b1011n;
  let sink = 0;
  const times = measure(() => {
    for (let i = 0; i < haystack.length; i++) if (hamming(needle, haystack[i]) <= 3) sink++;
  });
  if (sink === 0) throw new Error("the needle's neighbour was never found");
  const rates = times.map((t) => HAYSTACK_LEN / t);
  rows.push([
    'hamming/100k',
    String(times.length),
    (median(rates) / 1e6).toFixed(2),
    'M comparisons/s',
    '-',
  ]);
}

// Issue 30's same-run shares: every text fingerprinted once per round, round after round, so the
// machine's load falls on all of them alike; each text's rate over docs-en's (and en.txt's) in
// the same round, the median over rounds, and a shorter text's over as many bytes of docs-en.
// The table above times each text alone.
const SHARE_ROUNDS = 40;
const shareRows = [];
// The READMEs of other projects join the shares alone (the table above stays as it was).
const shareTexts = { ...texts };
for (const [name, lang] of Object.entries(README_SAMPLES)) {
  const text = loadReadmeSample(lang);
  if (text !== null) shareTexts[name] = text;
  else console.log(`(${name} needs \`python3 scripts/revisions.py\` first)`);
}
// So do the applications' manuals (APP_SAMPLES).
const apps = loadAppSamples();
if (Object.keys(apps).length === 0) {
  console.log('(kicad-zh, gimp-zh and the other manuals need `python3 scripts/corpus.py` again)');
}
Object.assign(shareTexts, apps);
{
  const fp = new Fingerprinter({});
  const names = Object.keys(shareTexts);
  const bytes = names.map((n) => Buffer.byteLength(shareTexts[n], 'utf8'));
  const times = names.map(() => []);
  // As many bytes of docs-en as each shorter text (cut at a character boundary, as
  // bench/fingerprint.rs cuts), fingerprinted right after it: short texts run slower per byte
  // in any language, and the held-out manuals are short.
  const whole = Buffer.from(shareTexts['docs-en'], 'utf8');
  const yards = bytes.map((b) => {
    if (b >= whole.length) return null;
    let end = b;
    while (end > 0 && (whole[end] & 0xc0) === 0x80) end--;
    return whole.subarray(0, end).toString('utf8');
  });
  const yardTimes = names.map(() => []);
  const time = (text) => {
    const t0 = performance.now();
    fp.fingerprint(text);
    return (performance.now() - t0) / 1000;
  };
  for (let round = 0; round < SHARE_ROUNDS + 3; round++) {
    names.forEach((n, i) => {
      const t = time(shareTexts[n]);
      const y = yards[i] === null ? null : time(yards[i]);
      // The first rounds warm the JIT, the wasm tier-up and the allocator.
      if (round >= 3) {
        times[i].push(t);
        if (y !== null) yardTimes[i].push(y);
      }
    });
  }
  fp.free();
  const rate = (i, r) => bytes[i] / times[i][r];
  const rounds = [...Array(SHARE_ROUNDS).keys()];
  const share = (i, yard) => 100 * median(rounds.map((r) => rate(i, r) / rate(yard, r)));
  const [en, docsEn] = [names.indexOf('en.txt'), names.indexOf('docs-en')];
  names.forEach((n, i) => {
    const nonSpace = [...shareTexts[n]].filter((c) => !/\s/u.test(c));
    const ascii = nonSpace.filter((c) => c.charCodeAt(0) < 128).length / nonSpace.length;
    shareRows.push([
      n,
      (bytes[i] / 1e6).toFixed(2),
      `${(100 * ascii).toFixed(0)}%`,
      (median(rounds.map((r) => rate(i, r))) / 1e6).toFixed(1),
      `${share(i, docsEn).toFixed(0)}%`,
      `${share(i, en).toFixed(0)}%`,
      // Equal lengths: the ratio of rates is the inverse ratio of times.
      `${(yards[i] === null ? share(i, docsEn) : 100 * median(rounds.map((r) => yardTimes[i][r] / times[i][r]))).toFixed(0)}%`,
    ]);
  });
}

// MiB/s too, as criterion reports Throughput::Bytes in MiB/s.
const header = ['case', 'repeats', 'median', 'unit', 'MiB/s'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) =>
  r.map((c, i) => (i === 0 || i === 3 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(
  `simprint wasm (pkg/) under Node ${process.version}; median over repeats of ≥${MIN_SECONDS} s per case`,
);
console.log(line(header).trimEnd());
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of rows) console.log(line(r).trimEnd());
{
  const head = ['text', 'MB', 'ASCII', 'MB/s', '% docs-en', '% en.txt', '% same size'];
  const w = head.map((h, i) => Math.max(h.length, ...shareRows.map((r) => r[i].length)));
  const fmt = (r) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  ');
  console.log(
    `\nSame-run shares (default options, ${SHARE_ROUNDS} rounds, every text once a round; the median ` +
      'of the per-round ratios). Chinese fast paths tuned on docs-zh; help-*, guide-*, readme-* and the ' +
      "applications' manuals (kicad-*, gimp-*, lilypond-*, edu-*, help-tw) held out; handbook-de and -fr: " +
      'German and French. % same size: over as many bytes of docs-en.',
  );
  console.log(fmt(head));
  console.log(w.map((x) => '-'.repeat(x)).join('  '));
  for (const r of shareRows) console.log(fmt(r));
}
console.log(
  '\nNote: the hamming row measures one JS→wasm call (two BigInts) per comparison; bulk ' +
    'comparisons go through scan() and distances() (bench/scan.mjs).',
);
