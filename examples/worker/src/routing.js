// Routing by table key (ROUTING = "keys"): which object owns a table key, which object is a
// document's home, and the small pieces of arithmetic both sides need. Pure JavaScript, no
// simprint: the tests import it under Node too.
//
// A fingerprint is cut into K + 1 substrings (simprint's keys scheme, Plan({ substrings: K + 1 })).
// Two fingerprints within K differ in at most K bits, so at least one of the K + 1 substrings
// is equal in both (pigeonhole): the object owning (table t, the query's key in t) holds every
// stored document that agrees with the query in substring t. Asking the owners of the query's
// K + 1 keys therefore asks every object that can hold a match, whatever the number of objects:
// at most K + 1 of them, fewer when keys share an owner.
import { compareIds, shardOf } from './shards.js';

/** The object (0 .. n-1) owning key `keyHex` of table `table`: FNV-1a of "table:key", mod n. */
export const ownerOf = (table, keyHex, n) => shardOf(`${table}:${keyHex}`, n);

/** The object (0 .. n-1) keeping document `id`'s record (its home): by id, as SHARDS does. */
export const homeOf = (id, n) => shardOf(`id:${id}`, n);

/**
 * The Durable Object name of `tenant`'s object `i` of `n` in keys mode. Tenants hold no ':'
 * or '/', and "keys-" names never equal SHARDS' "shard-" names: tenants and modes never share
 * an object. The count is in the name, so a changed OBJECTS starts from new objects.
 */
export const keysObjectName = (tenant, i, n) => `tenant:${tenant}/keys-${i}-of-${n}`;

/**
 * `keys` (one per table, as hex) grouped by owner: Map(owner -> bitmask of the tables it owns
 * for this fingerprint). Bit t stands for table t; K + 1 <= 31 tables keep it a small integer.
 */
export function ownersOf(keys, n) {
  const owners = new Map();
  keys.forEach((key, table) => {
    const o = ownerOf(table, key, n);
    owners.set(o, (owners.get(o) ?? 0) | (1 << table));
  });
  return owners;
}

const POPCOUNT = new Uint8Array(256).map((_, i) => {
  let c = 0;
  for (let v = i; v; v &= v - 1) c++;
  return c;
});

function popcount32(v) {
  return POPCOUNT[v & 0xff] + POPCOUNT[(v >>> 8) & 0xff] + POPCOUNT[(v >>> 16) & 0xff] + POPCOUNT[v >>> 24];
}

/**
 * Hamming distance of two fingerprints as hex strings of the same length (lowercase, as
 * simprint's toHex writes them), eight digits at a time: the check on candidates read from SQL.
 */
export function hexDistance(a, b) {
  let d = 0;
  for (let i = 0; i < a.length; i += 8) {
    d += popcount32((parseInt(a.slice(i, i + 8), 16) ^ parseInt(b.slice(i, i + 8), 16)) >>> 0);
  }
  return d;
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
 * document it would have decided on counts as earlier (the doubt goes to "duplicate").
 */
export function mergeById(answers, max, { stored }) {
  const best = new Map();
  for (const a of answers) {
    for (const d of a.duplicates) {
      const seen = best.get(d.id) ?? { distance: d.distance, decided: false, earlier: !stored };
      if (d.distance < seen.distance) seen.distance = d.distance;
      if (d.decided) Object.assign(seen, { decided: true, earlier: d.earlier });
      best.set(d.id, seen);
    }
  }
  const truncated = answers.some((a) => a.truncated);
  const all = [...best].map(([id, { distance, decided, earlier }]) => ({ id, distance, earlier: earlier || (truncated && !decided) }))
    .sort((p, q) => p.distance - q.distance || compareIds(p.id, q.id));
  return {
    duplicates: all.slice(0, max),
    truncated: all.length > max || truncated,
    original: !all.some((d) => d.earlier),
  };
}
