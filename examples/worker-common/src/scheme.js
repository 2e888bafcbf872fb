// The scheme of a deployment's fingerprints: the width, the algorithm, the key and simprint's
// pipeline, as one id that objects store beside their fingerprints and compare with the
// Worker's, so that a changed WIDTH, ALGORITHM or SIPHASH_KEY, or a simprint version that moves
// fingerprints, is refused instead of comparing fingerprints that cannot be compared. Needs
// simprint (workerd entry).
import { Fingerprinter, defaults, toHex } from 'simprint';

// A fixed text whose fingerprint stands for the scheme: a change of width, of key, of the
// default pipeline or of the hashing moves it (unless the change misses this English and
// Chinese text).
export const CANARY =
  'simprint scheme canary: The quick brown fox jumps over the lazy dog. 敏捷的棕色狐狸跳过了懒狗。';

/** The library's public default key, which no deployment may use as its secret. */
export const PUBLIC_KEY = defaults().options.key;

/** The library's default algorithm (SimHash): its scheme ids name no algorithm, as before there
 *  was a choice. */
const SIMHASH = defaults().options.algorithm;

const fingerprinters = new Map();

/** One Fingerprinter per width, key and algorithm, options checked once per isolate. */
export function fingerprinterFor(width, key, algorithm = SIMHASH) {
  const name = `${width}:${key}:${algorithm}`;
  let fp = fingerprinters.get(name);
  if (!fp) fingerprinters.set(name, (fp = new Fingerprinter({ width, key, algorithm })));
  return fp;
}

const schemes = new Map();

/**
 * The scheme id of fingerprints made at `width` bits with `key` by `algorithm`:
 * "w<width>:<32 hex digits>" for the default algorithm (SimHash: the ids objects stored before
 * there was a choice), "w<width>-<algorithm>:<32 hex digits>" for another; the digits are an
 * HMAC under the key of the canary's fingerprint, not that fingerprint itself: a fingerprint
 * under the secret key is what the key keeps from clients.
 */
export function schemeOf(width, key, algorithm = SIMHASH) {
  const name = `${width}:${key}:${algorithm}`;
  if (!schemes.has(name)) {
    const canary = toHex(fingerprinterFor(width, key, algorithm).fingerprint(CANARY), width);
    const kind = algorithm === SIMHASH ? `w${width}` : `w${width}-${algorithm}`;
    schemes.set(
      name,
      hmacHex(key, `simprint scheme ${kind} ${canary}`).then(
        (mac) => `${kind}:${mac.slice(0, 32)}`,
      ),
    );
  }
  return schemes.get(name);
}

async function hmacHex(keyHex, message) {
  const keyBytes = Uint8Array.from(keyHex.match(/../g), (b) => parseInt(b, 16));
  const key = await crypto.subtle.importKey(
    'raw',
    keyBytes,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message)),
  );
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}
