// Loads the built package the way Node users do: initSync with the .wasm file's bytes
// (pkg/ is built with --target web, which also runs in browsers and workerd).
import { readFileSync } from 'node:fs';
import * as simprint from '../../pkg/simprint.js';

simprint.initSync({ module: readFileSync(new URL('../../pkg/simprint_bg.wasm', import.meta.url)) });

export const golden = JSON.parse(readFileSync(new URL('../golden.json', import.meta.url), 'utf8'));
export default simprint;
