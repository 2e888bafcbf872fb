// The kept documents' feature counts (the pair rule's sizes), keyed by the index's ids, and
// their sidecar file beside a saved index (FILE.features; the format is in docs/cli.md).
//
// In memory, two open-addressing tables of typed arrays (an 8-byte key and a 4-byte count a
// slot) rather than a Map: a Map entry with its key costs several times that, and a string id
// would be held a second time beside the index's own copy. Numbers are their own key; a name
// (string id) is keyed by a 53-bit hash of it, and the few names whose hash another already
// took are kept exactly in a Map. Every id of the index is registered (UNCOUNTED when its count
// is unknown), so a hash shared by two names is always seen when the second arrives.
import { createHash } from 'node:crypto';
import { InputError } from './errors.mjs';

/** The count of a document kept without one (by a version before counts were stored). */
export const UNCOUNTED = 0xffffffff;
/** A name table's value when two or more names share the hash: see the exact Map. */
const SHARED = 0xfffffffe;
const EMPTY = -1;
const TWO_32 = 2 ** 32;

/** A table from keys (whole numbers from 0 to 2^53 − 1) to counts (u32). */
class Table {
  constructor(capacity = 1024) {
    this.keys = new Float64Array(capacity).fill(EMPTY);
    this.values = new Uint32Array(capacity);
    this.size = 0;
  }

  /** The slot holding `key`, or the empty one where it would go (linear probing). */
  slot(key) {
    const mask = this.keys.length - 1;
    const lo = key % TWO_32;
    const hi = (key - lo) / TWO_32;
    let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 15), 0xc2b2ae35);
    let s = (h ^ (h >>> 13)) & mask;
    while (this.keys[s] !== key && this.keys[s] !== EMPTY) s = (s + 1) & mask;
    return s;
  }

  get(key) {
    const s = this.slot(key);
    return this.keys[s] === key ? this.values[s] : undefined;
  }

  set(key, value) {
    let s = this.slot(key);
    if (this.keys[s] === EMPTY) {
      // Grown at 70 % full: a slot costs 12 bytes, so 17 to 34 bytes a key.
      if ((this.size + 1) * 10 > this.keys.length * 7) {
        this.grow();
        s = this.slot(key);
      }
      this.keys[s] = key;
      this.size++;
    }
    this.values[s] = value;
  }

  grow() {
    const { keys, values } = this;
    this.keys = new Float64Array(keys.length * 2).fill(EMPTY);
    this.values = new Uint32Array(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === EMPTY) continue;
      const s = this.slot(keys[i]);
      this.keys[s] = keys[i];
      this.values[s] = values[i];
    }
  }

  bytes() {
    return this.keys.byteLength + this.values.byteLength;
  }
}

/** A 53-bit hash of a string (two 32-bit multiply-xor lanes over its UTF-16 code units). */
export function hashName(name) {
  let a = 0x811c9dc5;
  let b = 0x2545f491 ^ name.length;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
  a ^= a >>> 13;
  b = Math.imul(b ^ (b >>> 16), 0xc2b2ae35);
  b ^= b >>> 16;
  return (a & 0x1fffff) * TWO_32 + (b >>> 0);
}

/** Feature counts by id (a number or a string, as the index takes them). */
export class Counts {
  #numbers = new Table();
  #names = new Table();
  #shared = new Map(); // names whose hash another name has too: name -> count
  #hash;
  /** How many ids are registered, and how many of them UNCOUNTED. */
  size = 0;
  uncounted = 0;

  /** `hash`: a name's key (tests pass a poor one, to take the shared-hash path). */
  constructor({ hash = hashName } = {}) {
    this.#hash = hash;
  }

  /**
   * The count of `id` (UNCOUNTED for a document kept without one). Only for registered ids:
   * another name with the same hash would answer for an unregistered one.
   */
  get(id) {
    if (typeof id === 'number') return this.#numbers.get(id);
    const value = this.#names.get(this.#hash(id));
    return value === SHARED ? this.#shared.get(id) : value;
  }

  /**
   * Registers a new id (one not registered yet) with its count. `allIds()` gives every id of
   * the index: called only when a name's hash is taken, to find the name that took it.
   */
  set(id, count, allIds) {
    this.size++;
    if (count === UNCOUNTED) this.uncounted++;
    if (typeof id === 'number') return this.#numbers.set(id, count);
    const key = this.#hash(id);
    const taken = this.#names.get(key);
    if (taken === undefined) return this.#names.set(key, count);
    if (taken !== SHARED) {
      const other = allIds().find(
        (o) => typeof o === 'string' && o !== id && this.#hash(o) === key,
      );
      if (other === undefined) throw new Error(`internal: no other name has the hash of ${id}`);
      this.#shared.set(other, taken);
      this.#names.set(key, SHARED);
    }
    this.#shared.set(id, count);
  }

  /** Bytes of the typed arrays (the Map of shared hashes aside: empty but for collisions). */
  bytes() {
    return this.#numbers.bytes() + this.#names.bytes();
  }
}

// The sidecar: MAGIC, the count of ids (u64 LE), the SHA-256 of the index's ids, a count per
// id (u32 LE) in index.ids() order, then the SHA-256 of all that.
const MAGIC = Buffer.from('SPFEAT01', 'latin1');
const HEAD = MAGIC.length + 8 + 32;
const SUM = 32;

/** The sidecar of the index file `path`. */
export const sidecarOf = (path) => `${path}.features`;

/** SHA-256 of `ids` in their order, each as JSON and a newline (so 7 and "7" differ). */
function idsDigest(ids) {
  const hash = createHash('sha256');
  for (let i = 0; i < ids.length; i += 4096)
    hash.update(
      `${ids
        .slice(i, i + 4096)
        .map((id) => JSON.stringify(id))
        .join('\n')}\n`,
    );
  return hash.digest();
}

/** The sidecar's bytes for `index` and the `counts` of all its ids. */
export function countsBytes(index, counts) {
  const ids = index.ids();
  const bytes = Buffer.alloc(HEAD + 4 * ids.length + SUM);
  MAGIC.copy(bytes, 0);
  bytes.writeBigUInt64LE(BigInt(ids.length), MAGIC.length);
  idsDigest(ids).copy(bytes, MAGIC.length + 8);
  for (let i = 0; i < ids.length; i++) {
    const count = counts.get(ids[i]);
    if (count === undefined) throw new Error(`internal: no feature count for ${ids[i]}`);
    bytes.writeUInt32LE(count, HEAD + 4 * i);
  }
  createHash('sha256')
    .update(bytes.subarray(0, bytes.length - SUM))
    .digest()
    .copy(bytes, bytes.length - SUM);
  return bytes;
}

/**
 * The counts of `index`'s ids read from `bytes` (the sidecar `path` of the index file
 * `indexPath`); an InputError naming the file if they are not this index's, or are damaged.
 */
export function readCounts(bytes, index, path, indexPath) {
  const remedy = `restore the ${indexPath} it was saved with, or delete it (then the index's documents are checked at each text's recommended k)`;
  const bad = (what) => new InputError(`${path}: ${what}; ${remedy}`);
  if (bytes.length < HEAD + SUM || !bytes.subarray(0, MAGIC.length).equals(MAGIC))
    throw bad('not a feature-count file of simprint');
  const n = bytes.readBigUInt64LE(MAGIC.length);
  if (BigInt(bytes.length) !== BigInt(HEAD + SUM) + 4n * n)
    throw bad(`damaged: ${bytes.length} bytes, but it says it holds ${n} counts`);
  const sum = createHash('sha256')
    .update(bytes.subarray(0, bytes.length - SUM))
    .digest();
  if (!sum.equals(bytes.subarray(bytes.length - SUM)))
    throw bad('damaged: its checksum does not match its contents');
  const ids = index.ids();
  if (n !== BigInt(ids.length) || !idsDigest(ids).equals(bytes.subarray(MAGIC.length + 8, HEAD)))
    throw bad(
      `holds the counts of other documents than the index ${indexPath} (${n} counts, ${ids.length} documents in the index)`,
    );
  const counts = new Counts();
  const all = () => ids;
  for (let i = 0; i < ids.length; i++) {
    const count = bytes.readUInt32LE(HEAD + 4 * i);
    if (count === SHARED) throw bad(`damaged: a count of ${count}`);
    counts.set(ids[i], count, all);
  }
  return counts;
}

/** Counts for an index saved without a sidecar (by an earlier version): none known. */
export function uncountedOf(index) {
  const ids = index.ids();
  const counts = new Counts();
  const all = () => ids;
  for (const id of ids) counts.set(id, UNCOUNTED, all);
  return counts;
}
