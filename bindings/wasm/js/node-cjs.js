// The source of node.cjs, the package in Node as CommonJS (`require('simprint')`): esbuild
// bundles it with simprint.js, the glue and its snippets (all ES modules) into one CommonJS
// file, which reads the .wasm beside it and initialises on require.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync } from 'simprint-package';

// In the CommonJS bundle, __dirname is the folder of node.cjs.
initSync({ module: readFileSync(join(__dirname, 'simprint_bg.wasm')) });

export * from 'simprint-package';
export { default } from 'simprint-package';
