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
// `TextEncoder.encodeInto` into one reused buffer (at most 3 bytes a unit): under Node 20
// several times quicker per character than the glue's charCodeAt loop, but with about 250 ns
// of its own (the view, the result object), so shorter strings take the glue's path (they
// cost the same at about 100 units), and so do longer ones, where the copy is a small part of
// the call, so the buffer stays small.
const ENCODE_MIN = 100;
const ENCODE_MAX = 1 << 16;
const encoder = new TextEncoder();
let buffer = new Uint8Array(1024);

// Characters looked at to guess whether a text is mostly ASCII.
const PROBES = 16;

// The UTF-8 of `text` in the reused buffer, or undefined where the glue's copy is quicker:
// outside the lengths above, and for text with many non-ASCII characters (CJK), whose bytes
// wasm would then check for UTF-8 one by one (about 10 % of a 10 KB Chinese document's call),
// while the glue's loop stops at the first of them and hands the rest to encodeInto unchecked.
// PROBES characters spread over the text tell the two apart for the cost of a few reads.
function utf8(text) {
  const n = text.length;
  if (n < ENCODE_MIN || n > ENCODE_MAX) return undefined;
  for (let i = 0; i < PROBES; i++)
    if (text.charCodeAt(((i * n) / PROBES) | 0) > 0x7f) return undefined;
  if (buffer.length < n * 3) buffer = new Uint8Array(n * 3);
  return buffer.subarray(0, encoder.encodeInto(text, buffer).written);
}

export function fingerprint(text, options) {
  if (options !== undefined || typeof text !== 'string') return glue.fingerprint(text, options);
  const bytes = utf8(text);
  return bytes ? glue.__fingerprintUtf8(bytes) : glue.__fingerprintText(text);
}

// Patched on the glue's class before guards.js wraps its methods (simprint.js imports this
// module first), so the freed-object check still comes first.
const generic = glue.Fingerprinter.prototype.fingerprint;
glue.Fingerprinter.prototype.fingerprint = function fingerprint(text) {
  if (typeof text !== 'string') return generic.call(this, text);
  const bytes = utf8(text);
  return bytes ? this.__fingerprintUtf8(bytes) : this.__fingerprintText(text);
};
