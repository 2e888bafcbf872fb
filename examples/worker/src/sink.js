// Where the text of a request goes while the body streams in, and where its fingerprint
// comes from. Pure JavaScript (the fingerprinter is handed in), so tests run it under Node.

// Pieces are batched so a streaming fingerprinter gets few, large calls across the wasm boundary.
export const FLUSH_UNITS = 64 * 1024;

/**
 * Receives the "text" field piece by piece from the body parser (body.js) and gives its
 * fingerprint at the end. Pieces are batched and never split a surrogate pair (a string
 * given to a streaming fingerprinter must not), so `consume` sees whole code points.
 * `fingerprinter` is a simprint Fingerprinter.
 */
export class TextSink {
  constructor(fingerprinter) {
    this.fingerprinter = fingerprinter;
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

  /** The fingerprint (a BigInt) of everything given to update. */
  finish() {
    this.flush(true);
    return this.result();
  }

  // ======================= STREAMING FINGERPRINTER PLUG-IN POINT =========================
  // The text goes to the core's streaming fingerprinter (Fingerprinter.stream(): update(),
  // then finish(), equal to the one-shot fingerprint for any chunking), so nothing of it is
  // kept beyond one batch of FLUSH_UNITS and what the stream holds back (the text after the
  // last place it may cut, e.g. the last space). Without a
  // streaming fingerprinter, the same contract is met by keeping the text and fingerprinting
  // it once (bounded by MAX_BODY_BYTES):
  //   consume(text) { (this.parts ??= []).push(text); }
  //   result() { return this.fingerprinter.fingerprint((this.parts ?? []).join('')); }
  consume(text) {
    (this.stream ??= this.fingerprinter.stream()).update(text);
  }

  result() {
    const stream = this.stream ?? this.fingerprinter.stream();
    this.stream = null; // finish() consumes the stream
    return stream.finish();
  }

  /** Frees the stream of a request that failed half-way (finish() frees it otherwise). */
  dispose() {
    this.stream?.free();
    this.stream = null;
  }
  // =======================================================================================
}
