// Headless Chromium test of the demo page's first three views (every number is the library's,
// the fragile rule holds against every one-feature change, the compare view's feature lists and
// sums, the editable worked example with the reference articles' numbers) and of the golden
// vectors inside a real browser. Expected values come from the package under Node.
// browser-index.test.mjs has the index view; browser-layout.test.mjs phones, axe and speed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import sp, { golden } from './load.mjs';
import { expectedAnswers, goldenAnswers } from '../support/golden.mjs';
import { WIDTHS, chartV, demo, plain, show, tuple } from '../support/demo.mjs';

const DEFAULT_WIDTH = sp.defaults().options.width;
// The reference pair (the practitioner's article's Chinese sentences).
const PAIR = ['你妈妈喊你回家吃饭哦,回家罗回家罗', '你妈妈叫你回家吃饭啦,回家罗回家罗'];

/** True when the package takes these options (newer builds have more of them). */
function accepts(options) {
  try {
    new sp.Fingerprinter(options).free();
    return true;
  } catch {
    return false;
  }
}

/** The fingerprint view's options object for the controls as the test sets them. */
function fpOptions({
  width,
  tokenizer,
  wordN = 1,
  charN = 2,
  weighting = 'tf',
  caseFold = true,
  normalization,
}) {
  const o = { width, tokenizer, caseFold, weighting };
  if (normalization) o.normalization = normalization;
  if (tokenizer === 'auto') Object.assign(o, { wordN, charN });
  else o.n = tokenizer === 'words' ? wordN : charN;
  return o;
}

/**
 * Every one-feature change to `rows` ([hash, weight] pairs), made by fingerprinting the changed
 * list again: each feature removed, and one feature of each weight present added with an
 * all-ones hash (a push up on every bit) and an all-zeros one (down on every bit). Per bit: the
 * features whose removal flipped it, and the least weight whose addition did.
 */
function bruteForce(rows, width) {
  const bits = sp.explainHashes(rows, width).bits;
  const flips = (list) => [...sp.explainHashes(list, width).bits].map((b, i) => b !== bits[i]);
  const out = [...bits].map(() => ({ removals: [], addition: null }));
  rows.forEach((_, j) =>
    flips(rows.filter((__, r) => r !== j)).forEach((f, i) => f && out[i].removals.push(j)),
  );
  const all = (1n << BigInt(width)) - 1n;
  for (const w of [...new Set(rows.map(([, x]) => Math.abs(x)))]
    .filter((x) => x > 0)
    .sort((a, b) => a - b)) {
    for (const hash of [all, 0n]) {
      flips([...rows, [hash, w]]).forEach((f, i) => {
        if (f && out[i].addition === null) out[i].addition = w;
      });
    }
  }
  return out;
}
const fragileBits = (bits) =>
  bits.flatMap((b, i) => (b.removals.length || b.addition !== null ? [i] : []));

describe('demo page in headless Chromium', { timeout: 120_000 }, () => {
  let d;
  let page;
  before(async () => {
    d = await demo();
    page = d.page;
  });
  after(async () => d?.close());

  /**
   * Checks the outline on a V chart: on every bar it spans from[i] to to[i] (the V before and
   * after a step), measured in pixels against the chart's scale; from = null: no outline.
   */
  async function checkOutline(id, from, to, label) {
    const drawn = await page.locator(`#${id}`).evaluate((chart) => ({
      pushing: chart.classList.contains('pushing'),
      scale: Number(chart.dataset.scale),
      cells: [...chart.querySelectorAll('.cell')].map((cell) => {
        const track = cell.querySelector('.track').getBoundingClientRect();
        const push = cell.querySelector('.push');
        const box = push.getBoundingClientRect();
        return {
          top: track.top,
          height: track.height,
          shown: getComputedStyle(push).display !== 'none',
          a: box.top,
          b: box.bottom,
        };
      }),
    }));
    if (from == null) return assert.equal(drawn.pushing, false, `${label}: no outline`);
    assert.equal(drawn.pushing, true, `${label}: an outline`);
    // y of value x: the middle of the track at 0, its top at +scale.
    const y = (c, x) => c.top + c.height * (0.5 - (x / drawn.scale) * 0.5);
    drawn.cells.forEach((c, i) => {
      if (from[i] === to[i])
        return assert.equal(c.shown, false, `${label}, bit ${i}: nothing moved`);
      const where = `${label}, bit ${i}: ${from[i]} → ${to[i]}`;
      assert.ok(Math.abs(c.a - y(c, Math.max(from[i], to[i]))) <= 1.5, `${where}: top at ${c.a}`);
      assert.ok(
        Math.abs(c.b - y(c, Math.min(from[i], to[i]))) <= 1.5,
        `${where}: bottom at ${c.b}`,
      );
    });
  }

  test('the server serves www/ and pkg/ only; / leads to the page', async () => {
    // Raw requests, so that no client tidies the paths first.
    const get = (path) =>
      new Promise((ok, fail) => {
        const { hostname, port } = new URL(d.url);
        http
          .get({ hostname, port, path }, (res) => {
            res.resume();
            ok({
              status: res.statusCode,
              type: res.headers['content-type'],
              location: res.headers.location,
            });
          })
          .on('error', fail);
      });
    assert.deepEqual(await get('/'), { status: 302, type: undefined, location: '/www/' });
    assert.equal((await get('/www/')).status, 200);
    assert.equal((await get('/www/sample.json')).status, 200);
    assert.equal((await get('/www/worker.js')).status, 200);
    assert.equal((await get('/pkg/simprint_bg.wasm')).type, 'application/wasm');
    for (const path of [
      '/.git/HEAD',
      '/.git',
      '/.git/config',
      '/Cargo.toml',
      '/README.md',
      '/src/lib.rs',
      '/scripts/serve.sh',
      '/tests/golden.json',
      '/package.json',
      '/node_modules/playwright-core/package.json',
      '/node_modules/axe-core/axe.min.js',
      '/www/../Cargo.toml',
      '/www/%2e%2e/Cargo.toml',
      '/pkg/..%2fCargo.toml',
      '/www/..%5cCargo.toml',
      '/pkg/',
      '/pkg/.gitignore',
      '/www/%00',
    ]) {
      assert.equal((await get(path)).status, 404, path);
    }
    assert.match(await (await fetch(`${d.url}/www/`)).text(), /<title>simprint/);
  });

  test('the page opens on the fingerprint view; the tabs work by keyboard', async () => {
    await d.open('');
    assert.equal(await page.locator('#view-fingerprint').isVisible(), true);
    assert.equal(
      await page.getAttribute('.tabs a[data-view="fingerprint"]', 'aria-current'),
      'page',
    );
    await page.locator('body').focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.view), 'steps');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !document.getElementById('view-steps').hidden);
    assert.equal(await page.locator('#view-fingerprint').isVisible(), false);
    assert.equal(await page.getAttribute('.tabs a[data-view="steps"]', 'aria-current'), 'page');
  });

  test('every form control of every view has a label', async () => {
    for (const view of ['fingerprint', 'compare', 'steps', 'index']) {
      await d.open(view);
      if (view === 'index') await page.waitForSelector('#ix-matches button.why');
      if (view === 'steps') await page.click('#ex-next'); // the guess buttons
      const unlabelled = await page.evaluate(() =>
        [...document.querySelectorAll('input, select, textarea, button, [tabindex="0"]')]
          .filter((el) => el.checkVisibility())
          .filter(
            (el) =>
              !(
                el.labels?.length ||
                el.getAttribute('aria-label') ||
                el.getAttribute('aria-labelledby') ||
                el.textContent.trim()
              ),
          )
          .map((el) => el.id || el.outerHTML.slice(0, 80)),
      );
      assert.deepEqual(unlabelled, [], view);
    }
  });

  test("fingerprint view: the features, V, bits and hex are the library's", async () => {
    await d.open('fingerprint');
    const text = 'Hello hello world. The world says hello, and the hello echoes: HELLO world!';
    const cases = [
      { width: 16, tokenizer: 'auto' },
      { width: 64, tokenizer: 'words', wordN: 2, weighting: 'binary' },
      { width: 128, tokenizer: 'chars', charN: 3, caseFold: false },
      { width: 8, tokenizer: 'auto', wordN: 1, charN: 2 },
    ];
    const logtf = accepts({ weighting: 'logtf' });
    const normalization = accepts({ normalization: 'none' });
    assert.equal(await page.locator('#fp-weighting option[value="logtf"]').count(), logtf ? 1 : 0);
    assert.equal(await page.locator('#fp-normalization').count(), normalization ? 1 : 0);
    if (logtf)
      cases.splice(1, 0, {
        width: 32,
        tokenizer: 'auto',
        weighting: 'logtf',
        ...(normalization && { normalization: 'none' }),
      });
    for (const c of cases) {
      const o = fpOptions(c);
      await page.selectOption('#fp-width', String(o.width));
      await page.selectOption('#fp-tokenizer', o.tokenizer);
      if (o.tokenizer !== 'chars') await d.fill('#fp-word-n', String(c.wordN ?? 1));
      if (o.tokenizer !== 'words') await d.fill('#fp-char-n', String(c.charN ?? 2));
      assert.equal(await page.isDisabled('#fp-word-n'), o.tokenizer === 'chars');
      assert.equal(await page.isDisabled('#fp-char-n'), o.tokenizer === 'words');
      await page.selectOption('#fp-weighting', o.weighting);
      await page.setChecked('#fp-case-fold', o.caseFold);
      if (normalization) await page.selectOption('#fp-normalization', o.normalization ?? 'width');
      await d.fill('#fp-text', text);

      const want = sp.explain(text, o);
      const label = JSON.stringify(o);
      assert.equal(await page.textContent('#fp-hex'), want.hex, label);
      assert.equal(await page.getAttribute('#fp-bits', 'aria-label'), want.bits, label);
      assert.deepEqual(
        await chartV(page, 'fp-chart'),
        want.v.map((v, i) => ({ v: show(v), bit: want.bits[i] })),
        label,
      );
      assert.equal(await page.textContent('#fp-feature-count'), `(${want.features.length})`, label);
      const rows = await page.locator('#fp-rows .frow').evaluateAll((rs) =>
        rs.map((r) => ({
          feature: r.querySelector('.feature-text').textContent,
          weight: r.querySelector('[role=cell].num').textContent,
          hex: r.querySelector('.hash-hex').textContent,
          bits: r.querySelector('.hash-bits').textContent.replaceAll(' ', ''),
        })),
      );
      assert.deepEqual(
        rows,
        want.features.map((f) => ({
          feature: f.feature,
          weight: show(f.weight),
          hex: sp.toHex(f.hash, want.width),
          bits: f.bits,
        })),
        label,
      );
    }

    // Hovering a feature outlines its push on every bar: up where its hash has a 1.
    const want = sp.explain(text, fpOptions(cases.at(-1)));
    await page.hover('#fp-rows .frow:nth-child(2)');
    assert.ok(await page.locator('#fp-chart.pushing').count());
    const pushes = await page
      .locator('#fp-chart .push')
      .evaluateAll((ps) => ps.map((p) => (p.classList.contains('up') ? '1' : '0')).join(''));
    assert.equal(pushes, want.features[1].bits);
    assert.match(
      await page.textContent('#fp-details'),
      new RegExp(`Feature ${want.features[1].feature}, weight`),
    );

    // Hovering a bar lists the features that pushed it up and down, read off the library's rows.
    for (const bit of [0, 5]) {
      await page.hover(`#fp-chart-bit-${bit}`);
      const details = await page.textContent('#fp-details');
      const up = want.features.filter((f) => f.bits[bit] === '1');
      const down = want.features.filter((f) => f.bits[bit] === '0');
      assert.match(
        plain(details),
        new RegExp(`^Bit ${bit}: V${bit} = ${want.v[bit]} → bit ${want.bits[bit]}`),
      );
      assert.match(
        details,
        up.length ? new RegExp(`Pushed up by ${up.length} features?:`) : /Nothing pushed it up/,
      );
      assert.match(
        details,
        down.length
          ? new RegExp(`Pushed down by ${down.length} features?:`)
          : /Nothing pushed it down/,
      );
      const listed = await page.locator('#fp-details .pushers.up .feature-text').allTextContents();
      assert.deepEqual(listed.sort(), up.map((f) => f.feature).sort());
    }

    // By keyboard: the chart is one tab stop and arrow keys move along the bits.
    await page.focus('#fp-chart');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.match(await page.textContent('#fp-details'), /^Bit 2:/);
    assert.match(await page.textContent('#fp-now'), /^Bit 2: V = /);
    // The feature rows too: one tab stop, arrows move, Enter pins, Escape lets go.
    await page.focus('#fp-rows .frow:first-child button');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator('#fp-rows .frow.lit').getAttribute('data-i'), '1');
    await page.keyboard.press('Enter');
    await page.focus('#fp-text');
    assert.equal(
      await page.locator('#fp-rows .frow.lit').getAttribute('data-i'),
      '1',
      'Enter pins the row',
    );
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('#fp-rows .frow.lit').count(), 0);
  });

  for (const size of WIDTHS) {
    test(`fingerprint view at ${size.width} px: the fragile bits are exactly those one feature more or less flips`, async () => {
      await d.open('fingerprint', size);
      const words =
        'zebra quartz violin harbor lantern meadow copper orbit ginger pixel saddle thunder velvet walnut ' +
        'anchor basil cobalt dune ember fjord glacier hazel iris jasmine kelp lotus marble nectar opal prism';
      const texts = [
        ['The cat sat on the mat. The dog sat on the log.', { width: 16, tokenizer: 'auto' }],
        [
          'the cat and the hat and the bat sat on the mat with the rat',
          { width: 16, tokenizer: 'auto', weighting: 'tf' },
        ],
        [
          'Near-duplicate detection with SimHash fingerprints finds copies, near copies and edited copies.',
          { width: 32, tokenizer: 'auto' },
        ],
        [PAIR[0], { width: 64, tokenizer: 'auto' }],
      ];
      for (const [text, c] of texts) {
        const o = fpOptions({ weighting: 'binary', ...c });
        await page.selectOption('#fp-width', String(o.width));
        await page.selectOption('#fp-weighting', o.weighting);
        await d.fill('#fp-text', text);
        const e = sp.explain(text, o);
        const truth = bruteForce(
          e.features.map((f) => [f.hash, f.weight]),
          e.width,
        );
        const fragile = fragileBits(truth);
        const label = `${text} ${JSON.stringify(o)}`;
        const marked = await page
          .locator('#fp-chart .cell')
          .evaluateAll((cs) => cs.flatMap((c, i) => (c.classList.contains('fragile') ? [i] : [])));
        assert.deepEqual(marked, fragile, label);
        assert.equal(
          await page.textContent('#fp-fragile'),
          `${fragile.length} of ${e.width}`,
          label,
        );
        const underlined = await page.locator('#fp-bits mark').count();
        assert.equal(underlined, fragile.length, label);
        // With binary weights the rule the page states: exactly the bits at V = 0 or 1.
        if (o.weighting === 'binary') {
          assert.deepEqual(
            fragile,
            e.v.flatMap((v, i) => (v === 0 || v === 1 ? [i] : [])),
            label,
          );
          assert.match(await page.textContent('#fp-fragile-rule'), /exactly V\s*i = 0 or 1/);
        }
        // Each bar names who could flip it: the features whose removal does, the least weight added.
        for (const i of [
          ...fragile.slice(0, 3),
          e.v.findIndex((_, b) => !fragile.includes(b)),
        ].filter((b) => b >= 0)) {
          await page.hover(`#fp-chart-bit-${i}`);
          const why = await page
            .locator('#fp-details .fragile-why')
            .evaluate((el) => ({ ...el.dataset }));
          assert.deepEqual(
            why,
            {
              removals: String(truth[i].removals.length),
              addition: String(truth[i].addition ?? ''),
            },
            `${label}, bit ${i}`,
          );
          const named = await page.locator('#fp-details .removals .feature-text').allTextContents();
          assert.deepEqual(
            named,
            truth[i].removals.slice(0, 10).map((j) => e.features[j].feature),
            `${label}, bit ${i}`,
          );
        }
        // In words too: each feature taken out of the text, each word added to it. Taking a word
        // out with one-word features and binary weights removes exactly that feature.
        const before = sp.fingerprint(text, o);
        const flippedBy = (other) => {
          const x = sp.toBinary(sp.fingerprint(other, o) ^ before, e.width);
          return [...x].flatMap((b, i) => (b === '1' ? [i] : []));
        };
        if (o.weighting === 'binary' && /^[\x20-\x7e]+$/.test(text)) {
          e.features.forEach((f, j) => {
            const without = text.replace(new RegExp(`\\b${f.feature}\\b`, 'gi'), ' ');
            assert.deepEqual(
              flippedBy(without),
              truth.flatMap((b, i) => (b.removals.includes(j) ? [i] : [])),
              `${label}: without “${f.feature}”`,
            );
          });
        }
        for (const word of words.split(' ')) {
          for (const i of flippedBy(`${text} ${word}`))
            assert.ok(
              fragile.includes(i),
              `${label} + “${word}” flipped bit ${i}, not marked fragile`,
            );
        }
      }
    });
  }

  test("fingerprint view: the controls start at the library's defaults", async () => {
    const vector = golden.vectors.find((v) => v.name === 'english default');
    assert.ok(vector, 'tests/golden.json has no vector named "english default"');
    assert.deepEqual(vector.options, {}, '"english default" should use default options');
    await d.open('fingerprint');
    await page.selectOption('#fp-width', String(DEFAULT_WIDTH));
    for (const text of [vector.text, 'Ｆｕｌｌ-width ﬁsh, THE the the 你妈妈喊你回家吃饭哦']) {
      await d.fill('#fp-text', text);
      assert.equal(
        await page.textContent('#fp-hex'),
        sp.toHex(sp.fingerprint(text), DEFAULT_WIDTH),
        text,
      );
    }
    await d.fill('#fp-text', vector.text);
    assert.equal(await page.textContent('#fp-hex'), vector.hex);
  });

  test("an error thrown by the library is shown in the view's status line", async () => {
    await d.open('fingerprint');
    const status = page.locator('#fp-status');
    assert.equal(await status.isVisible(), false);
    await d.fill('#fp-word-n', '0');
    let message;
    try {
      new sp.Fingerprinter({ width: 16, tokenizer: 'auto', wordN: 0, charN: 2 }).free();
    } catch (error) {
      message = error.message;
    }
    assert.ok(message, 'the library should reject wordN = 0');
    assert.equal(await status.textContent(), `Error: ${message}`);
    assert.equal(await status.getAttribute('class'), 'status error');
    await d.fill('#fp-word-n', '1');
    assert.equal(await status.isVisible(), false);
  });

  test("compare view: every preset and typed texts show compare()'s numbers", async () => {
    await d.open('compare');
    const check = async (options, tolerance = sp.defaults().tolerance.near) => {
      const a = await page.inputValue('#cmp-text-a');
      const b = await page.inputValue('#cmp-text-b');
      const fa = sp.fingerprint(a, options);
      const fb = sp.fingerprint(b, options);
      // The verdict under the pair rule (both texts' distinct features), A's own k beside it.
      const fp = new sp.Fingerprinter(options);
      const featuresA = fp.featureCount(a);
      const featuresB = fp.featureCount(b);
      const k = fp.pairK(featuresA, featuresB, { tolerance });
      const kOfA = fp.recommendedK(a, { tolerance });
      fp.free();
      const c = sp.compare(fa, fb, { width: options.width, k });
      const label = `${a} | ${b}`;
      assert.equal(await page.textContent('#cmp-hex-a'), sp.toHex(fa, options.width), label);
      assert.equal(await page.textContent('#cmp-hex-b'), sp.toHex(fb, options.width), label);
      assert.equal(await page.textContent('#cmp-distance'), String(c.distance), label);
      assert.equal(await page.textContent('#cmp-of-width'), String(c.width), label);
      assert.equal(await page.textContent('#cmp-similarity'), c.similarity.toFixed(4), label);
      assert.equal(await page.textContent('#cmp-angle'), c.angle.toFixed(4), label);
      assert.equal(await page.textContent('#cmp-cosine'), c.cosine.toFixed(4), label);
      assert.equal(
        await page.textContent('#cmp-verdict'),
        `${c.nearDuplicate ? 'yes' : 'no'}: d = ${c.distance} ${c.nearDuplicate ? '≤' : '>'} k = ${k}`,
        label,
      );
      const from = await page.textContent('#cmp-k-from');
      assert.ok(from.startsWith(`pairK(${featuresA}, ${featuresB}):`), `${label}: ${from}`);
      assert.match(from, new RegExp(`recommendedK\\(A\\).*k = ${kOfA}\\b`), label);
      if (kOfA !== k)
        assert.ok(
          from.endsWith(`${c.distance <= kOfA ? 'yes' : 'no'} at it.`),
          `${label}: ${from}`,
        );
      assert.equal(
        await page.textContent('#cmp-features-a'),
        String(featuresA),
        'the count shown is the one pairK takes',
      );
      const xor = await page.getAttribute('#cmp-xor', 'aria-label');
      assert.equal([...xor].filter((x) => x === '1').length, c.distance, label);
      assert.equal(await page.locator('#cmp-bits-a mark').count(), c.distance, label);
      assert.equal(await page.locator('#cmp-chart-a .cell.diff').count(), c.distance, label);
      return c;
    };
    const defaults = { width: DEFAULT_WIDTH };
    assert.equal(await page.inputValue('#cmp-text-a'), PAIR[0]);
    assert.equal(await page.inputValue('#cmp-text-b'), PAIR[1]);
    const distances = {};
    for (const preset of ['chinese', 'english', 'unrelated', 'short']) {
      await page.click(`[data-preset="${preset}"]`);
      await d.settled();
      assert.equal(await page.getAttribute(`[data-preset="${preset}"]`, 'aria-pressed'), 'true');
      distances[preset] = (await check(defaults)).distance;
      assert.match(await page.textContent('#cmp-note'), new RegExp(`${distances[preset]}`));
    }
    // The tolerance starts at the library's default and sets the pair's k: the English pair (two
    // words of about forty) is a near-duplicate at 10 % and not at 2 %.
    assert.equal(
      Number(await page.inputValue('#cmp-tolerance')),
      sp.defaults().tolerance.near * 100,
    );
    await page.click('[data-preset="english"]');
    await d.settled();
    assert.ok((await check(defaults)).nearDuplicate);
    await d.fill('#cmp-tolerance', '2');
    assert.equal((await check(defaults, 0.02)).nearDuplicate, false);
    await d.fill('#cmp-tolerance', String(sp.defaults().tolerance.near * 100));
    assert.ok(distances.english < distances.unrelated, JSON.stringify(distances));
    assert.ok(distances.short > distances.english, JSON.stringify(distances));

    await d.fill('#cmp-text-a', 'Near-duplicate detection with SimHash fingerprints');
    await d.fill('#cmp-text-b', 'near duplicate detection using SimHash fingerprints');
    assert.equal(await page.textContent('#cmp-note'), '', 'an edited preset loses its note');
    await check(defaults);
    await page.selectOption('#cmp-width', '128');
    await page.selectOption('#cmp-tokenizer', 'chars');
    await page.selectOption('#cmp-weighting', 'tf');
    await page.setChecked('#cmp-case-fold', false);
    await d.settled();
    await check({
      width: 128,
      tokenizer: 'chars',
      n: Number(await page.inputValue('#cmp-char-n')),
      caseFold: false,
      weighting: 'tf',
    });
  });

  for (const size of WIDTHS) {
    test(`compare view at ${size.width} px: the features only in A and only in B, and each differing bit's sum`, async () => {
      await d.open('compare', size);
      const cases = [
        ['chinese', {}],
        ['english', {}],
        [
          'typed',
          { weighting: 'tf' },
          'the cat sat on the mat and the cat sat still',
          'the cat sat on the mat and the dog sat still still',
        ],
      ];
      for (const [preset, options, a, b] of cases) {
        if (a) {
          await page.selectOption('#cmp-weighting', options.weighting);
          await d.fill('#cmp-text-a', a);
          await d.fill('#cmp-text-b', b);
        } else {
          await page.click(`[data-preset="${preset}"]`);
          await d.settled();
        }
        const ta = await page.inputValue('#cmp-text-a');
        const tb = await page.inputValue('#cmp-text-b');
        const ea = sp.explain(ta, options);
        const eb = sp.explain(tb, options);
        // Only in one: no feature of the same text and weight in the other.
        const only = (e, other) =>
          e.features.filter(
            (f) => !other.features.some((g) => g.feature === f.feature && g.weight === f.weight),
          );
        const onlyA = only(ea, eb);
        const onlyB = only(eb, ea);
        const listed = async (id) =>
          page
            .locator(`#${id} li:not(.more)`)
            .evaluateAll((lis) =>
              lis.map((li) => [
                li.querySelector('.feature-text').textContent,
                li.querySelector('.w').textContent,
              ]),
            );
        assert.deepEqual(
          await listed('cmp-only-a'),
          onlyA.slice(0, 40).map((f) => [f.feature, show(f.weight)]),
          preset,
        );
        assert.deepEqual(
          await listed('cmp-only-b'),
          onlyB.slice(0, 40).map((f) => [f.feature, show(f.weight)]),
          preset,
        );
        assert.equal(await page.textContent('#cmp-only-a-count'), `(${onlyA.length})`);
        assert.equal(await page.textContent('#cmp-only-b-count'), `(${onlyB.length})`);
        if (preset === 'typed') {
          const changed = onlyA.filter((f) => onlyB.some((g) => g.feature === f.feature));
          assert.ok(changed.length > 0, 'a feature whose weight changed is listed on both sides');
        }
        // Each differing bit: V^A minus the pushes of the features only in A, plus those only in B.
        const sumA = sp.explainHashes(
          onlyA.map((f) => [f.hash, f.weight]),
          ea.width,
        ).v;
        const sumB = sp.explainHashes(
          onlyB.map((f) => [f.hash, f.weight]),
          eb.width,
        ).v;
        const rows = await page.locator('#cmp-flips tbody tr[data-bit]').evaluateAll((trs) =>
          trs.map((tr) => ({
            bit: Number(tr.dataset.bit),
            va: tr.cells[1].textContent,
            a: Number(tr.cells[2].dataset.sum),
            b: Number(tr.cells[3].dataset.sum),
            vb: tr.cells[4].textContent,
          })),
        );
        const differing = [...ea.bits].flatMap((x, i) => (x !== eb.bits[i] ? [i] : []));
        assert.deepEqual(
          rows.map((r) => r.bit),
          differing,
          preset,
        );
        assert.ok(rows.length > 0, `${preset}: some bits differ`);
        for (const r of rows) {
          const i = r.bit;
          assert.equal(plain(r.va), `${show(ea.v[i])} bit ${ea.bits[i]}`);
          assert.equal(plain(r.vb), `${show(eb.v[i])} bit ${eb.bits[i]}`);
          assert.deepEqual([r.a, r.b], [sumA[i], sumB[i]], `${preset}, bit ${i}`);
          // The identity the table states, exact with whole weights.
          assert.equal(
            ea.v[i] - r.a + r.b,
            eb.v[i],
            `${preset}, bit ${i}: V^A − only A + only B = V^B`,
          );
        }
      }
    });
  }

  test('step-by-step view: the worked example ends at V = (-4, -2, 6) and 001, guessing each bit first', async () => {
    await d.open('steps');
    const hashes = [
      [0b101n, 1],
      [0b011n, 2],
      [0b100n, 0],
      [0b001n, 3],
      [0b110n, 0],
    ];
    const acc = new sp.Accumulator(3);
    assert.equal(plain(await page.textContent('#ex-v')), '(0, 0, 0)');
    assert.equal(await page.textContent('#ex-count'), '0 of 5 added');
    assert.equal(await page.isChecked('#ex-predict'), true, 'guessing is on');
    for (const [i, [hash, weight]] of hashes.entries()) {
      const before = [...acc.v];
      // A guess before each reveal: nothing moves until it is revealed.
      await page.click('#ex-next');
      assert.equal(await page.locator('#ex-guess').isVisible(), true);
      assert.equal(plain(await page.textContent('#ex-v')), tuple(before), 'V waits for the reveal');
      assert.equal(await page.isDisabled('#ex-reveal'), true, 'every bit needs a guess');
      // Guess all ones (clicks: ? → 1), then reveal.
      for (let b = 0; b < 3; b++) await page.click(`#ex-guess-bits [data-bit="${b}"]`);
      assert.deepEqual(await page.locator('#ex-guess-bits button').allTextContents(), [
        '1',
        '1',
        '1',
      ]);
      await page.click('#ex-reveal');
      acc.add(hash, weight);
      const label = `after x${i + 1}`;
      assert.equal(plain(await page.textContent('#ex-v')), tuple(acc.v), label);
      assert.equal(await page.getAttribute('#ex-bits', 'aria-label'), acc.bits, label);
      const right = [...acc.bits].filter((b) => b === '1').length;
      assert.equal(await page.getAttribute('#ex-feedback', 'data-right'), String(right), label);
      assert.match(
        await page.textContent('#ex-feedback'),
        new RegExp(`You guessed 111, the bits are ${acc.bits}: ${right} of 3 right`),
      );
      const rows = await page
        .locator('#ex-table tbody tr')
        .evaluateAll((trs) => trs.map((tr) => tr.className));
      assert.deepEqual(
        rows,
        hashes.map((_, k) => (k < i ? 'added' : k === i ? 'current' : 'pending')),
        label,
      );
      assert.match(
        await page.textContent('#ex-message'),
        new RegExp(`^Added x${'₁₂₃₄₅'[i]} \\(hash `),
        label,
      );
      await checkOutline('ex-chart', weight === 0 ? null : before, [...acc.v], label);
    }
    acc.free();
    assert.equal(plain(await page.textContent('#ex-v')), '(-4, -2, 6)');
    assert.equal(await page.textContent('#ex-bits'), '001');
    const foot = await page
      .locator('#ex-table tfoot tr')
      .evaluateAll((rows) => rows.map((r) => [...r.cells].slice(1, 4).map((c) => c.textContent)));
    assert.deepEqual(
      foot.map((r) => r.map(plain)),
      [
        ['-4', '-2', '6'],
        ['0', '0', '1'],
      ],
    );
    assert.deepEqual(
      (await chartV(page, 'ex-chart')).map((c) => c.v),
      ['-4', '-2', '6'],
    );
    assert.ok(await page.isDisabled('#ex-next'));
    // The random-hyperplane reading: each V_j is w · c_j, its sign the bit.
    const dots = (await page.locator('#hp .dots li').allTextContents()).map(plain);
    [-4, -2, 6].forEach((v, j) =>
      assert.match(dots[j], new RegExp(`= ${v} [<>] 0 → bit ${'001'[j]}$`)),
    );
    // Back to step 4, without guessing: bit 1 goes from +1 to −2, its outline spans zero.
    await page.setChecked('#ex-predict', false);
    await page.click('#ex-back');
    assert.equal(await page.textContent('#ex-count'), '4 of 5 added');
    await page.click('#ex-back');
    await page.click('#ex-next');
    await checkOutline('ex-chart', [-1, 1, 3], [-4, -2, 6], 'step 4 again');
  });

  for (const size of WIDTHS) {
    test(`step-by-step view at ${size.width} px: the articles' 美国(4) = 100101 and 51区(5) = 101011, by preset and typed`, async () => {
      await d.open('steps', size);
      await page.setChecked('#ex-predict', false);
      const want = [
        [0b100101n, 4],
        [0b101011n, 5],
      ];
      const expectSteps = async (label) => {
        if (await page.isEnabled('#ex-reset')) await page.click('#ex-reset');
        await page.click('#ex-next');
        assert.equal(
          plain(await page.textContent('#ex-v')),
          '(4, -4, -4, 4, -4, 4)',
          `${label}: after 美国`,
        );
        assert.match(
          await page.textContent('#ex-message'),
          /^Added 美国 \(hash 100101, weight 4\)/,
        );
        await page.click('#ex-next');
        assert.equal(
          plain(await page.textContent('#ex-v')),
          '(9, -9, 1, -1, 1, 9)',
          `${label}: after 51区`,
        );
        assert.match(
          await page.textContent('#ex-message'),
          /^Added 51区 \(hash 101011, weight 5\)/,
        );
        assert.equal(await page.getAttribute('#ex-bits', 'aria-label'), '101011', label);
        assert.equal(sp.explainHashes(want, 6).bits, '101011');
        // The fragile bits now, against every one-feature change.
        const truth = bruteForce(want, 6);
        assert.equal(
          await page.getAttribute('#ex-fragile', 'data-fragile'),
          fragileBits(truth).join(','),
          label,
        );
        const items = await page.locator('#ex-fragile li').allTextContents();
        assert.deepEqual(
          items.map((t) => /removing (\S+) would flip it/.exec(t)?.[1]),
          fragileBits(truth).map((i) => ['美国', '51区'][truth[i].removals[0]]),
        );
      };
      await page.click('[data-example="usa"]');
      assert.equal(await page.inputValue('#ex-width'), '6');
      await expectSteps('preset');

      // Typed by hand: clear the rows, then type both.
      while (await page.locator('#ex-table .ex-remove').count())
        await page.click('#ex-table tbody tr:first-child .ex-remove');
      for (const [k, [feature, weight, bits]] of [
        ['美国', '4', '100101'],
        ['51区', '5', '101011'],
      ].entries()) {
        await page.click('#ex-add-row');
        const row = `#ex-table tbody tr[data-row="${k}"]`;
        await page.fill(`${row} .ex-feature`, feature);
        await page.fill(`${row} .ex-weight`, weight);
        await page.fill(`${row} .ex-bits`, bits);
      }
      assert.equal(await page.locator('#ex-table tbody tr').count(), 2);
      await expectSteps('typed');

      // A wrong hash length is refused in words; "hash" puts the library's own bits in.
      await page.fill('#ex-table tbody tr[data-row="1"] .ex-bits', '1010');
      assert.match(
        await page.textContent('#ex-status'),
        /Row 2 \(51区\): the hash must be 6 digits of 0 and 1/,
      );
      await page.click('#ex-table tbody tr[data-row="1"] .ex-hash');
      const bits = sp.explainFeatures([['51区', 1]], { width: 6 }).features[0].bits;
      assert.equal(await page.inputValue('#ex-table tbody tr[data-row="1"] .ex-bits'), bits);
      assert.equal(await page.locator('#ex-status').isVisible(), false);
      assert.equal(await page.textContent('#ex-count'), '2 of 2 added', 'an edit keeps the step');
      assert.equal(
        await page.getAttribute('#ex-bits', 'aria-label'),
        sp.explainHashes(
          [
            [0b100101n, 4],
            [BigInt(`0b${bits}`), 5],
          ],
          6,
        ).bits,
      );

      // Charikar's example is one click away too.
      await page.click('[data-example="charikar"]');
      await page.click('#ex-end');
      assert.equal(plain(await page.textContent('#ex-v')), '(-4, -2, 6)');
    });
  }

  test("step-by-step view: your own text, step by step, is the Accumulator's", async () => {
    await d.open('steps');
    const text = 'the rain in Spain stays mainly in the plain';
    await page.selectOption('#own-width', '32');
    await d.fill('#own-text', text);
    const e = sp.explain(text, { width: 32 });
    assert.equal(await page.getAttribute('#own-step', 'max'), String(e.features.length));
    await page.focus('#own-step');
    await page.keyboard.press('Home');
    await d.settled();
    const mine = new sp.Accumulator(32);
    for (let step = 1; step <= 3; step++) {
      const before = [...mine.v];
      await page.keyboard.press('ArrowRight');
      await d.settled();
      mine.add(e.features[step - 1].hash, e.features[step - 1].weight);
      assert.equal(await page.textContent('#own-count'), `${step} of ${e.features.length}`);
      assert.deepEqual(
        (await chartV(page, 'own-chart')).map((c) => c.v),
        [...mine.v].map(show),
        `step ${step}`,
      );
      assert.equal(await page.textContent('#own-hex'), sp.toHex(mine.fingerprint, 32));
      const lit = await page
        .locator('#own-features tbody tr.current td:nth-child(2)')
        .allTextContents();
      assert.deepEqual(
        lit,
        [e.features[step - 1].feature],
        `step ${step}: the lit row is the feature added`,
      );
      await checkOutline('own-chart', before, [...mine.v], `own text, step ${step}`);
    }
    mine.free();
    await page.click('#own-end');
    await d.settled();
    assert.deepEqual(
      await chartV(page, 'own-chart'),
      e.v.map((v, i) => ({ v: show(v), bit: e.bits[i] })),
    );
    assert.equal(await page.textContent('#own-hex'), e.hex);
    assert.equal(await page.textContent('#own-final'), e.hex);
    // Edited at the end, it stays at the end.
    await d.fill('#own-text', `${text} again`);
    const e2 = sp.explain(`${text} again`, { width: 32 });
    assert.equal(await page.textContent('#own-hex'), e2.hex);
    assert.equal(
      await page.textContent('#own-count'),
      `${e2.features.length} of ${e2.features.length}`,
    );
    const indices = await page
      .locator('#own-chart .cell .index')
      .evaluateAll((xs) => xs.map((x) => x.textContent));
    assert.deepEqual(
      indices.flatMap((x, i) => (x ? [[i, Number(x)]] : [])),
      [0, 8, 16, 24].map((i) => [i, i]),
    );
  });

  test("lessons: weights, short texts and the article's 3 against this page's 17 are the library's numbers", async () => {
    await d.open('fingerprint');
    for (const weighting of ['binary', 'tf']) {
      const panel = page.locator(`#fp-weights [data-weighting="${weighting}"]`);
      const before = sp.explain('The cat sat on the mat and looked at the dog.', {
        width: 32,
        weighting,
      });
      const after = sp.explain(
        'The cat sat on the mat and looked at the dog. Dog, dog, dog, dog, dog!',
        { width: 32, weighting },
      );
      const dist = sp.hamming(before.fingerprint, after.fingerprint);
      assert.equal(await panel.locator('.lesson-d').textContent(), String(dist), weighting);
      assert.deepEqual(
        (await chartV(page, `fp-w-${weighting}-before`)).map((c) => c.bit).join(''),
        before.bits,
      );
      assert.deepEqual(
        (await chartV(page, `fp-w-${weighting}-after`)).map((c) => c.bit).join(''),
        after.bits,
      );
      if (weighting === 'binary') assert.equal(dist, 0, 'binary weights ignore repeats');
      else assert.ok(dist > 0, 'tf weights let a repeated word move the fingerprint');
    }

    await d.open('compare');
    const rows = await page.locator('#cmp-short .dist-row').evaluateAll((rs) =>
      rs.map((r) => ({
        length: Number(r.dataset.length),
        d: Number(r.dataset.d),
        k: Number(r.dataset.k),
      })),
    );
    assert.equal(rows[0].length, 17, "the reference's 17-character pair comes first");
    assert.equal(rows[0].d, sp.hamming(sp.fingerprint(PAIR[0]), sp.fingerprint(PAIR[1])));
    const counter = new sp.Fingerprinter();
    const counts = PAIR.map((t) => counter.featureCount(t));
    counter.free();
    assert.equal(rows[0].k, sp.pairK(counts[0], counts[1]), "the pair rule's k");
    await page.click('#cmp-short summary');
    const [a, b] = (await page.locator('#cmp-short .lesson-longest p').allTextContents()).map((t) =>
      t.replace(/^[AB] /, ''),
    );
    assert.equal(rows.at(-1).d, sp.hamming(sp.fingerprint(a), sp.fingerprint(b)));
    assert.ok(rows.at(-1).d < rows[0].d, 'the same edit moves a long text less');

    // The article prints two simhashes 3 bits apart; this page's pipeline gives 17; each thing
    // changed in turn gives the library's distance, and its words with weights come out at 3.
    const article = await page
      .locator('#cmp-reference .ref-article code')
      .evaluateAll((cs) => cs.map((c) => c.getAttribute('aria-label')));
    assert.equal(sp.hamming(BigInt(`0b${article[0]}`), BigInt(`0b${article[1]}`)), 3);
    assert.equal(await page.getAttribute('#cmp-reference .ref-d', 'data-d'), '3');
    const got = Object.fromEntries(
      await page
        .locator('#cmp-reference tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [tr.dataset.row, Number(tr.dataset.d)])),
    );
    const dist = (o) => sp.hamming(sp.fingerprint(PAIR[0], o), sp.fingerprint(PAIR[1], o));
    const words = [
      ['你', '妈妈', '喊', '你', '回家', '吃饭', '哦', '回家', '罗', '回家', '罗'],
      ['你', '妈妈', '叫', '你', '回家', '吃饭', '啦', '回家', '罗', '回家', '罗'],
    ];
    const weight = { 你: 1, 妈妈: 4, 喊: 2, 叫: 2, 回家: 4, 吃饭: 5, 哦: 1, 啦: 1, 罗: 1 };
    const fw = (list) =>
      sp.hamming(sp.fingerprintFeatures(list[0]), sp.fingerprintFeatures(list[1]));
    assert.deepEqual(got, {
      page: dist({}),
      chars: dist({ tokenizer: 'chars', n: 1 }),
      tf: dist({ weighting: 'tf' }),
      width: dist({ width: 128 }),
      words: fw(words),
      weighted: fw(words.map((ws) => ws.map((w) => [w, weight[w]]))),
    });
    assert.equal(got.page, 17, "the page's pair differs in 17 bits");
    assert.equal(got.weighted, 3, 'weighted words come out where the article does');
    const ea = sp.explain(PAIR[0]);
    assert.equal(
      await page.textContent('#cmp-reference .ref-features'),
      String(ea.features.length),
    );
    const replaced = ea.features.filter(
      (f) => !sp.explain(PAIR[1]).features.some((g) => g.feature === f.feature),
    ).length;
    assert.equal(await page.textContent('#cmp-reference .ref-replaced'), String(replaced));
  });

  test('every golden vector (fingerprints, index bytes, keys) is the same inside Chromium', async () => {
    // The page serves only www/ and pkg/: the checking function goes in as source (an
    // evaluated string has no base URL, hence the absolute one), in the demo's origin.
    await d.open('fingerprint');
    const got = await page.evaluate(`(async () => {
      const m = await import(${JSON.stringify(`${d.url}/pkg/simprint.js`)});
      await m.default();
      return (${goldenAnswers})(m, ${JSON.stringify(golden)});
    })()`);
    assert.ok(golden.vectors.length > 0);
    assert.deepEqual(got, expectedAnswers(golden));
  });

  test('simprint/fingerprint inside Chromium: init() finds its own .wasm, the golden fingerprints', async () => {
    await d.open('fingerprint');
    const got = await page.evaluate(`(async () => {
      const m = await import(${JSON.stringify(`${d.url}/pkg/fingerprint/simprint.js`)});
      await m.default();
      const { fingerprints } = (${goldenAnswers})(m, ${JSON.stringify(golden)});
      return { fingerprints, hasIndex: 'Index' in m };
    })()`);
    assert.deepEqual(got, { fingerprints: expectedAnswers(golden).fingerprints, hasIndex: false });
  });

  test('no console errors or warnings, page errors or failed requests', () => {
    assert.deepEqual(d.problems, []);
  });
});
