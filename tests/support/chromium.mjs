// Debian's Chromium, headless, driven by playwright-core, for tests that load pages: never a
// downloaded browser, never the real home directory, no connection but to 127.0.0.1.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * A headless Chromium with a fresh profile in a temporary folder: `{ context, close }`.
 * Throws if Debian's chromium is missing (scripts/test.sh installs it).
 */
export async function launchChromium() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)`);
  }
  const tmp = await mkdtemp(join(tmpdir(), 'simprint-chromium-'));
  const context = await chromium.launchPersistentContext(join(tmp, 'profile'), {
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
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}
