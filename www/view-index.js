// View 4: documents in an Index, its plan drawn, queries explained, why a query within k of a
// stored fingerprint is always found, and from what size tables beat a scan. One state object
// holds the inputs and the library's answers; the renderers (index-draw.js, index-why.js,
// index-timing.js) draw it. It opens on the paper's setup: k = 3, four permuted blocks, and a
// planted copy within k of its original.
import { Fingerprinter, Index, Plan, recommendedK } from '../pkg/simprint.js';
import { $, libDefaults, showStatus, viewState } from './common.js';
import { ask, asker } from './compute.js';
import {
  renderChoices,
  renderDocList,
  renderDocs,
  renderK,
  renderPicker,
  renderPlan,
  renderPlanHelp,
  renderProbes,
  renderResults,
  updateMore,
} from './index-draw.js';
import { maxK, nearestChoice, offeredChoices, planKey, planOptions } from './index-helpers.js';
import { renderQueryTiming, renderSizes, sizeRows, timingKey } from './index-timing.js';
import { renderWhy } from './index-why.js';

// The setup of Manku, Jain and Das Sarma (WWW 2007): 64 bits, k = 3, four blocks of 16 bits.
const FIRST = { width: 64, k: 3, want: 'permuted:4' };
// The planted copy the page opens with: 3 bits from its original, within k.
const FIRST_COPY = 302;
const TIMING_PAUSE = 400; // ms of quiet before the worker times a query

export function setup() {
  const view = $('view-index');
  const query = $('ix-query');
  const pick = $('ix-pick');
  const byId = new Map();
  const ctx = { byId };

  const ui = viewState(
    {
      // Inputs.
      width: FIRST.width,
      k: FIRST.k,
      kAuto: false, // k follows recommendedK(query) when checked
      // The share of the query's words a near-duplicate may have edited, in percent: the
      // tolerance recommendedK derives k from (the library's default to start).
      tolerance: Math.round(libDefaults().tolerance.near * 100),
      want: FIRST.want, // the plan chosen; the nearest offered one is used at other k
      docs: [], // { id, text, lang, copyOf?, edits? }
      sample: null,
      query: '',
      pick: '',
      explainId: null, // the match the pigeonhole drawing is about
      size: null, // the collection size chosen in "Tables or a scan?" (null: the stored collection's)
      // The library's answers.
      fps: new Map(), // id → fingerprint at the width
      index: null,
      plan: null, // the plan of the index's one segment (explainQuery's tables index it)
      choices: [],
      choice: null, // the key of the plan in use
      auto: null, // the plan new Index({ k }) picks for these documents: { key, plan }
      scanEstimate: null, // the cost model's price of a scan of them
      recommended: null, // recommendedK(query, { width, tolerance })
      pairMax: null, // pairK(n, n) for the query's n distinct features, at the same tolerance
      qFeatures: null, // the query's n
      qfp: null,
      matches: [],
      candidates: [],
      sizes: [], // per collection size: the library's pick and the prices of the drawn plan and a scan
      timings: new Map(), // timingKey → the worker's medians
      timingNow: null, // the size being timed
      error: null,
    },
    [
      [['error'], (s) => showStatus($('ix-status'), s.error)],
      [['docs', 'index', 'sample'], renderDocs],
      [['docs', 'fps', 'pick', 'k'], (s) => renderPicker(s, ctx)],
      [['k', 'kAuto', 'recommended', 'pairMax', 'width', 'tolerance'], renderK],
      [['choices', 'choice', 'auto'], renderChoices],
      [['plan', 'auto', 'scanEstimate'], renderPlanHelp],
      [['plan', 'candidates'], renderPlan],
      [
        ['matches', 'candidates', 'docs', 'pick', 'explainId', 'qFeatures', 'tolerance', 'width'],
        (s) => renderResults(s, ctx),
      ],
      [['plan', 'qfp', 'candidates'], renderProbes],
      [
        ['plan', 'qfp', 'matches', 'candidates', 'explainId', 'pick', 'recommended'],
        (s) => renderWhy(s, ctx),
      ],
      [['candidates', 'timings', 'qfp'], renderQueryTiming],
      [['sizes', 'size', 'timings', 'timingNow', 'qfp'], renderSizes],
      [['plan', 'qfp', 'candidates'], () => requestAnimationFrame(() => updateMore(view))],
    ],
  );
  const s = ui.state;

  /** The library's plan for a choice at the stored collection's size, or null where it refuses. */
  const describe = (key) => {
    let plan;
    try {
      // 'auto': no plan options, so the library plans by size as new Index({ k }) does.
      plan = new Plan({
        width: s.width,
        k: s.k,
        ...(key === 'auto' ? {} : planOptions(key)),
        size: Math.max(1, s.docs.length),
      });
      return plan.describe();
    } catch {
      return null;
    } finally {
      plan?.free();
    }
  };

  /** A new Index with the chosen plan holding every document, compacted so the tables are used. */
  function rebuild(patch = {}) {
    Object.assign(s, patch);
    let built;
    let index = null;
    try {
      const n = s.docs.length;
      let choices = offeredChoices(s.width, s.k, (key) => describe(key));
      const autoPlan = describe('auto');
      const auto = { key: planKey(autoPlan), plan: autoPlan };
      // The planner's pick is offered even when it is none of the usual choices.
      if (!choices.some((c) => c.key === auto.key))
        choices = [
          ...choices,
          { key: auto.key, kind: autoPlan.kind, label: auto.key, plan: autoPlan },
        ];
      const choice = nearestChoice(s.want, choices, auto.key);
      index = new Index({ width: s.width, k: s.k, ...planOptions(choice) });
      if (n) {
        index.insertMany(
          s.docs.map((d) => d.id),
          s.docs.map((d) => s.fps.get(d.id)),
        );
        // Small sets sit in a scanned insert buffer; merging them into one segment uses the tables.
        index.compact();
      }
      // explainQuery numbers tables within a segment's plan; after compact() there is one.
      const plan = index.segmentPlan(0) ?? index.plan();
      built = {
        index,
        plan,
        choices,
        choice,
        auto,
        scanEstimate: describe('scan').estimate,
        sizes: sizeRows(s.width, s.k, choice, n),
        // The query's answers come with the index: renderers never see one index's candidates with another's plan.
        ...answersOf(index),
      };
    } catch (error) {
      index?.free();
      return ui.set({ error });
    }
    // The old index goes once nothing draws from it any more.
    const old = s.index;
    ui.set({ ...built, error: null });
    old?.free();
    scheduleTiming();
  }

  /** An index's answers for the query's fingerprint (cheap: the sample is small). */
  const answersOf = (index) =>
    s.qfp == null
      ? { matches: [], candidates: [] }
      : { matches: index.query(s.qfp), candidates: index.explainQuery(s.qfp) };

  function answer() {
    ui.set({ error: null, ...(s.index ? answersOf(s.index) : {}) });
    scheduleTiming();
  }

  // The query text is fingerprinted in the worker (a long text would block typing).
  const request = asker(view, 'query', (reply) => {
    if (reply.error) return ui.set({ error: reply.error });
    const { qfp, recommended, pairMax, features: qFeatures } = reply.value;
    // Most keystrokes in a long query leave its fingerprint as it was: nothing to redraw then.
    const same = qfp === s.qfp && recommended === s.recommended && pairMax === s.pairMax;
    if (same && qFeatures === s.qFeatures && !s.error) return;
    Object.assign(s, { qfp, recommended, pairMax, qFeatures });
    const want = Math.min(maxK(s.width), recommended);
    if (s.kAuto && want !== s.k) rebuild({ k: want });
    else answer();
  });
  function runQuery() {
    if (!s.query.trim()) {
      ui.set({
        qfp: null,
        recommended: null,
        pairMax: null,
        qFeatures: null,
        matches: [],
        candidates: [],
      });
      return;
    }
    request('query', { text: s.query, width: s.width, tolerance: s.tolerance / 100 });
  }

  // Timings run in the worker one size at a time, in the order asked for: the stored
  // collection's size and the size chosen first, then any others ("Time every size").
  let timingQueue = [];
  let timing = false;
  function timeSizes(sizes, first = false) {
    const rest = timingQueue.filter((x) => !sizes.includes(x));
    timingQueue = first ? [...sizes, ...rest] : [...rest, ...sizes];
    if (!timing) runTimings();
  }
  async function runTimings() {
    timing = true;
    while (timingQueue.length && s.qfp != null && s.docs.length) {
      const size = timingQueue.shift();
      // Stored under what it measures, whatever changes while the worker runs it.
      const key = timingKey(s, size);
      if (s.timings.has(key)) continue;
      ui.set({ timingNow: size });
      const reply = await ask('timing', 'time', {
        width: s.width,
        k: s.k,
        plan: planOptions(s.choice),
        size,
        query: s.qfp,
        sample: sampleWords(),
      });
      if (reply?.error) {
        ui.set({ error: reply.error });
        break;
      }
      if (reply) ui.set({ timings: new Map(s.timings).set(key, reply.value) });
    }
    timing = false;
    ui.set({ timingNow: null });
  }
  // Timing waits for a pause: a keystroke in a long query must not queue a timing behind it.
  let timingTimer = 0;
  function scheduleTiming() {
    clearTimeout(timingTimer);
    timingTimer = setTimeout(
      () => timeSizes([s.docs.length, s.size].filter(Boolean), true),
      TIMING_PAUSE,
    );
  }

  /** The stored fingerprints as the worker takes them: one word each, two (high first) above 64 bits. */
  function sampleWords() {
    const fps = s.docs.map((d) => s.fps.get(d.id));
    return s.width > 64
      ? BigUint64Array.from(fps.flatMap((x) => [x >> 64n, x & 0xffffffffffffffffn]))
      : BigUint64Array.from(fps);
  }

  /** Each text's fingerprint, and its distinct features (kept on the document, for pairK). */
  function fingerprintAll(docs, width = s.width) {
    const fp = new Fingerprinter({ width });
    try {
      return docs.map((d) => {
        const { fingerprint, features } = fp.fingerprintCounted(d.text);
        d.features = features;
        return fingerprint;
      });
    } finally {
      fp.free();
    }
  }

  function addDocs(newDocs) {
    const got = fingerprintAll(newDocs);
    const fps = new Map(s.fps);
    newDocs.forEach((d, i) => {
      byId.set(d.id, d);
      fps.set(d.id, got[i]);
    });
    rebuild({ docs: [...s.docs, ...newDocs], fps });
  }

  async function addSample() {
    if (!s.sample) {
      try {
        const response = await fetch('sample.json');
        if (!response.ok) throw new Error(`sample.json: HTTP ${response.status}`);
        ui.set({ sample: await response.json() });
      } catch (error) {
        return ui.set({ error });
      }
    }
    const taken = new Set(s.docs.map((d) => d.id));
    addDocs(s.sample.documents.filter((d) => !taken.has(d.id)).map((d) => ({ ...d })));
    // Query with a planted copy within k: the one the page opens with when present.
    if (!s.query.trim()) {
      const copies = s.docs.filter((d) => d.copyOf != null);
      const first = copies.find((d) => d.id === FIRST_COPY) ?? copies[0];
      if (first) return choose(String(first.id));
    }
    runQuery();
  }

  function choose(id) {
    const d = byId.get(Number(id));
    if (d) query.value = d.text;
    ui.set({ query: query.value, pick: d ? id : '', explainId: d?.copyOf ?? null });
    runQuery();
  }

  // ---- Events -------------------------------------------------------------------------------

  $('ix-add-sample').addEventListener('click', addSample);
  $('ix-add').addEventListener('click', () => {
    const text = $('ix-doc').value;
    if (!text.trim()) return;
    // Typed documents are numbered from 10000, clear of the sample's ids.
    const id = Math.max(10000, ...s.docs.map((d) => d.id + 1));
    addDocs([{ id, text, lang: 'typed' }]);
    $('ix-doc').value = '';
  });
  $('ix-clear').addEventListener('click', () => {
    byId.clear();
    rebuild({ docs: [], fps: new Map(), pick: '' });
  });
  pick.addEventListener('input', () => choose(pick.value));
  query.addEventListener('input', () => {
    // A picked copy stays named only while its text is the query.
    ui.set({
      query: query.value,
      ...(s.pick && byId.get(Number(s.pick))?.text !== query.value ? { pick: '' } : {}),
    });
    runQuery();
  });
  $('ix-docs-details').addEventListener(
    'toggle',
    () => $('ix-docs-details').open && renderDocList(s),
  );
  $('ix-k').addEventListener('input', () => rebuild({ k: Number($('ix-k').value), kAuto: false }));
  $('ix-k-auto').addEventListener('input', () => {
    s.kAuto = $('ix-k-auto').checked;
    if (s.kAuto && s.recommended != null) rebuild({ k: Math.min(maxK(s.width), s.recommended) });
    else ui.set({});
  });
  // The tolerance: a whole percent; anything else the library refuses, in the status line.
  const tolerance = $('ix-tolerance');
  tolerance.value = String(s.tolerance);
  tolerance.addEventListener('input', () => {
    if (tolerance.value === '') return;
    ui.set({ tolerance: Number(tolerance.value) });
    runQuery();
  });
  $('ix-plan-choice').addEventListener('input', () => rebuild({ want: $('ix-plan-choice').value }));
  $('ix-width').addEventListener('input', () => {
    const width = Number($('ix-width').value);
    const all = fingerprintAll(s.docs, width);
    let k = s.k;
    try {
      if (s.kAuto && s.query.trim())
        k = recommendedK(s.query, { width, tolerance: s.tolerance / 100 });
    } catch (error) {
      // A tolerance the library refuses: its message in the status line, k as it was.
      ui.set({ error });
    }
    k = Math.min(maxK(width), k);
    rebuild({ width, k, qfp: null, fps: new Map(s.docs.map((d, i) => [d.id, all[i]])) });
    runQuery();
  });
  $('ix-size').addEventListener('input', () => {
    ui.set({ size: s.sizes[Number($('ix-size').value)].size });
    scheduleTiming();
  });
  $('ix-time-all').addEventListener('click', () => timeSizes(s.sizes.map((r) => r.size)));
  $('ix-matches').addEventListener('click', (e) => {
    const button = e.target.closest('button.why');
    if (!button) return;
    ui.set({ explainId: Number(button.dataset.id) });
    $('ix-why-box').scrollIntoView({ block: 'nearest' });
  });
  $('ix-options').addEventListener('submit', (e) => e.preventDefault());
  for (const id of ['ix-plan', 'ix-probes']) {
    $(id).addEventListener('scroll', () => updateMore(view), { capture: true, passive: true });
    new ResizeObserver(() => updateMore(view)).observe($(id));
  }

  let shown = false;
  return {
    async show() {
      if (shown) return;
      shown = true;
      $('ix-k-auto').checked = false;
      rebuild();
      await addSample();
    },
  };
}
