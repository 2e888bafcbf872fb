// This deployment's settings: wrangler.toml's [vars] and the two secrets (see README.md).
import {
  bodyLimits, cachedSettings, flag, kSetting, parseKey, rateLimit, whole,
} from 'simprint-worker-common/settings';
import { PUBLIC_KEY } from 'simprint-worker-common/scheme';
import { HttpError } from 'simprint-worker-common/http';
import { Plan } from 'simprint';

/** At most this many duplicates are returned, the nearest first. */
export const MAX_DUPLICATES = 100;

/** Documents are routed by MAX_K + 1 keys, one bit per table in a 31-bit mask. */
export const MAX_ROUTING_K = 30;

/** The settings of `env`, computed once per env; throws a 500 HttpError naming a bad one. */
export const settings = cachedSettings((env) => {
  const width = whole(env, 'WIDTH', 64, 1, 128);
  const mode = kSetting(env, width);
  const fixed = mode === 'auto' ? null : mode;
  const maxK = Math.max(whole(env, 'MAX_K', defaultK(width), 0, width), fixed ?? 0);
  if (maxK > MAX_ROUTING_K) {
    throw new HttpError(500, `bad configuration: documents are routed by MAX_K + 1 table keys, so MAX_K (and K) must be at most ${MAX_ROUTING_K}, not ${maxK}`);
  }
  // Store-plan substrings of about 21 bits, and never keys over 52 bits (SQLite integers,
  // exact doubles).
  const substrings = Math.min(width, Math.max(Math.ceil(width / 52), Math.round(width / 21), 1));
  return {
    width,
    // "auto": each text at its own recommended k (at most MAX_K, the k documents are routed and
    // filed for); a number: every text at that k.
    k: fixed ?? 'auto',
    maxK,
    ...bodyLimits(env),
    exposeFingerprints: flag(env, 'EXPOSE_FINGERPRINTS'),
    rateLimit: rateLimit(env),
    key: parseKey(env.SIPHASH_KEY, { publicKey: PUBLIC_KEY }),
    objects: whole(env, 'OBJECTS', 16, 1, 4096),
    memoryDocuments: whole(env, 'MEMORY_DOCUMENTS', 20000, 0, 1e8),
    storeSubstrings: whole(env, 'STORE_SUBSTRINGS', substrings, Math.ceil(width / 52), width),
    healAfterMs: whole(env, 'HEAL_AFTER_MS', 10000, 10, 3600000),
    maxBatchDocuments: whole(env, 'MAX_BATCH_DOCUMENTS', 1000, 1, 10000),
  };
});

/** The library's default k at `width` (what a new Index or Plan of that width is built for). */
function defaultK(width) {
  const plan = new Plan({ width });
  const { k } = plan;
  plan.free();
  return k;
}
