// simprint in workerd: fingerprinters under the deployment's key, the scheme id of their
// fingerprints, and the text sink the request parser streams into. The package's `workerd`
// entry instantiates its .wasm on import (wrangler gives it as a compiled module).
import { Fingerprinter, Index, Plan, fromHex, toHex } from 'simprint';
import { CANARY } from './config.js';
import { TextSink } from './sink.js';

export { Index, fromHex, toHex };

const fingerprinters = new Map();

/** One Fingerprinter per width and key, options checked once per isolate. */
export function fingerprinterFor(width, key) {
  const name = `${width}:${key}`;
  let fp = fingerprinters.get(name);
  if (!fp) fingerprinters.set(name, (fp = new Fingerprinter({ width, key })));
  return fp;
}

// Objects store the scheme of their fingerprints and refuse fingerprints of another scheme
// instead of comparing incompatible ones. The scheme is an HMAC under the key of the
// fingerprint of a fixed text (config.js CANARY), not that fingerprint itself: a fingerprint
// under the secret key is what the key is there to keep from clients (and a 64-bit one could
// be searched for from a plain hash of it).
const schemes = new Map();

/** The scheme id of fingerprints made at `width` bits with `key`: "w<width>:<32 hex digits>". */
export function schemeOf(width, key) {
  const name = `${width}:${key}`;
  if (!schemes.has(name)) {
    const canary = toHex(fingerprinterFor(width, key).fingerprint(CANARY), width);
    schemes.set(name, hmacHex(key, `simprint scheme w${width} ${canary}`).then((mac) => `w${width}:${mac.slice(0, 32)}`));
  }
  return schemes.get(name);
}

async function hmacHex(keyHex, message) {
  const keyBytes = Uint8Array.from(keyHex.match(/../g), (b) => parseInt(b, 16));
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A sink for the "text" field of a request, fingerprinting at `width` bits with `key` (see sink.js). */
export const textSink = (width, key) => new TextSink(fingerprinterFor(width, key));

// Keys mode (routing.js): the plan whose K + 1 table keys route a document to its objects,
// and the plan an object files its documents under in SQLite once they outgrow memory.
const plans = new Map();

function planFor(name, options) {
  let plan = plans.get(name);
  if (!plan) plans.set(name, (plan = new Plan(options)));
  return plan;
}

/** K + 1 substrings, radius 0: a document's routing keys are its K + 1 table keys. */
export const routingPlan = (width, k) => planFor(`route:${width}:${k}`, { width, k, substrings: k + 1 });

/**
 * The plan of an object's SQLite tables: `substrings` substrings (keys of about 21 bits at 64
 * bits: a few thousand probes and a few candidates per million documents), probed within radii.
 */
export const storePlan = (width, k, substrings) =>
  planFor(`store:${width}:${k}:${substrings}`, { width, k, substrings });

/** A BigInt key as lowercase hex, the form routing hashes and SQL stores. */
export const keyHex = (key) => key.toString(16);
