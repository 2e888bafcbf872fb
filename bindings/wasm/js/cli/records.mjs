// Records of the input formats into documents `{ id, text }`: pure, so the tests check every
// rule (and every message) without files.

/** A bad record: the message says what was wrong; the caller adds the file and line. */
export class RecordError extends Error {}

const describe = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);
/** A value quoted in a message, cut so that a huge field never makes a huge message. */
export const quote = (s, max = 60) => {
  const json = JSON.stringify(s);
  return json.length <= max ? json : `${json.slice(0, max)}…" (${s.length} characters)`;
};

/**
 * An id as the index takes it: a string, or a whole number from 0 to 2^53 - 1 (kept a number,
 * so it comes back out as it went in).
 */
export function checkId(value, field) {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new RecordError(
    `"${field}" must be a non-empty string or a whole number from 0 to 2^53 - 1, got ${typeof value === 'string' ? 'an empty string' : typeof value === 'number' ? value : describe(value)}`,
  );
}

/**
 * One JSONL line into `{ id, text }`, or `undefined` for a blank line. `idField` undefined
 * means "id when present"; `fallbackId` is used when no id is there.
 */
export function jsonlDocument(line, { textField = 'text', idField }, fallbackId) {
  const record = jsonObject(line);
  return record && document(record, { textField, idField }, fallbackId, 'field');
}

/** One JSONL line's object, `undefined` for a blank line; anything else is a RecordError. */
function jsonObject(line) {
  if (line.trim() === '') return undefined;
  let record;
  try {
    record = JSON.parse(line);
  } catch (e) {
    throw new RecordError(`not JSON: ${e.message}`);
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record))
    throw new RecordError(`expected a JSON object, got ${describe(record)}`);
  return record;
}

/**
 * One JSONL line of `simprint calibrate` into `[a, b, duplicate]` (what Fingerprinter.calibrate
 * takes), or `undefined` for a blank line.
 */
export function labelledPair(line) {
  const record = jsonObject(line);
  if (!record) return undefined;
  for (const field of ['a', 'b']) {
    if (typeof record[field] !== 'string')
      throw new RecordError(`"${field}" must be a string, got ${describe(record[field])}`);
  }
  if (typeof record.duplicate !== 'boolean')
    throw new RecordError(`"duplicate" must be true or false, got ${describe(record.duplicate)}`);
  return [record.a, record.b, record.duplicate];
}

/** A record (an object of fields or columns) into `{ id, text }`. */
export function document(record, { textField = 'text', idField }, fallbackId, what = 'field') {
  if (!Object.hasOwn(record, textField)) {
    const names = Object.keys(record);
    throw new RecordError(
      `no ${what} ${quote(textField)} (${
        names.length
          ? `${what}s: ${names
              .slice(0, 8)
              .map((n) => quote(n, 30))
              .join(', ')}${names.length > 8 ? ', …' : ''}`
          : `no ${what}s`
      }); --text-field names it`,
    );
  }
  const text = record[textField];
  if (typeof text !== 'string')
    throw new RecordError(`${quote(textField)} must be a string, got ${describe(text)}`);
  let id = fallbackId;
  const field = idField ?? 'id';
  if (Object.hasOwn(record, field) && record[field] !== null) id = checkId(record[field], field);
  else if (idField !== undefined)
    throw new RecordError(`no ${what} ${quote(idField)}; --id-field names it`);
  return { id, text };
}

/**
 * CSV (RFC 4180: fields separated by commas, quoted with double quotes, "" inside quotes for
 * a quote, line breaks inside quotes kept) as records, fed in chunks of any cut. Each record
 * is `{ fields, line }`, `line` the line it starts on.
 */
export class CsvRecords {
  #field = '';
  #fields = [];
  #quoted = false; // inside quotes
  #afterQuote = false; // just after a closing quote
  #started = false; // the record has content
  #line = 1; // the line being read
  #recordLine = 1;
  #pendingCr = false;

  /** The records completed by `chunk`. */
  push(chunk) {
    const out = [];
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      const c = chunk[i];
      if (this.#pendingCr) {
        this.#pendingCr = false;
        if (c === '\n') {
          i++;
          continue;
        }
      }
      if (this.#quoted) {
        // Runs of plain characters are copied at once.
        const q = chunk.indexOf('"', i);
        const end = q < 0 ? n : q;
        const piece = chunk.slice(i, end);
        this.#field += piece;
        for (let j = piece.indexOf('\n'); j >= 0; j = piece.indexOf('\n', j + 1)) this.#line++;
        i = end;
        if (q >= 0) {
          this.#quoted = false;
          this.#afterQuote = true;
          i++;
        }
        continue;
      }
      if (c === '"') {
        if (this.#afterQuote) {
          this.#field += '"'; // "" inside quotes
          this.#quoted = true;
          this.#afterQuote = false;
        } else if (this.#field === '') {
          this.#quoted = true;
          this.#started = true;
        } else {
          throw new RecordError(
            `line ${this.#line}: a quote inside an unquoted field (quote the whole field and double the quote)`,
          );
        }
        i++;
        continue;
      }
      if (c === ',') {
        this.#fields.push(this.#field);
        this.#field = '';
        this.#afterQuote = false;
        this.#started = true;
        i++;
        continue;
      }
      if (c === '\n' || c === '\r') {
        if (c === '\r') this.#pendingCr = true;
        if (this.#started || this.#field !== '') {
          this.#fields.push(this.#field);
          out.push({ fields: this.#fields, line: this.#recordLine });
        }
        this.#fields = [];
        this.#field = '';
        this.#afterQuote = false;
        this.#started = false;
        this.#line++;
        this.#recordLine = this.#line;
        i++;
        continue;
      }
      if (this.#afterQuote)
        throw new RecordError(
          `line ${this.#line}: characters after a closing quote (a field is either quoted whole or not at all)`,
        );
      let end = i + 1;
      while (
        end < n &&
        chunk[end] !== ',' &&
        chunk[end] !== '\n' &&
        chunk[end] !== '\r' &&
        chunk[end] !== '"'
      )
        end++;
      this.#field += chunk.slice(i, end);
      this.#started = true;
      i = end;
    }
    return out;
  }

  /** The last record, if the input did not end with a line break. */
  end() {
    if (this.#quoted)
      throw new RecordError(
        `line ${this.#recordLine}: a quoted field is not closed by the end of the file`,
      );
    if (!this.#started && this.#field === '') return [];
    this.#fields.push(this.#field);
    const out = [{ fields: this.#fields, line: this.#recordLine }];
    this.#fields = [];
    this.#field = '';
    this.#started = false;
    return out;
  }
}

/** A CSV header into its column names, refusing empty or repeated names. */
export function csvHeader(fields) {
  const seen = new Set();
  for (const name of fields) {
    if (name === '') throw new RecordError('the header has an empty column name');
    if (seen.has(name)) throw new RecordError(`the header names column ${quote(name)} twice`);
    seen.add(name);
  }
  return fields;
}

/** A CSV record under `header` as an object of columns. */
export function csvObject(header, fields) {
  if (fields.length !== header.length)
    throw new RecordError(`${fields.length} fields, but the header has ${header.length} columns`);
  const out = {};
  header.forEach((name, i) => {
    out[name] = fields[i];
  });
  return out;
}
