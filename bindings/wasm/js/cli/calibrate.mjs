// simprint calibrate: the tolerance fitted to labelled pairs (JSONL lines {"a", "b",
// "duplicate"}): the library's Fingerprinter.calibrate, written as one JSON line.
import { fingerprinterOptions } from './args.mjs';
import { InputError } from './errors.mjs';
import { batches } from './input.mjs';
import { Output } from './output.mjs';
import { labelledPair } from './records.mjs';
import { Fingerprinter } from '../node.mjs';

export async function calibrate(files, settings, { progress }) {
  const pairs = [];
  for await (const batch of batches(files, { ...settings, fallbackFormat: 'jsonl' }, (bytes) =>
    progress.bytes(bytes),
  )) {
    if (batch.kind !== 'jsonl')
      throw new InputError(
        `${batch.file}: simprint calibrate reads JSONL lines {"a", "b", "duplicate"}`,
      );
    const before = pairs.length;
    batch.text.split('\n').forEach((line, i) => {
      try {
        const pair = labelledPair(line);
        if (pair) pairs.push(pair);
      } catch (e) {
        throw new InputError(`${batch.file}:${batch.firstLine + i}: ${e.message}`);
      }
    });
    progress.documents(pairs.length - before);
  }
  const fp = new Fingerprinter(fingerprinterOptions(settings));
  let c;
  try {
    c = fp.calibrate(pairs);
  } finally {
    fp.free();
  }
  const out = new Output(settings.output);
  out.line(JSON.stringify(c));
  await out.commit();
  return { documents: c.pairs, calibration: c };
}
