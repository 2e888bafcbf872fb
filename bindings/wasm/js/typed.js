// Reads caller-supplied typed arrays for the bindings (bindings/wasm/src/typed.rs).
//
// A value is taken for what its internal slots say, through the intrinsic getters of
// %TypedArray%.prototype, never through its own properties or methods: a proxy of a typed
// array has no such slots (and none of its traps is called), a subclass cannot make its
// length or subarray lie, and one from another realm (a vm context, an iframe) is recognised
// though `instanceof` says no. What the bindings get is a view of this realm over the same
// memory (no copy), which the wasm-bindgen glue copies into wasm memory or the bindings copy
// from in steps. Every export that reads is guarded (guard.js): whatever throws here becomes
// an Err in Rust, never an exception through wasm frames.

import { guarded } from './guard.js';

const TypedArray = Object.getPrototypeOf(Uint8Array.prototype);
const getter = (name) => Object.getOwnPropertyDescriptor(TypedArray, name).get;
// [[TypedArrayName]]: undefined for anything that is not a typed array, proxies included.
const kindOf = getter(Symbol.toStringTag);
const bufferOf = getter('buffer');
const byteOffsetOf = getter('byteOffset');
const lengthOf = getter('length');
// Throws for an array whose buffer is detached or too short for it now; reads nothing else.
const at = TypedArray.at;

const DETACHED = 'its ArrayBuffer is detached or no longer holds it';

/** The wasm module's memory (set once by the bindings) and its buffer, until it grows. */
let memory;
let memoryBuffer;

export function useMemory(m) {
  memory = m;
  memoryBuffer = m.buffer;
}

/** True if `buffer` is the module's memory. (Memory.buffer is slow to ask each time.) */
function inMemory(buffer) {
  // Growing the memory detaches the buffer it had.
  if (memoryBuffer.byteLength === 0) memoryBuffer = memory.buffer;
  return buffer === memoryBuffer;
}

/** A function giving a view of this realm over `value` if it is a `Type`, else undefined. */
function viewer(Type) {
  const kind = Type.name;
  return (value) => {
    if (kindOf.call(value) !== kind) return undefined;
    const length = lengthOf.call(value);
    // A detached array reads as empty: an error instead, not silently nothing.
    if (length === 0) {
      try {
        at.call(value, 0);
      } catch {
        throw new TypeError(DETACHED);
      }
    }
    const buffer = bufferOf.call(value);
    const view = new Type(buffer, byteOffsetOf.call(value), length);
    // An array in the module's own memory would be detached as soon as the module grows it
    // (allocating the copy may): copied out first.
    return inMemory(buffer) ? view.slice() : view;
  };
}

export const uint8ArrayOf = guarded(viewer(Uint8Array));
export const uint32ArrayOf = guarded(viewer(Uint32Array));
export const float64ArrayOf = guarded(viewer(Float64Array));
export const bigUint64ArrayOf = guarded(viewer(BigUint64Array));

/** Copies view[start .. start + dst.length) into `dst` (a view of wasm memory). */
export const copyTo = guarded((view, start, dst) => {
  const end = start + dst.length;
  if (view.length < end) throw new TypeError(DETACHED);
  dst.set(start === 0 && end === view.length ? view : view.subarray(start, end));
});
