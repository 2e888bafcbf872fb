// The package's types, from the glue's .d.ts (run by package.mjs).
//
// wasm-bindgen's .d.ts names types only some programs have: RequestInfo, Response,
// BufferSource and the WebAssembly namespace come with the `dom` lib, URL with `dom` or
// @types/node, and the classes' `[Symbol.dispose]` needs the `esnext.disposable` lib. A Node
// project with `lib: ["es2020"]` has none of them, and a `/// <reference lib>` would force them
// on every program. So each becomes a local type that is the real one where the program
// declares it (read from `typeof globalThis`) and a stand-in where it does not, and the classes
// are disposable through a global `Disposable` interface that is empty unless a lib fills it.
//
// The `${defaults.…}` placeholders of the bindings' type sections are filled from the core's
// `defaults()`, so a default changed in the core changes the sentence that states it.

/** Declarations the rewritten .d.ts relies on, placed after its imports. */
const PRELUDE = `
/** An instance of the global class \`N\` where the program's libs declare it, else \`Else\`. */
type GlobalInstance<N extends string, Else> =
  typeof globalThis extends Record<N, abstract new (...args: any) => infer T> ? T : Else;
/** An instance of \`WebAssembly[N]\` where the program's libs declare it, else any object. */
type WasmInstance<N extends string> =
  typeof globalThis extends { WebAssembly: Record<N, abstract new (...args: any) => infer T> } ? T : object;
/** \`WebAssembly.Module\` (dom, webworker, @cloudflare/workers-types), else any object. */
export type WasmModule = WasmInstance<"Module">;
/** \`BufferSource\`, in the terms of every lib from es2020 on. */
export type WasmBytes = ArrayBufferView | ArrayBuffer;
/** \`RequestInfo | URL | Response\` where the program's libs declare them. */
export type WasmSource = GlobalInstance<"Request", never> | string | GlobalInstance<"URL", never> | GlobalInstance<"Response", never>;
declare global {
  /** Empty unless a lib (esnext.disposable, @types/node) declares it: then simprint's classes
   *  are disposable, with \`using\`. */
  interface Disposable {}
}
`;

/** `text` with `from` replaced by `to`, failing if wasm-bindgen no longer writes `from`. */
function replaceAll(text, from, to) {
  if (!text.includes(from))
    throw new Error(`types.mjs: the glue's .d.ts has no ${JSON.stringify(from)}`);
  return text.split(from).join(to);
}

/** A default as the type docs print it: numbers of five digits or more with commas. */
function show(value) {
  return typeof value === 'number' && value >= 10_000 ? value.toLocaleString('en') : String(value);
}

/** The glue's .d.ts, portable and with the defaults of `glue.defaults()` written in. */
export function portableTypes(dts, glue) {
  let out = dts;
  for (const [from, to] of [
    [
      'export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;',
      'export type InitInput = WasmSource | WasmBytes | WasmModule;',
    ],
    [
      'export type SyncInitInput = BufferSource | WebAssembly.Module;',
      'export type SyncInitInput = WasmBytes | WasmModule;',
    ],
    ['readonly memory: WebAssembly.Memory;', 'readonly memory: WasmInstance<"Memory">;'],
    [
      'readonly __wbindgen_externrefs: WebAssembly.Table;',
      'readonly __wbindgen_externrefs: WasmInstance<"Table">;',
    ],
    ['    [Symbol.dispose](): void;\n', ''],
  ])
    out = replaceAll(out, from, to);
  // Every class is disposable where the program knows what that is.
  const classes = [...out.matchAll(/^export class (\w+) \{$/gm)].map((m) => m[1]);
  if (classes.length === 0) throw new Error("types.mjs: no classes in the glue's .d.ts");
  out = out.replace(
    /^export class (\w+) \{$/gm,
    'export interface $1 extends Disposable {}\nexport class $1 {',
  );
  const code = out
    .split('\n')
    .filter((l) => !/^\s*(\*|\/\*|\/\/)/.test(l))
    .join('\n');
  const unknown = code.match(/\b(?:WebAssembly\.\w+|RequestInfo|BufferSource|Symbol\.dispose)\b/);
  if (unknown) throw new Error(`types.mjs: the .d.ts still names ${unknown[0]}`);
  out = fillDefaults(out, glue.defaults());
  // The prelude goes after the opening comments wasm-bindgen writes (`/* tslint:disable */`).
  const start = out.search(/^(?!\/\*|\s*\*|\/\/|$)/m);
  return `${out.slice(0, start)}${PRELUDE}\n${out.slice(start)}`;
}

/** `text` with every `${defaults.path}` replaced by that value of `defaults`. */
export function fillDefaults(text, defaults) {
  return text.replace(/\$\{defaults\.([\w.]+)\}/g, (_, path) => {
    const value = path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), defaults);
    if (value === undefined) throw new Error(`types.mjs: defaults() has no ${path}`);
    return show(value);
  });
}

/** The type of `import wasm from 'simprint/simprint_bg.wasm'` (workerd, wrangler). */
export function wasmModuleTypes() {
  return [
    '/** The compiled WebAssembly module, as workerd and wrangler import a .wasm file: a',
    " *  `WebAssembly.Module` where the program's libs declare one, else any object. */",
    'declare const module: typeof globalThis extends { WebAssembly: { Module: abstract new (...args: any) => infer T } }',
    '  ? T',
    '  : object;',
    'export default module;',
    '',
  ].join('\n');
}
