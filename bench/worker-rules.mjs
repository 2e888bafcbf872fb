// The Workers' two rules on the evaluation's own pairs, as the Workers apply them: each pair at
// the one-text rule's k (recommendedK of the text, K = "auto") or at the pair rule's (pairK of
// both texts' feature counts, K = "pair"), alone and capped at a Worker's MAX_K (11: the default
// of examples/worker-scale, and where collectionK puts a million documents at 64 bits), beside
// one fixed k of 11. F1 per corpus (A: its held-out half), 64 bits, the package's default
// fingerprinter through the built package, as the Workers compute them.
//
//   cargo run --release --example evaluate     # writes ~/.cache/simprint/eval/cross-*
//   node bench/worker-rules.mjs [EVAL_DIR] [CAP=11]
//
// The uncapped rows are the evaluation's own ("Cross-corpus, 64 bits": the rule, the pair
// rule): the same pairs, distances and k, recomputed here, so they must agree with it. Then,
// where the pair rule loses (A's short English texts), the near-duplicates each rule misses,
// by how the copy was made; and how often each rule flags the README's Chinese pair under
// 1,000 random SipHash keys (seeded, so the same keys every run).
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as sp from '../pkg/node.mjs';

const dir = process.argv[2] ?? join(homedir(), '.cache', 'simprint', 'eval');
const cap = Number(process.argv[3] ?? 11);
const texts = readFileSync(join(dir, 'cross-texts.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line));
const fp = new sp.Fingerprinter();
const counts = new Map();
const countOf = (i) => {
  if (!counts.has(i)) counts.set(i, fp.featureCount(texts[i]));
  return counts.get(i);
};
const [header, ...lines] = readFileSync(join(dir, 'cross-pairs.tsv'), 'utf8').trim().split('\n');
const column = Object.fromEntries(header.split('\t').map((name, i) => [name, i]));
const tallies = new Map(); // "corpus\trule" -> { tp, fp, fn }
const missed = new Map(); // kind of copy -> [missed at "auto", missed at "pair"] (A, short, en)
for (const line of lines) {
  const r = line.split('\t');
  const corpus = r[column.corpus];
  if (corpus.startsWith('A') && r[column.split] !== 'held-out') continue;
  const distance = Number(r[column.d64]);
  const textK = Number(r[column.k64]);
  const pairK = sp.pairK(countOf(Number(r[column.a])), countOf(Number(r[column.b])));
  const rules = {
    'K = "auto" (one text)': textK,
    'K = "pair"': pairK,
    [`"auto", at most ${cap}`]: Math.min(textK, cap),
    [`"pair", at most ${cap}`]: Math.min(pairK, cap),
    [`K = ${cap}`]: cap,
  };
  const shortEnglish =
    corpus.startsWith('A') && r[column.lang] === 'en' && r[column.length] === 'short';
  if (shortEnglish && r[column.duplicate] === '1') {
    const m = missed.get(r[column.kind]) ?? [0, 0];
    m[0] += distance > textK ? 1 : 0;
    m[1] += distance > pairK ? 1 : 0;
    missed.set(r[column.kind], m);
  }
  for (const [rule, k] of Object.entries(rules)) {
    const key = `${corpus}\t${rule}`;
    const t = tallies.get(key) ?? { tp: 0, fp: 0, fn: 0 };
    const flagged = distance <= k;
    const duplicate = r[column.duplicate] === '1';
    if (flagged && duplicate) t.tp++;
    else if (flagged) t.fp++;
    else if (duplicate) t.fn++;
    tallies.set(key, t);
  }
}
console.log('corpus        rule                      F1');
for (const [key, { tp, fp: falsePositives, fn }] of tallies) {
  const [corpus, rule] = key.split('\t');
  const f1 = (2 * tp) / (2 * tp + falsePositives + fn);
  console.log(`${corpus.padEnd(13)} ${rule.padEnd(25)} ${f1.toFixed(3)}`);
}
console.log('\nA, short English near-duplicates missed, by how the copy was made: "auto" / "pair"');
for (const [kind, [text, pair]] of [...missed].sort((x, y) => y[1][1] - x[1][1]))
  console.log(`  ${kind.padEnd(22)} ${String(text).padStart(4)} / ${String(pair).padStart(4)}`);

// The README's Chinese pair: three characters edited out of forty.
const ZH = [
  'Debian 管理员手册介绍了如何安装和配置系统，以及如何使用 APT 工具维护软件包。',
  'Debian 管理员手册介绍如何安装与配置系统，以及如何使用 APT 工具来维护软件包。',
];
let seed = 7;
const byte = () => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 24).toString(16).padStart(2, '0');
};
const flagged = { auto: 0, pair: 0 };
for (let i = 0; i < 1000; i++) {
  const keyed = new sp.Fingerprinter({ key: Array.from({ length: 16 }, byte).join('') });
  const [a, b] = ZH.map((text) => keyed.fingerprintCounted(text));
  const distance = sp.hamming(a.fingerprint, b.fingerprint);
  if (distance <= keyed.recommendedK(ZH[1])) flagged.auto++;
  if (distance <= keyed.pairK(a.features, b.features)) flagged.pair++;
  keyed.free();
}
console.log(
  `\nThe README's Chinese pair flagged under 1,000 random keys: "auto" ${flagged.auto}, "pair" ${flagged.pair}`,
);
