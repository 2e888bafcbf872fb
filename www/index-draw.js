// The index view's renderers: each draws one part of the view's state (view-index.js) and asks
// the library for anything it shows: keys and block values from Plan.keys, distances from
// hamming, bits from toBinary, probes and tables from Index.plan() and explainQuery.
import { Plan, hamming, pairK, toBinary } from '../pkg/simprint.js';
import { $, escapeHtml, setHtml } from './common.js';
import {
  GROUPS,
  blockStyle,
  describePlan,
  maxK,
  micros,
  planKey,
  planOptions,
  plural,
  probeChip,
  radiiOf,
  snippet,
} from './index-helpers.js';

const SHOWN = 60; // rejected candidates listed
const HITS_SHOWN = 3; // ids listed per probe

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** The attributes of block b's coloured segment (of n blocks). */
function seg(b, n, extra = '', style = '') {
  const { hue, striped } = blockStyle(b, n);
  return `class="seg${striped ? ' striped' : ''}${extra}" style="--h:${hue};${style}"`;
}

/** The library's keys of `fp` under an explicit plan: one per table (a BigInt each). */
function keysOf(width, k, choice, fp) {
  const plan = new Plan({ width, k, ...planOptions(choice) });
  try {
    return plan.keys(fp);
  } finally {
    plan.free();
  }
}

export function renderDocs({ docs, index, sample }) {
  const copies = docs.filter((d) => d.copyOf != null).length;
  $('ix-count').textContent = index
    ? `(${index.size} stored${copies ? `, ${copies} of them planted near-duplicates` : ''}; ${plural(index.segments, 'segment')})`
    : '';
  const stored = docs.some((d) => d.lang !== 'typed');
  const button = $('ix-add-sample');
  button.disabled = !sample || stored;
  button.textContent = stored
    ? 'The sample is stored'
    : sample
      ? `Add the bundled sample (${sample.documents.length} texts)`
      : 'Add the bundled sample';
  $('ix-attribution').textContent = sample?.attribution ?? '';
}

export function renderDocList({ docs }) {
  setHtml(
    $('ix-docs'),
    docs
      .map((d) => {
        const copy =
          d.copyOf != null
            ? ` <span class="tag">copy of #${d.copyOf}: ${d.edits.map(([a, b]) => `${escapeHtml(a)}→${escapeHtml(b)}`).join(', ')}</span>`
            : '';
        return `<li><span class="doc-id">#${d.id}</span> <span class="lang">${d.lang}</span> ${escapeHtml(snippet(d.text))}${copy}</li>`;
      })
      .join(''),
  );
}

/** The planted copies, each with its distance to its original (hamming) and whether k reaches it. */
export function renderPicker({ docs, fps, pick, k }, { byId }) {
  const sel = $('ix-pick');
  const copies = docs.filter((d) => d.copyOf != null && byId.has(d.copyOf));
  sel.disabled = copies.length === 0;
  if (!copies.length) {
    setHtml(sel, '<option value="">(add the sample first)</option>');
    return;
  }
  setHtml(
    sel,
    `<option value="">(choose one)</option>${copies
      .map((d) => {
        const d0 = hamming(fps.get(d.id), fps.get(d.copyOf));
        return (
          `<option value="${d.id}" data-distance="${d0}">#${d.id} (${d.lang}), copy of #${d.copyOf}: d ${d0}` +
          `${d0 <= k ? ' ✓' : ''}</option>`
        );
      })
      .join('')}`,
  );
  sel.value = pick;
}

export function renderK({ k, kAuto, recommended, pairMax, width, tolerance }) {
  const range = $('ix-k');
  range.max = String(maxK(width));
  range.value = String(k);
  $('ix-k-value').textContent = String(k);
  $('ix-k-auto').checked = kAuto;
  setHtml(
    $('ix-k-note'),
    recommended == null
      ? 'Type or pick a query to see the k the library recommends for it.'
      : `recommendedK(query) at ${tolerance} % = <strong>${recommended}</strong>${
          kAuto
            ? k === recommended
              ? ': k follows it'
              : `: k follows it up to the slider's end, ${k}`
            : k === recommended
              ? ', the k set here'
              : `; k is set here to ${k}`
        }. That is the one-text rule, for a query whose matches' sizes are unknown. Under the ` +
          `pair rule (the Workers' and <code>simprint dedup</code>'s default) an index is asked at ` +
          `pairK(n, n) = <strong>${pairMax}</strong> for the query's n distinct features, and each ` +
          'match is kept only within the pairK of both sizes (the compare view shows it for two texts).',
  );
}

export function renderChoices({ choices, choice, auto }) {
  const sel = $('ix-plan-choice');
  const kinds = [...new Set(choices.map((c) => c.kind))];
  setHtml(
    sel,
    kinds
      .map(
        (kind) =>
          `<optgroup label="${GROUPS[kind]}">${choices
            .filter((c) => c.kind === kind)
            .map(
              (c) =>
                `<option value="${c.key}"${c.key === auto?.key ? ' data-planner="true"' : ''}>` +
                `${c.key === auto?.key ? '★ ' : ''}${c.label}</option>`,
            )
            .join('')}</optgroup>`,
      )
      .join(''),
  );
  sel.value = choice;
}

const ns = (nanos) => micros(nanos / 1000);

/** What the drawn plan is, and whether it is the one the library would pick, with its prices. */
export function renderPlanHelp({ plan, auto, scanEstimate }) {
  if (!plan) return;
  const n = plan.blocks.length;
  const keyBits = plan.tables.map((t) => t.keyBits);
  const bits =
    Math.min(...keyBits) === Math.max(...keyBits)
      ? `${keyBits[0]}`
      : `${Math.min(...keyBits)} to ${Math.max(...keyBits)}`;
  const bb = plan.tables[0]?.bucketBits ?? 0;
  const buckets = plan.size
    ? ` A table's buckets are numbered by the top ${plural(bb, 'bit')} of its key (bucketBits, about log₂ of the ${plan.size} stored).`
    : '';
  const text = {
    scan: 'This plan has no tables: every query checks every stored fingerprint.',
    permuted:
      `${plural(n, 'block')} of the ${plan.width} bits and ${plural(plan.tables.length, 'table')}, one per choice of ` +
      `${plural(plan.tables[0]?.blocks.length ?? 0, 'block')}. Each table moves its blocks to the front as its key ` +
      `(${bits} bits) and files every fingerprint under it; a query reads one bucket per table: its own key, exactly.${buckets}`,
    multiIndex:
      `${plural(n, 'substring')} of the ${plan.width} bits, one table each keyed by the substring (${bits} bits), ` +
      `probed within its radius: a query reads its own bucket and every bucket up to rᵢ bits away, ` +
      `${plural(plan.estimate.probes, 'probe')} in all.${buckets}`,
    combined:
      `${plural(n, 'block')} and a table for each choice of ${plan.tables[0]?.blocks.length} of them ` +
      `(keys of ${bits} bits), all probed within radius ${plan.tables[0]?.radius}: ${plural(plan.estimate.probes, 'probe')} in all.${buckets}`,
  }[plan.kind];
  const mine = `${ns(plan.estimate.nanos)} a query`;
  const verdict = !auto
    ? ''
    : auto.key === planKey(plan)
      ? `<p class="verdict verdict-same" id="ix-planner">★ <code>new Index({ k: ${plan.k} })</code> with these ` +
        `${plural(auto.plan.size, 'fingerprint')} picks this plan itself: its cost model prices a query at ${mine} this way` +
        `${plan.kind === 'scan' ? '' : `, against ${ns(scanEstimate.nanos)} by a scan`}.</p>`
      : `<p class="verdict verdict-other" id="ix-planner" role="note"><strong>Not the library's choice at this size:</strong> ` +
        `<code>new Index({ k: ${plan.k} })</code> with these ${plural(auto.plan.size, 'fingerprint')} picks ` +
        `<strong>${describePlan(auto.plan)}</strong> (★), priced at ${ns(auto.plan.estimate.nanos)} a query against ${mine} ` +
        'for the plan drawn. The page builds the drawn plan on purpose, to show it working; “Tables or a scan?” below ' +
        'shows the size from which the library would pick tables.</p>';
  setHtml(
    $('ix-plan-help'),
    `<p class="help">${text} The page builds this plan explicitly and calls compact() so that ` +
      `the tables are used.</p>${verdict}`,
  );
}

/**
 * The plan: the blocks (substrings with their radii), then one row per table with what the
 * query examined in it. Permuted and combined keys are drawn with their blocks moved to the
 * front, as the paper draws them; a multi-index table keys its substring where it lies.
 */
export function renderPlan({ plan, candidates }) {
  const box = $('ix-plan');
  if (!plan) return setHtml(box, '');
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
    const title = `${mih ? 'substring' : 'block'} ${b}: bits ${start}–${start + len - 1}${mih ? (r == null ? ', no table' : `, probed within ${r}`) : ''}`;
    return (
      `<span ${seg(b, n, key ? ' in-key' : '', `flex-grow:${len}`)} data-block="${b}" data-start="${start}" ` +
      `data-len="${len}"${mih ? ` data-radius="${r ?? ''}"` : ''} title="${title}"><span class="seg-label">${name}${b}` +
      `${mih && key ? ` r${r ?? '–'}` : ''}</span></span>`
    );
  };
  let html =
    '<div class="plan-row plan-blocks"><span class="plan-label">bits</span><span class="segs">' +
    plan.blocks.map((_, b) => block(b, true)).join('') +
    `</span><span class="plan-stat">${plan.width} bits in ${plural(n, mih ? 'substring' : 'block')}</span></div>`;
  plan.tables.forEach((t, i) => {
    const order = mih
      ? plan.blocks.map((_, b) => b)
      : [...t.blocks, ...plan.blocks.map((_, b) => b).filter((b) => !t.blocks.includes(b))];
    const stat = perTable.get(i);
    const probes =
      t.radius >= t.bucketBits && t.bucketBits ? 'read whole' : plural(t.probes, 'probe');
    html +=
      `<div class="plan-row" data-table="${i}" data-radius="${t.radius}" data-probes="${t.probes}">` +
      `<span class="plan-label">T${i}</span><span class="segs">${order.map((b) => block(b, t.blocks.includes(b))).join('')}</span>` +
      `<span class="plan-stat">key ${t.keyBits} bits · ${t.radius ? `radius ${t.radius}` : 'exact'} · ${probes}` +
      `${stat ? ` · <strong>${stat.examined}</strong> examined, <strong>${stat.accepted}</strong> kept` : ''}</span></div>`;
  });
  setHtml(
    box,
    `<p class="plan-count">${plural(plan.tables.length, 'table')}${plan.tables.length ? ` (T0–T${plan.tables.length - 1})` : ''}</p>` +
      `<div class="plan-scroll" tabindex="0" role="region" aria-label="The plan's blocks and tables">${html}` +
      '<p class="plan-more" aria-hidden="true"></p></div>',
  );
}

/** When a list of tables scrolls, says how many rows are still below. */
export function updateMore(view) {
  for (const scroller of view.querySelectorAll('.plan-scroll')) {
    const more = scroller.querySelector('.plan-more');
    if (!more) continue;
    const bottom = scroller.scrollTop + scroller.clientHeight;
    const hidden = [...scroller.querySelectorAll('[data-table]:is(.plan-row, .probe-row)')].filter(
      (row) => row.offsetTop + row.offsetHeight / 2 > bottom,
    );
    more.hidden = hidden.length === 0;
    if (hidden.length) {
      more.textContent = `▼ ${plural(hidden.length, 'more table')} below (T${hidden[0].dataset.table}–T${hidden.at(-1).dataset.table}): scroll`;
    }
    scroller.classList.toggle('has-more', hidden.length > 0);
  }
}

export function renderResults(
  { qfp, matches, candidates, query: text, pick, explainId, index, qFeatures, tolerance, width },
  { byId },
) {
  const matchBody = $('ix-matches').tBodies[0];
  const rejectBody = $('ix-rejected').tBodies[0];
  if (!qfp) {
    setHtml(matchBody, '');
    setHtml(rejectBody, '');
    $('ix-match-count').textContent = '';
    $('ix-rejected-count').textContent = '';
    return;
  }
  const probesOf = new Map(); // id → what explainQuery says found it
  for (const c of candidates) {
    if (!probesOf.has(c.id))
      probesOf.set(c.id, { distance: c.distance, accepted: c.accepted, found: [] });
    probesOf.get(c.id).found.push(c);
  }
  const chips = (id) => probesOf.get(id)?.found.map(probeChip).join(' ') ?? '';
  const picked = byId.get(Number(pick));
  // The pair rule, as the Workers apply it to an index's matches: each kept only within pairK
  // of the query's and its own distinct features (the library's answer, per row).
  const pair = (m) => {
    const n = byId.get(m.id).features;
    if (qFeatures == null || n == null) return '';
    let k;
    try {
      k = pairK(qFeatures, n, { width, tolerance: tolerance / 100 });
    } catch {
      return ''; // a tolerance the library refuses: its message is in the status line
    }
    const kept = m.distance <= k;
    return `<span class="pair-${kept ? 'kept' : 'refused'}" title="pairK(${qFeatures}, ${n}) = ${k}: ${kept ? 'kept' : 'refused for its size'}">${k} ${kept ? '✓' : '✗'}</span>`;
  };
  const note = (id) => {
    const d = byId.get(id);
    if (d.text === text) return ' <span class="tag">the query itself</span>';
    if (picked && picked.text === text && picked.copyOf === id)
      return ' <span class="tag tag-good">the original of the planted copy</span>';
    if (d.copyOf != null) return ` <span class="tag">planted copy of #${d.copyOf}</span>`;
    return '';
  };
  setHtml(
    matchBody,
    matches
      .map(
        (m) =>
          `<tr data-id="${m.id}"${m.id === explainId ? ' class="explained"' : ''}>` +
          `<td class="num">${m.id}</td><td class="num">${m.distance}</td><td class="num pair">${pair(m)}</td><td class="found-by">${chips(m.id)}</td>` +
          `<td><span class="snippet">${escapeHtml(snippet(byId.get(m.id).text))}</span>${note(m.id)}</td>` +
          `<td>${m.distance > 0 ? `<button type="button" class="why" data-id="${m.id}" aria-label="Why #${m.id} was found">why?</button>` : ''}</td></tr>`,
      )
      .join('') || `<tr><td colspan="6" class="empty">Nothing within k = ${index.k}.</td></tr>`,
  );
  $('ix-match-count').textContent = `(${matches.length} within k = ${index.k})`;
  const rejected = [...probesOf]
    .filter(([, c]) => !c.accepted)
    .sort((a, b) => a[1].distance - b[1].distance || a[0] - b[0]);
  setHtml(
    rejectBody,
    rejected
      .slice(0, SHOWN)
      .map(
        ([id, c]) =>
          `<tr data-id="${id}"><td class="num">${id}</td>` +
          `<td class="num">${c.distance}</td><td class="found-by">${chips(id)}</td>` +
          `<td><span class="snippet">${escapeHtml(snippet(byId.get(id).text))}</span></td></tr>`,
      )
      .join('') ||
      '<tr><td colspan="4" class="empty">None: every candidate was within k.</td></tr>',
  );
  $('ix-rejected-count').textContent =
    `(${rejected.length}${rejected.length > SHOWN ? `, the closest ${SHOWN} listed` : ''})`;
}

/**
 * The probes of each table for this query: the query's key (its bucket bits underlined) from
 * Plan.keys, then its own bucket and every probe explainQuery says found something, in the
 * order the query examined them, each with what it found; the rest of plan()'s count summed.
 */
export function renderProbes({ plan, qfp, candidates, choice }) {
  const box = $('ix-probes');
  if (!plan || !qfp || plan.scan) {
    setHtml(
      box,
      `<p class="help">${
        !plan || plan.scan
          ? 'A scan has no tables to probe: it checks every stored fingerprint.'
          : 'Pick or type a query to see the buckets each table reads.'
      }</p>`,
    );
    return;
  }
  const keys = keysOf(plan.width, plan.k, choice, qfp);
  const hits = (found) => {
    if (!found?.length) return '<span class="probe-none">nothing</span>';
    const sorted = [...found].sort((a, b) => b.accepted - a.accepted || a.distance - b.distance);
    return (
      sorted
        .slice(0, HITS_SHOWN)
        .map(
          (c) =>
            `<span class="hit${c.accepted ? ' kept' : ''}" data-id="${c.id}">` +
            `#${c.id} <span class="hit-d">d ${c.distance}</span> ${c.accepted ? '✓' : '✗'}</span>`,
        )
        .join(' ') +
      (sorted.length > HITS_SHOWN
        ? ` <span class="hit-more">+${sorted.length - HITS_SHOWN}</span>`
        : '')
    );
  };
  const mih = plan.kind === 'multiIndex';
  const rows = plan.tables.map((t, i) => {
    const bb = t.bucketBits;
    const keyBits = toBinary(keys[i], t.keyBits);
    const head =
      `<span class="plan-label">T${i}</span><span class="probe-head">` +
      `${mih ? `S${t.blocks[0]}` : t.blocks.map((b) => `B${b}`).join('+')} · ${t.radius ? `radius ${t.radius}` : 'exact'} · ` +
      `<strong class="probe-count">${plural(t.probes, 'probe')}</strong> <code class="probe-key" aria-label="the query's key in T${i}">` +
      `<span class="bucket-part">${keyBits.slice(0, bb)}</span>${keyBits.slice(bb)}</code></span>`;
    const mine = candidates.filter((c) => c.table === i);
    if (t.radius >= bb) {
      return (
        `<div class="probe-row" data-table="${i}" data-probes="${t.probes}">${head}<ul class="probe-list">` +
        `<li class="probe" data-flipped="">${
          bb
            ? `radius ${t.radius} ≥ its ${bb} bucket bits: one read of the whole table`
            : 'one bucket (no bucket bits yet)'
        } → ${hits(mine)}</li></ul></div>`
      );
    }
    // The probes that found something, in explainQuery's order, with the query's own bucket first.
    const byProbe = new Map([['', []]]);
    for (const c of mine) {
      const f = c.probe.flipped.join(',');
      if (!byProbe.has(f)) byProbe.set(f, []);
      byProbe.get(f).push(c);
    }
    const own = keyBits.slice(0, bb);
    const li = [...byProbe]
      .map(([f, found]) => {
        const bucket = found[0]?.probe.bucket;
        // The bucket read, as the library numbers it; the bits that differ from the query's own marked.
        const bits =
          bucket == null
            ? own
            : [...toBinary(BigInt(bucket), bb)]
                .map((x, j) => (x === own[j] ? x : `<mark>${x}</mark>`))
                .join('');
        return (
          `<li class="probe${found.some((c) => c.accepted) ? ' finds' : ''}" data-flipped="${f}"` +
          `${bucket != null ? ` data-bucket="${bucket}"` : ''}><code class="probe-bits">${bits}</code> ` +
          `<span class="probe-what">${f ? `bit${f.includes(',') ? 's' : ''} ${f.replaceAll(',', ', ')} flipped` : 'its own bucket'}` +
          `${bucket != null ? ` (bucket ${bucket})` : ''}</span> → ${hits(found)}</li>`
        );
      })
      .join('');
    const more = t.probes - byProbe.size;
    const tail =
      more > 0
        ? `<li class="probe-rest">+ ${plural(more, 'more probe')} within radius ${t.radius}: nothing found</li>`
        : '';
    return (
      `<div class="probe-row" data-table="${i}" data-probes="${t.probes}" data-listed="${byProbe.size}">${head}` +
      `<ul class="probe-list">${li}${tail}</ul></div>`
    );
  });
  setHtml(
    box,
    `<p class="plan-count">${plural(sum(plan.tables.map((t) => t.probes)), 'probe')} in ${plural(plan.tables.length, 'table')}</p>` +
      `<div class="plan-scroll probe-scroll" tabindex="0" role="region" aria-label="The probes of each table">${rows.join('')}` +
      '<p class="plan-more" aria-hidden="true"></p></div>',
  );
}
