// The input files as batches of records for the fingerprinting threads, read as streams (a
// file is never held whole, but for a text file, which is one document). Each batch carries
// its file and each record's line, so every error names both.
import { createReadStream, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
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
      throw new InputError(`${file}: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a folder' : e.message}`);
    }
  }
  return total;
}

/** The bytes of `file` (stdin for -) as a stream of strings; `onBytes` counts the raw bytes. */
function textStream(file, onBytes) {
  const raw = file === '-' ? process.stdin : createReadStream(file);
  raw.on('data', (b) => onBytes(b.length));
  const stream = file.toLowerCase().endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  if (stream !== raw) raw.on('error', (e) => stream.destroy(e));
  stream.setEncoding('utf8');
  return stream;
}

const fileError = (file, e) => new InputError(`${file}: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a folder, not a file' : e.code === 'Z_DATA_ERROR' || e.errno === -3 ? `not gzip data (${e.message})` : e.message}`);

/**
 * Every record of `files` in batches: `{ kind, file, lineNumbers, lines | records | texts+ids,
 * what }`, `kind` "jsonl" (raw lines, parsed by the threads), "records" (CSV rows and Parquet
 * rows as objects) or "docs" (text files: id and text). `progress(bytes)` is called as bytes
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
        for await (const batch of jsonlBatches(jsonl, (b) => progress(b * size / Math.max(lines, 1)))) {
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

async function* jsonlBatches(file, progress) {
  let lines = [];
  let lineNumbers = [];
  let chars = 0;
  let line = 0;
  let rest = '';
  for await (const chunk of textStream(file, progress)) {
    let text = rest + chunk;
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      line++;
      const l = text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
      start = end + 1;
      lines.push(l);
      lineNumbers.push(line);
      chars += l.length;
      if (lines.length >= BATCH_RECORDS || chars >= BATCH_CHARS) {
        yield { kind: 'jsonl', file, lines, lineNumbers };
        lines = [];
        lineNumbers = [];
        chars = 0;
      }
    }
    rest = text.slice(start);
    text = undefined;
  }
  if (rest !== '') {
    lines.push(rest.endsWith('\r') ? rest.slice(0, -1) : rest);
    lineNumbers.push(line + 1);
  }
  if (lines.length) yield { kind: 'jsonl', file, lines, lineNumbers };
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
      if (e instanceof RecordError) throw new InputError(`${file}: ${e.message.replace(/^line (\d+): /, (_, l) => `line ${l}: `)}`);
      throw e;
    }
  };
  for await (const chunk of textStream(file, progress)) yield* take(parse(() => parser.push(chunk)));
  yield* take(parse(() => parser.end()));
  if (!header) throw new InputError(`${file}: empty: a CSV file starts with a header of column names`);
  if (records.length) yield { kind: 'records', what: 'column', file, records, lineNumbers };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

async function* textBatches(file, progress) {
  const bytes = file === '-' ? await readStdin() : await readFile(file);
  progress(bytes.length);
  let text;
  try {
    text = utf8.decode(file.toLowerCase().endsWith('.gz') ? (await import('node:zlib')).gunzipSync(bytes) : bytes);
  } catch (e) {
    throw new InputError(`${file}: ${e.code === 'ERR_ENCODING_INVALID_ENCODED_DATA' ? 'not UTF-8 text (a text file is read as one document; give JSONL, CSV or Parquet by their extension, or --format)' : e.message}`);
  }
  yield { kind: 'docs', file, texts: [text], ids: [file], lineNumbers: [1] };
}

async function readStdin() {
  const parts = [];
  for await (const b of process.stdin) parts.push(b);
  return Buffer.concat(parts);
}
