// The package in Vercel's edge runtime (`edge-light`): its bundler gives a `.wasm?module`
// import as a compiled WebAssembly.Module, instantiated here on import. (Not run by this
// repository's tests: the edge runtime is Vercel's; workerd.js is the tested sibling.)
import wasm from './simprint_bg.wasm?module';
import { initSync } from './simprint.js';

initSync({ module: wasm });

export * from './simprint.js';
export { default } from './simprint.js';
