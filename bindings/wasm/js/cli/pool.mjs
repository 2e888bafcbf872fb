// Worker threads that fingerprint batches, answers handed back in the order asked: the main
// thread sends at most `inFlight` batches ahead, so memory stays bounded by a few batches.
import { Worker } from 'node:worker_threads';

export class Pool {
  #idle = [];
  #waiting = [];
  #pending = new Map(); // seq -> { resolve, reject }
  #workers = [];
  #failed;

  constructor(size, workerData) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(new URL('./worker.mjs', import.meta.url), { workerData });
      worker.on('message', (answer) => {
        const job = this.#pending.get(answer.seq);
        this.#pending.delete(answer.seq);
        job.resolve(answer);
        this.#next(worker);
      });
      worker.on('error', (e) => this.#fail(e));
      worker.on('exit', (code) => {
        if (code !== 0)
          this.#fail(new Error(`a fingerprinting thread stopped (exit code ${code})`));
      });
      this.#workers.push(worker);
      this.#idle.push(worker);
    }
  }

  /** The answer to `batch` (whose `seq` is unique among the batches in flight). */
  run(batch) {
    if (this.#failed) return Promise.reject(this.#failed);
    return new Promise((resolve, reject) => {
      this.#pending.set(batch.seq, { resolve, reject });
      const worker = this.#idle.pop();
      if (worker) worker.postMessage(batch);
      else this.#waiting.push(batch);
    });
  }

  #next(worker) {
    const batch = this.#waiting.shift();
    if (batch) worker.postMessage(batch);
    else this.#idle.push(worker);
  }

  #fail(error) {
    if (this.#failed) return;
    this.#failed = error;
    for (const job of this.#pending.values()) job.reject(error);
    this.#pending.clear();
  }

  async close() {
    await Promise.all(this.#workers.map((w) => w.terminate()));
  }
}
