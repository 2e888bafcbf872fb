// The package in Cloudflare Workers (workerd): wrangler and Miniflare give an imported .wasm
// as a compiled WebAssembly.Module, instantiated here on import, once per isolate, so
// `import { fingerprint } from 'simprint'` needs nothing else.
import wasm from './simprint_bg.wasm';
import { initSync } from './simprint.js';

initSync({ module: wasm });

export * from './simprint.js';
export { default } from './simprint.js';
