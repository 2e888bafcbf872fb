// simprint in workerd: fingerprinters under the deployment's key, the scheme id of their
// fingerprints, and the text sink the request parser streams into. The package's `workerd`
// entry instantiates its .wasm on import (wrangler gives it as a compiled module).
import { Fingerprinter, Index, fromHex, toHex } from 'simprint';
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
