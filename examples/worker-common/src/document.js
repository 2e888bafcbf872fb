// A submitted document as both Worker examples read it: a text body streamed into the
// fingerprinter, or a small JSON `{"id", "text"}`, made into what the objects are sent:
// `{ id, hex, k, features, textLength }` (the fingerprint in hex, the k the text asks to be
// checked at, its distinct features for the pair rule). Needs simprint (workerd entry).
import { toHex } from 'simprint';
import { readJson, readText, TextSink } from './body.js';
import { HttpError } from './http.js';
import { checkId } from './ids.js';
import { fingerprinterFor } from './scheme.js';

/**
 * The k a text asks to be checked at under settings `s`: its own recommended k (K = "auto", and
 * with K = "pair" against documents stored without a feature count), or the fixed K. The
 * objects cap it (MAX_K, and what they hold) and, with K = "pair", take each document's pair k
 * from both feature counts.
 */
export const askedK = (s, recommended) => (typeof s.k === 'number' ? s.k : recommended);

// One pass of a recommending stream gives a text's fingerprint, recommended k and feature
// count, for a body streamed in and for a JSON text alike.
const sinkFor = (s) =>
  new TextSink(fingerprinterFor(s.width, s.key, s.algorithm), { tolerance: s.tolerance });

function documentFrom(sink, s, id) {
  const { fingerprint, k, features } = sink.finish();
  return {
    id,
    hex: toHex(fingerprint, s.width),
    k: askedK(s, k),
    features,
    textLength: sink.units,
  };
}

/** The body as the document's text, fingerprinted as it streams in: never whole in memory. */
export async function readTextDocument(request, s, id) {
  const sink = sinkFor(s);
  try {
    await readText(request, { maxBytes: s.maxBodyBytes, timeoutMs: s.bodyTimeoutMs }, sink);
    return documentFrom(sink, s, id);
  } finally {
    sink.dispose();
  }
}

/**
 * `value` (parsed JSON) as a document `{"id", "text"}` (`id` optional unless `idRequired`);
 * `where` starts every message (an item of a batch), else they name the request body.
 */
export function jsonDocument(s, value, idRequired, where = '') {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HttpError(
      400,
      `${where || 'request body '}must be a JSON object {"id": string, "text": string}`,
    );
  }
  if (value.id === undefined && idRequired)
    throw new HttpError(400, `${where}missing "id" (a non-empty string)`);
  try {
    if (value.id !== undefined) checkId(value.id, s.maxIdLength);
  } catch (err) {
    err.message = where + err.message;
    throw err;
  }
  if (typeof value.text !== 'string')
    throw new HttpError(
      400,
      `${where}${value.text === undefined ? 'missing "text" (a string)' : '"text" must be a string'}`,
    );
  // One pass, as for a streamed body (not a fingerprint, then the text again for its k).
  const sink = sinkFor(s);
  try {
    sink.update(value.text);
    return documentFrom(sink, s, value.id ?? null);
  } finally {
    sink.dispose();
  }
}

/** A small JSON body `{"id", "text"}` (up to MAX_JSON_BYTES) as a document. */
export async function readJsonDocument(request, s, idRequired) {
  return jsonDocument(
    s,
    await readJson(request, { maxBytes: s.maxJsonBytes, timeoutMs: s.bodyTimeoutMs }),
    idRequired,
  );
}
