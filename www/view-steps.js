// View 3: V built one feature at a time, first for the reference's worked example, then for
// the user's own text. The library's Accumulator does every addition.
import { Accumulator, Fingerprinter, explainHashes, toHex } from '../pkg/simprint.js';
import { $, VChart, drawBinary, escapeHtml, fmt, showStatus, signed } from './common.js';

// The reference material's example: features w1..w5, 3-bit hashes and document weights.
const EXAMPLE = [[0b101n, 1], [0b011n, 2], [0b100n, 0], [0b001n, 3], [0b110n, 0]];
const OWN_TEXT = 'To be, or not to be';

const tuple = (v) => `(${Array.from(v, fmt).join(', ')})`;
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** V and the bits after each prefix of `items` ([hash, weight] pairs), from one Accumulator. */
function prefixes(width, items) {
  const acc = new Accumulator(width);
  try {
    const out = [{ v: Array.from(acc.v), bits: acc.bits, fingerprint: acc.fingerprint }];
    for (const [hash, weight] of items) {
      acc.add(hash, weight);
      out.push({ v: Array.from(acc.v), bits: acc.bits, fingerprint: acc.fingerprint });
    }
    return out;
  } finally {
    acc.free();
  }
}

/** Bits i where a push is up or down, as "bits 0 and 2". */
function bitList(bits, want) {
  const at = [...bits].flatMap((b, i) => (b === want ? [i] : []));
  if (at.length === 0) return 'no bits';
  if (at.length === 1) return `bit ${at[0]}`;
  return `bits ${at.slice(0, -1).join(', ')} and ${at.at(-1)}`;
}

function stepper(prefix, { onStep }) {
  let step = 0;
  let max = 0;
  const go = (s) => {
    step = Math.max(0, Math.min(max, s));
    onStep(step);
  };
  $(`${prefix}-reset`).addEventListener('click', () => go(0));
  $(`${prefix}-back`).addEventListener('click', () => go(step - 1));
  $(`${prefix}-next`).addEventListener('click', () => go(step + 1));
  $(`${prefix}-end`).addEventListener('click', () => go(max));
  return {
    get step() { return step; },
    setMax(m, s = step) {
      max = m;
      step = Math.max(0, Math.min(max, s));
    },
    go,
    sync() {
      $(`${prefix}-reset`).disabled = step === 0;
      $(`${prefix}-back`).disabled = step === 0;
      $(`${prefix}-next`).disabled = step === max;
      $(`${prefix}-end`).disabled = step === max;
    },
  };
}

function setupExample() {
  const ex = explainHashes(EXAMPLE, 3); // the library's rows: bits of each hash, final V
  const states = prefixes(3, EXAMPLE);
  const scale = Math.max(1, ...states.flatMap((s) => s.v.map(Math.abs)));
  const chart = new VChart($('ex-chart'), { label: 'V of the worked example', values: true });
  const table = $('ex-table');
  const tbody = table.tBodies[0];
  const [sumRow, bitRow] = table.tFoot.rows;

  tbody.innerHTML = ex.features.map((f, k) => {
    const cells = [...f.bits].map((b) => `<td class="num push-cell ${b === '1' ? 'up' : 'down'}">${
      f.weight === 0 ? '0' : signed(f.weight, b === '1')}</td>`).join('');
    return `<tr><th scope="row">w<sub>${k + 1}</sub></th><td><code>${f.bits}</code></td>` +
      `<td class="num">${fmt(f.weight)}</td>${cells}</tr>`;
  }).join('');
  for (let i = 0; i < 3; i++) {
    sumRow.insertCell().className = 'num';
    bitRow.insertCell().className = 'num';
  }

  const steps = stepper('ex', { onStep: draw });

  function draw(step) {
    const s = states[step];
    [...tbody.rows].forEach((tr, k) => {
      tr.className = k < step ? 'added' : k === step ? 'next' : 'pending';
      tr.setAttribute('aria-label', k < step ? 'added' : k === step ? 'next to add' : 'not yet added');
    });
    s.v.forEach((x, i) => {
      sumRow.cells[i + 1].textContent = fmt(x);
      bitRow.cells[i + 1].textContent = s.bits[i];
    });
    chart.draw({ v: s.v, bits: s.bits, scale });
    if (step > 0) chart.showPush(ex.features[step - 1].bits, ex.features[step - 1].weight);
    else chart.showPush(null);
    $('ex-v').textContent = tuple(s.v);
    drawBinary($('ex-bits'), s.bits);
    $('ex-count').textContent = `${step} of ${EXAMPLE.length} added`;

    let message;
    if (step === 0) {
      message = 'V starts at (0, 0, 0). Add w1 to see its row pushed onto V.';
    } else {
      const f = ex.features[step - 1];
      const name = `w${step} (hash ${f.bits}, weight ${fmt(f.weight)})`;
      message = f.weight === 0
        ? `Added ${name}: a weight of 0 pushes nothing, so V stays ${tuple(s.v)}.`
        : `Added ${name}: ${signed(f.weight, true)} on ${bitList(f.bits, '1')}, ${signed(f.weight, false)} on ` +
          `${bitList(f.bits, '0')}. V = ${tuple(s.v)}.`;
      if (step === EXAMPLE.length) {
        message += ` All five added: each bit is 1 where V > 0, so the fingerprint is ${s.bits}.`;
      }
    }
    $('ex-message').textContent = message;
    steps.sync();
  }

  steps.setMax(EXAMPLE.length, 0);
  draw(0);
  drawHyperplanes(ex);
}

/** The ±1 reading: column j of the hash table, dotted with the weight vector, is V_j. */
function drawHyperplanes(ex) {
  const unit = (b) => (b === '1' ? '+1' : '−1');
  const head = '<tr><th scope="col">Feature</th><th scope="col" class="num">weight</th>' +
    [0, 1, 2].map((j) => `<th scope="col" class="num">c<sub>${j}</sub></th>`).join('') + '</tr>';
  const rows = ex.features.map((f, k) => `<tr><th scope="row">w<sub>${k + 1}</sub></th><td class="num">${fmt(f.weight)}</td>` +
    [...f.bits].map((b) => `<td class="num ${b === '1' ? 'up' : 'down'}">${unit(b)}</td>`).join('') + '</tr>').join('');
  const weights = `(${ex.features.map((f) => fmt(f.weight)).join(', ')})`;
  const dots = [0, 1, 2].map((j) => {
    const terms = ex.features.map((f) => `${fmt(f.weight)}·(${unit(f.bits[j])})`).join(' + ');
    return `<li><span class="dot-name">V<sub>${j}</sub> = w · c<sub>${j}</sub></span> = <span class="terms">${terms}</span>` +
      ` = <strong>${fmt(ex.v[j])}</strong> ${ex.v[j] > 0 ? '&gt;' : ex.v[j] < 0 ? '&lt;' : '='} 0 → bit <strong>${ex.bits[j]}</strong></li>`;
  }).join('');
  $('hp').innerHTML =
    `<p class="help" id="hp-caption">The hashes as ±1 columns c<sub>0</sub>, c<sub>1</sub>, c<sub>2</sub>; the weight vector w = ${weights}.</p>` +
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
  const text = $('own-text');
  const width = $('own-width');
  const range = $('own-step');
  const status = $('own-status');
  const tbody = $('own-features').tBodies[0];
  const chart = new VChart($('own-chart'), { label: 'V after the features added so far' });
  let e = null;
  let states = [];
  let scale = 1;
  text.value = OWN_TEXT;

  const steps = stepper('own', { onStep: draw });

  function update() {
    let fp;
    try {
      fp = new Fingerprinter({ width: Number(width.value) });
      // Someone who stepped to the end keeps seeing the whole fingerprint while editing.
      const atEnd = e != null && e.features.length > 0 && steps.step === e.features.length;
      e = fp.explain(text.value);
      states = prefixes(e.width, e.features.map((f) => [f.hash, f.weight]));
      scale = Math.max(1e-9, ...states.flatMap((s) => s.v.map(Math.abs)));
      steps.setMax(e.features.length, atEnd ? e.features.length : steps.step);
      range.max = String(e.features.length);
      tbody.innerHTML = e.features.slice(0, 500).map((f, k) => `<tr><td class="num">${k + 1}</td>` +
        `<td><span class="feature-text">${escapeHtml(f.feature ?? '')}</span></td><td class="num">${fmt(f.weight)}</td>` +
        `<td><code class="hash-bits">${f.bits}</code></td></tr>`).join('');
      $('own-final').textContent = e.hex;
      showStatus(status, null);
      draw(steps.step);
    } catch (error) {
      showStatus(status, error);
    } finally {
      fp?.free();
    }
  }

  function draw(step) {
    const s = states[step];
    const n = e.features.length;
    chart.draw({ v: s.v, bits: s.bits, scale });
    const f = step > 0 ? e.features[step - 1] : null;
    chart.showPush(f ? f.bits : null, f?.weight ?? 0);
    drawBinary($('own-bits'), s.bits);
    $('own-hex').textContent = toHex(s.fingerprint, e.width);
    range.value = String(step);
    range.setAttribute('aria-valuetext', `${step} of ${n} features added`);
    $('own-count').textContent = `${step} of ${n}`;
    [...tbody.rows].forEach((tr, k) => {
      tr.className = k < step ? 'added' : k === step ? 'next' : 'pending';
    });
    // Keep the next row in view inside the table's own scroll box (never scroll the page).
    const row = tbody.rows[Math.min(step, tbody.rows.length - 1)];
    const box = tbody.closest('.table-scroll');
    if (row) box.scrollTop = Math.max(0, row.offsetTop - box.clientHeight / 2);
    const done = step === n;
    $('own-match').textContent = done
      ? (s.fingerprint === e.fingerprint ? '= what the steps above reached' : '≠ what the steps above reached (a bug!)')
      : `(${plural(n - step, 'feature')} still to add)`;
    let message;
    if (n === 0) message = 'This text has no features: V stays all zeros.';
    else if (!f) message = `${plural(n, 'feature')} to add. V starts at zero on every bit.`;
    else {
      const ones = [...f.bits].filter((b) => b === '1').length;
      message = `Added “${f.feature}” (weight ${fmt(f.weight)}): ${signed(f.weight, true)} on ${plural(ones, 'bit')}, ` +
        `${signed(f.weight, false)} on ${plural(f.bits.length - ones, 'bit')} (outlined).` +
        (done ? ' That was the last feature: this is the fingerprint.' : '');
    }
    $('own-message').textContent = message;
    steps.sync();
  }

  range.addEventListener('input', () => steps.go(Number(range.value)));
  text.addEventListener('input', update);
  width.addEventListener('input', update);
  return { update };
}

export function setup() {
  let own = null;
  return {
    show() {
      if (own) return;
      setupExample();
      own = setupOwn();
      own.update();
    },
  };
}
