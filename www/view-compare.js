// View 2: two texts, both fingerprints, the bits that differ and what the distance estimates;
// then why short texts need a larger k. State: the texts, the options and the library's
// explanation of each; small renderers draw them.
import { Fingerprinter, compare, fingerprint, hamming, recommendedK } from '../pkg/simprint.js';
import { $, VChart, drawBinary, escapeHtml, fmt, optionControls, responsive, showStatus, viewState } from './common.js';

// The texts are inputs; every number shown for them comes from the library.
const PRESETS = {
  chinese: {
    a: '你妈妈喊你回家吃饭哦,回家罗回家罗',
    b: '你妈妈叫你回家吃饭啦,回家罗回家罗',
    note: (c) => `The reference material's pair: two characters changed, and the ${c.width}-bit fingerprints differ ` +
      `in ${c.distance} bits (the auto tokenizer reads Chinese as overlapping character pairs). Seventeen ` +
      'characters make only about fifteen pairs, so two edits replace a quarter of them: see “Why short texts ' +
      'need a larger k” below.',
  },
  english: {
    a: 'SimHash turns a document into a short fingerprint, so that similar documents get similar ' +
      'fingerprints. Search engines used it to find near-duplicate web pages among billions of them, ' +
      'comparing a few bits instead of reading every page again.',
    b: 'SimHash turns a document into a short fingerprint, so that similar documents get similar ' +
      'fingerprints. Search engines used it to spot near-duplicate web pages among billions of them, ' +
      'comparing a few bits instead of reading each page again.',
    note: (c) => `Two words of about forty changed: d = ${c.distance}. Most features are shared, so most ` +
      'sums Vᵢ keep their sign.',
  },
  unrelated: {
    a: 'SimHash turns a document into a short fingerprint, so that similar documents get similar fingerprints.',
    b: 'The kettle boiled over while we argued about whose turn it was to wash the dishes.',
    note: (c) => `Nothing shared: d = ${c.distance} of ${c.width}. Unrelated texts land near half the bits ` +
      '(an angle near π/2), like two independent random fingerprints.',
  },
  short: {
    a: 'Lunch at noon?',
    b: 'Lunch at one?',
    note: (c) => `Three words, one changed: d = ${c.distance}. With so few features each one carries a third ` +
      'of every Vᵢ, so one edit flips many bits: finding short near-duplicates needs a larger k than ' +
      'long texts do.',
  },
};

// The short-text lesson: the reference's pair, then the same two-character edit at the end of
// ever longer texts. The context is written for this page; only its length matters.
const PAIR = [PRESETS.chinese.a, PRESETS.chinese.b];
const CONTEXT = [
  '天色渐渐暗了下来，街上的路灯一盏接一盏地亮起。小明和几个同学还在操场上踢球，谁也不想先回去。',
  '球场边的大树下放着他们的书包和水壶，风一吹，树叶沙沙作响。远处的居民楼里飘出了饭菜的香味，有人家在炒青菜，有人家在炖排骨。',
  '这时，楼上的窗户打开了，邻居阿姨探出头来朝操场喊了一声。小明的朋友们都笑了起来，因为每天到了这个时候，总会有人听到同样的一句话。',
  '大家一边收拾东西，一边约好明天放学以后再来比赛。小明把足球夹在胳膊下面，慢慢地往家的方向走去。',
  '路过小卖部的时候，他停下来看了一眼橱窗里的新文具，心里盘算着下个月的零花钱该怎么用。回到家门口，他闻到了熟悉的红烧肉的味道，肚子立刻咕咕叫了起来。',
  '妈妈在厨房里忙着，爸爸正在阳台上给花浇水，电视里播放着晚间新闻。吃完晚饭以后，小明坐在书桌前写作业，数学题有点难，他想了很久才找到解题的方法。',
];
// The reference's rule of thumb for long texts (“距离小于3的基本都是相似”).
const REFERENCE_K = 3;

export function setup() {
  const options = optionControls($('cmp-options'), 'cmp');
  const textA = $('cmp-text-a');
  const textB = $('cmp-text-b');
  const view = $('view-compare');
  const chartA = new VChart($('cmp-chart-a'), { label: 'V for text A' });
  const chartB = new VChart($('cmp-chart-b'), { label: 'V for text B' });

  const ui = viewState({
    // Inputs.
    options: null,
    a: '',
    b: '',
    preset: 'chinese',
    // The library's answers: each text's explanation (kept while its text and the options hold)
    // and their comparison.
    ea: null,
    eb: null,
    c: null,
    error: null,
  }, [
    [['error'], (s) => showStatus($('cmp-status'), s.error)],
    [['ea'], (s) => renderSide('a', s.ea)],
    [['eb'], (s) => renderSide('b', s.eb)],
    [['ea', 'eb', 'c'], renderBits],
    [['ea', 'eb'], renderCharts],
    [['c', 'preset'], (s) => {
      $('cmp-note').textContent = s.preset && s.c ? PRESETS[s.preset].note(s.c) : '';
    }],
    [['preset'], (s) => {
      for (const button of document.querySelectorAll('[data-preset]')) {
        button.setAttribute('aria-pressed', String(button.dataset.preset === s.preset));
      }
    }],
  ]);
  const s = ui.state;

  // Explanations are cached by text and options: typing in A asks the library about A only.
  const cache = { a: null, b: null };
  function explainSide(fp, side, text) {
    const key = `${JSON.stringify(s.options)}\u0000${text}`;
    if (cache[side]?.key !== key) cache[side] = { key, e: fp.explain(text) };
    return cache[side].e;
  }

  function compute() {
    let fp;
    try {
      fp = new Fingerprinter(s.options);
      const ea = explainSide(fp, 'a', s.a);
      const eb = explainSide(fp, 'b', s.b);
      ui.set({ ea, eb, c: compare(ea.fingerprint, eb.fingerprint, ea.width), error: null });
    } catch (error) {
      cache.a = cache.b = null;
      ui.set({ error });
    } finally {
      fp?.free();
    }
  }
  const work = responsive(view, compute);

  function renderSide(side, e) {
    if (!e) return;
    $(`cmp-features-${side}`).textContent = String(e.features.length);
    $(`cmp-hex-${side}`).textContent = e.hex;
  }

  // Highlighting only: where the library's two bit strings differ.
  const differing = (a, b) => Array.from(a.bits, (bit, i) => bit !== b.bits[i]);

  function renderBits({ ea, eb, c }) {
    if (!ea || !eb || !c) return;
    const differs = differing(ea, eb);
    drawBinary($('cmp-bits-a'), ea.bits, differs);
    drawBinary($('cmp-bits-b'), eb.bits, differs);
    drawBinary($('cmp-xor'), differs.map((d) => (d ? '1' : '0')).join(''), differs);
    $('cmp-distance').textContent = String(c.distance);
    $('cmp-of-width').textContent = String(c.width);
    $('cmp-similarity').textContent = c.similarity.toFixed(4);
    $('cmp-angle').textContent = c.angle.toFixed(4);
    $('cmp-cosine').textContent = c.cosine.toFixed(4);
  }

  function renderCharts({ ea, eb }) {
    if (!ea || !eb) return;
    const differs = differing(ea, eb);
    const scale = Math.max(1e-9, ...ea.v.map(Math.abs), ...eb.v.map(Math.abs));
    $('cmp-scale').textContent = `Tallest bar: |V| = ${fmt(scale)}`;
    chartA.draw({ v: ea.v, bits: ea.bits, scale, marks: differs });
    chartB.draw({ v: eb.v, bits: eb.bits, scale, marks: differs });
  }

  function choose(name) {
    textA.value = PRESETS[name].a;
    textB.value = PRESETS[name].b;
    Object.assign(s, { a: textA.value, b: textB.value });
    ui.set({ preset: name });
    work.request(true);
  }

  for (const button of document.querySelectorAll('[data-preset]')) {
    button.addEventListener('click', () => choose(button.dataset.preset));
  }
  // The note describes a preset's texts; once edited it no longer applies.
  textA.addEventListener('input', () => {
    s.a = textA.value;
    ui.set({ preset: null });
    work.request();
  });
  textB.addEventListener('input', () => {
    s.b = textB.value;
    ui.set({ preset: null });
    work.request();
  });
  options.onChange(() => {
    s.options = options.read();
    work.request(true);
  });

  let lessonDrawn = false;
  return {
    show() {
      if (!s.options) {
        s.options = options.read();
        choose('chinese');
      }
      if (!lessonDrawn) {
        drawShortTextLesson();
        lessonDrawn = true;
      }
    },
  };
}

/** recommendedK along the rows, as "15 up to 235 characters, 12 from 308". */
function kRuns(rows) {
  const runs = [];
  for (const r of rows) {
    if (runs.at(-1)?.k === r.k) runs.at(-1).last = r.length;
    else runs.push({ k: r.k, first: r.length, last: r.length });
  }
  if (runs.length === 1) return `${runs[0].k} for all of them`;
  return runs.map((run, i) => `${run.k} ${i === 0 ? `up to ${run.last}` : `from ${run.first}`} characters`).join(', ');
}

/**
 * Why short texts need a larger k: the same edit in texts of growing length, each pair's
 * distance against the reference's k = 3 and the library's recommendedK for the text.
 */
function drawShortTextLesson() {
  const width = 64; // fingerprint() and recommendedK() with no options: the library's defaults
  const rows = [];
  for (let n = 0; n <= CONTEXT.length; n++) {
    const context = CONTEXT.slice(0, n).join('');
    const a = context + PAIR[0];
    const b = context + PAIR[1];
    rows.push({
      length: [...a].length,
      d: hamming(fingerprint(a), fingerprint(b)),
      k: recommendedK(a),
      a,
      b,
    });
  }
  const box = $('cmp-short');
  const pct = (x) => `${(x / width) * 100}%`;
  box.querySelector('.dist-chart').innerHTML = rows.map((r, i) => `
    <div class="dist-row${i === 0 ? ' reference' : ''}" data-length="${r.length}" data-d="${r.d}" data-k="${r.k}">
      <span class="dist-label">${r.length} characters${i === 0 ? ' <span class="tag">the reference pair</span>' : ''}</span>
      <span class="dist-track" role="img" aria-label="${r.length} characters: d = ${r.d}, recommendedK = ${r.k}">
        <span class="dist-bar ${r.d <= r.k ? 'within' : 'beyond'}" style="width:${pct(r.d)}"></span>
        <span class="dist-mark mark-ref" style="left:${pct(REFERENCE_K)}" title="k = ${REFERENCE_K}"></span>
        <span class="dist-mark mark-rec" style="left:${pct(r.k)}" title="recommendedK = ${r.k}"></span>
      </span>
      <span class="dist-value">d = <strong>${r.d}</strong> · k<sub>rec</sub> = ${r.k}</span>
    </div>`).join('') +
    `<div class="dist-axis" aria-hidden="true"><span></span><span class="dist-ticks">${
      [0, 16, 32, 48, 64].map((t) => `<span style="left:${pct(t)}">${t}</span>`).join('')}</span><span></span></div>`;
  const first = rows[0];
  const last = rows.at(-1);
  const beyond = rows.filter((r) => r.d > REFERENCE_K).length;
  box.querySelector('.lesson-note').innerHTML =
    `The same two characters changed (喊→叫, 哦→啦), at the end of texts of ${first.length} to ${last.length} ` +
    `characters: d = ${first.d} at ${first.length} characters, ${last.d} at ${last.length}. In a long text the edit ` +
    'replaces a few of many features and most sums Vᵢ keep their sign; in a short one it replaces a large share. ' +
    `A k of ${REFERENCE_K}, which suits long texts in the reference, misses ${beyond} of these ${rows.length} pairs; ` +
    `the library's recommendedK is larger for the shorter texts (${kRuns(rows)}). ` +
    `Even so, the ${first.length}-character pair lies ${first.d > first.k ? 'beyond' : 'within'} it: texts that ` +
    'short carry too few features for any k to separate copies from strangers reliably.';
  box.querySelector('.lesson-longest').innerHTML =
    `<p><span class="tag">A</span> ${escapeHtml(last.a)}</p><p><span class="tag">B</span> ${escapeHtml(last.b)}</p>`;
}
