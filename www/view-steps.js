// View 3: V built one feature at a time: the editable worked example (steps-example.js), its
// random-hyperplane reading, then the learner's own text. The library's Accumulator does every
// addition (the own text's in the worker); each part keeps one state object and small renderers.
import { explainHashes, toHex } from '../pkg/simprint.js';
import {
  $,
  VChart,
  drawBinary,
  escapeHtml,
  fmt,
  patchRows,
  plural,
  showStatus,
  signed,
  viewState,
} from './common.js';
import { asker } from './compute.js';
import { PRESETS, setupExample, tuple, xName } from './steps-example.js';

const OWN_TEXT = 'To be, or not to be';
const OWN_ROWS = 120; // feature rows listed; a long text's later features are stepped by the slider

const xHtml = (k) => `<var>x</var><sub>${k}</sub>`;

/** Charikar's example as ±1 columns: column j of the hash table, dotted with the weights, is V_j. */
function drawHyperplanes() {
  const rows = PRESETS.charikar.rows;
  const ex = explainHashes(
    rows.map((r) => [BigInt(`0b${r.bits}`), r.weight]),
    3,
  );
  const unit = (b) => (b === '1' ? '+1' : '−1');
  const head =
    '<tr><th scope="col">Feature</th><th scope="col" class="num">weight</th>' +
    [0, 1, 2].map((j) => `<th scope="col" class="num">c<sub>${j}</sub></th>`).join('') +
    '</tr>';
  const body = ex.features
    .map(
      (f, k) =>
        `<tr><th scope="row">${xHtml(k + 1)}</th><td class="num">${fmt(f.weight)}</td>` +
        [...f.bits]
          .map((b) => `<td class="num ${b === '1' ? 'up' : 'down'}">${unit(b)}</td>`)
          .join('') +
        '</tr>',
    )
    .join('');
  const weights = `(${ex.features.map((f) => fmt(f.weight)).join(', ')})`;
  const dots = [0, 1, 2]
    .map((j) => {
      const terms = ex.features.map((f) => `${fmt(f.weight)}·(${unit(f.bits[j])})`).join(' + ');
      return (
        `<li><span class="dot-name">V<sub>${j}</sub> = w · c<sub>${j}</sub></span> = <span class="terms">${terms}</span>` +
        ` = <strong>${fmt(ex.v[j])}</strong> ${ex.v[j] > 0 ? '&gt;' : ex.v[j] < 0 ? '&lt;' : '='} 0 → bit <strong>${ex.bits[j]}</strong></li>`
      );
    })
    .join('');
  $('hp').innerHTML =
    `<p class="help" id="hp-caption">Charikar's example: the hashes of ${xHtml(1)}…${xHtml(5)} as ±1 columns c<sub>0</sub>, ` +
    `c<sub>1</sub>, c<sub>2</sub>; the weight vector w = ${weights}.</p>` +
    `<div class="table-scroll"><table class="example hp-table" aria-labelledby="hp-caption">` +
    `<thead>${head}</thead><tbody>${body}</tbody></table></div>` +
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

/** Rows already added, the one just added (lit), those still to come. */
const rowState = (k, step) => (k < step - 1 ? 'added' : k === step - 1 ? 'current' : 'pending');

function setupOwn() {
  const textBox = $('own-text');
  const widthSel = $('own-width');
  const range = $('own-step');
  const tbody = $('own-features').tBodies[0];
  const view = $('view-steps');
  const chart = new VChart($('own-chart'), { label: 'V after the features added so far' });
  textBox.value = OWN_TEXT;

  const ui = viewState(
    {
      // Inputs.
      text: OWN_TEXT,
      width: Number(widthSel.value),
      step: 0,
      // The library's answers (from the worker): the explanation, the largest |V| of any prefix,
      // and the Accumulator's state at the step (with V before it).
      e: null,
      scale: 1,
      acc: null,
      error: null,
    },
    [
      [['error'], (s) => showStatus($('own-status'), s.error)],
      [['e'], renderRows],
      [['e', 'step'], renderProgress],
      [['acc', 'scale'], renderChart],
      [['acc'], renderMessage],
    ],
  );
  const s = ui.state;

  // The text's answers and the stepping's go on two channels, so a step never cancels a text;
  // a step answered for another text than the one drawn (its version) is dropped.
  let version = 0;
  const request = asker(view, 'steps', (answer) => {
    if (answer.error) return ui.set({ error: answer.error });
    const v = answer.value;
    version = v.version;
    ui.set({ e: v.e, scale: Math.max(1e-9, v.scale), step: v.acc.step, acc: v.acc, error: null });
  });
  const stepRequest = asker(view, 'stepAt', (answer) => {
    if (answer.error) return ui.set({ error: answer.error });
    if (answer.value.version === version)
      ui.set({ step: answer.value.step, acc: answer.value, error: null });
  });

  /** Asks about the text; someone who stepped to the end keeps seeing the whole fingerprint. */
  function compute() {
    const atEnd = s.e != null && s.e.features.length > 0 && s.step === s.e.features.length;
    request('steps', { text: s.text, width: s.width, step: atEnd ? 'end' : s.step });
  }

  function go(to) {
    if (!s.e) return;
    const n = s.e.features.length;
    const step = Math.max(
      0,
      Math.min(n, to === 'back' ? s.step - 1 : to === 'next' ? s.step + 1 : to === 'end' ? n : to),
    );
    // The slider and count move at once; V follows when the worker has added the features.
    ui.set({ step });
    stepRequest('stepAt', { text: s.text, width: s.width, step });
  }
  $('own-reset').addEventListener('click', () => go(0));
  $('own-back').addEventListener('click', () => go('back'));
  $('own-next').addEventListener('click', () => go('next'));
  $('own-end').addEventListener('click', () => go('end'));

  function renderRows({ e }) {
    if (!e) return;
    const rows = e.features
      .slice(0, OWN_ROWS)
      .map((f, k) => [
        k,
        `<tr><td class="num">${k + 1}</td>` +
          `<td><span class="feature-text">${escapeHtml(f.feature ?? '')}</span></td><td class="num">${fmt(f.weight)}</td>` +
          `<td><code class="hash-bits">${f.bits}</code></td></tr>`,
      ]);
    if (e.features.length > OWN_ROWS) {
      rows.push([
        'more',
        `<tr class="more"><td></td><td colspan="3">and ${e.features.length - OWN_ROWS} more features ` +
          '(the slider reaches them)</td></tr>',
      ]);
    }
    // Typing changes few of the rows shown: only those are rebuilt.
    patchRows(tbody, rows);
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
    // Keep the added row in view inside the table's own scroll box (never scroll the page), in
    // the next frame: reading its position now would lay out the page inside this task.
    const row = rows[Math.max(0, Math.min(step - 1, shown - 1))];
    const box = tbody.closest('.table-scroll');
    if (row && row !== lastLit && step > 0) {
      requestAnimationFrame(() => {
        box.scrollTop = Math.max(0, row.offsetTop - box.clientHeight / 2);
      });
    }
    lastLit = row;
    $('own-reset').disabled = step === 0;
    $('own-back').disabled = step === 0;
    $('own-next').disabled = step === n;
    $('own-end').disabled = step === n;
  }

  function renderChart({ e, acc, scale }) {
    if (!acc) return;
    chart.draw({ v: acc.v, bits: acc.bits, scale });
    const f = acc.step > 0 ? e.features[acc.step - 1] : null;
    chart.showSpan(acc.prev, f && f.weight !== 0 ? acc.v : null);
    drawBinary($('own-bits'), acc.bits);
    $('own-hex').textContent = toHex(acc.fingerprint, e.width);
  }

  function renderMessage({ e, acc }) {
    if (!acc) return;
    const n = e.features.length;
    const step = acc.step;
    const done = step === n;
    $('own-match').textContent = done
      ? acc.fingerprint === e.fingerprint
        ? '= what the steps above reached'
        : '≠ what the steps above reached (a bug!)'
      : `(${plural(n - step, 'feature')} still to add)`;
    const f = step > 0 ? e.features[step - 1] : null;
    let message;
    if (n === 0) message = 'This text has no features: V stays all zeros.';
    else if (!f) message = `${plural(n, 'feature')} to add. V starts at zero on every bit.`;
    else {
      const ones = [...f.bits].filter((b) => b === '1').length;
      message =
        `Added feature ${step}, “${f.feature}” (weight ${fmt(f.weight)}): ${signed(f.weight, true)} on ` +
        `${plural(ones, 'bit')}, ${signed(f.weight, false)} on ${plural(f.bits.length - ones, 'bit')}; V is now ` +
        `${e.width <= 16 ? tuple(acc.v) : 'drawn above'} and each outline runs from the bar before this feature to the bar after it.` +
        (done ? ' That was the last feature: this is the fingerprint.' : '');
    }
    $('own-message').textContent = message;
  }

  range.addEventListener('input', () => go(Number(range.value)));
  textBox.addEventListener('input', () => {
    s.text = textBox.value;
    compute();
  });
  widthSel.addEventListener('input', () => {
    s.width = Number(widthSel.value);
    compute();
  });
  return { start: compute };
}

export function setup() {
  let own = null;
  return {
    show() {
      if (own) return;
      setupExample();
      drawHyperplanes();
      own = setupOwn();
      own.start();
    },
  };
}

export { xName };
