// Document ids: which strings may be ids, and how they travel in URL paths. Pure JavaScript:
// the tests run it under Node as well.
import { HttpError } from './http.js';

const ITEM = /^\/documents\/([^/]+)$/;
const BASE = 'http://ids.invalid';

/**
 * The id a `/documents/<percent-encoded id>` path names, null when the path is not of that
 * form. Throws 400 on bad percent-encoding (which includes encoded lone surrogates).
 */
export function idFromPath(pathname) {
  const item = ITEM.exec(pathname);
  if (!item) return null;
  try {
    return decodeURIComponent(item[1]);
  } catch {
    throw new HttpError(400, 'the document id in the path is not valid percent-encoding of UTF-8');
  }
}

/**
 * Whether `id`, percent-encoded, comes back as itself through a URL parser and idFromPath:
 * false for "." and ".." (dot segments, removed by URL parsing, also as %2e) and for strings
 * that are not well-formed Unicode (encodeURIComponent refuses lone surrogates).
 */
export function addressable(id) {
  let encoded;
  try {
    encoded = encodeURIComponent(id);
  } catch {
    return false;
  }
  try {
    return idFromPath(new URL(`/documents/${encoded}`, BASE).pathname) === id;
  } catch {
    return false;
  }
}

/**
 * Throws 400 unless `id` can be stored and addressed: a string of 1 to `maxLength` UTF-16 units,
 * well-formed (no lone surrogates, which SQLite cannot store as they are), that survives a URL
 * path.
 */
export function checkId(id, maxLength) {
  if (typeof id !== 'string') throw new HttpError(400, '"id" must be a string');
  if (id === '') throw new HttpError(400, '"id" must not be empty');
  if (id.length > maxLength)
    throw new HttpError(400, `"id" is longer than ${maxLength} characters`);
  if (!id.isWellFormed())
    throw new HttpError(400, '"id" is not well-formed Unicode (it has a lone surrogate)');
  if (!addressable(id)) {
    throw new HttpError(
      400,
      `"id" ${JSON.stringify(id)} cannot be used in a URL path: ` +
        '/documents/<percent-encoded id> must give it back unchanged, and for "." and ".." (dot segments) it does not',
    );
  }
}
