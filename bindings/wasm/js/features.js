// Reads caller-supplied features for the bindings (bindings/wasm/src/features.rs) on the JavaScript
// side, so that a list of any length crosses into wasm as a few typed arrays instead of
// several calls per feature.
//
// Every function reads each element once and gives up (returns undefined) at the first thing
// that does not fit; the bindings then read the input element by element and report the error
// in their own words. Anything thrown here (a getter, a proxy trap, memory running out) is
// caught (guard.js) and reaches Rust as an Err, which takes the same way.

import { guarded } from './guard.js';

const encoder = new TextEncoder();

/**
 * features[0 .. n) as UTF-8, one after another, with each one's length in bytes and, for
 * [feature, weight] pairs, the weights: `{ bytes, lengths, weights }` (no `weights` for
 * strings). The form follows features[0] (a string or not) unless `stringsOnly`.
 */
export const joinFeatures = guarded((features, n, stringsOnly) => {
  const out = new Utf8(n);
  if (n === 0) return out.done();
  const first = features[0];
  const item = (i) => (i === 0 ? first : features[i]); // each element read once
  if (stringsOnly || typeof first === 'string') {
    for (let i = 0; i < n; i++) {
      const s = item(i);
      if (typeof s !== 'string' || !out.push(s)) return undefined;
    }
    return out.done();
  }
  const weights = new Grow(Float64Array, n);
  for (let i = 0; i < n; i++) {
    // The checks of the pair reader in Rust, in its order: a pair, its weight, its feature.
    const pair = item(i);
    if (!Array.isArray(pair) || pair.length !== 2) return undefined;
    const w = pair[1];
    if (!Number.isFinite(w)) return undefined; // false for anything but a finite number
    const s = pair[0];
    if (typeof s !== 'string' || !out.push(s)) return undefined;
    weights.push(w);
  }
  return { ...out.done(), weights: weights.done() };
});

/**
 * A fresh Float64Array of `weights`, an array whose n elements are all numbers. (A
 * Float64Array of weights is read in typed.js, as every typed array is.)
 */
export const copyWeights = guarded((weights, n) => {
  if (!Array.isArray(weights)) return undefined;
  const out = new Grow(Float64Array, n);
  for (let i = 0; i < n; i++) {
    const w = weights[i];
    if (typeof w !== 'number') return undefined;
    out.push(w);
  }
  return out.done();
});

/**
 * Strings encoded one by one into one buffer, as wasm-bindgen passes a string: ASCII copied
 * in a loop, the rest from the first other unit on by TextEncoder (a lone surrogate becomes
 * U+FFFD). Each string is encoded on its own, so it reads exactly as it would alone.
 */
class Utf8 {
  constructor(n) {
    this.bytes = new Uint8Array(Math.min(n, 1 << 16) * 8);
    this.at = 0;
    this.lengths = new Grow(Uint32Array, n);
  }

  /** Adds `s`; false if TextEncoder did not take all of it (it always does). */
  push(s) {
    const n = s.length;
    const start = this.at;
    let bytes = this.room(n);
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) break;
      bytes[start + i] = c;
    }
    let end = start + i;
    if (i < n) {
      const rest = i === 0 ? s : s.slice(i);
      // At most 3 bytes per UTF-16 unit (a surrogate pair: 4 bytes for 2 units).
      bytes = this.room(i + 3 * rest.length);
      const { read, written } = encoder.encodeInto(rest, bytes.subarray(end));
      if (read !== rest.length) return false;
      end += written;
    }
    this.lengths.push(end - start);
    this.at = end;
    return true;
  }

  /** The buffer, with room for `more` bytes from `at` on. */
  room(more) {
    if (this.bytes.length - this.at < more) {
      const bigger = new Uint8Array(Math.max(2 * this.bytes.length, this.at + more));
      bigger.set(this.bytes); // with what push has written past `at`
      this.bytes = bigger;
    }
    return this.bytes;
  }

  done() {
    return { bytes: this.bytes.subarray(0, this.at), lengths: this.lengths.done() };
  }
}

/**
 * A typed array filled from the front, doubling as needed: a sparse array's length is no
 * measure of its content, so not much is allocated for it up front.
 */
class Grow {
  constructor(Type, n) {
    this.array = new Type(Math.min(n, 4096));
    this.length = 0;
  }

  push(x) {
    if (this.length === this.array.length) {
      const bigger = new this.array.constructor(Math.max(16, this.array.length * 2));
      bigger.set(this.array);
      this.array = bigger;
    }
    this.array[this.length++] = x;
  }

  done() {
    return this.array.subarray(0, this.length);
  }
}
