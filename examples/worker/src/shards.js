// Names of Durable Objects, the hash that spreads keys over them, and the order of ids.
// Pure JavaScript: the tests import it under Node too.

const encoder = new TextEncoder();

/** At most this many duplicates are returned, the nearest first. */
export const MAX_DUPLICATES = 100;

/**
 * A bucket (0 .. n-1) of the string `id`: FNV-1a (32-bit) of its UTF-8, mod n. Stable
 * across deployments and runtimes, so it must never change: keys routing places documents
 * by it (routing.js).
 */
export function shardOf(id, n) {
  let h = 0x811c9dc5;
  for (const byte of encoder.encode(id)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h % n;
}

/**
 * The Durable Object name of `tenant`'s object with ROUTING = "id". Tenants (config.js
 * TENANT_RE) hold no ':' or '/', so tenants never share an object. (The name is the one the
 * retired SHARDS = 1 gave, so objects stored under it keep their documents.)
 */
export const shardName = (tenant) => `tenant:${tenant}/shard-0-of-1`;

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
