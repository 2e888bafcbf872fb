// The Worker's side of ROUTING = "keys" (routing.js explains the scheme, key-store.js the
// objects). Every answer carries x-simprint-subrequests (object calls this request made) and
// x-simprint-objects (distinct objects it touched), so the bound on a check is observable.
//
// A write, in order, each step awaited before the next:
//   1. the check: the owners of the document's K + 1 keys answer what they hold within K;
//   2. begin at the id's home object: the record becomes pending (so a failure later is healed);
//   3. entries of replaced versions removed from their owners, then the new entries put;
//   4. commit at the home: stored. Only then is the write acknowledged.
// A failure after 2 answers 503 and leaves the record pending; the home's alarm finishes the
// write (HEAL_AFTER_MS later), and a retry by the client does the same at once.
import { cappedChunks, HttpError } from './body.js';
import { checkId } from './ids.js';
import { deliver, keysStub } from './keys-write.js';
import { homeOf, mergeById, ownersOf } from './routing.js';
import { compareIds, MAX_DUPLICATES } from './shards.js';
import { fingerprinterFor, keyHex, routingPlan, schemeOf, toHex } from './simprint.js';

/** Calls to the tenant's objects, counted: `trace.calls` sub-requests to `trace.objects`. */
function tracer({ env, tenant, s }) {
  const trace = { calls: 0, objects: new Set() };
  const stubs = new Map();
  const stub = (i) => {
    if (!stubs.has(i)) {
      const real = keysStub(env, tenant, i, s.objects);
      stubs.set(i, new Proxy({}, {
        // Not a thenable: `then` stays undefined, so a stub may pass through await safely.
        get: (_, method) => (method === 'then' ? undefined : (...args) => {
          trace.calls++;
          trace.objects.add(i);
          return real[method](...args);
        }),
      }));
    }
    return stubs.get(i);
  };
  const headers = () => ({
    'x-simprint-subrequests': String(trace.calls),
    'x-simprint-objects': String(trace.objects.size),
  });
  return { stub, headers, trace };
}

const keysOf = (s) => (hex) => routingPlan(s.width, s.k).keys(hex).map(keyHex);

const unfinished = (err) => {
  console.error('simprint keys: a write did not finish:', err?.stack ?? err);
  return new HttpError(503, 'the write did not finish (an object failed); it is finished within HEAL_AFTER_MS ' +
    'by the document\'s home object, or at once by sending the same request again', { 'retry-after': '1' });
};

const conflict = (id) => new HttpError(409, `another version of ${JSON.stringify(id)} is being written; retry shortly`,
  { 'retry-after': '1' });

/**
 * The duplicates of `hex` (but `exceptId`) over the objects owning its K + 1 keys: at most
 * min(K + 1, OBJECTS) calls. `charge`: the first owner takes the rate-limit token.
 */
async function checkAll(t, s, hex, exceptId, scheme, charge, admitted) {
  const owners = [...ownersOf(keysOf(s)(hex), s.objects).keys()];
  const answers = admitted(await Promise.all(owners.map((o, j) =>
    t.stub(o).check({ hex, exceptId: exceptId ?? null, scheme, charge: charge && j === 0 }))));
  return mergeById(answers, MAX_DUPLICATES);
}

/** POST /documents (store or dry run) and POST /check in keys mode. */
export async function addDocumentKeys({ id, hex, textLength }, at, { store, json, admitted }) {
  const { s, tenant } = at;
  const t = tracer(at);
  const scheme = await schemeOf(s.width, s.key);
  const { duplicates, truncated } = await checkAll(t, s, hex, id, scheme, !store, admitted);
  const shown = s.exposeFingerprints ? { fingerprint: hex } : {};
  if (!store) return json({ id: id ?? null, ...shown, duplicates, truncated, stored: false }, 200, t.headers());
  const created = await write(t, at, scheme, [{ id, hex, textLength }], admitted);
  if (created.conflicts.length > 0) throw conflict(id);
  return json({ id, ...shown, duplicates, truncated, stored: true }, created.created.has(id) ? 201 : 200, t.headers());
}

/** Steps 2 to 4 above for `docs` (distinct ids). Returns { created: Set, conflicts: [id] }. */
async function write(t, { s, tenant }, scheme, docs, admitted) {
  const where = { tenant, objects: s.objects };
  const homes = groupBy(docs, (d) => homeOf(d.id, s.objects));
  const begun = admitted(await Promise.all([...homes].map(([h, items], j) =>
    t.stub(h).begin({ items, scheme, where, charge: j === 0 }))));
  const results = begun.flatMap((b) => b.results);
  const conflicts = results.filter((r) => r.conflict).map((r) => r.id);
  const created = new Set(results.filter((r) => r.created).map((r) => r.id));
  const hexOf = new Map(docs.map((d) => [d.id, d.hex]));
  const todo = results.filter((r) => !r.done && !r.conflict).map((r) => ({ id: r.id, hex: hexOf.get(r.id), stale: r.stale }));
  if (todo.length === 0) return { created, conflicts };
  try {
    await deliver({ stub: t.stub, keysOf: keysOf(s), n: s.objects, scheme, docs: todo });
    const committed = await Promise.all([...groupBy(todo, (d) => homeOf(d.id, s.objects))].map(([h, items]) =>
      t.stub(h).commit({ items: items.map(({ id, hex }) => ({ id, hex })) })));
    for (const r of committed.flatMap((c) => c.results)) if (!r.stored) conflicts.push(r.id);
  } catch (err) {
    throw unfinished(err);
  }
  return { created, conflicts };
}

function groupBy(items, keyOf) {
  const out = new Map();
  for (const item of items) {
    const key = keyOf(item);
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(item);
  }
  return out;
}

/**
 * POST /batch {documents: [{id, text}, …]} -> {stored, conflicts}: stores up to
 * MAX_BATCH_DOCUMENTS documents with one begin and one commit per home object and one put per
 * owner object; no duplicate answers (it is for loading). Same limits as single writes: the
 * body cap and deadline, id rules; the ids must be distinct.
 */
export async function batchKeys(request, at, { json, admitted }) {
  const { s } = at;
  const t = tracer(at);
  const body = await readJson(request, s);
  const list = body?.documents;
  if (!Array.isArray(list)) throw new HttpError(400, 'expected {"documents": [{"id": …, "text": …}, …]}');
  if (list.length > s.maxBatchDocuments) {
    throw new HttpError(413, `a batch holds at most ${s.maxBatchDocuments} documents (MAX_BATCH_DOCUMENTS), not ${list.length}`);
  }
  const seen = new Set();
  const fingerprinter = fingerprinterFor(s.width, s.key);
  const docs = list.map((d, i) => {
    if (d === null || typeof d !== 'object' || typeof d.id !== 'string' || typeof d.text !== 'string') {
      throw new HttpError(400, `documents[${i}] must be {"id": string, "text": string}`);
    }
    if (d.id.length > s.maxIdLength) throw new HttpError(400, `documents[${i}]: "id" is longer than ${s.maxIdLength}`);
    checkId(d.id);
    if (!d.text.isWellFormed()) throw new HttpError(400, `documents[${i}]: "text" is not well-formed Unicode`);
    if (seen.has(d.id)) throw new HttpError(400, `documents[${i}]: id ${JSON.stringify(d.id)} appears twice`);
    seen.add(d.id);
    return { id: d.id, hex: toHex(fingerprinter.fingerprint(d.text), s.width), textLength: d.text.length };
  });
  const scheme = await schemeOf(s.width, s.key);
  const { conflicts } = docs.length ? await write(t, at, scheme, docs, admitted) : { conflicts: [] };
  return json({ stored: docs.length - conflicts.length, conflicts }, 200, t.headers());
}

async function readJson(request, s) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let text = '';
  try {
    for await (const chunk of cappedChunks(request, s.maxBodyBytes, s.bodyTimeoutMs)) text += decoder.decode(chunk, { stream: true });
    text += decoder.decode();
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError(400, 'request body is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'request body is not valid JSON');
  }
}

export async function getDocumentKeys(id, at, { json, admitted }) {
  const t = tracer(at);
  const [answer] = admitted([await t.stub(homeOf(id, at.s.objects)).getDocument(id)]);
  const doc = answer.document;
  if (!doc) throw new HttpError(404, `no document ${JSON.stringify(id)}`);
  if (!at.s.exposeFingerprints) delete doc.fingerprint;
  return json(doc, 200, t.headers());
}

export async function deleteDocumentKeys(id, at, { json, admitted }) {
  const { s, tenant } = at;
  const t = tracer(at);
  const scheme = await schemeOf(s.width, s.key);
  const home = homeOf(id, s.objects);
  const [begun] = admitted([await t.stub(home).beginDelete({ id, scheme, where: { tenant, objects: s.objects } })]);
  if (begun.conflict) throw conflict(id);
  if (!begun.found) throw new HttpError(404, `no document ${JSON.stringify(id)}`);
  try {
    await deliver({ stub: t.stub, keysOf: keysOf(s), n: s.objects, scheme, docs: [{ id, hex: begun.hex, stale: begun.stale }], deleting: true });
    const { deleted } = await t.stub(home).finishDelete({ id, hex: begun.hex });
    // Not deleted: the record left the "deleting" state meanwhile (the alarm finished it, or a
    // write took it over after HEAL_AFTER_MS). Either way this request did not do it.
    if (!deleted) throw conflict(id);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw unfinished(err);
  }
  return json({ id, deleted: true }, 200, t.headers());
}

export async function listDocumentsKeys(after, limit, at, { json, admitted }) {
  const t = tracer(at);
  const all = Array.from({ length: at.s.objects }, (_, i) => i);
  const pages = admitted(await Promise.all(all.map((i) => t.stub(i).listIds(after, limit))));
  const ids = pages.flatMap((p) => p.ids).sort(compareIds).slice(0, limit);
  return json({ ids, next: ids.length === limit ? ids[ids.length - 1] : null }, 200, t.headers());
}

export async function statsKeys(at, { json }) {
  const { s, tenant, env } = at;
  const t = tracer(at);
  const all = Array.from({ length: s.objects }, (_, i) => i);
  const perObject = await Promise.all(all.map((i) => t.stub(i).stats()));
  const sum = (key) => perObject.reduce((n, p) => n + p[key], 0);
  return json({
    tenant,
    routing: 'keys',
    width: s.width,
    k: s.k,
    objects: s.objects,
    routingTables: s.k + 1,
    storeSubstrings: s.storeSubstrings,
    memoryDocuments: s.memoryDocuments,
    healAfterMs: s.healAfterMs,
    maxBodyBytes: s.maxBodyBytes,
    exposeFingerprints: s.exposeFingerprints,
    rateLimit: env.RATE_LIMITER ? 'binding' : s.rateLimit ?? 'off',
    documents: sum('documents'),
    unsettled: sum('unsettled'),
    held: sum('held'),
    probeRows: sum('probeRows'),
    memoryBytes: sum('memoryBytes'),
    sqlBytes: sum('sqlBytes'),
    perObject,
  }, 200, t.headers());
}
