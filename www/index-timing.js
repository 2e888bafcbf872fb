// The index view's "Tables or a scan?": for a range of collection sizes, the plan the library
// picks (new Plan({ k, size }).describe()), its cost model's price of the plan drawn and of a
// scan (estimate.nanos), and both timed in the worker as medians of repeated runs.
import { Plan } from '../pkg/simprint.js';
import { $, fmt, setHtml } from './common.js';
import { SIZES, micros, planKey, planOptions, plural, winsFrom } from './index-helpers.js';

/** The library's description of a plan at `size` fingerprints. */
function described(options, size) {
  const plan = new Plan({ ...options, size });
  try {
    return plan.describe();
  } finally {
    plan.free();
  }
}

/** One row per size (the sample's own size among them): the library's pick and both prices. */
export function sizeRows(width, k, choice, sampleSize) {
  const sizes = [...new Set([...SIZES, sampleSize].filter((n) => n > 0))].sort((a, b) => a - b);
  return sizes.map((size) => {
    const auto = described({ width, k }, size);
    return {
      size,
      sample: size === sampleSize,
      auto,
      autoKey: planKey(auto),
      drawn: described({ width, k, ...planOptions(choice) }, size).estimate,
      scan: described({ width, k, scan: true }, size).estimate,
    };
  });
}

/** The key a timing is cached under: what it measured. */
export const timingKey = ({ width, k, choice, qfp }, size) =>
  `${width}:${k}:${choice}:${size}:${qfp}`;

const ns = (nanos) => micros(nanos / 1000);

/** A plan in a word or two, for the narrow column of picks. */
function shortPlan(p) {
  if (p.kind === 'scan') return 'a scan';
  if (p.kind === 'combined') return `${p.tables.length} combined tables`;
  return `${plural(p.blocks.length, p.kind === 'permuted' ? 'block' : 'substring')}`;
}
const measured = (t) =>
  `<span class="median">${micros(t.us)}</span> <span class="spread">(${micros(t.low)}–${micros(t.high)})</span>`;

export function renderSizes(s) {
  const { sizes, choice, timings, timingNow } = s;
  const table = $('ix-sizes');
  if (!sizes.length) return;
  // The size chosen, else the stored collection's own.
  const at = Math.max(
    0,
    sizes.findIndex((r) => r.size === (s.size ?? s.docs.length)),
  );
  const range = $('ix-size');
  range.max = String(sizes.length - 1);
  range.value = String(at);
  range.setAttribute('aria-valuetext', `${sizes[at].size.toLocaleString('en')} fingerprints`);
  $('ix-size-value').textContent = sizes[at].size.toLocaleString('en');
  const drawnIsScan = choice === 'scan';
  setHtml(
    table.tBodies[0],
    sizes
      .map((row, i) => {
        const t = timings.get(timingKey(s, row.size));
        const faster = t && !drawnIsScan ? (t.query.us < t.scan.us ? 'tables' : 'scan') : '';
        const cheaper = row.drawn.nanos < row.scan.nanos ? 'tables' : 'scan';
        return (
          `<tr data-size="${row.size}"${i === at ? ' class="chosen" aria-current="true"' : ''}>` +
          `<th scope="row" class="num">${row.size.toLocaleString('en')}${row.sample ? ' <span class="tag">sample</span>' : ''}</th>` +
          `<td data-pick="${row.autoKey}">${row.autoKey === choice ? '<strong>this plan</strong>' : shortPlan(row.auto)}</td>` +
          `<td class="pair num"><span class="est-tables${cheaper === 'tables' ? ' wins' : ''}" data-nanos="${row.drawn.nanos}">${ns(row.drawn.nanos)}</span>` +
          `<span class="est-scan${cheaper === 'scan' ? ' wins' : ''}" data-nanos="${row.scan.nanos}">${ns(row.scan.nanos)}</span></td>` +
          `<td class="pair num">${
            t
              ? `<span class="t-query${faster === 'tables' ? ' wins' : ''}" data-us="${t.query.us}">${measured(t.query)}</span>` +
                `<span class="t-scan${faster === 'scan' ? ' wins' : ''}" data-us="${t.scan.us}">${measured(t.scan)}</span>`
              : '–'
          }</td></tr>`
        );
      })
      .join(''),
  );
  const estimateFrom = winsFrom(sizes, (r) => r.drawn.nanos < r.scan.nanos);
  const pickFrom = winsFrom(sizes, (r) => r.autoKey !== 'scan');
  const timed = sizes.flatMap((r) => {
    const t = timings.get(timingKey(s, r.size));
    return t ? [{ size: r.size, t }] : [];
  });
  const measuredFrom = winsFrom(timed, (r) => r.t.query.us < r.t.scan.us);
  const n = (x) => `${x.toLocaleString('en')} fingerprints`;
  setHtml(
    $('ix-sizes-summary'),
    drawnIsScan
      ? 'The plan drawn is a scan: choose a plan with tables to see where tables start to beat it.'
      : `By the library's cost model the plan drawn beats a scan ${estimateFrom ? `from ${n(estimateFrom)}` : 'at none of these sizes'}` +
          `, and new Index({ k: ${s.k} }) picks tables ${pickFrom ? `from ${n(pickFrom)}` : 'at none of these sizes'}. ` +
          (timed.length
            ? `Timed here (${plural(timed.length, 'size')} so far): ${
                measuredFrom
                  ? `tables were faster than a scan from ${n(measuredFrom)}`
                  : 'a scan was as fast or faster at every size timed'
              }. Each time is the median of ${timed[0].t.query.rounds} runs ` +
              '(the lowest and highest in brackets), each a call of index.query: on an index with the plan drawn, and on ' +
              'one with a scan plan holding the same fingerprints.'
            : 'Nothing timed yet.'),
  );
  const status = $('ix-size-status');
  status.textContent = timingNow != null ? `Timing ${n(timingNow)} in the worker…` : '';
  status.hidden = timingNow == null;
  $('ix-time-all').disabled =
    timingNow != null || sizes.every((r) => timings.has(timingKey(s, r.size)));
}

/** The line under the query: both times at the stored collection's size. */
export function renderQueryTiming(s) {
  const line = $('ix-timing');
  if (!s.qfp || !s.docs.length) {
    line.textContent = !s.docs.length
      ? 'Add documents, then type or pick a query.'
      : 'Type a query or pick a planted near-duplicate.';
    line.dataset.timed = 'false';
    return;
  }
  const distinct = new Set(s.candidates.map((c) => c.id)).size;
  const summary =
    `Examined ${s.candidates.length} bucket entr${s.candidates.length === 1 ? 'y' : 'ies'} ` +
    `(${plural(distinct, 'distinct document')}) of ${s.index.size} stored.`;
  const t = s.timings.get(timingKey(s, s.docs.length));
  setHtml(
    line,
    t
      ? `${summary} At ${s.docs.length} fingerprints, index.query takes <strong class="t-query">${micros(t.query.us)}</strong> ` +
          `with this plan's tables and <strong class="t-scan">${micros(t.scan.us)}</strong> with a scan plan: medians of ${t.query.rounds} runs of ` +
          `${fmt(t.query.reps)} and ${fmt(t.scan.reps)} calls, in a worker (larger collections below).`
      : `${summary} Timing in the worker…`,
  );
  line.dataset.timed = String(Boolean(t));
}
