// The progress bar on stderr, drawn only when stderr is a terminal (or --progress): documents
// and bytes per second, the share of the input read and the time left at the current rate.

const number = (n) => Math.round(n).toLocaleString('en-US');
const duration = (s) => {
  if (!Number.isFinite(s)) return '?';
  s = Math.max(0, Math.round(s));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
};

/**
 * One line of progress for a terminal `columns` wide: `{ documents, bytes, total, seconds,
 * note }`, `total` the input's bytes (undefined when unknown: no share, no ETA).
 */
export function progressLine({ documents, bytes, total, seconds, note = '' }, columns = 80) {
  const docsPerS = seconds > 0 ? documents / seconds : 0;
  const mbPerS = seconds > 0 ? bytes / 1e6 / seconds : 0;
  const stats = [
    `${number(documents)} docs`,
    `${number(docsPerS)} docs/s`,
    `${mbPerS.toFixed(1)} MB/s`,
  ];
  let bar = '';
  if (total) {
    const share = Math.min(1, bytes / total);
    const left = bytes > 0 ? (seconds * (total - bytes)) / bytes : Infinity;
    stats.push(`ETA ${duration(left)}`);
    const percent = `${String(Math.floor(share * 100)).padStart(3)}%`;
    const room = columns - stats.join('  ').length - note.length - percent.length - 8;
    const width = Math.max(0, Math.min(30, room));
    const full = Math.round(share * width);
    bar =
      width > 0 ? `[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${percent}  ` : `${percent}  `;
  } else {
    stats.push(`${duration(seconds)} elapsed`);
  }
  return `${bar}${stats.join('  ')}${note ? `  ${note}` : ''}`.slice(0, Math.max(columns - 1, 20));
}

export class Progress {
  #stream;
  #timer;
  #start = performance.now();
  #state = { documents: 0, bytes: 0, total: undefined, note: '' };
  #drawn = false;

  /** `enabled` undefined: draw when `stream` is a terminal. */
  constructor(stream, total, enabled) {
    this.#state.total = total;
    this.#stream = (enabled ?? stream.isTTY) ? stream : undefined;
    if (this.#stream) {
      this.#timer = setInterval(() => this.draw(), 200);
      this.#timer.unref();
    }
  }

  bytes(n) {
    this.#state.bytes += n;
  }

  documents(n, note) {
    this.#state.documents += n;
    if (note !== undefined) this.#state.note = note;
    if (!this.#drawn) this.draw(); // a first frame at once, so that short runs show one too
  }

  get seconds() {
    return (performance.now() - this.#start) / 1000;
  }

  get state() {
    return { ...this.#state, seconds: this.seconds };
  }

  draw() {
    if (!this.#stream) return;
    this.#drawn = true;
    this.#stream.write(`\r\x1b[K${progressLine(this.state, this.#stream.columns || 80)}`);
  }

  /** Stops drawing; `summary` (a line) is printed in place of the bar. */
  stop(summary) {
    clearInterval(this.#timer);
    if (!this.#stream) return;
    this.#stream.write(`\r\x1b[K${summary ? `${summary}\n` : ''}`);
    this.#stream = undefined;
  }
}
