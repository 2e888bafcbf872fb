// simprint dedup: every document compared with the documents kept before it, each at the k of
// the pair (pair rule: both texts' feature counts) or at the document's own k (text rule);
// within it of one, a duplicate of the nearest; else kept and added to the index.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Index, collectionK, defaults, pairK } from '../node.mjs';
import { UsageError, toleranceOptions } from './args.mjs';
import { Counts, UNCOUNTED, countsBytes, readCounts, sidecarOf, uncountedOf } from './counts.mjs';
import { InputError } from './errors.mjs';
import { Output, tempBeside, temporary } from './output.mjs';
import { forEachDocument, recordLine, whereOf } from './pipeline.mjs';

/**
 * The index's k when none is given: collectionK(1000), the largest k a collection of a
 * thousand unrelated fingerprints takes (16 at 64 bits; smaller collections hardly need an
 * index), or collectionK(--expected) for a collection expected larger (11 for a million).
 */
export const PLANNED_DOCUMENTS = 1000;

/**
 * The k a document is compared at: `--k` if given, else min(its recommended k, the k the
 * collection it is checked against takes, the index's k). collectionK is undefined when no k
 * keeps chance matches rare (a collection near 2^width / 10): then 0, equal fingerprints only.
 */
export function documentK({ fixedK, recommended, kept, expected, indexK, width }) {
  if (fixedK !== undefined) return fixedK;
  const collection = collectionK(Math.max(kept, expected ?? 0), width) ?? 0;
  return Math.min(recommended, collection, indexK);
}

/** The index of a run: loaded from `path` if it exists, else new for `width` and k. */
export function openIndex(path, { width, k, expected }) {
  if (path && existsSync(path)) {
    let index;
    try {
      index = Index.fromBytes(readFileSync(path));
    } catch (e) {
      throw new InputError(`${path}: not an index file simprint can read: ${e.message}`);
    }
    if (width !== undefined && index.width !== width)
      throw new InputError(
        `${path}: the index holds ${index.width}-bit fingerprints, but --width is ${width}`,
      );
    if (k !== undefined && k > index.k)
      throw new InputError(
        `${path}: the index was built for k up to ${index.k}, but this run asks ${k}; start a new index (another --index file)`,
      );
    return index;
  }
  const w = width ?? defaults().options.width;
  return new Index({
    width: w,
    k: k ?? collectionK(Math.max(PLANNED_DOCUMENTS, expected ?? 0), w) ?? 0,
  });
}

/**
 * `index` planned again for `k` (smaller than its own): the same entries, inserted in the
 * order ids() gives (numbers ascending, then names in the order first stored, so names get
 * their internal ids in the same order and ties between equal distances break the same way).
 */
export function replan(index, k) {
  const ids = index.ids();
  const next = new Index({ width: index.width, k });
  try {
    next.insertMany(
      ids,
      ids.map((id) => index.get(id)),
    );
    next.compact();
  } catch (e) {
    next.free();
    throw e;
  }
  index.free();
  return next;
}

/** The first page of matches a document asks for under the pair rule (see nearestAccepted). */
export const FIRST_PAGE = 16;

/**
 * The nearest of the index's matches within `k` of `hex` (ties as the index lists them) whose
 * distance is within its own `kOf(id)`: `{ id, distance, k }`, or undefined. A page of
 * FIRST_PAGE matches first, then four times as many while every match was refused, so matches
 * refused for their size never hide an accepted one farther away.
 */
export function nearestAccepted(index, hex, k, kOf) {
  let from = 0;
  for (let limit = FIRST_PAGE; ; limit *= 4) {
    const matches = index.query(hex, k, limit);
    for (let j = from; j < matches.length; j++) {
      const { id, distance } = matches[j];
      const own = kOf(id);
      if (distance <= own) return { id, distance, k: own };
    }
    if (matches.length < limit) return undefined;
    from = matches.length;
  }
}

export async function dedup(files, settings, { progress, warn }) {
  const resumed = settings.index !== undefined && existsSync(settings.index);
  let index = openIndex(settings.index, {
    width: settings.width,
    k: settings.k ?? settings.maxK,
    expected: settings.expected,
  });
  try {
    // A fixed k (--k) overrides the rule: every document at that k, as with --rule text.
    const pair = (settings.rule ?? 'pair') === 'pair' && settings.k === undefined;
    // Counts are kept for the pair rule, and for the sidecar of any run that saves its index
    // (a later run with the pair rule reads them).
    const counting = pair || settings.index !== undefined;
    const counts = counting ? openCounts(settings.index, resumed, index) : undefined;
    const pairOptions = {
      width: index.width,
      algorithm: settings.algorithm ?? defaults().options.algorithm,
      ...toleranceOptions(settings),
    };
    let pairMax; // pairK(n, n), the same for every n: the largest pair k
    // pairK of two counts, remembered: a call into the package reads its options object each
    // time, and the same sizes come back (a million documents ask about 10^5 distinct pairs).
    const pairKs = new Map();
    const pairKOf = (n, m) => {
      if (n >= 2 ** 21 || m >= 2 ** 32) return pairK(n, m, pairOptions); // no exact key
      const key = n * 2 ** 32 + m;
      let k = pairKs.get(key);
      if (k === undefined) {
        if (pairKs.size >= 1 << 18) pairKs.clear();
        k = pairK(n, m, pairOptions);
        pairKs.set(key, k);
      }
      return k;
    };
    if (pair) {
      try {
        pairMax = pairK(1, 1, pairOptions);
      } catch (e) {
        throw new UsageError(e.message);
      }
    }
    const out = new Output(settings.output);
    const keep = settings.keep !== undefined ? new Output(settings.keep) : undefined;
    const clusters = settings.clusters ? new Map() : undefined;
    const started = index.size;
    const adaptive = settings.k === undefined && settings.maxK === undefined;
    // No document is asked above collectionK of the documents kept, which only falls as they
    // grow, nor (pair rule, every kept document counted) above pairK(n, n): an index planned
    // for that smaller k answers the same, faster. Unless the k was given (--k, --max-k), the
    // index follows it (a handful of rebuilds up to 10^6).
    const follow = () => {
      if (!adaptive) return;
      let target = collectionK(Math.max(index.size, settings.expected ?? 0), index.width) ?? 0;
      if (pair && counts.uncounted === 0) target = Math.min(target, pairMax);
      if (target < index.k) index = replan(index, target);
    };
    follow();
    const allIds = () => index.ids();
    let documents = 0;
    let duplicates = 0;
    let skipped = 0;
    await forEachDocument(files, settings, {
      progress,
      // The recommended k is the text rule's, and the pair rule's for documents kept without
      // a count; the pair rule needs only the count otherwise (fingerprintCounted is faster).
      recommend: settings.k === undefined && (!pair || counts.uncounted > 0),
      count: counting,
      temp: () => temporary(tempBeside(settings.output ?? 'simprint-input', 'parquet-input')),
      skipped: (message) => {
        skipped++;
        warn(message);
      },
      each: ({ id, hex, k: recommended, features, batch, i }) => {
        documents++;
        // An id already in the index is an earlier document's (or an earlier run's, resumed
        // from --index): its fingerprint would be replaced, or found as its own duplicate.
        if (index.has(id)) {
          throw new InputError(
            `${whereOf(batch, i)}: the id ${JSON.stringify(id)} is already in the index (an earlier document's${started ? `, or one of ${settings.index}` : ''}): ids must be unique`,
          );
        }
        let match;
        if (pair) {
          // Each kept document at its own k: pairK of the two counts, or the text's
          // recommended k for one kept without a count; each capped as documentK caps.
          const cap = documentK({
            recommended: Number.POSITIVE_INFINITY,
            kept: index.size,
            expected: settings.expected,
            indexK: index.k,
            width: index.width,
          });
          const textK = Math.min(recommended, cap);
          const kOf = (other) => {
            const m = counts.get(other);
            return m === UNCOUNTED ? textK : Math.min(pairKOf(features, m), cap);
          };
          // pairK is largest at equal sizes: no kept document is checked at more than this.
          const k = Math.min(counts.uncounted > 0 ? Math.max(pairMax, recommended) : pairMax, cap);
          match = nearestAccepted(index, hex, k, kOf);
        } else {
          const k = documentK({
            fixedK: settings.k,
            recommended,
            kept: index.size,
            expected: settings.expected,
            indexK: index.k,
            width: index.width,
          });
          const [nearest] = index.query(hex, k, 1);
          match = nearest && { ...nearest, k };
        }
        if (match) {
          duplicates++;
          if (clusters) {
            const group = clusters.get(match.id);
            if (group) group.push(id);
            else clusters.set(match.id, [id]);
          } else
            out.line(
              JSON.stringify({ id, original: match.id, distance: match.distance, k: match.k }),
            );
          if (documents % 1024 === 0)
            progress.documents(0, `${duplicates.toLocaleString('en-US')} duplicates`);
          return;
        }
        index.insert(id, hex);
        counts?.set(id, features ?? UNCOUNTED, allIds);
        keep?.line(recordLine(batch, i));
        follow();
      },
    });
    if (clusters)
      for (const [original, members] of clusters)
        out.line(JSON.stringify({ original, duplicates: members }));
    // The index first, then its counts (which name its ids): outputs are renamed only once
    // everything they depend on is written.
    if (settings.index) {
      writeAtomically(settings.index, index.toBytes());
      writeAtomically(sidecarOf(settings.index), countsBytes(index, counts));
    }
    await keep?.commit();
    await out.commit();
    return {
      documents,
      duplicates,
      kept: index.size - started,
      skipped,
      uncounted: counts?.uncounted ?? 0,
      indexK: index.k,
      indexBytes: index.memoryBytes(),
      indexSize: index.size,
    };
  } finally {
    index.free();
  }
}

/** `bytes` into `path` under a temporary name, renamed when complete. */
function writeAtomically(path, bytes) {
  const temp = temporary(tempBeside(path));
  writeFileSync(temp, bytes);
  renameSync(temp, path);
}

/**
 * The feature counts of a run's index: none for a new one; for one loaded from `path`, those
 * of its sidecar, or UNCOUNTED for every document of an index saved without one (by a version
 * before counts were kept).
 */
function openCounts(path, resumed, index) {
  if (!resumed) return new Counts();
  const sidecar = sidecarOf(path);
  let bytes;
  try {
    bytes = readFileSync(sidecar);
  } catch (e) {
    if (e.code === 'ENOENT') return uncountedOf(index);
    throw new InputError(`${sidecar}: ${e.message}`);
  }
  return readCounts(bytes, index, sidecar, path);
}
