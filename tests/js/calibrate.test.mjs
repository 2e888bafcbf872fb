// Fingerprinter.calibrate against the plain computation: F1 of recommendedK at each tolerance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import sp from './load.mjs';
import { mulberry32, syllableWord } from './support.mjs';

/** F1 of flagging `hamming(a, b) <= recommendedK(a, { tolerance })` over labelled pairs. */
function f1At(fp, pairs, tolerance) {
  let [tp, fp_, fn] = [0, 0, 0];
  for (const [a, b, dup] of pairs) {
    const flagged =
      sp.hamming(fp.fingerprint(a), fp.fingerprint(b)) <= fp.recommendedK(a, { tolerance });
    if (flagged && dup) tp++;
    else if (flagged) fp_++;
    else if (dup) fn++;
  }
  return (2 * tp) / (2 * tp + fp_ + fn);
}

/** Copies whose edits reuse the text's own words: the default tolerance models new words. */
function labelled() {
  const pairs = [];
  const random = mulberry32(7);
  for (let d = 0; d < 10; d++) {
    const words = Array.from({ length: 150 }, () => syllableWord(random));
    const reuse = (every) => words.map((w, i) => (i % every === 0 ? words[1] : w)).join(' ');
    pairs.push([words.join(' '), reuse(9), true], [words.join(' '), reuse(3), false]);
  }
  return pairs;
}

test('calibrate chooses the tolerance whose recommendedK scores best, and reports it truly', () => {
  const fp = new sp.Fingerprinter();
  const pairs = labelled();
  const c = fp.calibrate(pairs);
  assert.equal(c.pairs, 20);
  assert.equal(c.duplicates, 10);
  assert.equal(c.far, Math.min(1, 2 * c.tolerance));
  assert.ok(Math.abs(c.f1 - f1At(fp, pairs, c.tolerance)) < 1e-12);
  assert.ok(Math.abs(c.defaultF1 - f1At(fp, pairs, sp.defaults().tolerance.near)) < 1e-12);
  for (let step = 2; step <= 30; step++) {
    assert.ok(f1At(fp, pairs, step / 100) <= c.f1 + 1e-12, `tolerance ${step / 100}`);
  }
  // Edits from the text's own words move it less than the default assumes.
  assert.ok(c.tolerance < 0.1 && c.f1 > c.defaultF1, JSON.stringify(c));
  assert.ok(c.fixedF1 >= c.f1 - 1e-12);
  assert.equal(typeof c.fixedK, 'number');
});

test('calibrate needs both kinds of pair and well-formed triples', () => {
  const fp = new sp.Fingerprinter({ width: 128 });
  assert.throws(
    () => fp.calibrate([]),
    /calibration needs pairs of both kinds, got near-duplicates: 0, other pairs: 0/,
  );
  assert.throws(() => fp.calibrate([['a', 'a', true]]), /near-duplicates: 1, other pairs: 0/);
  assert.throws(
    () => fp.calibrate('pairs'),
    /pairs must be an array of \[a, b, duplicate\] triples, got string/,
  );
  assert.throws(
    () => fp.calibrate([['a', 'b']]),
    /pairs\[0\] must be an \[a, b, duplicate\] triple/,
  );
  assert.throws(
    () => fp.calibrate([['a', 2, true]]),
    /pairs\[0\]\[1\] must be a string, got number/,
  );
  assert.throws(
    () => fp.calibrate([['a', 'b', 1]]),
    /pairs\[0\]\[2\] \(duplicate\) must be a boolean/,
  );
  // The instance is still usable after every error.
  assert.equal(
    fp.calibrate([
      ['a b c', 'a b c', true],
      ['a b c', 'x y z', false],
    ]).f1,
    1,
  );
});
