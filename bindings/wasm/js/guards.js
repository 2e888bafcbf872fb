// Guards the package's exports put around wasm-bindgen's glue (simprint_glue.js), so misuse
// is a clear Error and never a call into wasm that cannot work:
//
// - Before initialisation, the glue's functions read an undefined `wasm` and throw a
//   TypeError from its insides. Node and workerd entries initialise on import; in browsers
//   `await init()` must come first, and until then every export says so.
// - A method called on a freed object hands wasm a null pointer, and wasm-bindgen throws from
//   inside wasm; the exception skips the wasm frames' epilogues, so each such call leaked
//   shadow stack, and some twenty thousand left the instance failing every call ("memory
//   access out of bounds"). Checked here, the call never enters wasm, and free() of a freed
//   object does nothing.

let ready = false;

const NOT_READY =
  "simprint is not initialised: call init() first (browsers: `await init()`; the package's " +
  'Node and workerd entries do it on import)';

function mustBeReady() {
  if (!ready) throw new Error(NOT_READY);
}

/** `init` (the glue's default export) that remembers it succeeded. */
export function guardInit(init) {
  return async function (...args) {
    const out = await init.apply(this, args);
    ready = true;
    return out;
  };
}

/** `initSync` that remembers it succeeded. */
export function guardInitSync(initSync) {
  return function (...args) {
    const out = initSync.apply(this, args);
    ready = true;
    return out;
  };
}

/** A function export that throws a clear Error before initialisation. */
export function guardFunction(f) {
  return function (...args) {
    mustBeReady();
    return f.apply(this, args);
  };
}

/**
 * A class export: `new` and its static methods throw a clear Error before initialisation; its
 * methods, getters and setters throw one on a freed object. The class itself is patched (the
 * glue's own code makes instances of it) and a proxy of it is exported, so `instanceof` holds.
 */
export function guardClass(cls) {
  const proto = cls.prototype;
  for (const key of Reflect.ownKeys(proto)) {
    // The glue's own helpers (`__destroy_into_raw`) are left as they are; free() below.
    if (key === 'constructor' || key === 'free' || key === Symbol.dispose) continue;
    if (typeof key === 'string' && key.startsWith('__')) continue;
    const d = Object.getOwnPropertyDescriptor(proto, key);
    const name = `${cls.name}.${String(key)}`;
    const guard = (f) =>
      f &&
      function (...args) {
        // Instances hold their wasm object's address; free() sets it to 0.
        if (!(this?.__wbg_ptr > 0)) {
          throw new Error(
            `${name}: this ${cls.name} was freed (free() was called) and cannot be used`,
          );
        }
        return f.apply(this, args);
      };
    if (typeof d.value === 'function') d.value = guard(d.value);
    else {
      d.get = guard(d.get);
      d.set = guard(d.set);
    }
    Object.defineProperty(proto, key, d);
  }
  // free() of a freed object does nothing (the glue's would enter wasm and throw from there),
  // and disposing of one (`using`) is the same free().
  const free = proto.free;
  proto.free = function () {
    if (this?.__wbg_ptr > 0) free.call(this);
  };
  if (Symbol.dispose && proto[Symbol.dispose]) proto[Symbol.dispose] = proto.free;
  for (const key of Object.getOwnPropertyNames(cls)) {
    const d = Object.getOwnPropertyDescriptor(cls, key);
    if (typeof d.value === 'function' && !key.startsWith('__')) {
      d.value = guardFunction(d.value);
      Object.defineProperty(cls, key, d);
    }
  }
  return new Proxy(cls, {
    construct(target, args, newTarget) {
      mustBeReady();
      return Reflect.construct(target, args, newTarget);
    },
  });
}
