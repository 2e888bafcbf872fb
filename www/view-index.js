// View 4: documents into an Index with an explicit plan, the plan drawn, queries explained.
import { Fingerprinter, Index, hamming, scan } from '../pkg/simprint.js';
import { $, escapeHtml, fmt, showStatus } from './common.js';

const MAX_TABLES = 70; // plans with more tables are not offered: too many rows to draw
const SNIPPET = 110;
const SHOWN = 60; // rejected candidates listed

const snippet = (t) => (t.length > SNIPPET ? `${t.slice(0, SNIPPET)}…` : t);

/** The number of tables the library plans for `blocks` blocks, or 0 when it rejects the plan. */
function tablesFor(width, k, blocks) {
  let index;
  try {
    index = new Index({ width, k, blocks });
    return index.plan().tables.length;
  } catch {
    return 0;
  } finally {
    index?.free();
  }
}

/** Mean time of fn in µs: repeated until at least `budget` ms have passed (timers are coarse). */
function timeIt(fn, budget = 8) {
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

export function setup() {
  const status = $('ix-status');
  const widthSel = $('ix-width');
  const kRange = $('ix-k');
  const blocksSel = $('ix-blocks');
  const query = $('ix-query');
  const pick = $('ix-pick');
  const addSample = $('ix-add-sample');
  const docsDetails = $('ix-docs-details');

  let sample = null; // sample.json, fetched when the view is first shown
  let docs = []; // { id, text, lang, copyOf?, edits? }
  const byId = new Map();
  let fps = new Map(); // id → fingerprint at the current width
  let index = null;
  let timer = 0;
  let shown = false;

  const width = () => Number(widthSel.value);
  const k = () => Number(kRange.value);

  function fingerprintAll(texts) {
    const fp = new Fingerprinter({ width: width() });
    try {
      return texts.map((t) => fp.fingerprint(t));
    } finally {
      fp.free();
    }
  }

  function fillBlocks() {
    // Blocks from k + 1 (one table per block, the least memory) up, while the tables stay drawable.
    const old = Number(blocksSel.value) - Number(blocksSel.dataset.k ?? k());
    let html = '';
    for (let b = k() + 1; b <= Math.min(width(), k() + 4); b++) {
      const tables = tablesFor(width(), k(), b);
      if (!tables || (b > k() + 1 && tables > MAX_TABLES)) break;
      html += `<option value="${b}">${b} → ${tables} table${tables === 1 ? '' : 's'}</option>`;
    }
    blocksSel.innerHTML = html;
    const want = k() + (Number.isFinite(old) && old > 0 ? old : 1);
    blocksSel.value = String(want);
    if (blocksSel.selectedIndex < 0) blocksSel.selectedIndex = 0;
    blocksSel.dataset.k = String(k());
  }

  /** A new Index with the chosen plan holding every document, compacted so the tables are used. */
  function rebuild() {
    try {
      index?.free();
      index = null;
      index = new Index({ width: width(), k: k(), blocks: Number(blocksSel.value) });
      if (docs.length) {
        index.insertMany(docs.map((d) => d.id), docs.map((d) => fps.get(d.id)));
        index.compact();
      }
      showStatus(status, null);
    } catch (error) {
      showStatus(status, error);
    }
    drawDocs();
    runQuery();
  }

  function refingerprint() {
    const all = fingerprintAll(docs.map((d) => d.text));
    fps = new Map(docs.map((d, i) => [d.id, all[i]]));
  }

  function add(newDocs) {
    const got = fingerprintAll(newDocs.map((d) => d.text));
    newDocs.forEach((d, i) => {
      docs.push(d);
      byId.set(d.id, d);
      fps.set(d.id, got[i]);
    });
    try {
      if (newDocs.length === 1) index.insert(newDocs[0].id, got[0]);
      else index.insertMany(newDocs.map((d) => d.id), got);
      // Small sets sit in a scanned insert buffer; merging them into one segment uses the tables.
      index.compact();
      showStatus(status, null);
    } catch (error) {
      showStatus(status, error);
    }
  }

  function drawDocs() {
    const copies = docs.filter((d) => d.copyOf != null).length;
    $('ix-count').textContent = index
      ? `(${index.size} stored${copies ? `, ${copies} of them planted near-duplicates` : ''}; ${index.segments} segment${index.segments === 1 ? '' : 's'})`
      : '';
    const stored = docs.some((d) => d.lang !== 'typed');
    addSample.disabled = !sample || stored;
    if (sample) {
      addSample.textContent = stored ? 'The sample is stored' : `Add the bundled sample (${sample.documents.length} texts)`;
    }
    if (docsDetails.open) drawDocList();
    drawPicker();
    drawPlan();
  }

  function drawDocList() {
    $('ix-docs').innerHTML = docs.map((d) => {
      const copy = d.copyOf != null
        ? ` <span class="tag">copy of #${d.copyOf}: ${d.edits.map(([a, b]) => `${escapeHtml(a)}→${escapeHtml(b)}`).join(', ')}</span>`
        : '';
      return `<li><span class="doc-id">#${d.id}</span> <span class="lang">${d.lang}</span> ${escapeHtml(snippet(d.text))}${copy}</li>`;
    }).join('');
  }

  function drawPicker() {
    const copies = docs.filter((d) => d.copyOf != null && byId.has(d.copyOf));
    const keep = pick.value;
    pick.disabled = copies.length === 0;
    if (!copies.length) {
      pick.innerHTML = '<option value="">(add the sample first)</option>';
      return;
    }
    pick.innerHTML = '<option value="">(choose one)</option>' + copies.map((d) => {
      const d0 = hamming(fps.get(d.id), fps.get(d.copyOf));
      return `<option value="${d.id}" data-distance="${d0}">#${d.id}, a copy of #${d.copyOf} (${d.lang}), ` +
        `${d0} bit${d0 === 1 ? '' : 's'} from it</option>`;
    }).join('');
    pick.value = keep;
  }

  function drawPlan(perTable = null) {
    const box = $('ix-plan');
    if (!index) {
      box.replaceChildren();
      return;
    }
    const plan = index.plan();
    const nk = plan.tables[0]?.blocks.length ?? 0; // blocks per key
    const keyBits = plan.tables.map((t) => t.keyBits);
    const lo = Math.min(...keyBits);
    const hi = Math.max(...keyBits);
    $('ix-plan-help').textContent = plan.scan
      ? 'This plan has no tables: every query scans.'
      : `${plan.blocks.length} blocks of the ${plan.width} bits and ${plan.tables.length} tables. Each table ` +
        `moves ${nk} block${nk === 1 ? '' : 's'} to the front as its key (${lo === hi ? lo : `${lo} to ${hi}`} bits). Two ` +
        `fingerprints within k = ${plan.k} differ in at most ${plan.k} blocks, so at least ${nk} block` +
        `${nk === 1 ? ' agrees' : 's agree'} exactly: some table's key matches, and the query looks only in that ` +
        'bucket of each table. A real index plans itself by size (new Index({ k }) without blocks), and ' +
        'keeps small sets in a scanned buffer; this page fixes the plan and calls compact() after adding ' +
        'documents so the tables are used.';
    const seg = (b, key) => {
      const { start, len } = plan.blocks[b];
      return `<span class="seg hue-${b % 8}${key ? ' in-key' : ''}" style="flex-grow:${len}" ` +
        `title="block ${b}: bits ${start}–${start + len - 1}">${len >= 3 || plan.blocks.length <= 16 ? `B${b}` : ''}</span>`;
    };
    let html = '<div class="plan-row plan-blocks"><span class="plan-label">bits</span><span class="segs">' +
      plan.blocks.map((_, b) => seg(b, true)).join('') + '</span><span class="plan-stat">' +
      `${plan.width} bits in ${plan.blocks.length} block${plan.blocks.length === 1 ? '' : 's'}</span></div>`;
    plan.tables.forEach((t, i) => {
      const rest = plan.blocks.map((_, b) => b).filter((b) => !t.blocks.includes(b));
      const stat = perTable?.get(i);
      html += `<div class="plan-row" data-table="${i}"><span class="plan-label">T${i}</span><span class="segs">` +
        t.blocks.map((b) => seg(b, true)).join('') + rest.map((b) => seg(b, false)).join('') +
        `</span><span class="plan-stat">key ${t.keyBits} bits${stat ? ` · <strong>${stat.examined}</strong> examined · ` +
        `<strong>${stat.accepted}</strong> kept` : ''}</span></div>`;
    });
    box.innerHTML = `<div class="plan-scroll">${html}</div>`;
  }

  function runQuery() {
    clearTimeout(timer);
    const matchBody = $('ix-matches').tBodies[0];
    const rejectBody = $('ix-rejected').tBodies[0];
    const clearResults = (why) => {
      matchBody.innerHTML = '';
      rejectBody.innerHTML = '';
      $('ix-match-count').textContent = '';
      $('ix-rejected-count').textContent = '';
      $('ix-timing').textContent = why;
      drawPlan();
    };
    if (!index) return clearResults('');
    if (!index.size) return clearResults('Add documents, then type or pick a query.');
    if (!query.value.trim()) return clearResults('Type a query or pick a planted near-duplicate.');

    let fp;
    let matches;
    let candidates;
    try {
      [fp] = fingerprintAll([query.value]);
      matches = index.query(fp);
      candidates = index.explainQuery(fp);
      showStatus(status, null);
    } catch (error) {
      showStatus(status, error);
      return;
    }

    // Which tables held each id; per-table counts for the plan drawing.
    const tablesOf = new Map();
    const perTable = new Map();
    for (const c of candidates) {
      const t = c.table == null ? 'scan' : `T${c.table}`;
      if (!tablesOf.has(c.id)) tablesOf.set(c.id, { distance: c.distance, accepted: c.accepted, tables: [] });
      tablesOf.get(c.id).tables.push(t);
      if (c.table != null) {
        const s = perTable.get(c.table) ?? { examined: 0, accepted: 0 };
        s.examined += 1;
        s.accepted += c.accepted ? 1 : 0;
        perTable.set(c.table, s);
      }
    }
    const pickedDoc = byId.get(Number(pick.value));
    const note = (id) => {
      const d = byId.get(id);
      if (d.text === query.value) return ' <span class="tag">the query itself</span>';
      if (pickedDoc && pickedDoc.text === query.value && pickedDoc.copyOf === id) {
        return ' <span class="tag tag-good">the original of the planted copy</span>';
      }
      if (d.copyOf != null) return ` <span class="tag">planted copy of #${d.copyOf}</span>`;
      return '';
    };

    matchBody.innerHTML = matches.map((m) => `<tr data-id="${m.id}"><td class="num">${m.id}</td><td class="num">${m.distance}</td>` +
      `<td>${tablesOf.get(m.id)?.tables.join(', ') ?? ''}</td><td><span class="snippet">${escapeHtml(snippet(byId.get(m.id).text))}</span>${note(m.id)}</td></tr>`)
      .join('') || `<tr><td colspan="4" class="empty">Nothing within k = ${index.k}.</td></tr>`;
    $('ix-match-count').textContent = `(${matches.length} within k = ${index.k})`;

    const rejected = [...tablesOf].filter(([, c]) => !c.accepted).sort((a, b) => a[1].distance - b[1].distance || a[0] - b[0]);
    rejectBody.innerHTML = rejected.slice(0, SHOWN).map(([id, c]) => `<tr data-id="${id}"><td class="num">${id}</td>` +
      `<td class="num">${c.distance}</td><td>${c.tables.join(', ')}</td><td><span class="snippet">${escapeHtml(snippet(byId.get(id).text))}</span></td></tr>`)
      .join('') || '<tr><td colspan="4" class="empty">None: every candidate was within k.</td></tr>';
    $('ix-rejected-count').textContent = `(${rejected.length}${rejected.length > SHOWN ? `, the closest ${SHOWN} listed` : ''})`;
    drawPlan(perTable);

    const summary = `Examined ${candidates.length} bucket entr${candidates.length === 1 ? 'y' : 'ies'} ` +
      `(${tablesOf.size} distinct documents) of ${index.size} stored.`;
    $('ix-timing').textContent = `${summary} Timing…`;
    // Timing runs after the results are drawn, so typing stays quick.
    timer = setTimeout(() => {
      const stored = docs.map((d) => fps.get(d.id));
      const words = width() > 64
        ? BigUint64Array.from(stored.flatMap((x) => [x >> 64n, x & 0xffffffffffffffffn]))
        : BigUint64Array.from(stored);
      const q = timeIt(() => index.query(fp));
      const s = timeIt(() => scan(fp, words, index.k, width()));
      $('ix-timing').textContent = `${summary} index.query: ${fmt(Number(q.us.toFixed(2)))} µs per query ` +
        `(mean of ${q.reps} runs); a linear scan() of all ${stored.length}: ${fmt(Number(s.us.toFixed(2)))} µs.`;
      $('ix-timing').dataset.timed = 'true';
    }, 120);
    $('ix-timing').dataset.timed = 'false';
  }

  async function loadSample() {
    if (sample) return sample;
    try {
      const response = await fetch('sample.json');
      if (!response.ok) throw new Error(`sample.json: HTTP ${response.status}`);
      sample = await response.json();
      $('ix-attribution').textContent = sample.attribution;
      addSample.textContent = `Add the bundled sample (${sample.documents.length} texts)`;
      addSample.disabled = false;
    } catch (error) {
      showStatus(status, error);
    }
    return sample;
  }

  addSample.addEventListener('click', async () => {
    if (!(await loadSample())) return;
    const taken = new Set(docs.map((d) => d.id));
    // Sample ids are kept as they are; typed documents are numbered after them.
    add(sample.documents.filter((d) => !taken.has(d.id)).map((d) => ({ ...d })));
    // Query with a planted copy that the current k finds, when there is one.
    drawPicker();
    const options = [...pick.options].filter((o) => o.value);
    const first = options.find((o) => Number(o.dataset.distance) >= 1 && Number(o.dataset.distance) <= k()) ?? options[0];
    if (first && !query.value.trim()) {
      pick.value = first.value;
      query.value = byId.get(Number(first.value)).text;
    }
    drawDocs();
    runQuery();
  });

  $('ix-add').addEventListener('click', () => {
    const text = $('ix-doc').value;
    if (!text.trim()) return;
    // Typed documents are numbered from 10000, clear of the sample's ids.
    const id = Math.max(10000, ...docs.map((d) => d.id + 1));
    add([{ id, text, lang: 'typed' }]);
    $('ix-doc').value = '';
    drawDocs();
    runQuery();
  });

  $('ix-clear').addEventListener('click', () => {
    docs = [];
    byId.clear();
    fps.clear();
    index?.clear();
    pick.value = '';
    drawDocs();
    runQuery();
  });

  pick.addEventListener('input', () => {
    const d = byId.get(Number(pick.value));
    if (d) query.value = d.text;
    runQuery();
  });
  query.addEventListener('input', runQuery);
  docsDetails.addEventListener('toggle', () => docsDetails.open && drawDocList());
  kRange.addEventListener('input', () => {
    $('ix-k-value').textContent = String(k());
    fillBlocks();
    rebuild();
  });
  blocksSel.addEventListener('input', rebuild);
  widthSel.addEventListener('input', () => {
    fillBlocks();
    refingerprint();
    rebuild();
  });
  $('ix-options').addEventListener('submit', (e) => e.preventDefault());

  return {
    show() {
      if (shown) return;
      shown = true;
      $('ix-k-value').textContent = String(k());
      fillBlocks();
      rebuild();
      loadSample();
    },
  };
}
