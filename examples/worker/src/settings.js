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
import { Fingerprinter, defaults, recommendedK } from 'simprint';

/** At most this many duplicates are returned, the nearest first. */
export const MAX_DUPLICATES = 100;

/** The settings of `env`, computed once per env; throws a 500 HttpError naming a bad one. */
export const settings = cachedSettings((env) => {
  const width = whole(env, 'WIDTH', 64, 1, 128);
  const mode = kSetting(env, width, 'pair');
  const maxK = whole(env, 'MAX_K', defaultMaxK(width), 0, width);
  return {
    width,
    // "simhash" or "minhash" (ALGORITHM; unset: the library's default).
    algorithm: algorithmSetting(env, defaults().options.algorithm, (algorithm) =>
      new Fingerprinter({ algorithm }).free(),
    ),
    // "pair" (the default): each stored text at the k of the two texts' sizes (pairK); "auto":
    // each text at its own recommended k (both at most MAX_K, the k the index is planned for);
    // a number: every text at that k.
    k: mode,
    // recommendedK's and pairK's tolerance (TOLERANCE; unset: the library's default).
    tolerance: toleranceSetting(env, (tolerance) => recommendedK('', { tolerance })),
    maxK: typeof mode === 'number' ? Math.max(maxK, mode) : maxK,
    ...bodyLimits(env),
    exposeFingerprints: flag(env, 'EXPOSE_FINGERPRINTS'),
    rateLimit: rateLimit(env),
    key: parseKey(env.SIPHASH_KEY, { publicKey: PUBLIC_KEY }),
  };
});

/**
 * The largest k a text is checked at by default, the k the index is planned for: recommendedK
 * gives 11 to 16 at 64 bits (16 for short Chinese and Japanese texts; docs/evaluation.md), so
 * 16, scaled to the width. A larger MAX_K costs more per check; a smaller one checks the texts
 * that ask for more at MAX_K.
 */
export const defaultMaxK = (width) => Math.round((16 * width) / 64);
