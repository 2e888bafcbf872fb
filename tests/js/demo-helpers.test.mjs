// The demo's pure helpers in Node (www/format.js, www/index-helpers.js), against the library's
// own plans where they read them; and the demo's files kept small enough to read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sp from './load.mjs';
import { escapeHtml, fmt, plural, signed } from '../../www/format.js';
import {
  blockStyle,
  choiceLabel,
  describePlan,
  keyPositions,
  maxK,
  micros,
  nearestChoice,
  offeredChoices,
  planKey,
  planOptions,
  probeChip,
  radiiOf,
  snippet,
  winsFrom,
} from '../../www/index-helpers.js';
import { ROOT } from '../support/demo.mjs';

/** The library's plan for a choice key, or null where it refuses one (as the page asks). */
const describe =
  (width, k, size = 340) =>
  (key) => {
    let plan;
    try {
      plan = new sp.Plan({ width, k, ...planOptions(key), size });
      return plan.describe();
    } catch {
      return null;
    } finally {
      plan?.free();
    }
  };

test('format: numbers with a real minus, pushes signed, plurals, HTML escaped', () => {
  assert.equal(fmt(-4), '−4');
  assert.equal(fmt(1.5), '1.5');
  assert.equal(fmt(1 / 3), '0.333');
  assert.equal(fmt(2.0001), '2');
  assert.equal(signed(2, true), '+2');
  assert.equal(signed(-2, false), '−2');
  assert.equal(plural(1, 'bit'), '1 bit');
  assert.equal(plural(3, 'entry', 'entries'), '3 entries');
  assert.equal(
    escapeHtml(`<b a="x">'&'</b>`),
    '&lt;b a=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;',
  );
});

test("plan keys: every offered choice names the library's plan and comes back from it", () => {
  for (const [width, k] of [
    [64, 3],
    [64, 11],
    [64, 0],
    [32, 5],
    [128, 17],
  ]) {
    const choices = offeredChoices(width, k, describe(width, k));
    assert.ok(
      choices.some((c) => c.kind === 'permuted'),
      `${width}/${k}: some permuted plan`,
    );
    assert.equal(choices.at(-1).key, 'scan');
    for (const c of choices) {
      assert.equal(planKey(c.plan), c.key, `${width}/${k}: ${c.key}`);
      // The plan described is the one new Index builds for those options.
      const index = new sp.Index({ width, k, ...planOptions(c.key) });
      assert.deepEqual(
        index.plan().tables.map((t) => t.blocks),
        c.plan.tables.map((t) => t.blocks),
      );
      index.free();
      assert.ok(c.tables <= 70 || c.kind === 'permuted', `${c.key}: drawable`);
    }
    // No combined plan at radius 0 (a permuted plan by another name).
    assert.ok(
      choices.filter((c) => c.kind === 'combined').every((c) => c.plan.tables[0].radius > 0),
    );
  }
  assert.deepEqual(planOptions('combined:6:2'), { blocks: 6, keyBlocks: 2 });
  assert.deepEqual(planOptions('scan'), { scan: true });
});

test("labels fit a phone's select box and say what the plan is", () => {
  const d = describe(64, 11);
  // 11 = 2·5 + 1: the first two substrings within 2, the others within 1 (the library's rule).
  assert.equal(choiceLabel(d('multiIndex:5')), '5 substrings, r 2,2,1,1,1');
  assert.equal(choiceLabel(d('permuted:12')), '12 blocks, 12 tables');
  assert.equal(choiceLabel(d('scan')), 'scan every fingerprint');
  assert.match(
    describePlan(d('multiIndex:5')),
    /^multi-index hashing: 5 substrings of 13\/12 bits, radii 2,2,1,1,1$/,
  );
  assert.deepEqual(radiiOf(d('multiIndex:5')), [2, 2, 1, 1, 1]);
  // Every label of every k a slider reaches stays within 32 characters.
  for (let k = 0; k <= maxK(64); k++) {
    for (const c of offeredChoices(64, k, describe(64, k)))
      assert.ok(c.label.length <= 32, `${k}: “${c.label}”`);
  }
});

test('the nearest choice keeps the kind wanted as k moves', () => {
  const choices = offeredChoices(64, 9, describe(64, 9));
  assert.equal(nearestChoice('permuted:10', choices, 'scan'), 'permuted:10');
  assert.equal(
    nearestChoice('permuted:4', choices, 'scan'),
    'permuted:10',
    'the same kind, nearest count',
  );
  assert.equal(nearestChoice('multiIndex:12', choices, 'scan'), 'multiIndex:8');
  assert.equal(
    nearestChoice('nothing:1', choices, 'multiIndex:5'),
    'multiIndex:5',
    "else the planner's pick",
  );
});

test('block colours: distinct hues for up to 25 blocks, every other one striped', () => {
  for (let n = 1; n <= 25; n++) {
    const styles = Array.from({ length: n }, (_, b) => blockStyle(b, n));
    assert.equal(new Set(styles.map((s) => s.hue)).size, n, `${n} blocks`);
    assert.deepEqual(
      styles.map((s) => s.striped),
      styles.map((_, b) => b % 2 === 1),
    );
  }
});

test("key positions and probe chips read the library's tables and candidates", () => {
  const plan = describe(64, 9)('combined:6:2');
  const t = plan.tables[0];
  assert.deepEqual(keyPositions(t).length, t.keyBits);
  assert.deepEqual(keyPositions(t).slice(0, 3), [
    t.ranges[0].start,
    t.ranges[0].start + 1,
    t.ranges[0].start + 2,
  ]);
  assert.match(
    probeChip({ table: 2, probe: { bucket: 37, bucketBits: 8, flipped: [3, 12] } }),
    /data-flipped="3,12".*>T2 · 37 · ⊕3,12</,
  );
  assert.match(
    probeChip({ table: 1, probe: { bucket: 5, bucketBits: 8, flipped: [] } }),
    />T1 · 5 · own</,
  );
  assert.match(probeChip({ table: null, probe: null }), /data-table="scan"/);
});

test('where one way starts to beat the other for good; times written to 3 digits', () => {
  const rows = [100, 200, 340, 1000, 10_000].map((size, i) => ({
    size,
    win: [false, true, false, true, true][i],
  }));
  assert.equal(
    winsFrom(rows, (r) => r.win),
    1000,
    'a win that does not last does not count',
  );
  assert.equal(
    winsFrom(rows, () => false),
    null,
  );
  assert.equal(
    winsFrom(rows, () => true),
    100,
  );
  assert.equal(micros(0.20336), '0.203 µs');
  assert.equal(micros(450.4), '450 µs');
  assert.equal(micros(NaN), '–');
  assert.equal(snippet('x'.repeat(200)).length, 111);
});

test('no file of the demo is over 500 lines of code', () => {
  const www = join(ROOT, 'www');
  for (const name of readdirSync(www).filter((f) => /\.(js|css|html)$/.test(f))) {
    const code = readFileSync(join(www, name), 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !/^\s*(\/\/|\/\*|\*|<!--)/.test(line));
    assert.ok(code.length <= 500, `www/${name}: ${code.length} lines of code`);
  }
});
