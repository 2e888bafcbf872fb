// Reading a request body without trusting it: a byte cap enforced while the body streams in,
// a deadline for all of it, strict UTF-8 (and no lone surrogates from \u escapes in the id
// and text), and a streaming JSON parser that hands the "text" field to a sink piece by
// piece (so a streaming fingerprinter never needs the whole text in memory) while it collects
// the short "id" field. Pure JavaScript, no simprint: tests run it under Node as well.

/** An error that becomes an HTTP response: `status` and a JSON body `{ error: message }`. */
export class HttpError extends Error {
  constructor(status, message, headers) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.headers = headers;
  }
}

const bad = (message) => new HttpError(400, message);

/**
 * Yields the body's chunks (Uint8Array) while counting bytes; past `maxBytes` it throws a 413.
 * A Content-Length over the cap is refused before reading anything. A body not read completely
 * within `timeoutMs` of the start of reading gets a 408 (and its upload is cancelled), so a
 * client that trickles bytes cannot hold the request (and its memory) open.
 *
 * Past the cap, the rest of the body is read and dropped (until it ends or the deadline
 * passes) before the 413 is thrown: cancelling a body the client is still sending fast breaks
 * the connection under the answer, and `wrangler dev`'s proxy then restarts the Worker (the next
 * request gets a 503). Dropped bytes cost no memory; the deadline bounds the time. A caller
 * that finds the body bad half-way must likewise keep reading it to the end (see
 * parseDocumentBody) rather than leave the loop.
 */
export async function* cappedChunks(request, maxBytes, timeoutMs = Infinity) {
  const tooLarge = () => new HttpError(413, `request body is larger than ${maxBytes} bytes`);
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge();
  if (request.body === null) return;
  const reader = request.body.getReader();
  let timer;
  const deadline = Number.isFinite(timeoutMs)
    ? new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new HttpError(408, `request body not received within ${timeoutMs} ms`)), timeoutMs);
      })
    : null;
  deadline?.catch(() => {}); // it may fire after the body is read, with nobody awaiting it
  const next = () => (deadline ? Promise.race([reader.read(), deadline]) : reader.read());
  let total = 0;
  let refused = false;
  try {
    for (;;) {
      const { done, value } = await next();
      if (done) return;
      total += value.byteLength;
      if (total > maxBytes) {
        try {
          while (!(await next()).done);
        } catch (err) {
          if (err?.status !== 408) throw err;
        }
        throw tooLarge();
      }
      yield value;
    }
  } catch (err) {
    refused = true;
    throw err;
  } finally {
    clearTimeout(timer);
    // Past the deadline, or too large and still sending at the deadline: stop the upload.
    if (refused) await reader.cancel().catch(() => {});
    try {
      reader.releaseLock();
    } catch {
      // a read still pending after cancel(): the stream is finished anyway
    }
  }
}

/**
 * Parses a JSON object body of the form {"id": string, "text": string, ...other fields}
 * from `request`, streaming: each piece of the decoded "text" value goes to
 * `sink.update(piece)` as it arrives. Returns `{ id, hasText }` (`id` undefined when absent).
 * Throws HttpError 413 past `maxBytes`, 408 past `timeoutMs`, 400 on invalid UTF-8, invalid
 * JSON, a body that is not an object, a repeated or wrong-typed "id"/"text", an "id" or "text"
 * that is not well-formed Unicode, or an id longer than `maxIdLength`.
 */
export async function parseDocumentBody(request, { maxBytes, maxIdLength, timeoutMs, sink }) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parser = new DocumentParser({ sink, maxIdLength });
  const decode = (bytes, stream) => {
    try {
      return decoder.decode(bytes, { stream });
    } catch {
      throw bad('request body is not valid UTF-8');
    }
  };
  // A 400 found mid-body is answered after the rest of the body is read (still under the
  // cap and the deadline): answering while the client is still sending makes the runtime close
  // the connection under it, and the client (or wrangler dev's proxy) sees a reset instead.
  let invalid = null;
  for await (const chunk of cappedChunks(request, maxBytes, timeoutMs)) {
    if (invalid) continue;
    try {
      parser.write(decode(chunk, true));
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      invalid = err;
    }
  }
  if (invalid) throw invalid;
  parser.write(decode(undefined, false));
  return parser.end();
}

// Parser states.
const VALUE = 0; // expecting a value
const KEY_OR_CLOSE = 1; // just after '{'
const KEY = 2; // after ',' in an object
const COLON = 3;
const AFTER_VALUE = 4; // expecting ',', '}' or ']' (or the end at top level)
const VALUE_OR_CLOSE = 5; // just after '['
const STRING = 6;
const ESCAPE = 7; // after a backslash in a string
const UNICODE = 8; // reading the 4 hex digits of \uXXXX
const NUMBER = 9;
const LITERAL = 10; // true, false, null

// What a string being read is for.
const SKIP = 0;
const COLLECT = 1; // an object key or the id: kept, capped
const TEXT = 2; // the text: streamed to the sink

const MAX_DEPTH = 64;
const MAX_KEY_LENGTH = 1024;
const MAX_NUMBER_LENGTH = 512;
const NUMBER_RE = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const SIMPLE_ESCAPES = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

const isWhitespace = (c) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isNumberChar = (c) =>
  (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45 || c === 0x65;
const isLetter = (c) => c >= 0x61 && c <= 0x7a;
const isHex = (c) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/**
 * A push parser for one JSON value (RFC 8259) whose top level must be an object. It validates
 * the whole document but keeps only the top-level "id" (a string of at most maxIdLength
 * UTF-16 units) and streams the top-level "text" (a string) to the sink. Works on string
 * chunks split anywhere, also inside escapes.
 */
export class DocumentParser {
  constructor({ sink, maxIdLength = 256 }) {
    this.sink = sink;
    this.maxIdLength = maxIdLength;
    this.state = VALUE;
    this.stack = []; // '{' or '[' per open container
    this.pos = 0; // characters consumed, for error messages
    this.done = false; // the top-level value is complete
    // The string being read.
    this.purpose = SKIP;
    this.collected = '';
    this.limit = 0;
    this.unicode = ''; // hex digits of a \u escape
    this.highPending = false; // the id or text read so far ends in a high surrogate
    this.token = ''; // a number or literal being read
    // Where the next value goes: 'key' while reading a key, else the field of a top-level
    // object the value belongs to (or null).
    this.field = null;
    this.id = undefined;
    this.hasText = false;
    this.seenId = false;
    this.topIsObject = false;
  }

  fail(message) {
    throw bad(`invalid JSON: ${message} at character ${this.pos}`);
  }

  write(chunk) {
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      const c = chunk.charCodeAt(i);
      switch (this.state) {
        case STRING: {
          // Fast path: copy the run up to the next quote, backslash or control character.
          let j = i;
          while (j < n) {
            const d = chunk.charCodeAt(j);
            if (d === 0x22 || d === 0x5c || d < 0x20) break;
            j++;
          }
          if (j > i) {
            this.stringPiece(chunk.slice(i, j));
            this.pos += j - i;
            i = j;
            continue;
          }
          if (c === 0x22) this.endString();
          else if (c === 0x5c) this.state = ESCAPE;
          else this.fail('unescaped control character in a string');
          break;
        }
        case ESCAPE: {
          const ch = chunk[i];
          if (ch === 'u') {
            this.unicode = '';
            this.state = UNICODE;
          } else if (Object.hasOwn(SIMPLE_ESCAPES, ch)) {
            this.stringPiece(SIMPLE_ESCAPES[ch]);
            this.state = STRING;
          } else this.fail(`bad escape \\${ch}`);
          break;
        }
        case UNICODE: {
          if (!isHex(c)) this.fail('bad \\u escape');
          this.unicode += chunk[i];
          if (this.unicode.length === 4) {
            this.stringPiece(String.fromCharCode(parseInt(this.unicode, 16)));
            this.state = STRING;
          }
          break;
        }
        case NUMBER:
        case LITERAL: {
          const more = this.state === NUMBER ? isNumberChar(c) : isLetter(c);
          if (more) {
            this.token += chunk[i];
            if (this.token.length > MAX_NUMBER_LENGTH) this.fail('number too long');
            break;
          }
          this.endToken();
          continue; // this character is not part of the token: look at it again
        }
        default:
          this.structural(c, chunk[i]);
      }
      this.pos++;
      i++;
    }
  }

  structural(c, ch) {
    if (isWhitespace(c)) return;
    if (this.done) this.fail(`unexpected ${JSON.stringify(ch)} after the end`);
    switch (this.state) {
      case VALUE:
      case VALUE_OR_CLOSE:
        if (this.state === VALUE_OR_CLOSE && c === 0x5d) return this.close();
        return this.startValue(c, ch);
      case KEY_OR_CLOSE:
      case KEY:
        if (this.state === KEY_OR_CLOSE && c === 0x7d) return this.close();
        if (c !== 0x22) this.fail('expected a string key');
        this.field = 'key';
        return this.startString(COLLECT, MAX_KEY_LENGTH);
      case COLON:
        if (c !== 0x3a) this.fail("expected ':'");
        this.state = VALUE;
        return;
      case AFTER_VALUE: {
        const top = this.stack[this.stack.length - 1];
        if (c === 0x2c && top === '{') this.state = KEY;
        else if (c === 0x2c && top === '[') {
          this.field = null;
          this.state = VALUE;
        } else if ((c === 0x7d && top === '{') || (c === 0x5d && top === '[')) this.close();
        else this.fail(`unexpected ${JSON.stringify(ch)}`);
        return;
      }
    }
  }

  startValue(c, ch) {
    const field = this.field;
    if (this.stack.length === 0) this.topIsObject = c === 0x7b; // checked once it parsed
    if (field === 'id' && c !== 0x22) throw bad('"id" must be a string');
    if (field === 'text' && c !== 0x22) throw bad('"text" must be a string');
    if (c === 0x22) {
      if (field === 'id') return this.startString(COLLECT, this.maxIdLength);
      if (field === 'text') {
        this.hasText = true;
        return this.startString(TEXT, 0);
      }
      return this.startString(SKIP, 0);
    }
    if (c === 0x7b || c === 0x5b) {
      if (this.stack.length >= MAX_DEPTH) this.fail('nesting too deep');
      this.stack.push(ch);
      this.field = null;
      this.state = c === 0x7b ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
      return;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      this.token = ch;
      this.state = NUMBER;
      return;
    }
    if (isLetter(c)) {
      this.token = ch;
      this.state = LITERAL;
      return;
    }
    this.fail(`unexpected ${JSON.stringify(ch)}`);
  }

  startString(purpose, limit) {
    this.purpose = purpose;
    this.collected = '';
    this.limit = limit;
    this.highPending = false;
    this.state = STRING;
  }

  /**
   * Refuses lone surrogates in the id and the text: JSON lets \u escapes produce them, but
   * they are not text: SQLite cannot store them as they are (an id would come back as another
   * string) and the fingerprinter would read them as U+FFFD. Pieces may end between the two
   * halves of a pair (\ud83d then \ude00), so a trailing high surrogate waits for the next.
   */
  checkUnicode(piece) {
    let rest = piece;
    if (this.highPending) {
      const c = rest.charCodeAt(0);
      if (!(c >= 0xdc00 && c <= 0xdfff)) this.loneSurrogate();
      this.highPending = false;
      rest = rest.slice(1);
    }
    const last = rest.charCodeAt(rest.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.highPending = true;
      rest = rest.slice(0, -1);
    }
    if (!rest.isWellFormed()) this.loneSurrogate();
  }

  loneSurrogate() {
    const what = this.purpose === TEXT ? 'text' : 'id';
    throw bad(`"${what}" is not well-formed Unicode: it has a lone surrogate (an unpaired \\uD800-\\uDFFF escape)`);
  }

  stringPiece(piece) {
    if (this.purpose === TEXT || this.field === 'id') this.checkUnicode(piece);
    if (this.purpose === TEXT) this.sink.update(piece);
    else if (this.purpose === COLLECT) {
      this.collected += piece;
      if (this.collected.length > this.limit) {
        if (this.field === 'id') throw bad(`"id" is longer than ${this.limit} characters`);
        this.fail('object key too long');
      }
    }
  }

  endString() {
    if (this.field === 'key') {
      // A key: at the top level, remember which field the value belongs to.
      const key = this.collected;
      if (this.stack.length === 1 && (key === 'id' || key === 'text')) {
        if ((key === 'id' && this.seenId) || (key === 'text' && this.hasText)) {
          throw bad(`"${key}" appears more than once`);
        }
        if (key === 'id') this.seenId = true;
        this.field = key;
      } else this.field = null;
      this.state = COLON;
      return;
    }
    if (this.highPending) this.loneSurrogate(); // the string ended after a high surrogate
    if (this.field === 'id') this.id = this.collected;
    this.collected = '';
    this.valueDone();
  }

  endToken() {
    const t = this.token;
    if (this.state === NUMBER ? !NUMBER_RE.test(t) : t !== 'true' && t !== 'false' && t !== 'null') {
      this.fail(`bad value ${JSON.stringify(t.slice(0, 20))}`);
    }
    this.token = '';
    this.valueDone();
  }

  valueDone() {
    this.field = null;
    this.state = AFTER_VALUE;
    if (this.stack.length === 0) this.done = true;
  }

  close() {
    this.stack.pop();
    this.valueDone();
  }

  /** Checks that the document is complete; returns { id, hasText }. */
  end() {
    if (this.state === NUMBER || this.state === LITERAL) this.endToken();
    if (!this.done) {
      if (this.pos === 0) throw bad('request body is empty; expected a JSON object');
      this.fail('unexpected end of input');
    }
    if (!this.topIsObject) throw bad('request body must be a JSON object {"id": string, "text": string}');
    return { id: this.id, hasText: this.hasText };
  }
}
