// View 1: one text, its features, V and the fingerprint, which bits one feature more or less
// could flip; then what weights do. State: the inputs (text, options) and the library's answers
// (explain and fragility, from the worker); small renderers draw it.
import { compare, explain, toHex } from '../pkg/simprint.js';
import {
  $,
  VChart,
  drawBinary,
  escapeHtml,
  fmt,
  libDefaults,
  optionControls,
  plural,
  rovingFocus,
  showStatus,
  signed,
  stripSvg,
  viewState,
} from './common.js';
import { asker } from './compute.js';

const START_TEXT = 'The cat sat on the mat. The dog sat on the log.';
const ROWS = 400; // rows drawn before "Show all"; a page of text has a few hundred features
const LISTED = 10; // features named per list in the bar details
const EAGER = 40; // rows whose hash strip is drawn at once; the others when scrolled near
const CHUNK = 100; // rows built per task

// The weights lesson: one word repeated. Inputs only; every number shown comes from explain().
const REPEAT_BEFORE = 'The cat sat on the mat and looked at the dog.';
const REPEAT_AFTER = `${REPEAT_BEFORE} Dog, dog, dog, dog, dog!`;
const REPEAT_WORD = 'dog';
const LESSON_WIDTH = 32;

/** A bit's hash digits in groups of four, so long hashes wrap between groups. */
const grouped = (bits) => bits.replace(/(.{4})(?=.)/g, '$1 ');

/** True when one feature more or less could flip the bit (the library's fragility of it). */
const isFragile = (bit) => bit.removals.length > 0 || bit.addition !== null;

export function setup() {
  const options = optionControls($('fp-options'), 'fp', { width: 16 });
  const note = document.createElement('p');
  note.className = 'help';
  note.textContent =
    `Width starts at 16 bits here so that every hash fits on a line; the library's default is ` +
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

  const ui = viewState(
    {
      // Inputs.
      text: START_TEXT,
      options: null,
      order: 'text',
      all: false,
      // The library's answers for them.
      e: null,
      fragility: null,
      error: null,
      // What the page draws them with: which bits are fragile, the chart's scale.
      fragile: [],
      scale: 1,
      // Pointer and keyboard: the lit row, the pinned feature and the active bar.
      lit: null,
      pinned: null,
      activeBar: -1,
    },
    [
      [['error'], (s) => showStatus($('fp-status'), s.error)],
      [['e', 'fragile', 'scale'], renderChart],
      [['e', 'fragile', 'fragility'], renderBits],
      [['e', 'order', 'all'], renderTable],
      [['e', 'lit'], renderLit],
      [['e', 'lit', 'pinned', 'activeBar', 'fragility'], renderDetails],
      [['e', 'lit', 'activeBar', 'fragility'], renderNow],
      [
        ['e', 'text'],
        (s) => {
          $('fp-render').textContent = s.e
            ? `${s.text.length} characters, ${plural(s.e.features.length, 'distinct feature')}`
            : '';
        },
      ],
    ],
  );
  const s = ui.state;

  // Answers arrive from the worker; only the newest question's answer is drawn.
  const request = asker(view, 'fingerprint', (answer) => {
    if (answer.error) return ui.set({ error: answer.error });
    const { e, fragility } = answer.value;
    const wmax = e.features.reduce((m, f) => Math.max(m, Math.abs(f.weight)), 0);
    const scale = Math.max(1e-9, wmax, ...e.v.map(Math.abs));
    const pinned = e.features.some((f) => f.feature === s.pinned) ? s.pinned : null;
    const lit = pinned == null ? null : e.features.findIndex((f) => f.feature === pinned);
    ui.set({ e, fragility, fragile: fragility.map(isFragile), scale, pinned, lit, error: null });
  });
  const compute = () => request('fingerprint', { text: s.text, options: s.options });

  function renderChart({ e, fragile, scale }) {
    if (e) chart.draw({ v: e.v, bits: e.bits, scale, fragile });
  }

  function renderBits({ e, fragile, fragility }) {
    if (!e) return;
    drawBinary($('fp-bits'), e.bits, fragile);
    $('fp-hex').textContent = e.hex;
    $('fp-fragile').textContent = `${fragile.filter(Boolean).length} of ${e.width}`;
    $('fp-feature-count').textContent = `(${e.features.length})`;
    const binary = e.features.length > 0 && e.features.every((f) => f.weight === 1);
    const rule = $('fp-fragile-rule');
    rule.innerHTML =
      e.features.length === 0
        ? 'No features, so V is all zeros and every bit is 0: one added feature would set the bits where its hash has a 1.'
        : 'Bit <var>i</var> is 1 when <var>V</var><sub><var>i</var></sub> &gt; 0; a tie (0) gives 0. A bit is ' +
          '<strong>fragile</strong> (striped, underlined) when one feature more or less could flip it: removing a ' +
          'feature flips a 1 it held up by at least <var>V</var><sub><var>i</var></sub>, or a 0 it held down by more ' +
          'than |<var>V</var><sub><var>i</var></sub>|; one more feature of weight <var>w</var> flips a 1 when ' +
          '<var>V</var><sub><var>i</var></sub> ≤ <var>w</var> and a 0 when <var>V</var><sub><var>i</var></sub> &gt; −<var>w</var>. ' +
          (binary
            ? 'Every weight here is 1, so that is exactly <var>V</var><sub><var>i</var></sub> = 0 or 1: at −1 one feature ' +
              'more gives 0, still a 0 bit. '
            : '') +
          'The library decides it for these weights (<code>Fingerprinter.fragility</code>); focus a bar for who could flip it.';
    rule.dataset.fragile = String(fragility.filter(isFragile).length);
  }

  function orderedRows(e, order) {
    const rows = e.features.map((_, i) => i);
    if (order === 'weight')
      rows.sort((a, b) => e.features[b].weight - e.features[a].weight || a - b);
    return rows;
  }

  function rowHtml(f, width, strip) {
    const name = escapeHtml(f.feature ?? '');
    return (
      `<div class="frow" role="row"><span role="rowheader"><button type="button" class="feature" tabindex="-1">` +
      `<span class="feature-text">${name}</span></button></span>` +
      `<span role="cell" class="num">${fmt(f.weight)}</span>` +
      `<span role="cell" class="hash"><code class="hash-hex">${toHex(f.hash, width)}</code>` +
      `<code class="hash-bits">${grouped(f.bits)}</code></span>` +
      `<span role="cell" class="strip-cell" aria-label="${f.bits}"><span class="pm">±${fmt(Math.abs(f.weight))}</span>` +
      `${strip ? stripSvg(f.bits) : ''}</span></div>`
    );
  }

  // Drawing every strip of a long text at once would cost more than a frame: rows beyond the
  // first EAGER get theirs when they come near the screen.
  const pendingStrip = new WeakMap(); // row → bits
  const stripObserver = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const row = entry.target;
        const bits = pendingStrip.get(row);
        if (bits) row.querySelector('.strip-cell').insertAdjacentHTML('beforeend', stripSvg(bits));
        pendingStrip.delete(row);
        stripObserver.unobserve(row);
      }
    },
    { rootMargin: '400px 0px' },
  );

  // Rows are kept by feature, weight and hash, so typing rebuilds only the rows that changed.
  let rowCache = new Map();
  let cacheWidth = 0;
  let chunkTimer = 0;
  function renderTable({ e, order, all }) {
    if (!e) return;
    clearTimeout(chunkTimer);
    const rows = orderedRows(e, order);
    const wanted = all ? rows : rows.slice(0, ROWS);
    if (e.width !== cacheWidth) {
      rowCache = new Map();
      cacheWidth = e.width;
      $('fp-features').dataset.width = String(e.width);
    }
    const key = (f) => `${f.feature}\u0000${f.weight}\u0000${f.bits}`;
    // Rows not built yet, in order: at most CHUNK now, the rest a chunk per later task, so no
    // one task grows with the text.
    const missing = [];
    let cut = wanted.length;
    for (let at = 0; at < wanted.length; at++) {
      if (rowCache.has(key(e.features[wanted[at]]))) continue;
      if (missing.length === CHUNK) {
        cut = at;
        chunkTimer = setTimeout(() => renderTable(s), 0);
        break;
      }
      missing.push([wanted[at], at < EAGER]);
    }
    const shown = wanted.slice(0, cut);
    if (missing.length) {
      const template = document.createElement('template');
      template.innerHTML = missing
        .map(([i, eager]) => rowHtml(e.features[i], e.width, eager))
        .join('');
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
    // Rows still to come keep their built element for the next chunk.
    for (const i of wanted.slice(cut)) {
      const row = rowCache.get(key(e.features[i]));
      if (row) used.set(key(e.features[i]), row);
    }
    while (tbody.children.length > shown.length) {
      stripObserver.unobserve(tbody.lastElementChild);
      tbody.lastElementChild.remove();
    }
    rowCache = used;
    showAll.hidden = wanted.length === rows.length;
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

  const names = (items, push) => {
    const head = items
      .slice(0, LISTED)
      .map(
        (f) =>
          `<li><span class="feature-text">${escapeHtml(f.feature ?? '')}</span>` +
          `${push ? ` ${push(f)}` : ''}</li>`,
      )
      .join('');
    const more =
      items.length > LISTED ? `<li class="more">and ${items.length - LISTED} more</li>` : '';
    return `${head}${more}`;
  };

  /** Bit i's pushers, read off the library's rows: a 1 in bit i pushed V_i up by w, a 0 down. */
  function pushers(e, i) {
    const up = e.features.filter((f) => (f.bits[i] === '1') === f.weight >= 0 && f.weight !== 0);
    const down = e.features.filter((f) => (f.bits[i] === '1') !== f.weight >= 0 && f.weight !== 0);
    const byWeight = (a, b) => Math.abs(b.weight) - Math.abs(a.weight);
    return { up: up.sort(byWeight), down: down.sort(byWeight) };
  }

  /** What the library says could flip bit i, in words. */
  function fragileText(e, i, bit) {
    const one = e.bits[i] === '1';
    const v = `V<sub>${i}</sub>`;
    const removal = bit.removals.length
      ? `<p>Removing any one of ${plural(bit.removals.length, 'feature')} would flip it (each pushed ${v} ` +
        `${one ? `up by at least ${fmt(e.v[i])}` : `down by more than ${fmt(Math.abs(e.v[i]))}`}):</p>` +
        `<ul class="pushers removals">${names(
          bit.removals.map((j) => e.features[j]),
          (f) => signed(f.weight, one),
        )}</ul>`
      : `<p>No single feature's removal would flip it.</p>`;
    const addition =
      bit.addition !== null
        ? `<p>One more feature of weight ${fmt(bit.addition)}${
            bit.addition < Math.max(...e.features.map((f) => Math.abs(f.weight))) ? ' or more' : ''
          } with a ${one ? 0 : 1} here would flip it.</p>`
        : '<p>No one added feature of the weights here would flip it.</p>';
    return `<div class="fragile-why" data-removals="${bit.removals.length}" data-addition="${bit.addition ?? ''}">${removal}${addition}</div>`;
  }

  function renderDetails({ e, lit, pinned, activeBar, fragility }) {
    const details = $('fp-details');
    if (!e) return;
    if (activeBar >= 0 && activeBar < e.width) {
      const i = activeBar;
      const { up, down } = pushers(e, i);
      const bit = fragility[i];
      details.innerHTML =
        `<p class="details-head">Bit ${i}: V<sub>${i}</sub> = <strong>${fmt(e.v[i])}</strong> → bit <strong>${e.bits[i]}</strong>` +
        `${isFragile(bit) ? ' <span class="tag tag-fragile">fragile</span>' : ''}</p>` +
        (up.length
          ? `<p>Pushed up by ${plural(up.length, 'feature')}:</p><ul class="pushers up">${names(up, (f) => signed(f.weight, true))}</ul>`
          : '<p>Nothing pushed it up.</p>') +
        (down.length
          ? `<p>Pushed down by ${plural(down.length, 'feature')}:</p><ul class="pushers down">${names(down, (f) => signed(f.weight, false))}</ul>`
          : '<p>Nothing pushed it down.</p>') +
        fragileText(e, i, bit);
    } else if (lit != null && e.features[lit]) {
      const f = e.features[lit];
      const ones = [...f.bits].filter((b) => b === '1').length;
      details.innerHTML =
        `<p class="details-head">Feature <span class="feature-text">${escapeHtml(f.feature ?? '')}</span>, weight ${fmt(f.weight)}` +
        `${f.feature === pinned ? ' <span class="tag">pinned; Escape lets go</span>' : ''}</p>` +
        `<p>Hash ${f.bits}: ${signed(f.weight, true)} on its ${ones} one-bits, ${signed(f.weight, false)} on its ` +
        `${f.bits.length - ones} zero-bits (outlined on the chart, from zero).</p>`;
    } else {
      details.innerHTML =
        '<p class="hint">Hover, tap or focus a bar to list the features that pushed it up and down, ' +
        'and what one feature more or less would do to it.</p>';
    }
  }

  /** One line under the chart (which stays on screen on phones) about the bar or row in focus. */
  function renderNow({ e, lit, activeBar, fragility }) {
    const now = $('fp-now');
    if (!e) return;
    if (activeBar >= 0 && activeBar < e.width) {
      const bit = fragility[activeBar];
      now.innerHTML =
        `Bit ${activeBar}: V = ${fmt(e.v[activeBar])} → ${e.bits[activeBar]}` +
        (isFragile(bit)
          ? ` · fragile: ${plural(bit.removals.length, 'removal')} could flip it` +
            `${bit.addition !== null ? `, or one feature of weight ${fmt(bit.addition)} more` : ''}`
          : ' · one feature cannot flip it');
    } else if (lit != null && e.features[lit]) {
      const f = e.features[lit];
      const ones = [...f.bits].filter((b) => b === '1').length;
      now.innerHTML =
        `<span class="feature-text">${escapeHtml(f.feature ?? '')}</span>: ${signed(f.weight, true)} on ${ones} bits, ` +
        `${signed(f.weight, false)} on ${f.bits.length - ones} (outlined)`;
    } else {
      now.textContent = 'Tap a bar or a feature.';
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
    compute();
  });
  textBox.addEventListener('input', () => {
    s.text = textBox.value;
    compute();
  });
  $('fp-order').addEventListener('input', () => ui.set({ order: $('fp-order').value }));
  showAll.addEventListener('click', () => ui.set({ all: true }));

  let lessonDrawn = false;
  return {
    show() {
      if (!s.options) {
        s.options = options.read();
        compute();
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
  const logtf = compare(
    explain(REPEAT_BEFORE, { width: LESSON_WIDTH, weighting: 'logtf' }).fingerprint,
    explain(REPEAT_AFTER, { width: LESSON_WIDTH, weighting: 'logtf' }).fingerprint,
    LESSON_WIDTH,
  );
  const def = libDefaults().options.weighting;
  box.querySelector('.lesson-texts').innerHTML =
    `<p><span class="tag">before</span> <span class="quote">${escapeHtml(REPEAT_BEFORE)}</span></p>` +
    `<p><span class="tag">after</span> <span class="quote">${escapeHtml(REPEAT_AFTER)}</span></p>`;
  const grid = box.querySelector('.lesson-grid');
  grid.innerHTML = panels
    .map(
      (p) => `
    <figure class="lesson-panel" data-weighting="${p.weighting}">
      <figcaption><strong>${p.weighting}</strong>${p.weighting === def ? ' (the default)' : ''}:
        “${REPEAT_WORD}” weighs ${fmt(p.wordBefore.weight)} before, <strong>${fmt(p.word.weight)}</strong> after ·
        d = <strong class="lesson-d">${p.c.distance}</strong> of ${LESSON_WIDTH}</figcaption>
      <p class="chart-label">V before</p><div class="vchart lesson-chart" id="fp-w-${p.weighting}-before"></div>
      <p class="chart-label">V after</p><div class="vchart lesson-chart" id="fp-w-${p.weighting}-after"></div>
    </figure>`,
    )
    .join('');
  for (const p of panels) {
    const differs = Array.from(p.before.bits, (b, i) => b !== p.after.bits[i]);
    const scale = Math.max(1e-9, ...p.before.v.map(Math.abs), ...p.after.v.map(Math.abs));
    new VChart($(`fp-w-${p.weighting}-before`), { label: `V before, ${p.weighting} weights` }).draw(
      { v: p.before.v, bits: p.before.bits, scale, marks: differs },
    );
    new VChart($(`fp-w-${p.weighting}-after`), { label: `V after, ${p.weighting} weights` }).draw({
      v: p.after.v,
      bits: p.after.bits,
      scale,
      marks: differs,
    });
  }
  const [bin, tf] = panels;
  box.querySelector('.lesson-note').textContent =
    `With binary weights each distinct feature counts once, so repeating “${REPEAT_WORD}” adds nothing: ` +
    `V is the same and d = ${bin.c.distance}. With tf weights “${REPEAT_WORD}” weighs ${fmt(tf.word.weight)} ` +
    `and pulls every Vᵢ toward its own hash: ${tf.c.distance} of ${LESSON_WIDTH} bits flip (logtf, 1 + ln count, ` +
    `flips ${logtf.distance}). Repeated words say little about whether two texts are copies, which is why the ` +
    `library's default is ${def}.`;
}
