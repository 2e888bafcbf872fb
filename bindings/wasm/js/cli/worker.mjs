// A fingerprinting thread: takes batches of records from the main thread, answers each
// document's id, fingerprint (hex), recommended k and feature count (as asked), all computed
// by the package. The main
// thread keeps the order and the index; a batch's answer depends on nothing but the batch, so
// the output is the same for any number of threads.
import { parentPort, workerData } from 'node:worker_threads';
import { Fingerprinter, toHex } from '../node.mjs';
import { RecordError, document, jsonlDocument } from './records.mjs';

const { options, tolerance, fields, recommend, count } = workerData;
const fingerprinter = new Fingerprinter(options);
const width = fingerprinter.width;

/**
 * One document's fingerprint, k and feature count: one pass over the text with a recommending
 * stream (which counts too), or for the count alone fingerprintCounted (several times faster).
 */
function fingerprintOf(text) {
  if (!recommend)
    return count
      ? fingerprinter.fingerprintCounted(text)
      : { fingerprint: fingerprinter.fingerprint(text) };
  const stream = fingerprinter.stream({ recommend: true, ...tolerance });
  try {
    stream.update(text);
    return stream.finishRecommending();
  } finally {
    stream.free();
  }
}

parentPort.on('message', (batch) => {
  const lines = batch.kind === 'jsonl' ? batch.text.split('\n') : undefined;
  const n = lines ? lines.length : (batch.lineNumbers?.length ?? batch.count);
  const ids = new Array(n);
  const hex = new Array(n);
  const ks = new Uint8Array(n);
  const features = count ? new Uint32Array(n) : undefined;
  const errors = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const line = batch.lineNumbers ? batch.lineNumbers[i] : batch.firstLine + i;
    try {
      let doc;
      if (lines)
        doc = jsonlDocument(
          lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i],
          fields,
          `${batch.file}:${line}`,
        );
      else if (batch.kind === 'records')
        doc = document(batch.records[i], fields, `${batch.file}:${line}`, batch.what);
      else doc = { id: batch.ids[i], text: batch.texts[i] };
      if (doc === undefined) continue; // a blank line
      const { fingerprint, k, features: f } = fingerprintOf(doc.text);
      ids[i] = doc.id;
      hex[i] = toHex(fingerprint, width);
      ks[i] = k ?? 0;
      if (features) features[i] = f;
      bytes += doc.text.length;
    } catch (e) {
      // A bad record is reported by the main thread, in input order, with its file and line.
      errors.push({
        i,
        message: e instanceof RecordError ? e.message : `could not be fingerprinted: ${e.message}`,
      });
    }
  }
  parentPort.postMessage({ seq: batch.seq, ids, hex, ks, features, errors, chars: bytes });
});
