// Draws what simprint computes; every number shown comes from the library.
import init, { Fingerprinter, compare } from '../pkg/simprint.js';

const $ = (id) => document.getElementById(id);

const controls = {
  width: $('width'),
  tokenizer: $('tokenizer'),
  caseFold: $('case-fold'),
  textA: $('text-a'),
  textB: $('text-b'),
};

const sides = {
  a: { features: $('features-a'), hex: $('hex-a'), bits: $('bits-a'), chart: $('chart-a') },
  b: { features: $('features-b'), hex: $('hex-b'), bits: $('bits-b'), chart: $('chart-b') },
};

const status = $('status');
const READY = 'Ready: edit either text or change an option.';

function showStatus(error) {
  status.textContent = error ? `Error: ${error.message ?? error}` : READY;
  status.classList.toggle('error', Boolean(error));
  // Keep the last good results visible but mark them as out of date.
  document.body.classList.toggle('stale', Boolean(error));
}

function currentOptions() {
  return {
    width: Number(controls.width.value),
    tokenizer: controls.tokenizer.value,
    caseFold: controls.caseFold.checked,
  };
}

function signClass(v) {
  return v > 0 ? 'pos' : v < 0 ? 'neg' : 'zero';
}

function drawChart(el, explanation, differs, scale, label) {
  const cells = document.createDocumentFragment();
  explanation.v.forEach((v, i) => {
    const bit = explanation.bits[i];
    const cell = document.createElement('div');
    cell.className = `cell ${signClass(v)}${differs[i] ? ' diff' : ''}`;
    cell.title = `bit ${i}: V = ${v} → ${bit}${differs[i] ? ' (differs)' : ''}`;

    const track = document.createElement('div');
    track.className = 'track';
    const bar = document.createElement('div');
    bar.className = 'bar';
    // Half the track per sign, so the tallest |V| of both texts fills one half.
    bar.style.height = `${(Math.abs(v) / scale) * 50}%`;
    track.append(bar);

    const digit = document.createElement('span');
    digit.className = 'digit';
    digit.textContent = bit;

    cell.append(track, digit);
    cells.append(cell);
  });
  el.dataset.width = String(explanation.width);
  el.setAttribute('aria-label', `${label}: ${explanation.width} bars of V; bits ${explanation.bits}`);
  el.replaceChildren(cells);
}

function drawBinary(el, bits, differs) {
  const out = document.createDocumentFragment();
  // Nibble groups wrap cleanly on narrow screens; textContent stays the plain bit string.
  for (let start = 0; start < bits.length; start += 4) {
    const group = document.createElement('span');
    group.className = 'nibble';
    for (let i = start; i < Math.min(start + 4, bits.length); i++) {
      const b = document.createElement(differs[i] ? 'mark' : 'span');
      b.textContent = bits[i];
      group.append(b);
    }
    out.append(group);
  }
  el.replaceChildren(out);
}

function drawSide(side, explanation, differs, scale, label) {
  side.features.textContent = String(explanation.features.length);
  side.hex.textContent = explanation.hex;
  drawBinary(side.bits, explanation.bits, differs);
  drawChart(side.chart, explanation, differs, scale, label);
}

function drawComparison(c) {
  $('distance').textContent = String(c.distance);
  $('compare-width').textContent = String(c.width);
  $('similarity').textContent = c.similarity.toFixed(4);
  $('angle').textContent = c.angle.toFixed(4);
  $('cosine').textContent = c.cosine.toFixed(4);
}

function update() {
  let fp;
  try {
    fp = new Fingerprinter(currentOptions());
    const a = fp.explain(controls.textA.value);
    const b = fp.explain(controls.textB.value);
    const c = compare(a.fingerprint, b.fingerprint, a.width);

    // Highlighting only: which of the library's bit characters differ.
    const differs = Array.from(a.bits, (bit, i) => bit !== b.bits[i]);
    // One scale for both charts so their bars compare; 1 keeps empty texts drawable.
    const scale = Math.max(1, ...a.v.map(Math.abs), ...b.v.map(Math.abs));
    $('scale').textContent = `Tallest bar: |V| = ${scale}`;

    drawSide(sides.a, a, differs, scale, 'V for text A');
    drawSide(sides.b, b, differs, scale, 'V for text B');
    drawComparison(c);
    showStatus(null);
  } catch (error) {
    showStatus(error);
  } finally {
    fp?.free();
  }
}

try {
  await init();
} catch (error) {
  showStatus(error);
  throw error;
}

for (const el of Object.values(controls)) {
  el.addEventListener('input', update);
}
// Enter in the options form must not reload the page.
$('controls').addEventListener('submit', (event) => event.preventDefault());
update();
