// Caller values are read from Rust only through the functions of these snippets, and none of
// them throws: an exception (a throwing getter, a proxy trap, a detached buffer) is caught
// here, described, and kept until Rust takes it with `takeFailure`.
//
// Why not wasm-bindgen's `catch` imports: when one that returns a JS value catches an
// exception, the slot its return value was given in the externref table is never freed, so
// every caught exception leaked a table slot and about 8 bytes of wasm memory, for good.

/** The description of the last exception a reader caught, until taken. */
let failure;

/** Most characters of a thrown message repeated in our errors. */
const MESSAGE_CHARS = 200;

function cut(text) {
  return text.length <= MESSAGE_CHARS
    ? text
    : `${text.slice(0, MESSAGE_CHARS)}… (${text.length} characters in all)`;
}

/** What a thrown value says: its message, or the thrown string; never throws itself. */
function describe(e) {
  try {
    if (typeof e === 'string') return cut(e);
    if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
      const message = e.message; // a getter or proxy may throw: caught below
      if (typeof message === 'string') return cut(message);
    }
    return `a ${e === null ? 'null' : typeof e} was thrown`;
  } catch {
    return 'an exception was thrown';
  }
}

/** `f`, returning undefined and keeping the failure instead of throwing. */
export function guarded(f) {
  return function (...args) {
    try {
      return f.apply(this, args);
    } catch (e) {
      failure = describe(e);
      return undefined;
    }
  };
}

/** The failure kept since the last call, if any (and forgets it). */
export function takeFailure() {
  const f = failure;
  failure = undefined;
  return f;
}

/** `object[key]`. */
export const get = guarded((object, key) => object[key]);

// The lists of names `fields` has been given, split once.
const lists = new Map();

/**
 * An options object's fields `names` (separated by ", "), in one call, as an array whose first
 * element says what the rest is: an unsigned 32-bit mask (bit i set when `names[i]` is neither
 * undefined nor null), then each field's value; or UNKNOWN, then the first own key not among
 * the names; or THREW, then -1 when listing the keys threw or i when reading `names[i]` did
 * (the failure kept). Always an array with a number first, so Rust tells them apart with one
 * read.
 */
const UNKNOWN = -1;
const THREW = -2;
export function fields(object, names) {
  let list = lists.get(names);
  if (list === undefined) lists.set(names, (list = names.split(', ')));
  let i = -1;
  try {
    for (const key of Object.keys(object)) if (!list.includes(key)) return [UNKNOWN, key];
    const read = [0];
    for (i = 0; i < list.length; i++) {
      const value = object[list[i]];
      if (value !== undefined && value !== null) read[0] = (read[0] | (1 << i)) >>> 0;
      read.push(value);
    }
    return read;
  } catch (e) {
    failure = describe(e);
    return [THREW, i];
  }
}

/** `Array.isArray(value)`; false for a revoked proxy, which makes it throw. */
export function isArray(value) {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}
