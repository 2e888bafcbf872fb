// Turns wasm-pack's output in pkg/ into the npm package: a .wasm and its glue, with an entry
// per environment behind an `exports` map (scripts/lib.sh runs this after wasm-pack). The same
// files are made twice: in pkg/ for `simprint` (every feature) and in pkg/fingerprint/ for
// `simprint/fingerprint`, a second wasm-pack build without `Index` and `Plan` (the bindings'
// `index` feature off), about two thirds of the size for pages that only fingerprint.
//
//   simprint.js   browsers and bundlers (`browser`, `default`): the glue's exports, guarded
//                 (guards.js); `await init()` first.
//   node.mjs      Node, ESM (`node` + `import`): reads the .wasm beside it and initialises on
//                 import.
//   node.cjs      Node, CommonJS (`node` + `require`): the same, bundled by esbuild into one
//                 CommonJS file (the glue and its snippets are ES modules), without the .wasm.
//   workerd.js    Cloudflare Workers (`workerd`): imports the .wasm as a WebAssembly.Module
//                 and initialises on import.
//   cli/          the `simprint` command (`bin`), over node.mjs (the root package only).
//
//   node bindings/wasm/js/package.mjs <pkg dir> <esbuild binary>
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { portableTypes, wasmModuleTypes } from './types.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const [pkg, esbuild] = process.argv.slice(2).map((p) => resolve(p));
if (!pkg || !esbuild) throw new Error('usage: node package.mjs <pkg dir> <esbuild binary>');

/** Wraps the wasm-pack output in `dir` (its glue, .wasm and .d.ts) into the entries above. */
async function wrap(dir) {
  // The glue keeps its file; the package's own modules wrap it.
  renameSync(join(dir, 'simprint.js'), join(dir, 'simprint_glue.js'));
  copyFileSync(join(here, 'guards.js'), join(dir, 'guards.js'));
  copyFileSync(join(here, 'fast.js'), join(dir, 'fast.js'));

  // simprint.js: every export of the glue, guarded, under the same names (so the glue's .d.ts
  // describes it), through fast.js's fast path where it has one; the glue's `__` exports are
  // those fast paths' entries into wasm, not the package's. Which exports are classes is read
  // from the module itself.
  const glue = await import(pathToFileURL(join(dir, 'simprint_glue.js')).href);
  const fast = await import(pathToFileURL(join(dir, 'fast.js')).href);
  const isClass = (v) =>
    typeof v === 'function' && /^class\b/.test(Function.prototype.toString.call(v));
  const lines = [
    "// The package for browsers and bundlers: the glue's exports, guarded (guards.js). Written by",
    '// bindings/wasm/js/package.mjs.',
    "import * as glue from './simprint_glue.js';",
    "import * as fast from './fast.js';",
    "import { guardClass, guardFunction, guardInit, guardInitSync } from './guards.js';",
    '',
  ];
  for (const name of Object.keys(glue).sort()) {
    if (name.startsWith('__')) continue;
    if (name in fast) lines.push(`export const ${name} = guardFunction(fast.${name});`);
    else if (name === 'default') lines.push('export default guardInit(glue.default);');
    else if (name === 'initSync')
      lines.push('export const initSync = guardInitSync(glue.initSync);');
    else if (isClass(glue[name])) lines.push(`export const ${name} = guardClass(glue.${name});`);
    else if (typeof glue[name] === 'function')
      lines.push(`export const ${name} = guardFunction(glue.${name});`);
    else throw new Error(`the glue exports ${name}, neither a function nor a class`);
  }
  writeFileSync(join(dir, 'simprint.js'), `${lines.join('\n')}\n`);

  for (const entry of ['node.mjs', 'workerd.js', 'edge-light.js'])
    copyFileSync(join(here, entry), join(dir, entry));
  // CommonJS cannot import the ES modules: one bundle of the same code. `import.meta` only names
  // the .wasm for a default init(), which never runs here (the entry initialises first).
  // wasm-bindgen (0.2.130) imports a snippet once per function the .wasm imports from it
  // directly, so the glue's import object names guard.js twice, both times its one namespace:
  // harmless, and esbuild's warning about it said nothing to whoever ran the build.
  execFileSync(
    esbuild,
    [
      join(here, 'node-cjs.js'),
      '--bundle',
      '--platform=node',
      '--format=cjs',
      '--log-level=warning',
      '--log-override:empty-import-meta=silent',
      '--log-override:duplicate-object-key=silent',
      `--outfile=${join(dir, 'node.cjs')}`,
      `--alias:simprint-package=${join(dir, 'simprint.js')}`,
    ],
    { stdio: 'inherit' },
  );

  // Types: the glue's, for every entry (TypeScript needs a .d.cts to type a require()), made to
  // compile in any program (types.mjs says how), with the core's defaults written in.
  glue.initSync({ module: readFileSync(join(dir, 'simprint_bg.wasm')) }); // for defaults()
  const dts = portableTypes(readFileSync(join(dir, 'simprint.d.ts'), 'utf8'), glue);
  writeFileSync(join(dir, 'simprint.d.ts'), dts);
  writeFileSync(join(dir, 'simprint.d.cts'), dts);
  // `import wasm from 'simprint/simprint_bg.wasm'` (workerd, wrangler) gives a compiled module.
  writeFileSync(join(dir, 'simprint_bg.wasm.d.ts'), wasmModuleTypes());
}

await wrap(pkg);
// The second build, written by scripts/lib.sh into pkg/fingerprint/: wasm-pack's own
// package.json, README and .gitignore there are not the package's.
for (const f of ['package.json', 'README.md', '.gitignore'])
  rmSync(join(pkg, 'fingerprint', f), { force: true });
await wrap(join(pkg, 'fingerprint'));

// The command line (`bin`: simprint), a thin layer over node.mjs (docs/cli.md).
mkdirSync(join(pkg, 'cli'), { recursive: true });
for (const file of readdirSync(join(here, 'cli')))
  copyFileSync(join(here, 'cli', file), join(pkg, 'cli', file));
chmodSync(join(pkg, 'cli', 'simprint.mjs'), 0o755);

// package.json: wasm-pack's version, description, licence and repository (from the bindings'
// Cargo.toml), our template for the rest (the keywords npm searches by, the exports map).
const built = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
const template = JSON.parse(readFileSync(join(here, 'package.template.json'), 'utf8'));
const repository = built.repository?.url?.replace(/^git\+/, '').replace(/\.git$/, '');
if (!repository) throw new Error('bindings/wasm/Cargo.toml has no repository');
const out = {
  name: 'simprint',
  version: built.version,
  description: built.description,
  license: built.license,
  repository: { type: 'git', url: `git+${repository}.git` },
  homepage: `${repository}#readme`,
  bugs: { url: `${repository}/issues` },
  ...template,
};
// `simprint/fingerprint`: the same conditions as `simprint`, on the files of pkg/fingerprint/
// (derived here, so the two entries cannot drift apart).
const inFolder = (value) =>
  typeof value === 'string'
    ? value.replace(/^\.\//, './fingerprint/')
    : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inFolder(v)]));
out.exports = {
  ...out.exports,
  './fingerprint': inFolder(out.exports['.']),
  './fingerprint/simprint_bg.wasm': inFolder(out.exports['./simprint_bg.wasm']),
};
out.files = [...out.files, 'fingerprint'];
out.sideEffects = [...out.sideEffects, ...out.sideEffects.map(inFolder)];
writeFileSync(join(pkg, 'package.json'), `${JSON.stringify(out, null, 2)}\n`);
// The package's README links into the repository's docs.
writeFileSync(
  join(pkg, 'README.md'),
  readFileSync(join(here, '..', 'README.md'), 'utf8').replaceAll('REPOSITORY', repository),
);
copyFileSync(join(root, 'CHANGELOG.md'), join(pkg, 'CHANGELOG.md'));
for (const licence of ['LICENSE-MIT', 'LICENSE-APACHE'])
  copyFileSync(join(root, licence), join(pkg, licence));
