// The input files as batches of records for the fingerprinting threads, read as streams (a
// file is never held whole, but for a text file, which is one document). Each batch carries
// its file and each record's line, so every error names both.
import { createReadStream, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { formatOf } from './args.mjs';
import { CsvRecords, RecordError, csvHeader, csvObject } from './records.mjs';
import { InputError } from './errors.mjs';
import { parquetToJsonl } from './parquet.mjs';

export { InputError };

const BATCH_RECORDS = 256;
const BATCH_CHARS = 1 << 20;

/** The total size of the files in bytes, for the progress bar's share; undefined for stdin. */
export function totalBytes(files) {
  let total = 0;
  for (const file of files) {
    if (file === '-') return undefined;
    try {
      total += statSync(file).size;
    } catch (e) {
      throw new InputError(
        `${file}: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a folder' : e.message}`,
      );
    }
  }
  return total;
}

/**
 * The text of `file` (stdin for -) in chunks of strings; `onBytes` counts the bytes read from
 * the file (before gunzip), as they are read.
 */
async function* textStream(file, onBytes) {
  const raw = file === '-' ? process.stdin : createReadStream(file);
  const gzip = file.toLowerCase().endsWith('.gz');
  if (gzip) raw.on('data', (b) => onBytes(b.length));
  const stream = gzip ? raw.pipe(createGunzip()) : raw;
  if (gzip) raw.on('error', (e) => stream.destroy(e));
  const decoder = new StringDecoder('utf8');
  for await (const bytes of stream) {
    if (!gzip) onBytes(bytes.length);
    yield decoder.write(bytes);
  }
  const last = decoder.end();
  if (last) yield last;
}

const fileError = (file, e) =>
  new InputError(
    `${file}: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a folder, not a file' : e.code === 'Z_DATA_ERROR' || e.errno === -3 ? `not gzip data (${e.message})` : e.message}`,
  );

/**
 * Every record of `files` in batches, `kind` "jsonl" (`text`: whole lines, split and parsed by
 * the threads; `firstLine`, `count`), "records" (CSV rows as objects, `records`, each with its
 * line in `lineNumbers`) or "docs" (a text file: `ids`, `texts`). `progress(bytes)` is called as bytes
 * are read. `temp` makes a temporary file path (for Parquet through DuckDB).
 */
export async function* batches(files, settings, progress, temp) {
  for (const file of files) {
    const format = formatOf(file, settings.format, settings.fallbackFormat);
    try {
      if (format === 'jsonl') yield* jsonlBatches(file, progress);
      else if (format === 'csv') yield* csvBatches(file, progress);
      else if (format === 'parquet') {
        const jsonl = await parquetToJsonl(file, temp());
        const size = statSync(file).size;
        const lines = statSync(jsonl).size;
        // Progress counts the Parquet file's bytes, as the JSONL made of it is read.
        for await (const batch of jsonlBatches(jsonl, (b) =>
          progress((b * size) / Math.max(lines, 1)),
        )) {
          yield { ...batch, file, what: 'column', row: true };
        }
      } else yield* textBatches(file, progress);
    } catch (e) {
      if (e instanceof InputError) throw e;
      if (e instanceof RecordError) throw new InputError(`${file}: ${e.message}`);
      throw fileError(file, e);
    }
  }
}

/** The line of a batch's record `i`, from 1. */
export function lineOf(batch, i) {
  return batch.lineNumbers ? batch.lineNumbers[i] : batch.firstLine + i;
}

/** Records in a batch. */
export function countOf(batch) {
  return batch.lineNumbers ? batch.lineNumbers.length : batch.count;
}

/**
 * JSONL in batches of whole lines, each one string (`text`, its lines joined by \n, the last
 * without one): cutting the stream at line breaks is all the main thread does; the threads
 * split and parse the lines.
 */
async function* jsonlBatches(file, progress) {
  let rest = '';
  let line = 1; // the first line of `rest`
  for await (const chunk of textStream(file, progress)) {
    let text = rest + chunk;
    let start = 0;
    for (;;) {
      // The next batch: BATCH_RECORDS whole lines, or fewer when the next would pass
      // BATCH_CHARS; lines not yet ended wait for the next chunk.
      let end = start - 1;
      let count = 0;
      let full = false;
      while (!full) {
        const next = text.indexOf('\n', end + 1);
        if (next < 0) break;
        if (count > 0 && next - start > BATCH_CHARS) full = true;
        else {
          end = next;
          full = ++count === BATCH_RECORDS;
        }
      }
      if (!full) break;
      yield { kind: 'jsonl', file, text: text.slice(start, end), firstLine: line, count };
      line += count;
      start = end + 1;
    }
    rest = text.slice(start);
    text = undefined;
  }
  if (rest !== '') {
    // The last batch (lines without a final line break are read as lines too).
    const body = rest.endsWith('\n') ? rest.slice(0, -1) : rest;
    yield { kind: 'jsonl', file, text: body, firstLine: line, count: body.split('\n').length };
  }
}

async function* csvBatches(file, progress) {
  const parser = new CsvRecords();
  let header;
  let records = [];
  let lineNumbers = [];
  let chars = 0;
  const take = function* (parsed) {
    for (const { fields, line } of parsed) {
      if (!header) {
        try {
          header = csvHeader(fields);
        } catch (e) {
          throw new InputError(`${file}:${line}: ${e.message}`);
        }
        continue;
      }
      let record;
      try {
        record = csvObject(header, fields);
      } catch (e) {
        throw new InputError(`${file}:${line}: ${e.message}`);
      }
      records.push(record);
      lineNumbers.push(line);
      for (const f of fields) chars += f.length;
      if (records.length >= BATCH_RECORDS || chars >= BATCH_CHARS) {
        yield { kind: 'records', what: 'column', file, records, lineNumbers };
        records = [];
        lineNumbers = [];
        chars = 0;
      }
    }
  };
  const parse = (f) => {
    try {
      return f();
    } catch (e) {
      if (e instanceof RecordError)
        throw new InputError(`${file}:${e.message.replace(/^line (\d+): /, '$1: ')}`);
      throw e;
    }
  };
  for await (const chunk of textStream(file, progress))
    yield* take(parse(() => parser.push(chunk)));
  yield* take(parse(() => parser.end()));
  if (!header)
    throw new InputError(`${file}: empty: a CSV file starts with a header of column names`);
  if (records.length) yield { kind: 'records', what: 'column', file, records, lineNumbers };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

async function* textBatches(file, progress) {
  const bytes = file === '-' ? await readStdin() : await readFile(file);
  progress(bytes.length);
  let text;
  try {
    text = utf8.decode(
      file.toLowerCase().endsWith('.gz') ? (await import('node:zlib')).gunzipSync(bytes) : bytes,
    );
  } catch (e) {
    throw new InputError(
      `${file}: ${e.code === 'ERR_ENCODING_INVALID_ENCODED_DATA' ? 'not UTF-8 text (a text file is read as one document; give JSONL, CSV or Parquet by their extension, or --format)' : e.message}`,
    );
  }
  yield { kind: 'docs', file, texts: [text], ids: [file], firstLine: 1, count: 1 };
}

async function readStdin() {
  const parts = [];
  for await (const b of process.stdin) parts.push(b);
  return Buffer.concat(parts);
}
