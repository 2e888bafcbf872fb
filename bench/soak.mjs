// Soak: each failing call the hostile-input review of 0.1.0 found, repeated many times in one
// instance, with the wasm memory and the externref table size before and after. Flat is the
// goal: a failure must cost nothing that stays behind.
//
//   node bench/soak.mjs                       # pkg/ of this checkout
//   PKG=/path/to/pkg node bench/soak.mjs      # another build (an older one, to compare)
//   SOAK_SCALE=0.1 node bench/soak.mjs        # a tenth of the repetitions
//
// Prints one row per case: repetitions, memory and table before -> after, time per call, and
// whether the instance still fingerprints a known text correctly afterwards.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hostileIndexBytes } from '../tests/support/index-bytes.mjs';

const pkg = resolve(process.env.PKG ?? new URL('../pkg', import.meta.url).pathname);
const sp = await import(pathToFileURL(join(pkg, 'simprint.js')).href);
const wasm = sp.initSync({ module: readFileSync(join(pkg, 'simprint_bg.wasm')) });
const scale = Number(process.env.SOAK_SCALE ?? 1);

const KNOWN_TEXT =
  'SimHash gives near-duplicate documents fingerprints that differ in only a few bits.';
const KNOWN = sp.fingerprint(KNOWN_TEXT);
const memory = () => wasm.memory.buffer.byteLength;
const table = () => wasm.__wbindgen_externrefs?.length ?? NaN;

const throwingOptions = {
  get width() {
    throw new Error('getter says no');
  },
};
const trappingOptions = new Proxy(
  {},
  {
    ownKeys() {
      throw new Error('trap says no');
    },
  },
);
const throwingElement = [];
Object.defineProperty(throwingElement, 0, {
  get() {
    throw new Error('element says no');
  },
});
const freed = new sp.Index({ k: 3 });
freed.free();
const freedTwice = new sp.Fingerprinter();
freedTwice.free();
const copies = new sp.Index({ k: 3 });
copies.insertMany(
  Uint32Array.from({ length: 20000 }, (_, i) => i),
  new BigUint64Array(20000).fill(0xabcdn),
);
const hostile = hostileIndexBytes(100000);
const longName = 'x'.repeat(1 << 20);

// [name, repetitions, call]
const cases = [
  ['throwing getter in options', 1e6, () => sp.fingerprint('a', throwingOptions)],
  ['proxy trap in options', 1e6, () => sp.fingerprint('a', trappingOptions)],
  ['throwing array element', 1e6, () => sp.fingerprintFeatures(throwingElement)],
  ['method of a freed Index', 1e6, () => freed.query(1n)],
  ['free() of a freed object', 1e6, () => freedTwice.free()],
  ['unknown 1 MB tokenizer name', 1e3, () => sp.fingerprint('a', { tokenizer: longName })],
  ['fromBytes, 2.4 MB hostile plan', 1e2, () => sp.Index.fromBytes(hostile)],
  ['pairs() of 20,000 copies', 2e1, () => copies.pairs()],
];

console.log(`pkg: ${pkg}`);
console.log(
  'case                            |      calls | memory before -> after (bytes) | table before -> after | µs/call | errors | works',
);
for (const [name, n0, call] of cases) {
  const n = Math.max(1, Math.round(n0 * scale));
  const m0 = memory();
  const t0 = table();
  let errors = 0;
  let trapped = null;
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    try {
      call();
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) {
        trapped = e.message;
        break;
      }
      errors++;
    }
  }
  const us = ((performance.now() - started) * 1000) / n;
  let works;
  try {
    works = sp.fingerprint(KNOWN_TEXT) === KNOWN ? 'yes' : 'WRONG';
  } catch (e) {
    works = `NO (${e.message})`;
  }
  console.log(
    `${name.padEnd(31)} | ${String(n).padStart(10)} | ${`${m0} -> ${memory()}`.padStart(30)} | ` +
      `${`${t0} -> ${table()}`.padStart(21)} | ${us.toFixed(2).padStart(7)} | ${String(errors).padStart(6)} | ${works}` +
      (trapped ? ` (trapped: ${trapped})` : ''),
  );
}
