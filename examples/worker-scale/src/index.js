// Near-duplicate detection at the edge, past one Durable Object: a tenant's documents are spread
// over OBJECTS objects by table key (routing.js), so a check asks at most k + 1 of them however
// many there are. The Worker authenticates the request (a bearer token names its tenant),
// fingerprints the text as the body streams in, and talks to the tenant's objects
// (key-store.js); a small limiter object per tenant holds its rate limit (limiter.js).
//
//   PUT    /documents/:id        the text as the body -> {id, k, duplicates: [{id, distance, k?, earlier}], truncated, original, stored}
//   POST   /documents            {"id", "text"} (JSON, up to MAX_JSON_BYTES) -> the same
//   PUT|POST …?dryRun=1          the same answer, nothing stored
//   POST   /check                the text as the body, or {"text", "id"?} as JSON -> the same answer, nothing stored
//   POST   /batch                {"documents": [{"id", "text"}, …]} -> {stored, conflicts, documents}
//   GET    /documents/:id        -> {id, textLength, features, createdAt, updatedAt, state}
//   DELETE /documents/:id        -> {id, deleted: true}
//   GET    /documents?after=&limit=  -> {ids, next}: every stored id, ascending, paged
//   GET    /stats                -> sizes and settings, one entry per object
// Every answer carries x-simprint-subrequests (object calls this request made) and
// x-simprint-objects (distinct objects it touched), so the bound on a check is observable.
//
// A write, in order, each step awaited before the next:
//   0. the tenant's limiter takes the request's tokens (one per document), or it is a 429;
//   1. begin at the id's home object: the record becomes pending (so a failure later is healed);
//   2. entries of replaced versions removed from their owners, then the new entries put, each
//      owner checking what it holds within the text's k right after taking them (insert, then
//      check);
//   3. commit at the home: stored. Only then is the write acknowledged.
// A failure after 1 answers 503 and leaves the record pending; the home's alarm finishes the
// write (HEAL_AFTER_MS later), and a retry by the client does the same at once.
//
// Bursts: two near-duplicates agree in at least one routing table among the first k + 1, so
// both writes reach the owner of that table's key; that object takes and checks them one after
// the other, and the later one's check sees the earlier one. So of two near-duplicates written
// at the same moment at least one reports the other, and the owner of the lowest table in which
// they agree says which came first: that one is `original`, the other is not.
import { authenticate } from 'simprint-worker-common/auth';
import { readJson } from 'simprint-worker-common/body';
import { jsonDocument, readJsonDocument, readTextDocument } from 'simprint-worker-common/document';
import {
  allow,
  errorResponse,
  HttpError,
  json,
  queryFlag,
  tooMany,
} from 'simprint-worker-common/http';
import { checkId, idFromPath } from 'simprint-worker-common/ids';
import { schemeOf } from 'simprint-worker-common/scheme';
import { defaults } from 'simprint';
import { SimprintKeys } from './key-store.js';
import { layoutConflict, layoutOf, objectsOf } from './layout.js';
import { limiterName, SimprintLimiter } from './limiter.js';
import { keyHex, routingPlan } from './plans.js';
import { compareIds, homeOf, mergeById, ownersOf } from './routing.js';
import { MAX_DUPLICATES, reachOf, settings } from './settings.js';
import { deliver, keysStub } from './write.js';

export { SimprintKeys, SimprintLimiter };

export default {
  async fetch(request, env) {
    try {
      return await route(request, env);
    } catch (err) {
      return errorResponse(err);
    }
  },
};

async function route(request, env) {
  // Who asks comes first: nothing else is said to a client without a valid token.
  const tenant = await authenticate(request, env);
  await rateLimitAtTheEdge(env, tenant);
  const s = settings(env);
  const url = new URL(request.url);
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const at = { env, tenant, s, t: tracer(env, tenant, s) };
  if (path === '/documents') {
    allow(request, ['GET', 'POST']);
    if (request.method === 'GET') return listDocuments(url, at);
    return add(at, await readJsonDocument(request, s, true), !queryFlag(url, 'dryRun'));
  }
  if (path === '/check') {
    allow(request, ['POST']);
    const isJson = /^application\/json\b/i.test(request.headers.get('content-type') ?? '');
    return add(
      at,
      isJson ? await readJsonDocument(request, s, false) : await readTextDocument(request, s, null),
      false,
    );
  }
  if (path === '/batch') {
    allow(request, ['POST']);
    return batch(request, at);
  }
  if (path === '/stats') {
    allow(request, ['GET']);
    return stats(at);
  }
  const id = idFromPath(path);
  if (id !== null) {
    allow(request, ['GET', 'PUT', 'DELETE']);
    if (request.method === 'PUT') {
      checkId(id, s.maxIdLength);
      return add(at, await readTextDocument(request, s, id), !queryFlag(url, 'dryRun'));
    }
    return request.method === 'GET' ? getDocument(id, at) : deleteDocument(id, at);
  }
  throw new HttpError(
    404,
    `no route ${path}; see PUT /documents/:id, POST /check, POST /batch, GET|DELETE /documents/:id`,
  );
}

// ---- rate limits ----
// One budget per tenant. With Cloudflare's rate limiting binding bound (RATE_LIMITER, see
// wrangler.toml), it counts each tenant's requests here, before the body is read. Without it,
// the tenant's limiter object does, asked by `admit` before any object that stores anything.

const BINDING_RETRY_AFTER = 10; // the binding does not say when its window (10 or 60 s) ends

async function rateLimitAtTheEdge(env, tenant) {
  if (!env.RATE_LIMITER) return;
  const { success } = await env.RATE_LIMITER.limit({ key: `tenant:${tenant}` });
  if (!success) throw tooMany(BINDING_RETRY_AFTER);
}

// ---- the tenant's object: its rate limit and its layout (layout.js) ----

// Tenants whose recorded layout this isolate has seen equal to its own. Settings do not change
// within an isolate (a deployment starts new ones), so without a rate limit to take, the
// tenant's object is asked once per tenant and isolate after its first write.
const confirmed = new Set();

/**
 * Admits a request of `cost` tokens (a batch: one per document; `writes`: it may store): throws
 * 429 when the tenant's limiter says so, and a 500 naming both layouts when the tenant's
 * documents are filed under other routing settings than this deployment's (layout.js). With
 * `report`, answers that conflict's message instead of throwing it (GET /stats).
 */
async function admit(at, cost, { writes = false, report = false } = {}) {
  const { env, tenant, s } = at;
  const layout = layoutOf(s);
  const seen = `${tenant}\n${layout}`;
  if (!s.rateLimit && confirmed.has(seen)) return null;
  if (!env.LIMITER)
    throw new Error('the LIMITER Durable Object binding is missing (see wrangler.toml)');
  const tenantObject = env.LIMITER.get(env.LIMITER.idFromName(limiterName(tenant)));
  let { recorded, retryAfter } = await tenantObject.admit({ cost, layout, writes });
  if (recorded !== null && recorded !== layout) {
    // Another layout: this deployment may take the tenant over only if nothing is filed under it.
    const old = objectsOf(recorded);
    const counts = await Promise.all(
      Array.from({ length: old }, (_, i) => at.t.stubOf(i, old).stats()),
    );
    const documents = counts.reduce((n, c) => n + c.documents + c.unsettled, 0);
    if (documents > 0 || counts.some((c) => c.held > 0)) {
      const message = layoutConflict(recorded, layout, documents);
      if (report) return message;
      throw new HttpError(500, message);
    }
    await tenantObject.replaceLayout({ from: recorded, to: layout });
    ({ recorded, retryAfter } = await tenantObject.admit({ cost, layout, writes }));
    if (recorded !== null && recorded !== layout) {
      throw new HttpError(503, "the tenant's layout changed meanwhile; retry", {
        'retry-after': '1',
      });
    }
  }
  if (recorded === layout) confirmed.add(seen);
  if (retryAfter) throw tooMany(retryAfter);
  return null;
}

// ---- the tenant's objects ----

/** Calls to the tenant's objects, counted: `trace.calls` sub-requests to `trace.objects`. */
function tracer(env, tenant, s) {
  const trace = { calls: 0, objects: new Set() };
  // Not a thenable: `then` stays undefined, so a counted stub may pass through await safely.
  const count = (real, key) =>
    new Proxy(
      {},
      {
        get: (_, method) =>
          method === 'then'
            ? undefined
            : (...args) => {
                trace.calls++;
                trace.objects.add(key);
                return real[method](...args);
              },
      },
    );
  const stubs = new Map();
  const stub = (i) => {
    if (!stubs.has(i)) stubs.set(i, count(keysStub(env, tenant, i, s.objects), i));
    return stubs.get(i);
  };
  // Object `i` of `n` (another layout's, for admit's check of what is filed under it).
  const stubOf = (i, n) =>
    n === s.objects ? stub(i) : count(keysStub(env, tenant, i, n), `${i}-of-${n}`);
  const headers = () => ({
    'x-simprint-subrequests': String(trace.calls),
    'x-simprint-objects': String(trace.objects.size),
  });
  return { stub, stubOf, headers };
}

const keysOf = (s) => (hex) => routingPlan(s.width, s.maxK).keys(hex).map(keyHex);

const unfinished = (err) => {
  console.error('simprint: a write did not finish:', err?.stack ?? err);
  return new HttpError(
    503,
    'the write did not finish (an object failed); it is finished within HEAL_AFTER_MS ' +
      "by the document's home object, or at once by sending the same request again",
    { 'retry-after': '1' },
  );
};

const conflict = (id) =>
  new HttpError(409, `another version of ${JSON.stringify(id)} is being written; retry shortly`, {
    'retry-after': '1',
  });

// ---- handlers ----

// Bodies become documents in simprint-worker-common/document (shared with the other example).

/**
 * A dry run: the duplicates of `hex` (but `exceptId`) within its k, over the owners of its
 * first reach + 1 keys (reach: the largest k a held document may be checked at, settings.js
 * reachOf; see routing.js): at most min(reach + 1, OBJECTS) calls.
 */
async function checkAll({ s, t }, { hex, k, features }, exceptId, scheme) {
  const owners = ownersOf(keysOf(s)(hex).slice(0, reachOf(s, k, features) + 1), s.objects);
  const answers = await Promise.all(
    [...owners].map(([o, mask]) =>
      t.stub(o).check({
        queries: [{ hex, k, features, exceptId: exceptId ?? null, mask }],
        scheme,
      }),
    ),
  );
  return mergeById(
    answers.map((a) => a.results[0]),
    MAX_DUPLICATES,
    { stored: false, pair: s.k === 'pair' },
  );
}

/** PUT /documents/:id, POST /documents (store or dry run) and POST /check. */
async function add(at, doc, store) {
  const { s, t } = at;
  const { id, hex, k, features } = doc;
  if (store && id === null) throw new HttpError(400, 'missing "id" (a non-empty string)');
  await admit(at, 1, { writes: store });
  const scheme = await schemeOf(s.width, s.key, s.algorithm);
  const shown = s.exposeFingerprints ? { fingerprint: hex } : {};
  // The objects' k (mergeById) comes after, and replaces this one: every check asks some.
  const reach = reachOf(s, k, features);
  if (!store) {
    const found = await checkAll(at, doc, id, scheme);
    return json({ id, ...shown, k: reach, ...found, stored: false }, 200, t.headers());
  }
  const written = await write(at, scheme, [doc]);
  if (written.conflicts.length > 0) throw conflict(id);
  return json(
    { id, ...shown, k: reach, ...written.found.get(id), stored: true },
    written.created.has(id) ? 201 : 200,
    t.headers(),
  );
}

/**
 * Steps 1 to 3 above for `docs` (distinct ids). Returns { created: Set, conflicts: [id],
 * found: Map(id -> { duplicates, truncated, original }) } (no entry for a conflict).
 */
async function write({ s, tenant, t }, scheme, docs) {
  const where = { tenant, objects: s.objects };
  const homes = groupBy(docs, (d) => homeOf(d.id, s.objects));
  const begun = await Promise.all(
    [...homes].map(([h, items]) =>
      t.stub(h).begin({
        items: items.map(({ id, hex, textLength, features }) => ({
          id,
          hex,
          textLength,
          features,
        })),
        scheme,
        where,
      }),
    ),
  );
  const results = begun.flatMap((b) => b.results);
  const conflicts = results.filter((r) => r.conflict).map((r) => r.id);
  const created = new Set(results.filter((r) => r.created).map((r) => r.id));
  const byId = new Map(docs.map((d) => [d.id, d]));
  // A version already stored (a retry) is put again, which changes nothing, for its check.
  const todo = results
    .filter((r) => !r.conflict)
    .map((r) => ({
      id: r.id,
      hex: byId.get(r.id).hex,
      k: byId.get(r.id).k,
      features: byId.get(r.id).features,
      stale: r.stale ?? [],
      done: r.done,
    }));
  const found = new Map();
  if (todo.length === 0) return { created, conflicts, found };
  try {
    const { answers } = await deliver({
      stub: t.stub,
      keysOf: keysOf(s),
      n: s.objects,
      scheme,
      docs: todo,
      check: true,
    });
    for (const [id, list] of answers)
      found.set(id, mergeById(list, MAX_DUPLICATES, { stored: true, pair: s.k === 'pair' }));
    const pending = todo.filter((d) => !d.done);
    const committed = await Promise.all(
      [...groupBy(pending, (d) => homeOf(d.id, s.objects))].map(([h, items]) =>
        t.stub(h).commit({ items: items.map(({ id, hex }) => ({ id, hex })) }),
      ),
    );
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
 * its checks) per owner object; `documents` gives each stored one's `{ id, k, duplicates,
 * truncated, original }`, as a single write would (documents of one batch see each other).
 * Costs one rate-limit token per document. The body is JSON up to MAX_BODY_BYTES; the ids must
 * be distinct.
 */
async function batch(request, at) {
  const { s, t } = at;
  const body = await readJson(request, { maxBytes: s.maxBodyBytes, timeoutMs: s.bodyTimeoutMs });
  const list = body?.documents;
  if (!Array.isArray(list))
    throw new HttpError(400, 'expected {"documents": [{"id": …, "text": …}, …]}');
  if (list.length > s.maxBatchDocuments) {
    throw new HttpError(
      413,
      `a batch holds at most ${s.maxBatchDocuments} documents (MAX_BATCH_DOCUMENTS), not ${list.length}`,
    );
  }
  const seen = new Set();
  const docs = list.map((d, i) => {
    const doc = jsonDocument(s, d, true, `documents[${i}]: `);
    if (seen.has(doc.id))
      throw new HttpError(400, `documents[${i}]: id ${JSON.stringify(doc.id)} appears twice`);
    seen.add(doc.id);
    return doc;
  });
  await admit(at, Math.max(1, docs.length), { writes: docs.length > 0 });
  const scheme = await schemeOf(s.width, s.key, s.algorithm);
  const { conflicts, found } = docs.length
    ? await write(at, scheme, docs)
    : { conflicts: [], found: new Map() };
  const documents = docs
    .filter((d) => found.has(d.id))
    .map((d) => ({ id: d.id, k: reachOf(s, d.k, d.features), ...found.get(d.id) }));
  return json({ stored: docs.length - conflicts.length, conflicts, documents }, 200, t.headers());
}

async function getDocument(id, at) {
  const { t } = at;
  await admit(at, 1);
  const { document } = await t.stub(homeOf(id, at.s.objects)).getDocument(id);
  if (!document) throw new HttpError(404, `no document ${JSON.stringify(id)}`);
  if (!at.s.exposeFingerprints) delete document.fingerprint;
  return json(document, 200, t.headers());
}

async function deleteDocument(id, at) {
  const { s, tenant, t } = at;
  await admit(at, 1);
  const scheme = await schemeOf(s.width, s.key, s.algorithm);
  const home = homeOf(id, s.objects);
  const begun = await t
    .stub(home)
    .beginDelete({ id, scheme, where: { tenant, objects: s.objects } });
  if (begun.conflict) throw conflict(id);
  if (!begun.found) throw new HttpError(404, `no document ${JSON.stringify(id)}`);
  try {
    await deliver({
      stub: t.stub,
      keysOf: keysOf(s),
      n: s.objects,
      scheme,
      docs: [{ id, hex: begun.hex, stale: begun.stale }],
      deleting: true,
    });
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

async function listDocuments(url, at) {
  const { t } = at;
  const after = url.searchParams.get('after') ?? '';
  const limit = Number(url.searchParams.get('limit') ?? '100');
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) {
    throw new HttpError(400, 'limit must be a whole number from 1 to 1000');
  }
  await admit(at, 1);
  const all = Array.from({ length: at.s.objects }, (_, i) => i);
  const pages = await Promise.all(all.map((i) => t.stub(i).listIds(after, limit)));
  const ids = pages
    .flatMap((p) => p.ids)
    .sort(compareIds)
    .slice(0, limit);
  return json({ ids, next: ids.length === limit ? ids[ids.length - 1] : null }, 200, t.headers());
}

async function stats(at) {
  const { s, tenant, env, t } = at;
  const layoutProblem = await admit(at, 1, { report: true });
  const all = Array.from({ length: s.objects }, (_, i) => i);
  const perObject = await Promise.all(all.map((i) => t.stub(i).stats()));
  const sum = (key) => perObject.reduce((n, p) => n + p[key], 0);
  return json(
    {
      tenant,
      width: s.width,
      algorithm: s.algorithm,
      k: s.k,
      tolerance: s.tolerance ?? defaults().tolerance.near,
      maxK: s.maxK,
      objects: s.objects,
      routingTables: s.maxK + 1,
      storeSubstrings: s.storeSubstrings,
      // null, or why every other route is refused: documents filed under other settings.
      layoutConflict: layoutProblem,
      memoryDocuments: s.memoryDocuments,
      healAfterMs: s.healAfterMs,
      maxBodyBytes: s.maxBodyBytes,
      maxJsonBytes: s.maxJsonBytes,
      exposeFingerprints: s.exposeFingerprints,
      rateLimit: env.RATE_LIMITER ? 'binding' : (s.rateLimit ?? 'off'),
      documents: sum('documents'),
      unsettled: sum('unsettled'),
      held: sum('held'),
      // Held entries without a feature count (stored before counts were kept): with K = "pair"
      // the owner checks them at the asking text's recommended k until they are stored again.
      uncounted: sum('uncounted'),
      probeRows: sum('probeRows'),
      memoryBytes: sum('memoryBytes'),
      sqlBytes: sum('sqlBytes'),
      perObject,
    },
    200,
    t.headers(),
  );
}
