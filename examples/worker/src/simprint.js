// simprint in workerd: the package initialised with the compiled .wasm module, the deployment's
// settings from wrangler.toml [vars], and the text sink the request parser streams into.
import { initSync, Fingerprinter, Index, fromHex, toHex } from '../../../pkg/simprint.js';
// Wrangler (and Miniflare with a CompiledWasm rule) turns a .wasm import into a
// WebAssembly.Module; initSync instantiates it synchronously, once per isolate.
import wasmModule from '../../../pkg/simprint_bg.wasm';
import { HttpError } from './body.js';
import { TextSink } from './sink.js';

initSync({ module: wasmModule });

export { Index, fromHex, toHex };

const settingsCache = new WeakMap();

function whole(env, name, fallback, min, max) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new HttpError(500, `bad configuration: ${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}`);
  }
  return n;
}

/**
 * The deployment's settings, from wrangler.toml [vars] (numbers or numeric strings):
 * WIDTH (bits, default 64), K (default: the library's recommended 9 at 64 bits, scaled by
 * WIDTH / 64), MAX_BODY_BYTES (default 1 MiB), MAX_ID_LENGTH (default 256), SHARDS (default 1).
 */
export function settings(env) {
  let s = settingsCache.get(env);
  if (s) return s;
  const width = whole(env, 'WIDTH', 64, 1, 128);
  s = {
    width,
    k: whole(env, 'K', Math.round((9 * width) / 64), 0, width),
    maxBodyBytes: whole(env, 'MAX_BODY_BYTES', 1 << 20, 1, 100 * (1 << 20)),
    maxIdLength: whole(env, 'MAX_ID_LENGTH', 256, 1, 4096),
    shards: whole(env, 'SHARDS', 1, 1, 1024),
  };
  settingsCache.set(env, Object.freeze(s));
  return s;
}

const fingerprinters = new Map();

/** One Fingerprinter per width, options checked once per isolate. */
export function fingerprinterFor(width) {
  let fp = fingerprinters.get(width);
  if (!fp) fingerprinters.set(width, (fp = new Fingerprinter({ width })));
  return fp;
}

// A fixed text whose fingerprint names the fingerprinting scheme: a change of width, of the
// default pipeline or of the hashing in a new simprint version moves it (unless the change
// misses this English and Chinese text). Objects store the scheme of their fingerprints and
// refuse fingerprints of another scheme instead of comparing incompatible ones.
const CANARY = 'simprint scheme canary: The quick brown fox jumps over the lazy dog. 敏捷的棕色狐狸跳过了懒狗。';

const schemes = new Map();

export function schemeOf(width) {
  if (!schemes.has(width)) schemes.set(width, `w${width}:${toHex(fingerprinterFor(width).fingerprint(CANARY), width)}`);
  return schemes.get(width);
}

/** A sink for the "text" field of a request, fingerprinting at `width` bits (see sink.js). */
export const textSink = (width) => new TextSink(fingerprinterFor(width));
