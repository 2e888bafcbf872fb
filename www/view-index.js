// View 4: documents in an Index, its plan drawn, queries explained, and why a query within k of
// a stored fingerprint is always found. One state object holds the inputs and the library's
// answers (the Index, its plan, the plan new Index({ k }) would pick, the matches and the
// candidates explainQuery examined); small renderers draw it.
import { Fingerprinter, Index, hamming, recommendedK, scan, toBinary } from '../pkg/simprint.js';
import { $, escapeHtml, fmt, libDefaults, plural, responsive, showStatus, viewState } from './common.js';

const MAX_TABLES = 70; // plans with more tables are not offered: too many rows to draw
const MAX_SUBSTRINGS = 8; // multi-index plans offered: 2 to this many substrings
// The slider's top: 24 at 64 bits (25 blocks of 2-3 bits), in proportion at other widths.
const maxK = (width) => Math.min(width - 1, Math.round((3 * width) / 8));
const SNIPPET = 110;
const SHOWN = 60; // rejected candidates listed
const PROBES_SHOWN = 3; // probes listed per table in the library's order (besides those that found a match)
const HITS_SHOWN = 3; // ids listed per probe
const TIMING_PAUSE = 600; // ms of quiet before the page times a query (timing blocks the page)
// The planner's pick is also shown at this size: it plans by count alone, so any fingerprints do.
const LARGE = 10_000;
// The planted copy the page opens with: the reviewer's example, when the sample has it.
const FIRST_COPY = 300;
// The plan the page opens on: multi-index hashing, what the library uses at the recommended k.
const FIRST_PLAN = 'multiIndex:5';

const snippet = (t) => (t.length > SNIPPET ? `${t.slice(0, SNIPPET)}…` : t);
const gcd = (a, b) => (b ? gcd(b, a % b) : a);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const list = (xs) => xs.join(', ');

/**
 * The colour of block b of n: hues spread evenly round the wheel, visited in a stride coprime
 * with n so neighbouring blocks get distant hues; every other block is also striped and each is
 * labelled, so even 24 blocks stay apart.
 */
function blockStyle(b, n) {
  let stride = Math.max(1, Math.round(n * 0.382));
  while (n > 1 && gcd(stride, n) !== 1) stride++;
  const hue = Math.round((360 * ((b * stride) % n)) / Math.max(1, n));
  return { hue, striped: b % 2 === 1 };
}

/** The attributes of block b's coloured segment (of n blocks). */
const seg = (b, n, extra = '', style = '') => {
  const { hue, striped } = blockStyle(b, n);
  return `class="seg${striped ? ' striped' : ''}${extra}" style="--h:${hue};${style}"`;
};

/** Index options of a plan choice's key ("multiIndex:5", "permuted:10", "combined:6:2", "scan"). */
export function planOptions(key) {
  const [kind, a, c] = key.split(':');
  if (kind === 'multiIndex') return { substrings: Number(a) };
  if (kind === 'permuted') return { blocks: Number(a) };
  if (kind === 'combined') return { blocks: Number(a), keyBlocks: Number(c) };
  return { scan: true };
}

/** The choice key of a plan the library describes (for marking the planner's pick). */
function planKey(p) {
  if (p.kind === 'scan') return 'scan';
  if (p.kind === 'combined') return `combined:${p.blocks.length}:${p.tables[0].blocks.length}`;
  return `${p.kind}:${p.blocks.length}`;
}

/** Each substring's radius in a multi-index plan, or null where the substring has no table. */
const radiiOf = (p) => p.blocks.map((_, b) => p.tables.find((t) => t.blocks[0] === b)?.radius ?? null);

/** A plan in a few words, for the option list and the planner's note. */
function describe(p) {
  const lens = [...new Set(p.blocks.map((b) => b.len))].join('/');
  switch (p.kind) {
    case 'scan': return 'a scan (no tables)';
    case 'multiIndex':
      return `multi-index hashing: ${plural(p.blocks.length, 'substring')} of ${lens} bits, radii ` +
        `${radiiOf(p).map((r) => r ?? '–').join(',')}`;
    case 'permuted': return `permuted tables: ${plural(p.blocks.length, 'block')} of ${lens} bits, ${plural(p.tables.length, 'table')}`;
    default: return `combined: ${plural(p.tables.length, 'table')} of ${p.tables[0].blocks.length} of ` +
      `${p.blocks.length} blocks, radius ${p.tables[0].radius}`;
  }
}

const GROUPS = {
  multiIndex: 'Multi-index hashing: substrings probed within radii',
  permuted: 'Permuted tables: exact keys',
  combined: 'Combined: keys of several blocks, probed within a radius',
  scan: 'No tables',
};

/** The plan's option label (without the planner's mark). */
function choiceLabel(p) {
  const tables = plural(p.tables.length, 'table');
  switch (p.kind) {
    case 'multiIndex': return `${plural(p.blocks.length, 'substring')}, radii ${radiiOf(p).map((r) => r ?? '–').join(',')} → ${tables}`;
    case 'permuted': return `${plural(p.blocks.length, 'block')} → ${tables}`;
    case 'combined': return `${p.tables[0].blocks.length} of ${p.blocks.length} blocks, radius ${p.tables[0].radius} → ${tables}`;
    default: return 'scan: check every fingerprint';
  }
}

const choiceCache = new Map();
/**
 * The plans offered for (width, k), read from the library (an empty Index of each): multi-index
 * hashing with 2 to 8 substrings, permuted tables from k + 1 blocks while the tables stay
 * drawable, two combined plans, a scan.
 */
function planChoices(width, k) {
  const cacheKey = `${width}:${k}`;
  if (choiceCache.has(cacheKey)) return choiceCache.get(cacheKey);
  const choices = [];
  const add = (key) => {
    let index;
    try {
      index = new Index({ width, k, ...planOptions(key) });
      const p = index.plan();
      choices.push({ key, kind: p.kind, tables: p.tables.length, label: choiceLabel(p), radius: p.tables[0]?.radius ?? 0 });
      return p;
    } catch {
      return null;
    } finally {
      index?.free();
    }
  };
  for (let m = k === 0 ? 1 : 2; m <= Math.min(k + 1, MAX_SUBSTRINGS, width); m++) add(`multiIndex:${m}`);
  for (let blocks = k + 1; blocks <= Math.min(width, k + 4); blocks++) {
    const p = add(`permuted:${blocks}`);
    if (!p) break;
    // The first is kept however many tables it has: some permuted plan is always offered.
    if (p.tables.length > MAX_TABLES && choices.filter((c) => c.kind === 'permuted').length > 1) {
      choices.pop();
      break;
    }
  }
  for (const blocks of [4, 6]) {
    const before = choices.length;
    add(`combined:${blocks}:2`);
    // A combined plan at radius 0 is one more permuted-like plan: not worth a row.
    if (choices.length > before && (choices.at(-1).radius === 0 || choices.at(-1).tables > MAX_TABLES)) choices.pop();
  }
  add('scan');
  choiceCache.set(cacheKey, choices);
  return choices;
}

/**
 * The offered choice nearest to the one wanted: itself, else the same kind with the nearest
 * count, else the planner's pick, else the first.
 */
function nearestChoice(want, choices, auto) {
  if (choices.some((c) => c.key === want)) return want;
  const [kind, count] = want.split(':');
  const same = choices.filter((c) => c.kind === kind);
  if (same.length) {
    const n = Number(count);
    return same.reduce((a, b) => (Math.abs(Number(b.key.split(':')[1]) - n) < Math.abs(Number(a.key.split(':')[1]) - n) ? b : a)).key;
  }
  return choices.some((c) => c.key === auto) ? auto : choices[0].key;
}

/** `n` fingerprints of `width` bits from a fixed xorshift sequence (the planner only counts them). */
function someFingerprints(n, width) {
  let x = 0x9e3779b97f4a7c15n;
  const mask = (1n << 64n) - 1n;
  const next = () => {
    x ^= (x << 13n) & mask;
    x ^= x >> 7n;
    x ^= (x << 17n) & mask;
    return x;
  };
  return Array.from({ length: n }, () => (width > 64 ? (next() << 64n) | next() : next()) & ((1n << BigInt(width)) - 1n));
}

/** The fingerprint bit positions of a table's key, in key order (bit 0 the most significant). */
const keyPositions = (t) => t.ranges.flatMap(({ start, len }) => Array.from({ length: len }, (_, i) => start + i));

/** True when one probe reads the whole table (its radius reaches every bucket). */
const readsWhole = (t) => t.radius >= t.bucketBits;

/**
 * The first `limit` probes of a table in the library's order: by number of flipped bucket bits,
 * then ascending as masks over the bucket number (its lowest bit the key's last bucket bit).
 * Each is the list of fingerprint positions flipped.
 */
function firstProbes(t, limit) {
  const bits = t.bucketBits;
  const pos = keyPositions(t);
  const toPositions = (mask) => {
    const out = [];
    for (let j = bits - 1; j >= 0; j--) if ((mask >> j) & 1) out.push(pos[bits - 1 - j]);
    return out;
  };
  const out = [[]];
  for (let w = 1; w <= Math.min(t.radius, bits) && out.length < limit; w++) {
    // Gosper's next combination of w bits, as the library steps.
    for (let m = (1 << w) - 1; m < 1 << bits && out.length < limit;) {
      out.push(toPositions(m));
      const low = m & -m;
      const up = m + low;
      m = up | (((up ^ m) >> 2) / low);
    }
  }
  return out;
}

/** Mean time of fn in µs: repeated until at least `budget` ms have passed (timers are coarse). */
function timeIt(fn, budget = 4) {
  fn();
  let reps = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) fn();
    const ms = performance.now() - t0;
    if (ms >= budget || reps >= 1 << 20) return { us: (ms * 1000) / reps, reps };
    reps *= 2;
  }
}

const binom = (n, r) => {
  let x = 1;
  for (let i = 1; i <= r; i++) x = (x * (n - r + i)) / i;
  return Math.round(x);
};

/** A candidate's probe as a chip: table · bucket · the bits flipped to reach it. */
function probeChip(c) {
  if (c.table == null) return '<span class="chip" data-table="scan">scan</span>';
  if (!c.probe) {
    return `<span class="chip" data-table="${c.table}" title="table T${c.table}, read whole">T${c.table} · whole table</span>`;
  }
  const { bucket, flipped } = c.probe;
  const how = flipped.length ? `⊕${flipped.join(',')}` : 'own';
  const title = flipped.length
    ? `table T${c.table}, bucket ${bucket}: the query's bucket with bit${flipped.length > 1 ? 's' : ''} ${list(flipped)} flipped`
    : `table T${c.table}, bucket ${bucket}: the query's own bucket`;
  return `<span class="chip" data-table="${c.table}" data-bucket="${bucket}" data-flipped="${flipped.join(',')}" ` +
    `title="${title}">T${c.table} · ${bucket} · ${how}</span>`;
}

export function setup() {
  const view = $('view-index');
  const kRange = $('ix-k');
  const query = $('ix-query');
  const pick = $('ix-pick');

  const ui = viewState({
    // Inputs.
    width: 64,
    k: null,
    kAuto: true, // k follows recommendedK of the query until the slider is moved
    want: FIRST_PLAN, // the plan chosen; the nearest offered one is used at other k
    docs: [], // { id, text, lang, copyOf?, edits? }
    sample: null,
    query: '',
    pick: '',
    explainId: null, // the match the pigeonhole drawing is about
    // The library's answers.
    fps: new Map(), // id → fingerprint at the width
    index: null,
    plan: null, // the plan of the index's one segment (explainQuery's tables index it)
    choices: [],
    choice: null, // the key of the plan in use
    auto: null, // new Index({ k }) with these documents: { key, plan }
    autoLarge: null, // the same at LARGE fingerprints: { n, plan }
    recommended: null, // recommendedK(query, width)
    qfp: null,
    matches: [],
    candidates: [],
    timing: null,
    error: null,
  }, [
    [['error'], (s) => showStatus($('ix-status'), s.error)],
    [['docs', 'index', 'sample'], renderDocs],
    [['docs', 'fps', 'pick'], renderPicker],
    [['k', 'kAuto', 'recommended', 'width'], renderK],
    [['choices', 'choice', 'auto'], renderChoices],
    [['plan', 'auto', 'autoLarge'], renderPlanHelp],
    [['plan', 'candidates'], renderPlan],
    // The query's text is read with its answers: they change together.
    [['matches', 'candidates', 'docs', 'pick'], renderResults],
    [['plan', 'qfp', 'candidates'], renderProbes],
    [['plan', 'qfp', 'matches', 'candidates', 'explainId', 'pick'], renderPigeonhole],
    [['candidates', 'timing', 'qfp'], renderTiming],
  ]);
  const s = ui.state;
  const byId = new Map();

  // ---- Asking the library -------------------------------------------------------------------

  function fingerprintAll(texts, width = s.width) {
    const fp = new Fingerprinter({ width });
    try {
      return texts.map((t) => fp.fingerprint(t));
    } finally {
      fp.free();
    }
  }

  /** The plan new Index({ k }) picks for these documents: what the library would use. */
  function plannerPick() {
    let index;
    try {
      index = new Index({ width: s.width, k: s.k });
      if (s.docs.length) index.insertMany(s.docs.map((d) => d.id), s.docs.map((d) => s.fps.get(d.id)));
      const plan = index.plan();
      return { key: planKey(plan), plan };
    } finally {
      index?.free();
    }
  }

  /** A new Index with the chosen plan holding every document, compacted so the tables are used. */
  function rebuild(patch = {}) {
    Object.assign(s, patch);
    let index = null;
    let plan;
    let choices;
    let auto;
    let choice;
    try {
      choices = planChoices(s.width, s.k);
      auto = plannerPick();
      // The planner's pick is offered even when it is none of the usual choices.
      if (!choices.some((c) => c.key === auto.key)) {
        choices = [...choices, { key: auto.key, kind: auto.plan.kind, tables: auto.plan.tables.length, label: choiceLabel(auto.plan) }];
      }
      choice = nearestChoice(s.want, choices, auto.key);
      index = new Index({ width: s.width, k: s.k, ...planOptions(choice) });
      if (s.docs.length) {
        index.insertMany(s.docs.map((d) => d.id), s.docs.map((d) => s.fps.get(d.id)));
        // Small sets sit in a scanned insert buffer; merging them into one segment uses the tables.
        index.compact();
      }
      // explainQuery numbers tables within a segment's plan; after compact() there is one.
      plan = index.segmentPlan(0) ?? index.plan();
    } catch (error) {
      index?.free();
      ui.set({ error });
      return;
    }
    s.index?.free();
    clearTimeout(timingTimer);
    // The old answers belonged to the old index: they go with it until the query runs again.
    ui.set({
      index, plan, choices, choice, auto, error: null, qfp: null, matches: [], candidates: [], timing: null,
    });
    scheduleLarge();
  }

  // The planner at LARGE fingerprints, once per width and k, after the page has drawn.
  const largeCache = new Map();
  let largeTimer = 0;
  function scheduleLarge() {
    const key = `${s.width}:${s.k}`;
    if (largeCache.has(key)) {
      if (s.autoLarge !== largeCache.get(key)) ui.set({ autoLarge: largeCache.get(key) });
      return;
    }
    if (s.autoLarge) ui.set({ autoLarge: null });
    clearTimeout(largeTimer);
    largeTimer = setTimeout(() => {
      if (`${s.width}:${s.k}` !== key) return;
      let index;
      try {
        index = new Index({ width: s.width, k: s.k });
        const fps = someFingerprints(LARGE, s.width);
        index.insertMany(Float64Array.from(fps, (_, i) => i), fps);
        largeCache.set(key, { n: LARGE, plan: index.plan() });
        ui.set({ autoLarge: largeCache.get(key) });
      } catch (error) {
        ui.set({ error });
      } finally {
        index?.free();
      }
    }, 50);
  }

  /** The query's fingerprint, its recommended k (which k follows unless set by hand), the answers. */
  function runQuery() {
    if (!s.index) return;
    const text = s.query;
    if (!text.trim()) {
      clearTimeout(timingTimer);
      answered = null;
      ui.set({ qfp: null, recommended: null, matches: [], candidates: [], timing: null });
      return;
    }
    try {
      const [qfp] = fingerprintAll([text]);
      const recommended = recommendedK(text, s.width);
      const want = Math.min(maxK(s.width), recommended);
      if (s.kAuto && want !== s.k) rebuild({ k: want });
      // Most keystrokes in a long query leave its fingerprint as it was: the index's answers
      // for it are then the ones already drawn.
      if (qfp === s.qfp && s.index === answered && recommended === s.recommended) {
        if (!s.timing) scheduleTiming();
        return;
      }
      answered = s.index;
      const matches = s.index.query(qfp);
      const candidates = s.index.explainQuery(qfp);
      ui.set({ qfp, recommended, matches, candidates, timing: null, error: null });
      scheduleTiming();
    } catch (error) {
      ui.set({ error });
    }
  }
  const work = responsive(view, runQuery);
  let timingTimer = 0;
  let answered = null; // the Index the drawn answers came from

  // Timing runs once typing pauses, so it never delays a keystroke.
  function scheduleTiming() {
    clearTimeout(timingTimer);
    timingTimer = setTimeout(timeQuery, TIMING_PAUSE);
  }

  function timeQuery() {
    if (!s.qfp || !s.docs.length || view.hidden) return;
    const stored = s.docs.map((d) => s.fps.get(d.id));
    const words = s.width > 64
      ? BigUint64Array.from(stored.flatMap((x) => [x >> 64n, x & 0xffffffffffffffffn]))
      : BigUint64Array.from(stored);
    const q = timeIt(() => s.index.query(s.qfp));
    const sc = timeIt(() => scan(s.qfp, words, s.index.k, s.width));
    ui.set({ timing: { q, s: sc, n: stored.length } });
  }

  function addDocs(newDocs) {
    const got = fingerprintAll(newDocs.map((d) => d.text));
    const fps = new Map(s.fps);
    newDocs.forEach((d, i) => {
      byId.set(d.id, d);
      fps.set(d.id, got[i]);
    });
    s.docs = [...s.docs, ...newDocs];
    s.fps = fps;
    rebuild();
  }

  async function loadSample() {
    if (s.sample) return s.sample;
    try {
      const response = await fetch('sample.json');
      if (!response.ok) throw new Error(`sample.json: HTTP ${response.status}`);
      ui.set({ sample: await response.json() });
    } catch (error) {
      ui.set({ error });
    }
    return s.sample;
  }

  async function addSample() {
    if (!(await loadSample())) return;
    const taken = new Set(s.docs.map((d) => d.id));
    // Sample ids are kept as they are; typed documents are numbered after them.
    addDocs(s.sample.documents.filter((d) => !taken.has(d.id)).map((d) => ({ ...d })));
    // Query with a planted copy: the reviewer's example when present, else the first.
    if (!s.query.trim()) {
      const copies = s.docs.filter((d) => d.copyOf != null);
      const first = copies.find((d) => d.id === FIRST_COPY) ?? copies[0];
      if (first) return choose(String(first.id));
    }
    work.request(true);
  }

  function choose(id) {
    const d = byId.get(Number(id));
    if (d) query.value = d.text;
    ui.set({ query: query.value, pick: d ? id : '', explainId: d?.copyOf ?? null });
    work.request(true);
  }

  // ---- Drawing ------------------------------------------------------------------------------

  function renderDocs({ docs, index, sample }) {
    const copies = docs.filter((d) => d.copyOf != null).length;
    $('ix-count').textContent = index
      ? `(${index.size} stored${copies ? `, ${copies} of them planted near-duplicates` : ''}; ` +
        `${plural(index.segments, 'segment')})`
      : '';
    const stored = docs.some((d) => d.lang !== 'typed');
    const button = $('ix-add-sample');
    button.disabled = !sample || stored;
    button.textContent = stored ? 'The sample is stored'
      : sample ? `Add the bundled sample (${sample.documents.length} texts)` : 'Add the bundled sample';
    $('ix-attribution').textContent = sample?.attribution ?? '';
    if ($('ix-docs-details').open) renderDocList();
  }

  function renderDocList() {
    $('ix-docs').innerHTML = s.docs.map((d) => {
      const copy = d.copyOf != null
        ? ` <span class="tag">copy of #${d.copyOf}: ${d.edits.map(([a, b]) => `${escapeHtml(a)}→${escapeHtml(b)}`).join(', ')}</span>`
        : '';
      return `<li><span class="doc-id">#${d.id}</span> <span class="lang">${d.lang}</span> ${escapeHtml(snippet(d.text))}${copy}</li>`;
    }).join('');
  }

  function renderPicker({ docs, fps }) {
    const copies = docs.filter((d) => d.copyOf != null && byId.has(d.copyOf));
    pick.disabled = copies.length === 0;
    if (!copies.length) {
      pick.innerHTML = '<option value="">(add the sample first)</option>';
      return;
    }
    pick.innerHTML = '<option value="">(choose one)</option>' + copies.map((d) => {
      const d0 = hamming(fps.get(d.id), fps.get(d.copyOf));
      return `<option value="${d.id}" data-distance="${d0}">#${d.id}, a copy of #${d.copyOf} (${d.lang}), ` +
        `${plural(d0, 'bit')} from it</option>`;
    }).join('');
    pick.value = s.pick;
  }

  function renderK({ k, kAuto, recommended, width }) {
    kRange.max = String(maxK(width));
    kRange.value = String(k);
    $('ix-k-value').textContent = String(k);
    const use = $('ix-k-auto');
    use.checked = kAuto;
    $('ix-k-note').innerHTML = recommended == null
      ? 'Type or pick a query to see the k the library recommends for it.'
      : `recommendedK(query) = <strong>${recommended}</strong>${kAuto
        ? (k === recommended ? ': k follows it' : `: k follows it up to the slider's end, ${k}`)
        : k === recommended ? '' : `; k is set by hand to ${k}`}.`;
  }

  function renderChoices({ choices, choice, auto }) {
    const sel = $('ix-plan-choice');
    const kinds = [...new Set(choices.map((c) => c.kind))];
    sel.innerHTML = kinds.map((kind) => `<optgroup label="${GROUPS[kind]}">${choices.filter((c) => c.kind === kind)
      .map((c) => `<option value="${c.key}"${c.key === auto?.key ? ' data-planner="true"' : ''}>` +
        `${c.key === auto?.key ? '★ ' : ''}${c.label}</option>`).join('')}</optgroup>`).join('');
    sel.value = choice;
  }

  function renderPlanHelp({ plan, auto, autoLarge }) {
    if (!plan) return;
    const n = plan.blocks.length;
    const keyBits = plan.tables.map((t) => t.keyBits);
    const lo = Math.min(...keyBits);
    const hi = Math.max(...keyBits);
    const bits = lo === hi ? `${lo}` : `${lo} to ${hi}`;
    const bb = plan.tables[0]?.bucketBits ?? 0;
    const buckets = plan.size
      ? ` A table's buckets are numbered by the top ${plural(bb, 'bit')} of its key (bucketBits, about log₂ of the ${plan.size} stored).`
      : '';
    const text = {
      scan: 'This plan has no tables: every query checks every stored fingerprint.',
      permuted: `${plural(n, 'block')} of the ${plan.width} bits and ${plural(plan.tables.length, 'table')}, one per choice of ` +
        `${plural(plan.tables[0]?.blocks.length ?? 0, 'block')}. Each table moves its blocks to the front as its key ` +
        `(${bits} bits) and files every fingerprint under it; a query reads one bucket per table: its own key, exactly.${buckets}`,
      multiIndex: `${plural(n, 'substring')} of the ${plan.width} bits, one table each keyed by the substring (${bits} bits), ` +
        `probed within its radius: a query reads its own bucket and every bucket up to rᵢ bits away, ` +
        `${plural(plan.estimate.probes, 'probe')} in all. The radii add up so that Σ(rᵢ + 1) > k.${buckets}`,
      combined: `${plural(n, 'block')} and a table for each choice of ${plan.tables[0]?.blocks.length} of them ` +
        `(keys of ${bits} bits), all probed within radius ${plan.tables[0]?.radius}: ${plural(plan.estimate.probes, 'probe')} in all.${buckets}`,
    }[plan.kind];
    const us = (nanos) => `${fmt(Number((nanos / 1000).toFixed(2)))} µs`;
    let planner = '';
    if (auto) {
      const here = auto.key === planKey(plan)
        ? ' This is that plan.'
        : ` Its cost model prices a query at ${us(auto.plan.estimate.nanos)} that way, against ${us(plan.estimate.nanos)} ` +
          `for the plan drawn (${plural(plan.estimate.probes, 'probe')}, about ${fmt(Number(plan.estimate.candidates.toFixed(1)))} candidates).`;
      const large = autoLarge && autoLarge.plan.kind !== auto.plan.kind
        ? ` At ${autoLarge.n.toLocaleString('en')} fingerprints it would pick ${describe(autoLarge.plan)}.`
        : '';
      planner = `<p class="help planner-note" id="ix-planner">★ <code>new Index({ k: ${plan.k} })</code> with these ` +
        `${plural(auto.plan.size, 'document')} picks <strong>${describe(auto.plan)}</strong>.${here}${large}</p>`;
    }
    $('ix-plan-help').innerHTML = `<p class="help">${text} This page fixes the plan and calls compact() so that the ` +
      `tables are used; a real index plans itself by size (new Index({ k })).</p>${planner}`;
  }

  /**
   * The plan: the blocks (substrings with their radii), then one row per table. Permuted and
   * combined keys are drawn with their blocks moved to the front, as the paper draws them; a
   * multi-index table keys its substring where it lies.
   */
  function renderPlan({ plan, candidates }) {
    const box = $('ix-plan');
    if (!plan) {
      box.replaceChildren();
      return;
    }
    // Per-table counts of the candidates examined and kept, from explainQuery.
    const perTable = new Map();
    for (const c of candidates) {
      if (c.table == null) continue;
      const t = perTable.get(c.table) ?? { examined: 0, accepted: 0 };
      t.examined += 1;
      t.accepted += c.accepted ? 1 : 0;
      perTable.set(c.table, t);
    }
    const n = plan.blocks.length;
    const mih = plan.kind === 'multiIndex';
    const radii = mih ? radiiOf(plan) : [];
    const name = mih ? 'S' : 'B';
    const block = (b, key) => {
      const { start, len } = plan.blocks[b];
      const r = mih ? radii[b] : null;
      const title = `${mih ? 'substring' : 'block'} ${b}: bits ${start}–${start + len - 1}` +
        `${mih ? (r == null ? ', no table' : `, probed within ${r}`) : ''}`;
      return `<span ${seg(b, n, key ? ' in-key' : '', `flex-grow:${len}`)} data-block="${b}" data-start="${start}" ` +
        `data-len="${len}"${mih ? ` data-radius="${r ?? ''}"` : ''} title="${title}"><span class="seg-label">${name}${b}` +
        `${mih && key ? ` r${r ?? '–'}` : ''}</span></span>`;
    };
    let html = '<div class="plan-row plan-blocks"><span class="plan-label">bits</span><span class="segs">' +
      plan.blocks.map((_, b) => block(b, true)).join('') + '</span><span class="plan-stat">' +
      `${plan.width} bits in ${plural(n, mih ? 'substring' : 'block')}</span></div>`;
    plan.tables.forEach((t, i) => {
      const order = mih ? plan.blocks.map((_, b) => b)
        : [...t.blocks, ...plan.blocks.map((_, b) => b).filter((b) => !t.blocks.includes(b))];
      const stat = perTable.get(i);
      const reach = t.radius ? `radius ${t.radius}` : 'exact';
      const probes = readsWhole(t) && t.bucketBits ? 'read whole' : plural(t.probes, 'probe');
      html += `<div class="plan-row" data-table="${i}" data-radius="${t.radius}" data-probes="${t.probes}">` +
        `<span class="plan-label">T${i}</span><span class="segs">` +
        order.map((b) => block(b, t.blocks.includes(b))).join('') +
        `</span><span class="plan-stat">key ${t.keyBits} bits · ${reach} · ${probes}` +
        `${stat ? ` · <strong>${stat.examined}</strong> examined, <strong>${stat.accepted}</strong> kept` : ''}</span></div>`;
    });
    box.innerHTML = `<p class="plan-count">${plural(plan.tables.length, 'table')}` +
      `${plan.tables.length ? ` (T0–T${plan.tables.length - 1})` : ''}</p>` +
      `<div class="plan-scroll" tabindex="0" role="region" aria-label="The plan's blocks and tables">${html}` +
      '<p class="plan-more" aria-hidden="true"></p></div>';
    // Measured in the next frame, with the layout that frame makes anyway.
    requestAnimationFrame(updateMore);
  }

  // When a list of tables scrolls, say how many rows are still below.
  function updateMore() {
    for (const scroller of view.querySelectorAll('.plan-scroll')) {
      const more = scroller.querySelector('.plan-more');
      if (!more) continue;
      const bottom = scroller.scrollTop + scroller.clientHeight;
      const hidden = [...scroller.querySelectorAll('[data-table]:is(.plan-row, .probe-row)')]
        .filter((row) => row.offsetTop + row.offsetHeight / 2 > bottom);
      more.hidden = hidden.length === 0;
      if (hidden.length) {
        more.textContent = `▼ ${plural(hidden.length, 'more table')} below (T${hidden[0].dataset.table}–` +
          `T${hidden.at(-1).dataset.table}): scroll`;
      }
      scroller.classList.toggle('has-more', hidden.length > 0);
    }
  }
  for (const id of ['ix-plan', 'ix-probes']) {
    $(id).addEventListener('scroll', updateMore, { capture: true, passive: true });
    new ResizeObserver(() => updateMore()).observe($(id));
  }

  function renderResults({ matches, candidates, query: text }) {
    const matchBody = $('ix-matches').tBodies[0];
    const rejectBody = $('ix-rejected').tBodies[0];
    if (!s.qfp) {
      matchBody.innerHTML = '';
      rejectBody.innerHTML = '';
      $('ix-match-count').textContent = '';
      $('ix-rejected-count').textContent = '';
      return;
    }
    // The probes that found each id, from explainQuery.
    const probesOf = new Map();
    for (const c of candidates) {
      if (!probesOf.has(c.id)) probesOf.set(c.id, { distance: c.distance, accepted: c.accepted, found: [] });
      probesOf.get(c.id).found.push(c);
    }
    const chips = (id) => probesOf.get(id)?.found.map(probeChip).join(' ') ?? '';
    const picked = byId.get(Number(s.pick));
    const note = (id) => {
      const d = byId.get(id);
      if (d.text === text) return ' <span class="tag">the query itself</span>';
      if (picked && picked.text === text && picked.copyOf === id) {
        return ' <span class="tag tag-good">the original of the planted copy</span>';
      }
      if (d.copyOf != null) return ` <span class="tag">planted copy of #${d.copyOf}</span>`;
      return '';
    };
    matchBody.innerHTML = matches.map((m) => `<tr data-id="${m.id}"${m.id === s.explainId ? ' class="explained"' : ''}>` +
      `<td class="num">${m.id}</td><td class="num">${m.distance}</td>` +
      `<td class="found-by">${chips(m.id)}</td><td><span class="snippet">${escapeHtml(snippet(byId.get(m.id).text))}</span>${note(m.id)}</td>` +
      `<td>${m.distance > 0 ? `<button type="button" class="why" data-id="${m.id}" aria-label="Why #${m.id} was found">why?</button>` : ''}</td></tr>`)
      .join('') || `<tr><td colspan="5" class="empty">Nothing within k = ${s.index.k}.</td></tr>`;
    $('ix-match-count').textContent = `(${matches.length} within k = ${s.index.k})`;

    const rejected = [...probesOf].filter(([, c]) => !c.accepted).sort((a, b) => a[1].distance - b[1].distance || a[0] - b[0]);
    rejectBody.innerHTML = rejected.slice(0, SHOWN).map(([id, c]) => `<tr data-id="${id}"><td class="num">${id}</td>` +
      `<td class="num">${c.distance}</td><td class="found-by">${chips(id)}</td><td><span class="snippet">${escapeHtml(snippet(byId.get(id).text))}</span></td></tr>`)
      .join('') || '<tr><td colspan="4" class="empty">None: every candidate was within k.</td></tr>';
    $('ix-rejected-count').textContent = `(${rejected.length}${rejected.length > SHOWN ? `, the closest ${SHOWN} listed` : ''})`;
  }

  /**
   * The probes of each table for this query: its key (the bucket bits first), the first few
   * buckets in the library's order and every one that found a match, each with the candidates
   * explainQuery says it found; the rest counted.
   */
  function renderProbes({ plan, qfp, candidates }) {
    const box = $('ix-probes');
    if (!plan || !qfp || plan.scan) {
      box.innerHTML = `<p class="help">${!plan || plan.scan ? 'A scan has no tables to probe: it checks every stored fingerprint.'
        : 'Pick or type a query to see the buckets each table reads.'}</p>`;
      return;
    }
    const qBits = toBinary(qfp, plan.width);
    const byProbe = new Map(); // "table|flipped" → candidates
    for (const c of candidates) {
      if (c.table == null) continue;
      const key = `${c.table}|${c.probe ? c.probe.flipped.join(',') : 'whole'}`;
      if (!byProbe.has(key)) byProbe.set(key, []);
      byProbe.get(key).push(c);
    }
    const hits = (found) => {
      if (!found?.length) return '<span class="probe-none">nothing</span>';
      const sorted = [...found].sort((a, b) => b.accepted - a.accepted || a.distance - b.distance);
      const shown = sorted.slice(0, HITS_SHOWN).map((c) => `<span class="hit${c.accepted ? ' kept' : ''}" data-id="${c.id}">` +
        `#${c.id} <span class="hit-d">d ${c.distance}</span> ${c.accepted ? '✓' : '✗'}</span>`).join(' ');
      return shown + (sorted.length > HITS_SHOWN ? ` <span class="hit-more">+${sorted.length - HITS_SHOWN}</span>` : '');
    };
    const mih = plan.kind === 'multiIndex';
    const rows = plan.tables.map((t, i) => {
      const pos = keyPositions(t);
      const bb = t.bucketBits;
      const key = `<code class="probe-key" aria-label="the query's key in T${i}"><span class="bucket-part">` +
        `${pos.slice(0, bb).map((p) => qBits[p]).join('')}</span>${pos.slice(bb).map((p) => qBits[p]).join('')}</code>`;
      const head = `<span class="plan-label">T${i}</span><span class="probe-head">` +
        `${mih ? `S${t.blocks[0]} · ` : `${t.blocks.map((b) => `B${b}`).join('+')} · `}${t.radius ? `radius ${t.radius}` : 'exact'} · ` +
        `<strong class="probe-count">${plural(t.probes, 'probe')}</strong> ${key}</span>`;
      if (readsWhole(t)) {
        const found = byProbe.get(`${i}|whole`) ?? byProbe.get(`${i}|`);
        return `<div class="probe-row" data-table="${i}" data-probes="${t.probes}">${head}<ul class="probe-list">` +
          `<li class="probe" data-flipped="">${bb ? `radius ${t.radius} ≥ its ${bb} bucket bits: one read of the whole table`
            : 'one bucket (no bucket bits yet)'} → ${hits(found)}</li></ul></div>`;
      }
      // Listed: the first probes in order, and every probe that found a kept candidate.
      const order = firstProbes(t, Math.min(t.probes, PROBES_SHOWN));
      const listed = new Map(order.map((f) => [f.join(','), f]));
      for (const [k, found] of byProbe) {
        const [tb, flips] = k.split('|');
        if (Number(tb) === i && found.some((c) => c.accepted) && !listed.has(flips)) {
          listed.set(flips, flips ? flips.split(',').map(Number) : []);
        }
      }
      // In the library's order: fewer flips first, then ascending as masks over the bucket number.
      const mask = (f) => sum(f.map((p) => 2 ** (bb - 1 - pos.indexOf(p))));
      const items = [...listed.values()].sort((a, b) => a.length - b.length || mask(a) - mask(b));
      const li = items.map((f) => {
        const found = byProbe.get(`${i}|${f.join(',')}`);
        const flipped = new Set(f);
        const bits = pos.slice(0, bb).map((p) => (flipped.has(p) ? `<mark>${qBits[p] === '1' ? '0' : '1'}</mark>` : qBits[p])).join('');
        const bucket = found?.[0]?.probe?.bucket;
        return `<li class="probe${found?.some((c) => c.accepted) ? ' finds' : ''}" data-flipped="${f.join(',')}"` +
          `${bucket != null ? ` data-bucket="${bucket}"` : ''}><code class="probe-bits">${bits}</code> ` +
          `<span class="probe-what">${f.length ? `bit${f.length > 1 ? 's' : ''} ${list(f)} flipped` : 'its own bucket'}` +
          `${bucket != null ? ` (bucket ${bucket})` : ''}</span> → ${hits(found)}</li>`;
      }).join('');
      const listedKeys = new Set(items.map((f) => f.join(',')));
      const rest = [...byProbe].filter(([k]) => k.startsWith(`${i}|`) && !listedKeys.has(k.split('|')[1])).flatMap(([, c]) => c);
      const more = t.probes - items.length;
      const tail = more > 0
        ? `<li class="probe-rest">+ ${plural(more, 'more probe')} within radius ${t.radius}: ${rest.length
          ? `${plural(rest.length, 'candidate')}, ${rest.filter((c) => c.accepted).length} kept` : 'nothing found'}</li>`
        : '';
      return `<div class="probe-row" data-table="${i}" data-probes="${t.probes}" data-listed="${items.length}">${head}` +
        `<ul class="probe-list">${li}${tail}</ul></div>`;
    });
    const total = sum(plan.tables.map((t) => t.probes));
    box.innerHTML = `<p class="plan-count">${plural(total, 'probe')} in ${plural(plan.tables.length, 'table')}</p>` +
      `<div class="plan-scroll probe-scroll" tabindex="0" role="region" aria-label="The probes of each table">${rows.join('')}` +
      '<p class="plan-more" aria-hidden="true"></p></div>';
    requestAnimationFrame(updateMore);
  }

  /**
   * Why the match was found, drawn on the query's blocks (substrings) over the match's. Permuted:
   * d ≤ k differing bits spoil at most k of the b > k blocks, so some table's key agrees exactly.
   * Multi-index: if every substring i differed in more than rᵢ bits the distance would be at least
   * Σ(rᵢ + 1) > k, so some substring is within its radius and its table's probes reach the match.
   * Combined: the c least-spoiled blocks differ in at most the radius. Which tables did find it
   * is explainQuery's answer, shown beside the argument.
   */
  function renderPigeonhole({ plan, qfp, matches, candidates, explainId }) {
    const box = $('ix-why');
    const others = matches.filter((m) => m.distance > 0);
    const m = matches.find((x) => x.id === explainId && x.distance > 0) ?? others[0];
    if (!plan || plan.scan || !qfp || !m) {
      box.innerHTML = `<p class="help">${!s.docs.length ? 'Store documents first.' : plan?.scan
        ? 'This plan scans: every stored fingerprint is checked, so nothing within k can be missed. Choose a plan ' +
          'with tables to see why the tables find it too.' : !qfp ? 'Pick or type a query.'
        : 'No stored fingerprint other than the query itself lies within k; pick a planted copy to see why ' +
          'one that does is always found.'}</p>`;
      return;
    }
    const { width, k, kind } = plan;
    const qBits = toBinary(qfp, width);
    const mBits = toBinary(s.fps.get(m.id), width);
    const n = plan.blocks.length;
    const mih = kind === 'multiIndex';
    const radii = mih ? radiiOf(plan) : [];
    // Drawing only: which of the library's bits differ, and where they fall.
    const differs = (p) => qBits[p] !== mBits[p];
    const inBucket = new Set(mih ? plan.tables.flatMap((t) => keyPositions(t).slice(0, t.bucketBits)) : []);
    const blocks = plan.blocks.map(({ start, len }, b) => {
      let diff = 0;
      let q = '';
      let mm = '';
      for (let i = start; i < start + len; i++) {
        const d = differs(i);
        diff += d ? 1 : 0;
        // Multi-index: the bucket bits (the ones probes flip) are underlined.
        const wrap = (x) => (d ? `<mark>${x}</mark>` : x);
        const under = (x) => (inBucket.has(i) ? `<u>${x}</u>` : x);
        q += under(wrap(qBits[i]));
        mm += under(wrap(mBits[i]));
      }
      return { b, start, len, diff, q, m: mm, r: radii[b] };
    });
    // Per table: its key's differing bits, and those among the bucket bits its probes flip.
    const tables = plan.tables.map((t, i) => {
      const pos = keyPositions(t);
      const keyDiff = sum(t.blocks.map((b) => blocks[b].diff));
      const bucketDiff = pos.slice(0, t.bucketBits).filter(differs);
      return { i, t, keyDiff, bucketDiff, guaranteed: keyDiff <= t.radius, reaches: readsWhole(t) || bucketDiff.length <= t.radius };
    });
    const guaranteed = tables.filter((x) => x.guaranteed);
    const found = candidates.filter((c) => c.id === m.id && c.table != null);
    const foundTables = [...new Set(found.map((c) => c.table))];
    const names = (xs) => xs.map((x) => `${mih ? 'S' : 'B'}${x.b}`).join(', ');
    const T = (xs) => xs.map((x) => `T${x.i}`).join(', ');
    const doc = byId.get(m.id);

    const boxHtml = blocks.map((x) => {
      let cls = x.diff ? 'spoiled' : 'intact';
      let verdict = x.diff ? `✗ ${x.diff}` : '✓';
      let label = x.diff ? `${plural(x.diff, 'bit')} differ` : 'agrees';
      if (mih) {
        cls = x.r == null ? 'spoiled' : x.diff <= x.r ? 'within' : 'beyond';
        verdict = x.r == null ? `${x.diff} · no table` : `${x.diff} ${x.diff <= x.r ? '≤' : '>'} r ${x.r} ${x.diff <= x.r ? '✓' : '✗'}`;
        label = `${plural(x.diff, 'bit')} differ${x.diff === 1 ? 's' : ''}, radius ${x.r ?? 'none'}: ${x.r != null && x.diff <= x.r ? 'within' : 'beyond'}`;
      }
      return `
        <div role="listitem" class="why-block ${cls}" data-block="${x.b}" data-diff="${x.diff}"${mih ? ` data-radius="${x.r ?? ''}"` : ''}
          aria-label="${mih ? 'substring' : 'block'} ${x.b}, bits ${x.start} to ${x.start + x.len - 1}: ${label}">
          <span ${seg(x.b, n, ' in-key')}><span class="seg-label">${mih ? `S${x.b} r${x.r ?? '–'}` : `B${x.b}`}</span></span>
          <code class="why-bits" aria-hidden="true"><span class="who">Q</span>${x.q}<br><span class="who">#</span>${x.m}</code>
          <span class="why-verdict">${verdict}</span>
        </div>`;
    }).join('');

    let sums = '';
    let argument;
    if (mih) {
      const withTable = blocks.filter((x) => x.r != null);
      const bound = sum(withTable.map((x) => x.r + 1));
      sums = `<p class="why-sum">Σ(rᵢ + 1) = ${withTable.map((x) => x.r + 1).join(' + ')} = <strong class="why-bound">${bound}</strong> ` +
        `&gt; k = ${k} · the differing bits per substring: ${blocks.map((x) => x.diff).join(' + ')} = <strong>${m.distance}</strong> ≤ k</p>`;
      argument = `If every substring i differed in more than its radius rᵢ, the two fingerprints would differ in at least ` +
        `Σ(rᵢ + 1) = ${bound} > k = ${k} bits. So a stored fingerprint within k differs in at most rᵢ bits in some ` +
        `substring i, and table Tᵢ's probes, every bucket within rᵢ of the query's, reach it: nothing within k is ever missed. ` +
        `Here ${plural(m.distance, 'differing bit')} fall ${blocks.map((x) => x.diff).join(', ')} into ${names(blocks)}; ` +
        `${guaranteed.length ? `${names(guaranteed.map((x) => blocks[x.t.blocks[0]]))} ${guaranteed.length === 1 ? 'is' : 'are'} within ` +
          `${guaranteed.length === 1 ? 'its radius' : 'their radii'}` : 'none is within its radius'}.`;
    } else if (kind === 'permuted') {
      const nk = plan.tables[0]?.blocks.length ?? 0;
      const everyChoice = plan.tables.length === binom(n, nk) && nk === n - k;
      const spoiled = blocks.filter((x) => x.diff > 0);
      argument = `The ${m.distance} differing bits (marked) fall in ${plural(spoiled.length, 'block')}` +
        `${spoiled.length ? ` (${names(spoiled)})` : ''}; the other ${n - spoiled.length} agree exactly. ` +
        (everyChoice
          ? `Wherever up to k = ${k} differing bits fall, they spoil at most ${k} of the ${n} blocks, so ` +
            `at least ${plural(n - k, 'block')} always ${n - k === 1 ? 'agrees' : 'agree'} exactly; and ` +
            `every choice of ${plural(nk, 'block')} is the key of one of the ${plan.tables.length} tables. So some ` +
            "table's key matches the query's exactly, and the stored fingerprint sits in the one bucket of that " +
            'table the query reads: nothing within k is ever missed.'
          : 'Every table whose key lies in the agreeing part holds it in the bucket the query reads.');
    } else {
      const c = plan.tables[0].blocks.length;
      const r = plan.tables[0].radius;
      const q = Math.floor(k / n);
      const t = k % n;
      const least = [...blocks].sort((a, b) => a.diff - b.diff || a.b - b.b).slice(0, c);
      argument = `However k = ${k} = ${q}·${n} + ${t} differing bits fall into ${n} blocks, the ${c} least spoiled hold at most ` +
        `${c}·${q} + max(0, ${t} + ${c} − ${n}) = ${r} of them, and every choice of ${c} blocks keys a table probed within ` +
        `radius ${r}. Here the least spoiled, ${names(least)}, differ in ${least.map((x) => x.diff).join(' + ')} = ` +
        `${sum(least.map((x) => x.diff))} ≤ ${r} bits: nothing within k is ever missed.`;
    }
    // Tables that reached the match beyond the guarantee: their key differs in more than the
    // radius, but few enough of those bits are bucket bits (the rest is left to the distance check).
    const extra = tables.filter((x) => !x.guaranteed && foundTables.includes(x.i));
    const one = extra.length === 1;
    const extraText = extra.length
      ? ` ${T(extra)} found it too: ${one ? 'its key differs' : 'their keys differ'} in more bits than the radius ` +
        `(${extra.map((x) => `${x.keyDiff} > ${x.t.radius}`).join(', ')}), but no more than the radius of them fall among ` +
        `the ${one ? `${extra[0].t.bucketBits} bucket bits its` : 'bucket bits their'} probes flip ` +
        `(${extra.map((x) => x.bucketDiff.length).join(', ')}): a probe reaches a whole bucket, and the bits past it are left ` +
        'to the distance check.'
      : '';
    box.innerHTML = `
      <p class="why-head">Query against <strong>#${m.id}</strong>${doc?.copyOf == null && byId.get(Number(s.pick))?.copyOf === m.id
        ? ' (the original of the planted copy)' : ''}: <strong>d = ${m.distance}</strong> bits differ, k = ${k}.</p>
      <div class="why-blocks" role="list">${boxHtml}
      </div>${sums}
      <p class="why-text">${argument}</p>
      <p class="why-tables">${kind === 'permuted' ? 'Keys that agree here' : 'Within radius here'}: ` +
        `<strong class="why-guaranteed">${T(guaranteed) || 'none'}</strong> · explainQuery found #${m.id} in: ` +
        `<strong class="why-found">${foundTables.map((t) => `T${t}`).join(', ') || 'the scanned buffer'}</strong>` +
        `${found.length ? `, by the probes ${found.map(probeChip).join(' ')}` : ''}.${extraText}</p>`;
  }

  function renderTiming({ candidates, timing }) {
    const line = $('ix-timing');
    if (!s.qfp || !s.docs.length) {
      line.textContent = !s.docs.length ? 'Add documents, then type or pick a query.' : 'Type a query or pick a planted near-duplicate.';
      line.dataset.timed = 'false';
      return;
    }
    const distinct = new Set(candidates.map((c) => c.id)).size;
    const summary = `Examined ${candidates.length} bucket entr${candidates.length === 1 ? 'y' : 'ies'} ` +
      `(${plural(distinct, 'distinct document')}) of ${s.index.size} stored.`;
    line.textContent = timing
      ? `${summary} index.query: ${fmt(Number(timing.q.us.toFixed(2)))} µs per query (mean of ${timing.q.reps} runs); ` +
        `a linear scan() of all ${timing.n}: ${fmt(Number(timing.s.us.toFixed(2)))} µs.`
      : `${summary} Timing once typing pauses…`;
    line.dataset.timed = String(Boolean(timing));
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
    work.request(true);
  });
  $('ix-clear').addEventListener('click', () => {
    byId.clear();
    s.pick = '';
    rebuild({ docs: [], fps: new Map() });
    work.request(true);
  });
  pick.addEventListener('input', () => choose(pick.value));
  query.addEventListener('input', () => {
    s.query = query.value;
    // A picked copy stays named only while its text is the query.
    if (s.pick && byId.get(Number(s.pick))?.text !== s.query) ui.set({ pick: '' });
    work.request();
  });
  $('ix-docs-details').addEventListener('toggle', () => $('ix-docs-details').open && renderDocList());
  kRange.addEventListener('input', () => {
    rebuild({ k: Number(kRange.value), kAuto: false });
    work.request(true);
  });
  $('ix-k-auto').addEventListener('input', () => {
    s.kAuto = $('ix-k-auto').checked;
    if (s.kAuto && s.recommended != null) rebuild({ k: Math.min(maxK(s.width), s.recommended) });
    ui.set({});
    work.request(true);
  });
  $('ix-plan-choice').addEventListener('input', () => {
    rebuild({ want: $('ix-plan-choice').value });
    work.request(true);
  });
  $('ix-width').addEventListener('input', () => {
    const width = Number($('ix-width').value);
    const all = fingerprintAll(s.docs.map((d) => d.text), width);
    const k = Math.min(maxK(width), s.kAuto && s.query.trim() ? recommendedK(s.query, width) : s.k);
    rebuild({ width, k, fps: new Map(s.docs.map((d, i) => [d.id, all[i]])) });
    work.request(true);
  });
  $('ix-matches').addEventListener('click', (e) => {
    const button = e.target.closest('button.why');
    if (!button) return;
    ui.set({ explainId: Number(button.dataset.id) });
    $('ix-why-box').scrollIntoView({ block: 'nearest' });
  });
  $('ix-options').addEventListener('submit', (e) => e.preventDefault());

  let shown = false;
  return {
    async show() {
      if (shown) return;
      shown = true;
      // Until a query says otherwise, k is the library's default for a new Index.
      rebuild({ k: libDefaults().index.k });
      await addSample();
    },
  };
}
