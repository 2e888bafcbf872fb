// Fast paths of the commonest calls, taken only when the arguments are already what the
// generic export would make of them; anything else (hex strings, wider BigInts, options,
// values of the wrong type) goes to the generic export, which checks and words the errors.
//
// Why: the generic exports take every argument as a JS value and convert it from inside wasm,
// several calls back out per BigInt (typeof, the low word, `>> 64n`, the high word, an
// equality check) and one per string; measured under Node 20, hamming(a, b) spent about 2 µs
// there against a few ns of work. Here a BigInt below 2^64 crosses as a wasm i64, a string as
// the glue copies it in, and the fingerprint comes back as the glue's u128.
import * as glue from './simprint_glue.js';

const MAX64 = 0xffff_ffff_ffff_ffffn;

const word = (v) => typeof v === 'bigint' && v >= 0n && v <= MAX64;

export function hamming(a, b) {
  return word(a) && word(b) ? glue.__hamming64(a, b) : glue.hamming(a, b);
}

export function compare(a, b, options) {
  return options == null && word(a) && word(b)
    ? glue.__compare64(a, b)
    : glue.compare(a, b, options);
}

// Strings of ENCODE_MIN to ENCODE_MAX UTF-16 units are written as UTF-8 by
// `TextEncoder.encodeInto` straight into a buffer in wasm memory (the bindings' scratch.rs),
// which the bindings check as UTF-8: one copy and no allocation a call, where the glue copies
// with a charCodeAt loop (several times slower per character under Node 20) into memory it
// allocates and frees each call. encodeInto and its result object cost about 250 ns of their
// own, so shorter strings take the glue's path (the two cost the same at about 100 units); so
// do longer ones, where the copy is a small part of the call, so the buffer stays small (at
// most 3 bytes a unit: 192 KiB, kept for the instance's life).
const ENCODE_MIN = 100;
const ENCODE_MAX = 1 << 16;
const encoder = new TextEncoder();

// Characters looked at to guess whether a text is mostly ASCII.
const PROBES = 16;

// The wasm memory (asked for once, after the module is initialised) and a view of the scratch
// buffer in it, made again when the buffer must grow or the memory has grown (growing detaches
// the old ArrayBuffer, and a view of a detached one has length 0).
let memory;
let scratch = new Uint8Array(0);

// `text` written as UTF-8 into the scratch buffer, its length in bytes; or -1 where the glue's
// copy is quicker: outside the lengths above, and for text with many non-ASCII characters
// (CJK), whose bytes wasm would check for UTF-8 one character at a time (measured: as slow in
// all as the glue's copy, which stops at the first of them and hands the rest to encodeInto
// unchecked). PROBES characters spread over the text tell the two apart for a few reads.
function written(text) {
  const n = text.length;
  if (n < ENCODE_MIN || n > ENCODE_MAX) return -1;
  for (let i = 0; i < PROBES; i++) if (text.charCodeAt(((i * n) / PROBES) | 0) > 0x7f) return -1;
  memory ??= glue.__memory();
  if (scratch.length < n * 3) {
    // Grown by doubling, so a run of ever longer texts makes few views.
    const bytes = Math.min(Math.max(n * 3, 2 * scratch.length, 4096), 3 * ENCODE_MAX);
    const at = glue.__scratch(bytes);
    if (at === 0) return -1; // no memory for it: the glue's copy
    scratch = new Uint8Array(memory.buffer, at, bytes);
  }
  return encoder.encodeInto(text, scratch).written;
}

// fingerprint(text) is a default Fingerprinter's (made at the first call: the module may not
// be initialised before), so it takes the same entries.
let defaults;

export function fingerprint(text, options) {
  if (options !== undefined || typeof text !== 'string') return glue.fingerprint(text, options);
  defaults ??= new glue.Fingerprinter();
  const bytes = written(text);
  return bytes < 0 ? defaults.__fingerprintText(text) : defaults.__fingerprintScratch(bytes);
}

// Patched on the glue's class before guards.js wraps its methods (simprint.js imports this
// module first), so the freed-object check still comes first.
const {
  fingerprint: generic,
  fingerprintCounted: genericCounted,
  fingerprintMany: genericMany,
} = glue.Fingerprinter.prototype;
glue.Fingerprinter.prototype.fingerprint = function fingerprint(text) {
  if (typeof text !== 'string') return generic.call(this, text);
  const bytes = written(text);
  return bytes < 0 ? this.__fingerprintText(text) : this.__fingerprintScratch(bytes);
};
// fingerprintMany of an array of strings at 64 bits or fewer, one fingerprint call each: the
// generic export read each element from inside wasm (three calls out, and the glue's copy of
// the text), 1.7 times the time of a loop of fingerprint() over the same texts. Anything else
// (not an array, wider fingerprints, an element that is not a string or whose read throws)
// goes to the generic export, which checks and words the errors. The result grows by doubling,
// so a sparse array's length allocates nothing until its elements are there.
glue.Fingerprinter.prototype.fingerprintMany = function fingerprintMany(texts) {
  return many(this, texts) ?? genericMany.call(this, texts);
};

// The fingerprints of `texts` by `fp`, or undefined for the generic export to answer.
function many(fp, texts) {
  try {
    // Array.isArray throws for a revoked proxy: the generic export words that too.
    if (!Array.isArray(texts) || fp.width > 64) return undefined;
    const n = texts.length;
    let out = new BigUint64Array(0);
    for (let i = 0; i < n; i++) {
      const text = texts[i];
      if (typeof text !== 'string') return undefined;
      if (i === out.length) {
        const grown = new BigUint64Array(Math.min(n, Math.max(16, 2 * i)));
        grown.set(out);
        out = grown;
      }
      out[i] = fp.fingerprint(text);
    }
    return out;
  } catch {
    return undefined;
  }
}

// What the Workers and `simprint dedup` call for every document. The object is made here:
// made in wasm it cost two calls out (about 1 µs, as much as fingerprinting 150 characters).
glue.Fingerprinter.prototype.fingerprintCounted = function fingerprintCounted(text) {
  if (typeof text !== 'string') return genericCounted.call(this, text);
  const bytes = written(text);
  const fingerprint =
    bytes < 0 ? this.__fingerprintCountedText(text) : this.__fingerprintCountedScratch(bytes);
  return { fingerprint, features: glue.__lastCount() };
};

// The index's commonest calls, on a 64-bit index (the default): insert with a whole-number id,
// query with k and limit absent or numbers (negative ones, which are errors, take the generic
// path), each fingerprint a BigInt below 2^64 (read from inside wasm, each took several calls
// back out: about 0.4 µs). simprint/fingerprint has no Index.
const absentOr = (x) => x == null || (typeof x === 'number' && x >= 0);
if (glue.Index) {
  const { insert, query } = glue.Index.prototype;
  glue.Index.prototype.insert = function (id, fingerprint) {
    return Number.isSafeInteger(id) && id >= 0 && word(fingerprint) && this.width === 64
      ? this.__insert64(id, fingerprint)
      : insert.call(this, id, fingerprint);
  };
  glue.Index.prototype.query = function (fingerprint, k, limit) {
    return absentOr(k) && absentOr(limit) && word(fingerprint) && this.width === 64
      ? this.__query64(fingerprint, k ?? -1, limit ?? -1)
      : query.call(this, fingerprint, k, limit);
  };
}
