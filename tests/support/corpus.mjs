// A seeded corpus for the CLI and Spark tests: documents of made-up words, a share of them
// edited copies of earlier ones (a few words replaced, inserted or dropped), so near-duplicates
// exist at every small distance. Deterministic for a seed; no file is downloaded.

import { splitmix64 } from '../js/support.mjs';

/** splitmix64 (tests/js/support.mjs) as numbers in [0, 1). */
function random(seed) {
  const next = splitmix64(seed);
  return () => Number(next() >> 11n) / 2 ** 53;
}

/** `n` documents `{ id, text }`, ids 0 .. n-1; `copies` of them edited copies of earlier ones. */
export function corpus(n, { seed = 31, copies = 0.4, words = [20, 120], vocabulary = 3000 } = {}) {
  const next = random(seed);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const vocab = Array.from({ length: vocabulary }, () =>
    Array.from({ length: 2 + Math.floor(next() * 8) }, () => letters[Math.floor(next() * 26)]).join(
      '',
    ),
  );
  const word = () => vocab[Math.floor(next() ** 2 * vocabulary)]; // some words far more common
  const docs = [];
  for (let id = 0; id < n; id++) {
    let tokens;
    if (id > 0 && next() < copies) {
      tokens = docs[Math.floor(next() * id)].text.split(' ');
      for (let e = Math.floor(next() * 0.15 * tokens.length); e > 0; e--) {
        const at = Math.floor(next() * tokens.length);
        const op = next();
        if (op < 0.6) tokens[at] = word();
        else if (op < 0.8) tokens.splice(at, 0, word());
        else if (tokens.length > 5) tokens.splice(at, 1);
      }
    } else {
      tokens = Array.from({ length: words[0] + Math.floor(next() * (words[1] - words[0])) }, word);
    }
    docs.push({ id, text: tokens.join(' ') });
  }
  return docs;
}

/** Documents as JSONL. */
export const jsonl = (docs) => `${docs.map((d) => JSON.stringify(d)).join('\n')}\n`;
