#!/usr/bin/env node
// Makes .dev.vars in the current folder (a Worker example's), the secrets `wrangler dev` reads,
// with fresh random values: two tenants' tokens and a SipHash key. Run by an example's
// `npm run dev` (and `npm run setup`); leaves an existing .dev.vars alone. Node's crypto only.
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const path = join(process.cwd(), '.dev.vars');
if (existsSync(path)) {
  console.log('.dev.vars exists: kept (delete it to make new secrets)');
} else {
  const token = () => randomBytes(24).toString('hex');
  const tokens = { demo: token(), other: token() };
  writeFileSync(
    path,
    [
      '# Secrets for `wrangler dev`, made by simprint-worker-setup with fresh random values. Never commit this',
      '# file; for a deployment make new ones and set them with `npx wrangler secret put TOKENS`',
      '# and `npx wrangler secret put SIPHASH_KEY`.',
      `TOKENS="demo:${tokens.demo} other:${tokens.other}"`,
      `SIPHASH_KEY="${randomBytes(16).toString('hex')}"`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  console.log(`.dev.vars written. Tenant "demo" uses: Authorization: Bearer ${tokens.demo}`);
}
