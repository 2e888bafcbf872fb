// The package in Node, as an ES module: initialised on import from the .wasm beside it, so
// `import { fingerprint } from 'simprint'` needs nothing else. (init() still resolves, for
// code shared with browsers.)
import { readFileSync } from 'node:fs';
import { initSync } from './simprint.js';

initSync({ module: readFileSync(new URL('./simprint_bg.wasm', import.meta.url)) });

export * from './simprint.js';
export { default } from './simprint.js';
