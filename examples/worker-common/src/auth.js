// Who is asking: a bearer token from the TOKENS secret names the tenant whose documents the
// request may see. Tokens are compared as SHA-256 digests with crypto.subtle.timingSafeEqual
// (workerd), so neither the content nor the length of a configured token shows in timing.
import { HttpError } from './http.js';
import { parseTokens, TOKEN_RE } from './settings.js';

const encoder = new TextEncoder();
const sha256 = async (text) => crypto.subtle.digest('SHA-256', encoder.encode(text));

// Per isolate: the digests of the configured tokens, computed once per env.
const digestsCache = new WeakMap();

function tokenDigests(env) {
  let digests = digestsCache.get(env);
  if (!digests) {
    const entries = parseTokens(env.TOKENS); // throws (500, not configured) before caching
    digests = Promise.all(
      entries.map(async ({ tenant, token }) => ({ tenant, digest: await sha256(token) })),
    );
    digestsCache.set(env, digests);
  }
  return digests;
}

const REALM = 'Bearer realm="simprint"';
const unauthorized = (message, error) =>
  new HttpError(401, message, { 'www-authenticate': error ? `${REALM}, error="${error}"` : REALM });

/**
 * The tenant of the request's `Authorization: Bearer <token>`. Throws 401 (with
 * WWW-Authenticate) when the header is missing or the token unknown, 500 when TOKENS is unset
 * or malformed: with no tokens configured nobody is served.
 */
export async function authenticate(request, env) {
  const digests = await tokenDigests(env);
  const header = request.headers.get('authorization');
  const match = header === null ? null : /^Bearer +(\S+) *$/i.exec(header);
  if (!match) throw unauthorized('this needs an Authorization: Bearer <token> header');
  // A token no configured token could equal is not digested at all.
  if (!TOKEN_RE.test(match[1])) throw unauthorized('unknown bearer token', 'invalid_token');
  const presented = await sha256(match[1]);
  // Every entry is compared, whichever matches, so the time does not depend on which one does.
  let tenant = null;
  for (const entry of digests) {
    const equal = crypto.subtle.timingSafeEqual(presented, entry.digest);
    if (equal && tenant === null) tenant = entry.tenant;
  }
  if (tenant === null) throw unauthorized('unknown bearer token', 'invalid_token');
  return tenant;
}
