// Running a Worker example (examples/worker, examples/worker-scale) on one machine, offline:
// real workerd through Miniflare's API, with its settings read from its wrangler.toml, and the
// bundle `wrangler deploy` would upload. Shared by the Worker tests in tests/js/ and by
// bench/worker.mjs and bench/edge.mjs (Node, with the npm dev dependencies). Each example's own
// wrangler and Miniflare (its node_modules, installed by scripts/test.sh) do the work.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root and the examples' folders. */
export const root = fileURLToPath(new URL('../../', import.meta.url));
export const workerDir = join(root, 'examples', 'worker');
export const scaleDir = join(root, 'examples', 'worker-scale');

/**
 * A fresh temporary folder (named with `prefix`) that also becomes HOME and the XDG folders,
 * since wrangler and workerd write there; and Miniflare and the options of the Worker in `dir`
 * from its wrangler.toml, loaded with wrangler and Miniflare told not to call Cloudflare
 * (telemetry, the request.cf data). A .dev.vars of the developer's is not read: callers pass the
 * secrets they mean (see secretsFor). Sets process.env for the rest of the process.
 */
export async function offline(prefix, dir = workerDir) {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  const home = join(tmp, 'home');
  mkdirSync(home);
  Object.assign(process.env, {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_SEND_ERROR_REPORTS: 'false',
    WRANGLER_HIDE_BANNER: 'true',
  });
  const { Miniflare, Log, LogLevel } = await import(
    join(dir, 'node_modules', 'miniflare', 'dist', 'src', 'index.js')
  );
  // The deployment's settings as wrangler reads them: vars, the Durable Object binding (SQLite,
  // from the new_sqlite_classes migration), compatibility date and module rules. An env file
  // that does not exist stands in for .dev.vars, which wrangler would read otherwise.
  const { unstable_getMiniflareWorkerOptions } = await import(
    join(dir, 'node_modules', 'wrangler', 'wrangler-dist', 'cli.js')
  );
  const fromToml = unstable_getMiniflareWorkerOptions(join(dir, 'wrangler.toml'), undefined, {
    envFiles: [join(tmp, 'no-such.env')],
  }).workerOptions;
  return { tmp, Miniflare, Log, LogLevel, fromToml };
}

/**
 * Miniflare's options to run the bundle in `out` as wrangler.toml configures it: on loopback at
 * a free port, without the request.cf fetch, `bindings` over the toml's vars, Durable Object
 * state in `persist`, and any `extra` options (ratelimits) on top. One definition for the tests
 * and the benchmarks, so that both run the Worker the deployment would.
 */
export function workerOptions(fromToml, out, { bindings = {}, persist, ...extra } = {}) {
  return {
    host: '127.0.0.1',
    port: 0,
    cf: false,
    modules: true,
    scriptPath: join(out, 'index.js'),
    modulesRoot: out,
    // Miniflare treats .js as CommonJS unless told; the .wasm import is a CompiledWasm module.
    modulesRules: [{ type: 'ESModule', include: ['**/*.js'] }, ...fromToml.modulesRules],
    compatibilityDate: fromToml.compatibilityDate,
    compatibilityFlags: fromToml.compatibilityFlags,
    bindings: { ...fromToml.bindings, ...bindings },
    durableObjects: fromToml.durableObjects,
    durableObjectsPersist: persist,
    ...extra,
  };
}

/**
 * Writes the bundle `wrangler deploy` would upload of the Worker in `dir` into `out`
 * (`--dry-run`), leaving no .wrangler behind: with the example's own pinned wrangler and the
 * packages its package.json names, installed in its node_modules. `config`: another wrangler
 * config file in `dir` (a test's entry around the Worker).
 */
export function bundle(out, { dir = workerDir, minify = false, config } = {}) {
  const hadDotWrangler = existsSync(join(dir, '.wrangler'));
  try {
    execFileSync(
      join(dir, 'node_modules', '.bin', 'wrangler'),
      [
        'deploy',
        '--dry-run',
        '--outdir',
        out,
        ...(minify ? ['--minify'] : []),
        ...(config ? ['--config', config] : []),
      ],
      { cwd: dir, env: process.env, stdio: 'pipe' },
    );
  } finally {
    if (!hadDotWrangler) rmSync(join(dir, '.wrangler'), { recursive: true, force: true });
  }
}

/**
 * Fresh secrets for a local run: one random token per tenant and a SipHash key (`key`, or a
 * random one). Returns { bindings: { TOKENS, SIPHASH_KEY }, key, tokens: { tenant: token } }.
 */
export function secretsFor(tenants, key = randomBytes(16).toString('hex')) {
  const tokens = Object.fromEntries(tenants.map((t) => [t, randomBytes(24).toString('base64url')]));
  const TOKENS = Object.entries(tokens)
    .map(([t, token]) => `${t}:${token}`)
    .join(',');
  return { bindings: { TOKENS, SIPHASH_KEY: key }, key, tokens };
}

/** The KEY="value" lines of a .dev.vars file (as in .dev.vars.example). */
export function readDevVars(path) {
  const vars = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^\s*([A-Z_][A-Z0-9_]*)\s*=\s*(?:"([^"]*)"|(\S*))\s*$/.exec(line);
    if (m) vars[m[1]] = m[2] ?? m[3];
  }
  return vars;
}

/**
 * The bundle of examples/worker-scale with failures injected for tests, written into `out`: a
 * copy of the example whose entry subclasses its SimprintKeys so that the object numbered
 * TEST_FAIL_FIRST_PUT_AT (a binding) fails the first put of key entries it gets after each
 * start, as an object that goes down mid-write would, and TEST_FAIL_FIRST_REMOVE_AT the first
 * removal. The example itself carries no such setting.
 */
export function faultyScaleBundle(out, tmp) {
  const dir = join(tmp, 'worker-scale-faulty');
  cpSync(scaleDir, dir, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|\.wrangler|dist|\.dev\.vars)$/.test(src),
  });
  symlinkSync(join(scaleDir, 'node_modules'), join(dir, 'node_modules'), 'dir');
  // The entry is named index.js (in a folder of its own): the bundle is named after it.
  mkdirSync(join(dir, 'faulty'));
  writeFileSync(
    join(dir, 'faulty', 'index.js'),
    `import worker, { SimprintKeys as Keys, SimprintLimiter } from '../src/index.js';

export default worker;
export { SimprintLimiter };

export class SimprintKeys extends Keys {
  putEntries(args) {
    if (!this.failedPut && Number(this.env.TEST_FAIL_FIRST_PUT_AT) === args.owner) {
      this.failedPut = true;
      throw new Error(\`object \${args.owner} fails this write on purpose (TEST_FAIL_FIRST_PUT_AT)\`);
    }
    return super.putEntries(args);
  }

  removeEntries(args) {
    if (!this.failedRemove && Number(this.env.TEST_FAIL_FIRST_REMOVE_AT) === args.owner) {
      this.failedRemove = true;
      throw new Error(\`object \${args.owner} fails this removal on purpose (TEST_FAIL_FIRST_REMOVE_AT)\`);
    }
    return super.removeEntries(args);
  }
}
`,
  );
  const toml = readFileSync(join(dir, 'wrangler.toml'), 'utf8').replace(
    /^main = .*$/m,
    'main = "faulty/index.js"',
  );
  writeFileSync(join(dir, 'wrangler.toml'), toml);
  bundle(out, { dir });
}
