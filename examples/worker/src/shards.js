// How documents are spread over Durable Objects, and the orders answers are merged in.
// Pure JavaScript: the tests import it under Node too.

const encoder = new TextEncoder();

/** At most this many duplicates are returned, the nearest first (see nearestFirst). */
export const MAX_DUPLICATES = 100;

/**
 * The shard (0 .. n-1) holding document `id`: FNV-1a (32-bit) of the id's UTF-8, mod n.
 * Stable across deployments and runtimes, so it must never change for a given SHARDS.
 */
export function shardOf(id, n) {
  let h = 0x811c9dc5;
  for (const byte of encoder.encode(id)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h % n;
}

/**
 * The Durable Object name of `tenant`'s shard `i` of `n`. Tenants (config.js TENANT_RE) hold
 * no ':' or '/', so no two (tenant, i, n) share a name: tenants never share an object.
 */
export const shardName = (tenant, i, n) => `tenant:${tenant}/shard-${i}-of-${n}`;

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

/**
 * Duplicates nearest first; ties by `num` (each shard numbers its ids in the order they were
 * first stored), then by shard. Within one shard that is the order its index answers in, so
 * the nearest MAX_DUPLICATES of every shard hold the nearest MAX_DUPLICATES of all of them.
 * (Ties by the client's id would need every equally near match of a shard, however many.)
 */
export const nearestFirst = (p, q) => p.distance - q.distance || p.num - q.num || p.shard - q.shard;

/**
 * The shards' answers (`answers[i]` from shard i: `{duplicates: [{id, distance, num}], truncated}`)
 * merged: the first `max` by nearestFirst as `{id, distance}`, and whether any were left out.
 */
export function mergeDuplicates(answers, max) {
  const all = answers.flatMap((a, shard) => a.duplicates.map((d) => ({ ...d, shard }))).sort(nearestFirst);
  return {
    duplicates: all.slice(0, max).map(({ id, distance }) => ({ id, distance })),
    truncated: all.length > max || answers.some((a) => a.truncated),
  };
}
