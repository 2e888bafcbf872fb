// The input's documents, fingerprinted by the threads, handed to `each` one at a time in input
// order: reading, fingerprinting and the caller's work (the index) overlap, and the order, so
// the output, does not depend on the number of threads.
import { availableParallelism } from 'node:os';
import { batches, countOf, lineOf } from './input.mjs';
import { InputError } from './errors.mjs';
import { Pool } from './pool.mjs';
import { Fingerprinter } from '../node.mjs';
import { UsageError, fingerprinterOptions, toleranceOptions } from './args.mjs';

/**
 * Runs `each({ id, hex, k, features, batch, i })` for every document of `files`, in order.
 * Bad records stop the run (an InputError naming the file and line) or, with `onError:
 * "skip"`, go to `skipped(message)`. `recommend`: whether k is wanted (else k is 0); `count`:
 * whether the feature count is (else undefined).
 */
export async function forEachDocument(
  files,
  settings,
  { progress, each, skipped, recommend, count = false, temp },
) {
  const threads = settings.threads ?? availableParallelism();
  checkOptions(settings, recommend);
  const pool = new Pool(threads, {
    options: fingerprinterOptions(settings),
    tolerance: toleranceOptions(settings),
    fields: { textField: settings.textField ?? 'text', idField: settings.idField },
    recommend,
    count,
  });
  const inFlight = [];
  let seq = 0;
  const handle = ({ batch, answer }) => {
    const errors = new Map(answer.errors.map((e) => [e.i, e.message]));
    const n = countOf(batch);
    if (answer.hex.length !== n)
      throw new Error(`internal: a batch of ${n} records was answered with ${answer.hex.length}`);
    let documents = 0;
    for (let i = 0; i < n; i++) {
      const message = errors.get(i);
      if (message !== undefined) {
        const where = whereOf(batch, i);
        if (settings.onError === 'skip') skipped(`${where}: ${message}`);
        else throw new InputError(`${where}: ${message}`);
        continue;
      }
      if (answer.hex[i] === undefined) continue; // a blank line
      documents++;
      each({
        id: answer.ids[i],
        hex: answer.hex[i],
        k: answer.ks[i],
        features: answer.features?.[i],
        batch,
        i,
      });
    }
    progress.documents(documents);
  };
  try {
    for await (const batch of batches(files, settings, (b) => progress.bytes(b), temp)) {
      batch.seq = seq++;
      const answer = pool.run(batch);
      answer.catch(() => {}); // awaited in order below; a failure surfaces there
      inFlight.push({ batch, answer });
      // A few batches ahead per thread keeps every thread busy and memory bounded.
      while (inFlight.length >= threads * 3) {
        const next = inFlight.shift();
        handle({ batch: next.batch, answer: await next.answer });
      }
    }
    while (inFlight.length) {
      const next = inFlight.shift();
      handle({ batch: next.batch, answer: await next.answer });
    }
  } finally {
    await pool.close();
  }
}

/** Where record `i` of `batch` is, for messages: FILE:LINE (FILE row N for Parquet). */
export function whereOf(batch, i) {
  return batch.row ? `${batch.file} row ${lineOf(batch, i)}` : `${batch.file}:${lineOf(batch, i)}`;
}

/** The input record of a document as a JSON line, for the deduplicated output. */
export function recordLine(batch, i) {
  if (batch.kind === 'jsonl') {
    batch.lines ??= batch.text.split('\n');
    const line = batch.lines[i];
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  }
  if (batch.kind === 'records') return JSON.stringify(batch.records[i]);
  return JSON.stringify({ id: batch.ids[i], text: batch.texts[i] });
}

/** The library's verdict on the options, given once here rather than by every thread. */
function checkOptions(settings, recommend) {
  let fingerprinter;
  try {
    fingerprinter = new Fingerprinter(fingerprinterOptions(settings));
    if (recommend) fingerprinter.recommendedK('', toleranceOptions(settings));
  } catch (e) {
    throw new UsageError(e.message);
  } finally {
    fingerprinter?.free();
  }
}
