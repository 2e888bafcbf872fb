// A deployment's settings: numbers and flags from wrangler.toml's [vars], and the two secrets
// (TOKENS, SIPHASH_KEY). Messages name the setting but never echo a secret's value. Pure
// JavaScript, no simprint: the tests run it under Node as well.
import { HttpError } from './http.js';

const badConfig = (message) => new HttpError(500, `bad configuration: ${message}`);
const notConfigured = (message) =>
  new HttpError(500, `not configured: ${message} (see the example's README, "Security")`);

/** A whole number setting from `min` to `max`, `fallback` when unset. */
export function whole(env, name, fallback, min, max) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw badConfig(
      `${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}`,
    );
  }
  return n;
}

/** A number setting from `min` to `max`, `fallback` when unset. */
export function decimal(env, name, fallback, min, max) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) {
    throw badConfig(`${name} must be a number from ${min} to ${max}, not ${JSON.stringify(raw)}`);
  }
  return n;
}

/** A true/false setting (also "1"/"0"), false when unset. */
export function flag(env, name) {
  const raw = env[name];
  if (
    raw === undefined ||
    raw === '' ||
    raw === false ||
    raw === 'false' ||
    raw === '0' ||
    raw === 0
  )
    return false;
  if (raw === true || raw === 'true' || raw === '1' || raw === 1) return true;
  throw badConfig(`${name} must be true or false, not ${JSON.stringify(raw)}`);
}

/**
 * K: "pair" (each pair of texts at the k of both their sizes, simprint's pairK), "auto" (each
 * text at its own recommended k) or a whole number from 0 to `width` (one k for every text).
 * Unset: `fallback`, the example's default.
 */
export function kSetting(env, width, fallback) {
  const raw = env.K;
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'auto' || raw === 'pair') return raw;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0 || n > width) {
    throw badConfig(
      `K must be "pair", "auto" or a whole number from 0 to ${width}, not ${JSON.stringify(raw)}`,
    );
  }
  return n;
}

/**
 * TOLERANCE: the share of a text's words (CJK characters) that may be edited in a
 * near-duplicate, as simprint's recommendedK takes it (`fp.calibrate` fits one to pairs you
 * labelled); unset, the library's default. `check(tolerance)` is the library's own check (it
 * throws the library's message), so this file keeps no rule of its own.
 */
export function toleranceSetting(env, check) {
  const raw = env.TOLERANCE;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n))
    throw badConfig(`TOLERANCE must be a number, not ${JSON.stringify(raw)}`);
  try {
    check(n);
  } catch (err) {
    throw badConfig(`TOLERANCE ${JSON.stringify(raw)}: ${err.message}`);
  }
  return n;
}

/**
 * ALGORITHM: the fingerprints' algorithm, "simhash" (unset: the library's default) or
 * "minhash" (one-bit MinHash, the library's quality mode with WIDTH = 128). `check(name)` is the
 * library's own check (it throws the library's message), so this file keeps no list of names.
 */
export function algorithmSetting(env, fallback, check) {
  const raw = env.ALGORITHM;
  if (raw === undefined || raw === '') return fallback;
  try {
    check(raw);
  } catch (err) {
    throw badConfig(`ALGORITHM ${JSON.stringify(raw)}: ${err.message}`);
  }
  return raw;
}

/** One of `choices`, the first when unset. */
export function choice(env, name, choices) {
  const raw = env[name];
  if (raw === undefined || raw === '') return choices[0];
  if (!choices.includes(raw))
    throw badConfig(
      `${name} must be ${choices.map((c) => JSON.stringify(c)).join(' or ')}, not ${JSON.stringify(raw)}`,
    );
  return raw;
}

/**
 * The request body limits, shared by both examples: MAX_BODY_BYTES (a text body), MAX_JSON_BYTES
 * (a JSON body, parsed whole), BODY_TIMEOUT_MS (reading either) and MAX_ID_LENGTH.
 */
export function bodyLimits(env) {
  return {
    maxBodyBytes: whole(env, 'MAX_BODY_BYTES', 1 << 20, 1, 100 * (1 << 20)),
    maxJsonBytes: whole(env, 'MAX_JSON_BYTES', 1 << 16, 16, 16 * (1 << 20)),
    bodyTimeoutMs: whole(env, 'BODY_TIMEOUT_MS', 10000, 1, 300000),
    maxIdLength: whole(env, 'MAX_ID_LENGTH', 256, 1, 4096),
  };
}

/**
 * The tenant's rate limit: `{ perSecond, burst }` from RATE_LIMIT_PER_SECOND (100) and
 * RATE_LIMIT_BURST (twice that); null when 0, or when Cloudflare's rate limiting binding
 * (RATE_LIMITER) is bound and does the limiting instead.
 */
export function rateLimit(env) {
  const rate = decimal(env, 'RATE_LIMIT_PER_SECOND', 100, 0, 1e6);
  if (env.RATE_LIMITER || rate === 0) return null;
  return {
    perSecond: rate,
    burst: whole(env, 'RATE_LIMIT_BURST', Math.max(1, Math.ceil(2 * rate)), 1, 1e7),
  };
}

// Values printed in the examples' files over time (an old .dev.vars.example): public, so never
// secrets. `npm run setup` makes fresh ones.
export const PRINTED_KEYS = Object.freeze(['00112233445566778899aabbccddeeff']);
export const PRINTED_TOKENS = Object.freeze([
  'demo-token-not-secret-0123456789abcdef',
  'other-token-not-secret-0123456789abcdef',
]);

const MAKE_KEY = 'make one with `npm run setup` (for wrangler dev) or `openssl rand -hex 16`';
const MAKE_TOKEN = 'make one with `npm run setup` (for wrangler dev) or `openssl rand -hex 24`';

/**
 * SIPHASH_KEY: 32 hex digits, required; not `publicKey` (the library's default, from
 * simprint's `defaults()`), not a value printed in the examples, and not 16 equal bytes (all
 * zeros and the like: the first keys people type). Returns it in lowercase.
 */
export function parseKey(raw, { publicKey }) {
  if (raw === undefined || raw === '') {
    throw notConfigured(
      `the SIPHASH_KEY secret is not set; the Worker does not fingerprint with a public key; ${MAKE_KEY}`,
    );
  }
  if (typeof raw !== 'string' || !/^[0-9a-fA-F]{32}$/.test(raw)) {
    throw notConfigured(
      `the SIPHASH_KEY secret must be 32 hex digits (a 128-bit key); ${MAKE_KEY}`,
    );
  }
  const key = raw.toLowerCase();
  if (key === publicKey.toLowerCase())
    throw notConfigured(`SIPHASH_KEY is the library's public default key; ${MAKE_KEY}`);
  if (PRINTED_KEYS.includes(key))
    throw notConfigured(`SIPHASH_KEY is a value printed in the example's files; ${MAKE_KEY}`);
  if (/^(..)\1{15}$/.test(key))
    throw notConfigured(`SIPHASH_KEY is one byte repeated; ${MAKE_KEY}`);
  return key;
}

// Tenants name Durable Objects ("tenant:<name>/…"): a small alphabet without ':' or '/'.
export const TENANT_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
// RFC 6750's b64token: what may follow "Bearer " in an Authorization header.
export const TOKEN_RE = /^[A-Za-z0-9\-._~+/]+=*$/;
export const MIN_TOKEN_LENGTH = 32;
/** Fewest distinct characters a token may have: 32 random hex digits have 14 on average. */
export const MIN_TOKEN_DISTINCT = 8;

/**
 * TOKENS: `tenant:token` entries separated by commas or whitespace. A tenant may have several
 * tokens (to rotate them); a token belongs to one tenant. Returns [{ tenant, token }].
 */
export function parseTokens(raw) {
  if (raw === undefined || raw === '') {
    throw notConfigured(
      `the TOKENS secret is not set; the Worker serves no one without it; ${MAKE_TOKEN}`,
    );
  }
  if (typeof raw !== 'string')
    throw notConfigured('the TOKENS secret must be a string of tenant:token entries');
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
    if (!TENANT_RE.test(tenant))
      throw notConfigured(
        `${where}: a tenant is 1-64 of a-z, 0-9, "_", "-", starting with a letter or digit`,
      );
    if (token.length < MIN_TOKEN_LENGTH || !TOKEN_RE.test(token)) {
      throw notConfigured(
        `${where}: a token is at least ${MIN_TOKEN_LENGTH} of A-Z a-z 0-9 - . _ ~ + / (then any "="); ${MAKE_TOKEN}`,
      );
    }
    // A guessable token is a shared one: refuse the obvious kinds (aaaa…, abab…, printed ones).
    if (new Set(token).size < MIN_TOKEN_DISTINCT) {
      throw notConfigured(
        `${where}: a token needs at least ${MIN_TOKEN_DISTINCT} different characters; ${MAKE_TOKEN}`,
      );
    }
    if (PRINTED_TOKENS.includes(token))
      throw notConfigured(
        `${where}: the token is a value printed in the example's files; ${MAKE_TOKEN}`,
      );
    if (seen.has(token)) throw notConfigured(`${where}: the same token is given twice`);
    seen.add(token);
    entries.push({ tenant, token });
  });
  return entries;
}

/** A settings object per `env`, computed once (`make(env)`), frozen. */
export function cachedSettings(make) {
  const cache = new WeakMap();
  return (env) => {
    let s = cache.get(env);
    if (!s) cache.set(env, (s = Object.freeze(make(env))));
    return s;
  };
}
