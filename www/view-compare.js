// View 2: two texts, both fingerprints, the bits that differ and what the distance estimates,
// which features changed and how their pushes moved each differing bit; then two lessons
// (compare-lessons.js). State: the texts, the options and the library's answers (from the
// worker); small renderers draw them.
import {
  $,
  VChart,
  libDefaults,
  drawBinary,
  escapeHtml,
  fmt,
  optionControls,
  patchRows,
  plural,
  setHtml,
  showStatus,
  signed,
  viewState,
} from './common.js';
import { asker } from './compute.js';
import { drawReferenceLesson, drawShortTextLesson } from './compare-lessons.js';

const LISTED = 40; // features listed per side
const TERMS = 5; // pushes written out per side of a bit's sum

// The texts are inputs; every number shown for them comes from the library.
export const PRESETS = {
  chinese: {
    a: '你妈妈喊你回家吃饭哦,回家罗回家罗',
    b: '你妈妈叫你回家吃饭啦,回家罗回家罗',
    note: (c) =>
      `The reference material's pair: two characters changed, and the ${c.width}-bit fingerprints differ ` +
      `in ${c.distance} bits (the auto tokenizer reads Chinese as overlapping character pairs). The article itself ` +
      'reports 3: “Why the article says 3” below shows where the difference comes from.',
  },
  english: {
    a:
      'SimHash turns a document into a short fingerprint, so that similar documents get similar ' +
      'fingerprints. Search engines used it to find near-duplicate web pages among billions of them, ' +
      'comparing a few bits instead of reading every page again.',
    b:
      'SimHash turns a document into a short fingerprint, so that similar documents get similar ' +
      'fingerprints. Search engines used it to spot near-duplicate web pages among billions of them, ' +
      'comparing a few bits instead of reading each page again.',
    note: (c) =>
      `Two words of about forty changed: d = ${c.distance}. Most features are shared, so most ` +
      'sums Vᵢ keep their sign.',
  },
  unrelated: {
    a: 'SimHash turns a document into a short fingerprint, so that similar documents get similar fingerprints.',
    b: 'The kettle boiled over while we argued about whose turn it was to wash the dishes.',
    note: (c) =>
      `Nothing shared: d = ${c.distance} of ${c.width}. Unrelated texts land near half the bits ` +
      '(an angle near π/2), like two independent random fingerprints.',
  },
  short: {
    a: 'Lunch at noon?',
    b: 'Lunch at one?',
    note: (c) =>
      `Three words, one changed: d = ${c.distance}. With so few features each one carries a third ` +
      'of every Vᵢ, so one edit flips many bits; and one word of three is a third of the text edited, ' +
      'not the tenth a near-duplicate may have: texts this short are told apart by too few features.',
  },
};

export function setup() {
  const options = optionControls($('cmp-options'), 'cmp');
  const textA = $('cmp-text-a');
  const textB = $('cmp-text-b');
  const view = $('view-compare');
  const chartA = new VChart($('cmp-chart-a'), { label: 'V for text A' });
  const chartB = new VChart($('cmp-chart-b'), { label: 'V for text B' });

  const ui = viewState(
    {
      // Inputs.
      options: null,
      a: '',
      b: '',
      preset: 'chinese',
      // The share of A's words a near-duplicate may have edited, in percent (the library's
      // default tolerance to start).
      tolerance: Math.round(libDefaults().tolerance.near * 100),
      // The library's answer for them: both explanations, their comparison, the features only
      // in A and only in B and the sums of their pushes per bit.
      r: null,
      error: null,
    },
    [
      [['error'], (s) => showStatus($('cmp-status'), s.error)],
      [['r'], renderSides],
      [['r'], renderBits],
      [['r'], renderCharts],
      [['r'], renderChanged],
      [
        ['r', 'preset'],
        (s) => {
          $('cmp-note').textContent = s.preset && s.r ? PRESETS[s.preset].note(s.r.c) : '';
        },
      ],
      [
        ['preset'],
        (s) => {
          for (const button of document.querySelectorAll('[data-preset]')) {
            button.setAttribute('aria-pressed', String(button.dataset.preset === s.preset));
          }
        },
      ],
    ],
  );
  const s = ui.state;

  const request = asker(view, 'compare', (answer) => {
    if (answer.error) ui.set({ error: answer.error });
    else ui.set({ r: answer.value, error: null });
  });
  const compute = () =>
    request('compare', { a: s.a, b: s.b, options: s.options, tolerance: s.tolerance / 100 });

  function renderSides({ r }) {
    if (!r) return;
    for (const [side, e, features] of [
      ['a', r.ea, r.featuresA],
      ['b', r.eb, r.featuresB],
    ]) {
      // The library's count of distinct features: what pairK takes.
      $(`cmp-features-${side}`).textContent = String(features);
      $(`cmp-hex-${side}`).textContent = e.hex;
    }
  }

  // Highlighting only: where the library's two bit strings differ.
  const differing = (a, b) => Array.from(a.bits, (bit, i) => bit !== b.bits[i]);

  function renderBits({ r }) {
    if (!r) return;
    const { ea, eb, c } = r;
    const differs = differing(ea, eb);
    drawBinary($('cmp-bits-a'), ea.bits, differs);
    drawBinary($('cmp-bits-b'), eb.bits, differs);
    drawBinary($('cmp-xor'), differs.map((d) => (d ? '1' : '0')).join(''), differs);
    $('cmp-distance').textContent = String(c.distance);
    $('cmp-of-width').textContent = String(c.width);
    $('cmp-similarity').textContent = c.similarity.toFixed(4);
    $('cmp-angle').textContent = c.angle.toFixed(4);
    $('cmp-cosine').textContent = c.cosine.toFixed(4);
    $('cmp-verdict').textContent =
      `${c.nearDuplicate ? 'yes' : 'no'}: d = ${c.distance} ${c.nearDuplicate ? '≤' : '>'} k = ${r.k}`;
    $('cmp-k-from').textContent =
      `pairK(${r.featuresA}, ${r.featuresB}): both texts' distinct features. ` +
      `A alone (recommendedK(A), before B is known): k = ${r.kOfA}` +
      (r.kOfA === r.k ? '.' : `, ${c.distance <= r.kOfA ? 'yes' : 'no'} at it.`);
  }

  function renderCharts({ r }) {
    if (!r) return;
    const differs = differing(r.ea, r.eb);
    const scale = Math.max(1e-9, ...r.ea.v.map(Math.abs), ...r.eb.v.map(Math.abs));
    $('cmp-scale').textContent = `Tallest bar: |V| = ${fmt(scale)}`;
    chartA.draw({ v: r.ea.v, bits: r.ea.bits, scale, marks: differs });
    chartB.draw({ v: r.eb.v, bits: r.eb.bits, scale, marks: differs });
  }

  /** A list of features as chips: the text and its weight. */
  const chips = (e, list) =>
    list
      .slice(0, LISTED)
      .map((i) => {
        const f = e.features[i];
        return `<li><span class="feature-text">${escapeHtml(f.feature)}</span> <span class="w">${fmt(f.weight)}</span></li>`;
      })
      .join('') +
    (list.length > LISTED ? `<li class="more">and ${list.length - LISTED} more</li>` : '');

  /** A feature's push on bit i, as the library's row gives it: +w under a 1, −w under a 0. */
  const push = (f, i) => signed(f.weight, (f.bits[i] === '1') === f.weight >= 0);

  /** The first pushes of `list` on bit i written out (they stay put while the text grows). */
  function terms(e, list, i) {
    const moving = list.filter((j) => e.features[j].weight !== 0);
    if (!moving.length) return { html: '<span class="none">none</span>', more: 0 };
    const html = moving
      .slice(0, TERMS)
      .map(
        (j) =>
          `<span class="term">${push(e.features[j], i)} ` +
          `<span class="feature-text">${escapeHtml(e.features[j].feature)}</span></span>`,
      )
      .join(' ');
    return { html, more: Math.max(0, moving.length - TERMS) };
  }

  function renderChanged({ r }) {
    if (!r) return;
    const { ea, eb, onlyA, onlyB, vOnlyA, vOnlyB } = r;
    setHtml($('cmp-only-a'), chips(ea, onlyA) || '<li class="more">none</li>');
    setHtml($('cmp-only-b'), chips(eb, onlyB) || '<li class="more">none</li>');
    $('cmp-only-a-count').textContent = `(${onlyA.length})`;
    $('cmp-only-b-count').textContent = `(${onlyB.length})`;
    const shared = ea.features.length - onlyA.length;
    setHtml(
      $('cmp-shared'),
      `${plural(shared, 'feature')} with the same weight in both push every bit the same ` +
        'way in A and in B, so only the features listed move V. A feature whose weight changed is listed on both ' +
        'sides, at each weight.',
    );
    // Rows keep their written-out pushes, which rarely change as a text grows; the numbers (V,
    // how many more, the sums) are written into them afterwards, so a keystroke rebuilds no row.
    const rows = [];
    const numbers = [];
    for (let i = 0; i < ea.width; i++) {
      if (ea.bits[i] === eb.bits[i]) continue;
      const a = terms(ea, onlyA, i);
      const b = terms(eb, onlyB, i);
      rows.push([
        i,
        `<tr data-bit="${i}"><th scope="row" class="num">${i}</th><td class="num va"></td>` +
          `<td class="terms">− (${a.html}<span class="tail"></span>)</td><td class="terms">+ (${b.html}<span class="tail"></span>)</td>` +
          '<td class="num vb"></td></tr>',
      ]);
      numbers.push([i, a.more, b.more]);
    }
    const tbody = $('cmp-flips').tBodies[0];
    patchRows(
      tbody,
      rows.length
        ? rows
        : [
            [
              'none',
              '<tr><td colspan="5" class="empty">No bit differs: every Vᵢ kept its sign.</td></tr>',
            ],
          ],
    );
    const tail = (more, sum) =>
      `${more ? ` <span class="more">+ ${more} more</span>` : ''} <span class="sum">= <strong>${fmt(sum)}</strong></span>`;
    numbers.forEach(([i, moreA, moreB], at) => {
      const tr = tbody.rows[at];
      const [tdA, tdB] = tr.querySelectorAll('td.terms');
      setHtml(
        tr.querySelector('.va'),
        `${fmt(ea.v[i])} <span class="bit">bit ${ea.bits[i]}</span>`,
      );
      setHtml(
        tr.querySelector('.vb'),
        `${fmt(eb.v[i])} <span class="bit">bit ${eb.bits[i]}</span>`,
      );
      setHtml(tdA.querySelector('.tail'), tail(moreA, vOnlyA[i]));
      setHtml(tdB.querySelector('.tail'), tail(moreB, vOnlyB[i]));
      tdA.dataset.sum = String(vOnlyA[i]);
      tdB.dataset.sum = String(vOnlyB[i]);
    });
  }

  function choose(name) {
    textA.value = PRESETS[name].a;
    textB.value = PRESETS[name].b;
    Object.assign(s, { a: textA.value, b: textB.value });
    ui.set({ preset: name });
    compute();
  }

  for (const button of document.querySelectorAll('[data-preset]')) {
    button.addEventListener('click', () => choose(button.dataset.preset));
  }
  // The note describes a preset's texts; once edited it no longer applies.
  textA.addEventListener('input', () => {
    s.a = textA.value;
    ui.set({ preset: null });
    compute();
  });
  textB.addEventListener('input', () => {
    s.b = textB.value;
    ui.set({ preset: null });
    compute();
  });
  options.onChange(() => {
    s.options = options.read();
    compute();
  });
  // The tolerance: a whole percent; anything else the library refuses, in the status line.
  const tolerance = $('cmp-tolerance');
  tolerance.value = String(s.tolerance);
  tolerance.addEventListener('input', () => {
    if (tolerance.value === '') return;
    s.tolerance = Number(tolerance.value);
    compute();
  });

  let lessonsDrawn = false;
  return {
    show() {
      if (!s.options) {
        s.options = options.read();
        choose('chinese');
      }
      if (!lessonsDrawn) {
        drawShortTextLesson(PRESETS.chinese);
        drawReferenceLesson(PRESETS.chinese);
        lessonsDrawn = true;
      }
    },
  };
}
