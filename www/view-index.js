// View 4: documents in an Index, its plan drawn, queries explained, and why a query within k of
// a stored fingerprint is always found. One state object holds the inputs and the library's
// answers (the Index, its plan, the matches and the candidates explainQuery examined); small
// renderers draw it.
import { Fingerprinter, Index, hamming, recommendedK, scan, toBinary } from '../pkg/simprint.js';
import { $, escapeHtml, fmt, libDefaults, plural, responsive, showStatus, viewState } from './common.js';

const MAX_TABLES = 70; // plans with more tables are not offered: too many rows to draw
// The slider's top: 24 at 64 bits (25 blocks of 2-3 bits), in proportion at other widths.
const maxK = (width) => Math.min(width - 1, Math.round((3 * width) / 8));
const SNIPPET = 110;
const SHOWN = 60; // rejected candidates listed
const TIMING_PAUSE = 600; // ms of quiet before the page times a query (timing blocks the page)
// The planted copy the page opens with: the reviewer's example, when the sample has it.
const FIRST_COPY = 300;

const snippet = (t) => (t.length > SNIPPET ? `${t.slice(0, SNIPPET)}…` : t);
const gcd = (a, b) => (b ? gcd(b, a % b) : a);

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

/** The plans the library accepts for (width, k): blocks from k + 1 up while the tables stay drawable. */
function planChoices(width, k) {
  const choices = [];
  for (let blocks = k + 1; blocks <= Math.min(width, k + 4); blocks++) {
    let index;
    try {
      index = new Index({ width, k, blocks });
      const tables = index.plan().tables.length;
      if (choices.length && tables > MAX_TABLES) break;
      choices.push({ blocks, tables });
    } catch {
      break;
    } finally {
      index?.free();
    }
  }
  return choices;
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
    blocks: null,
    docs: [], // { id, text, lang, copyOf?, edits? }
    sample: null,
    query: '',
    pick: '',
    explainId: null, // the match the pigeonhole drawing is about
    // The library's answers.
    fps: new Map(), // id → fingerprint at the width
    index: null,
    plan: null,
    choices: [],
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
    [['choices', 'blocks'], renderChoices],
    [['plan'], renderPlanHelp],
    [['plan', 'candidates'], renderPlan],
    // The query's text is read with its answers: they change together.
    [['matches', 'candidates', 'docs', 'pick'], renderResults],
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

  /** A new Index with the chosen plan holding every document, compacted so the tables are used. */
  function rebuild(patch = {}) {
    Object.assign(s, patch);
    const choices = planChoices(s.width, s.k);
    const blocks = choices.some((c) => c.blocks === s.blocks) ? s.blocks : choices[0]?.blocks;
    let index = null;
    let plan;
    try {
      index = new Index({ width: s.width, k: s.k, blocks });
      if (s.docs.length) {
        index.insertMany(s.docs.map((d) => d.id), s.docs.map((d) => s.fps.get(d.id)));
        // Small sets sit in a scanned insert buffer; merging them into one segment uses the tables.
        index.compact();
      }
      plan = index.plan();
    } catch (error) {
      index?.free();
      ui.set({ error });
      return;
    }
    s.index?.free();
    clearTimeout(timingTimer);
    // The old answers belonged to the old index: they go with it until the query runs again.
    ui.set({
      index, plan, choices, blocks, error: null, qfp: null, matches: [], candidates: [], timing: null,
    });
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

  function renderChoices({ choices, blocks }) {
    const sel = $('ix-blocks');
    sel.innerHTML = choices.map((c) => `<option value="${c.blocks}">${c.blocks} → ${plural(c.tables, 'table')}</option>`).join('');
    sel.value = String(blocks);
  }

  function renderPlanHelp({ plan }) {
    if (!plan) return;
    const nk = plan.tables[0]?.blocks.length ?? 0; // blocks per key
    const keyBits = plan.tables.map((t) => t.keyBits);
    const lo = Math.min(...keyBits);
    const hi = Math.max(...keyBits);
    $('ix-plan-help').textContent = plan.scan
      ? 'This plan has no tables: every query scans.'
      : `${plural(plan.blocks.length, 'block')} of the ${plan.width} bits and ${plural(plan.tables.length, 'table')}. ` +
        `Each table moves ${plural(nk, 'block')} to the front as its key (${lo === hi ? lo : `${lo} to ${hi}`} bits) ` +
        'and files every fingerprint under that key; a query looks in one bucket per table. A real index plans ' +
        'itself by size (new Index({ k }) without blocks) and keeps small sets in a scanned buffer; this page ' +
        'fixes the plan and calls compact() so that the tables are used.';
  }

  /** The plan: the blocks, then one row per table with its key blocks first, as the paper draws it. */
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
    const label = (b) => {
      const { start, len } = plan.blocks[b];
      return ` title="block ${b}: bits ${start}–${start + len - 1}"><span class="seg-label">B${b}</span>`;
    };
    const block = (b, key) => `<span ${seg(b, n, key ? ' in-key' : '', `flex-grow:${plan.blocks[b].len}`)} ` +
      `data-block="${b}"${label(b)}</span>`;
    let html = '<div class="plan-row plan-blocks"><span class="plan-label">bits</span><span class="segs">' +
      plan.blocks.map((_, b) => block(b, true)).join('') + '</span><span class="plan-stat">' +
      `${plan.width} bits in ${plural(n, 'block')}</span></div>`;
    plan.tables.forEach((t, i) => {
      const rest = plan.blocks.map((_, b) => b).filter((b) => !t.blocks.includes(b));
      const stat = perTable.get(i);
      const radius = t.radius ? ` · probed within ${t.radius}` : '';
      html += `<div class="plan-row" data-table="${i}"><span class="plan-label">T${i}</span><span class="segs">` +
        t.blocks.map((b) => block(b, true)).join('') + rest.map((b) => block(b, false)).join('') +
        `</span><span class="plan-stat">key ${t.keyBits} bits${radius}${stat ? ` · <strong>${stat.examined}</strong> examined · ` +
        `<strong>${stat.accepted}</strong> kept` : ''}</span></div>`;
    });
    box.innerHTML = `<p class="plan-count">${plural(plan.tables.length, 'table')}` +
      `${plan.tables.length ? ` (T0–T${plan.tables.length - 1})` : ''}</p>` +
      `<div class="plan-scroll" tabindex="0" role="region" aria-label="The plan's blocks and tables">${html}` +
      '<p class="plan-more" aria-hidden="true"></p></div>';
    // Measured in the next frame, with the layout that frame makes anyway.
    requestAnimationFrame(updateMore);
  }

  // When the table list scrolls, say how many rows are still below.
  function updateMore() {
    const scroller = $('ix-plan').querySelector('.plan-scroll');
    const more = scroller?.querySelector('.plan-more');
    if (!more) return;
    const bottom = scroller.scrollTop + scroller.clientHeight;
    const hidden = [...scroller.querySelectorAll('.plan-row[data-table]')]
      .filter((row) => row.offsetTop + row.offsetHeight / 2 > bottom);
    more.hidden = hidden.length === 0;
    if (hidden.length) {
      more.textContent = `▼ ${plural(hidden.length, 'more table')} below (T${hidden[0].dataset.table}–` +
        `T${hidden.at(-1).dataset.table}): scroll`;
    }
    scroller.classList.toggle('has-more', hidden.length > 0);
  }
  $('ix-plan').addEventListener('scroll', updateMore, { capture: true, passive: true });
  new ResizeObserver(() => updateMore()).observe($('ix-plan'));

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
    // Which tables held each id, from explainQuery.
    const tablesOf = new Map();
    for (const c of candidates) {
      if (!tablesOf.has(c.id)) tablesOf.set(c.id, { distance: c.distance, accepted: c.accepted, tables: [] });
      tablesOf.get(c.id).tables.push(c.table == null ? 'scan' : `T${c.table}`);
    }
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
      `<td>${tablesOf.get(m.id)?.tables.join(', ') ?? ''}</td><td><span class="snippet">${escapeHtml(snippet(byId.get(m.id).text))}</span>${note(m.id)}</td>` +
      `<td>${m.distance > 0 ? `<button type="button" class="why" data-id="${m.id}" aria-label="Why #${m.id} was found">why?</button>` : ''}</td></tr>`)
      .join('') || `<tr><td colspan="5" class="empty">Nothing within k = ${s.index.k}.</td></tr>`;
    $('ix-match-count').textContent = `(${matches.length} within k = ${s.index.k})`;

    const rejected = [...tablesOf].filter(([, c]) => !c.accepted).sort((a, b) => a[1].distance - b[1].distance || a[0] - b[0]);
    rejectBody.innerHTML = rejected.slice(0, SHOWN).map(([id, c]) => `<tr data-id="${id}"><td class="num">${id}</td>` +
      `<td class="num">${c.distance}</td><td>${c.tables.join(', ')}</td><td><span class="snippet">${escapeHtml(snippet(byId.get(id).text))}</span></td></tr>`)
      .join('') || '<tr><td colspan="4" class="empty">None: every candidate was within k.</td></tr>';
    $('ix-rejected-count').textContent = `(${rejected.length}${rejected.length > SHOWN ? `, the closest ${SHOWN} listed` : ''})`;
  }

  /**
   * The pigeonhole argument on this query: the match's differing bits spoil at most d ≤ k blocks,
   * so at least b − k blocks agree, and a table keyed by agreeing blocks holds the match in the
   * query's bucket. Which tables did is explainQuery's answer, listed beside the drawing.
   */
  function renderPigeonhole({ plan, qfp, matches, candidates, explainId }) {
    const box = $('ix-why');
    const others = matches.filter((m) => m.distance > 0);
    const m = matches.find((x) => x.id === explainId && x.distance > 0) ?? others[0];
    if (!plan || plan.scan || !qfp || !m) {
      box.innerHTML = `<p class="help">${!s.docs.length ? 'Store documents first.' : !qfp ? 'Pick or type a query.'
        : 'No stored fingerprint other than the query itself lies within k; pick a planted copy to see why ' +
          'one that does is always found.'}</p>`;
      return;
    }
    const width = plan.width;
    const qBits = toBinary(qfp, width);
    const mBits = toBinary(s.fps.get(m.id), width);
    const n = plan.blocks.length;
    // Drawing only: which of the library's bits differ, and in which blocks they fall.
    const blocks = plan.blocks.map(({ start, len }, b) => {
      let diff = 0;
      let q = '';
      let mm = '';
      for (let i = start; i < start + len; i++) {
        const d = qBits[i] !== mBits[i];
        diff += d ? 1 : 0;
        q += d ? `<mark>${qBits[i]}</mark>` : qBits[i];
        mm += d ? `<mark>${mBits[i]}</mark>` : mBits[i];
      }
      return { b, start, len, diff, q, m: mm };
    });
    const spoiled = blocks.filter((x) => x.diff > 0);
    const intact = blocks.filter((x) => x.diff === 0);
    // A table catches the match when its key blocks differ in at most its probe radius (0 here).
    const catching = plan.tables.flatMap((t, i) => {
      const off = t.blocks.reduce((sum, b) => sum + blocks[b].diff, 0);
      return off <= (t.radius ?? 0) ? [i] : [];
    });
    const found = [...new Set(candidates.filter((c) => c.id === m.id && c.table != null).map((c) => c.table))];
    const nk = plan.tables[0]?.blocks.length ?? 0;
    const everyChoice = plan.tables.length === binom(n, nk) && nk === n - plan.k;
    const names = (list) => list.map((x) => `B${x.b}`).join(', ');
    const doc = byId.get(m.id);
    box.innerHTML = `
      <p class="why-head">Query against <strong>#${m.id}</strong>${doc?.copyOf == null && byId.get(Number(s.pick))?.copyOf === m.id
        ? ' (the original of the planted copy)' : ''}: <strong>d = ${m.distance}</strong> bits differ, k = ${plan.k}.</p>
      <div class="why-blocks" role="list">${blocks.map((x) => `
        <div role="listitem" class="why-block ${x.diff ? 'spoiled' : 'intact'}" data-block="${x.b}"
          aria-label="block ${x.b}, bits ${x.start} to ${x.start + x.len - 1}: ${x.diff ? `${plural(x.diff, 'bit')} differ` : 'agrees'}">
          <span ${seg(x.b, n, ' in-key')}><span class="seg-label">B${x.b}</span></span>
          <code class="why-bits" aria-hidden="true"><span class="who">Q</span>${x.q}<br><span class="who">#</span>${x.m}</code>
          <span class="why-verdict">${x.diff ? `✗ ${x.diff}` : '✓'}</span>
        </div>`).join('')}
      </div>
      <p class="why-text">The ${m.distance} differing bits (marked) fall in ${plural(spoiled.length, 'block')}` +
        `${spoiled.length ? ` (${names(spoiled)})` : ''}; the other ${intact.length} agree exactly. ` +
        (everyChoice
          ? `Wherever up to k = ${plan.k} differing bits fall, they spoil at most ${plan.k} of the ${n} blocks, so ` +
            `at least ${plural(n - plan.k, 'block')} always ${n - plan.k === 1 ? 'agrees' : 'agree'} exactly; and ` +
            `every choice of ${plural(nk, 'block')} is the key of one of the ${plan.tables.length} tables. So some ` +
            "table's key matches the query's exactly, and the stored fingerprint sits in the one bucket of that " +
            'table the query reads: nothing within k is ever missed.'
          : 'Every table whose key lies in the agreeing part holds it in the bucket the query reads.') +
      `</p>
      <p class="why-tables">Keys that agree here: <strong>${catching.map((t) => `T${t}`).join(', ') || 'none'}</strong> · ` +
        `explainQuery found #${m.id} in: <strong class="why-found">${found.map((t) => `T${t}`).join(', ') || 'the scanned buffer'}</strong></p>`;
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
  $('ix-blocks').addEventListener('input', () => {
    rebuild({ blocks: Number($('ix-blocks').value) });
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
