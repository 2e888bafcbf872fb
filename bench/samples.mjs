// The mixed-text samples of bench/common.rs for the JavaScript programs, built the same way
// (the same bytes): Debian documentation the library was not tuned on, each at most
// SAMPLE_BYTES of UTF-8, cut from scripts/corpus.py's folders (`<corpus>/<lang>`) in order.
// docs-zh and docs-ja are Chinese and Japanese technical writing with commands, options, paths
// and code blocks every few words; docs-en is English built the same way, their yardstick;
// man-en is English man pages alone. The Chinese fast paths were tuned on docs-zh; help-* (LibreOffice's
// help with its Basic and formula examples) and guide-* (the Debian installation guide, then GNOME's help)
// come from other projects and translators, with other ASCII shares, and are held out (issue 30).
import { readdirSync, readFileSync } from 'node:fs';
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
  const parts = [];
  let bytes = 0;
  for (const folder of SAMPLES[name]) {
    const dir = join(corpusDir(), folder);
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.txt'))
      .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    for (const file of files) {
      const text = readFileSync(join(dir, file));
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
      return Buffer.concat(parts).toString('utf8');
    }
  }
  return Buffer.concat(parts).toString('utf8');
}
