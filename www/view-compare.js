// View 2: two texts, both fingerprints, the bits that differ and what the distance estimates.
import { Fingerprinter, compare } from '../pkg/simprint.js';
import { $, VChart, drawBinary, fmt, libraryDefaults, optionControls, showStatus } from './common.js';

// The texts are inputs; every number shown for them comes from the library.
const PRESETS = {
  chinese: {
    a: '你妈妈喊你回家吃饭哦,回家罗回家罗',
    b: '你妈妈叫你回家吃饭啦,回家罗回家罗',
    note: (c) => `The reference material's pair: two characters changed, and the ${c.width}-bit fingerprints differ ` +
      `in ${c.distance} bits (the auto tokenizer reads Chinese as overlapping character pairs).`,
  },
  english: {
    a: 'SimHash turns a document into a short fingerprint, so that similar documents get similar ' +
      'fingerprints. Search engines used it to find near-duplicate web pages among billions of them, ' +
      'comparing a few bits instead of reading every page again.',
    b: 'SimHash turns a document into a short fingerprint, so that similar documents get similar ' +
      'fingerprints. Search engines used it to spot near-duplicate web pages among billions of them, ' +
      'comparing a few bits instead of reading each page again.',
    note: (c) => `Two words of about forty changed: d = ${c.distance}. Most features are shared, so most ` +
      'sums Vᵢ keep their sign.',
  },
  unrelated: {
    a: 'SimHash turns a document into a short fingerprint, so that similar documents get similar fingerprints.',
    b: 'The kettle boiled over while we argued about whose turn it was to wash the dishes.',
    note: (c) => `Nothing shared: d = ${c.distance} of ${c.width}. Unrelated texts land near half the bits ` +
      '(an angle near π/2), like two independent random fingerprints.',
  },
  short: {
    a: 'Lunch at noon?',
    b: 'Lunch at one?',
    note: (c) => `Three words, one changed: d = ${c.distance}. With so few features each one carries a third ` +
      'of every Vᵢ, so one edit flips many bits: finding short near-duplicates needs a larger k than ' +
      'long texts do.',
  },
};

export function setup() {
  const options = optionControls($('cmp-options'), 'cmp', { width: libraryDefaults().width });
  const textA = $('cmp-text-a');
  const textB = $('cmp-text-b');
  const status = $('cmp-status');
  const note = $('cmp-note');
  const chartA = new VChart($('cmp-chart-a'), { label: 'V for text A' });
  const chartB = new VChart($('cmp-chart-b'), { label: 'V for text B' });
  let preset = 'chinese';
  let drawn = false;

  function update() {
    let fp;
    try {
      fp = new Fingerprinter(options.read());
      const a = fp.explain(textA.value);
      const b = fp.explain(textB.value);
      const c = compare(a.fingerprint, b.fingerprint, a.width);
      // Highlighting only: where the library's two bit strings differ.
      const differs = Array.from(a.bits, (bit, i) => bit !== b.bits[i]);
      const scale = Math.max(1e-9, ...a.v.map(Math.abs), ...b.v.map(Math.abs));

      $('cmp-features-a').textContent = String(a.features.length);
      $('cmp-features-b').textContent = String(b.features.length);
      $('cmp-hex-a').textContent = a.hex;
      $('cmp-hex-b').textContent = b.hex;
      drawBinary($('cmp-bits-a'), a.bits, differs);
      drawBinary($('cmp-bits-b'), b.bits, differs);
      drawBinary($('cmp-xor'), differs.map((d) => (d ? '1' : '0')).join(''), differs);
      $('cmp-distance').textContent = String(c.distance);
      $('cmp-of-width').textContent = String(c.width);
      $('cmp-similarity').textContent = c.similarity.toFixed(4);
      $('cmp-angle').textContent = c.angle.toFixed(4);
      $('cmp-cosine').textContent = c.cosine.toFixed(4);
      $('cmp-scale').textContent = `Tallest bar: |V| = ${fmt(scale)}`;
      chartA.draw({ v: a.v, bits: a.bits, scale, marks: differs });
      chartB.draw({ v: b.v, bits: b.bits, scale, marks: differs });
      note.textContent = preset ? PRESETS[preset].note(c) : '';
      showStatus(status, null);
    } catch (error) {
      showStatus(status, error);
    } finally {
      fp?.free();
    }
    drawn = true;
  }

  function choose(name) {
    preset = name;
    textA.value = PRESETS[name].a;
    textB.value = PRESETS[name].b;
    for (const button of document.querySelectorAll('[data-preset]')) {
      button.setAttribute('aria-pressed', String(button.dataset.preset === name));
    }
    update();
  }

  for (const button of document.querySelectorAll('[data-preset]')) {
    button.addEventListener('click', () => choose(button.dataset.preset));
  }
  const edited = () => {
    // The note describes a preset's texts; once edited it no longer applies.
    if (preset) {
      preset = null;
      for (const button of document.querySelectorAll('[data-preset]')) button.setAttribute('aria-pressed', 'false');
    }
    update();
  };
  textA.addEventListener('input', edited);
  textB.addEventListener('input', edited);
  options.onChange(update);

  return {
    show() {
      if (!drawn) choose('chinese');
    },
  };
}
