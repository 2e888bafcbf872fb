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
//   POST   /batch                {documents: [{id, text}, …]} -> {stored, conflicts} (ROUTING = "keys" only)
// ROUTING = "id" (the default) spreads documents over SHARDS objects by id; ROUTING = "keys"
// over OBJECTS objects by table key (keys-routes.js, routing.js).
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
import { compareIds, MAX_DUPLICATES, mergeDuplicates, shardName, shardOf } from './shards.js';
import { schemeOf, textSink, toHex } from './simprint.js';

export { SimprintIndex, SimprintKeys };

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
const helpers = { json: (...args) => json(...args), admitted: (answers) => admitted(answers) };

// ---- rate limits ----
// With Cloudflare's rate limiting binding bound (RATE_LIMITER, see wrangler.toml), it counts
// each tenant's requests here, before the body is read. Without it, each object keeps a token
// bucket (durable-object.js) and answers { retryAfter } instead of doing the work.

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
  if (wait > 0) throw tooMany(wait);
  return answers;
}

function flag(url, name) {
  const v = url.searchParams.get(name);
  if (v === null || v === '0' || v === 'false') return false;
  if (v === '' || v === '1' || v === 'true') return true;
  throw new HttpError(400, `${name} must be 1, true, 0 or false`);
}

// ---- shards ----
// Every object belongs to one tenant: its name starts with the tenant (shards.js shardName),
// so one tenant's requests never reach another's documents.
// SHARDS = 1: one object per tenant holds everything. SHARDS = N: a document lives in the
// tenant's object hash(id) mod N; a duplicate check asks all N objects at once and merges by
// distance (each object answers at most MAX_DUPLICATES, so a merge is N pages, however many
// match). The object names carry N, so changing SHARDS starts from new, empty objects instead
// of looking for documents in the wrong ones (moving data between shard counts is a migration).

function shard({ env, tenant, s }, i) {
  if (!env.INDEX) throw new Error('the INDEX Durable Object binding is missing (see wrangler.toml)');
  return env.INDEX.get(env.INDEX.idFromName(shardName(tenant, i, s.shards)));
}

const allShards = ({ s }) => Array.from({ length: s.shards }, (_, i) => i);

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
  const call = { id: id ?? null, hex, textLength: doc.textLength, scheme: await schemeOf(s.width, s.key) };

  let answers;
  if (s.shards === 1) answers = [await shard(at, 0).add({ ...call, store })];
  else {
    // A store is charged to the id's shard only, so a refusal there leaves nothing written.
    const home = id === undefined ? -1 : shardOf(id, s.shards);
    answers = await Promise.all(allShards(at).map((i) =>
      shard(at, i).add({ ...call, store: store && i === home, charge: !store || i === home })));
  }
  admitted(answers);
  const { duplicates, truncated } = mergeDuplicates(answers, MAX_DUPLICATES);
  const created = answers.some((a) => a.created);
  // Fingerprints under the secret key stay inside unless the deployment says otherwise: with
  // them, a client could work out feature hashes (a one-word text's fingerprint is its hash).
  const shown = s.exposeFingerprints ? { fingerprint: hex } : {};
  return json({ id: id ?? null, ...shown, duplicates, truncated, stored: store }, created ? 201 : 200);
}

async function getDocument(id, at) {
  const [answer] = admitted([await shard(at, shardOf(id, at.s.shards)).getDocument(id)]);
  const doc = answer.document;
  if (!doc) throw new HttpError(404, `no document ${JSON.stringify(id)}`);
  if (!at.s.exposeFingerprints) delete doc.fingerprint;
  return json(doc);
}

async function deleteDocument(id, at) {
  const [answer] = admitted([await shard(at, shardOf(id, at.s.shards)).deleteDocument(id)]);
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
  const pages = admitted(await Promise.all(allShards(at).map((i) => shard(at, i).listIds(after, limit))));
  const ids = pages.flatMap((p) => p.ids).sort(compareIds).slice(0, limit);
  return json({ ids, next: ids.length === limit ? ids[ids.length - 1] : null });
}

async function stats(at) {
  const { s, tenant, env } = at;
  const perShard = admitted(await Promise.all(allShards(at).map((i) => shard(at, i).stats())));
  const sum = (key) => perShard.reduce((t, p) => t + p[key], 0);
  return json({
    tenant,
    width: s.width,
    k: s.k,
    maxBodyBytes: s.maxBodyBytes,
    bodyTimeoutMs: s.bodyTimeoutMs,
    shards: s.shards,
    exposeFingerprints: s.exposeFingerprints,
    rateLimit: env.RATE_LIMITER ? 'binding' : s.rateLimit ?? 'off',
    documents: sum('documents'),
    indexed: sum('indexed'),
    memoryBytes: sum('memoryBytes'),
    perShard,
  });
}
