// The package's entry: wasm-bindgen's glue (simprint_glue.js), with every method of its
// classes guarded against use after free(). The build (scripts/lib.sh) copies this file to
// pkg/simprint.js next to the glue.
//
// Why: a method called on a freed object hands wasm a null pointer, and wasm-bindgen throws
// from inside wasm; the exception skips the wasm frames' epilogues, so each such call leaks
// shadow stack, and some twenty thousand of them leave the instance failing every call
// ("memory access out of bounds"). Checked here, the call never enters wasm.
export * from "./simprint_glue.js";
export { default } from "./simprint_glue.js";
import * as glue from "./simprint_glue.js";

/** `cls`'s methods, getters and setters throw a clear Error on a freed object. */
function guardClass(cls) {
  const proto = cls.prototype;
  for (const key of Reflect.ownKeys(proto)) {
    // The glue's own helpers (`__destroy_into_raw`) are left as they are; free() below.
    if (key === "constructor" || key === "free" || key === Symbol.dispose) continue;
    if (typeof key === "string" && key.startsWith("__")) continue;
    const d = Object.getOwnPropertyDescriptor(proto, key);
    const name = `${cls.name}.${String(key)}`;
    const guard = (f) =>
      f &&
      function (...args) {
        // Instances hold their wasm object's address; free() sets it to 0.
        if (!(this?.__wbg_ptr > 0)) {
          throw new Error(`${name}: this ${cls.name} was freed (free() was called) and cannot be used`);
        }
        return f.apply(this, args);
      };
    if (typeof d.value === "function") d.value = guard(d.value);
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
}

for (const value of Object.values(glue)) {
  if (typeof value === "function" && typeof value.prototype?.free === "function") guardClass(value);
}
