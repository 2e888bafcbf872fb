// The page's worker: the library's answers for long texts and the index timings, computed off
// the page's thread so that typing never waits for them (compute.js is the page's side).
// Questions queue up; of several on one channel only the newest is worked on.
import init, {
  Accumulator,
  Fingerprinter,
  Index,
  compare,
  explainHashes,
} from '../pkg/simprint.js';

const ready = init();
const queue = [];
let draining = false;

self.addEventListener('message', ({ data }) => {
  queue.push(data);
  if (!draining) {
    draining = true;
    // After the messages already sent have arrived, so that superseded ones can be skipped.
    setTimeout(drain, 0);
  }
});

async function drain() {
  await ready.catch(() => {});
  while (queue.length) {
    const q = queue.shift();
    if (queue.some((later) => later.channel === q.channel)) {
      self.postMessage({ id: q.id, skipped: true });
      continue;
    }
    try {
      await ready;
      self.postMessage({ id: q.id, value: OPS[q.op](q.args) });
    } catch (error) {
      self.postMessage({ id: q.id, error: String(error?.message ?? error) });
    }
  }
  draining = false;
}

/** Runs fn with a Fingerprinter of `options`, freed afterwards. */
function withFingerprinter(options, fn) {
  const fp = new Fingerprinter(options);
  try {
    return fn(fp);
  } finally {
    fp.free();
  }
}

// The own-text stepper's pairs, kept between questions about the same text and width.
let stepped = { key: null, items: [], version: 0 };
function itemsOf(text, width) {
  const key = `${width}\u0000${text}`;
  if (stepped.key !== key) {
    const e = withFingerprinter({ width }, (fp) => fp.explain(text));
    stepped = {
      key,
      e,
      items: e.features.map((f) => [f.hash, f.weight]),
      version: stepped.version + 1,
    };
  }
  return stepped;
}

/** The Accumulator after the first `step` pairs, and V before the last of them. */
function accumulate(width, items, step) {
  const acc = new Accumulator(width);
  try {
    for (let i = 0; i < step - 1; i++) acc.add(...items[i]);
    const prev = step > 0 ? Array.from(acc.v) : null;
    if (step > 0) acc.add(...items[step - 1]);
    return { step, prev, v: Array.from(acc.v), bits: acc.bits, fingerprint: acc.fingerprint };
  } finally {
    acc.free();
  }
}

/**
 * Median of the per-call times of `rounds` timed runs of fn. Each run repeats fn often enough
 * to last about `roundMs` (the clock here ticks in 0.1 ms), sized from the quickest of a few
 * trial runs, so that a collection or compilation during the trials does not shorten the runs.
 */
function medianTime(fn, rounds = 21, roundMs = 3) {
  const run = (reps) => {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) fn();
    return performance.now() - t0;
  };
  // Doubled until even the quickest of three runs lasts half a round, then scaled to a round.
  let reps = 1;
  let quickest = 0;
  for (; reps < 1 << 22; reps *= 2) {
    quickest = Math.min(run(reps), run(reps), run(reps));
    if (quickest >= roundMs / 2) break;
  }
  reps = Math.max(1, Math.round((reps * roundMs) / Math.max(quickest, roundMs / 2)));
  const perCall = Array.from({ length: rounds }, () => (run(reps) * 1000) / reps).sort(
    (a, b) => a - b,
  );
  return { us: perCall[rounds >> 1], low: perCall[0], high: perCall[rounds - 1], rounds, reps };
}

/**
 * `count` words from a fixed xorshift sequence, cut to `bits` (64 for each word of a wider
 * fingerprint): filler fingerprints for the timings.
 */
function fillerWords(count, bits) {
  const mask = (1n << BigInt(bits)) - 1n;
  const out = new BigUint64Array(count);
  let x = 0x9e3779b97f4a7c15n;
  for (let i = 0; i < count; i++) {
    x ^= (x << 13n) & 0xffffffffffffffffn;
    x ^= x >> 7n;
    x ^= (x << 17n) & 0xffffffffffffffffn;
    out[i] = x & mask;
  }
  return out;
}

const OPS = {
  /** One text: its explanation and which bits one feature more or less could flip. */
  fingerprint({ text, options }) {
    return withFingerprinter(options, (fp) => ({
      e: fp.explain(text),
      fragility: fp.fragility(text),
    }));
  },

  /**
   * Two texts: both explanations, their comparison (with the verdict under the pair rule: the
   * k of both texts' sizes for `tolerance`, and A's own k beside it), the features only in A
   * and only in B (a
   * feature whose weight changed is in both lists, at its old and new weight), and the pushes
   * of each list summed by the library (explainHashes), bit by bit.
   */
  compare({ a, b, options, tolerance }) {
    return withFingerprinter(options, (fp) => {
      // The verdict under the pair rule, the one the Workers and `simprint dedup` apply: k from
      // both texts' distinct features (pairK). A's own k (recommendedK, for when B is not
      // known yet) is shown beside it.
      const featuresA = fp.featureCount(a);
      const featuresB = fp.featureCount(b);
      const k = fp.pairK(featuresA, featuresB, { tolerance });
      const kOfA = fp.recommendedK(a, { tolerance });
      const ea = fp.explain(a);
      const eb = fp.explain(b);
      const weightIn = (e) => new Map(e.features.map((f) => [f.feature, f.weight]));
      const inA = weightIn(ea);
      const inB = weightIn(eb);
      const onlyA = ea.features.flatMap((f, i) => (inB.get(f.feature) === f.weight ? [] : [i]));
      const onlyB = eb.features.flatMap((f, i) => (inA.get(f.feature) === f.weight ? [] : [i]));
      const pushes = (e, list) =>
        explainHashes(
          list.map((i) => [e.features[i].hash, e.features[i].weight]),
          e.width,
        ).v;
      return {
        ea,
        eb,
        c: compare(ea.fingerprint, eb.fingerprint, { width: ea.width, k }),
        k,
        featuresA,
        featuresB,
        kOfA,
        onlyA,
        onlyB,
        vOnlyA: pushes(ea, onlyA),
        vOnlyB: pushes(eb, onlyB),
      };
    });
  },

  /** The own-text stepper: the explanation, the largest |V| of any prefix, the state at `step`. */
  steps({ text, width, step }) {
    const { e, items, version } = itemsOf(text, width);
    const acc = new Accumulator(width);
    let scale = 0;
    try {
      for (const item of items) {
        acc.add(...item);
        for (const x of acc.v) scale = Math.max(scale, Math.abs(x));
      }
    } finally {
      acc.free();
    }
    const at = step === 'end' ? items.length : Math.min(step, items.length);
    return { e, version, scale, acc: accumulate(width, items, at) };
  },

  /** The own-text stepper at another step of the same text. */
  stepAt({ text, width, step }) {
    const { items, version } = itemsOf(text, width);
    return { version, ...accumulate(width, items, Math.max(0, Math.min(step, items.length))) };
  },

  /**
   * A query text's fingerprint, the k the library recommends for it at `tolerance` (the
   * one-text rule), and the pair rule's k for a text of its size against one of the same size
   * (pairK(n, n): the largest the pair rule asks an index, whatever the matches' sizes).
   */
  query({ text, width, tolerance }) {
    return withFingerprinter({ width }, (fp) => {
      const { fingerprint, features } = fp.fingerprintCounted(text);
      return {
        qfp: fingerprint,
        recommended: fp.recommendedK(text, { tolerance }),
        pairMax: fp.pairK(features, features, { tolerance }),
        features,
      };
    });
  },

  /**
   * index.query timed at `size` fingerprints (the sample's, then filler) in two indexes holding
   * the same fingerprints: one with the plan drawn, one with a scan plan (so both read
   * fingerprints already in the module's memory). Each time is the median per-call time of
   * repeated runs.
   */
  time({ width, k, plan, size, query, sample }) {
    const words = width > 64 ? 2 : 1;
    const all = new BigUint64Array(size * words);
    all.set(sample.subarray(0, Math.min(sample.length, all.length)));
    if (all.length > sample.length)
      all.set(fillerWords(all.length - sample.length, Math.min(width, 64)), sample.length);
    const ids = Float64Array.from({ length: size }, (_, i) => i);
    const built = (options) => {
      const index = new Index({ width, k, ...options });
      index.insertMany(ids, all);
      index.compact();
      return index;
    };
    const tables = built(plan);
    try {
      const scanning = built({ scan: true });
      try {
        return {
          size,
          query: medianTime(() => tables.query(query)),
          scan: medianTime(() => scanning.query(query)),
        };
      } finally {
        scanning.free();
      }
    } finally {
      tables.free();
    }
  },
};
