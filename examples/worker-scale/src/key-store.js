// One object of a tenant's store (see routing.js). It plays two roles for two different sets
// of documents:
//
// - Key owner: it holds every document that has a table key it owns (`docs`), each once with
//   a mask of those tables, and answers checks with every document it holds within the
//   query's k. Each
//   document it takes gets the next number of its sequence (`seq`), so it can tell which of two
//   documents it took first (keys-routes.js, "Bursts"). While
//   it holds at most MEMORY_DOCUMENTS, a simprint Index in memory answers; past that, checks
//   read its SQLite table `probe`, where each document is filed under its keys in the tables
//   of a finer plan (simprint's keys scheme, STORE_SUBSTRINGS substrings), one indexed lookup
//   per probe key. SQLite is the truth in both cases; the Index is a cache rebuilt at start.
//   Each document's feature count is held beside it (`features`), for K = "pair": each match
//   is checked at pairK of the query's count and its own.
// - Home: it keeps the record of the documents whose id hashes to it (`homes`), with the
//   state of their last write: pending (entries being sent), stored (all sent: acknowledged)
//   or deleting. An alarm finishes any write left pending or deleting (healing).
//
// Every method below except alarm() runs without awaiting: the runtime runs them one at a
// time, and each write commits before its answer leaves the object. Rate limits are not
// taken here but once per request by the tenant's limiter (limiter.js).
import { DurableObject } from 'cloudflare:workers';
import { schemeOf } from 'simprint-worker-common/scheme';
import { Index, collectionK, fromHex, hamming } from 'simprint';
import { keyHex, routingPlan, storePlan } from './plans.js';
import { MAX_DUPLICATES, pairKOf, settings } from './settings.js';
import { deliver, keysStub } from './write.js';

// Probe keys (or nums) inlined into one SELECT at most (about 16 KB of SQL).
const PROBE_KEYS_PER_STATEMENT = 1000;

// The feature count of a document held without one (stored before counts were kept).
const UNCOUNTED = 0xffffffff;

const SCHEMA = [
  // Key owner: the documents held, each once; `tables`: bit t set when this object owns the
  // document's key in routing table t (a document leaves when the last bit goes).
  `CREATE TABLE IF NOT EXISTS docs (
     num INTEGER PRIMARY KEY,          -- a small number standing for the id in probe rows
     id TEXT NOT NULL UNIQUE,
     fingerprint TEXT NOT NULL,        -- hex
     tables INTEGER NOT NULL,
     seq INTEGER NOT NULL DEFAULT 0,   -- the order this object took this version in
     features INTEGER                  -- its distinct features (pairK); NULL if stored before they were kept
   )`,
  // Key owner: each held document under its key in each table of the store plan.
  `CREATE TABLE IF NOT EXISTS probe (
     tbl INTEGER NOT NULL,
     key INTEGER NOT NULL,
     num INTEGER NOT NULL,
     fingerprint TEXT NOT NULL,        -- repeated here so a lookup needs no second read
     PRIMARY KEY (tbl, key, num)
   ) WITHOUT ROWID`,
  // Home: the documents whose id hashes here, and the state of their last write.
  `CREATE TABLE IF NOT EXISTS homes (
     id TEXT PRIMARY KEY,
     fingerprint TEXT NOT NULL,        -- the version being written or stored
     text_length INTEGER NOT NULL,
     features INTEGER,                 -- its distinct features, re-sent with its entries; NULL as for docs
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     state TEXT NOT NULL,              -- 'pending' | 'stored' | 'deleting'
     stale TEXT NOT NULL,              -- JSON array of hex: versions whose entries must go
     begun_at INTEGER NOT NULL         -- when the pending write or delete began (ms)
   )`,
  `CREATE INDEX IF NOT EXISTS homes_unsettled ON homes (state) WHERE state <> 'stored'`,
  `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
];

export class SimprintKeys extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => this.load());
  }

  async load() {
    const s = settings(this.env);
    this.s = s;
    this.scheme = await schemeOf(s.width, s.key, s.algorithm); // the one await, before anything is read
    const started = Date.now();
    for (const statement of SCHEMA) this.sql.exec(statement);
    // Objects made before `seq` existed: their documents count as taken before any new one.
    const columns = this.columnsOf('docs');
    if (!columns.includes('seq'))
      this.sql.exec('ALTER TABLE docs ADD COLUMN seq INTEGER NOT NULL DEFAULT 0');
    // Objects made before feature counts were kept: their rows stay NULL (with K = "pair" such
    // a document is checked at the asking text's recommended k) until the document is stored
    // again, and a home re-sends what it has.
    if (!columns.includes('features'))
      this.sql.exec('ALTER TABLE docs ADD COLUMN features INTEGER');
    if (!this.columnsOf('homes').includes('features'))
      this.sql.exec('ALTER TABLE homes ADD COLUMN features INTEGER');
    this.seq = this.sql.exec('SELECT coalesce(max(seq), 0) AS n FROM docs').one().n;
    this.routing = routingPlan(s.width, s.maxK);
    this.keysCache = new Map();
    this.store = storePlan(s.width, s.maxK, s.storeSubstrings);
    const stored = this.meta('scheme');
    this.stale =
      stored !== undefined && stored !== this.scheme
        ? `this object's fingerprints were made with scheme ${stored}, this deployment makes ${this.scheme} ` +
          '(WIDTH, ALGORITHM, SIPHASH_KEY or the simprint version changed): its documents must be deleted and added again'
        : null;
    // Counts kept up to date by every write, so /stats costs the same at any size.
    const { n, uncounted } = this.sql
      .exec('SELECT count(*) AS n, count(*) - count(features) AS uncounted FROM docs')
      .one();
    this.held = n;
    this.uncounted = uncounted; // held documents without a feature count
    this.homes = this.sql.exec('SELECT count(*) AS n FROM homes').one().n;
    this.memory = null;
    if (this.held <= s.memoryDocuments) this.fillMemory();
    this.candidates = 0;
    this.loadedIn = Date.now() - started;
    this.instance = crypto.randomUUID();
  }

  columnsOf(table) {
    return this.sql
      .exec(`PRAGMA table_info(${table})`)
      .toArray()
      .map((c) => c.name);
  }

  meta(key) {
    return this.sql.exec('SELECT value FROM meta WHERE key = ?', key).toArray()[0]?.value;
  }

  setMeta(key, value) {
    if (this.meta(key) !== value)
      this.sql.exec('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', key, value);
  }

  /**
   * The in-memory Index of every held document (num -> fingerprint); ids stay in SQLite. A scan
   * (`scan: true`): about 18 bytes a document at 64 bits at any size, where the planner's tables
   * take about 84 past a few tens of thousands, and the objects of an isolate share its memory;
   * a scan of MEMORY_DOCUMENTS takes a fraction of a millisecond, under the cost of the call.
   * Beside it each document's feature count by num (4 bytes more; UNCOUNTED for none), so
   * K = "pair" filters matches without reading SQLite.
   */
  fillMemory() {
    const { width, maxK } = this.s;
    const rows = this.sql.exec('SELECT num, fingerprint, features FROM docs').toArray();
    const index = new Index({ width, k: maxK, scan: true });
    const nums = new Float64Array(rows.length);
    const fps = width <= 64 ? new BigUint64Array(rows.length) : new Array(rows.length);
    const counts = new Uint32Array(rows.reduce((most, row) => Math.max(most, row.num + 1), 0));
    rows.forEach((row, i) => {
      nums[i] = row.num;
      fps[i] = fromHex(row.fingerprint, width);
      counts[row.num] = row.features ?? UNCOUNTED;
    });
    if (rows.length > 0 && !this.stale) index.insertMany(nums, fps);
    this.memory = { index, counts };
  }

  /** Records held document `num`'s feature count (null: none) beside the Index in memory. */
  setCount(num, features) {
    const memory = this.memory;
    if (num >= memory.counts.length) {
      // Grown by half: doubling would cost up to 4 bytes more a document.
      const grown = new Uint32Array(Math.max(num + 1, Math.ceil(memory.counts.length * 1.5), 1024));
      grown.set(memory.counts);
      memory.counts = grown;
    }
    memory.counts[num] = features ?? UNCOUNTED;
  }

  /** Past MEMORY_DOCUMENTS the Index goes and checks read SQLite (see the file's comment). */
  dropMemoryIfFull() {
    if (this.memory && this.held > this.s.memoryDocuments) {
      this.memory.index.free();
      this.memory = null;
    }
  }

  checkScheme(scheme) {
    if (scheme !== this.scheme) {
      throw new Error(
        `the worker fingerprints with scheme ${scheme}, this object with ${this.scheme} (version skew)`,
      );
    }
    if (this.stale) throw new Error(this.stale);
  }

  // ---- key owner ----

  /**
   * Dry runs (POST /check, ?dryRun): for each query (`{ hex, k, exceptId, mask }`), every held
   * document within `k` of `hex` but `exceptId` (see near); all of them count as earlier, as
   * the query is stored nowhere. Returns `{ results: [{ duplicates, truncated }] }` in query
   * order.
   */
  check({ queries, scheme }) {
    this.checkScheme(scheme);
    return {
      results: queries.map(({ hex, k, features, exceptId, mask }) =>
        this.near(hex, k, exceptId, mask, Infinity, features),
      ),
    };
  }

  /**
   * The held documents within the query's k of `hex` but `exceptId`: at most MAX_DUPLICATES,
   * nearest first (ties by num), and whether there were more. Each as `{ id, distance, k?,
   * decided, earlier }`: `decided` when this object is the one that orders the pair (it owns
   * the key of the lowest routing table in which the two agree; `mask`: the query's tables
   * here), and then `earlier` when this object took that document before the query's version
   * (`seqOfQuery`). The query's k is `asked` (its recommended k, or K) capped by kFor; with
   * K = "pair" each document's own instead: pairK of `features` (the query's count) and the
   * document's, or `asked` for one held without a count, each capped by kFor and given as the
   * duplicate's `k`; then the answer's `k` is the largest any document may be checked at.
   */
  near(hex, asked, exceptId, mask, seqOfQuery, features) {
    const pair = this.s.k === 'pair';
    const own = this.kFor(asked);
    // A query without a count (from a Worker of the previous version) is checked at its own k.
    const counted = pair && features != null;
    // pairK is largest at equal sizes: no held document is checked past k.
    const k = counted
      ? this.kFor(Math.max(this.pairK(features, features), this.uncounted > 0 ? asked : 0))
      : own;
    const except =
      exceptId == null
        ? undefined
        : this.sql.exec('SELECT num FROM docs WHERE id = ?', exceptId).toArray()[0]?.num;
    const fp = fromHex(hex, this.s.width);
    // The SQLite path finds every match within k at once (nearest first); memory, a page.
    const all = this.memory ? null : this.lookUp(fp, hex, k);
    const matches = (limit) =>
      all
        ? all.slice(0, limit)
        : this.memory.index.query(fp, k, limit).map(({ id, distance }) => ({ num: id, distance }));
    const counts = this.memory ? null : new Map(); // num -> count, read from SQLite per page
    const countOf = (num) => (counts ? counts.get(num) : (this.memory.counts[num] ?? UNCOUNTED));
    const kOfCount = new Map(); // the pair k of each count seen
    const kOf = (num) => {
      const m = counted ? countOf(num) : UNCOUNTED;
      if (m === UNCOUNTED) return own;
      if (!kOfCount.has(m)) kOfCount.set(m, this.kFor(this.pairK(features, m)));
      return kOfCount.get(m);
    };
    // One past the cap for `except`, one to tell whether there are more; with K = "pair",
    // asked again for more while matches refused for their size fill the page, so that they
    // never hide an accepted one behind them.
    let limit = MAX_DUPLICATES + 2;
    let found;
    for (;;) {
      const page = matches(limit);
      if (counted && counts) this.readCounts(page, counts);
      found = page.filter((f) => f.num !== except && (!counted || f.distance <= kOf(f.num)));
      if (!counted || found.length > MAX_DUPLICATES || page.length < limit) break;
      limit *= 4;
    }
    const shown = found.slice(0, MAX_DUPLICATES);
    const rows = this.rowsOf(shown.map((f) => f.num));
    const queryKeys = this.routingKeys(hex);
    return {
      k,
      duplicates: shown.map(({ num, distance }) => {
        const row = rows.get(num);
        const table = this.routingKeys(row.fingerprint).findIndex((key, t) => key === queryKeys[t]);
        const decided = table >= 0 && ((mask >>> table) & 1) === 1;
        return {
          id: row.id,
          distance,
          ...(pair ? { k: kOf(num) } : {}),
          decided,
          earlier: decided && row.seq < seqOfQuery,
        };
      }),
      truncated: found.length > MAX_DUPLICATES,
    };
  }

  /**
   * The k a text that asks for `k` is checked at here: at most MAX_K (what documents are routed
   * and filed for) and, for a k of its own (K = "auto" or "pair"), at most the k at which the
   * documents this object holds would give a chance match (simprint's collectionK), which falls
   * as they grow.
   */
  kFor(k) {
    const k2 = Math.min(k, this.s.maxK);
    return typeof this.s.k === 'number'
      ? k2
      : Math.min(k2, collectionK(this.held, this.s.width) ?? 0);
  }

  /** simprint's pairK for two texts of `a` and `b` distinct features under the settings. */
  pairK(a, b) {
    return pairKOf(this.s, a, b);
  }

  /** Reads into `counts` (Map num -> count, UNCOUNTED for none) those of `matches` it lacks. */
  readCounts(matches, counts) {
    const nums = matches.map((m) => m.num).filter((num) => !counts.has(num));
    for (let from = 0; from < nums.length; from += PROBE_KEYS_PER_STATEMENT) {
      const list = nums.slice(from, from + PROBE_KEYS_PER_STATEMENT).join(',');
      for (const row of this.sql.exec(`SELECT num, features FROM docs WHERE num IN (${list})`))
        counts.set(row.num, row.features ?? UNCOUNTED);
    }
  }

  /**
   * The SQLite path: for each table of the store plan, one statement reading the rows under
   * the query's probe keys (integers made here, inlined: no bound-parameter limit to hit),
   * each row's distance checked against `k`. Returns every match (`fp` is `hex` read), the
   * nearest first, ties by num.
   */
  lookUp(fp, hex, k) {
    const { width } = this.s;
    const near = new Map();
    const byTable = this.store.probeKeysByTable(hex);
    let candidates = 0;
    byTable.forEach((keys, t) => {
      // A statement of at most PROBE_KEYS_PER_STATEMENT keys: SQLite limits a statement's length.
      for (let from = 0; from < keys.length; from += PROBE_KEYS_PER_STATEMENT) {
        const list = keys
          .slice(from, from + PROBE_KEYS_PER_STATEMENT)
          .map((key) => Number(key))
          .join(',');
        for (const row of this.sql.exec(
          `SELECT num, fingerprint FROM probe WHERE tbl = ${t} AND key IN (${list})`,
        )) {
          candidates++;
          if (near.has(row.num)) continue;
          const d = hamming(fromHex(row.fingerprint, width), fp);
          if (d <= k) near.set(row.num, d);
        }
      }
    });
    this.candidates += candidates;
    return [...near]
      .map(([num, distance]) => ({ num, distance }))
      .sort((a, b) => a.distance - b.distance || a.num - b.num);
  }

  /**
   * The routing keys of `hex`, remembered for the last few thousand fingerprints: a check
   * orders every match it reports, and in a cluster of near-copies the same ones come back.
   */
  routingKeys(hex) {
    let keys = this.keysCache.get(hex);
    if (!keys) {
      if (this.keysCache.size >= 4096) this.keysCache.clear();
      this.keysCache.set(hex, (keys = this.routing.keys(hex)));
    }
    return keys;
  }

  /** Map(num -> { id, fingerprint, seq }) of `nums` (at most MAX_DUPLICATES: one statement). */
  rowsOf(nums) {
    const out = new Map();
    if (nums.length === 0) return out;
    for (const row of this.sql.exec(
      `SELECT num, id, fingerprint, seq FROM docs WHERE num IN (${nums.join(',')})`,
    ))
      out.set(row.num, row);
    return out;
  }

  /** Files document `num` under its store-plan keys. */
  file(num, hex) {
    const keys = this.store.keys(hex);
    const values = keys.map((key, t) => `(${t}, ${Number(key)}, ${num}, ?)`).join(', ');
    if (keys.length > 0)
      this.sql.exec(
        `INSERT OR REPLACE INTO probe (tbl, key, num, fingerprint) VALUES ${values}`,
        ...keys.map(() => hex),
      );
  }

  unfile(num, hex) {
    this.store.keys(hex).forEach((key, t) => {
      this.sql.exec('DELETE FROM probe WHERE tbl = ? AND key = ? AND num = ?', t, Number(key), num);
    });
  }

  /**
   * Holds `items` (`[{ id, hex, mask, features? }]`): each id under fingerprint `hex` for the
   * routing tables in `mask`, with its feature count (null or absent: none, as a record from
   * before counts were kept). Idempotent: the same item again changes nothing (its `seq`
   * stays) but give a count to a document held without one; an item of another fingerprint
   * than the one held replaces it (a newer version, a new `seq`). All or nothing. With `check`,
   * the items are checked once all are taken, in the same call (insert, then check):
   * `{ results: [{ k, duplicates, truncated }] }` in item order (see near). So of two documents
   * whose writes both reach this object, the later one's check sees the earlier one, and `seq`
   * says which came first.
   */
  putEntries({ items, scheme, check = false }) {
    this.checkScheme(scheme);
    const seqs = [];
    const changed = []; // [num, hex, features] of new or replaced versions, for memory after the commit
    const counted = []; // [num, features] of held versions given a count
    let added = 0;
    let uncounted = 0; // the change in held documents without a count
    this.ctx.storage.transactionSync(() => {
      this.setMeta('scheme', this.scheme);
      let next = this.seq;
      for (const { id, hex, mask, features = null } of items) {
        const row = this.sql
          .exec('SELECT num, fingerprint, tables, seq, features FROM docs WHERE id = ?', id)
          .toArray()[0];
        if (!row) {
          const { num } = this.sql
            .exec(
              'INSERT INTO docs (id, fingerprint, tables, seq, features) VALUES (?, ?, ?, ?, ?) RETURNING num',
              id,
              hex,
              mask,
              ++next,
              features,
            )
            .one();
          this.file(num, hex);
          seqs.push(next);
          changed.push([num, hex, features]);
          added++;
          if (features === null) uncounted++;
        } else if (row.fingerprint === hex) {
          if ((row.tables | mask) !== row.tables)
            this.sql.exec('UPDATE docs SET tables = ? WHERE num = ?', row.tables | mask, row.num);
          // The same version stored again: a count it lacked (or a different one) is taken; a
          // re-sent record without one leaves the held count.
          if (features !== null && row.features !== features) {
            this.sql.exec('UPDATE docs SET features = ? WHERE num = ?', features, row.num);
            counted.push([row.num, features]);
            if (row.features === null) uncounted--;
          }
          seqs.push(row.seq);
        } else {
          this.unfile(row.num, row.fingerprint);
          this.sql.exec(
            'UPDATE docs SET fingerprint = ?, tables = ?, seq = ?, features = ? WHERE num = ?',
            hex,
            mask,
            ++next,
            features,
            row.num,
          );
          this.file(row.num, hex);
          seqs.push(next);
          changed.push([row.num, hex, features]);
          uncounted += (features === null) - (row.features === null);
        }
      }
      this.seq = next;
    });
    // Committed: memory follows the table.
    this.held += added;
    this.uncounted += uncounted;
    if (this.memory) {
      for (const [num, hex, features] of changed) {
        this.memory.index.insert(num, fromHex(hex, this.s.width));
        this.setCount(num, features);
      }
      for (const [num, features] of counted) this.setCount(num, features);
    }
    this.dropMemoryIfFull();
    if (!check) return { ok: true };
    return {
      results: items.map(({ id, hex, k, mask, features }, i) =>
        this.near(hex, k, id, mask, seqs[i], features),
      ),
    };
  }

  /**
   * Drops the routing tables in `mask` of each item (`[{ id, hex, mask }]`) if the id is held
   * under that fingerprint (a newer version is left alone); an id with no table left goes.
   */
  removeEntries({ items, scheme }) {
    this.checkScheme(scheme);
    let removed = 0;
    let uncounted = 0;
    const gone = [];
    this.ctx.storage.transactionSync(() => {
      for (const { id, hex, mask } of items) {
        const row = this.sql
          .exec('SELECT num, fingerprint, tables, features FROM docs WHERE id = ?', id)
          .toArray()[0];
        if (!row || row.fingerprint !== hex) continue;
        const left = row.tables & ~mask;
        if (left !== 0) {
          this.sql.exec('UPDATE docs SET tables = ? WHERE num = ?', left, row.num);
          continue;
        }
        this.unfile(row.num, hex);
        this.sql.exec('DELETE FROM docs WHERE num = ?', row.num);
        removed++;
        if (row.features === null) uncounted++;
        gone.push(row.num);
      }
    });
    // Committed: the counters and memory follow the table.
    this.held -= removed;
    this.uncounted -= uncounted;
    for (const num of gone) this.memory?.index.remove(num);
    return { ok: true };
  }

  // ---- home ----

  /**
   * Begins writes of `items` (`[{ id, hex, textLength, features }]`), each recorded as pending
   * (with its feature count, which healing re-sends) before any
   * entry is sent. Per item: `{ done }` when that version is already stored (a retry: nothing
   * to send); `{ conflict }` when another version's write is in flight (younger than
   * HEAL_AFTER_MS); else `{ stale }`, the versions whose entries the writer removes first.
   * `where` ({ tenant, objects }) is kept for the alarm, which writes on its own.
   */
  begin({ items, scheme, where }) {
    this.checkScheme(scheme);
    const now = Date.now();
    const out = [];
    let added = 0;
    this.ctx.storage.transactionSync(() => {
      this.setMeta('scheme', this.scheme);
      this.setMeta('where', JSON.stringify(where));
      for (const { id, hex, textLength, features = null } of items) {
        const row = this.sql
          .exec('SELECT fingerprint, state, stale, begun_at FROM homes WHERE id = ?', id)
          .toArray()[0];
        if (!row) {
          this.sql.exec(
            `INSERT INTO homes (id, fingerprint, text_length, features, created_at, updated_at, state, stale, begun_at)
                         VALUES (?, ?, ?, ?, ?, ?, 'pending', '[]', ?)`,
            id,
            hex,
            textLength,
            features,
            now,
            now,
            now,
          );
          out.push({ id, stale: [], created: true });
          added++;
          continue;
        }
        if (row.state === 'stored' && row.fingerprint === hex) {
          // Stored again: a record from before counts were kept gets the text's.
          this.sql.exec(
            'UPDATE homes SET text_length = ?, features = coalesce(?, features), updated_at = ? WHERE id = ?',
            textLength,
            features,
            now,
            id,
          );
          out.push({ id, done: true });
          continue;
        }
        // Another version being written, or a delete under way, owns the entries for now: its
        // removals and these puts must not interleave. (The same version being written is a
        // retry: its puts and removals are the same ones, so it may go on beside it.)
        const busy =
          row.state === 'deleting' || (row.state === 'pending' && row.fingerprint !== hex);
        if (busy && now - row.begun_at < this.s.healAfterMs) {
          out.push({ id, conflict: true });
          continue;
        }
        // A retry of the pending version keeps its stale list; another version adds the one
        // it replaces (stored, or pending and presumed dead past HEAL_AFTER_MS) to it.
        const stale = new Set(JSON.parse(row.stale));
        if (row.fingerprint !== hex) stale.add(row.fingerprint);
        stale.delete(hex);
        const list = [...stale];
        this.sql.exec(
          `UPDATE homes SET fingerprint = ?, text_length = ?, features = ?, updated_at = ?, state = 'pending', stale = ?, begun_at = ?
                       WHERE id = ?`,
          hex,
          textLength,
          features,
          now,
          JSON.stringify(list),
          now,
          id,
        );
        out.push({ id, stale: list, created: false });
      }
    });
    this.homes += added;
    this.scheduleHeal();
    return { results: out };
  }

  /** Marks each `{ id, hex }` stored if that version is still the pending one: `{ stored }` each. */
  commit({ items }) {
    const out = [];
    this.ctx.storage.transactionSync(() => {
      for (const { id, hex } of items) {
        const row = this.sql
          .exec(
            `UPDATE homes SET state = 'stored', stale = '[]' WHERE id = ? AND fingerprint = ? AND state = 'pending'
                                   RETURNING id`,
            id,
            hex,
          )
          .toArray();
        const already =
          row.length === 0 &&
          this.sql
            .exec(
              `SELECT 1 FROM homes WHERE id = ? AND fingerprint = ? AND state = 'stored'`,
              id,
              hex,
            )
            .toArray().length === 1;
        out.push({ id, stored: row.length === 1 || already });
      }
    });
    return { results: out };
  }

  /** Begins deleting `id`: `{ found: false }`, `{ conflict }`, or `{ found, hex, stale }` to remove. */
  beginDelete({ id, scheme, where }) {
    this.checkScheme(scheme);
    const row = this.sql
      .exec('SELECT fingerprint, state, stale, begun_at FROM homes WHERE id = ?', id)
      .toArray()[0];
    if (!row) return { found: false };
    const now = Date.now();
    if (row.state === 'pending' && now - row.begun_at < this.s.healAfterMs)
      return { conflict: true };
    this.ctx.storage.transactionSync(() => {
      this.setMeta('where', JSON.stringify(where));
      this.sql.exec(`UPDATE homes SET state = 'deleting', begun_at = ? WHERE id = ?`, now, id);
    });
    this.scheduleHeal();
    return { found: true, hex: row.fingerprint, stale: JSON.parse(row.stale) };
  }

  /**
   * Ends a delete whose removals all went through: `{ deleted }`, true when the record went now
   * or is already gone (the alarm finished it), false when a write has taken the id over.
   */
  finishDelete({ id, hex }) {
    const gone = this.sql
      .exec(
        `DELETE FROM homes WHERE id = ? AND fingerprint = ? AND state = 'deleting' RETURNING id`,
        id,
        hex,
      )
      .toArray();
    if (gone.length === 1) {
      this.homes--;
      return { deleted: true };
    }
    return {
      deleted: this.sql.exec('SELECT 1 FROM homes WHERE id = ?', id).toArray().length === 0,
    };
  }

  /** An alarm HEAL_AFTER_MS from now, unless one is due sooner. */
  scheduleHeal() {
    const at = Date.now() + this.s.healAfterMs;
    this.ctx.storage
      .getAlarm()
      .then((due) => {
        if (due === null || due > at) return this.ctx.storage.setAlarm(at);
        return undefined;
      })
      .catch((err) =>
        console.error('simprint keys: could not set the healing alarm:', err?.message ?? err),
      );
  }

  /**
   * Finishes every write and delete left unsettled for HEAL_AFTER_MS (its writer failed or
   * went away): re-sends the entries of a pending version (removing its stale ones first) and
   * marks it stored, or removes a deleted document's entries and its record. What fails is
   * tried again at the next alarm.
   */
  async alarm() {
    const where = this.meta('where');
    if (!where) return;
    const { tenant, objects } = JSON.parse(where);
    const cutoff = Date.now() - this.s.healAfterMs;
    const rows = this.sql
      .exec(
        `SELECT id, fingerprint, features, state, stale, begun_at FROM homes WHERE state <> 'stored'`,
      )
      .toArray();
    const due = rows.filter((r) => r.begun_at <= cutoff);
    const waiting = rows.length > due.length;
    const common = {
      stub: (i) => keysStub(this.env, tenant, i, objects),
      keysOf: (hex) => this.routing.keys(hex).map(keyHex),
      n: objects,
      scheme: this.scheme,
    };
    let failed = false;
    for (const r of due) {
      const doc = {
        id: r.id,
        hex: r.fingerprint,
        features: r.features, // null for a record from before counts were kept
        stale: JSON.parse(r.stale),
      };
      try {
        await deliver({ ...common, docs: [doc], deleting: r.state === 'deleting' });
        if (r.state === 'deleting') this.finishDelete({ id: r.id, hex: r.fingerprint });
        else this.commit({ items: [{ id: r.id, hex: r.fingerprint }] });
        this.healed = (this.healed ?? 0) + 1;
      } catch (err) {
        console.error(
          `simprint keys: healing ${JSON.stringify(r.id)} failed, will retry:`,
          err?.message ?? err,
        );
        failed = true;
      }
    }
    if (failed || waiting) await this.ctx.storage.setAlarm(Date.now() + this.s.healAfterMs);
  }

  // ---- reads ----

  /** { document }: `id`'s record (state 'stored' or, while a write is unsettled, 'pending'), or null. */
  getDocument(id) {
    const row = this.sql
      .exec(
        `SELECT id, fingerprint, text_length, features, created_at, updated_at, state FROM homes WHERE id = ? AND state <> 'deleting'`,
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
        state: row.state,
      },
    };
  }

  /** { ids }: up to `limit` ids of this home after `after`, ascending, stored or pending. */
  listIds(after, limit) {
    const ids = this.sql
      .exec(
        `SELECT id FROM homes WHERE id > ? AND state <> 'deleting' ORDER BY id LIMIT ?`,
        after,
        limit,
      )
      .toArray()
      .map((row) => row.id);
    return { ids };
  }

  /** Sizes from counters and the small index of unsettled writes: no call scans the tables. */
  stats() {
    const unsettled = this.sql
      .exec(`SELECT count(*) AS n FROM homes WHERE state <> 'stored'`)
      .one().n;
    return {
      documents: this.homes - unsettled,
      unsettled,
      held: this.held,
      uncounted: this.uncounted,
      // Every held document is filed once in each table of the store plan.
      probeRows: this.held * this.store.tableCount,
      inMemory: this.memory !== null,
      memoryBytes: this.memory
        ? this.memory.index.memoryBytes() + this.memory.counts.byteLength
        : 0,
      sqlBytes: this.sql.databaseSize,
      candidates: this.candidates,
      healed: this.healed ?? 0,
      rebuildMs: this.loadedIn,
      instance: this.instance,
    };
  }
}
