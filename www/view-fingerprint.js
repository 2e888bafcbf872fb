// View 1: one text, its features, V and the fingerprint; then what weights do.
// State: the inputs (text, options) and the library's explanation; small renderers draw it.
import { Fingerprinter, compare, explain, toHex } from '../pkg/simprint.js';
import {
  $, VChart, drawBinary, escapeHtml, fmt, libDefaults, optionControls, responsive, rovingFocus, showStatus, signed,
  stripSvg, viewState,
} from './common.js';

const START_TEXT = 'The cat sat on the mat. The dog sat on the log.';
const ROWS = 400; // rows drawn before "Show all"; a page of text has a few hundred features
const LISTED = 10; // features named per direction in the bar details
const EAGER = 40; // rows whose hash strip is drawn at once; the others when scrolled near

// The weights lesson: one word repeated. Inputs only; every number shown comes from explain().
const REPEAT_BEFORE = 'The cat sat on the mat and looked at the dog.';
const REPEAT_AFTER = `${REPEAT_BEFORE} Dog, dog, dog, dog, dog!`;
const REPEAT_WORD = 'dog';
const LESSON_WIDTH = 32;

export function setup() {
  const options = optionControls($('fp-options'), 'fp', { width: 16 });
  const note = document.createElement('p');
  note.className = 'help';
  note.textContent = `Width starts at 16 bits here so that every hash fits on a line; the library's default is ` +
    `${libDefaults().options.width}. The other options start at the library's defaults (defaults()).`;
  $('fp-options').append(note);
  const textBox = $('fp-text');
  const tbody = $('fp-rows');
  const showAll = $('fp-show-all');
  const view = $('view-fingerprint');
  textBox.value = START_TEXT;

  const chart = new VChart($('fp-chart'), {
    label: 'V, one bar per bit; arrow keys move between bits',
    onActive: (i) => ui.set({ activeBar: i }),
  });

  const ui = viewState({
    // Inputs.
    text: START_TEXT,
    options: null,
    order: 'text',
    all: false,
    // The library's answer for them, and what the page's fragility rule reads off it.
    e: null,
    error: null,
    fragile: [],
    wmax: 0,
    scale: 1,
    ms: 0,
    // Pointer and keyboard: the lit row, the pinned feature and the active bar.
    lit: null,
    pinned: null,
    activeBar: -1,
  }, [
    [['error'], (s) => showStatus($('fp-status'), s.error)],
    [['e', 'fragile', 'scale'], renderChart],
    [['e', 'fragile', 'wmax'], renderBits],
    [['e', 'order', 'all'], renderTable],
    [['e', 'lit'], renderLit],
    [['e', 'lit', 'pinned', 'activeBar', 'fragile'], renderDetails],
    [['text', 'ms'], (s) => {
      $('fp-render').textContent = `${s.text.length} characters, computed and drawn in ${s.ms.toFixed(1)} ms`;
    }],
  ]);
  const s = ui.state;

  /** Asks the library for the explanation of the current text and options. */
  function compute() {
    const t0 = performance.now();
    let fp;
    try {
      fp = new Fingerprinter(s.options);
      const e = fp.explain(s.text);
      const wmax = e.features.reduce((m, f) => Math.max(m, Math.abs(f.weight)), 0);
      // The page's fragility rule, stated next to the chart.
      const fragile = e.v.map((x) => wmax > 0 && Math.abs(x) <= wmax);
      const scale = Math.max(1e-9, wmax, ...e.v.map(Math.abs));
      const pinned = e.features.some((f) => f.feature === s.pinned) ? s.pinned : null;
      const lit = pinned == null ? null : e.features.findIndex((f) => f.feature === pinned);
      ui.set({ e, wmax, fragile, scale, pinned, lit, error: null });
    } catch (error) {
      ui.set({ error });
    } finally {
      fp?.free();
    }
    ui.set({ ms: performance.now() - t0 });
  }
  const work = responsive(view, compute);

  function renderChart({ e, fragile, scale }) {
    if (e) chart.draw({ v: e.v, bits: e.bits, scale, fragile });
  }

  function renderBits({ e, fragile, wmax }) {
    if (!e) return;
    drawBinary($('fp-bits'), e.bits, fragile);
    $('fp-hex').textContent = e.hex;
    $('fp-fragile').textContent = `${fragile.filter(Boolean).length} of ${e.width}`;
    $('fp-fragile-rule').innerHTML = wmax > 0
      ? `Fragile (striped, underlined): |<var>V</var><sub><var>i</var></sub>| ≤ ${fmt(wmax)}, the weight of the ` +
        'heaviest feature. Removing that one feature, or adding one like it, could flip such a bit.'
      : 'No features, so V is all zeros and every bit is 0.';
    $('fp-feature-count').textContent = `(${e.features.length})`;
  }

  function orderedRows(e, order) {
    const rows = e.features.map((_, i) => i);
    if (order === 'weight') rows.sort((a, b) => e.features[b].weight - e.features[a].weight || a - b);
    return rows;
  }

  function rowHtml(f, width, strip) {
    const name = escapeHtml(f.feature ?? '');
    return `<div class="frow" role="row"><span role="rowheader"><button type="button" class="feature" tabindex="-1">` +
      `<span class="feature-text">${name}</span></button></span>` +
      `<span role="cell" class="num">${fmt(f.weight)}</span>` +
      `<span role="cell" class="hash"><code>${toHex(f.hash, width)}</code>${width <= 16 ? `<code class="hash-bits">${f.bits}</code>` : ''}</span>` +
      `<span role="cell" class="strip-cell" aria-label="${f.bits}"><span class="pm">±${fmt(Math.abs(f.weight))}</span>` +
      `${strip ? stripSvg(f.bits) : ''}</span></div>`;
  }

  // Drawing every strip of a long text at once would cost more than a frame: rows beyond the
  // first EAGER get theirs when they come near the screen.
  const pendingStrip = new WeakMap(); // row → bits
  const stripObserver = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const row = entry.target;
      const bits = pendingStrip.get(row);
      if (bits) row.querySelector('.strip-cell').insertAdjacentHTML('beforeend', stripSvg(bits));
      pendingStrip.delete(row);
      stripObserver.unobserve(row);
    }
  }, { rootMargin: '400px 0px' });

  // Rows are kept by feature, weight and hash, so typing rebuilds only the rows that changed.
  let rowCache = new Map();
  let cacheWidth = 0;
  function renderTable({ e, order, all }) {
    if (!e) return;
    const rows = orderedRows(e, order);
    const shown = all ? rows : rows.slice(0, ROWS);
    if (e.width !== cacheWidth) {
      rowCache = new Map();
      cacheWidth = e.width;
    }
    const key = (f) => `${f.feature}\u0000${f.weight}\u0000${f.bits}`;
    // Parse the rows not yet built in one go.
    const missing = [];
    shown.forEach((i, at) => {
      if (!rowCache.has(key(e.features[i]))) missing.push([i, at < EAGER]);
    });
    if (missing.length) {
      const template = document.createElement('template');
      template.innerHTML = missing.map(([i, eager]) => rowHtml(e.features[i], e.width, eager)).join('');
      [...template.content.children].forEach((row, j) => {
        const [i, eager] = missing[j];
        rowCache.set(key(e.features[i]), row);
        if (!eager) {
          pendingStrip.set(row, e.features[i].bits);
          stripObserver.observe(row);
        }
      });
    }
    const used = new Map();
    shown.forEach((i, at) => {
      const row = rowCache.get(key(e.features[i]));
      row.dataset.i = String(i);
      row.classList.remove('lit');
      row.querySelector('button').tabIndex = at === 0 ? 0 : -1;
      used.set(key(e.features[i]), row);
      // Move only the rows that are out of place.
      const here = tbody.children[at];
      if (here !== row) tbody.insertBefore(row, here ?? null);
    });
    while (tbody.children.length > shown.length) {
      stripObserver.unobserve(tbody.lastElementChild);
      tbody.lastElementChild.remove();
    }
    rowCache = used;
    showAll.hidden = shown.length === rows.length;
    showAll.textContent = `Show all ${rows.length} features`;
    // Rows were re-labelled: the lit one must be marked again.
    renderLit(s);
  }

  /** The lit row in the table and its push on the chart. */
  function renderLit({ e, lit }) {
    if (!e) return;
    for (const tr of tbody.querySelectorAll('.frow.lit')) tr.classList.remove('lit');
    const f = lit == null ? null : e.features[lit];
    if (f) tbody.querySelector(`.frow[data-i="${lit}"]`)?.classList.add('lit');
    chart.showPush(f?.bits ?? null, f?.weight ?? 0);
  }

  function listFeatures(items, up) {
    const head = items.slice(0, LISTED)
      .map((f) => `<li><span class="feature-text">${escapeHtml(f.feature ?? '')}</span> ${signed(f.weight, up)}</li>`)
      .join('');
    const more = items.length > LISTED ? `<li class="more">and ${items.length - LISTED} more</li>` : '';
    return `<ul class="pushers ${up ? 'up' : 'down'}">${head}${more}</ul>`;
  }

  function renderDetails({ e, lit, pinned, activeBar, fragile }) {
    const details = $('fp-details');
    if (!e) return;
    if (activeBar >= 0 && activeBar < e.width) {
      const i = activeBar;
      // Reading the library's rows: a 1 in bit i pushed V_i up by w, a 0 pushed it down.
      const up = e.features.filter((f) => (f.bits[i] === '1') === f.weight >= 0 && f.weight !== 0);
      const down = e.features.filter((f) => (f.bits[i] === '1') !== f.weight >= 0 && f.weight !== 0);
      const byWeight = (a, b) => Math.abs(b.weight) - Math.abs(a.weight);
      up.sort(byWeight);
      down.sort(byWeight);
      details.innerHTML =
        `<p class="details-head">Bit ${i}: V<sub>${i}</sub> = <strong>${fmt(e.v[i])}</strong> → bit <strong>${e.bits[i]}</strong>` +
        `${fragile[i] ? ' <span class="tag tag-fragile">fragile</span>' : ''}</p>` +
        (up.length ? `<p>Pushed up by ${up.length} feature${up.length === 1 ? '' : 's'}:</p>${listFeatures(up, true)}`
          : '<p>Nothing pushed it up.</p>') +
        (down.length ? `<p>Pushed down by ${down.length} feature${down.length === 1 ? '' : 's'}:</p>${listFeatures(down, false)}`
          : '<p>Nothing pushed it down.</p>');
    } else if (lit != null && e.features[lit]) {
      const f = e.features[lit];
      const ones = [...f.bits].filter((b) => b === '1').length;
      details.innerHTML =
        `<p class="details-head">Feature <span class="feature-text">${escapeHtml(f.feature ?? '')}</span>, weight ${fmt(f.weight)}` +
        `${f.feature === pinned ? ' <span class="tag">pinned; Escape lets go</span>' : ''}</p>` +
        `<p>Hash ${f.bits}: ${signed(f.weight, true)} on its ${ones} one-bits, ${signed(f.weight, false)} on its ` +
        `${f.bits.length - ones} zero-bits (outlined on the chart, from zero).</p>`;
    } else {
      details.innerHTML = '<p class="hint">Hover, tap or focus a bar to list the features that pushed it up and down.</p>';
    }
  }

  // Features: hover and focus light a row; click (or Enter/Space) pins it.
  const rowIndex = (target) => {
    const tr = target.closest?.('.frow[data-i]');
    return tr ? Number(tr.dataset.i) : null;
  };
  const pinnedIndex = () => {
    const i = s.pinned == null || !s.e ? -1 : s.e.features.findIndex((f) => f.feature === s.pinned);
    return i < 0 ? null : i;
  };
  tbody.addEventListener('pointerover', (ev) => {
    const i = rowIndex(ev.target);
    if (i != null && i !== s.lit) ui.set({ lit: i });
  });
  tbody.addEventListener('pointerleave', () => {
    if (!tbody.contains(document.activeElement)) ui.set({ lit: pinnedIndex() });
  });
  tbody.addEventListener('focusin', (ev) => {
    const i = rowIndex(ev.target);
    if (i != null) ui.set({ lit: i });
  });
  tbody.addEventListener('focusout', (ev) => {
    if (!tbody.contains(ev.relatedTarget)) ui.set({ lit: pinnedIndex() });
  });
  tbody.addEventListener('click', (ev) => {
    const i = rowIndex(ev.target);
    if (i == null) return;
    const feature = s.e.features[i].feature;
    ui.set({ pinned: s.pinned === feature ? null : feature, lit: i });
  });
  view.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && s.pinned != null) ui.set({ pinned: null, lit: null });
  });
  rovingFocus(tbody, 'button.feature');

  options.onChange(() => {
    s.options = options.read();
    work.request(true);
  });
  textBox.addEventListener('input', () => {
    s.text = textBox.value;
    work.request();
  });
  $('fp-order').addEventListener('input', () => ui.set({ order: $('fp-order').value }));
  showAll.addEventListener('click', () => ui.set({ all: true }));

  let lessonDrawn = false;
  return {
    show() {
      if (!s.options) {
        s.options = options.read();
        work.request(true);
      }
      if (!lessonDrawn) {
        drawWeightsLesson();
        lessonDrawn = true;
      }
    },
  };
}

/**
 * The weights lesson: one sentence, then the same with one word repeated, under binary and tf
 * weights. Binary counts each distinct feature once, so repeats change nothing; tf lets the
 * repeated word pull V toward its own hash.
 */
function drawWeightsLesson() {
  const box = $('fp-weights');
  const panels = ['binary', 'tf'].map((weighting) => {
    const options = { width: LESSON_WIDTH, weighting };
    const before = explain(REPEAT_BEFORE, options);
    const after = explain(REPEAT_AFTER, options);
    const c = compare(before.fingerprint, after.fingerprint, LESSON_WIDTH);
    const word = (e) => e.features.find((f) => f.feature === REPEAT_WORD);
    return { weighting, before, after, c, word: word(after), wordBefore: word(before) };
  });
  const logtf = compare(explain(REPEAT_BEFORE, { width: LESSON_WIDTH, weighting: 'logtf' }).fingerprint,
    explain(REPEAT_AFTER, { width: LESSON_WIDTH, weighting: 'logtf' }).fingerprint, LESSON_WIDTH);
  const def = libDefaults().options.weighting;
  box.querySelector('.lesson-texts').innerHTML =
    `<p><span class="tag">before</span> <span class="quote">${escapeHtml(REPEAT_BEFORE)}</span></p>` +
    `<p><span class="tag">after</span> <span class="quote">${escapeHtml(REPEAT_AFTER)}</span></p>`;
  const grid = box.querySelector('.lesson-grid');
  grid.innerHTML = panels.map((p) => `
    <figure class="lesson-panel" data-weighting="${p.weighting}">
      <figcaption><strong>${p.weighting}</strong>${p.weighting === def ? ' (the default)' : ''}:
        “${REPEAT_WORD}” weighs ${fmt(p.wordBefore.weight)} before, <strong>${fmt(p.word.weight)}</strong> after ·
        d = <strong class="lesson-d">${p.c.distance}</strong> of ${LESSON_WIDTH}</figcaption>
      <p class="chart-label">V before</p><div class="vchart lesson-chart" id="fp-w-${p.weighting}-before"></div>
      <p class="chart-label">V after</p><div class="vchart lesson-chart" id="fp-w-${p.weighting}-after"></div>
    </figure>`).join('');
  for (const p of panels) {
    const differs = Array.from(p.before.bits, (b, i) => b !== p.after.bits[i]);
    const scale = Math.max(1e-9, ...p.before.v.map(Math.abs), ...p.after.v.map(Math.abs));
    new VChart($(`fp-w-${p.weighting}-before`), { label: `V before, ${p.weighting} weights` })
      .draw({ v: p.before.v, bits: p.before.bits, scale, marks: differs });
    new VChart($(`fp-w-${p.weighting}-after`), { label: `V after, ${p.weighting} weights` })
      .draw({ v: p.after.v, bits: p.after.bits, scale, marks: differs });
  }
  const [bin, tf] = panels;
  box.querySelector('.lesson-note').textContent =
    `With binary weights each distinct feature counts once, so repeating “${REPEAT_WORD}” adds nothing: ` +
    `V is the same and d = ${bin.c.distance}. With tf weights “${REPEAT_WORD}” weighs ${fmt(tf.word.weight)} ` +
    `and pulls every Vᵢ toward its own hash: ${tf.c.distance} of ${LESSON_WIDTH} bits flip (logtf, 1 + ln count, ` +
    `flips ${logtf.distance}). Repeated words say little about whether two texts are copies, which is why the ` +
    `library's default is ${def}.`;
}
