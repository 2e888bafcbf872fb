// View 3: V built one feature at a time, first for the reference's worked example, then for
// the user's own text. The library's Accumulator does every addition; each part keeps one
// state object (inputs and the library's answers) and small renderers draw it.
import { Accumulator, Fingerprinter, explainHashes, toHex } from '../pkg/simprint.js';
import { $, VChart, drawBinary, escapeHtml, fmt, plural, responsive, showStatus, signed, viewState } from './common.js';

// The reference material's example: five features with 3-bit hashes and document weights.
const EXAMPLE = [[0b101n, 1], [0b011n, 2], [0b100n, 0], [0b001n, 3], [0b110n, 0]];
const OWN_TEXT = 'To be, or not to be';
const OWN_ROWS = 300; // feature rows listed; a long text's later features are stepped by the slider

// Features are x₁…x₅ (the README's x), so that w names only weights.
const SUB = '₀₁₂₃₄₅₆₇₈₉';
const xName = (k) => `x${String(k).replace(/\d/g, (d) => SUB[d])}`;
const xHtml = (k) => `<var>x</var><sub>${k}</sub>`;
const tuple = (v) => `(${Array.from(v, fmt).join(', ')})`;

/** Bits i where a push is up or down, as "bits 0 and 2". */
function bitList(bits, want) {
  const at = [...bits].flatMap((b, i) => (b === want ? [i] : []));
  if (at.length === 0) return 'no bits';
  if (at.length === 1) return `bit ${at[0]}`;
  return `bits ${at.slice(0, -1).join(', ')} and ${at.at(-1)}`;
}

/** The Accumulator's state after the first `step` of `items` ([hash, weight] pairs), and V before the last. */
function accumulate(width, items, step) {
  const acc = new Accumulator(width);
  try {
    for (let i = 0; i < step - 1; i++) acc.add(...items[i]);
    const prev = step > 0 ? Array.from(acc.v) : null;
    if (step > 0) acc.add(...items[step - 1]);
    return { prev, v: Array.from(acc.v), bits: acc.bits, fingerprint: acc.fingerprint };
  } finally {
    acc.free();
  }
}

/** The largest |V| any prefix reaches, read from one Accumulator pass: the charts' fixed scale. */
function largestV(width, items) {
  const acc = new Accumulator(width);
  try {
    let m = 0;
    for (const item of items) {
      acc.add(...item);
      for (const x of acc.v) m = Math.max(m, Math.abs(x));
    }
    return m;
  } finally {
    acc.free();
  }
}

/** Row classes for a step: rows already added, the one just added (lit), those still to come. */
const rowState = (k, step) => (k < step - 1 ? 'added' : k === step - 1 ? 'current' : 'pending');
const rowLabel = { added: 'added', current: 'just added', pending: 'not yet added' };

function stepper(prefix, { go }) {
  $(`${prefix}-reset`).addEventListener('click', () => go(0));
  $(`${prefix}-back`).addEventListener('click', () => go('back'));
  $(`${prefix}-next`).addEventListener('click', () => go('next'));
  $(`${prefix}-end`).addEventListener('click', () => go('end'));
  return (step, max) => {
    $(`${prefix}-reset`).disabled = step === 0;
    $(`${prefix}-back`).disabled = step === 0;
    $(`${prefix}-next`).disabled = step === max;
    $(`${prefix}-end`).disabled = step === max;
  };
}

const target = (to, step, max) => Math.max(0, Math.min(max,
  to === 'back' ? step - 1 : to === 'next' ? step + 1 : to === 'end' ? max : to));

function setupExample() {
  const ex = explainHashes(EXAMPLE, 3); // the library's rows: bits of each hash, final V
  const scale = Math.max(1, largestV(3, EXAMPLE));
  const chart = new VChart($('ex-chart'), { label: 'V of the worked example', values: true });
  const table = $('ex-table');
  const tbody = table.tBodies[0];
  const [sumRow, bitRow] = table.tFoot.rows;
  const n = EXAMPLE.length;

  tbody.innerHTML = ex.features.map((f, k) => {
    const cells = [...f.bits].map((b) => `<td class="num push-cell ${b === '1' ? 'up' : 'down'}">${
      f.weight === 0 ? '0' : signed(f.weight, b === '1')}</td>`).join('');
    return `<tr><th scope="row">${xHtml(k + 1)}</th><td><code>${f.bits}</code></td>` +
      `<td class="num">${fmt(f.weight)}</td>${cells}</tr>`;
  }).join('');
  for (let i = 0; i < 3; i++) {
    sumRow.insertCell().className = 'num';
    bitRow.insertCell().className = 'num';
  }

  const ui = viewState({ step: 0, acc: accumulate(3, EXAMPLE, 0) }, [
    [['step'], ({ step }) => {
      [...tbody.rows].forEach((tr, k) => {
        const state = rowState(k, step);
        tr.className = state;
        tr.setAttribute('aria-label', `${xName(k + 1)}: ${rowLabel[state]}`);
        if (state === 'current') tr.setAttribute('aria-current', 'step');
        else tr.removeAttribute('aria-current');
      });
      $('ex-count').textContent = `${step} of ${n} added`;
      $('ex-next').textContent = step < n ? `Add ${xName(step + 1)} ▶` : 'All added';
      sync(step, n);
    }],
    [['acc'], ({ step, acc }) => {
      acc.v.forEach((x, i) => {
        sumRow.cells[i + 1].textContent = fmt(x);
        bitRow.cells[i + 1].textContent = acc.bits[i];
      });
      chart.draw({ v: acc.v, bits: acc.bits, scale });
      // The push just added, outlined from the V before it to the V after it.
      const f = step > 0 ? ex.features[step - 1] : null;
      chart.showSpan(acc.prev, f && f.weight !== 0 ? acc.v : null);
      $('ex-v').textContent = tuple(acc.v);
      drawBinary($('ex-bits'), acc.bits);
    }],
    [['acc'], ({ step, acc }) => {
      let message;
      if (step === 0) {
        message = `V starts at (0, 0, 0). Add ${xName(1)} to see its row pushed onto V.`;
      } else {
        const f = ex.features[step - 1];
        const name = `${xName(step)} (hash ${f.bits}, weight ${fmt(f.weight)})`;
        message = f.weight === 0
          ? `Added ${name}: a weight of 0 pushes nothing, so V stays ${tuple(acc.v)}.`
          : `Added ${name}: ${signed(f.weight, true)} on ${bitList(f.bits, '1')}, ${signed(f.weight, false)} on ` +
            `${bitList(f.bits, '0')}, so V goes from ${tuple(acc.prev)} to ${tuple(acc.v)} (outlined on the chart).`;
        if (step === n) {
          message += ` All five added: each bit is 1 where V > 0, so the fingerprint is ${acc.bits}.`;
        }
      }
      $('ex-message').textContent = message;
    }],
  ]);
  const sync = stepper('ex', {
    go(to) {
      const step = target(to, ui.state.step, n);
      ui.set({ step, acc: accumulate(3, EXAMPLE, step) });
    },
  });
  ui.render(true);
  drawHyperplanes(ex);
}

/** The ±1 reading: column j of the hash table, dotted with the weight vector, is V_j. */
function drawHyperplanes(ex) {
  const unit = (b) => (b === '1' ? '+1' : '−1');
  const head = '<tr><th scope="col">Feature</th><th scope="col" class="num">weight</th>' +
    [0, 1, 2].map((j) => `<th scope="col" class="num">c<sub>${j}</sub></th>`).join('') + '</tr>';
  const rows = ex.features.map((f, k) => `<tr><th scope="row">${xHtml(k + 1)}</th><td class="num">${fmt(f.weight)}</td>` +
    [...f.bits].map((b) => `<td class="num ${b === '1' ? 'up' : 'down'}">${unit(b)}</td>`).join('') + '</tr>').join('');
  const weights = `(${ex.features.map((f) => fmt(f.weight)).join(', ')})`;
  const dots = [0, 1, 2].map((j) => {
    const terms = ex.features.map((f) => `${fmt(f.weight)}·(${unit(f.bits[j])})`).join(' + ');
    return `<li><span class="dot-name">V<sub>${j}</sub> = w · c<sub>${j}</sub></span> = <span class="terms">${terms}</span>` +
      ` = <strong>${fmt(ex.v[j])}</strong> ${ex.v[j] > 0 ? '&gt;' : ex.v[j] < 0 ? '&lt;' : '='} 0 → bit <strong>${ex.bits[j]}</strong></li>`;
  }).join('');
  $('hp').innerHTML =
    `<p class="help" id="hp-caption">The hashes of ${xHtml(1)}…${xHtml(5)} as ±1 columns c<sub>0</sub>, c<sub>1</sub>, ` +
    `c<sub>2</sub>; the weight vector w = ${weights}.</p>` +
    `<div class="table-scroll"><table class="example hp-table" aria-labelledby="hp-caption">` +
    `<thead>${head}</thead><tbody>${rows}</tbody></table></div>` +
    `<ol class="dots">${dots}</ol>` +
    `<p class="note">Fingerprint <strong><code>${ex.bits}</code></strong>: ${sides(Array.from(ex.v))}</p>`;
}

/** Which side of each column's hyperplane the weight vector lies on, in words. */
function sides(v) {
  const cols = (want) => v.flatMap((x, j) => (want(x) ? [`c<sub>${j}</sub>`] : []));
  const of = (names) => `hyperplane${names.length > 1 ? 's' : ''} of ${names.join(' and ')}`;
  const pos = cols((x) => x > 0);
  const neg = cols((x) => x < 0);
  const zero = cols((x) => x === 0);
  const parts = [];
  if (pos.length) parts.push(`on the positive side of the ${of(pos)}`);
  if (neg.length) parts.push(`on the negative side of the ${of(neg)}`);
  if (zero.length) parts.push(`exactly on the ${of(zero)} (V = 0 gives bit 0)`);
  return `the document's weight vector lies ${parts.join('; ')}.`;
}

function setupOwn() {
  const textBox = $('own-text');
  const widthSel = $('own-width');
  const range = $('own-step');
  const tbody = $('own-features').tBodies[0];
  const view = $('view-steps');
  const chart = new VChart($('own-chart'), { label: 'V after the features added so far' });
  textBox.value = OWN_TEXT;

  const ui = viewState({
    // Inputs.
    text: OWN_TEXT,
    width: Number(widthSel.value),
    step: 0,
    // The library's answers: the explanation, its pairs, the largest |V| of any prefix, and
    // the Accumulator's state at the step (with V before it).
    e: null,
    items: [],
    scale: 1,
    acc: null,
    error: null,
  }, [
    [['error'], (s) => showStatus($('own-status'), s.error)],
    [['e'], renderRows],
    [['e', 'step'], renderProgress],
    [['acc', 'scale'], renderChart],
    [['acc'], renderMessage],
  ]);
  const s = ui.state;

  /** Asks the library about the text: explanation, the scale, and the state at the step. */
  function compute() {
    let fp;
    try {
      fp = new Fingerprinter({ width: s.width });
      // Someone who stepped to the end keeps seeing the whole fingerprint while editing.
      const atEnd = s.e != null && s.e.features.length > 0 && s.step === s.e.features.length;
      const e = fp.explain(s.text);
      const items = e.features.map((f) => [f.hash, f.weight]);
      const step = atEnd ? items.length : Math.min(s.step, items.length);
      ui.set({
        e, items, step, error: null,
        scale: Math.max(1e-9, largestV(e.width, items)),
        acc: accumulate(e.width, items, step),
      });
    } catch (error) {
      ui.set({ error });
    } finally {
      fp?.free();
    }
  }
  const work = responsive(view, compute);

  function go(to) {
    if (!s.e) return;
    const step = target(to, s.step, s.items.length);
    ui.set({ step, acc: accumulate(s.e.width, s.items, step) });
  }
  const sync = stepper('own', { go });

  function renderRows({ e }) {
    if (!e) return;
    const rows = e.features.slice(0, OWN_ROWS).map((f, k) => `<tr><td class="num">${k + 1}</td>` +
      `<td><span class="feature-text">${escapeHtml(f.feature ?? '')}</span></td><td class="num">${fmt(f.weight)}</td>` +
      `<td><code class="hash-bits">${f.bits}</code></td></tr>`);
    if (e.features.length > OWN_ROWS) {
      rows.push(`<tr class="more"><td></td><td colspan="3">and ${e.features.length - OWN_ROWS} more features ` +
        '(the slider reaches them)</td></tr>');
    }
    tbody.innerHTML = rows.join('');
    $('own-final').textContent = e.hex;
    range.max = String(e.features.length);
    lastLit = null;
  }

  let lastLit = null;
  function renderProgress({ e, step }) {
    if (!e) return;
    const n = e.features.length;
    range.value = String(step);
    range.setAttribute('aria-valuetext', `${step} of ${n} features added`);
    $('own-count').textContent = `${step} of ${n}`;
    const rows = tbody.rows;
    const shown = Math.min(n, OWN_ROWS);
    for (let k = 0; k < shown; k++) {
      const state = rowState(k, step);
      if (rows[k].className !== state) rows[k].className = state;
    }
    // Keep the added row in view inside the table's own scroll box (never scroll the page).
    const row = rows[Math.max(0, Math.min(step - 1, shown - 1))];
    const box = tbody.closest('.table-scroll');
    if (row && row !== lastLit) box.scrollTop = Math.max(0, row.offsetTop - box.clientHeight / 2);
    lastLit = row;
    sync(step, n);
  }

  function renderChart({ e, step, acc, scale }) {
    if (!acc) return;
    chart.draw({ v: acc.v, bits: acc.bits, scale });
    const f = step > 0 ? e.features[step - 1] : null;
    chart.showSpan(acc.prev, f && f.weight !== 0 ? acc.v : null);
    drawBinary($('own-bits'), acc.bits);
    $('own-hex').textContent = toHex(acc.fingerprint, e.width);
  }

  function renderMessage({ e, step, acc }) {
    if (!acc) return;
    const n = e.features.length;
    const done = step === n;
    $('own-match').textContent = done
      ? (acc.fingerprint === e.fingerprint ? '= what the steps above reached' : '≠ what the steps above reached (a bug!)')
      : `(${plural(n - step, 'feature')} still to add)`;
    const f = step > 0 ? e.features[step - 1] : null;
    let message;
    if (n === 0) message = 'This text has no features: V stays all zeros.';
    else if (!f) message = `${plural(n, 'feature')} to add. V starts at zero on every bit.`;
    else {
      const ones = [...f.bits].filter((b) => b === '1').length;
      message = `Added feature ${step}, “${f.feature}” (weight ${fmt(f.weight)}): ${signed(f.weight, true)} on ` +
        `${plural(ones, 'bit')}, ${signed(f.weight, false)} on ${plural(f.bits.length - ones, 'bit')}; each outline ` +
        'runs from the bar before this feature to the bar after it.' +
        (done ? ' That was the last feature: this is the fingerprint.' : '');
    }
    $('own-message').textContent = message;
  }

  range.addEventListener('input', () => go(Number(range.value)));
  textBox.addEventListener('input', () => {
    s.text = textBox.value;
    work.request();
  });
  widthSel.addEventListener('input', () => {
    s.width = Number(widthSel.value);
    work.request(true);
  });
  return { start: () => work.request(true) };
}

export function setup() {
  let own = null;
  return {
    show() {
      if (own) return;
      setupExample();
      own = setupOwn();
      own.start();
    },
  };
}
