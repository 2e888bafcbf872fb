// A Worker written into `dir` (worker.js, importing 'simprint' by name) bundled as wrangler
// bundles it (esbuild with the workerd condition, the .wasm kept as a module of its own) and
// started in workerd through Miniflare on loopback. Shared by the package and golden tests.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Bundles `dir`/worker.js with the esbuild at `esbuild` and returns a started Miniflare. */
export async function startBundledWorker(dir, esbuild, bindings = {}) {
  execFileSync(
    esbuild,
    [
      'worker.js',
      '--bundle',
      '--format=esm',
      '--platform=neutral',
      '--conditions=workerd,worker,browser',
      '--loader:.wasm=copy',
      '--outdir=dist',
      '--log-level=error',
    ],
    { cwd: dir, stdio: 'pipe' },
  );
  const { Miniflare } = await import('miniflare');
  return new Miniflare({
    host: '127.0.0.1',
    port: 0,
    cf: false,
    modules: true,
    compatibilityDate: '2026-04-01',
    scriptPath: join(dir, 'dist', 'worker.js'),
    modulesRoot: join(dir, 'dist'),
    modulesRules: [
      { type: 'ESModule', include: ['**/*.js'] },
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
    ],
    bindings,
  });
}
