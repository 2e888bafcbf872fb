// The mixed-text samples of bench/common.rs for the JavaScript programs, built the same way
// (the same bytes): Debian documentation the library was not tuned on, each at most
// SAMPLE_BYTES of UTF-8, cut from scripts/corpus.py's folders (`<corpus>/<lang>`) in order.
// docs-zh and docs-ja are Chinese and Japanese technical writing with commands, options, paths
// and code blocks every few words; docs-en is English built the same way, their yardstick;
// man-en is English man pages alone. The Chinese fast paths were tuned on docs-zh; help-* (LibreOffice's
// help with its Basic and formula examples) and guide-* (the Debian installation guide, then GNOME's help)
// come from other projects and translators, with other ASCII shares, and are held out (issue 30).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const SAMPLES = {
  'docs-en': ['reference-code/en', 'faq-code/en', 'man/en'],
  'man-en': ['man/en'],
  'docs-zh': ['reference-code/zh', 'faq-code/zh', 'man/zh'],
  'docs-ja': ['reference-code/ja', 'faq-code/ja', 'man/ja'],
  'help-zh': ['help-code/zh'],
  'guide-zh': ['install/zh', 'gnome/zh'],
  'help-ja': ['help-code/ja'],
  'guide-ja': ['install/ja', 'gnome/ja'],
};

export const SAMPLE_BYTES = 1_000_000;

export const corpusDir = () =>
  process.env.SIMPRINT_CORPUS ?? join(homedir(), '.cache/simprint/corpus');

// The `.txt` files of each folder in name order (byte order, as Rust sorts paths), joined by a
// blank line; the file that would pass SAMPLE_BYTES is cut at its last paragraph break before
// it, and the sample ends there.
export function loadSample(name) {
  const folders = SAMPLES[name] ?? APP_SAMPLES[name];
  if (folders === undefined) throw new Error(`no sample called ${name}`);
  const files = [];
  for (const folder of folders) {
    const dir = join(corpusDir(), folder);
    files.push(
      ...byteOrder(readdirSync(dir).filter((f) => f.endsWith('.txt'))).map((f) => join(dir, f)),
    );
  }
  return joinFiles(files);
}

// Held-out samples of applications' own manuals (bench/common.rs's APP_SAMPLES): in Debian but
// from other projects and translators than SAMPLES (scripts/corpus.py's kicad, gimp, lilypond,
// edu and help-tw folders), and the handbook's German and French, each folder one sample built
// as loadSample builds the others.
export const APP_SAMPLES = {
  'kicad-zh': ['kicad/zh'],
  'gimp-zh': ['gimp/zh'],
  'lilypond-zh': ['lilypond/zh'],
  'edu-zh': ['edu/zh'],
  'help-tw': ['help-tw/zh'],
  'kicad-ja': ['kicad/ja'],
  'gimp-ja': ['gimp/ja'],
  'lilypond-ja': ['lilypond/ja'],
  'edu-ja': ['edu/ja'],
  'handbook-de': ['handbook/de'],
  'handbook-fr': ['handbook/fr'],
};

// The samples of APP_SAMPLES that can be built here (a corpus fetched before they were added has
// none: scripts/corpus.py fetches what is missing), as { name: text }.
export function loadAppSamples() {
  const out = {};
  for (const [name, folders] of Object.entries(APP_SAMPLES)) {
    if (folders.every((f) => existsSync(join(corpusDir(), f)))) out[name] = loadSample(name);
  }
  return out;
}

// Held-out samples from another source than Debian's (bench/common.rs's README_SAMPLES): the
// Chinese and Japanese documentation of npm and PyPI packages that scripts/revisions.py fetches,
// the newest version of each package, packages in name order, each version's .txt files in path
// order; measured only where that corpus was fetched.
export const README_SAMPLES = { 'readme-zh': 'zh', 'readme-ja': 'ja' };

export const revisionsDir = () =>
  process.env.SIMPRINT_REVISIONS ?? join(homedir(), '.cache/simprint/revisions');

// The README sample for `lang`, or null without the revisions corpus.
export function loadReadmeSample(lang) {
  const root = join(revisionsDir(), lang);
  if (!existsSync(root)) return null;
  const files = [];
  for (const pkg of byteOrder(readdirSync(root))) {
    const list = join(root, pkg, 'versions.txt');
    if (!existsSync(list)) continue;
    const newest = readFileSync(list, 'utf8').split('\n').filter(Boolean).at(-1);
    if (newest === undefined) continue;
    files.push(...byteOrder(txtFilesUnder(join(root, pkg, newest))));
  }
  return joinFiles(files);
}

// Every .txt file under `dir`, as full paths.
function txtFilesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return txtFilesUnder(path);
    return e.name.endsWith('.txt') ? [path] : [];
  });
}

const byteOrder = (names) => names.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

// `files` joined by a blank line up to SAMPLE_BYTES, the one that would pass it cut at its last
// paragraph break before it.
function joinFiles(files) {
  const parts = [];
  let bytes = 0;
  for (const file of files) {
    const text = readFileSync(file);
    const sep = parts.length ? 2 : 0;
    if (bytes + sep + text.length <= SAMPLE_BYTES) {
      if (sep) parts.push(Buffer.from('\n\n'));
      parts.push(text);
      bytes += sep + text.length;
      continue;
    }
    // The last "\n\n" that ends within the room left (on a character boundary: "\n" is one).
    const room = Math.max(0, SAMPLE_BYTES - bytes - sep);
    const cut = text.subarray(0, room).lastIndexOf('\n\n');
    if (cut >= 0) {
      if (sep) parts.push(Buffer.from('\n\n'));
      parts.push(text.subarray(0, cut));
    }
    break;
  }
  return Buffer.concat(parts).toString('utf8');
}
