// The index view's "why a match within k is always found": the query's blocks over the match's,
// each block's differing bits and each table key's (hamming of the library's Plan.keys), the
// pigeonhole argument for the plan's kind, and the tables explainQuery found the match in.
import { Plan, hamming, toBinary } from '../pkg/simprint.js';
import { $, setHtml } from './common.js';
import {
  blockStyle,
  keyPositions,
  planOptions,
  plural,
  probeChip,
  radiiOf,
} from './index-helpers.js';

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** The library's keys of two fingerprints under one plan: per table, [query's, match's]. */
function keyPairs(options, q, m) {
  const plan = new Plan(options);
  try {
    return plan.keys(q).map((kq, t) => [kq, plan.keys(m)[t]]);
  } finally {
    plan.free();
  }
}

/** Why nothing is explained yet, in words: the hint never contradicts what is on the page. */
function hint({ docs, plan, qfp, pick, fps, k, recommended, query, matches }, byId) {
  if (!docs.length) return 'Store documents first.';
  if (plan?.scan) {
    return (
      'This plan scans: every stored fingerprint is checked, so nothing within k can be missed. Choose a plan with ' +
      'tables to see why the tables find it too.'
    );
  }
  if (!qfp) return 'Pick or type a query.';
  const picked = byId.get(Number(pick));
  if (picked?.copyOf != null && picked.text === query) {
    const d0 = hamming(fps.get(picked.id), fps.get(picked.copyOf));
    return (
      `The planted copy #${picked.id} is ${plural(d0, 'bit')} from its original #${picked.copyOf}, beyond k = ${k}: ` +
      'the index promises nothing beyond k, so it need not find it. Set k to ' +
      `${d0} or more` +
      `${recommended != null && recommended >= d0 ? ` (recommendedK(query) = ${recommended} would do)` : ''}, or pick a copy marked ✓ ` +
      '(within k of its original), to see why one within k is always found.'
    );
  }
  const itself = matches.some((m) => m.distance === 0);
  return (
    `No stored fingerprint ${itself ? 'but the query itself ' : ''}lies within k = ${k} of the query; pick a planted ` +
    'copy marked ✓ to see why one within k is always found.'
  );
}

export function renderWhy(s, { byId }) {
  const box = $('ix-why');
  const { plan, qfp, matches, candidates, explainId, fps, choice } = s;
  const others = matches.filter((m) => m.distance > 0);
  const m = matches.find((x) => x.id === explainId && x.distance > 0) ?? others[0];
  if (!plan || plan.scan || !qfp || !m) {
    setHtml(box, `<p class="help why-hint">${hint(s, byId)}</p>`);
    return;
  }
  const { width, k, kind } = plan;
  const mfp = fps.get(m.id);
  const qBits = toBinary(qfp, width);
  const mBits = toBinary(mfp, width);
  const n = plan.blocks.length;
  const mih = kind === 'multiIndex';
  const radii = mih ? radiiOf(plan) : [];
  // Differing bits per block and per table key, counted by the library on the keys it cuts.
  const blockDiff = keyPairs({ width, k: n - 1, substrings: n }, qfp, mfp).map(([a, b]) =>
    hamming(a, b),
  );
  const keyDiff = keyPairs({ width, k, ...planOptions(choice) }, qfp, mfp).map(([a, b]) =>
    hamming(a, b),
  );
  const inBucket = new Set(
    mih ? plan.tables.flatMap((t) => keyPositions(t).slice(0, t.bucketBits)) : [],
  );
  const blocks = plan.blocks.map(({ start, len }, b) => {
    let q = '';
    let mm = '';
    for (let i = start; i < start + len; i++) {
      // Drawing only: the library's two bit strings, marked where they differ.
      const wrap = (x) => (qBits[i] !== mBits[i] ? `<mark>${x}</mark>` : x);
      const under = (x) => (inBucket.has(i) ? `<u>${x}</u>` : x);
      q += under(wrap(qBits[i]));
      mm += under(wrap(mBits[i]));
    }
    return { b, start, len, diff: blockDiff[b], q, m: mm, r: radii[b] };
  });
  const tables = plan.tables.map((t, i) => ({
    i,
    t,
    keyDiff: keyDiff[i],
    guaranteed: keyDiff[i] <= t.radius,
  }));
  const guaranteed = tables.filter((x) => x.guaranteed);
  const found = candidates.filter((c) => c.id === m.id && c.table != null);
  const foundTables = [...new Set(found.map((c) => c.table))];
  const names = (xs) => xs.map((x) => `${mih ? 'S' : 'B'}${x.b}`).join(', ');
  const T = (xs) => xs.map((x) => `T${x.i}`).join(', ');

  const boxHtml = blocks
    .map((x) => {
      const { hue, striped } = blockStyle(x.b, n);
      let cls = x.diff ? 'spoiled' : 'intact';
      let verdict = x.diff ? `✗ ${x.diff}` : '✓';
      let label = x.diff ? `${plural(x.diff, 'bit')} differ` : 'agrees';
      if (mih) {
        const within = x.r != null && x.diff <= x.r;
        cls = x.r == null ? 'spoiled' : within ? 'within' : 'beyond';
        verdict =
          x.r == null
            ? `${x.diff} · no table`
            : `${x.diff} ${within ? '≤' : '>'} r ${x.r} ${within ? '✓' : '✗'}`;
        label = `${plural(x.diff, 'bit')} differ${x.diff === 1 ? 's' : ''}, radius ${x.r ?? 'none'}: ${within ? 'within' : 'beyond'}`;
      }
      return `<div role="listitem" class="why-block ${cls}" data-block="${x.b}" data-diff="${x.diff}"${mih ? ` data-radius="${x.r ?? ''}"` : ''}
        aria-label="${mih ? 'substring' : 'block'} ${x.b}, bits ${x.start} to ${x.start + x.len - 1}: ${label}">
        <span class="seg in-key${striped ? ' striped' : ''}" style="--h:${hue}"><span class="seg-label">${mih ? `S${x.b} r${x.r ?? '–'}` : `B${x.b}`}</span></span>
        <code class="why-bits" aria-hidden="true"><span class="who">Q</span>${x.q}<br><span class="who">#</span>${x.m}</code>
        <span class="why-verdict">${verdict}</span></div>`;
    })
    .join('');

  let sums = '';
  let argument;
  if (mih) {
    const withTable = blocks.filter((x) => x.r != null);
    const bound = sum(withTable.map((x) => x.r + 1));
    sums =
      `<p class="why-sum">Σ(rᵢ + 1) = ${withTable.map((x) => x.r + 1).join(' + ')} = <strong class="why-bound">${bound}</strong> ` +
      `&gt; k = ${k} · the differing bits per substring: ${blocks.map((x) => x.diff).join(' + ')} = <strong>${m.distance}</strong> ≤ k</p>`;
    argument =
      `If every substring i differed in more than its radius rᵢ, the two fingerprints would differ in at least ` +
      `Σ(rᵢ + 1) = ${bound} > k = ${k} bits. So a stored fingerprint within k differs in at most rᵢ bits in some ` +
      `substring i, and table Tᵢ's probes, every bucket within rᵢ of the query's, reach it: nothing within k is ever missed. ` +
      `Here ${plural(m.distance, 'differing bit')} fall ${blocks.map((x) => x.diff).join(', ')} into ${names(blocks)}; ` +
      `${guaranteed.length ? `${T(guaranteed)} ${guaranteed.length === 1 ? 'is' : 'are'} within ${guaranteed.length === 1 ? 'its radius' : 'their radii'}` : 'none is within its radius'}.`;
  } else if (kind === 'permuted') {
    const spoiled = blocks.filter((x) => x.diff > 0);
    const perKey = plan.tables[0]?.blocks.length ?? 0;
    argument =
      `The ${plural(m.distance, 'differing bit')} (marked) fall in ${plural(spoiled.length, 'block')}` +
      `${spoiled.length ? ` (${names(spoiled)})` : ''}; the other ${n - spoiled.length} agree exactly. Wherever up to ` +
      `k = ${k} differing bits fall, they spoil at most ${k} of the ${n} blocks, so at least ${plural(perKey, 'block')} ` +
      `always ${perKey === 1 ? 'agrees' : 'agree'} exactly, and every choice of ${plural(perKey, 'block')} is the key of one ` +
      `of the ${plural(plan.tables.length, 'table')}. So some table's key matches the query's exactly, and the stored ` +
      'fingerprint sits in the one bucket of that table the query reads: nothing within k is ever missed.';
  } else {
    const c = plan.tables[0].blocks.length;
    const r = plan.tables[0].radius;
    const best = tables.reduce((a, b) => (b.keyDiff < a.keyDiff ? b : a));
    argument =
      `Every choice of ${c} of the ${n} blocks keys a table probed within radius ${r}, the least radius at which ` +
      `however k = ${k} differing bits fall, the ${c} least spoiled blocks differ in at most ${r} of them (the library's ` +
      `rule for combined plans). Here T${best.i} (${best.t.blocks.map((b) => `B${b}`).join('+')}) differs in ${best.keyDiff} ≤ ${r}: ` +
      'nothing within k is ever missed.';
  }
  // Tables that reached the match beyond the guarantee: their key differs in more bits than the
  // radius, but the probe flipped only the bucket bits where they differ (explainQuery's flipped).
  const extra = tables.filter((x) => !x.guaranteed && foundTables.includes(x.i));
  const extraText = extra.length
    ? ` ${T(extra)} found it too: ${extra.length === 1 ? 'its key differs' : 'their keys differ'} in more bits than the radius ` +
      `(${extra.map((x) => `${x.keyDiff} > ${x.t.radius}`).join(', ')}), but ${extra.length === 1 ? 'its probe' : 'their probes'} ` +
      `flipped only the bucket bits where they differ (${extra.map((x) => found.find((c) => c.table === x.i).probe?.flipped.length ?? 0).join(', ')}); ` +
      'a probe reaches a whole bucket, and the bits past it are left to the distance check.'
    : '';
  const doc = byId.get(m.id);
  setHtml(
    box,
    `
    <p class="why-head">Query against <strong>#${m.id}</strong>${
      doc?.copyOf == null && byId.get(Number(s.pick))?.copyOf === m.id
        ? ' (the original of the planted copy)'
        : ''
    }: <strong>d = ${m.distance}</strong> bits differ, k = ${k}.</p>
    <div class="why-blocks" role="list">${boxHtml}</div>${sums}
    <p class="why-text">${argument}</p>
    <p class="why-tables">${kind === 'permuted' ? 'Keys that agree here' : 'Within radius here'}: ` +
      `<strong class="why-guaranteed">${T(guaranteed) || 'none'}</strong> · explainQuery found #${m.id} in: ` +
      `<strong class="why-found">${foundTables.map((t) => `T${t}`).join(', ') || 'the scanned buffer'}</strong>` +
      `${found.length ? `, by the probes ${found.map(probeChip).join(' ')}` : ''}.${extraText}</p>`,
  );
}
