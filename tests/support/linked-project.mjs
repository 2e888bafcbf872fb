// A scratch project in a temporary folder whose node_modules/simprint links to the built pkg/:
// a user's module importing the package by name, without packing or installing it. The caller
// removes the folder (rmSync(dir, { recursive: true, force: true })).
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** A new folder named from `prefix`, with `files` ({ name: text }) written into it. */
export function linkedProject(prefix, files = {}) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(join(root, 'pkg'), join(dir, 'node_modules', 'simprint'), 'dir');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
