// Where results go: a file written under a temporary name beside it and renamed when the run
// completes (so a failed or interrupted run leaves nothing half-written, and an earlier file
// of that name stays as it was), or standard output, written whole lines at a time.
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { jsonlToParquet } from './parquet.mjs';

const FLUSH = 1 << 16;

/** A temporary path beside `path`, unique to this process. */
export function tempBeside(path, tag = 'tmp') {
  return join(
    dirname(path),
    `.${basename(path)}.${tag}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
  );
}

/** Every temporary file still to be removed, should the run fail or be interrupted. */
const temporaries = new Set();
export function removeTemporaries() {
  for (const t of temporaries) rmSync(t, { force: true });
  temporaries.clear();
}
export function temporary(path) {
  temporaries.add(path);
  return path;
}

export class Output {
  #fd;
  #buffer = [];
  #size = 0;
  #path;
  #temp;

  /** `path` undefined (or -) for standard output. */
  constructor(path) {
    if (path === undefined || path === '-') {
      this.#fd = 1;
      return;
    }
    this.#path = path;
    // Parquet is written as JSONL first and converted when complete.
    this.#temp = temporary(tempBeside(path));
    this.#fd = openSync(this.#temp, 'w');
  }

  get name() {
    return this.#path ?? 'standard output';
  }

  /** Adds one line (without its line break). */
  line(text) {
    this.#buffer.push(text);
    this.#size += text.length;
    if (this.#size >= FLUSH) this.flush();
  }

  flush() {
    if (this.#buffer.length === 0) return;
    const data = `${this.#buffer.join('\n')}\n`;
    this.#buffer = [];
    this.#size = 0;
    // writeSync on a pipe can write part: write the rest until done (EAGAIN: the reader is slow).
    let buf = Buffer.from(data);
    while (buf.length) {
      try {
        buf = buf.subarray(writeSync(this.#fd, buf));
      } catch (e) {
        if (e.code !== 'EAGAIN') throw e;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      }
    }
  }

  /** Everything written: the file takes its name. */
  async commit() {
    this.flush();
    if (this.#fd === 1) return;
    closeSync(this.#fd);
    if (this.#path.toLowerCase().endsWith('.parquet')) {
      const parquet = temporary(tempBeside(this.#path, 'parquet'));
      await jsonlToParquet(this.#temp, parquet);
      rmSync(this.#temp, { force: true });
      temporaries.delete(this.#temp);
      this.#temp = parquet;
    }
    renameSync(this.#temp, this.#path);
    temporaries.delete(this.#temp);
  }
}
