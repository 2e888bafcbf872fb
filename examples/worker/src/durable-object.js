// One tenant's document store (ROUTING = "id"): a Durable Object with SQLite-backed storage. The
// SQLite table is the truth; the simprint Index is a cache of it in memory, rebuilt when the
// object starts. Every method below runs without awaiting, so the runtime runs them one at a
// time and each write commits before its answer leaves the object. Each method first takes a
// token from the tenant's rate limit bucket and answers { retryAfter } when there is none.
import { DurableObject } from 'cloudflare:workers';
import { settings } from './config.js';
import { TokenBucket } from './limiter.js';
import { MAX_DUPLICATES } from './shards.js';
import { Index, fromHex, schemeOf } from './simprint.js';

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS documents (
     id TEXT PRIMARY KEY,              -- the client's id
     num INTEGER NOT NULL UNIQUE,      -- the id in the simprint Index (0 .. 2^53 - 1)
     fingerprint TEXT NOT NULL,        -- hex, ceil(width / 4) digits
     text_length INTEGER NOT NULL,     -- UTF-16 code units of the text
     created_at INTEGER NOT NULL,      -- ms since the epoch
     updated_at INTEGER NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
];

export class SimprintIndex extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    // No request reaches the object before the index is rebuilt.
    ctx.blockConcurrencyWhile(async () => this.load());
  }

  async load() {
    const { width, k, key, rateLimit } = settings(this.env);
    this.scheme = await schemeOf(width, key); // the one await, before anything is read
    const started = Date.now();
    for (const statement of SCHEMA) this.sql.exec(statement);
    this.width = width;
    this.rateLimit = rateLimit;
    // Full at start: the bucket is not stored, so a restarted object forgets what was spent.
    this.bucket = rateLimit && new TokenBucket(rateLimit);
    const stored = this.sql.exec(`SELECT value FROM meta WHERE key = 'scheme'`).toArray()[0]?.value;
    // Fingerprints of another width or pipeline cannot be compared with this one's.
    this.schemeStored = stored !== undefined;
    this.stale = stored !== undefined && stored !== this.scheme
      ? `this object's fingerprints were made with scheme ${stored}, this deployment makes ${this.scheme} ` +
        '(WIDTH, SIPHASH_KEY or the simprint version changed): delete its documents and add them again'
      : null;
    this.index = new Index({ width, k });
    this.numOf = new Map(); // client id -> index id
    this.idOf = new Map(); // index id -> client id
    this.nextNum = 0;
    const rows = this.sql.exec('SELECT id, num, fingerprint FROM documents').toArray();
    const nums = new Float64Array(rows.length);
    const fps = width <= 64 ? new BigUint64Array(rows.length) : new Array(rows.length);
    rows.forEach((row, i) => {
      nums[i] = row.num;
      if (!this.stale) fps[i] = fromHex(row.fingerprint, width);
      this.numOf.set(row.id, row.num);
      this.idOf.set(row.num, row.id);
      if (row.num >= this.nextNum) this.nextNum = row.num + 1;
    });
    if (rows.length > 0 && !this.stale) this.index.insertMany(nums, fps);
    this.loadedIn = Date.now() - started;
    this.instance = crypto.randomUUID(); // tells a restarted object from a running one
  }

  checkScheme(scheme) {
    if (scheme !== this.scheme) {
      throw new Error(`the worker fingerprints with scheme ${scheme}, this object with ${this.scheme} (version skew)`);
    }
    // Once its old documents are all deleted, a stale object takes the new scheme (see add).
    if (this.stale && this.numOf.size > 0) throw new Error(this.stale);
  }

  /** Takes a token: 0 when there was one, else the whole seconds until there will be. */
  admit() {
    return this.bucket ? this.bucket.take(1) : 0;
  }

  /**
   * The stored documents within k of `fp` but `exceptId`, at most MAX_DUPLICATES: the nearest,
   * ties by `num` (the order ids were first stored in), and whether there were more. The index
   * keeps only that many however many match (thousands of copies of one text cost a page, not
   * thousands).
   */
  duplicatesOf(fp, exceptId) {
    const except = this.numOf.get(exceptId);
    // Two past the cap: one in case `exceptId` is among them, one to tell whether there are more.
    const found = this.index.query(fp, undefined, MAX_DUPLICATES + 2).filter((m) => m.id !== except);
    return {
      duplicates: found.slice(0, MAX_DUPLICATES).map(({ id, distance }) => ({ id: this.idOf.get(id), distance })),
      truncated: found.length > MAX_DUPLICATES,
    };
  }

  /**
   * The stored documents within k of `hex` (except `id` itself; see duplicatesOf); with
   * `store`, then stores (or replaces) `id`'s fingerprint: written to SQLite before the answer
   * leaves the object; a refused call (rate limit) writes nothing.
   */
  add({ id, hex, textLength, scheme, store }) {
    const wait = this.admit();
    if (wait) return { retryAfter: wait };
    this.checkScheme(scheme);
    const fp = fromHex(hex, this.width);
    const { duplicates, truncated } = this.duplicatesOf(fp, id);
    if (!store) return { duplicates, truncated, stored: false, created: false };
    const now = Date.now();
    const existing = this.numOf.get(id);
    const num = existing ?? this.nextNum;
    // SQLite and the index change together or not at all: the index insert is the last step,
    // and if it throws the SQL write rolls back. The rows the statements report back must be
    // the row the maps name, or nothing is written: never an answer of "stored" for a write
    // that went to another row, or to none.
    this.ctx.storage.transactionSync(() => {
      if (!this.schemeStored || this.stale) {
        this.sql.exec(`INSERT OR REPLACE INTO meta (key, value) VALUES ('scheme', ?)`, this.scheme);
      }
      if (existing === undefined) {
        const row = this.sql.exec(
          'INSERT INTO documents (id, num, fingerprint, text_length, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
          id, num, hex, textLength, now, now).toArray();
        if (row.length !== 1 || row[0].id !== id) throw this.disagree(id);
      } else {
        const row = this.sql.exec(
          'UPDATE documents SET fingerprint = ?, text_length = ?, updated_at = ? WHERE id = ? RETURNING num',
          hex, textLength, now, id).toArray();
        if (row.length !== 1 || row[0].num !== existing) throw this.disagree(id);
      }
      this.index.insert(num, fp);
    });
    this.schemeStored = true;
    this.stale = null;
    if (existing === undefined) {
      this.numOf.set(id, num);
      this.idOf.set(num, id);
      this.nextNum = num + 1;
    }
    return { duplicates, truncated, stored: true, created: existing === undefined };
  }

  disagree(id) {
    return new Error(`document ${JSON.stringify(id)}: the table and the in-memory maps disagree; nothing was changed`);
  }

  /** { document }: the stored document `id`, or null. */
  getDocument(id) {
    const wait = this.admit();
    if (wait) return { retryAfter: wait };
    const row = this.sql
      .exec('SELECT id, fingerprint, text_length, created_at, updated_at FROM documents WHERE id = ?', id)
      .toArray()[0];
    if (!row) return { document: null };
    return {
      document: {
        id: row.id,
        fingerprint: row.fingerprint,
        textLength: row.text_length,
        createdAt: new Date(row.created_at).toISOString(),
        updatedAt: new Date(row.updated_at).toISOString(),
      },
    };
  }

  /** { deleted }: deletes `id`; false when it was not stored. */
  deleteDocument(id) {
    const wait = this.admit();
    if (wait) return { retryAfter: wait };
    const num = this.numOf.get(id);
    let deleted = false;
    this.ctx.storage.transactionSync(() => {
      // The table decides, the maps must agree: deleted means a row went, and it was this one.
      const gone = this.sql.exec('DELETE FROM documents WHERE id = ? RETURNING num', id).toArray();
      if (gone.length === 0 && num === undefined) return;
      if (gone.length !== 1 || gone[0].num !== num) throw this.disagree(id);
      this.index.remove(num);
      deleted = true;
    });
    if (deleted) {
      this.numOf.delete(id);
      this.idOf.delete(num);
    }
    return { deleted };
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

  stats() {
    const wait = this.admit();
    if (wait) return { retryAfter: wait };
    // Counted from memory, not from the table: a call costs the same at any size.
    return {
      documents: this.numOf.size,
      indexed: this.index.size,
      memoryBytes: this.index.memoryBytes(),
      rebuildMs: this.loadedIn,
      instance: this.instance,
      scheme: this.stale ? 'stale' : this.scheme,
    };
  }
}
