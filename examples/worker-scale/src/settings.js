// This deployment's settings: wrangler.toml's [vars] and the two secrets (see README.md).
import {
  algorithmSetting,
  bodyLimits,
  cachedSettings,
  flag,
  kSetting,
  parseKey,
  rateLimit,
  toleranceSetting,
  whole,
} from 'simprint-worker-common/settings';
import { PUBLIC_KEY } from 'simprint-worker-common/scheme';
import { HttpError } from 'simprint-worker-common/http';
import { collectionK, defaults, Fingerprinter, pairK, Plan, recommendedK } from 'simprint';

/** At most this many duplicates are returned, the nearest first. */
export const MAX_DUPLICATES = 100;

/** Documents are routed by MAX_K + 1 keys, one bit per table in a 31-bit mask. */
export const MAX_ROUTING_K = 30;

/** The settings of `env`, computed once per env; throws a 500 HttpError naming a bad one. */
export const settings = cachedSettings((env) => {
  const width = whole(env, 'WIDTH', 64, 1, 128);
  const mode = kSetting(env, width, 'pair');
  const fixed = typeof mode === 'number' ? mode : null;
  const maxK = Math.max(whole(env, 'MAX_K', defaultMaxK(width), 0, width), fixed ?? 0);
  if (maxK > MAX_ROUTING_K) {
    throw new HttpError(
      500,
      `bad configuration: documents are routed by MAX_K + 1 table keys, so MAX_K (and K) must be at most ${MAX_ROUTING_K}, not ${maxK}`,
    );
  }
  return {
    width,
    // "simhash" or "minhash" (ALGORITHM; unset: the library's default).
    algorithm: algorithmSetting(env, defaults().options.algorithm, (algorithm) =>
      new Fingerprinter({ algorithm }).free(),
    ),
    // "pair" (the default): each held text at the k of both texts' sizes (pairK of their
    // feature counts); "auto": each text at its own recommended k (both at most MAX_K, the k
    // documents are routed and filed for); a number: every text at that k.
    k: mode,
    // recommendedK's and pairK's tolerance (TOLERANCE; unset: the library's default).
    tolerance: toleranceSetting(env, (tolerance) => recommendedK('', { tolerance })),
    maxK,
    ...bodyLimits(env),
    exposeFingerprints: flag(env, 'EXPOSE_FINGERPRINTS'),
    rateLimit: rateLimit(env),
    key: parseKey(env.SIPHASH_KEY, { publicKey: PUBLIC_KEY }),
    objects: whole(env, 'OBJECTS', 16, 1, 4096),
    // An object holding more documents answers from SQLite instead of a scan in memory (about
    // 20 bytes a document with its feature count: 2 MB at 100,000, in the 128 MB its isolate's
    // objects share).
    memoryDocuments: whole(env, 'MEMORY_DOCUMENTS', 100000, 0, 1e8),
    storeSubstrings: whole(
      env,
      'STORE_SUBSTRINGS',
      storeSubstrings(width, maxK),
      Math.ceil(width / 52),
      width,
    ),
    healAfterMs: whole(env, 'HEAL_AFTER_MS', 10000, 10, 3600000),
    maxBatchDocuments: whole(env, 'MAX_BATCH_DOCUMENTS', 1000, 1, 10000),
  };
});

/** simprint's pairK for two texts of `a` and `b` distinct features under settings `s`. */
export function pairKOf(s, a, b) {
  const { width, tolerance, algorithm } = s;
  return pairK(
    a,
    b,
    tolerance === undefined ? { width, algorithm } : { width, tolerance, algorithm },
  );
}

/**
 * The largest k any held document may be checked at for a text asking `k` with `features`
 * distinct features, before an object's own cap (key-store.js kFor): with K = "pair" the pair
 * k of equal sizes (pairK is largest there) or, for documents stored before counts were kept,
 * the text's own `k`; else `k`. At most MAX_K. A check asks the owners of that many keys + 1.
 */
export function reachOf(s, k, features) {
  const most = s.k === 'pair' && features != null ? Math.max(pairKOf(s, features, features), k) : k;
  return Math.min(most, s.maxK);
}

/**
 * The largest k a text is checked at by default, what documents are routed and filed for:
 * simprint's collectionK of a million documents (11 at 64 bits). Keys routing is for
 * collections past that, where each object caps a text's k by what it holds anyway
 * (key-store.js kFor), and every unit of MAX_K is one more routing table (one more object
 * written per document).
 */
export const defaultMaxK = (width) => Math.min(MAX_ROUTING_K, collectionK(1e6, width) ?? 0);

/**
 * The substrings of the store plan an object files its documents under in SQLite (see
 * key-store.js): the count whose probe keys plus expected candidates for a million documents
 * are fewest (each is one SQLite lookup or one row read), with no key over 52 bits (SQLite
 * integers, exact doubles). 3 at 64 bits for MAX_K 9 to 12, 4 at 16.
 */
export function storeSubstrings(width, maxK) {
  let best = null;
  for (let n = Math.ceil(width / 52); n <= Math.min(width, maxK + 1, 8); n++) {
    const plan = new Plan({ width, k: maxK, substrings: n });
    const counts = plan.probeCounts();
    const candidates = plan
      .describe()
      .tables.reduce((sum, t, i) => sum + (counts[i] * 1e6) / 2 ** t.keyBits, 0);
    const cost = plan.probeCount + candidates;
    plan.free();
    if (best === null || cost < best.cost) best = { n, cost };
  }
  return best?.n ?? Math.ceil(width / 52);
}
