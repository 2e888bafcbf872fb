// Headless Chromium test of the demo page and of the golden vectors inside a real browser.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import httpServer from 'http-server';
import { chromium } from 'playwright-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = '/usr/bin/chromium';
const RESULTS = join(ROOT, 'test-results');

const golden = JSON.parse(await readFile(join(ROOT, 'tests/golden.json'), 'utf8'));

describe('demo page in headless Chromium', { timeout: 30_000 }, () => {
  let server;
  let context;
  let page;
  let tmp;
  let baseUrl;
  // Every console error/warning, page error and failed request; asserted empty at the end.
  const problems = [];

  before(async () => {
    assert.ok(
      existsSync(CHROMIUM),
      `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium); ` +
        'this test never downloads a browser',
    );

    server = httpServer.createServer({ root: ROOT, cache: -1, silent: true });
    await new Promise((ok, fail) => {
      server.server.once('error', fail);
      server.listen(0, '127.0.0.1', ok);
    });
    baseUrl = `http://127.0.0.1:${server.server.address().port}`;

    // Chromium must not touch the real home directory or its caches.
    tmp = await mkdtemp(join(tmpdir(), 'simprint-chromium-'));
    context = await chromium.launchPersistentContext(join(tmp, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      env: {
        ...process.env,
        HOME: tmp,
        XDG_CONFIG_HOME: join(tmp, 'config'),
        XDG_CACHE_HOME: join(tmp, 'cache'),
      },
      viewport: { width: 1280, height: 800 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') {
        problems.push(`console ${msg.type()}: ${msg.text()}`);
      }
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()}`));
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
    });

    await page.goto(`${baseUrl}/www/`);
    // The module has initialised and drawn once when the status leaves "Loading".
    await page.waitForFunction(() => !/Loading/.test(document.getElementById('status').textContent));
  });

  after(async () => {
    await context?.close();
    if (server) {
      server.server.closeAllConnections();
      await new Promise((ok) => server.server.close(ok));
    }
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  test('the page starts with the Chinese pair and no error', async () => {
    assert.equal(await page.locator('#status').getAttribute('class'), 'status');
    assert.equal(await page.textContent('#hex-a'), hexOf('chinese pair a'));
    assert.equal(await page.textContent('#hex-b'), hexOf('chinese pair b'));
    assert.match(await page.textContent('#distance'), /^\d+$/);
  });

  test('typing the "english default" vector into text A shows its golden hex', async () => {
    const vector = golden.vectors.find((v) => v.name === 'english default');
    assert.ok(vector, 'tests/golden.json has no vector named "english default"');
    assert.deepEqual(vector.options, {}, '"english default" should use default options');

    await page.fill('#text-a', '');
    await page.waitForFunction(() => document.getElementById('bits-a').textContent === '0'.repeat(64));
    const before = await page.textContent('#hex-a');
    await page.fill('#text-a', vector.text);
    await page.waitForFunction(
      (old) => document.getElementById('hex-a').textContent !== old,
      before,
    );
    assert.equal(await page.textContent('#hex-a'), vector.hex);
    assert.equal((await page.textContent('#bits-a')).length, 64);
  });

  test('every golden vector fingerprints identically inside Chromium', async () => {
    const got = await page.evaluate(async (vectors) => {
      const m = await import('/pkg/simprint.js');
      await m.default();
      return vectors.map(({ name, text, options }) => {
        try {
          return { name, hex: m.toHex(m.fingerprint(text, options), options.width ?? 64) };
        } catch (error) {
          return { name, hex: `threw: ${error.message}` };
        }
      });
    }, golden.vectors);
    const want = golden.vectors.map(({ name, hex }) => ({ name, hex }));
    assert.ok(want.length > 0, 'tests/golden.json has no vectors');
    assert.deepEqual(got, want);
  });

  test('an error thrown by the library is shown in #status', async () => {
    // No control can produce a bad option, so inject one the library rejects.
    await page.evaluate(() => {
      const width = document.getElementById('width');
      width.add(new Option('0', '0'));
      width.value = '0';
      width.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const status = page.locator('#status');
    assert.match(await status.textContent(), /^Error: width must be between 1 and 128, got 0$/);
    assert.equal(await status.getAttribute('class'), 'status error');
    assert.ok(await status.isVisible());
  });

  test('screenshots at 1280×800 and 390×844', async () => {
    await mkdir(RESULTS, { recursive: true });
    // A fresh navigation (not a reload, which restores form state) shows the initial pair.
    await page.goto(`${baseUrl}/www/`);
    await page.waitForFunction(() => /Ready/.test(document.getElementById('status').textContent));
    for (const [width, height] of [[1280, 800], [390, 844]]) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: join(RESULTS, `demo-${width}x${height}.png`), fullPage: true });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.equal(overflow, 0, `the page scrolls sideways at ${width}px`);
    }
  });

  test('no console errors or warnings, page errors or failed requests', () => {
    assert.deepEqual(problems, []);
  });
});

function hexOf(name) {
  const vector = golden.vectors.find((v) => v.name === name);
  assert.ok(vector, `tests/golden.json has no vector named "${name}"`);
  return vector.hex;
}
