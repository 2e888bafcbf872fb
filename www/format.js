// How the page writes numbers and text: pure functions with no DOM and no library calls, shared
// by every view (and run in Node by tests/js/demo-helpers.test.mjs).

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** A number as the page shows it: whole numbers as they are, others to 3 decimals; a real minus. */
export function fmt(n) {
  const s = Number.isInteger(n) ? String(n) : n.toFixed(3).replace(/\.?0+$/, '');
  return s.replace('-', '−');
}

/** ±w as the page shows a push: "+2" or "−2". */
export const signed = (w, up) => `${up ? '+' : '−'}${fmt(Math.abs(w))}`;

export const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
