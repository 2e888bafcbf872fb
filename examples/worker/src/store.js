// One tenant's documents: a Durable Object with SQLite-backed storage. The `documents` table is
// the truth and the only place ids live; the simprint Index in memory holds fingerprints keyed
// by row number (`num`) and is rebuilt from the table when the object starts, with each text's
// feature count (for K = "pair") in an array by `num`. The ≤ 100 ids of an answer are read back
// by number. Every method below runs without awaiting, so the runtime runs them one at a time
// and each write commits before its answer leaves the object. Each method first takes a token
// from the tenant's rate limit bucket and answers { retryAfter } when there is none: a refused
// call writes nothing.
import { DurableObject } from 'cloudflare:workers';
import { TokenBucket } from 'simprint-worker-common/limiter';
import { schemeOf } from 'simprint-worker-common/scheme';
import { Index, collectionK, fromHex, pairK, wasmMemoryBytes } from 'simprint';
import { MAX_DUPLICATES, settings } from './settings.js';

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS documents (
     id TEXT PRIMARY KEY,              -- the client's id
     num INTEGER NOT NULL UNIQUE,      -- the id in the simprint Index (0 .. 2^53 - 1)
     fingerprint TEXT NOT NULL,        -- hex, ceil(width / 4) digits
     text_length INTEGER NOT NULL,     -- UTF-16 code units of the text
     features INTEGER,                 -- its distinct features (pairK); NULL if stored before they were kept
     created_at INTEGER NOT NULL,      -- ms since the epoch
     updated_at INTEGER NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
];

// Objects made before feature counts were kept get the column on load; their rows stay NULL
// (such a document is checked at the asking text's own recommended k) until stored again.
const ADD_FEATURES = 'ALTER TABLE documents ADD COLUMN features INTEGER';

// The feature count of a document stored without one (the array's fill).
const UNCOUNTED = 0xffffffff;

// Segments of the index merge only up to this many fingerprints: a merge briefly needs about
// twice the memory of what it builds, and WebAssembly memory never shrinks, so an object that
// grows to a million documents would keep a merge's peak (over 130 MB) until it restarted.
// With the limit it keeps under 110 MB, for a query 1.4 times as dear (Index.setMergeLimit).
const MERGE_LIMIT = 1 << 18;

export class SimprintIndex extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    // No request reaches the object before the index is rebuilt.
    ctx.blockConcurrencyWhile(async () => this.load());
  }

  async load() {
    const s = settings(this.env);
    this.s = s;
    this.scheme = await schemeOf(s.width, s.key, s.algorithm); // the one await, before anything is read
    const started = Date.now();
    for (const statement of SCHEMA) this.sql.exec(statement);
    const columns = this.sql.exec('PRAGMA table_info(documents)').toArray();
    if (!columns.some((c) => c.name === 'features')) this.sql.exec(ADD_FEATURES);
    // Full at start: the bucket is not stored, so a restarted object forgets what was spent.
    this.bucket = s.rateLimit && new TokenBucket(s.rateLimit);
    const stored = this.sql.exec(`SELECT value FROM meta WHERE key = 'scheme'`).toArray()[0]?.value;
    // Fingerprints of another width or pipeline cannot be compared with this one's.
    this.schemeStored = stored !== undefined;
    this.stale =
      stored !== undefined && stored !== this.scheme
        ? `this object's fingerprints were made with scheme ${stored}, this deployment makes ${this.scheme} ` +
          '(WIDTH, ALGORITHM, SIPHASH_KEY or the simprint version changed): delete its documents and add them again'
        : null;
    const { n, next, uncounted } = this.sql
      .exec(
        'SELECT count(*) AS n, coalesce(max(num), -1) + 1 AS next, count(*) - count(features) AS uncounted FROM documents',
      )
      .one();
    this.documents = n;
    this.nextNum = next;
    this.uncounted = uncounted; // documents without a feature count
    this.counts = new Uint32Array(0);
    this.index = null;
    this.rebuild();
    this.loadedIn = Date.now() - started;
    this.instance = crypto.randomUUID(); // tells a restarted object from a running one
  }

  /**
   * The k the index is planned for: the largest any text may be checked at here, MAX_K or
   * (K = "auto" or "pair") less once the collection is large enough to cap every text (see
   * kFor); with K = "pair" and every document counted, at most the pair k of equal sizes
   * (the largest pairK gives at this width and tolerance).
   */
  plannedK() {
    const { k, maxK, width } = this.s;
    if (typeof k === 'number') return maxK;
    const cap = k === 'pair' && this.uncounted === 0 ? Math.min(maxK, this.pairK(1, 1)) : maxK;
    return Math.min(cap, collectionK(Math.max(this.documents, 1), width) ?? 0);
  }

  /** simprint's pairK for two texts of `a` and `b` distinct features under the settings. */
  pairK(a, b) {
    const { width, tolerance, algorithm } = this.s;
    return pairK(
      a,
      b,
      tolerance === undefined ? { width, algorithm } : { width, tolerance, algorithm },
    );
  }

  /** Records document `num`'s feature count (UNCOUNTED for none) in the array by `num`. */
  setCount(num, features) {
    if (num >= this.counts.length) {
      const grown = new Uint32Array(Math.max(num + 1, 2 * this.counts.length, 1024));
      grown.set(this.counts);
      this.counts = grown;
    }
    this.counts[num] = features;
  }

  /**
   * A new index of every stored fingerprint, planned for plannedK(), built from the table in
   * one bulk insert (one segment: a bulk build needs about 1.2 times the memory it ends with,
   * growing by inserts needs more). The old index, if any, is freed first so its memory is
   * reused.
   */
  rebuild() {
    const { width } = this.s;
    this.index?.free();
    this.index = new Index({ width, k: this.plannedK() });
    this.index.setMergeLimit(MERGE_LIMIT);
    if (this.stale || this.documents === 0) return;
    const nums = new Float64Array(this.documents);
    const fps = width <= 64 ? new BigUint64Array(this.documents) : new Array(this.documents);
    this.counts = new Uint32Array(Math.max(this.nextNum, 1024));
    let n = 0;
    // Rows as arrays (raw), not objects: a million fewer objects to make.
    for (const [num, hex, features] of this.sql
      .exec('SELECT num, fingerprint, features FROM documents')
      .raw()) {
      nums[n] = num;
      this.counts[num] = features ?? UNCOUNTED;
      // Hex as the package's toHex wrote it; the engine's BigInt reads it several times faster
      // than a call into WebAssembly per row (fromHex), a second at a million rows.
      fps[n] = width <= 64 ? BigInt(`0x${hex}`) : fromHex(hex, width);
      n++;
    }
    this.index.insertMany(nums.subarray(0, n), width <= 64 ? fps.subarray(0, n) : fps.slice(0, n));
  }

  checkScheme(scheme) {
    if (scheme !== this.scheme) {
      throw new Error(
        `the worker fingerprints with scheme ${scheme}, this object with ${this.scheme} (version skew)`,
      );
    }
    // Once its old documents are all deleted, a stale object takes the new scheme (see add).
    if (this.stale && this.documents > 0) throw new Error(this.stale);
  }

  /** Takes a token: 0 when there was one, else the whole seconds until there will be. */
  admit() {
    return this.bucket ? this.bucket.take(1) : 0;
  }

  /** The `num` of the stored document `id`, or undefined. */
  numOf(id) {
    return this.sql.exec('SELECT num FROM documents WHERE id = ?', id).toArray()[0]?.num;
  }

  /**
   * The stored documents within `k` of `fp` but the one numbered `except` and those `keep`
   * refuses, at most MAX_DUPLICATES: the nearest, ties by `num` (the order ids were first
   * stored in), and whether there were more. The index keeps only that many however many
   * match (thousands of copies of one text cost a page, not thousands), asked again for more
   * only while `keep` refuses matches; their ids are read back in one statement.
   */
  duplicatesOf(fp, k, except, keep = () => true) {
    // Two past the cap: one in case `except` is among them, one to tell whether there are more.
    let limit = MAX_DUPLICATES + 2;
    let found;
    for (;;) {
      const matches = this.index.query(fp, k, limit);
      found = matches.filter((m) => m.id !== except && keep(m));
      if (found.length > MAX_DUPLICATES || matches.length < limit) break;
      limit *= 4;
    }
    const shown = found.slice(0, MAX_DUPLICATES);
    const ids = new Map();
    if (shown.length > 0) {
      for (const row of this.sql.exec(
        `SELECT num, id FROM documents WHERE num IN (${shown.map((m) => m.id).join(',')})`,
      )) {
        ids.set(row.num, row.id);
      }
    }
    return {
      duplicates: shown.map(({ id, distance }) => ({ id: ids.get(id), distance })),
      shownNums: shown.map((m) => m.id),
      truncated: found.length > MAX_DUPLICATES,
    };
  }

  /**
   * The k a text that asks for `k` is checked at: at most MAX_K (the index's k) and, for a k of
   * its own (K = "auto" or "pair"), at most the k at which the stored documents would give a
   * chance match (simprint's collectionK: a tenth of one expected among them), which falls as
   * the collection grows.
   */
  kFor(k) {
    const k2 = Math.min(k, this.index.k);
    return typeof this.s.k === 'number'
      ? k2
      : Math.min(k2, collectionK(this.documents, this.s.width) ?? 0);
  }

  /**
   * The stored documents within the text's k of `hex` (except `id` itself; see duplicatesOf),
   * and that k; with `store`, then stores (or replaces) `id`'s fingerprint and feature count:
   * written to SQLite before the answer leaves the object. The text's k is `k` as asked (its
   * recommended k, or K) or, with K = "pair", each stored document's own: pairK of the two
   * texts' feature counts (`features` and the document's), or `k` as asked for a document
   * stored without a count; each capped by kFor. Then the answer's `k` is the largest a
   * document was checked at and each duplicate says its own.
   */
  add({ id, hex, k: asked, features, textLength, scheme, store }) {
    const wait = this.admit();
    if (wait) return { retryAfter: wait };
    this.checkScheme(scheme);
    const fp = fromHex(hex, this.s.width);
    const existing = id === null ? undefined : this.numOf(id);
    const pair = this.s.k === 'pair';
    // pairK is largest at equal sizes: no stored document is checked at more than k.
    const k = pair
      ? this.kFor(Math.max(this.pairK(features, features), this.uncounted > 0 ? asked : 0))
      : this.kFor(asked);
    const kOf = new Map(); // a pair k for each count seen, and each match's
    const pairKOf = (num) => {
      const m = this.counts[num] ?? UNCOUNTED;
      if (m === UNCOUNTED) return this.kFor(asked);
      if (!kOf.has(m)) kOf.set(m, this.kFor(this.pairK(features, m)));
      return kOf.get(m);
    };
    const found = pair
      ? this.duplicatesOf(fp, k, existing, (match) => match.distance <= pairKOf(match.id))
      : this.duplicatesOf(fp, k, existing);
    const { truncated } = found;
    const duplicates = pair
      ? found.duplicates.map((d, i) => ({ ...d, k: pairKOf(found.shownNums[i]) }))
      : found.duplicates;
    if (!store) return { duplicates, truncated, k, created: false };
    const now = Date.now();
    const num = existing ?? this.nextNum;
    // SQLite and the index change together or not at all: the index insert is the last step,
    // and if it throws the SQL write rolls back. The row a statement reports back must be the
    // row meant, or nothing is written: never an answer of "stored" for a write that went to
    // another row, or to none.
    this.ctx.storage.transactionSync(() => {
      if (!this.schemeStored || this.stale) {
        this.sql.exec(`INSERT OR REPLACE INTO meta (key, value) VALUES ('scheme', ?)`, this.scheme);
      }
      if (existing === undefined) {
        const row = this.sql
          .exec(
            'INSERT INTO documents (id, num, fingerprint, text_length, features, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id',
            id,
            num,
            hex,
            textLength,
            features,
            now,
            now,
          )
          .toArray();
        if (row.length !== 1 || row[0].id !== id) throw this.disagree(id);
      } else {
        const row = this.sql
          .exec(
            'UPDATE documents SET fingerprint = ?, text_length = ?, features = ?, updated_at = ? WHERE id = ? RETURNING num',
            hex,
            textLength,
            features,
            now,
            id,
          )
          .toArray();
        if (row.length !== 1 || row[0].num !== existing) throw this.disagree(id);
      }
      this.index.insert(num, fp);
    });
    if (existing !== undefined && this.counts[existing] === UNCOUNTED) this.uncounted--;
    this.setCount(num, features);
    this.schemeStored = true;
    this.stale = null;
    if (existing === undefined) {
      this.nextNum = num + 1;
      this.documents++;
    }
    // Past the sizes at which collectionK drops (1,000, 10,000, … documents), or with K =
    // "pair" once no document lacks a count, no text is checked at the index's k any more:
    // replan it for less, which takes less memory.
    if (this.plannedK() < this.index.k) this.rebuild();
    return { duplicates, truncated, k, created: existing === undefined };
  }

  disagree(id) {
    return new Error(
      `document ${JSON.stringify(id)}: the table did not write the row meant; nothing was changed`,
    );
  }

  /** { document }: the stored document `id`, or null. */
  getDocument(id) {
    const wait = this.admit();
    if (wait) return { retryAfter: wait };
    const row = this.sql
      .exec(
        'SELECT id, fingerprint, text_length, features, created_at, updated_at FROM documents WHERE id = ?',
        id,
      )
      .toArray()[0];
    if (!row) return { document: null };
    return {
      document: {
        id: row.id,
        fingerprint: row.fingerprint,
        textLength: row.text_length,
        features: row.features, // null for a document stored before counts were kept
        createdAt: new Date(row.created_at).toISOString(),
        updatedAt: new Date(row.updated_at).toISOString(),
      },
    };
  }

  /** { deleted }: deletes `id`; false when it was not stored. */
  deleteDocument(id) {
    const wait = this.admit();
    if (wait) return { retryAfter: wait };
    let deleted = false;
    this.ctx.storage.transactionSync(() => {
      const gone = this.sql.exec('DELETE FROM documents WHERE id = ? RETURNING num', id).toArray();
      if (gone.length === 0) return;
      if (gone.length !== 1) throw this.disagree(id);
      this.index.remove(gone[0].num);
      deleted = gone[0].num;
    });
    if (deleted === false) return { deleted };
    this.documents--;
    if (this.counts[deleted] === UNCOUNTED) this.uncounted--;
    this.counts[deleted] = 0;
    // With its last uncounted document gone, K = "pair" plans for less (see plannedK).
    if (this.plannedK() < this.index.k) this.rebuild();
    return { deleted: true };
  }

  /** { ids }: up to `limit` stored ids after `after`, ascending (by code point). */
  listIds(after, limit) {
    const wait = this.admit();
    if (wait) return { retryAfter: wait };
    const ids = this.sql
      .exec('SELECT id FROM documents WHERE id > ? ORDER BY id LIMIT ?', after, limit)
      .toArray()
      .map((row) => row.id);
    return { ids };
  }

  /** Sizes from counters, not from the table: a call costs the same at any size. */
  stats() {
    const wait = this.admit();
    if (wait) return { retryAfter: wait };
    return {
      documents: this.documents,
      indexed: this.index.size,
      // The k the index is planned for: the largest any document is checked at (plannedK).
      indexK: this.index.k,
      // Documents stored before feature counts were kept (K = "pair" checks them at the asking
      // text's recommended k until they are stored again).
      uncounted: this.uncounted,
      memoryBytes: this.index.memoryBytes(),
      // All of the package's WebAssembly memory in this isolate (it grows, never shrinks).
      wasmMemoryBytes: wasmMemoryBytes(),
      rebuildMs: this.loadedIn,
      instance: this.instance,
      scheme: this.stale ? 'stale' : this.scheme,
    };
  }
}
