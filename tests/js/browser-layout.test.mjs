// Headless Chromium test of the demo as a reader meets it, at 1280 and 390 px: axe-core finds
// nothing in any view; on a phone the hash bits read as digits, the chart stays beside the rows
// it explains, and nothing is cut or spills; with 50 KB of text no redraw blocks the page for
// 50 ms (Chromium's long tasks); and screenshots of each view.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, WIDTHS, demo, longText } from '../support/demo.mjs';

const RESULTS = join(ROOT, 'test-results');
const PHONE = WIDTHS[1];

describe('demo layout, accessibility and speed in headless Chromium', { timeout: 240_000 }, () => {
  let d;
  let page;
  before(async () => {
    d = await demo();
    page = d.page;
  });
  after(async () => d?.close());

  // Each view in the states worth checking: as it opens, then after what a learner does first.
  const STATES = {
    fingerprint: [
      async () => {},
      async () => {
        await page.click('#fp-rows .frow:nth-child(2) button');
        await page.hover('#fp-chart-bit-1');
      },
    ],
    compare: [
      async () => {},
      async () => {
        await page.click('[data-preset="english"]');
        await d.settled();
      },
    ],
    steps: [
      async () => {},
      async () => {
        await page.click('[data-example="usa"]');
        await page.click('#ex-next');
        await page.click('#ex-guess-bits [data-bit="0"]');
      },
      async () => {
        for (let b = 1; b < 6; b++) await page.click(`#ex-guess-bits [data-bit="${b}"]`);
        await page.click('#ex-reveal');
        await page.setChecked('#ex-predict', false);
        await page.click('#ex-next');
        await page.click('#own-next');
        await d.settled();
      },
    ],
    index: [
      async () => {
        await page.waitForFunction(
          () => document.getElementById('ix-timing').dataset.timed === 'true',
          null,
          { timeout: 30_000 },
        );
      },
      async () => {
        await page.selectOption('#ix-plan-choice', 'multiIndex:3');
        await page.selectOption('#ix-pick', '300');
        await d.settled();
        await page.click('#ix-docs-details summary');
      },
    ],
  };

  for (const size of WIDTHS) {
    test(`axe-core finds no violation in any view at ${size.width} px`, async () => {
      for (const [view, states] of Object.entries(STATES)) {
        await d.open(view, size);
        for (const [i, prepare] of states.entries()) {
          await prepare();
          assert.deepEqual(await d.axe(), [], `${view}, state ${i}`);
        }
      }
    });
  }

  test('at 390 px: hash bits as digits, the chart beside the rows it explains, nothing cut or spilling', async () => {
    await d.open('fingerprint', PHONE);
    // The hash of each feature reads as its digits (no hex, no strip).
    const cells = await page.locator('#fp-rows .frow').evaluateAll((rows) =>
      rows.map((r) => ({
        bits: r.querySelector('.hash-bits').checkVisibility()
          ? r.querySelector('.hash-bits').textContent
          : null,
        hex: r.querySelector('.hash-hex').checkVisibility(),
        strip: r.querySelector('.strip-cell').checkVisibility(),
      })),
    );
    assert.ok(cells.length > 0);
    for (const c of cells) {
      assert.match(c.bits ?? '', /^[01]{4}( [01]{4}){3}$/);
      assert.deepEqual([c.hex, c.strip], [false, false]);
    }
    // A row tapped far down the table: the chart is on screen, above it, showing the push.
    await page.fill(
      '#fp-text',
      'One two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen.',
    );
    await d.settled();
    const row = page.locator('#fp-rows .frow:nth-child(14) button');
    await row.scrollIntoViewIfNeeded();
    await row.click();
    const where = await page.evaluate(() => {
      const chart = document.getElementById('fp-chart').getBoundingClientRect();
      const lit = document.querySelector('#fp-rows .frow.lit').getBoundingClientRect();
      return {
        chartTop: chart.top,
        chartBottom: chart.bottom,
        rowTop: lit.top,
        rowBottom: lit.bottom,
        height: innerHeight,
      };
    });
    assert.ok(
      where.chartTop >= 0 && where.chartBottom <= where.rowTop && where.rowBottom <= where.height,
      JSON.stringify(where),
    );
    assert.ok(await page.locator('#fp-chart.pushing').count(), "the tapped row's push is outlined");
    assert.match(
      await page.textContent('#fp-now'),
      /^fourteen: \+1 on \d+ bits, −1 on \d+ \(outlined\)$/,
    );

    // The worked example: after a step, the chart is on screen with the button that made it.
    await d.open('steps', PHONE);
    await page.setChecked('#ex-predict', false);
    for (let i = 0; i < 3; i++) await page.click('#ex-next');
    const stepped = await page.evaluate(() => {
      const chart = document.getElementById('ex-chart').getBoundingClientRect();
      const button = document.getElementById('ex-next').getBoundingClientRect();
      return {
        chart: [chart.top, chart.bottom],
        button: [button.top, button.bottom],
        height: innerHeight,
      };
    });
    for (const [top, bottom] of [stepped.chart, stepped.button])
      assert.ok(top >= 0 && bottom <= stepped.height, JSON.stringify(stepped));

    // Nothing cut: every option of every select fits its box; nothing spills out of its card.
    for (const view of ['fingerprint', 'compare', 'steps', 'index']) {
      await d.open(view, PHONE);
      if (view === 'index') await page.waitForSelector('#ix-matches .chip');
      const cut = await page.evaluate(() => {
        const ctx = document.createElement('canvas').getContext('2d');
        const out = [];
        for (const sel of document.querySelectorAll('.view:not([hidden]) select')) {
          const cs = getComputedStyle(sel);
          ctx.font = cs.font;
          // The text's room: the box less its padding and the arrow.
          const room =
            sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
          for (const o of sel.options)
            if (ctx.measureText(o.text).width > room) out.push(`${sel.id}: “${o.text}”`);
        }
        return out;
      });
      assert.deepEqual(cut, [], `${view}: select boxes cut`);
      const spilling = await page.evaluate(() =>
        [
          ...document.querySelectorAll(
            '.view:not([hidden]) :is(.chip, .hit, .feature-chips li, .tag, button)',
          ),
        ]
          .filter((el) => el.checkVisibility())
          .filter((el) => {
            const box = el.closest('.card, .controls, .presets, .view').getBoundingClientRect();
            const r = el.getBoundingClientRect();
            // Inside a scrolling box what is past its edge is scrolled to, not cut.
            const scroller = el.closest('.table-scroll, .plan-scroll');
            const edge = scroller ? scroller.getBoundingClientRect() : box;
            return !scroller && (r.left < edge.left - 0.5 || r.right > edge.right + 0.5);
          })
          .map((el) => el.outerHTML.slice(0, 80)),
      );
      assert.deepEqual(spilling, [], `${view}: spilling out of their card`);
      assert.equal(
        await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ),
        0,
        view,
      );
    }
    // The matches' probe chips stay inside the table's box, two lines at most per cell.
    await d.open('index', PHONE);
    await page.waitForSelector('#ix-matches .chip');
    const chips = await page.locator('#ix-matches td.found-by').evaluateAll((tds) =>
      tds.map((td) => {
        const box = td.closest('.table-scroll').getBoundingClientRect();
        const lines = new Set(
          [...td.querySelectorAll('.chip')].map((c) => Math.round(c.getBoundingClientRect().top)),
        ).size;
        return {
          inside: [...td.querySelectorAll('.chip')].every(
            (c) => c.getBoundingClientRect().right <= box.right + 0.5,
          ),
          lines,
        };
      }),
    );
    for (const c of chips) assert.ok(c.inside && c.lines <= 4, JSON.stringify(c));
  });

  // The box typed into per view; compare's other box holds a near copy of the same 50 KB.
  const BOXES = {
    fingerprint: '#fp-text',
    compare: '#cmp-text-a',
    steps: '#own-text',
    index: '#ix-query',
  };
  const big = longText(50_000);
  for (const size of WIDTHS) {
    test(`at ${size.width} px, typing into 50 KB of text, no redraw blocks the page for 50 ms`, async (t) => {
      const report = [];
      for (const [view, box] of Object.entries(BOXES)) {
        await d.open(view, size);
        if (view === 'compare') await d.paste('#cmp-text-b', big.replace(/\bpackage\b/g, 'bundle'));
        if (view === 'steps') await page.click('#own-end');
        // The paste itself: Chromium lays out 50 KB in the box once (its cost, not a redraw's).
        await d.paste(box, big);
        await page.evaluate(
          () => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 100))),
        );
        // Then keystrokes into the 50 KB text: Chromium reports every task of the page's thread
        // that ran 50 ms or more, each redraw's among them. A redraw that costs that much does so
        // on every keystroke; the shared machine can stall any one task. So a round with a long
        // task is typed again, and only a second one with a long task fails.
        const round = async () => {
          await page.evaluate(() => {
            window.longTasks = [];
            window.longTaskObserver?.disconnect();
            window.longTaskObserver = new PerformanceObserver((list) => {
              for (const e of list.getEntries()) window.longTasks.push(Math.round(e.duration));
            });
            window.longTaskObserver.observe({ type: 'longtask' });
            performance.clearMeasures();
          });
          await page.focus(box);
          await page.keyboard.press('End');
          for (const key of 'simhash! ') {
            await page.keyboard.type(key);
            await page.waitForTimeout(90);
          }
          await d.settled();
          // A frame after the last drawing, so its layout and paint are reported too.
          await page.evaluate(
            () => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 100))),
          );
          return page.evaluate(() => ({
            longTasks: window.longTasks,
            draws: performance
              .getEntriesByType('measure')
              .filter((m) => m.name.startsWith('draw '))
              .map((m) => m.duration),
          }));
        };
        const rounds = [await round()];
        if (rounds[0].longTasks.length) rounds.push(await round());
        const { draws } = rounds[0];
        assert.ok(draws.length >= 2, `${view}: the page drew the worker's answers`);
        report.push(
          `${view}: ${draws.length} redraws, longest ${Math.max(...draws).toFixed(1)} ms, median ` +
            `${[...draws].sort((a, b) => a - b)[draws.length >> 1].toFixed(1)} ms; long tasks ${rounds.map((r) => JSON.stringify(r.longTasks)).join(', then ')}`,
        );
        assert.deepEqual(
          rounds.at(-1).longTasks,
          [],
          `${view} at ${size.width} px: tasks of 50 ms or more while typing into a 50 KB text, in two rounds`,
        );
      }
      t.diagnostic(report.join(' · '));
    });
  }

  test('screenshots of every view at 1280×800 and 390×844; nothing scrolls sideways', async () => {
    await mkdir(RESULTS, { recursive: true });
    for (const size of WIDTHS) {
      for (const [view, states] of Object.entries(STATES)) {
        await d.open(view, size);
        for (const prepare of states.slice(0, 2)) await prepare();
        await page.screenshot({
          path: join(RESULTS, `demo-${view}-${size.width}x${size.height}.png`),
          fullPage: true,
        });
        assert.equal(
          await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          ),
          0,
          `the ${view} view scrolls sideways at ${size.width}px`,
        );
      }
    }
  });

  test('no console errors or warnings, page errors or failed requests', () => {
    assert.deepEqual(d.problems, []);
  });
});
