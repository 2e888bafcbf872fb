// The deployment's configuration: [vars] from wrangler.toml and the two secrets (TOKENS,
// SIPHASH_KEY). Pure JavaScript, no simprint: tests run it under Node as well.
// Error messages name the setting but never echo a secret's value.
import { HttpError } from './body.js';

const settingsCache = new WeakMap();

const badConfig = (message) => new HttpError(500, `bad configuration: ${message}`);
const notConfigured = (message) =>
  new HttpError(500, `not configured: ${message} (see examples/worker/README.md, "Security")`);

function whole(env, name, fallback, min, max) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw badConfig(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}`);
  }
  return n;
}

function decimal(env, name, fallback, min, max) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) {
    throw badConfig(`${name} must be a number from ${min} to ${max}, not ${JSON.stringify(raw)}`);
  }
  return n;
}

/** A setting no longer offered: unset or its one remaining value, else a 500 saying what to use. */
function retired(env, name, only, instead) {
  const raw = env[name];
  if (raw === undefined || raw === '' || Number(raw) === only) return only;
  throw badConfig(`${name} is retired (only ${only} remains); ${instead}`);
}

function flag(env, name) {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === false || raw === 'false' || raw === '0' || raw === 0) return false;
  if (raw === true || raw === 'true' || raw === '1' || raw === 1) return true;
  throw badConfig(`${name} must be true or false, not ${JSON.stringify(raw)}`);
}

// A fixed text whose fingerprint stands for the fingerprinting scheme (simprint.js schemeOf):
// a change of width, of key, of the default pipeline or of the hashing in a new simprint
// version moves it (unless the change misses this English and Chinese text).
export const CANARY = 'simprint scheme canary: The quick brown fox jumps over the lazy dog. 敏捷的棕色狐狸跳过了懒狗。';

// The library's public default key ("simprint-sip-key"): anyone can compute with it.
const PUBLIC_KEY = '73696d7072696e742d7369702d6b6579';

// Values printed in this example's files over time (the old .dev.vars.example): public, so
// never secrets. `npm run setup` makes fresh ones.
export const PRINTED_KEYS = Object.freeze(['00112233445566778899aabbccddeeff']);
export const PRINTED_TOKENS = Object.freeze([
  'demo-token-not-secret-0123456789abcdef',
  'other-token-not-secret-0123456789abcdef',
]);

const MAKE_KEY = 'make one with `npm run setup` (for wrangler dev) or `openssl rand -hex 16`';
const MAKE_TOKEN = 'make one with `npm run setup` (for wrangler dev) or `openssl rand -hex 24`';

/**
 * SIPHASH_KEY: 32 hex digits, required; not the library's public default, not a value printed
 * in this example, and not 16 equal bytes (all zeros and the like: the first keys people type).
 */
export function parseKey(raw) {
  if (raw === undefined || raw === '') {
    throw notConfigured(`the SIPHASH_KEY secret is not set; the Worker does not fingerprint with a public key; ${MAKE_KEY}`);
  }
  if (typeof raw !== 'string' || !/^[0-9a-fA-F]{32}$/.test(raw)) {
    throw notConfigured(`the SIPHASH_KEY secret must be 32 hex digits (a 128-bit key); ${MAKE_KEY}`);
  }
  const key = raw.toLowerCase();
  if (key === PUBLIC_KEY) throw notConfigured(`SIPHASH_KEY is the library's public default key; ${MAKE_KEY}`);
  if (PRINTED_KEYS.includes(key)) throw notConfigured(`SIPHASH_KEY is a value printed in the example's files; ${MAKE_KEY}`);
  if (/^(..)\1{15}$/.test(key)) throw notConfigured(`SIPHASH_KEY is one byte repeated; ${MAKE_KEY}`);
  return key;
}

/** Fewest distinct characters a token may have: 32 random hex digits have 14 on average. */
export const MIN_TOKEN_DISTINCT = 8;

// Tenants name Durable Objects ("tenant:<name>/shard-…"): a small alphabet without ':' or '/'.
export const TENANT_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
// RFC 6750's b64token: what may follow "Bearer " in an Authorization header.
export const TOKEN_RE = /^[A-Za-z0-9\-._~+/]+=*$/;
export const MIN_TOKEN_LENGTH = 32;

/**
 * TOKENS: `tenant:token` entries separated by commas or whitespace. A tenant may have several
 * tokens (to rotate them); a token belongs to one tenant. Returns [{ tenant, token }].
 */
export function parseTokens(raw) {
  if (raw === undefined || raw === '') {
    throw notConfigured('the TOKENS secret is not set; the Worker serves no one without it');
  }
  if (typeof raw !== 'string') throw notConfigured('the TOKENS secret must be a string of tenant:token entries');
  const entries = [];
  const seen = new Set();
  const parts = raw.split(/[\s,]+/).filter((p) => p !== '');
  if (parts.length === 0) throw notConfigured('the TOKENS secret has no tenant:token entries');
  parts.forEach((part, i) => {
    const colon = part.indexOf(':');
    const tenant = part.slice(0, colon);
    const token = part.slice(colon + 1);
    // Entry numbers, never values, in messages: the value is a secret.
    const where = `TOKENS entry ${i + 1}`;
    if (colon < 0) throw notConfigured(`${where} is not of the form tenant:token`);
    if (!TENANT_RE.test(tenant)) throw notConfigured(`${where}: a tenant is 1-64 of a-z, 0-9, "_", "-", starting with a letter or digit`);
    if (token.length < MIN_TOKEN_LENGTH || !TOKEN_RE.test(token)) {
      throw notConfigured(`${where}: a token is at least ${MIN_TOKEN_LENGTH} of A-Z a-z 0-9 - . _ ~ + / (then any "="); ${MAKE_TOKEN}`);
    }
    // A guessable token is a shared one: refuse the obvious kinds (aaaa…, abab…, printed ones).
    if (new Set(token).size < MIN_TOKEN_DISTINCT) {
      throw notConfigured(`${where}: a token needs at least ${MIN_TOKEN_DISTINCT} different characters; ${MAKE_TOKEN}`);
    }
    if (PRINTED_TOKENS.includes(token)) throw notConfigured(`${where}: the token is a value printed in the example's files; ${MAKE_TOKEN}`);
    if (seen.has(token)) throw notConfigured(`${where}: the same token is given twice`);
    seen.add(token);
    entries.push({ tenant, token });
  });
  return entries;
}

/**
 * The deployment's settings, from wrangler.toml [vars] (numbers or numeric strings) and
 * secrets; see README.md for each. Throws a 500 HttpError naming the bad setting.
 */
export function settings(env) {
  let s = settingsCache.get(env);
  if (s) return s;
  retired(env, 'SHARDS', 1, 'spread a tenant over objects with ROUTING = "keys"');
  const width = whole(env, 'WIDTH', 64, 1, 128);
  const rate = decimal(env, 'RATE_LIMIT_PER_SECOND', 100, 0, 1e6);
  s = {
    width,
    k: whole(env, 'K', Math.round((9 * width) / 64), 0, width),
    maxBodyBytes: whole(env, 'MAX_BODY_BYTES', 1 << 20, 1, 100 * (1 << 20)),
    maxIdLength: whole(env, 'MAX_ID_LENGTH', 256, 1, 4096),
    bodyTimeoutMs: whole(env, 'BODY_TIMEOUT_MS', 10000, 1, 300000),
    exposeFingerprints: flag(env, 'EXPOSE_FINGERPRINTS'),
    // The tenant's token bucket (limiter.js); off when RATE_LIMIT_PER_SECOND is 0 or when Cloudflare's
    // rate limiting binding (RATE_LIMITER) is bound, which then does the limiting instead.
    rateLimit: env.RATE_LIMITER || rate === 0
      ? null
      : { perSecond: rate, burst: whole(env, 'RATE_LIMIT_BURST', Math.max(1, Math.ceil(2 * rate)), 1, 1e7) },
    key: parseKey(env.SIPHASH_KEY),
    ...keysSettings(env, width),
  };
  if (s.routing === 'keys' && s.k > MAX_KEYS_K) {
    throw badConfig(`ROUTING = "keys" routes by K + 1 table keys and needs K <= ${MAX_KEYS_K}, not ${s.k}`);
  }
  settingsCache.set(env, Object.freeze(s));
  return s;
}

/** Keys mode routes each document by K + 1 keys, one bit per table in a 31-bit mask. */
export const MAX_KEYS_K = 30;

/** ROUTING and the keys mode's settings (README.md, "Routing by key"). */
function keysSettings(env, width) {
  const routing = env.ROUTING === undefined || env.ROUTING === '' ? 'id' : env.ROUTING;
  if (routing !== 'id' && routing !== 'keys') {
    throw badConfig(`ROUTING must be "id" or "keys", not ${JSON.stringify(routing)}`);
  }
  // Substrings of about 21 bits, and never keys over 52 bits (SQLite integers, exact doubles).
  const substrings = Math.min(width, Math.max(Math.ceil(width / 52), Math.round(width / 21), 1));
  return {
    routing,
    objects: whole(env, 'OBJECTS', 16, 1, 4096),
    memoryDocuments: whole(env, 'MEMORY_DOCUMENTS', 20000, 0, 1e8),
    storeSubstrings: whole(env, 'STORE_SUBSTRINGS', substrings, Math.ceil(width / 52), width),
    healAfterMs: whole(env, 'HEAL_AFTER_MS', 10000, 10, 3600000),
    maxBatchDocuments: whole(env, 'MAX_BATCH_DOCUMENTS', 1000, 1, 10000),
    // Tests only: the object of this number fails the first write of key entries it gets after
    // each start, as an object that goes down mid-write would. -1 (the default): never.
    failFirstPutAt: whole(env, 'TEST_FAIL_FIRST_PUT_AT', -1, -1, 4095),
    // Tests only, the same for the first removal of key entries (a delete or a replace).
    failFirstRemoveAt: whole(env, 'TEST_FAIL_FIRST_REMOVE_AT', -1, -1, 4095),
  };
}
