// Request bodies without trusting them: a byte cap enforced while the body streams in, a
// deadline for all of it, and strict UTF-8. A text body streams piece by piece into a sink (a
// streaming fingerprinter), so it is never whole in memory; a JSON body is small and parsed
// whole. Pure JavaScript, no simprint: the tests run it under Node as well.
import { HttpError } from './http.js';

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
 * that finds the body bad half-way must likewise keep reading it to the end (see readText)
 * rather than leave the loop.
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
          () => reject(new HttpError(408, `request body not received within ${timeoutMs} ms`)),
          timeoutMs,
        );
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
 * Reads `request`'s body as UTF-8 text, streaming: each decoded piece goes to
 * `sink.update(piece)` as it arrives. Throws HttpError 413 past `maxBytes`, 408 past
 * `timeoutMs`, 400 on invalid UTF-8 (answered once the rest of the body is read, within the cap
 * and the deadline: answering while the client is still sending makes the runtime close the
 * connection under it). UTF-8 cannot carry lone surrogates, so the text is well-formed.
 */
export async function readText(request, { maxBytes, timeoutMs }, sink) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let invalid = null;
  for await (const chunk of cappedChunks(request, maxBytes, timeoutMs)) {
    if (invalid) continue;
    try {
      const piece = decoder.decode(chunk, { stream: true });
      if (piece) sink.update(piece);
    } catch {
      invalid = bad('request body is not valid UTF-8');
    }
  }
  if (invalid) throw invalid;
  try {
    const rest = decoder.decode();
    if (rest) sink.update(rest);
  } catch {
    throw bad('request body is not valid UTF-8');
  }
}

/**
 * Reads `request`'s body, at most `maxBytes` (a small body: it is held whole), as JSON.
 * Throws 413, 408, or 400 for invalid UTF-8 or JSON, or for strings holding lone surrogates
 * (JSON's \u escapes can make them; they are not text, and SQLite cannot store them as they
 * are).
 */
export async function readJson(request, { maxBytes, timeoutMs }) {
  let text = '';
  await readText(request, { maxBytes, timeoutMs }, { update: (piece) => (text += piece) });
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw bad(
      text.trim() === ''
        ? 'request body is empty; expected JSON'
        : 'request body is not valid JSON',
    );
  }
  checkStrings(value, 0);
  return value;
}

function checkStrings(value, depth) {
  if (depth > 64) throw bad('request body nests too deep');
  if (typeof value === 'string') {
    if (!value.isWellFormed())
      throw bad(
        'a string in the body is not well-formed Unicode: it has a lone surrogate (an unpaired \\uD800-\\uDFFF escape)',
      );
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      checkStrings(k, depth + 1);
      checkStrings(v, depth + 1);
    }
  }
}

// Pieces are batched so a streaming fingerprinter gets few, large calls across the wasm boundary.
export const FLUSH_UNITS = 64 * 1024;

/**
 * A sink for readText: receives a text piece by piece and gives its fingerprint at the end.
 * Pieces are batched and never split a surrogate pair (a string given to a streaming
 * fingerprinter must not), so the stream sees whole code points. `fingerprinter` is a simprint
 * Fingerprinter; `tolerance` (optional) is recommendedK's, for the text's k.
 */
export class TextSink {
  constructor(fingerprinter, { tolerance } = {}) {
    this.fingerprinter = fingerprinter;
    this.tolerance = tolerance;
    this.units = 0; // UTF-16 code units of text seen
    this.buffer = '';
    this.stream = null;
  }

  update(piece) {
    this.buffer += piece;
    this.units += piece.length;
    if (this.buffer.length >= FLUSH_UNITS) this.flush(false);
  }

  flush(final) {
    let out = this.buffer;
    this.buffer = '';
    const last = out.charCodeAt(out.length - 1);
    if (!final && last >= 0xd800 && last <= 0xdbff) {
      this.buffer = out.slice(-1); // a high surrogate waits for its pair
      out = out.slice(0, -1);
    }
    if (out.length > 0) this.consume(out);
  }

  /**
   * `{ fingerprint, k, features }` of everything given to update: the fingerprint (a BigInt),
   * the text's recommended k under the fingerprinter's options and its distinct features
   * (for pairK).
   */
  finish() {
    this.flush(true);
    return this.result();
  }

  // The text goes to the core's streaming fingerprinter (Fingerprinter.stream(): update(),
  // then finishRecommending(), equal to the one-shot fingerprint and recommendedK for any
  // chunking), so nothing of it is kept beyond one batch of FLUSH_UNITS and what the stream
  // holds back.
  consume(text) {
    (this.stream ??= this.newStream()).update(text);
  }

  // The stream also counts the text's features, for its recommended k and count at the end.
  newStream() {
    return this.fingerprinter.stream({ recommend: true, tolerance: this.tolerance });
  }

  result() {
    const stream = this.stream ?? this.newStream();
    this.stream = null; // finishing consumes the stream
    return stream.finishRecommending();
  }

  /** Frees the stream of a request that failed half-way (finish() frees it otherwise). */
  dispose() {
    this.stream?.free();
    this.stream = null;
  }
}
