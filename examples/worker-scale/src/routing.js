// Routing by table key: which object owns a table key, which object is a document's home, and
// how the owners' answers are merged. Pure JavaScript, no simprint: the tests import it under
// Node too.
//
// A fingerprint is cut into MAX_K + 1 substrings (simprint's keys scheme,
// Plan({ k: MAX_K, substrings: MAX_K + 1 })). Two fingerprints within k ≤ MAX_K differ in at most
// k bits, so they agree in at least MAX_K + 1 - k of the substrings, and so in at least one of
// any k + 1 of them (pigeonhole): the object owning (table t, the query's key in t) holds every
// stored document that agrees with the query in substring t. Asking the owners of the query's
// first k + 1 keys therefore asks every object that can hold a match, whatever the number of
// objects: at most k + 1 of them, fewer when keys share an owner.

const encoder = new TextEncoder();

/**
 * A bucket (0 .. n-1) of the string `s`: FNV-1a (32-bit) of its UTF-8, mod n. Stable across
 * deployments and runtimes, so it must never change: documents are placed by it.
 */
export function bucketOf(s, n) {
  let h = 0x811c9dc5;
  for (const byte of encoder.encode(s)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h % n;
}

/** The object (0 .. n-1) owning key `keyHex` of table `table`: FNV-1a of "table:key", mod n. */
export const ownerOf = (table, keyHex, n) => bucketOf(`${table}:${keyHex}`, n);

/** The object (0 .. n-1) keeping document `id`'s record (its home): FNV-1a of "id:<id>", mod n. */
export const homeOf = (id, n) => bucketOf(`id:${id}`, n);

/**
 * The Durable Object name of `tenant`'s object `i` of `n`. Tenants hold no ':' or '/', so
 * tenants never share an object; the count is in the name, so a changed OBJECTS starts from
 * new objects. (The names an earlier version's ROUTING = "keys" gave, so its documents stay.)
 */
export const keysObjectName = (tenant, i, n) => `tenant:${tenant}/keys-${i}-of-${n}`;

/**
 * `keys` (one per table, as hex) grouped by owner: Map(owner -> bitmask of the tables it owns
 * for this fingerprint). Bit t stands for table t; MAX_K + 1 <= 31 tables keep it a small integer.
 */
export function ownersOf(keys, n) {
  const owners = new Map();
  keys.forEach((key, table) => {
    const o = ownerOf(table, key, n);
    owners.set(o, (owners.get(o) ?? 0) | (1 << table));
  });
  return owners;
}

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
 * Duplicates from several objects merged: each id once (the same document may sit in several
 * objects, at the same distance), nearest first, ties by id (code point order); at most `max`,
 * and whether any were left out. Each object answers its nearest `max`, so the nearest `max`
 * distances are exact; among equally distant documents past the cut which ones are shown is
 * not specified.
 *
 * Each duplicate is marked `earlier` or not by the one object that orders the pair (`decided`,
 * key-store.js near): the owner of the lowest routing table in which both agree, which took
 * both documents and checked the later one after it took it. When that object did not report
 * the document (it took it after this query's check there), it is later, unless `stored` is
 * false (a dry run, stored nowhere: everything found came first). `original`: no duplicate
 * found came earlier, so this document is the one to keep; when an object left some out, a
 * document it would have decided on counts as earlier (the doubt goes to "duplicate"). `k`: the
 * smallest k an object checked at (each caps the text's k by what it holds), when any said;
 * with `pair` (K = "pair": each duplicate carries the k it was checked at) the largest, and
 * each duplicate keeps the largest k an object reported it at (objects cap by their own
 * holdings, so two holding it may differ; its distance is within that one).
 */
export function mergeById(answers, max, { stored, pair = false }) {
  const best = new Map();
  for (const a of answers) {
    for (const d of a.duplicates) {
      const seen = best.get(d.id) ?? { distance: d.distance, decided: false, earlier: !stored };
      if (d.distance < seen.distance) seen.distance = d.distance;
      if (d.k !== undefined) seen.k = Math.max(seen.k ?? 0, d.k);
      if (d.decided) Object.assign(seen, { decided: true, earlier: d.earlier });
      best.set(d.id, seen);
    }
  }
  const truncated = answers.some((a) => a.truncated);
  const all = [...best]
    .map(([id, { distance, k, decided, earlier }]) => ({
      id,
      distance,
      ...(k === undefined ? {} : { k }),
      earlier: earlier || (truncated && !decided),
    }))
    .sort((p, q) => p.distance - q.distance || compareIds(p.id, q.id));
  const ks = answers.map((a) => a.k).filter((k) => k !== undefined);
  return {
    ...(ks.length ? { k: pair ? Math.max(...ks) : Math.min(...ks) } : {}),
    duplicates: all.slice(0, max),
    truncated: all.length > max || truncated,
    original: !all.some((d) => d.earlier),
  };
}
