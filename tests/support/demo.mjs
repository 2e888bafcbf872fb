// The demo page in Debian's Chromium, for the browser tests: the page's server, one page, the
// problems it reports (console errors and warnings, page errors, failed requests), and helpers
// to open a view, fill a box and read what the page drew.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoServer } from '../../scripts/serve.mjs';
import { launchChromium } from './chromium.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');
export const sample = JSON.parse(await readFile(join(ROOT, 'www/sample.json'), 'utf8'));
export const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

// The page writes a real minus sign; the library's numbers print with a hyphen.
export const plain = (s) => s.replaceAll('−', '-');
export const tuple = (v) => `(${Array.from(v).join(', ')})`;
// A number as the page prints it: whole numbers as they are, others to 3 decimals.
export const show = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(3).replace(/\.?0+$/, ''));

/** About `bytes` of real prose: the sample's paragraphs (English and Chinese), joined. */
export function longText(bytes, lang = null) {
  const paragraphs = sample.documents
    .filter((d) => d.copyOf == null && (!lang || d.lang === lang))
    .map((d) => d.text);
  let text = '';
  for (let i = 0; text.length < bytes; i++) text += `${paragraphs[i % paragraphs.length]}\n\n`;
  return text.slice(0, bytes);
}

/** Starts the server and Chromium; `close()` stops both. */
export async function demo() {
  const { server, url } = await startDemoServer();
  const chromium = await launchChromium();
  const page = chromium.context.pages()[0] ?? (await chromium.context.newPage());
  // Fail fast: nothing on the page should take seconds.
  page.setDefaultTimeout(10_000);
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning')
      problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (req) => {
    // Leaving a page cancels its pending requests; only real failures count.
    if (req.failure()?.errorText !== 'net::ERR_ABORTED')
      problems.push(`request failed: ${req.url()}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });

  /** Waits until the view shown has drawn the worker's answers to every question asked. */
  const settled = () =>
    page.waitForFunction(
      () => document.querySelector('.view:not([hidden])')?.dataset.pending !== 'true',
    );

  return {
    page,
    url,
    problems,
    settled,
    /** A fresh load of one view (a hash change alone would keep the previous state). */
    async open(view, size = WIDTHS[0]) {
      await page.setViewportSize(size);
      await page.goto('about:blank');
      await page.goto(`${url}/www/#${view}`);
      await page.waitForFunction(() => document.getElementById('loading').hidden);
      await settled();
    },
    /** Types a box's whole text, then waits for the view to draw the answers. */
    async fill(selector, text) {
      await page.fill(selector, text);
      await settled();
    },
    /** Puts a long text into a box at once, as a paste does, then waits for the answers. */
    async paste(selector, text) {
      await page.locator(selector).evaluate((box, value) => {
        box.value = value;
        box.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
      }, text);
      await settled();
    },
    /** axe-core's violations on the page as it is (every card laid out, so every card is checked). */
    async axe() {
      await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
      if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ path: AXE });
      return page.evaluate(async () => {
        const result = await window.axe.run(document, { resultTypes: ['violations'] });
        return result.violations.map(
          (v) =>
            `${v.id} (${v.impact}): ${v.nodes
              .slice(0, 3)
              .map((n) => n.target.join(' '))
              .join(' | ')}` + ` ×${v.nodes.length}`,
        );
      });
    },
    async close() {
      await chromium.close();
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    },
  };
}

/** V as a chart shows it: one "bit i: V = x, bit b[, …]" label per cell. */
export async function chartV(page, id) {
  const labels = await page.locator(`#${id} .cell .label`).allTextContents();
  return labels.map((label, i) => {
    const m = /^bit (\d+): V = (\S+), bit ([01])/.exec(plain(label));
    assert.ok(m && Number(m[1]) === i, `unexpected bar label ${label}`);
    return { v: m[2], bit: m[3] };
  });
}
