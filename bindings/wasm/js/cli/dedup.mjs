// simprint dedup: every document compared with the documents kept before it, at its own k;
// within it of one, a duplicate of the nearest; else kept and added to the index.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Index, collectionK, defaults } from '../node.mjs';
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

export async function dedup(files, settings, { progress, warn }) {
  let index = openIndex(settings.index, {
    width: settings.width,
    k: settings.k ?? settings.maxK,
    expected: settings.expected,
  });
  const out = new Output(settings.output);
  const keep = settings.keep !== undefined ? new Output(settings.keep) : undefined;
  const clusters = settings.clusters ? new Map() : undefined;
  const started = index.size;
  const adaptive = settings.k === undefined && settings.maxK === undefined;
  let documents = 0;
  let duplicates = 0;
  let skipped = 0;
  try {
    await forEachDocument(files, settings, {
      progress,
      recommend: settings.k === undefined,
      temp: () => temporary(tempBeside(settings.output ?? 'simprint-input', 'parquet-input')),
      skipped: (message) => {
        skipped++;
        warn(message);
      },
      each: ({ id, hex, k: recommended, batch, i }) => {
        documents++;
        const k = documentK({
          fixedK: settings.k,
          recommended,
          kept: index.size,
          expected: settings.expected,
          indexK: index.k,
          width: index.width,
        });
        // An id already in the index is an earlier document's (or an earlier run's, resumed
        // from --index): its fingerprint would be replaced, or found as its own duplicate.
        if (index.has(id)) {
          throw new InputError(
            `${whereOf(batch, i)}: the id ${JSON.stringify(id)} is already in the index (an earlier document's${started ? `, or one of ${settings.index}` : ''}): ids must be unique`,
          );
        }
        const [match] = index.query(hex, k, 1);
        if (match) {
          duplicates++;
          if (clusters) {
            const group = clusters.get(match.id);
            if (group) group.push(id);
            else clusters.set(match.id, [id]);
          } else out.line(JSON.stringify({ id, original: match.id, distance: match.distance, k }));
          if (documents % 1024 === 0)
            progress.documents(0, `${duplicates.toLocaleString('en-US')} duplicates`);
          return;
        }
        index.insert(id, hex);
        keep?.line(recordLine(batch, i));
        // No document is asked above collectionK of the documents kept, which only falls as
        // they grow: an index planned for that smaller k answers the same, faster. Unless the
        // k was given (--k, --max-k), the index follows it (a handful of rebuilds up to 10^6).
        if (adaptive) {
          const target =
            collectionK(Math.max(index.size, settings.expected ?? 0), index.width) ?? 0;
          if (target < index.k) index = replan(index, target);
        }
      },
    });
    if (clusters)
      for (const [original, members] of clusters)
        out.line(JSON.stringify({ original, duplicates: members }));
    // The index first: outputs are renamed only once everything they depend on is written.
    if (settings.index) {
      const temp = temporary(tempBeside(settings.index));
      writeFileSync(temp, index.toBytes());
      renameSync(temp, settings.index);
    }
    await keep?.commit();
    await out.commit();
    return {
      documents,
      duplicates,
      kept: index.size - started,
      skipped,
      indexK: index.k,
      indexBytes: index.memoryBytes(),
      indexSize: index.size,
    };
  } finally {
    index.free();
  }
}
