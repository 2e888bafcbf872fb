// The page's side of the worker (worker.js): each view asks on its own channel, and only the
// latest question of a channel is answered, so a burst of keystrokes costs one computation
// and a slow answer for an old text is never drawn over a newer one. Answers are values:
// { value }, { error } (a message), or null for a question superseded on its channel.

let worker = null;
let broken = null; // the message when the worker could not start
let next = 1;
const waiting = new Map(); // id → { channel, resolve }
const latest = new Map(); // channel → the id of its newest question

function settle(id, answer) {
  const w = waiting.get(id);
  if (!w) return;
  waiting.delete(id);
  w.resolve(latest.get(w.channel) === id ? answer : null);
}

function start() {
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.addEventListener('message', ({ data }) => {
    settle(
      data.id,
      data.skipped ? null : data.error != null ? { error: data.error } : { value: data.value },
    );
  });
  // A worker that failed to load or crashed answers nothing: every question gets the error.
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    broken = `the page's worker failed: ${event.message || 'it could not be loaded'}`;
    for (const id of [...waiting.keys()]) settle(id, { error: broken });
  });
}

/**
 * Asks the worker to run `op` with `args` on `channel`: a promise of { value }, { error } or
 * null (superseded by a later question on the same channel).
 */
export function ask(channel, op, args) {
  if (!worker && !broken) start();
  const id = next++;
  latest.set(channel, id);
  if (broken) return Promise.resolve({ error: broken });
  return new Promise((resolve) => {
    waiting.set(id, { channel, resolve });
    worker.postMessage({ id, channel, op, args });
  });
}

/**
 * A view's asking: marks `view` pending while its newest question is out (the page's
 * "updating…" note and the tests wait on data-pending), and hands each current answer to
 * `draw`. Returns request(op, args), which resolves once the answer is drawn (or dropped).
 */
const outstanding = new WeakMap(); // view → questions out on any of its channels

export function asker(view, channel, draw) {
  return async function request(op, args) {
    outstanding.set(view, (outstanding.get(view) ?? 0) + 1);
    view.dataset.pending = 'true';
    const answer = await ask(channel, op, args);
    const out = outstanding.get(view) - 1;
    outstanding.set(view, out);
    if (answer) {
      // Each drawing is a user-timing measure, so its cost on the page's thread can be read.
      const t0 = performance.now();
      draw(answer);
      performance.measure(`draw ${channel}`, { start: t0 });
    }
    if (out === 0) view.dataset.pending = 'false';
    return answer;
  };
}
