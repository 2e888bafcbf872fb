// View 1: one text, its features, V and the fingerprint.
import { Fingerprinter, toHex } from '../pkg/simprint.js';
import {
  $, VChart, drawBinary, escapeHtml, fmt, libraryDefaults, optionControls, rovingFocus, showStatus, signed,
  stripSvg,
} from './common.js';

const START_TEXT = 'The cat sat on the mat. The dog sat on the log.';
const ROWS = 400; // rows drawn before "Show all"; a page of text has a few hundred features
const LISTED = 10; // features named per direction in the bar details
const EAGER = 40; // rows whose hash strip is drawn at once; the others when scrolled near

export function setup() {
  const options = optionControls($('fp-options'), 'fp', { width: 16 });
  const note = document.createElement('p');
  note.className = 'help';
  note.textContent = `Width starts at 16 bits here so that every hash fits on a line; the library's default is ` +
    `${libraryDefaults().width}. The other options start at the library's defaults.`;
  $('fp-options').append(note);
  const text = $('fp-text');
  const order = $('fp-order');
  const tbody = $('fp-rows');
  const showAll = $('fp-show-all');
  const details = $('fp-details');
  const status = $('fp-status');
  const view = $('view-fingerprint');

  text.value = START_TEXT;
  let e = null; // the library's explanation of the text
  let fragile = [];
  let wmax = 0;
  let all = false;
  let pinned = null; // feature text of the pinned row (survives edits while it exists)
  let lit = null; // row index in e.features being shown (hover, focus or pin)
  let activeBar = -1;
  // Rows are kept by feature, weight and hash, so typing rebuilds only the rows that changed.
  let rowCache = new Map();
  let cacheWidth = 0;

  const chart = new VChart($('fp-chart'), {
    label: 'V, one bar per bit; arrow keys move between bits',
    onActive: (i) => {
      activeBar = i;
      drawDetails();
    },
  });

  function update(event) {
    const start = performance.now();
    let fp;
    try {
      fp = new Fingerprinter(options.read());
      e = fp.explain(text.value);
      wmax = e.features.reduce((m, f) => Math.max(m, Math.abs(f.weight)), 0);
      // The page's fragility rule, stated next to the chart.
      fragile = e.v.map((x) => wmax > 0 && Math.abs(x) <= wmax);
      const scale = Math.max(1e-9, wmax, ...e.v.map(Math.abs));
      chart.draw({ v: e.v, bits: e.bits, scale, fragile });
      drawBinary($('fp-bits'), e.bits, fragile);
      $('fp-hex').textContent = e.hex;
      const nFragile = fragile.filter(Boolean).length;
      $('fp-fragile').textContent = `${nFragile} of ${e.width}`;
      $('fp-fragile-rule').innerHTML = wmax > 0
        ? `Fragile (striped, underlined): |<var>V</var><sub><var>i</var></sub>| ≤ ${fmt(wmax)}, the weight of the ` +
          'heaviest feature. Removing that one feature, or adding one like it, could flip such a bit.'
        : 'No features, so V is all zeros and every bit is 0.';
      $('fp-feature-count').textContent = `(${e.features.length})`;
      drawTable();
      const i = pinnedIndex();
      if (i == null) pinned = null;
      light(i);
      showStatus(status, null);
    } catch (error) {
      showStatus(status, error);
    } finally {
      fp?.free();
    }
    // Input event to drawn DOM, measured by the page itself (layout and paint follow).
    const ms = performance.now() - (event?.timeStamp ?? start);
    view.dataset.renderMs = ms.toFixed(2);
    $('fp-render').textContent = `${text.value.length} characters, drawn in ${ms.toFixed(1)} ms`;
  }

  function orderedRows() {
    const rows = e.features.map((_, i) => i);
    if (order.value === 'weight') rows.sort((a, b) => e.features[b].weight - e.features[a].weight || a - b);
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

  function drawTable() {
    const rows = orderedRows();
    const shown = all ? rows : rows.slice(0, ROWS);
    const width = e.width;
    if (width !== cacheWidth) {
      rowCache = new Map();
      cacheWidth = width;
    }
    const key = (f) => `${f.feature}\u0000${f.weight}\u0000${f.bits}`;
    // Parse the rows not yet built in one go.
    const missing = [];
    shown.forEach((i, at) => {
      if (!rowCache.has(key(e.features[i]))) missing.push([i, at < EAGER]);
    });
    if (missing.length) {
      const template = document.createElement('template');
      template.innerHTML = missing.map(([i, eager]) => rowHtml(e.features[i], width, eager)).join('');
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
  }

  function rowIndex(target) {
    const tr = target.closest?.('.frow[data-i]');
    return tr ? Number(tr.dataset.i) : null;
  }

  /** Lights row i of e.features (or nothing) in the table and its push on the chart. */
  function light(i) {
    lit = i;
    for (const tr of tbody.querySelectorAll('.frow.lit')) tr.classList.remove('lit');
    if (i == null) {
      chart.showPush(null);
    } else {
      tbody.querySelector(`.frow[data-i="${i}"]`)?.classList.add('lit');
      chart.showPush(e.features[i].bits, e.features[i].weight);
    }
    drawDetails();
  }

  function pinnedIndex() {
    const i = pinned == null ? -1 : e.features.findIndex((f) => f.feature === pinned);
    return i < 0 ? null : i;
  }

  function listFeatures(items, up) {
    const head = items.slice(0, LISTED)
      .map((f) => `<li><span class="feature-text">${escapeHtml(f.feature ?? '')}</span> ${signed(f.weight, up)}</li>`)
      .join('');
    const more = items.length > LISTED ? `<li class="more">and ${items.length - LISTED} more</li>` : '';
    return `<ul class="pushers ${up ? 'up' : 'down'}">${head}${more}</ul>`;
  }

  function drawDetails() {
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
        `${lit === pinnedIndex() ? ' <span class="tag">pinned; Escape lets go</span>' : ''}</p>` +
        `<p>Hash ${f.bits}: ${signed(f.weight, true)} on its ${ones} one-bits, ${signed(f.weight, false)} on its ` +
        `${f.bits.length - ones} zero-bits (outlined on the chart).</p>`;
    } else {
      details.innerHTML = '<p class="hint">Hover, tap or focus a bar to list the features that pushed it up and down.</p>';
    }
  }

  // Features: hover and focus light a row; click (or Enter/Space) pins it.
  tbody.addEventListener('pointerover', (ev) => {
    const i = rowIndex(ev.target);
    if (i != null && i !== lit) light(i);
  });
  tbody.addEventListener('pointerleave', () => {
    if (!tbody.contains(document.activeElement)) light(pinnedIndex());
  });
  tbody.addEventListener('focusin', (ev) => {
    const i = rowIndex(ev.target);
    if (i != null) light(i);
  });
  tbody.addEventListener('focusout', (ev) => {
    if (!tbody.contains(ev.relatedTarget)) light(pinnedIndex());
  });
  tbody.addEventListener('click', (ev) => {
    const i = rowIndex(ev.target);
    if (i == null) return;
    pinned = pinned === e.features[i].feature ? null : e.features[i].feature;
    light(i);
  });
  view.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && pinned != null) {
      pinned = null;
      light(null);
    }
  });
  rovingFocus(tbody, 'button.feature');

  options.onChange(update);
  text.addEventListener('input', update);
  order.addEventListener('input', () => {
    drawTable();
    light(lit);
  });
  showAll.addEventListener('click', () => {
    all = true;
    drawTable();
    light(lit);
  });

  return { show() { if (!e) update(); } };
}
