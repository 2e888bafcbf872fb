// The Worker past one object (examples/worker-scale: documents routed by table key, its
// src/routing.js) in real workerd through Miniflare: 16 and 64 objects, concurrent load with a restart in the middle, every
// acknowledged document present afterwards, answers equal to a brute-force scan over the
// stored set at each pair's k (K = "pair", as shipped) or each text's own (K = "auto"), each
// check touching at most min(k + 1, OBJECTS) objects (counted by the Worker's
// x-simprint-objects / x-simprint-subrequests headers), a write that fails half way (one
// object down) healed by its home object's alarm or by a retry, and objects of the previous
// version (before feature counts were kept) upgraded in place.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sp from './load.mjs';
import {
  bundle,
  faultyScaleBundle,
  offline,
  root,
  scaleDir,
  secretsFor,
  workerOptions,
} from '../support/workers.mjs';
import { homeOf, mergeById, ownerOf, ownersOf } from '../../examples/worker-scale/src/routing.js';
import { mulberry32 as rng, SYLLABLES } from './support.mjs';
import { defaultMaxK } from '../../examples/worker-scale/src/settings.js';

const { tmp, Miniflare, fromToml } = await offline('simprint-scale-', scaleDir);
const BUNDLE = join(tmp, 'bundle');
bundle(BUNDLE, { dir: scaleDir });
// The same Worker with an object made to fail its first put or removal (tests/support).
const FAULTY = join(tmp, 'faulty-bundle');
faultyScaleBundle(FAULTY, tmp);
const secrets = secretsFor(['alpha']);
const KEY = secrets.key;
const TOKEN = secrets.tokens.alpha;
// Documents are routed and filed for MAX_K; each text is checked at its own k (K = "auto") or
// each pair at pairK of both texts' feature counts (K = "pair", as shipped), at most MAX_K.
const MAX_K = Number(fromToml.bindings.MAX_K ?? defaultMaxK(64));
assert.equal(fromToml.bindings.K, 'pair', 'shipped with the pair rule');
const fingerprinter = new sp.Fingerprinter({ key: KEY });
const kOf = (text) => Math.min(fingerprinter.recommendedK(text), MAX_K);
const featuresOf = (text) => fingerprinter.featureCount(text);
// The pair rule's k of two feature counts, at most MAX_K; the largest is that of equal sizes.
const pairKOf = (a, b) => Math.min(sp.pairK(a, b), MAX_K);
const PAIR_K = pairKOf(1, 1);
// The largest k a text may be checked at with K = "pair" (its own for a document without a
// count): the Worker asks the owners of that many keys + 1.
const reachOf = (text) =>
  Math.min(Math.max(sp.pairK(1, 1), fingerprinter.recommendedK(text)), MAX_K);
const hexDistance = (a, b) => sp.hamming(sp.fromHex(a), sp.fromHex(b));

after(() => rmSync(tmp, { recursive: true, force: true }));

function start(persist, vars, out) {
  const faulty =
    vars.TEST_FAIL_FIRST_PUT_AT !== undefined || vars.TEST_FAIL_FIRST_REMOVE_AT !== undefined;
  return new Miniflare(
    workerOptions(fromToml, out ?? (faulty ? FAULTY : BUNDLE), {
      bindings: {
        ...secrets.bindings,
        EXPOSE_FINGERPRINTS: true,
        RATE_LIMIT_PER_SECOND: 0,
        HEAL_AFTER_MS: 300,
        ...vars,
      },
      persist,
    }),
  );
}

/**
 * A runtime persisting under tmp/`name`, restartable (with `more` vars, kept for later
 * restarts); `out`: another bundle (the previous version's).
 */
async function runtime(name, vars, out) {
  const persist = join(tmp, name);
  const rt = {
    async restart(more = {}) {
      await rt.mf.dispose();
      vars = { ...vars, ...more };
      rt.mf = start(persist, vars, out);
      rt.base = await rt.mf.ready;
    },
    dispose: () => rt.mf.dispose(),
    async call(method, path, body) {
      const init = {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        signal: AbortSignal.timeout(60000),
      };
      if (body !== undefined) init.body = JSON.stringify(body);
      const res = await fetch(new URL(path, rt.base), init);
      const text = await res.text();
      return {
        status: res.status,
        body: JSON.parse(text),
        objects: Number(res.headers.get('x-simprint-objects')),
        calls: Number(res.headers.get('x-simprint-subrequests')),
      };
    },
  };
  rt.mf = start(persist, vars, out);
  rt.base = await rt.mf.ready;
  return rt;
}

// Deterministic texts in clusters: each cluster a base text and variants with a few words
// changed, so that many documents are within k of others and many are not.
const word = (next) =>
  Array.from(
    { length: 1 + Math.floor(next() * 3) },
    () => SYLLABLES[Math.floor(next() * SYLLABLES.length)],
  ).join('');
function corpus(seed, n, prefix) {
  const next = rng(seed);
  const docs = [];
  let base = null;
  for (let i = 0; i < n; i++) {
    if (!base || next() < 0.2)
      base = Array.from({ length: 40 + Math.floor(next() * 40) }, () => word(next));
    const words = [...base];
    for (let c = Math.floor(next() * 4); c > 0; c--)
      words[Math.floor(next() * words.length)] = word(next);
    docs.push({ id: `${prefix}-${i}`, text: `${words.join(' ')}.` });
  }
  return docs;
}

const hex = (text) => sp.toHex(sp.fingerprint(text, { key: KEY }), 64);
/** The Worker's routing plan: MAX_K + 1 substrings, so a near-duplicate shares a key. */
const routingPlan = new sp.Plan({ width: 64, k: MAX_K, substrings: MAX_K + 1 });

/** Runs `jobs` with at most `limit` in flight. */
async function pool(jobs, limit) {
  const results = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await jobs[i]();
      }
    }),
  );
  return results;
}

async function listAll(rt) {
  const ids = [];
  let after = '';
  for (;;) {
    const { status, body } = await rt.call(
      'GET',
      `/documents?limit=1000&after=${encodeURIComponent(after)}`,
    );
    assert.equal(status, 200, JSON.stringify(body));
    ids.push(...body.ids);
    if (body.next === null) return ids;
    after = body.next;
  }
}

/** Waits until no write is left pending or deleting (the homes' alarms have run). */
async function settled(rt, timeoutMs = 20000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const stats = (await rt.call('GET', '/stats')).body;
    if (stats.unsettled === 0) return stats;
    if (Date.now() > until)
      assert.fail(`${stats.unsettled} writes still unsettled after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The stored set (every listed id with its fingerprint and feature count, all in state
 * "stored"), then `queries` checked against a brute-force scan of it under the deployment's K
 * (GET /stats): the same ids at the same distances, with K = "pair" each at pairK of both
 * counts (its `k`), and each check within the bound on objects and sub-requests.
 */
async function checkAgainstBruteForce(rt, queries, objects) {
  const { k: mode } = (await rt.call('GET', '/stats')).body;
  const ids = await listAll(rt);
  const stored = new Map();
  await pool(
    ids.map((id) => async () => {
      const got = await rt.call('GET', `/documents/${encodeURIComponent(id)}`);
      assert.equal(got.status, 200);
      assert.equal(got.body.state, 'stored', id);
      stored.set(id, { fp: got.body.fingerprint, features: got.body.features });
    }),
    16,
  );
  const pair = mode === 'pair';
  // Every object holds part of the stored set: none caps a text's k below MAX_K here, so each
  // pair's k is exactly min(pairK, MAX_K).
  if (pair) assert.ok((sp.collectionK(stored.size) ?? 0) >= MAX_K);
  let most = 0;
  let total = 0;
  await pool(
    queries.map((text) => async () => {
      const q = hex(text);
      const asked = kOf(text);
      const n = featuresOf(text);
      const res = await rt.call('POST', '/check', { text });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const { k } = res.body;
      if (pair) {
        // The largest any document is checked at: the pair k of equal sizes (no document here
        // lacks a count).
        assert.equal(k, PAIR_K);
      } else {
        // Its own k, unless an object asked holds enough documents to cap it (collectionK):
        // never below the cap of the whole stored set, which every object's holdings are part of.
        assert.ok(
          k <= asked && k >= Math.min(asked, sp.collectionK(stored.size) ?? 0),
          `k ${k} for a text asking ${asked}`,
        );
      }
      const reach = pair ? reachOf(text) : asked;
      const bound = Math.min(reach + 1, objects);
      const want = [...stored]
        .map(([id, { fp, features }]) => ({
          id,
          distance: hexDistance(fp, q),
          ...(pair ? { k: pairKOf(n, features) } : {}),
        }))
        .filter((m) => m.distance <= (pair ? m.k : k));
      const merged = mergeById([{ duplicates: want, truncated: false }], 100, {
        stored: false,
        pair,
      });
      assert.deepEqual(res.body.duplicates, merged.duplicates, `check of ${q}`);
      assert.equal(
        res.body.original,
        want.length === 0,
        'a dry run is original when nothing is found',
      );
      // The owners of its first k + 1 routing keys (k as the text may be checked at), exactly.
      assert.equal(
        res.calls,
        ownersOf(
          routingPlan
            .keys(q)
            .slice(0, reach + 1)
            .map((key) => key.toString(16)),
          objects,
        ).size,
      );
      assert.ok(
        res.objects <= bound && res.calls <= bound,
        `${res.objects} objects, ${res.calls} calls > ${bound}`,
      );
      most = Math.max(most, res.objects);
      total += res.calls;
    }),
    16,
  );
  return { stored, most, mean: total / queries.length };
}

test('routing helpers: owners by (table, key), homes by id, hex distances (Node)', () => {
  // Placement must never change (documents are stored by it): FNV-1a of "3:a" is 0xfa5e85ab
  // (computed apart, in Python), and homes are FNV-1a of "id:<id>".
  assert.equal(ownerOf(3, 'a', 16), 0xfa5e85ab % 16);
  assert.equal(ownerOf(3, 'a', 1 << 20), 0xfa5e85ab % (1 << 20));
  assert.equal(homeOf('x', 64), 34);
  assert.notEqual(
    ownerOf(0, '1f', 1 << 20),
    ownerOf(1, '1f', 1 << 20),
    'the table is part of the owner',
  );
  assert.ok(homeOf('x', 64) < 64);
  assert.equal(hexDistance('ffffffffffffffff', '0000000000000000'), 64);
  assert.equal(hexDistance('0123456789abcdef', '0123456789abcdee'), 1);
  const owners = ownersOf(['1', '2', '3'], 1);
  assert.deepEqual([...owners], [[0, 0b111]], 'one object owns every table');
});

test("merging owners' answers: each id once, nearest first; earlier as the deciding owner says; original (Node)", () => {
  const d = (id, distance, decided = false, earlier = false) => ({
    id,
    distance,
    decided,
    earlier,
  });
  // "b" decided earlier by one owner and seen undecided by another; "c" seen only undecided.
  const answers = [
    { duplicates: [d('b', 2, true, true), d('c', 1)], truncated: false },
    { duplicates: [d('b', 2), d('a', 2, true, false)], truncated: false },
  ];
  assert.deepEqual(mergeById(answers, 10, { stored: true }), {
    duplicates: [
      { id: 'c', distance: 1, earlier: false },
      { id: 'a', distance: 2, earlier: false },
      { id: 'b', distance: 2, earlier: true },
    ],
    truncated: false,
    original: false,
  });
  // Without "b" nothing came earlier: this document is the one to keep.
  assert.equal(
    mergeById([{ duplicates: [d('c', 1), d('a', 2, true, false)], truncated: false }], 10, {
      stored: true,
    }).original,
    true,
  );
  // A dry run is stored nowhere: whatever it finds came earlier.
  assert.deepEqual(
    mergeById([{ duplicates: [d('c', 1)], truncated: false }], 10, { stored: false }).duplicates,
    [{ id: 'c', distance: 1, earlier: true }],
  );
  // An owner that left some out may have left out its decision: the doubt goes to "earlier".
  const cut = mergeById([{ duplicates: [d('c', 1)], truncated: true }], 10, { stored: true });
  assert.deepEqual([cut.duplicates[0].earlier, cut.original, cut.truncated], [true, false, true]);
  assert.deepEqual(mergeById([], 10, { stored: true }), {
    duplicates: [],
    truncated: false,
    original: true,
  });
  // Each caps k by what it holds: the smallest is said, and with K = "pair" the largest, each
  // duplicate keeping the largest k an owner reported it at (owners holding more cap lower).
  const pk = (id, distance, k, decided = false, earlier = false) => ({
    ...d(id, distance, decided, earlier),
    k,
  });
  const owners = [
    { k: 11, duplicates: [pk('b', 9, 11, true, true), pk('c', 3, 7)], truncated: false },
    { k: 10, duplicates: [pk('c', 3, 6, true, false)], truncated: false },
  ];
  assert.equal(mergeById(owners, 10, { stored: true }).k, 10);
  assert.deepEqual(mergeById(owners, 10, { stored: true, pair: true }), {
    k: 11,
    duplicates: [
      { id: 'c', distance: 3, k: 7, earlier: false },
      { id: 'b', distance: 9, k: 11, earlier: true },
    ],
    truncated: false,
    original: false,
  });
});

test('16 objects: concurrent writes with a restart in the middle; acknowledged documents all there, answers exact', async (t) => {
  const rt = await runtime('edge-16', { OBJECTS: 16, MEMORY_DOCUMENTS: 300 });
  try {
    const docs = corpus(16, 1200, 'd');
    const acknowledged = new Set();
    const failed = new Set();
    let restarting = null;
    let next = 0;
    const post = async (doc) => {
      try {
        return await rt.call('POST', '/documents', doc);
      } catch (error) {
        return { error };
      }
    };
    await Promise.all(
      Array.from({ length: 24 }, async () => {
        while (next < docs.length) {
          const doc = docs[next++];
          if (restarting) await restarting;
          const res = await post(doc);
          if (!res.error && (res.status === 200 || res.status === 201)) {
            assert.equal(res.body.stored, true);
            assert.ok(
              res.objects <= Math.min(MAX_K + 1, 16) + 2 * 1,
              'a write: its owners and its home',
            );
            acknowledged.add(doc.id);
          } else failed.add(doc.id);
          if (!restarting && acknowledged.size >= 400) restarting = rt.restart();
        }
      }),
    );
    await restarting;
    t.diagnostic(`${acknowledged.size} acknowledged, ${failed.size} cut off by the restart`);
    assert.ok(failed.size <= 24 && acknowledged.size + failed.size === docs.length);
    const stats = await settled(rt);
    t.diagnostic(
      `after healing: ${stats.documents} stored, ${stats.held} held in objects, ` +
        `${stats.perObject.filter((o) => !o.inMemory).length} of 16 objects answering from SQLite`,
    );
    assert.ok(
      stats.perObject.some((o) => !o.inMemory),
      'some object is past MEMORY_DOCUMENTS (the SQLite path)',
    );
    // Every owner holds each text's feature count, also those healed after the restart.
    assert.equal(stats.uncounted, 0);
    const listed = new Set(await listAll(rt));
    for (const id of acknowledged) assert.ok(listed.has(id), `${id} acknowledged but missing`);
    // A cut-off write was healed forward (stored) or never began (absent); retried, it lands.
    for (const id of failed) {
      const doc = docs.find((d) => d.id === id);
      const retry = await rt.call('POST', '/documents', doc);
      assert.ok(
        retry.status === 200 || retry.status === 201,
        `${id}: ${retry.status} ${JSON.stringify(retry.body)}`,
      );
    }
    const queries = corpus(16, 1200, 'q')
      .filter((_, i) => i % 8 === 0)
      .map((d) => d.text);
    const { stored, most, mean } = await checkAgainstBruteForce(rt, queries, 16);
    assert.equal(stored.size, docs.length);
    t.diagnostic(
      `checks touched at most ${most} objects, ${mean.toFixed(2)} sub-requests on average (bound min(k + 1, 16), k ≤ ${MAX_K})`,
    );
  } finally {
    await rt.dispose();
  }
});

test('64 objects: batch load, replace and delete; answers exact, a check touches at most k + 1 objects', async (t) => {
  const rt = await runtime('edge-64', {
    OBJECTS: 64,
    MEMORY_DOCUMENTS: 1000,
    MAX_BATCH_DOCUMENTS: 500,
  });
  try {
    const docs = corpus(64, 2000, 'b');
    for (let i = 0; i < docs.length; i += 500) {
      const res = await rt.call('POST', '/batch', { documents: docs.slice(i, i + 500) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual([res.body.stored, res.body.conflicts], [500, []]);
      assert.deepEqual(
        res.body.documents.map((d) => d.id),
        docs.slice(i, i + 500).map((d) => d.id),
      );
      // Each document's duplicates, as a single write would report them (the batch's own included).
      const first = res.body.documents.find((d) => d.duplicates.length > 0);
      assert.ok(
        first?.duplicates.every((m) => m.distance <= first.k),
        'a batch of clustered texts finds duplicates',
      );
    }
    // The same batch again changes nothing (idempotent by id and fingerprint).
    const again = await rt.call('POST', '/batch', { documents: docs.slice(0, 100) });
    assert.deepEqual([again.body.stored, again.body.conflicts], [100, []]);
    // Replacing: the old version's entries go, the new one's come.
    const replaced = await rt.call('POST', '/documents', { id: docs[0].id, text: docs[1500].text });
    assert.equal(replaced.status, 200);
    const oldGone = await rt.call('POST', '/check', { text: docs[0].text });
    assert.ok(!oldGone.body.duplicates.some((d) => d.id === docs[0].id && d.distance === 0));
    // Deleting: gone from the home and from every owner.
    for (const d of docs.slice(10, 30))
      assert.equal((await rt.call('DELETE', `/documents/${d.id}`)).status, 200);
    assert.equal((await rt.call('GET', `/documents/${docs[10].id}`)).status, 404);
    assert.equal((await rt.call('DELETE', `/documents/${docs[10].id}`)).status, 404);
    const stats = await settled(rt);
    assert.equal(stats.documents, docs.length - 20);
    // The counts /stats reads from counters agree with the tables, also after a restart.
    await rt.restart();
    const restarted = await settled(rt);
    assert.deepEqual(
      [restarted.documents, restarted.held, restarted.probeRows],
      [stats.documents, stats.held, stats.probeRows],
    );
    const queries = docs.filter((_, i) => i % 20 === 0).map((d) => d.text);
    const { stored, most, mean } = await checkAgainstBruteForce(rt, queries, 64);
    assert.equal(stored.size, docs.length - 20);
    assert.ok(!stored.has(docs[10].id));
    assert.ok(
      [...stored.values()].every((d) => Number.isSafeInteger(d.features)),
      'every document has its count',
    );
    t.diagnostic(
      `checks touched at most ${most} objects, ${mean.toFixed(2)} on average (bound k + 1 of 64, k ≤ ${MAX_K})`,
    );
    // The same documents checked with K = "auto" (not part of the layout): each text at its own k.
    await rt.restart({ K: 'auto' });
    assert.equal((await rt.call('GET', '/stats')).body.k, 'auto');
    await checkAgainstBruteForce(rt, queries, 64);
    // Refusals: a batch too large, repeated ids, bad ids, no token.
    const big = await rt.call('POST', '/batch', { documents: docs.slice(0, 501) });
    assert.equal(big.status, 413);
    const twice = await rt.call('POST', '/batch', { documents: [docs[0], docs[0]] });
    assert.equal(twice.status, 400);
    const dot = await rt.call('POST', '/batch', { documents: [{ id: '..', text: 'x' }] });
    assert.equal(dot.status, 400);
    const anonymous = await fetch(new URL('/batch', rt.base), { method: 'POST', body: '{}' });
    assert.equal(anonymous.status, 401);
    await anonymous.text();
  } finally {
    await rt.dispose();
  }
});

/** The objects (of `n`) owning the routing keys of `text`, as the Worker routes it. */
const ownersOfText = (text, n = 16) =>
  ownersOf(
    routingPlan.keys(hex(text)).map((k) => k.toString(16)),
    n,
  );

test('one object down mid-write: 503, the record stays pending, the alarm heals it; a retry heals at once', async (_t) => {
  // Object 5 fails the first put it gets after each start. The alarm heals after 3 s: the
  // checks of a pending state below must come before it (at 500 ms a loaded machine lost that
  // race, and the 409 became a 200); settled() waits for it either way.
  const rt = await runtime('edge-fail', {
    OBJECTS: 16,
    TEST_FAIL_FIRST_PUT_AT: 5,
    HEAL_AFTER_MS: 3000,
  });
  try {
    const docs = corpus(5, 200, 'f');
    const victim = docs.find((d) => ownersOfText(d.text).has(5));
    const res = await rt.call('POST', '/documents', victim);
    assert.equal(res.status, 503, JSON.stringify(res.body));
    const pending = await rt.call('GET', `/documents/${victim.id}`);
    assert.equal(
      pending.body.state,
      'pending',
      'recorded before any entry was sent, not acknowledged',
    );
    const healed = await settled(rt);
    assert.ok(
      healed.perObject.some((o) => o.healed > 0),
      "the home object's alarm finished the write",
    );
    const record = (await rt.call('GET', `/documents/${victim.id}`)).body;
    assert.equal(record.state, 'stored');
    // The home kept the text's feature count and re-sent it: object 5 holds it too.
    assert.equal(record.features, featuresOf(victim.text));
    assert.equal(healed.uncounted, 0, 'every owner holds the count');
    const found = await rt.call('POST', '/check', { text: victim.text });
    assert.ok(
      found.body.duplicates.some((d) => d.id === victim.id && d.distance === 0 && d.k === PAIR_K),
    );
    // After a restart object 5 fails once more: this time the client retries at once.
    await rt.restart();
    const second = docs.find((d) => d !== victim && ownersOfText(d.text).has(5));
    assert.equal((await rt.call('POST', '/documents', second)).status, 503);
    const retry = await rt.call('POST', '/documents', second);
    assert.ok(retry.status === 200 || retry.status === 201, JSON.stringify(retry.body));
    assert.equal((await rt.call('GET', `/documents/${second.id}`)).body.state, 'stored');
    // Another version of a pending id is refused until the pending write settles (409). The
    // corpus repeats texts (a variant may change no word), so the other version is a text
    // whose fingerprint differs: the same one would be a retry, which heals at once.
    const third = docs.find((d) => d !== victim && d !== second && ownersOfText(d.text).has(5));
    const otherText = docs.find((d) => hex(d.text) !== hex(third.text)).text;
    await rt.restart();
    assert.equal((await rt.call('POST', '/documents', third)).status, 503);
    const other = await rt.call('POST', '/documents', { id: third.id, text: otherText });
    assert.equal(other.status, 409);
    await settled(rt);
    const { stored } = await checkAgainstBruteForce(
      rt,
      docs.slice(0, 40).map((d) => d.text),
      16,
    );
    assert.deepEqual([...stored.keys()].sort(), [victim.id, second.id, third.id].sort());
  } finally {
    await rt.dispose();
  }
});

test('one object down mid-delete: 503, gone from its home at once, no rewrite until settled, the alarm removes its entries', async () => {
  const rt = await runtime('edge-fail-delete', {
    OBJECTS: 16,
    TEST_FAIL_FIRST_REMOVE_AT: 7,
    // As above: the 409 below must come before the alarm settles the delete.
    HEAL_AFTER_MS: 3000,
  });
  try {
    const docs = corpus(7, 200, 'x');
    const victim = docs.find((d) => ownersOfText(d.text).has(7));
    const kept = docs.find((d) => d !== victim && !ownersOfText(d.text).has(7));
    assert.equal((await rt.call('POST', '/documents', victim)).status, 201);
    assert.equal((await rt.call('POST', '/documents', kept)).status, 201);
    const res = await rt.call('DELETE', `/documents/${victim.id}`);
    assert.equal(res.status, 503, JSON.stringify(res.body));
    // Not acknowledged, but already no longer a document: its record is "deleting".
    assert.equal((await rt.call('GET', `/documents/${victim.id}`)).status, 404);
    // Writing the id again while its delete is unsettled would race the delete's removals.
    assert.equal((await rt.call('POST', '/documents', victim)).status, 409);
    await settled(rt);
    const found = await rt.call('POST', '/check', { text: victim.text });
    assert.ok(
      !found.body.duplicates.some((d) => d.id === victim.id),
      'every entry removed by the alarm',
    );
    const stats = (await rt.call('GET', '/stats')).body;
    assert.equal(
      stats.held,
      [...ownersOfText(kept.text).keys()].length,
      'only the kept document is held, by each of its owners',
    );
    const { stored } = await checkAgainstBruteForce(
      rt,
      docs.slice(0, 20).map((d) => d.text),
      16,
    );
    assert.deepEqual([...stored.keys()], [kept.id]);
    // Once settled, the id can be written again, and is found again.
    assert.equal((await rt.call('POST', '/documents', victim)).status, 201);
    const back = await rt.call('POST', '/check', { text: victim.text });
    assert.ok(back.body.duplicates.some((d) => d.id === victim.id && d.distance === 0));
  } finally {
    await rt.dispose();
  }
});

/**
 * `pairs` pairs of near-duplicates (a text and a copy with two words changed, within their pair k), each
 * pair unlike every other: the burst a spammer sends.
 */
function nearPairs(seed, pairs) {
  const next = rng(seed);
  return Array.from({ length: pairs }, (_, i) => {
    // Words of this pair's own (the syllables alone are few): pairs stay far from each other.
    const words = Array.from({ length: 60 }, () => `${word(next)}${i}`);
    const copy = [...words];
    copy[5] = word(next);
    copy[40] = word(next);
    return [
      { id: `p${i}-a`, text: words.join(' ') },
      { id: `p${i}-b`, text: copy.join(' ') },
    ];
  })
    .filter(
      ([a, b]) =>
        sp.hamming(sp.fingerprint(a.text, { key: KEY }), sp.fingerprint(b.text, { key: KEY })) <=
        pairKOf(featuresOf(a.text), featuresOf(b.text)),
    )
    .map((pair) => ({ pair, fps: pair.map((d) => sp.fingerprint(d.text, { key: KEY })) }))
    .filter(({ fps }, i, all) =>
      // The key is new each run, and under some keys a text lands within MAX_K of another
      // pair's by chance (no key of a hundred tried): such pairs are left out, so that nothing
      // but its partner is near any text.
      all.every(
        (other, j) => j === i || fps.every((f) => other.fps.every((g) => sp.hamming(f, g) > MAX_K)),
      ),
    )
    .map(({ pair }) => pair);
}

test('a burst of near-copies: of two posted at the same moment, at least one reports the other, and exactly one is the original', async (t) => {
  const rt = await runtime('burst', { OBJECTS: 16 });
  try {
    const pairs = nearPairs(24, 230);
    assert.ok(pairs.length >= 200, `${pairs.length} pairs within their k`);
    // Both halves of a pair leave together, 8 pairs (16 requests) in flight. (Miniflare's local
    // runtime resets connections in this routing with 64 in flight, and with 32 on a loaded
    // machine, with the previous write protocol too: a limit of the local setup, not of this
    // test's subject, which is two writes at the same moment.)
    const answers = await pool(
      pairs.map(
        ([a, b]) =>
          () =>
            Promise.all([a, b].map((d) => rt.call('POST', '/documents', d))),
      ),
      8,
    );
    let both = 0;
    for (const [i, [ra, rb]] of answers.entries()) {
      const [a, b] = pairs[i];
      assert.equal(ra.status, 201, JSON.stringify(ra.body));
      assert.equal(rb.status, 201, JSON.stringify(rb.body));
      const aSeesB = ra.body.duplicates.find((d) => d.id === b.id);
      const bSeesA = rb.body.duplicates.find((d) => d.id === a.id);
      assert.ok(aSeesB || bSeesA, `pair ${i}: neither reported the other`);
      if (aSeesB && bSeesA) both++;
      // Nothing else is near: each reports at most its partner.
      assert.ok(
        ra.body.duplicates.length <= 1 && rb.body.duplicates.length <= 1,
        `pair ${i} (${a.id}, ${b.id}) reported ${JSON.stringify([ra.body.duplicates, rb.body.duplicates])}`,
      );
      assert.equal(
        Number(ra.body.original) + Number(rb.body.original),
        1,
        `pair ${i}: exactly one original`,
      );
      const [kept, dropped, droppedSaw] = ra.body.original ? [ra, rb, bSeesA] : [rb, ra, aSeesB];
      assert.ok(droppedSaw?.earlier, `pair ${i}: the one not kept reports the kept one as earlier`);
      assert.ok(
        kept.body.duplicates.every((d) => !d.earlier),
        `pair ${i}: the kept one reports nothing earlier`,
      );
      assert.equal(dropped.body.original, false);
    }
    t.diagnostic(
      `${pairs.length} pairs; both saw each other in ${both}, one saw the other in ${pairs.length - both}`,
    );
  } finally {
    await rt.dispose();
  }
});

test('TOLERANCE sets each text k and each pair k (what fp.calibrate fits), for JSON, batch and streamed bodies', async () => {
  const text = corpus(1, 1, 't')[0].text;
  const streamed = async (rt, body) => {
    const res = await fetch(new URL('/check', rt.base), {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/plain' },
      body,
    });
    return res.json();
  };
  // K = "auto": each text at its own recommended k under the tolerance.
  const rt = await runtime('tolerance', { OBJECTS: 4, TOLERANCE: '0.05', K: 'auto' });
  try {
    const k5 = Math.min(fingerprinter.recommendedK(text, { tolerance: 0.05 }), MAX_K);
    assert.ok(k5 < kOf(text), `0.05 gives ${k5}, the default ${kOf(text)}`);
    const posted = await rt.call('POST', '/check', { text });
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    assert.equal(posted.body.k, k5);
    const batch = await rt.call('POST', '/batch', { documents: [{ id: 't', text }] });
    assert.equal(batch.body.documents[0].k, k5);
    assert.equal((await streamed(rt, text)).k, k5);
    assert.equal((await rt.call('GET', '/stats')).body.tolerance, 0.05);
  } finally {
    await rt.dispose();
  }
  // K = "pair" (as shipped): each pair at pairK under the tolerance, whichever way the text came.
  const pair = await runtime('tolerance-pair', { OBJECTS: 4, TOLERANCE: '0.05' });
  try {
    const pairK5 = (a, b) => Math.min(sp.pairK(a, b, { tolerance: 0.05 }), MAX_K);
    const k5 = pairK5(1, 1);
    assert.ok(k5 < PAIR_K, `0.05 gives ${k5}, the default ${PAIR_K}`);
    const posted = await pair.call('POST', '/check', { text });
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    assert.equal(posted.body.k, k5);
    const batch = await pair.call('POST', '/batch', { documents: [{ id: 't', text }] });
    assert.equal(batch.body.documents[0].k, k5);
    // A copy with words of its own added: checked against `t` at the pair k of both sizes.
    const longer = `${text} ${corpus(2, 1, 'u')[0].text.split(' ').slice(0, 3).join(' ')}`;
    const k = pairK5(featuresOf(longer), featuresOf(text));
    const d = sp.hamming(sp.fromHex(hex(longer)), sp.fromHex(hex(text)));
    const want = d <= k ? [{ id: 't', distance: d, k, earlier: true }] : [];
    const answer = await streamed(pair, longer);
    assert.deepEqual([answer.k, answer.duplicates], [k5, want]);
    const stats = (await pair.call('GET', '/stats')).body;
    assert.deepEqual([stats.k, stats.tolerance], ['pair', 0.05]);
  } finally {
    await pair.dispose();
  }
});

test('a changed OBJECTS, MAX_K or STORE_SUBSTRINGS is refused while documents are filed under the earlier layout; an emptied tenant takes the new one', async () => {
  const docs = corpus(7, 3, 'l');
  const recorded = `OBJECTS = 4, MAX_K = ${MAX_K}, STORE_SUBSTRINGS = 3`;
  const under = async (vars, body) => {
    const rt = await runtime('layout', vars);
    try {
      await body(rt);
    } finally {
      await rt.dispose();
    }
  };
  await under({ OBJECTS: 4 }, async (rt) => {
    for (const doc of docs) assert.equal((await rt.call('POST', '/documents', doc)).status, 201);
    assert.equal((await rt.call('GET', '/stats')).body.layoutConflict, null);
  });
  for (const vars of [
    { OBJECTS: 8 },
    { OBJECTS: 4, MAX_K: MAX_K - 2 },
    { OBJECTS: 4, STORE_SUBSTRINGS: 4 },
  ]) {
    await under(vars, async (rt) => {
      const refusals = [
        await rt.call('POST', '/check', { text: docs[0].text }),
        await rt.call('POST', '/documents', { id: 'new', text: 'another text altogether' }),
        await rt.call('POST', '/batch', { documents: [{ id: 'new', text: 'another text' }] }),
        await rt.call('GET', '/documents'),
        await rt.call('GET', `/documents/${docs[0].id}`),
        await rt.call('DELETE', `/documents/${docs[0].id}`),
      ];
      for (const r of refusals) {
        assert.equal(r.status, 500, JSON.stringify({ vars, body: r.body }));
        assert.ok(r.body.error.includes(`holds 3 documents filed under ${recorded}`), r.body.error);
        assert.match(r.body.error, /this deployment has OBJECTS = \d+, MAX_K = \d+/);
      }
      const stats = await rt.call('GET', '/stats');
      assert.equal(stats.status, 200);
      assert.match(stats.body.layoutConflict, /holds 3 documents filed under/);
    });
  }
  // Under the recorded layout nothing changed; once its documents are deleted, any layout.
  await under({ OBJECTS: 4 }, async (rt) => {
    const check = await rt.call('POST', '/check', { text: docs[0].text });
    assert.equal(check.status, 200, JSON.stringify(check.body));
    assert.equal(check.body.duplicates[0].id, docs[0].id);
    for (const doc of docs)
      assert.equal((await rt.call('DELETE', `/documents/${doc.id}`)).status, 200);
  });
  await under({ OBJECTS: 8 }, async (rt) => {
    assert.equal((await rt.call('POST', '/documents', docs[0])).status, 201);
    const check = await rt.call('POST', '/check', { text: docs[0].text });
    assert.equal(check.body.duplicates[0].id, docs[0].id);
    assert.equal((await rt.call('GET', '/stats')).body.layoutConflict, null);
  });
  await under({ OBJECTS: 4 }, async (rt) => {
    const refused = await rt.call('POST', '/check', { text: docs[1].text });
    assert.equal(refused.status, 500);
    assert.ok(refused.body.error.includes('holds 1 document filed under OBJECTS = 8'));
  });
});

test('an object keeps its documents in memory as a scan: under 25 bytes a document (its feature count included) past the size where the planner builds tables', async (t) => {
  // The planner's own choice builds tables (about 80 bytes a document) past about 22,000
  // fingerprints at k = 11; the object's Index is a scan at any size (key-store.js fillMemory).
  const rt = await runtime('memory-scan', { OBJECTS: 1, MEMORY_DOCUMENTS: 30000 });
  try {
    const docs = corpus(11, 26000, 'm');
    for (let from = 0; from < docs.length; from += 1000) {
      const batch = await rt.call('POST', '/batch', { documents: docs.slice(from, from + 1000) });
      assert.equal(batch.status, 200, JSON.stringify(batch.body).slice(0, 300));
    }
    const object = (await rt.call('GET', '/stats')).body.perObject[0];
    assert.equal(object.held, docs.length);
    assert.ok(object.inMemory);
    assert.ok(
      object.memoryBytes / object.held < 25,
      `${object.memoryBytes} bytes for ${object.held} documents`,
    );
    await rt.restart(); // rebuilt from SQLite the same way
    const again = (await rt.call('GET', '/stats')).body.perObject[0];
    assert.ok(again.inMemory && again.memoryBytes / again.held < 25, JSON.stringify(again));
    t.diagnostic(
      `${(object.memoryBytes / object.held).toFixed(1)} bytes a document grown by batches, ${(again.memoryBytes / again.held).toFixed(1)} rebuilt`,
    );
    const check = await rt.call('POST', '/check', { text: docs[12345].text });
    assert.ok(check.body.duplicates.some((d) => d.id === docs[12345].id && d.distance === 0));
  } finally {
    await rt.dispose();
  }
});

// ---- K = "pair": each text's feature count at every owner ----

/** `text` streamed as the body of PUT /documents/:id (the Worker's TextSink counts it). */
async function putText(rt, id, text) {
  const res = await fetch(new URL(`/documents/${encodeURIComponent(id)}`, rt.base), {
    method: 'PUT',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/plain' },
    body: text,
  });
  return { status: res.status, body: await res.json() };
}

/** Made-up words of two syllables, drawn from seed `seed`. */
function words(seed) {
  const next = rng(seed);
  return () =>
    SYLLABLES[Math.floor(next() * SYLLABLES.length)] +
    SYLLABLES[Math.floor(next() * SYLLABLES.length)];
}

const textDistance = (a, b) => hexDistance(hex(a), hex(b));

// Both ways an object answers: a scan in memory, and SQLite past MEMORY_DOCUMENTS (0: always).
const PATHS = [
  ['memory', 100000],
  ['SQLite', 0],
];

for (const [path, memoryDocuments] of PATHS) {
  test(`K = "pair" (${path}): each text's feature count goes with its entries to every owner and its home; each duplicate is checked at pairK of both counts`, async () => {
    const rt = await runtime(`pair-counts-${path}`, {
      OBJECTS: 16,
      MEMORY_DOCUMENTS: memoryDocuments,
    });
    try {
      // Copies of one text with words added or cut (and some with one changed): their sizes,
      // and so their pair k, differ; some are within MAX_K but past their pair k.
      const w = words(31);
      const base = Array.from({ length: 60 }, w);
      const docs = Array.from({ length: 16 }, (_, j) => {
        const copy = j % 2 ? [...base, ...Array.from({ length: j }, w)] : base.slice(j);
        if (j % 3 === 0) copy[10] = w();
        return { id: `v${j}`, text: copy.join(' ') };
      });
      const kBetween = (a, b) => pairKOf(featuresOf(a.text), featuresOf(b.text));
      assert.ok(
        docs.some((a) =>
          docs.some((b) => {
            const d = textDistance(a.text, b.text);
            return d <= MAX_K && d > kBetween(a, b);
          }),
        ),
        'some copy is within MAX_K and refused for its size',
      );
      // Stored one at a time, half streamed as text bodies: each write's answer is every one
      // stored before within their pair k, each with that k.
      for (const [i, doc] of docs.entries()) {
        const res =
          i % 2 ? await putText(rt, doc.id, doc.text) : await rt.call('POST', '/documents', doc);
        assert.equal(res.status, 201, JSON.stringify(res.body));
        const want = docs
          .slice(0, i)
          .map((e) => ({ id: e.id, distance: textDistance(doc.text, e.text), k: kBetween(doc, e) }))
          .filter((m) => m.distance <= m.k);
        const merged = mergeById([{ duplicates: want, truncated: false }], 100, {
          stored: false,
          pair: true,
        });
        assert.deepEqual(res.body.duplicates, merged.duplicates, doc.id);
        assert.equal(res.body.k, PAIR_K, 'the largest: that of equal sizes');
        assert.equal(res.body.original, want.length === 0);
      }
      // Each home keeps the count, and no owner holds a document without one.
      for (const doc of docs) {
        const got = await rt.call('GET', `/documents/${doc.id}`);
        assert.equal(got.body.features, featuresOf(doc.text), doc.id);
      }
      const stats = (await rt.call('GET', '/stats')).body;
      assert.equal(stats.k, 'pair', 'the default');
      assert.equal(stats.uncounted, 0);
      assert.ok(
        stats.perObject.every((o) => o.held === 0 || o.inMemory === (path === 'memory')),
        `every object answers from ${path}`,
      );
      // Checks of every copy and of the base text, against a brute-force scan; again after a
      // restart (memory rebuilt with its counts from SQLite).
      const queries = [base.join(' '), ...docs.map((d) => d.text)];
      await checkAgainstBruteForce(rt, queries, 16);
      await rt.restart();
      assert.equal((await rt.call('GET', '/stats')).body.uncounted, 0);
      await checkAgainstBruteForce(rt, queries, 16);
    } finally {
      await rt.dispose();
    }
  });
}

for (const [path, memoryDocuments] of PATHS) {
  test(`K = "pair" (${path}): matches refused for their size never hide an accepted one past an object's first page`, async () => {
    // One object holds them all. Refused: the text with words added, at most MAX_K - 1 bits
    // away, past their pair k. Accepted: a copy of the same size with words changed, MAX_K
    // bits away (their pair k is capped at MAX_K). More than a page of the refused are nearer
    // than the accepted one, so the object must ask for more.
    const w = words(47);
    const base = Array.from({ length: 60 }, w);
    const text = base.join(' ');
    const n = featuresOf(text);
    const refused = [];
    for (let tries = 0; refused.length < 120 && tries < 100000; tries++) {
      const v = `${text} ${Array.from({ length: 6 + (tries % 7) }, w).join(' ')}`;
      const d = textDistance(text, v);
      if (d < MAX_K && d > pairKOf(n, featuresOf(v))) refused.push(v);
    }
    assert.equal(refused.length, 120, 'enough refused copies under this key');
    let accepted;
    const next = rng(48);
    for (let tries = 0; !accepted && tries < 100000; tries++) {
      const v = base.map((x) => (next() < 0.08 ? w() : x)).join(' ');
      if (textDistance(text, v) === MAX_K && pairKOf(n, featuresOf(v)) === MAX_K) accepted = v;
    }
    assert.ok(accepted, 'an accepted copy under this key');
    const rt = await runtime(`pair-pages-${path}`, {
      OBJECTS: 1,
      MEMORY_DOCUMENTS: memoryDocuments,
    });
    try {
      const documents = [
        ...refused.map((v, i) => ({ id: `r${i}`, text: v })),
        { id: 'accepted', text: accepted },
      ];
      const loaded = await rt.call('POST', '/batch', { documents });
      assert.equal(loaded.status, 200, JSON.stringify(loaded.body).slice(0, 300));
      const object = (await rt.call('GET', '/stats')).body.perObject[0];
      assert.equal(object.inMemory, path === 'memory');
      const want = [{ id: 'accepted', distance: MAX_K, k: MAX_K, earlier: true }];
      const check = await rt.call('POST', '/check', { text });
      assert.deepEqual(
        [check.body.duplicates, check.body.truncated, check.body.original],
        [want, false, false],
      );
      // A store checks the same way (its owner's put, then check).
      const stored = await rt.call('POST', '/documents', { id: 'text', text });
      assert.equal(stored.status, 201);
      assert.deepEqual([stored.body.duplicates, stored.body.original], [want, false]);
    } finally {
      await rt.dispose();
    }
  });
}

// ---- objects of the previous version ----

// The Worker as released before feature counts were kept (its last commit), to test an upgrade.
const PREVIOUS = '15f23b3';
let previousBundle;

/**
 * The bundle of the previous version's src/ (from git) against today's packages, as wrangler
 * would make it, outside the repository (other tests copy examples/worker-scale meanwhile).
 */
function previous() {
  if (previousBundle) return previousBundle;
  const dir = join(tmp, 'previous');
  mkdirSync(join(dir, 'src'), { recursive: true });
  symlinkSync(join(scaleDir, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const files = execFileSync(
    'git',
    ['ls-tree', '--name-only', `${PREVIOUS}:examples/worker-scale/src`],
    { cwd: root, encoding: 'utf8' },
  )
    .split('\n')
    .filter(Boolean);
  assert.ok(files.includes('key-store.js') && files.includes('index.js'), files.join(' '));
  const show = (path) => execFileSync('git', ['show', `${PREVIOUS}:${path}`], { cwd: root });
  for (const file of files)
    writeFileSync(join(dir, 'src', file), show(`examples/worker-scale/src/${file}`));
  writeFileSync(join(dir, 'wrangler.toml'), show('examples/worker-scale/wrangler.toml'));
  const out = join(tmp, 'previous-bundle');
  bundle(out, { dir, config: join(dir, 'wrangler.toml') });
  previousBundle = out;
  return out;
}

for (const [path, memoryDocuments] of PATHS) {
  test(`objects of the previous version (${path}): their documents are checked at the asking text's own k until stored again, then at pairK`, async (t) => {
    const out = previous();
    const w = words(59);
    const text = Array.from({ length: 60 }, w).join(' ');
    const other = Array.from({ length: 50 }, w).join(' ');
    // A longer copy: within its own recommended k of the text, past their pair k.
    let longer;
    for (let tries = 0; !longer && tries < 100000; tries++) {
      const v = `${text} ${Array.from({ length: 3 + (tries % 10) }, w).join(' ')}`;
      const d = textDistance(text, v);
      if (d <= kOf(v) && d > pairKOf(featuresOf(text), featuresOf(v))) longer = v;
    }
    assert.ok(longer, 'a copy past its pair k under this key');
    const d = textDistance(text, longer);
    const name = `previous-${path}`;
    const vars = { OBJECTS: 4, MEMORY_DOCUMENTS: memoryDocuments };
    // The previous version took K = "auto" (it knew no other).
    const old = await runtime(name, { ...vars, K: 'auto' }, out);
    try {
      for (const [id, body] of [
        ['text', text],
        ['other', other],
      ])
        assert.equal((await old.call('POST', '/documents', { id, text: body })).status, 201);
    } finally {
      await old.dispose();
    }
    t.diagnostic(`bundled and ran ${PREVIOUS}'s src/`);

    const rt = await runtime(name, vars);
    try {
      assert.equal(
        (await rt.call('GET', '/documents/text')).body.features,
        null,
        'not counted then',
      );
      let stats = (await rt.call('GET', '/stats')).body;
      assert.equal(stats.k, 'pair');
      assert.equal(stats.uncounted, stats.held, 'no owner holds a count');
      assert.ok(stats.perObject.every((o) => o.held === 0 || o.inMemory === (path === 'memory')));
      // Against an uncounted document, the asking text's own recommended k.
      const before = await rt.call('POST', '/check', { text: longer });
      assert.equal(before.body.k, reachOf(longer));
      assert.deepEqual(before.body.duplicates, [
        { id: 'text', distance: d, k: kOf(longer), earlier: true },
      ]);
      // Stored again (the same version: its home and owners take the count), it is checked
      // at the pair k, past which the longer copy is.
      const again = await rt.call('POST', '/documents', { id: 'text', text });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal((await rt.call('GET', '/documents/text')).body.features, featuresOf(text));
      stats = (await rt.call('GET', '/stats')).body;
      assert.equal(stats.uncounted, ownersOfText(other, 4).size, "only the other's entries");
      const after = await rt.call('POST', '/check', { text: longer });
      assert.deepEqual(after.body.duplicates, []);
      // The last uncounted one deleted; after a restart the counts are read back.
      assert.equal((await rt.call('DELETE', '/documents/other')).status, 200);
      assert.equal((await rt.call('GET', '/stats')).body.uncounted, 0);
      await rt.restart();
      assert.equal((await rt.call('GET', '/stats')).body.uncounted, 0);
      assert.deepEqual((await rt.call('POST', '/check', { text: longer })).body.duplicates, []);
      assert.deepEqual((await rt.call('POST', '/check', { text })).body.duplicates, [
        { id: 'text', distance: 0, k: PAIR_K, earlier: true },
      ]);
    } finally {
      await rt.dispose();
    }
  });
}
