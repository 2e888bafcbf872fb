// simprint calibrate: the tolerance fitted to labelled pairs (JSONL lines {"a", "b",
// "duplicate"}): the library's Fingerprinter.calibrate, written as one JSON line.
import { fingerprinterOptions } from './args.mjs';
import { InputError } from './errors.mjs';
import { batches } from './input.mjs';
import { Output } from './output.mjs';
import { Fingerprinter } from '../node.mjs';

/** What a value is, in messages (as the library words it: "got number"). */
const kind = (v) =>
  v === undefined ? 'nothing' : v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;

/** One labelled pair of a JSONL line; throws a message naming what is wrong. */
export function labelledPair(line) {
  let value;
  try {
    value = JSON.parse(line);
  } catch (e) {
    throw new Error(`not JSON (${e.message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error('must be a JSON object {"a": text, "b": text, "duplicate": true|false}');
  for (const field of ['a', 'b']) {
    if (typeof value[field] !== 'string')
      throw new Error(`"${field}" must be a string, got ${kind(value[field])}`);
  }
  if (typeof value.duplicate !== 'boolean')
    throw new Error(`"duplicate" must be true or false, got ${kind(value.duplicate)}`);
  return [value.a, value.b, value.duplicate];
}

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
      if (line.trim() === '') return;
      try {
        pairs.push(labelledPair(line));
      } catch (e) {
        throw new InputError(`${batch.file}:${batch.firstLine + i}: ${e.message}`);
      }
    });
    progress.documents(pairs.length - before);
  }
  const fp = new Fingerprinter(fingerprinterOptions(settings));
  const c = fp.calibrate(pairs);
  const out = new Output(settings.output);
  out.line(JSON.stringify(c));
  await out.commit();
  return { documents: c.pairs, calibration: c };
}
