// The Worker's side of ROUTING = "keys" (routing.js explains the scheme, key-store.js the
// objects). Every answer carries x-simprint-subrequests (object calls this request made) and
// x-simprint-objects (distinct objects it touched), so the bound on a check is observable.
//
// A write, in order, each step awaited before the next:
//   0. the tenant's limiter takes the request's tokens (one per document), or it is a 429;
//   1. begin at the id's home object: the record becomes pending (so a failure later is healed);
//   2. entries of replaced versions removed from their owners, then the new entries put, each
//      owner checking what it holds within K right after taking them (insert, then check);
//   3. commit at the home: stored. Only then is the write acknowledged.
// A failure after 1 answers 503 and leaves the record pending; the home's alarm finishes the
// write (HEAL_AFTER_MS later), and a retry by the client does the same at once.
//
// Bursts: two near-duplicates (within K) agree in at least one of the K + 1 routing tables,
// so both writes reach the owner of that table's key; that object takes and checks them one
// after the other, and the later one's check sees the earlier one. So of two near-duplicates
// written at the same moment at least one reports the other, and the owner of the lowest
// table in which they agree says which came first: that one is `original`, the other is not.
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
 * A dry run: the duplicates of `hex` (but `exceptId`) over the objects owning its K + 1 keys,
 * at most min(K + 1, OBJECTS) calls.
 */
async function checkAll(t, s, hex, exceptId, scheme) {
  const owners = ownersOf(keysOf(s)(hex), s.objects);
  const answers = await Promise.all([...owners].map(([o, mask]) =>
    t.stub(o).check({ queries: [{ hex, exceptId: exceptId ?? null, mask }], scheme })));
  return mergeById(answers.map((a) => a.results[0]), MAX_DUPLICATES, { stored: false });
}

/** POST /documents (store or dry run) and POST /check in keys mode. */
export async function addDocumentKeys({ id, hex, textLength }, at, { store, json, charge }) {
  const { s } = at;
  const t = tracer(at);
  await charge(at, 1);
  const scheme = await schemeOf(s.width, s.key);
  const shown = s.exposeFingerprints ? { fingerprint: hex } : {};
  if (!store) {
    const found = await checkAll(t, s, hex, id, scheme);
    return json({ id: id ?? null, ...shown, ...found, stored: false }, 200, t.headers());
  }
  const written = await write(t, at, scheme, [{ id, hex, textLength }]);
  if (written.conflicts.length > 0) throw conflict(id);
  return json({ id, ...shown, ...written.found.get(id), stored: true }, written.created.has(id) ? 201 : 200, t.headers());
}

/**
 * Steps 1 to 3 above for `docs` (distinct ids). Returns { created: Set, conflicts: [id],
 * found: Map(id -> { duplicates, truncated, original }) } (no entry for a conflict).
 */
async function write(t, { s, tenant }, scheme, docs) {
  const where = { tenant, objects: s.objects };
  const homes = groupBy(docs, (d) => homeOf(d.id, s.objects));
  const begun = await Promise.all([...homes].map(([h, items]) => t.stub(h).begin({ items, scheme, where })));
  const results = begun.flatMap((b) => b.results);
  const conflicts = results.filter((r) => r.conflict).map((r) => r.id);
  const created = new Set(results.filter((r) => r.created).map((r) => r.id));
  const hexOf = new Map(docs.map((d) => [d.id, d.hex]));
  // A version already stored (a retry) is put again, which changes nothing, for its check.
  const todo = results.filter((r) => !r.conflict).map((r) => ({ id: r.id, hex: hexOf.get(r.id), stale: r.stale ?? [], done: r.done }));
  const found = new Map();
  if (todo.length === 0) return { created, conflicts, found };
  try {
    const { answers } = await deliver({ stub: t.stub, keysOf: keysOf(s), n: s.objects, scheme, docs: todo, check: true });
    for (const [id, list] of answers) found.set(id, mergeById(list, MAX_DUPLICATES, { stored: true }));
    const pending = todo.filter((d) => !d.done);
    const committed = await Promise.all([...groupBy(pending, (d) => homeOf(d.id, s.objects))].map(([h, items]) =>
      t.stub(h).commit({ items: items.map(({ id, hex }) => ({ id, hex })) })));
    for (const r of committed.flatMap((c) => c.results)) {
      if (!r.stored) {
        conflicts.push(r.id);
        found.delete(r.id);
      }
    }
  } catch (err) {
    throw unfinished(err);
  }
  return { created, conflicts, found };
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
 * POST /batch {documents: [{id, text}, …]} -> {stored, conflicts, documents}: stores up to
 * MAX_BATCH_DOCUMENTS documents with one begin and one commit per home object and one put (with
 * its checks) per owner object; `documents` gives each stored one's `{ id, duplicates,
 * truncated, original }`, as a single write would (documents of one batch see each other).
 * Costs one rate-limit token per document. Same limits as single writes: the body cap and
 * deadline, id rules; the ids must be distinct.
 */
export async function batchKeys(request, at, { json, charge }) {
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
  await charge(at, Math.max(1, docs.length));
  const scheme = await schemeOf(s.width, s.key);
  const { conflicts, found } = docs.length ? await write(t, at, scheme, docs) : { conflicts: [], found: new Map() };
  const documents = docs.filter((d) => found.has(d.id)).map((d) => ({ id: d.id, ...found.get(d.id) }));
  return json({ stored: docs.length - conflicts.length, conflicts, documents }, 200, t.headers());
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

export async function getDocumentKeys(id, at, { json, charge }) {
  const t = tracer(at);
  await charge(at, 1);
  const answer = await t.stub(homeOf(id, at.s.objects)).getDocument(id);
  const doc = answer.document;
  if (!doc) throw new HttpError(404, `no document ${JSON.stringify(id)}`);
  if (!at.s.exposeFingerprints) delete doc.fingerprint;
  return json(doc, 200, t.headers());
}

export async function deleteDocumentKeys(id, at, { json, charge }) {
  const { s, tenant } = at;
  const t = tracer(at);
  await charge(at, 1);
  const scheme = await schemeOf(s.width, s.key);
  const home = homeOf(id, s.objects);
  const begun = await t.stub(home).beginDelete({ id, scheme, where: { tenant, objects: s.objects } });
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

export async function listDocumentsKeys(after, limit, at, { json, charge }) {
  const t = tracer(at);
  await charge(at, 1);
  const all = Array.from({ length: at.s.objects }, (_, i) => i);
  const pages = await Promise.all(all.map((i) => t.stub(i).listIds(after, limit)));
  const ids = pages.flatMap((p) => p.ids).sort(compareIds).slice(0, limit);
  return json({ ids, next: ids.length === limit ? ids[ids.length - 1] : null }, 200, t.headers());
}

export async function statsKeys(at, { json, charge }) {
  const { s, tenant, env } = at;
  const t = tracer(at);
  await charge(at, 1);
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
