// The step-by-step view's worked example, editable: rows of (feature, weight, hash bits) the
// learner types, adds and removes, the reference articles' examples one click away, a guess at
// the bits before each step is revealed, and which bits one feature more or less could flip.
// The library's Accumulator, explainHashes, explainFeatures and fragilityOfHashes do every sum.
import { Accumulator, explainFeatures, explainHashes, fragilityOfHashes } from '../pkg/simprint.js';
import {
  $,
  VChart,
  drawBinary,
  escapeHtml,
  fmt,
  plural,
  showStatus,
  signed,
  viewState,
} from './common.js';

const MAX_WIDTH = 16; // hashes typed by hand; wider ones belong to the own-text stepper below
const PUSH_COLUMNS = 8; // widths up to this show each row's push per bit in the table

// The reference articles' examples. Features are x₁…x₅ in Charikar's (the README's x).
const SUB = '₀₁₂₃₄₅₆₇₈₉';
export const xName = (k) => `x${String(k).replace(/\d/g, (d) => SUB[d])}`;
const SENTENCE = [
  ['雇员', 3],
  ['称', 1],
  ['内部', 2],
  ['有', 1],
  ['9架', 3],
  ['飞碟', 5],
  ['曾', 1],
  ['看见', 3],
  ['灰色', 4],
  ['外星人', 5],
];
export const PRESETS = {
  charikar: {
    width: 3,
    rows: [
      ['101', 1],
      ['011', 2],
      ['100', 0],
      ['001', 3],
      ['110', 0],
    ].map(([bits, weight], k) => ({ feature: xName(k + 1), weight, bits })),
    note: "Charikar's five features with 3-bit hashes and one document's weights: V ends at (−4, −2, 6), the fingerprint 001.",
  },
  usa: {
    width: 6,
    rows: [
      { feature: '美国', weight: 4, bits: '100101' },
      { feature: '51区', weight: 5, bits: '101011' },
    ],
    note:
      "The practitioner's article: 美国 (weight 4) hashes to 100101, 51区 (weight 5) to 101011; V = (9, −9, 1, −1, 1, 9), " +
      'the fingerprint 101011.',
  },
  sentence: {
    width: 6,
    rows: null, // built on first use: the article's two hashes, the other words hashed by the library
    note:
      "The article's whole sentence with its weights: 美国 and 51区 keep the article's hashes; it prints no others, so " +
      'the other ten words are hashed here (SipHash, 6 bits).',
  },
};

function sentenceRows() {
  const hashed = explainFeatures(SENTENCE, { width: 6 }).features;
  return [
    ...PRESETS.usa.rows,
    ...hashed.map((f) => ({ feature: f.feature, weight: f.weight, bits: f.bits })),
  ];
}

/** A tuple of V as the page writes it. */
export const tuple = (v) => `(${Array.from(v, fmt).join(', ')})`;

/** The rows as the library's [hash, weight] pairs, or the first row that cannot be one. */
export function parseRows(rows, width) {
  const items = [];
  for (const [k, r] of rows.entries()) {
    const name = `Row ${k + 1} (${r.feature || 'no name'})`;
    if (!/^[01]+$/.test(r.bits) || r.bits.length !== width) {
      return {
        error: `${name}: the hash must be ${width} digits of 0 and 1, one per bit of the width`,
      };
    }
    const weight = String(r.weight).trim() === '' ? NaN : Number(r.weight);
    items.push([BigInt(`0b${r.bits}`), weight]);
  }
  return { items };
}

/** The Accumulator's state after the first `step` pairs, and V before the last of them. */
export function accumulate(width, items, step) {
  const acc = new Accumulator(width);
  try {
    for (let i = 0; i < step - 1; i++) acc.add(...items[i]);
    const prev = step > 0 ? Array.from(acc.v) : null;
    if (step > 0) acc.add(...items[step - 1]);
    return { prev, v: Array.from(acc.v), bits: acc.bits };
  } finally {
    acc.free();
  }
}

/** Rows already added, the one just added (lit), those still to come. */
const rowState = (k, step) => (k < step - 1 ? 'added' : k === step - 1 ? 'current' : 'pending');

export function setupExample() {
  const chart = new VChart($('ex-chart'), { label: 'V of the worked example', values: true });
  const table = $('ex-table');
  const tbody = table.tBodies[0];
  const widthBox = $('ex-width');

  const ui = viewState(
    {
      // Inputs: the rows as typed, the width, the step, and the learner's open guess.
      rows: PRESETS.charikar.rows.map((r) => ({ ...r })),
      shape: 0, // bumped when rows are added, removed or replaced: the inputs are rebuilt then
      width: 3,
      preset: 'charikar',
      step: 0,
      predict: true,
      guess: null, // the bits guessed for the next step, '?' where not yet chosen
      feedback: null, // { guess, bits, v } of the last revealed step
      // The library's answers: the pairs, the state at the step, the final V and the fragile bits.
      items: [],
      acc: null,
      final: null,
      fragility: null,
      scale: 1,
      error: null,
    },
    [
      [['error'], (s) => showStatus($('ex-status'), s.error)],
      [['shape', 'width'], renderInputs],
      [['rows', 'width', 'step', 'acc'], renderRows],
      [['acc', 'scale', 'step', 'items'], renderChart],
      [['step', 'items', 'guess', 'predict'], renderStepper],
      [['guess', 'step', 'items', 'acc', 'width'], renderGuess],
      [['feedback', 'acc', 'step', 'items', 'rows', 'preset'], renderMessage],
      [['fragility', 'acc', 'step'], renderFragile],
    ],
  );
  const s = ui.state;

  /** Asks the library about the rows as they stand: the pairs, the state at the step, the rest. */
  function compute(patch = {}) {
    const next = { ...s, ...patch };
    const parsed = parseRows(next.rows, next.width);
    if (parsed.error)
      return ui.set({
        ...patch,
        error: parsed.error,
        items: [],
        acc: null,
        final: null,
        fragility: null,
      });
    try {
      const step = Math.min(next.step, parsed.items.length);
      const final = explainHashes(parsed.items, next.width);
      // The chart keeps one scale while stepping: the largest |V| any prefix reaches.
      let scale = 1;
      for (let k = 1; k <= parsed.items.length; k++) {
        for (const x of accumulate(next.width, parsed.items, k).v)
          scale = Math.max(scale, Math.abs(x));
      }
      ui.set({
        ...patch,
        step,
        items: parsed.items,
        final,
        scale,
        error: null,
        acc: accumulate(next.width, parsed.items, step),
        fragility: fragilityOfHashes(parsed.items.slice(0, step), next.width),
      });
    } catch (error) {
      ui.set({ ...patch, error, items: [], acc: null, final: null, fragility: null });
    }
  }

  function renderInputs({ rows, width }) {
    const cols = width <= PUSH_COLUMNS ? width : 0;
    table.tHead.rows[0].innerHTML =
      '<th scope="col">Feature</th><th scope="col" class="num">Weight</th>' +
      '<th scope="col">Hash bits</th>' +
      Array.from(
        { length: cols },
        (_, i) => `<th scope="col" class="num push-col">bit ${i}</th>`,
      ).join('') +
      '<th scope="col"><span class="visually-hidden">Remove</span></th>';
    tbody.innerHTML = rows
      .map(
        (r, k) =>
          `<tr data-row="${k}">` +
          `<th scope="row"><input class="ex-feature" value="${escapeHtml(r.feature)}" aria-label="Feature of row ${k + 1}" spellcheck="false"></th>` +
          `<td class="num"><input class="ex-weight" value="${escapeHtml(r.weight)}" inputmode="decimal" aria-label="Weight of row ${k + 1}"></td>` +
          `<td><input class="ex-bits" value="${escapeHtml(r.bits)}" inputmode="numeric" aria-label="Hash bits of row ${k + 1}, bit 0 first" spellcheck="false">` +
          `<button type="button" class="ex-hash link-button" aria-label="Hash row ${k + 1}'s feature with the library">hash</button></td>` +
          Array.from({ length: cols }, () => '<td class="num push-cell push-col"></td>').join('') +
          `<td><button type="button" class="ex-remove" aria-label="Remove row ${k + 1}">✕</button></td></tr>`,
      )
      .join('');
    const [sumRow, bitRow] = table.tFoot.rows;
    for (const tr of [sumRow, bitRow]) {
      while (tr.cells.length > 1) tr.deleteCell(-1);
      for (let i = 0; i < cols; i++) tr.insertCell().className = 'num push-col';
      tr.insertCell();
    }
    // Phones show the pushes per bit only for the narrowest hashes (the chart shows V for all).
    table.classList.toggle('many-bits', width > 3);
    table.style.setProperty('--f', String(width));
  }

  function renderRows({ rows, width, step, acc }) {
    const cols = width <= PUSH_COLUMNS ? width : 0;
    [...tbody.rows].forEach((tr, k) => {
      const r = rows[k];
      const state = acc ? rowState(k, step) : 'pending';
      tr.className = state;
      if (state === 'current') tr.setAttribute('aria-current', 'step');
      else tr.removeAttribute('aria-current');
      const cells = tr.querySelectorAll('.push-cell');
      for (let i = 0; i < cells.length; i++) {
        // The row's push on bit i as its weight and bit give it: +w under a 1, −w under a 0.
        const ok =
          /^[01]+$/.test(r.bits) && r.bits.length === width && Number.isFinite(Number(r.weight));
        const up = r.bits[i] === '1';
        cells[i].className = `num push-cell push-col ${ok ? (up ? 'up' : 'down') : ''}`;
        cells[i].textContent = !ok
          ? ''
          : Number(r.weight) === 0
            ? '0'
            : signed(Number(r.weight), up === Number(r.weight) >= 0);
      }
    });
    const [sumRow, bitRow] = table.tFoot.rows;
    for (let i = 0; i < cols; i++) {
      sumRow.cells[i + 1].textContent = acc ? fmt(acc.v[i]) : '';
      bitRow.cells[i + 1].textContent = acc ? acc.bits[i] : '';
    }
  }

  function renderChart({ acc, scale, step, items }) {
    if (!acc) return;
    chart.draw({ v: acc.v, bits: acc.bits, scale });
    const moved = step > 0 && items[step - 1][1] !== 0;
    chart.showSpan(acc.prev, moved ? acc.v : null);
    $('ex-v').textContent = tuple(acc.v);
    drawBinary($('ex-bits'), acc.bits);
  }

  const nameOf = (k) => s.rows[k]?.feature || `row ${k + 1}`;

  function renderStepper({ step, items, guess, predict }) {
    const n = items.length;
    $('ex-count').textContent = `${step} of ${n} added`;
    $('ex-reset').disabled = step === 0;
    $('ex-back').disabled = step === 0;
    $('ex-end').disabled = step === n;
    $('ex-next').disabled = step === n || guess != null;
    $('ex-next').textContent =
      step >= n
        ? 'All added'
        : predict
          ? `Guess, then add ${nameOf(step)} ▶`
          : `Add ${nameOf(step)} ▶`;
    $('ex-predict').checked = predict;
  }

  function renderGuess({ guess, step, items, acc, width }) {
    const box = $('ex-guess');
    box.hidden = guess == null;
    if (guess == null || !acc) return;
    const [, weight] = items[step];
    const bitsOf = s.rows[step].bits;
    $('ex-guess-what').innerHTML =
      `Before <strong>${escapeHtml(nameOf(step))}</strong> (hash ${bitsOf}, weight ${fmt(weight)}) ` +
      `is added to V = ${tuple(acc.v)}: what will each bit of the fingerprint be?`;
    const buttons = $('ex-guess-bits');
    if (buttons.children.length !== width) {
      buttons.innerHTML = Array.from(
        { length: width },
        (_, i) => `<button type="button" class="guess-bit" data-bit="${i}"></button>`,
      ).join('');
    }
    [...buttons.children].forEach((b, i) => {
      b.textContent = guess[i];
      b.setAttribute(
        'aria-label',
        `bit ${i}: ${guess[i] === '?' ? 'no guess yet' : `your guess ${guess[i]}`}`,
      );
    });
    $('ex-reveal').disabled = guess.includes('?');
  }

  function renderMessage({ feedback, acc, step, items, preset }) {
    const n = items.length;
    let message = '';
    if (acc && step === 0)
      message = `V starts at ${tuple(acc.v)}. ${n ? `Add ${nameOf(0)} to see its row pushed onto V.` : 'Add a row.'}`;
    else if (acc) {
      const [, weight] = items[step - 1];
      const bits = s.rows[step - 1].bits;
      const name = `${nameOf(step - 1)} (hash ${bits}, weight ${fmt(weight)})`;
      message =
        weight === 0
          ? `Added ${name}: a weight of 0 pushes nothing, so V stays ${tuple(acc.v)}.`
          : `Added ${name}: V goes from ${tuple(acc.prev)} to ${tuple(acc.v)} (outlined on the chart).`;
      if (step === n)
        message += ` All ${n} added: each bit is 1 where V > 0, so the fingerprint is ${acc.bits}.`;
    }
    $('ex-message').textContent = message;
    $('ex-preset-note').textContent = preset ? PRESETS[preset].note : 'Your own rows.';
    const fb = $('ex-feedback');
    fb.hidden = !feedback || feedback.step !== step;
    if (fb.hidden) return;
    const wrong = [...feedback.bits].flatMap((b, i) => (b === feedback.guess[i] ? [] : [i]));
    fb.dataset.right = String(feedback.bits.length - wrong.length);
    fb.innerHTML =
      `You guessed <code>${feedback.guess}</code>, the bits are <code>${feedback.bits}</code>: ` +
      `<strong>${feedback.bits.length - wrong.length} of ${feedback.bits.length}</strong> right.` +
      wrong
        .map(
          (i) =>
            ` Bit ${i}: V<sub>${i}</sub> = ${fmt(feedback.v[i])} ${feedback.v[i] > 0 ? '&gt; 0, so 1' : '≤ 0, so 0'}.`,
        )
        .join('');
  }

  function renderFragile({ fragility, acc, step }) {
    const box = $('ex-fragile');
    if (!fragility || !acc) {
      box.textContent = '';
      return;
    }
    const fragile = fragility.flatMap((bit, i) =>
      bit.removals.length || bit.addition !== null ? [i] : [],
    );
    box.dataset.fragile = fragile.join(',');
    if (step === 0) {
      box.textContent =
        'With nothing added every V is 0 and every bit 0: the first feature decides them all.';
      return;
    }
    box.innerHTML =
      `<strong>Fragile now:</strong> ${fragile.length ? plural(fragile.length, 'bit') : 'none'} of ${acc.bits.length}` +
      (fragile.length
        ? ` (one feature more or less could flip ${fragile.length === 1 ? 'it' : 'them'}):`
        : '.') +
      `<ul class="fragile-list">${fragile
        .map((i) => {
          const bit = fragility[i];
          const removers = bit.removals.map((j) => escapeHtml(nameOf(j))).join(', ');
          return (
            `<li data-bit="${i}">bit ${i}, V<sub>${i}</sub> = ${fmt(acc.v[i])}: ` +
            `${removers ? `removing ${removers} would flip it` : 'no single removal flips it'}; ` +
            `${bit.addition !== null ? `one more feature of weight ${fmt(bit.addition)} with a ${acc.bits[i] === '1' ? 0 : 1} here would` : 'no one added feature of these weights would'}.</li>`
          );
        })
        .join('')}</ul>`;
  }

  // ---- Events ----
  function go(to) {
    const n = s.items.length;
    const step = Math.max(0, Math.min(n, to === 'back' ? s.step - 1 : to === 'end' ? n : to));
    compute({ step, guess: null, feedback: null });
  }
  $('ex-reset').addEventListener('click', () => go(0));
  $('ex-back').addEventListener('click', () => go('back'));
  $('ex-end').addEventListener('click', () => go('end'));
  $('ex-next').addEventListener('click', () => {
    if (s.predict) ui.set({ guess: Array.from({ length: s.width }, () => '?'), feedback: null });
    else go(s.step + 1);
  });
  $('ex-guess-bits').addEventListener('click', (e) => {
    const b = e.target.closest('.guess-bit');
    if (!b || !s.guess) return;
    const guess = [...s.guess];
    const i = Number(b.dataset.bit);
    guess[i] = guess[i] === '1' ? '0' : '1';
    ui.set({ guess });
  });
  $('ex-reveal').addEventListener('click', () => {
    const guess = s.guess.join('');
    compute({ step: s.step + 1, guess: null });
    if (s.acc) ui.set({ feedback: { step: s.step, guess, bits: s.acc.bits, v: s.acc.v } });
    $('ex-next').focus();
  });
  // Reveals this step without a guess; the next one asks again.
  $('ex-skip').addEventListener('click', () => go(s.step + 1));
  $('ex-predict').addEventListener('input', () =>
    ui.set({ predict: $('ex-predict').checked, guess: null }),
  );
  tbody.addEventListener('input', (e) => {
    const tr = e.target.closest('tr[data-row]');
    if (!tr) return;
    const k = Number(tr.dataset.row);
    const field = e.target.classList.contains('ex-feature')
      ? 'feature'
      : e.target.classList.contains('ex-weight')
        ? 'weight'
        : 'bits';
    const rows = s.rows.map((r, j) => (j === k ? { ...r, [field]: e.target.value } : r));
    compute({ rows, preset: null, guess: null });
  });
  tbody.addEventListener('click', (e) => {
    const tr = e.target.closest('tr[data-row]');
    if (!tr) return;
    const k = Number(tr.dataset.row);
    if (e.target.closest('.ex-remove')) {
      const rows = s.rows.filter((_, j) => j !== k);
      compute({
        rows,
        shape: s.shape + 1,
        preset: null,
        guess: null,
        step: Math.min(s.step, rows.length),
      });
    } else if (e.target.closest('.ex-hash')) {
      // The library's hash of the feature's text at this width (its default SipHash key).
      try {
        const bits = explainFeatures([[s.rows[k].feature, 1]], { width: s.width }).features[0].bits;
        tr.querySelector('.ex-bits').value = bits;
        compute({
          rows: s.rows.map((r, j) => (j === k ? { ...r, bits } : r)),
          preset: null,
          guess: null,
        });
      } catch (error) {
        ui.set({ error });
      }
    }
  });
  $('ex-add-row').addEventListener('click', () => {
    const rows = [
      ...s.rows,
      { feature: xName(s.rows.length + 1), weight: 1, bits: '0'.repeat(s.width) },
    ];
    compute({ rows, shape: s.shape + 1, preset: null, guess: null });
    tbody.rows[rows.length - 1]?.querySelector('.ex-feature').focus();
  });
  widthBox.addEventListener('input', () => {
    const width = Number(widthBox.value);
    if (!Number.isInteger(width) || width < 1 || width > MAX_WIDTH) {
      return ui.set({ error: `The width must be a whole number of bits from 1 to ${MAX_WIDTH}` });
    }
    compute({ width, shape: s.shape + 1, preset: null, guess: null });
  });
  for (const button of document.querySelectorAll('[data-example]')) {
    button.addEventListener('click', () => {
      const preset = PRESETS[button.dataset.example];
      preset.rows ??= sentenceRows();
      widthBox.value = String(preset.width);
      compute({
        rows: preset.rows.map((r) => ({ ...r })),
        width: preset.width,
        shape: s.shape + 1,
        preset: button.dataset.example,
        step: 0,
        guess: null,
        feedback: null,
      });
    });
  }
  widthBox.value = String(s.width);
  compute();
  ui.render(true);
}
