// Pieces every view shares: the view-state helper, option controls, the V chart, bit strings,
// status lines. Nothing here computes what the library computes; it draws what it returns.
import { defaults } from '../pkg/simprint.js';
import { fmt } from './format.js';

export { escapeHtml, fmt, plural, signed } from './format.js';

export const $ = (id) => document.getElementById(id);

let libraryDefaults = null;
/** The library's defaults (its `defaults()` export), read once after the module is loaded. */
export function libDefaults() {
  libraryDefaults ??= defaults();
  return libraryDefaults;
}

/**
 * A view's state and its renderers. `renderers` are [inputs, fn] pairs: after set(patch), each
 * fn(state) runs when one of its named inputs changed (by identity) since it last ran, so a
 * keystroke redraws only what depends on what it changed.
 */
export function viewState(initial, renderers) {
  const state = { ...initial };
  const seen = renderers.map(() => null);
  function render(force = false) {
    renderers.forEach(([inputs, fn], i) => {
      const now = inputs.map((name) => state[name]);
      if (!force && seen[i] && now.every((v, j) => Object.is(v, seen[i][j]))) return;
      seen[i] = now;
      fn(state);
    });
  }
  return {
    state,
    set(patch) {
      Object.assign(state, patch);
      render();
    },
    render,
  };
}

const written = new WeakMap(); // element → the HTML last written into it by setHtml

/**
 * Writes `html` into `el` unless it is what was written there last: redrawing what did not
 * change then costs no DOM work, so no layout either.
 */
export function setHtml(el, html) {
  if (written.get(el) === html) return;
  written.set(el, html);
  el.innerHTML = html;
}

const rowsOf = new WeakMap(); // container → Map(key → { html, node })

/**
 * Makes `container`'s children the rows `items` ([key, html] pairs, each html one element),
 * in order, reusing the element of every key whose html is unchanged: a keystroke that changes
 * one row of a long list rebuilds that row only.
 */
export function patchRows(container, items) {
  const before = rowsOf.get(container) ?? new Map();
  const after = new Map();
  const fresh = items.filter(([key, html]) => before.get(key)?.html !== html);
  if (fresh.length) {
    const template = document.createElement('template');
    template.innerHTML = fresh.map(([, html]) => html).join('');
    [...template.content.children].forEach((node, i) =>
      after.set(fresh[i][0], { html: fresh[i][1], node }),
    );
  }
  items.forEach(([key, _html], at) => {
    const row = after.get(key) ?? before.get(key);
    after.set(key, row);
    const here = container.children[at];
    if (here !== row.node) container.insertBefore(row.node, here ?? null);
  });
  while (container.children.length > items.length) container.lastElementChild.remove();
  rowsOf.set(container, after);
}

/** Shows an error (or clears it) in a view's status line and marks the results out of date. */
export function showStatus(el, error, ready = '') {
  el.textContent = error ? `Error: ${error.message ?? error}` : ready;
  el.classList.toggle('error', Boolean(error));
  el.hidden = !error && !ready;
  el.closest('.view')?.classList.toggle('stale', Boolean(error));
}

// The options the page offers; the selected values come from the library's defaults().
const WEIGHTINGS = [
  ['binary', 'binary'],
  ['tf', 'tf'],
  ['logtf', 'logtf'],
];
const NORMALIZATIONS = [
  ['width', 'Width folding'],
  ['none', 'none'],
];
const TOKENIZERS = ['auto', 'words', 'chars'];

/**
 * Builds the labelled pipeline controls into `form` (ids prefixed by `prefix`), starting at the
 * library's defaults (the width at `width` when given), and returns read() → the options object
 * for the library, and onChange(callback).
 */
export function optionControls(form, prefix, { width, showWidths = [8, 16, 32, 64, 128] } = {}) {
  const lib = libDefaults().options;
  const n = libDefaults().n;
  width ??= lib.width;
  const id = (name) => `${prefix}-${name}`;
  const choices = (list, selected) =>
    list
      .map(
        ([value, label]) =>
          `<option value="${value}"${value === selected ? ' selected' : ''}>${label}</option>`,
      )
      .join('');
  form.innerHTML = `
    <div class="control">
      <label for="${id('width')}">Width (bits)</label>
      <select id="${id('width')}">${choices(
        showWidths.map((w) => [String(w), w]),
        String(width),
      )}</select>
    </div>
    <div class="control">
      <label for="${id('tokenizer')}">Tokenizer</label>
      <select id="${id('tokenizer')}" aria-describedby="${id('tokenizer-help')}">${choices(
        TOKENIZERS.map((t) => [t, t]),
        lib.tokenizer,
      )}</select>
    </div>
    <div class="control control-n">
      <label for="${id('word-n')}">n (words)</label>
      <input type="number" id="${id('word-n')}" min="1" max="64" value="${lib.wordN ?? n.words}" inputmode="numeric">
    </div>
    <div class="control control-n">
      <label for="${id('char-n')}">n (characters)</label>
      <input type="number" id="${id('char-n')}" min="1" max="64" value="${lib.charN ?? n.chars}" inputmode="numeric">
    </div>
    <div class="control">
      <label for="${id('weighting')}">Weights</label>
      <select id="${id('weighting')}">${choices(WEIGHTINGS, lib.weighting)}</select>
    </div>
    <div class="control">
      <label for="${id('normalization')}">Normalization</label>
      <select id="${id('normalization')}">${choices(NORMALIZATIONS, lib.normalization)}</select>
    </div>
    <div class="control control-check">
      <input type="checkbox" id="${id('case-fold')}"${lib.caseFold ? ' checked' : ''}>
      <label for="${id('case-fold')}">Case folding</label>
    </div>
    <p class="help" id="${id('tokenizer-help')}">
      auto: CJK runs as n-character grams, other text as n-word shingles · words: n-word shingles ·
      chars: n-character grams. Weights: binary, 1 per distinct feature · tf, its count · logtf, 1 + ln count.
    </p>`;
  const el = (name) => form.querySelector(`#${id(name)}`);
  const controls = {
    width: el('width'),
    tokenizer: el('tokenizer'),
    wordN: el('word-n'),
    charN: el('char-n'),
    weighting: el('weighting'),
    normalization: el('normalization'),
    caseFold: el('case-fold'),
  };
  const syncDisabled = () => {
    const t = controls.tokenizer.value;
    controls.wordN.disabled = t === 'chars';
    controls.charN.disabled = t === 'words';
  };
  syncDisabled();
  form.addEventListener('submit', (event) => event.preventDefault());
  return {
    controls,
    read() {
      const tokenizer = controls.tokenizer.value;
      // An empty or non-numeric box becomes NaN, which the library rejects with a clear message.
      const wordN = controls.wordN.value === '' ? NaN : Number(controls.wordN.value);
      const charN = controls.charN.value === '' ? NaN : Number(controls.charN.value);
      const options = {
        width: Number(controls.width.value),
        tokenizer,
        caseFold: controls.caseFold.checked,
        weighting: controls.weighting.value,
        normalization: controls.normalization.value,
      };
      if (tokenizer === 'auto') Object.assign(options, { wordN, charN });
      else options.n = tokenizer === 'words' ? wordN : charN;
      return options;
    },
    onChange(callback) {
      form.addEventListener('input', (event) => {
        syncDisabled();
        callback(event);
      });
    },
  };
}

/** Fills `el` with the bits in nibble groups; `marks[i]` highlights bit i. */
export function drawBinary(el, bits, marks = null) {
  let html = '';
  if (el.getAttribute('aria-label') !== bits) el.setAttribute('aria-label', bits);
  for (let start = 0; start < bits.length; start += 4) {
    html += '<span class="nibble">';
    for (let i = start; i < Math.min(start + 4, bits.length); i++) {
      html += marks?.[i] ? `<mark>${bits[i]}</mark>` : bits[i];
    }
    html += '</span>';
  }
  setHtml(el, html);
}

/** Where value x sits on a track, in % from its bottom: 0 at the middle, ±scale at the edges. */
const level = (x, scale) => Math.max(0, Math.min(100, 50 + (x / scale) * 50));

/**
 * One bar per bit of V, up for positive and down for negative, the bit under each bar and the
 * bit's index every 8 bits (every bit up to 16), so wide fingerprints that wrap stay readable.
 * Bars are a roving-focus list (one tab stop; arrow keys move) so hover details work by keyboard.
 */
export class VChart {
  constructor(el, { label, onActive = null, values = 'auto' } = {}) {
    this.el = el;
    this.label = label;
    this.values = values;
    this.onActive = onActive;
    this.cells = [];
    this.active = -1;
    el.classList.add('vchart');
    if (onActive) {
      el.setAttribute('role', 'listbox');
      el.setAttribute('aria-label', label);
      el.tabIndex = 0;
      el.addEventListener('keydown', (e) => this.#key(e));
      el.addEventListener('focus', () => this.#activate(Math.max(0, this.active), false));
      el.addEventListener('blur', () => this.#activate(-1, false));
      el.addEventListener('pointerover', (e) => {
        const cell = e.target.closest('.cell');
        if (cell && Number(cell.dataset.i) !== this.active)
          this.#activate(Number(cell.dataset.i), false);
      });
      el.addEventListener('pointerleave', () => {
        if (document.activeElement !== el) this.#activate(-1, false);
      });
    } else {
      el.setAttribute('role', 'img');
    }
  }

  /** v: numbers; bits: '0'/'1' string; scale: the |V| that fills half the track. */
  draw({ v, bits, scale, marks = null, fragile = null }) {
    const f = v.length;
    if (this.cells.length !== f) this.#build(f);
    const showValues = this.values === true || (this.values === 'auto' && f <= 16);
    this.el.classList.toggle('with-values', showValues);
    for (let i = 0; i < f; i++) {
      const c = this.cells[i];
      const x = v[i];
      const sign = x > 0 ? 'pos' : x < 0 ? 'neg' : 'zero';
      // Only what changed is written, so a redraw of the same V dirties nothing.
      const cls = `cell ${sign}${marks?.[i] ? ' diff' : ''}${fragile?.[i] ? ' fragile' : ''}${
        i === this.active ? ' active' : ''
      }${c.indexed ? ' indexed' : ''}`;
      if (c.root.className !== cls) c.root.className = cls;
      const height = `${Math.min(50, (Math.abs(x) / scale) * 50)}%`;
      if (c.height !== height) {
        c.height = height;
        c.bar.style.height = height;
      }
      if (c.digit.textContent !== bits[i]) c.digit.textContent = bits[i];
      if (showValues && c.value.textContent !== fmt(x)) c.value.textContent = fmt(x);
      const label = `bit ${i}: V = ${fmt(x)}, bit ${bits[i]}${fragile?.[i] ? ', fragile' : ''}${
        marks?.[i] ? ', differs' : ''
      }`;
      // The name is this text alone (the drawing is aria-hidden), so it matches what is read.
      if (c.label.textContent !== label) c.label.textContent = label;
      if (!this.onActive) c.root.title = label;
    }
    this.scale = scale;
    this.el.dataset.scale = String(scale);
    this.el.dataset.width = String(f);
    // Up to 16 bits: one row. Wider: the stylesheet picks 16, 32 or 64 columns by the card's width.
    if (f <= 16) this.el.style.setProperty('--cols', String(Math.max(1, f)));
    else this.el.style.removeProperty('--cols');
    if (!this.onActive) this.el.setAttribute('aria-label', `${this.label}: bits ${bits}`);
  }

  /**
   * Outlines a change on every bar: from from[i] to to[i] (both values of V), or clears it
   * with null. A step's push is drawn from the V before it to the V after it.
   */
  showSpan(from, to) {
    this.el.classList.toggle('pushing', to != null);
    if (to == null) return;
    for (let i = 0; i < this.cells.length; i++) {
      const p = this.cells[i].push;
      const a = from ? from[i] : 0;
      const b = to[i];
      const lo = level(Math.min(a, b), this.scale);
      const hi = level(Math.max(a, b), this.scale);
      p.className = `push ${b >= a ? 'up' : 'down'}${a === b ? ' none' : ''}`;
      p.style.bottom = `${lo}%`;
      p.style.height = `${hi - lo}%`;
    }
  }

  /** Outlines one feature's push (+w where bits has a 1, −w where 0) from zero, or clears it. */
  showPush(bits, weight) {
    // A weight of 0 pushes nothing, so there is nothing to outline.
    if (bits == null || !weight) return this.showSpan(null, null);
    return this.showSpan(
      null,
      Array.from(bits, (b) => ((b === '1') === weight >= 0 ? 1 : -1) * Math.abs(weight)),
    );
  }

  #build(f) {
    const frag = document.createDocumentFragment();
    this.cells = [];
    for (let i = 0; i < f; i++) {
      const root = document.createElement('div');
      root.dataset.i = String(i);
      root.id = `${this.el.id}-bit-${i}`;
      if (this.onActive) root.setAttribute('role', 'option');
      const label = document.createElement('span');
      label.className = 'visually-hidden label';
      const track = document.createElement('div');
      track.className = 'track';
      track.setAttribute('aria-hidden', 'true');
      const bar = document.createElement('div');
      bar.className = 'bar';
      const push = document.createElement('div');
      push.className = 'push';
      track.append(bar, push);
      const value = document.createElement('span');
      value.className = 'value';
      value.setAttribute('aria-hidden', 'true');
      const digit = document.createElement('span');
      digit.className = 'digit';
      digit.setAttribute('aria-hidden', 'true');
      const index = document.createElement('span');
      index.className = 'index';
      index.setAttribute('aria-hidden', 'true');
      // Every bit's index on narrow charts, else every 8th: each row of 16, 32 or 64 starts at one.
      const indexed = f <= 16 || i % 8 === 0;
      if (indexed) index.textContent = String(i);
      root.append(label, track, value, digit, index);
      frag.append(root);
      this.cells.push({ root, label, bar, push, value, digit, indexed });
    }
    this.el.replaceChildren(frag);
    this.el.classList.toggle('narrow', f <= 16);
    this.active = -1;
  }

  #activate(i, scroll) {
    if (i >= this.cells.length) i = this.cells.length - 1;
    if (this.active >= 0) {
      this.cells[this.active]?.root.classList.remove('active');
      this.cells[this.active]?.root.setAttribute('aria-selected', 'false');
    }
    this.active = i;
    if (i >= 0) {
      const c = this.cells[i].root;
      c.classList.add('active');
      c.setAttribute('aria-selected', 'true');
      this.el.setAttribute('aria-activedescendant', c.id);
      if (scroll) c.scrollIntoView({ block: 'nearest' });
    } else {
      this.el.removeAttribute('aria-activedescendant');
    }
    this.onActive?.(i);
  }

  #key(e) {
    const n = this.cells.length;
    const cols = Math.max(
      1,
      Math.round(this.el.clientWidth / (this.cells[0]?.root.offsetWidth || 1)),
    );
    const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: cols, ArrowUp: -cols };
    let i = Math.max(this.active, 0);
    if (e.key in moves) i = Math.min(n - 1, Math.max(0, i + moves[e.key]));
    else if (e.key === 'Home') i = 0;
    else if (e.key === 'End') i = n - 1;
    else return;
    e.preventDefault();
    this.#activate(i, true);
  }
}

/**
 * Roving focus over the buttons matching `selector` inside `container`: one tab stop, arrow
 * keys, Home and End move between them.
 */
export function rovingFocus(container, selector) {
  container.addEventListener('keydown', (e) => {
    const items = [...container.querySelectorAll(selector)];
    const at = items.indexOf(document.activeElement);
    if (at < 0) return;
    const moves = { ArrowDown: 1, ArrowUp: -1 };
    let next;
    if (e.key in moves) next = Math.min(items.length - 1, Math.max(0, at + moves[e.key]));
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = items.length - 1;
    else return;
    e.preventDefault();
    items[at].tabIndex = -1;
    items[next].tabIndex = 0;
    items[next].focus();
  });
}

/** A feature's hash as f small bars: up where the bit is 1 (+w), down where it is 0 (−w). */
export function stripSvg(bits) {
  const f = bits.length;
  let up = '';
  let down = '';
  for (let i = 0; i < f; i++) {
    if (bits[i] === '1') up += `M${i + 0.15} 1h.7v8h-.7z`;
    else down += `M${i + 0.15} 11h.7v8h-.7z`;
  }
  return (
    `<svg class="strip" viewBox="0 0 ${f} 20" preserveAspectRatio="none" aria-hidden="true">` +
    `<path class="up" d="${up}"/><path class="down" d="${down}"/></svg>`
  );
}
