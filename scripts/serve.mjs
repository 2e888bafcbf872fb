// The demo's static server: only www/ and pkg/ are reachable, so a checkout's .git, sources and
// configuration never leave the machine through it. Used by scripts/serve.sh, the Chromium test
// and bench/demo-latency.mjs.
//
//   node scripts/serve.mjs [PORT]        # 127.0.0.1 only; / redirects to /www/
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The URL prefixes served, each from the folder of the same name.
const FOLDERS = ['www', 'pkg'];
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  // instantiateStreaming insists on this type.
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file a URL path names inside an allowed folder, or null (never a directory listing). */
async function resolveFile(root, pathname) {
  let path;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const parts = path.split('/').filter(Boolean);
  // No "..", no dotfiles (pkg/.gitignore), no backslashes or NULs smuggling a path.
  if (parts.some((p) => p.startsWith('.') || p.includes('\\') || p.includes('\0'))) return null;
  if (!FOLDERS.includes(parts[0])) return null;
  const folder = join(root, parts[0]);
  let file = join(folder, ...parts.slice(1));
  try {
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
    // A symlink must not lead out of its folder.
    const real = await realpath(file);
    const realFolder = await realpath(folder);
    if (!real.startsWith(realFolder + sep)) return null;
    return (await stat(real)).isFile() ? real : null;
  } catch {
    return null;
  }
}

/** An http.Server for the demo (not yet listening). */
export function demoServer({ root = ROOT } = {}) {
  return createServer(async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const { pathname } = new URL(req.url, 'http://localhost');
    // The page lives at /www/ so that its imports of ../pkg/ work unchanged.
    if (pathname === '/' || pathname === '/www') {
      res.writeHead(302, { Location: '/www/' }).end();
      return;
    }
    const file = await resolveFile(root, pathname);
    // A folder named without its slash would break the page's relative URLs.
    if (
      file &&
      !pathname.endsWith('/') &&
      file.endsWith(`${sep}index.html`) &&
      !pathname.endsWith('index.html')
    ) {
      res.writeHead(302, { Location: `${pathname}/` }).end();
      return;
    }
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': (await stat(file)).size });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
}

/** Starts a server on 127.0.0.1 (port 0: any free one); resolves to { server, url }. */
export async function startDemoServer({ port = 0, root = ROOT } = {}) {
  const server = demoServer({ root });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', ok);
  });
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? process.env.PORT ?? 8080);
  const { url } = await startDemoServer({ port });
  console.error(`serving the demo at ${url}/www/ (Ctrl-C stops)`);
}
