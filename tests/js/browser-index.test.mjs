// Headless Chromium test of the demo's index view: it opens on the paper's setup, says when the
// plan drawn is not the library's pick, draws the probes and the pigeonhole argument from the
// library's answers, never hints at what is already on the page, and prices and times tables
// against a scan by collection size. Expected values come from the package under Node.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sp from './load.mjs';
import { planKey, planOptions } from '../../www/index-helpers.js';
import { demo, sample } from '../support/demo.mjs';

const fps = new Map(
  sample.documents.map((doc) => [doc.id, sp.fingerprint(doc.text, { width: 64 })]),
);
const byId = new Map(sample.documents.map((doc) => [doc.id, doc]));
const ids = sample.documents.map((doc) => doc.id);
const stored = sample.documents.map((doc) => fps.get(doc.id));
const N = sample.documents.length;

/** What the page's chip for one of explainQuery's candidates says: table, bucket, flipped bits. */
const chipOf = (c) =>
  c.table == null
    ? { table: 'scan' }
    : !c.probe
      ? { table: String(c.table) }
      : {
          table: String(c.table),
          bucket: String(c.probe.bucket),
          flipped: c.probe.flipped.join(','),
        };

/** The library's plan for these options at `size` fingerprints. */
function described(options, size) {
  const plan = new sp.Plan({ ...options, size });
  try {
    return plan.describe();
  } finally {
    plan.free();
  }
}

describe('demo index view in headless Chromium', { timeout: 180_000 }, () => {
  let d;
  let page;
  before(async () => {
    d = await demo();
    page = d.page;
  });
  after(async () => d?.close());

  /** The Index the page holds, rebuilt here with the plan it shows. */
  async function pageIndex() {
    const k = Number(await page.textContent('#ix-k-value'));
    const index = new sp.Index({
      width: 64,
      k,
      ...planOptions(await page.inputValue('#ix-plan-choice')),
    });
    index.insertMany(ids, stored);
    index.compact();
    return index;
  }

  /** The matches, rejected candidates and their probes as the page shows them, against the library. */
  async function checkAnswers(index) {
    const q = sp.fingerprint(await page.inputValue('#ix-query'), { width: 64 });
    const want = index.query(q);
    // The page draws its answers after the query's text is in: on a loaded machine the rows
    // may come a moment after the waits above.
    await page.waitForFunction(
      (n) => document.querySelectorAll('#ix-matches tbody tr[data-id]').length === n,
      want.length,
    );
    const shown = await page.locator('#ix-matches tbody tr[data-id]').evaluateAll((trs) =>
      trs.map((tr) => ({
        id: Number(tr.cells[0].textContent),
        distance: Number(tr.cells[1].textContent),
      })),
    );
    assert.deepEqual(shown, want);
    // Each match's pair k, the library's pairK of the query's and its text's distinct features
    // at the page's tolerance, and whether the pair rule keeps it.
    const counter = new sp.Fingerprinter({ width: 64 });
    const nq = counter.featureCount(await page.inputValue('#ix-query'));
    const tolerance = Number(await page.inputValue('#ix-tolerance')) / 100;
    const pairCells = await page
      .locator('#ix-matches tbody tr[data-id]')
      .evaluateAll((trs) => trs.map((tr) => [Number(tr.dataset.id), tr.cells[2].textContent]));
    for (const [id, cell] of pairCells) {
      const text = sample.documents.find((x) => x.id === id)?.text;
      if (text === undefined) continue; // a typed document
      const k = sp.pairK(nq, counter.featureCount(text), { width: 64, tolerance });
      const { distance } = want.find((m) => m.id === id);
      assert.equal(cell, `${k} ${distance <= k ? '✓' : '✗'}`, `#${id}`);
    }
    counter.free();
    const examined = index.explainQuery(q);
    const rejected = [
      ...new Map(examined.filter((c) => !c.accepted).map((c) => [c.id, c.distance])),
    ].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    const shownRejected = await page
      .locator('#ix-rejected tbody tr[data-id]')
      .evaluateAll((trs) =>
        trs.map((tr) => [Number(tr.cells[0].textContent), Number(tr.cells[1].textContent)]),
      );
    assert.deepEqual(shownRejected, rejected.slice(0, 60));
    for (const table of ['#ix-matches', '#ix-rejected']) {
      const rows = await page.locator(`${table} tbody tr[data-id]`).evaluateAll((trs) =>
        trs.map((tr) => ({
          id: Number(tr.dataset.id),
          chips: [...tr.querySelectorAll('.found-by .chip')].map((c) => ({ ...c.dataset })),
        })),
      );
      for (const { id, chips } of rows)
        assert.deepEqual(chips, examined.filter((c) => c.id === id).map(chipOf), `${table} #${id}`);
    }
    return { want, examined, q };
  }

  /** The probes drawn per table: plan()'s count, the query's key, and what each listed probe found. */
  async function checkProbes(plan, q, examined) {
    const keyPlan = new sp.Plan({ width: 64, k: plan.k, ...planOptions(planKey(plan)) });
    const keys = keyPlan.keys(q);
    keyPlan.free();
    const rows = await page.locator('#ix-probes .probe-row').evaluateAll((rs) =>
      rs.map((r) => ({
        table: Number(r.dataset.table),
        count: r.querySelector('.probe-count').textContent,
        key: r.querySelector('.probe-key').textContent,
        bucketPart: r.querySelector('.bucket-part').textContent,
        items: [...r.querySelectorAll('li.probe')].map((li) => ({
          flipped: li.dataset.flipped,
          bucket: li.dataset.bucket,
          bits: li.querySelector('.probe-bits')?.textContent,
          hits: [...li.querySelectorAll('.hit')].map((h) => Number(h.dataset.id)),
          more: Number(li.querySelector('.hit-more')?.textContent.slice(1) ?? 0),
        })),
      })),
    );
    assert.equal(rows.length, plan.tables.length);
    for (const row of rows) {
      const t = plan.tables[row.table];
      assert.equal(row.count, `${t.probes} probe${t.probes === 1 ? '' : 's'}`);
      // The query's key in this table, from Plan.keys, its bucket bits first.
      assert.equal(row.key, sp.toBinary(keys[row.table], t.keyBits));
      assert.equal(row.bucketPart, row.key.slice(0, t.bucketBits));
      if (t.radius >= t.bucketBits) continue;
      assert.equal(row.items[0].flipped, '', `T${row.table} lists the query's own bucket first`);
      // Every probe that found something is listed, in explainQuery's order, with what it found.
      const mine = examined.filter((c) => c.table === row.table);
      const order = ['', ...new Set(mine.map((c) => c.probe.flipped.join(',')).filter((f) => f))];
      assert.deepEqual(
        row.items.map((it) => it.flipped),
        order,
        `T${row.table}`,
      );
      for (const item of row.items) {
        const found = mine.filter((c) => c.probe.flipped.join(',') === item.flipped);
        assert.equal(
          item.hits.length + item.more,
          found.length,
          `T${row.table}, flipped ${item.flipped}`,
        );
        for (const id of item.hits) assert.ok(found.some((c) => c.id === id));
        if (found.length) {
          assert.equal(Number(item.bucket), found[0].probe.bucket);
          assert.equal(item.bits, sp.toBinary(BigInt(found[0].probe.bucket), t.bucketBits));
        }
      }
    }
  }

  test("opens on the paper's setup: k = 3, four permuted blocks, a planted copy 3 bits from its original", async () => {
    await d.open('index');
    await page.waitForFunction(
      (n) => document.getElementById('ix-count').textContent.startsWith(`(${n} stored`),
      N,
    );
    await page.waitForFunction(() => document.getElementById('ix-pick').value !== '');
    assert.equal(await page.textContent('#ix-k-value'), '3');
    assert.equal(await page.isChecked('#ix-k-auto'), false);
    assert.equal(await page.inputValue('#ix-plan-choice'), 'permuted:4');
    const first = byId.get(Number(await page.inputValue('#ix-pick')));
    assert.equal(first.id, 302);
    assert.equal(await page.inputValue('#ix-query'), first.text);
    const d0 = sp.hamming(fps.get(first.id), fps.get(first.copyOf));
    assert.ok(d0 <= 3, `the opening copy lies within k = 3 (d = ${d0})`);
    // The picker marks which copies lie within k of their originals, by the library's distance.
    const options = await page.locator('#ix-pick option[value]:not([value=""])').evaluateAll((os) =>
      os.map((o) => ({
        id: Number(o.value),
        d: Number(o.dataset.distance),
        within: o.textContent.includes('✓'),
      })),
    );
    for (const o of options) {
      const copy = byId.get(o.id);
      const dist = sp.hamming(fps.get(copy.id), fps.get(copy.copyOf));
      assert.deepEqual(o, { id: o.id, d: dist, within: dist <= 3 });
    }

    // The plan is the library's own pick for these documents, and the page says so.
    const auto = new sp.Index({ width: 64, k: 3 });
    auto.insertMany(ids, stored);
    const autoPlan = auto.plan();
    auto.free();
    assert.equal(
      planKey(autoPlan),
      'permuted:4',
      'at 340 fingerprints new Index({ k: 3 }) picks four permuted blocks',
    );
    assert.deepEqual(
      await page
        .locator('#ix-plan-choice option[data-planner]')
        .evaluateAll((os) => os.map((o) => o.value)),
      ['permuted:4'],
    );
    assert.equal(await page.getAttribute('#ix-planner', 'class'), 'verdict verdict-same');
    assert.match(
      await page.textContent('#ix-planner'),
      new RegExp(`new Index\\(\\{ k: 3 \\}\\) with these ${N} fingerprints picks this plan itself`),
    );

    const index = await pageIndex();
    const plan = index.segmentPlan(0);
    assert.equal(plan.kind, 'permuted');
    assert.deepEqual(
      plan.blocks.map((b) => b.len),
      [16, 16, 16, 16],
    );
    assert.equal(plan.tables.length, 4);
    const { want, examined, q } = await checkAnswers(index);
    assert.ok(
      want.some((m) => m.id === first.copyOf),
      'the original is found',
    );
    await checkProbes(plan, q, examined);

    // Why it is found: per block the differing bits, counted by the library on the blocks' keys.
    const blockPlan = new sp.Plan({ width: 64, k: 3, substrings: 4 });
    const [kq, km] = [blockPlan.keys(q), blockPlan.keys(fps.get(first.copyOf))];
    blockPlan.free();
    const diffs = kq.map((x, b) => sp.hamming(x, km[b]));
    assert.equal(
      diffs.reduce((a, b) => a + b, 0),
      d0,
    );
    const drawn = await page
      .locator('#ix-why .why-block')
      .evaluateAll((bs) => bs.map((b) => Number(b.dataset.diff)));
    assert.deepEqual(drawn, diffs);
    assert.equal(await page.locator('#ix-why .why-bits mark').count(), 2 * d0);
    assert.match(
      await page.textContent('#ix-why .why-head'),
      new RegExp(`#${first.copyOf}.*d = ${d0} bits differ, k = 3`),
    );
    // Keys that agree: the tables whose one block has no differing bit; explainQuery found it there.
    const agree = plan.tables.flatMap((t, i) => (diffs[t.blocks[0]] === 0 ? [`T${i}`] : []));
    assert.ok(agree.length >= 1, 'three differing bits leave one of four blocks intact');
    assert.equal(await page.textContent('#ix-why .why-guaranteed'), agree.join(', '));
    const foundIn = [
      ...new Set(examined.filter((c) => c.id === first.copyOf).map((c) => `T${c.table}`)),
    ];
    assert.equal(await page.textContent('#ix-why .why-found'), foundIn.join(', '));
    for (const t of agree)
      assert.ok(foundIn.includes(t), `${t}'s key agrees, so it finds the match`);
    index.free();

    // The query's timing line: both ways as medians of repeated runs in the worker.
    await page.waitForFunction(
      () => document.getElementById('ix-timing').dataset.timed === 'true',
      null,
      { timeout: 30_000 },
    );
    assert.match(
      await page.textContent('#ix-timing'),
      /At 340 fingerprints, index\.query takes [\d.]+ µs with this plan's tables and [\d.]+ µs with a scan plan: medians of 21 runs of \d+ and \d+ calls/,
    );
  });

  test('a plan the library would not pick is said to be so; the hint never contradicts the page', async () => {
    await d.open('index');
    await page.waitForFunction(() => document.getElementById('ix-pick').value === '302');
    await page.selectOption('#ix-plan-choice', 'multiIndex:2');
    await d.settled();
    assert.equal(await page.getAttribute('#ix-planner', 'class'), 'verdict verdict-other');
    const pick = described({ width: 64, k: 3 }, N);
    const drawnPlan = described({ width: 64, k: 3, substrings: 2 }, N);
    const text = await page.textContent('#ix-planner');
    assert.match(text, /^Not the library's choice at this size:/);
    assert.match(
      text,
      new RegExp(
        `priced at ${Number((pick.estimate.nanos / 1000).toPrecision(3))} µs a query against ` +
          `${Number((drawnPlan.estimate.nanos / 1000).toPrecision(3))} µs a query for the plan drawn`,
      ),
    );
    assert.match(await page.textContent('#ix-plan-choice option[data-planner]'), /^★ 4 blocks/);
    let index = await pageIndex();
    await checkAnswers(index);
    index.free();

    // A planted copy beyond k: the page says why nothing is explained, and never asks to pick a
    // copy while one is picked.
    await page.selectOption('#ix-plan-choice', 'permuted:4');
    await page.selectOption('#ix-pick', '300');
    await d.settled();
    const d300 = sp.hamming(fps.get(300), fps.get(byId.get(300).copyOf));
    assert.ok(d300 > 3);
    index = await pageIndex();
    const { want } = await checkAnswers(index);
    index.free();
    assert.ok(!want.some((m) => m.id === byId.get(300).copyOf), 'the original is beyond k');
    const hint = await page.textContent('#ix-why .why-hint');
    assert.match(
      hint,
      new RegExp(`The planted copy #300 is ${d300} bits from its original #176, beyond k = 3`),
    );
    assert.match(hint, new RegExp(`Set k to ${d300} or more`));
    assert.doesNotMatch(hint, /pick a planted copy to see/);
    // Raised to that k by hand, the copy is found and explained.
    await page.locator('#ix-k').evaluate((el, k) => {
      el.value = String(k);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, d300);
    await d.settled();
    assert.match(
      await page.textContent('#ix-why .why-head'),
      new RegExp(`#176.*d = ${d300} bits differ, k = ${d300}`),
    );
    // A typed query that finds nothing but itself asks for a copy within k.
    await d.fill('#ix-query', 'A sentence nobody planted in the sample at all.');
    assert.match(
      await page.textContent('#ix-why .why-hint'),
      /No stored fingerprint lies within k = 5 of the query/,
    );
  });

  test("tables or a scan: the library's pick and prices per size, both timed as medians", async () => {
    await d.open('index');
    await page.waitForFunction(() => document.getElementById('ix-pick').value === '302');
    const rows = async () =>
      page.locator('#ix-sizes tbody tr').evaluateAll((trs) =>
        trs.map((tr) => ({
          size: Number(tr.dataset.size),
          pick: tr.cells[1].dataset.pick,
          tables: Number(tr.querySelector('.est-tables').dataset.nanos),
          scan: Number(tr.querySelector('.est-scan').dataset.nanos),
          timed: tr.querySelector('.t-query')
            ? [
                Number(tr.querySelector('.t-query').dataset.us),
                Number(tr.querySelector('.t-scan').dataset.us),
              ]
            : null,
          chosen: tr.classList.contains('chosen'),
        })),
      );
    const shown = await rows();
    assert.ok(
      shown.some((r) => r.size === N && r.chosen),
      "the stored collection's size is chosen at first",
    );
    for (const r of shown) {
      const pick = described({ width: 64, k: 3 }, r.size);
      assert.equal(r.pick, planKey(pick), `${r.size}`);
      assert.equal(r.tables, described({ width: 64, k: 3, blocks: 4 }, r.size).estimate.nanos);
      assert.equal(r.scan, described({ width: 64, k: 3, scan: true }, r.size).estimate.nanos);
    }
    // The cost model's crossover as the summary states it: the first size from which tables win.
    let from = null;
    for (const r of shown) from = r.tables < r.scan ? (from ?? r.size) : null;
    assert.ok(
      from != null && shown.some((r) => r.pick === 'scan'),
      'small collections scan, larger ones use tables',
    );
    assert.match(
      await page.textContent('#ix-sizes-summary'),
      new RegExp(`the plan drawn beats a scan from ${from.toLocaleString('en')} fingerprints`),
    );
    // The slider chooses a size; every size can be timed, in the worker, as medians of 21 runs.
    await page.locator('#ix-size').evaluate((el) => {
      el.value = '0';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    assert.ok((await rows())[0].chosen);
    await page.click('#ix-time-all');
    await page.waitForFunction(
      () =>
        document.getElementById('ix-size-status').hidden &&
        [...document.querySelectorAll('#ix-sizes tbody tr')].every((tr) =>
          tr.querySelector('.t-query'),
        ),
      null,
      { timeout: 120_000 },
    );
    const timed = await rows();
    for (const r of timed)
      assert.ok(
        r.timed.every((us) => Number.isFinite(us) && us > 0),
        `${r.size}: ${r.timed}`,
      );
    assert.match(await page.textContent('#ix-sizes-summary'), /Each time is the median of 21 runs/);
    // At a million fingerprints a scan reads them all: the tables are faster there, whatever the machine.
    const million = timed.at(-1);
    assert.equal(million.size, 1_000_000);
    assert.ok(
      million.timed[0] < million.timed[1],
      `a million: tables ${million.timed[0]} µs, scan ${million.timed[1]} µs`,
    );
  });

  test('every planted copy finds its original at its recommended k; plans and colours as drawn', async () => {
    await d.open('index');
    await page.waitForFunction(() => document.getElementById('ix-pick').value === '302');
    await page.check('#ix-k-auto');
    await d.settled();
    await page.selectOption('#ix-plan-choice', 'multiIndex:5');
    for (const copy of sample.documents.filter((x) => x.copyOf != null)) {
      await page.selectOption('#ix-pick', String(copy.id));
      await d.settled();
      const k = sp.recommendedK(copy.text, 64);
      await page.waitForFunction(
        (want) => document.getElementById('ix-k-value').textContent === String(want),
        k,
      );
      const found = await page
        .locator('#ix-matches tbody tr[data-id]')
        .evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.id)));
      assert.ok(found.includes(copy.copyOf), `#${copy.id} finds #${copy.copyOf} at k = ${k}`);
      assert.ok(
        (await page.locator('#ix-why .why-block.within').count()) >= 1,
        `#${copy.id}: a substring within its radius`,
      );
    }
    assert.equal(
      await page.inputValue('#ix-plan-choice'),
      'multiIndex:5',
      'the plan stays as k moves',
    );
    // The tolerance starts at the library's default and moves the k the view follows: the
    // library's recommendedK for the query at that share, wherever it lands.
    const tol = sp.defaults().tolerance.near * 100;
    assert.equal(Number(await page.inputValue('#ix-tolerance')), tol);
    const last = await page.inputValue('#ix-query');
    const ks = [];
    for (const pct of [3, 25, tol]) {
      await d.fill('#ix-tolerance', String(pct));
      const want = Math.min(24, sp.recommendedK(last, { width: 64, tolerance: pct / 100 }));
      ks.push(want);
      await page.waitForFunction(
        (w) => document.getElementById('ix-k-value').textContent === String(w),
        want,
      );
      assert.match(await page.textContent('#ix-k-note'), new RegExp(`at ${pct} % = ${want}\\b`));
      // Beside it, the pair rule's k for the query against a text of its size, from the library.
      const fp = new sp.Fingerprinter({ width: 64 });
      const n = fp.featureCount(last);
      const pairMax = fp.pairK(n, n, { tolerance: pct / 100 });
      fp.free();
      assert.match(
        await page.textContent('#ix-k-note'),
        new RegExp(`pairK\\(n, n\\) = ${pairMax} for`),
      );
    }
    assert.ok(ks[0] < ks[2] && ks[2] < ks[1], `k at 3, 25 and ${tol} %: ${ks}`);
    // A share the library refuses (none at all) is its error in the status line.
    await d.fill('#ix-tolerance', '0');
    await page.waitForFunction(() => !document.getElementById('ix-status').hidden);
    assert.match(await page.textContent('#ix-status'), /tolerance/i);
    // A width change meanwhile keeps the page working and the message shown.
    for (const width of ['128', '64']) {
      await page.selectOption('#ix-width', width);
      await d.settled();
      await page.waitForFunction(() => !document.getElementById('ix-status').hidden);
      assert.match(await page.textContent('#ix-status'), /tolerance/i);
    }
    await d.fill('#ix-tolerance', String(tol));
    await page.waitForFunction(() => document.getElementById('ix-status').hidden);
    const index = await pageIndex();
    const plan = index.segmentPlan(0);
    const { q, examined } = await checkAnswers(index);
    await checkProbes(plan, q, examined);
    // The multi-index argument: Σ(rᵢ + 1) > k.
    const bound = plan.tables.reduce((a, t) => a + t.radius + 1, 0);
    assert.equal(Number(await page.textContent('#ix-why .why-bound')), bound);
    assert.ok(bound > plan.k);
    index.free();

    // Block colours stay distinct however many blocks a permuted plan has.
    for (const k of [9, 17, 24]) {
      await page.locator('#ix-k').evaluate((el, want) => {
        el.value = String(want);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, k);
      await page.selectOption('#ix-plan-choice', `permuted:${k + 1}`);
      const colours = await page
        .locator('#ix-plan .plan-blocks .seg')
        .evaluateAll((segs) => segs.map((s) => getComputedStyle(s).backgroundColor));
      assert.equal(colours.length, k + 1);
      assert.equal(
        new Set(colours).size,
        colours.length,
        `${colours.length} blocks, ${new Set(colours).size} colours`,
      );
    }

    // A typed document is stored, compacted and found; a scan has nothing to probe.
    await page.check('#ix-k-auto');
    await page.fill('#ix-doc', 'A document typed into the demo, to be found again.');
    await page.click('#ix-add');
    await page.waitForFunction(
      (n) => document.getElementById('ix-count').textContent.startsWith(`(${n + 1} stored`),
      N,
    );
    assert.match(await page.textContent('#ix-count'), /1 segment\)$/);
    await d.fill('#ix-query', 'A document typed into the demo, to be found again.');
    const rowsNow = await page
      .locator('#ix-matches tbody tr[data-id]')
      .evaluateAll((trs) => trs.map((tr) => tr.cells[0].textContent));
    assert.equal(rowsNow[0], '10000');
    await page.selectOption('#ix-plan-choice', 'scan');
    assert.match(await page.textContent('#ix-probes'), /A scan has no tables/);
    // Remove all, then the sample again.
    await page.click('#ix-clear');
    assert.match(await page.textContent('#ix-count'), /^\(0 stored/);
    assert.equal(await page.locator('#ix-matches tbody tr[data-id]').count(), 0);
    await page.click('#ix-add-sample');
    await page.waitForFunction(
      (n) => document.getElementById('ix-count').textContent.startsWith(`(${n} stored`),
      N,
    );
  });

  test('at phone width the table and probe lists say how many rows are below', async () => {
    await d.open('index', { width: 390, height: 844 });
    await page.waitForFunction(() => document.getElementById('ix-pick').value !== '');
    const many = await page.locator('#ix-plan-choice option').evaluateAll((os) =>
      os
        .map((o) => o.value)
        .filter((v) => v.startsWith('permuted:'))
        .at(-1),
    );
    await page.selectOption('#ix-plan-choice', many);
    for (const list of ['#ix-plan', '#ix-probes']) {
      // A redraw replaces the rows (the timings arrive from the page's worker), so the note
      // and the rows are read together, in one poll, once the note is shown and written.
      const seen = await page.waitForFunction((sel) => {
        const more = document.querySelector(`${sel} .plan-more`);
        const text = more?.hidden === false ? more.textContent : '';
        if (!/▼ \d+ more tables? below/.test(text)) return null;
        const rows = document.querySelectorAll(`${sel} [data-table]:is(.plan-row, .probe-row)`);
        return { text, tables: rows.length };
      }, list);
      const { text, tables } = await seen.jsonValue();
      assert.ok(tables > 3, `${list}: ${tables} tables`);
      const [, count, from, to] = /▼ (\d+) more tables? below \(T(\d+)–T(\d+)\)/.exec(text);
      assert.equal(Number(to), tables - 1);
      assert.equal(Number(count), tables - Number(from));
      // Scrolled to the bottom on every poll: a redraw that lands meanwhile (the timings
      // arrive from the page's worker) replaces the rows and scrolls the list back up.
      await page.waitForFunction((sel) => {
        const scroller = document.querySelector(`${sel} .plan-scroll`);
        if (scroller === null) return false;
        scroller.scrollTop = scroller.scrollHeight;
        return document.querySelector(`${sel} .plan-more`)?.hidden === true;
      }, list);
    }
  });

  test('no console errors or warnings, page errors or failed requests', () => {
    assert.deepEqual(d.problems, []);
  });
});
