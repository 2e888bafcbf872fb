// Near-duplicate detection at the edge: a module Worker in front of one Durable Object per
// tenant that holds a simprint index (store.js). The Worker authenticates the request (a bearer
// token names its tenant) and fingerprints the text as the body streams in (stateless, scales
// out); the tenant's object stores fingerprints and answers "what is within k of this?".
//
//   PUT    /documents/:id        the text as the body -> {id, k, duplicates: [{id, distance, k?, earlier}], truncated, original, stored}
//   POST   /documents            {"id", "text"} (JSON, up to MAX_JSON_BYTES) -> the same
//   PUT|POST …?dryRun=1          the same answer, nothing stored
//   POST   /check                the text as the body, or {"text", "id"?} as JSON -> the same answer, nothing stored
//   GET    /documents/:id        -> {id, textLength, features, createdAt, updatedAt}
//   DELETE /documents/:id        -> {id, deleted: true}
//   GET    /documents?after=&limit=  -> {ids, next}: every stored id, ascending, paged
//   GET    /stats                -> sizes, memory and settings
// (With EXPOSE_FINGERPRINTS, answers about one document carry its "fingerprint" too.)
import { authenticate } from 'simprint-worker-common/auth';
import { readJsonDocument, readTextDocument } from 'simprint-worker-common/document';
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
import { settings } from './settings.js';
import { SimprintIndex } from './store.js';

export { SimprintIndex };

export default {
  async fetch(request, env) {
    try {
      return await route(request, env);
    } catch (err) {
      // Anything else (a library Error, a failed object call) is answered, never left to crash.
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
  const at = { env, tenant, s };
  if (path === '/documents') {
    allow(request, ['GET', 'POST']);
    if (request.method === 'GET') return listDocuments(url, at);
    return check(at, await readJsonDocument(request, s, true), !queryFlag(url, 'dryRun'));
  }
  if (path === '/check') {
    allow(request, ['POST']);
    const isJson = /^application\/json\b/i.test(request.headers.get('content-type') ?? '');
    const doc = isJson
      ? await readJsonDocument(request, s, false)
      : await readTextDocument(request, s, null);
    return check(at, doc, false);
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
      return check(at, await readTextDocument(request, s, id), !queryFlag(url, 'dryRun'));
    }
    return request.method === 'GET' ? getDocument(id, at) : deleteDocument(id, at);
  }
  throw new HttpError(
    404,
    `no route ${path}; see PUT /documents/:id, POST /check, GET|DELETE /documents/:id`,
  );
}

// ---- rate limits ----
// One budget per tenant. With Cloudflare's rate limiting binding bound (RATE_LIMITER, see
// wrangler.toml), it counts each tenant's requests here, before the body is read. Without it,
// the tenant's object keeps a token bucket, taken in the call that does the work.

// The binding does not say when its window (10 or 60 s) ends: the shorter one is the hint.
const BINDING_RETRY_AFTER = 10;

async function rateLimitAtTheEdge(env, tenant) {
  if (!env.RATE_LIMITER) return;
  const { success } = await env.RATE_LIMITER.limit({ key: `tenant:${tenant}` });
  if (!success) throw tooMany(BINDING_RETRY_AFTER);
}

/** The object's answer, or a 429 when it asked the client to wait. */
function admitted(answer) {
  if (answer.retryAfter) throw tooMany(answer.retryAfter);
  return answer;
}

// ---- the tenant's object ----
// Every object belongs to one tenant: its name starts with the tenant, so one tenant's
// requests never reach another's documents. Tenants hold no ':' or '/' (TOKENS' rules).

function tenantObject({ env, tenant }) {
  if (!env.INDEX)
    throw new Error('the INDEX Durable Object binding is missing (see wrangler.toml)');
  // The name an earlier version gave the tenant's one object, so its documents stay.
  return env.INDEX.get(env.INDEX.idFromName(`tenant:${tenant}/shard-0-of-1`));
}

// ---- handlers ----

// Bodies become documents in simprint-worker-common/document (shared with the other example).

async function check(at, { id, hex, k, features, textLength }, store) {
  const { s } = at;
  if (store && id === null) throw new HttpError(400, 'missing "id" (a non-empty string)');
  const scheme = await schemeOf(s.width, s.key, s.algorithm);
  const answer = admitted(
    await tenantObject(at).add({ id, hex, k, features, textLength, scheme, store }),
  );
  // One object runs each check-and-store alone: every duplicate it reports was stored earlier.
  const duplicates = answer.duplicates.map((d) => ({ ...d, earlier: true }));
  // Fingerprints under the secret key stay inside unless the deployment says otherwise: with
  // them, a client could work out feature hashes (a one-word text's fingerprint is its hash).
  const shown = s.exposeFingerprints ? { fingerprint: hex } : {};
  return json(
    {
      id,
      ...shown,
      k: answer.k,
      duplicates,
      truncated: answer.truncated,
      original: duplicates.length === 0,
      stored: store,
    },
    answer.created ? 201 : 200,
  );
}

async function getDocument(id, at) {
  const { document } = admitted(await tenantObject(at).getDocument(id));
  if (!document) throw new HttpError(404, `no document ${JSON.stringify(id)}`);
  if (!at.s.exposeFingerprints) delete document.fingerprint;
  return json(document);
}

async function deleteDocument(id, at) {
  const { deleted } = admitted(await tenantObject(at).deleteDocument(id));
  if (!deleted) throw new HttpError(404, `no document ${JSON.stringify(id)}`);
  return json({ id, deleted: true });
}

async function listDocuments(url, at) {
  const after = url.searchParams.get('after') ?? '';
  const limit = Number(url.searchParams.get('limit') ?? '100');
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) {
    throw new HttpError(400, 'limit must be a whole number from 1 to 1000');
  }
  const { ids } = admitted(await tenantObject(at).listIds(after, limit));
  return json({ ids, next: ids.length === limit ? ids[ids.length - 1] : null });
}

async function stats(at) {
  const { s, tenant, env } = at;
  const object = admitted(await tenantObject(at).stats());
  return json({
    tenant,
    width: s.width,
    algorithm: s.algorithm,
    k: s.k,
    tolerance: s.tolerance ?? defaults().tolerance.near,
    maxK: s.maxK,
    maxBodyBytes: s.maxBodyBytes,
    maxJsonBytes: s.maxJsonBytes,
    bodyTimeoutMs: s.bodyTimeoutMs,
    exposeFingerprints: s.exposeFingerprints,
    rateLimit: env.RATE_LIMITER ? 'binding' : (s.rateLimit ?? 'off'),
    ...object,
  });
}
