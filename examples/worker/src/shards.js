// How documents are spread over Durable Objects, and the orders answers are merged in.
// Pure JavaScript: the tests import it under Node too.

const encoder = new TextEncoder();

/**
 * The shard (0 .. n-1) holding document `id`: FNV-1a (32-bit) of the id's UTF-8, mod n.
 * Stable across deployments and runtimes, so it must never change for a given SHARDS.
 */
export function shardOf(id, n) {
  let h = 0x811c9dc5;
  for (const byte of encoder.encode(id)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h % n;
}

/** The Durable Object name of shard `i` of `n`. */
export const shardName = (i, n) => `shard-${i}-of-${n}`;

/** Strings compared by code point: the order SQLite gives TEXT (UTF-8 bytes). */
export function compareIds(a, b) {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i);
    const y = b.codePointAt(i);
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : 1;
}

/** Duplicates nearest first, ties by id: the same order whether from one shard or merged. */
export const byDistanceThenId = (p, q) => p.distance - q.distance || compareIds(p.id, q.id);
