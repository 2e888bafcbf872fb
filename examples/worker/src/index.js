// Near-duplicate detection at the edge: a module Worker in front of Durable Objects that hold
// simprint indexes. The Worker authenticates the request (a bearer token names its tenant),
// parses and fingerprints request bodies (stateless, scales out); the tenant's objects
// (durable-object.js) store fingerprints and answer "what is within k of this?".
//
//   POST   /documents            {id, text} -> {id, duplicates: [{id, distance}], truncated, stored}
//   POST   /documents?dryRun=1   the same answer, nothing stored
//   POST   /check                {text, id?} -> the same answer, nothing stored (id: left out of the answer)
//   GET    /documents/:id        -> {id, textLength, createdAt, updatedAt}
//   DELETE /documents/:id        -> {id, deleted: true}
//   GET    /documents?after=&limit=  -> {ids, next}: every stored id, ascending, paged
//   GET    /stats                -> sizes, memory and settings
//   POST   /batch                {documents: [{id, text}, …]} -> {stored, conflicts, documents} (ROUTING = "keys" only)
// Every answer with duplicates also says whether the document is the `original` (no duplicate
// reported was stored before it) and marks each duplicate `earlier` or not (README, "Bursts").
// ROUTING = "id" (the default) keeps a tenant's documents in one object; ROUTING = "keys"
// spreads them over OBJECTS objects by table key (keys-routes.js, routing.js).
// (With EXPOSE_FINGERPRINTS, answers about one document carry its "fingerprint" too.)
import { authenticate } from './auth.js';
import { HttpError, parseDocumentBody } from './body.js';
import { settings } from './config.js';
import { SimprintIndex } from './durable-object.js';
import { checkId, idFromPath } from './ids.js';
import { SimprintKeys } from './key-store.js';
import {
  addDocumentKeys, batchKeys, deleteDocumentKeys, getDocumentKeys, listDocumentsKeys, statsKeys,
} from './keys-routes.js';
import { limiterName, SimprintLimiter } from './limiter.js';
import { shardName } from './shards.js';
import { schemeOf, textSink, toHex } from './simprint.js';

export { SimprintIndex, SimprintKeys, SimprintLimiter };

const json = (body, status = 200, headers = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });

export default {
  async fetch(request, env) {
    try {
      return await route(request, env);
    } catch (err) {
      if (err instanceof HttpError) return json({ error: err.message }, err.status, err.headers);
      // Anything else (a library Error, a failed object call) is answered, never left to crash.
      console.error('simprint worker:', err?.stack ?? err);
      return json({ error: `internal error: ${err?.message ?? String(err)}` }, 500);
    }
  },
};

function allow(request, methods) {
  if (!methods.includes(request.method)) {
    throw new HttpError(405, `method ${request.method} not allowed here; use ${methods.join(' or ')}`, {
      allow: methods.join(', '),
    });
  }
}

async function route(request, env) {
  // Who asks comes first: nothing else is said to a client without a valid token.
  const tenant = await authenticate(request, env);
  await rateLimitAtTheEdge(env, tenant);
  const s = settings(env);
  const url = new URL(request.url);
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const at = { env, tenant, s };
  if (path === '/documents') {
    allow(request, ['GET', 'POST']);
    if (request.method === 'GET') return listDocuments(url, at);
    return addDocument(request, at, { store: !flag(url, 'dryRun'), idRequired: true });
  }
  if (path === '/check') {
    allow(request, ['POST']);
    return addDocument(request, at, { store: false, idRequired: false });
  }
  if (path === '/stats') {
    allow(request, ['GET']);
    return s.routing === 'keys' ? statsKeys(at, helpers) : stats(at);
  }
  if (path === '/batch') {
    allow(request, ['POST']);
    if (s.routing !== 'keys') throw new HttpError(404, 'POST /batch is served with ROUTING = "keys"');
    return batchKeys(request, at, helpers);
  }
  const id = idFromPath(path);
  if (id !== null) {
    allow(request, ['GET', 'DELETE']);
    if (s.routing === 'keys') {
      return request.method === 'GET' ? getDocumentKeys(id, at, helpers) : deleteDocumentKeys(id, at, helpers);
    }
    return request.method === 'GET' ? getDocument(id, at) : deleteDocument(id, at);
  }
  throw new HttpError(404, `no route ${path}; see POST /documents, POST /check, GET|DELETE /documents/:id`);
}

// What the keys-mode handlers (keys-routes.js) need from here.
const helpers = {
  json: (...args) => json(...args),
  admitted: (answers) => admitted(answers),
  charge: (at, cost) => charge(at, cost),
};

// ---- rate limits ----
// One budget per tenant, whatever the routing. With Cloudflare's rate limiting binding bound
// (RATE_LIMITER, see wrangler.toml), it counts each tenant's requests here, before the body is
// read. Without it, a token bucket does: in the tenant's one object (ROUTING = "id", taken
// inside the call that does the work), or in the tenant's limiter object (ROUTING = "keys",
// asked by `charge` before any other object). Either way a refused request has written nothing.

// The binding does not say when its window (10 or 60 s) ends: the shorter one is the hint.
const BINDING_RETRY_AFTER = 10;

async function rateLimitAtTheEdge(env, tenant) {
  if (!env.RATE_LIMITER) return;
  const { success } = await env.RATE_LIMITER.limit({ key: `tenant:${tenant}` });
  if (!success) throw tooMany(BINDING_RETRY_AFTER);
}

const tooMany = (seconds) =>
  new HttpError(429, `too many requests for this tenant; retry after ${seconds} s`, { 'retry-after': String(seconds) });

/** The objects' answers, or a 429 with the longest wait any of them asked for. */
function admitted(answers) {
  const wait = Math.max(0, ...answers.map((a) => a.retryAfter ?? 0));
  if (wait === Infinity) {
    throw new HttpError(413, 'this request costs more tokens than RATE_LIMIT_BURST holds; send fewer documents at once');
  }
  if (wait > 0) throw tooMany(wait);
  return answers;
}

/**
 * Keys mode: takes `cost` tokens (a batch: one per document) from the tenant's limiter, or
 * throws 429. Called once per request, before any object that stores anything is asked.
 */
async function charge({ env, tenant, s }, cost) {
  if (!s.rateLimit) return;
  if (!env.LIMITER) throw new Error('the LIMITER Durable Object binding is missing (see wrangler.toml)');
  admitted([await env.LIMITER.get(env.LIMITER.idFromName(limiterName(tenant))).take(cost)]);
}

function flag(url, name) {
  const v = url.searchParams.get(name);
  if (v === null || v === '0' || v === 'false') return false;
  if (v === '' || v === '1' || v === 'true') return true;
  throw new HttpError(400, `${name} must be 1, true, 0 or false`);
}

// ---- the tenant's object (ROUTING = "id") ----
// Every object belongs to one tenant: its name starts with the tenant (shards.js shardName),
// so one tenant's requests never reach another's documents. One object holds all of a
// tenant's documents and serializes their checks and stores (ROUTING = "keys" spreads them).

function tenantObject({ env, tenant }) {
  if (!env.INDEX) throw new Error('the INDEX Durable Object binding is missing (see wrangler.toml)');
  return env.INDEX.get(env.INDEX.idFromName(shardName(tenant)));
}

// ---- handlers ----

/** The request's document, fingerprinted as it streams in: { id, hex, textLength }. */
async function readDocument(request, s, idRequired) {
  // The body streams through the parser into the sink's fingerprinter; it is never whole in memory.
  const sink = textSink(s.width, s.key);
  let id;
  let hex;
  try {
    const parsed = await parseDocumentBody(request, {
      maxBytes: s.maxBodyBytes, maxIdLength: s.maxIdLength, timeoutMs: s.bodyTimeoutMs, sink,
    });
    id = parsed.id;
    if (id === undefined && idRequired) throw new HttpError(400, 'missing "id" (a non-empty string)');
    if (id !== undefined) checkId(id);
    if (!parsed.hasText) throw new HttpError(400, 'missing "text" (a string)');
    hex = toHex(sink.finish(), s.width);
  } finally {
    sink.dispose();
  }
  return { id, hex, textLength: sink.units };
}

async function addDocument(request, at, { store, idRequired }) {
  const { s } = at;
  const doc = await readDocument(request, s, idRequired);
  if (s.routing === 'keys') return addDocumentKeys(doc, at, { store, ...helpers });
  const { id, hex } = doc;
  const call = { id: id ?? null, hex, textLength: doc.textLength, scheme: await schemeOf(s.width, s.key), store };
  const [answer] = admitted([await tenantObject(at).add(call)]);
  const { duplicates, truncated, created } = answer;
  // Fingerprints under the secret key stay inside unless the deployment says otherwise: with
  // them, a client could work out feature hashes (a one-word text's fingerprint is its hash).
  const shown = s.exposeFingerprints ? { fingerprint: hex } : {};
  // One object runs each check-and-store alone: every duplicate it reports was stored earlier.
  const marked = duplicates.map((d) => ({ ...d, earlier: true }));
  return json({ id: id ?? null, ...shown, duplicates: marked, truncated, original: marked.length === 0, stored: store },
    created ? 201 : 200);
}

async function getDocument(id, at) {
  const [answer] = admitted([await tenantObject(at).getDocument(id)]);
  const doc = answer.document;
  if (!doc) throw new HttpError(404, `no document ${JSON.stringify(id)}`);
  if (!at.s.exposeFingerprints) delete doc.fingerprint;
  return json(doc);
}

async function deleteDocument(id, at) {
  const [answer] = admitted([await tenantObject(at).deleteDocument(id)]);
  if (!answer.deleted) throw new HttpError(404, `no document ${JSON.stringify(id)}`);
  return json({ id, deleted: true });
}

async function listDocuments(url, at) {
  const after = url.searchParams.get('after') ?? '';
  const limitParam = url.searchParams.get('limit') ?? '100';
  const limit = Number(limitParam);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) {
    throw new HttpError(400, 'limit must be a whole number from 1 to 1000');
  }
  if (at.s.routing === 'keys') return listDocumentsKeys(after, limit, at, helpers);
  const [{ ids }] = admitted([await tenantObject(at).listIds(after, limit)]);
  return json({ ids, next: ids.length === limit ? ids[ids.length - 1] : null });
}

async function stats(at) {
  const { s, tenant, env } = at;
  const [object] = admitted([await tenantObject(at).stats()]);
  return json({
    tenant,
    routing: 'id',
    width: s.width,
    k: s.k,
    maxBodyBytes: s.maxBodyBytes,
    bodyTimeoutMs: s.bodyTimeoutMs,
    exposeFingerprints: s.exposeFingerprints,
    rateLimit: env.RATE_LIMITER ? 'binding' : s.rateLimit ?? 'off',
    ...object,
  });
}
