// All pairs of fingerprints within k, found by SQL in DuckDB from simprint's keys scheme:
// the same tables an Index keeps, as rows of (table, key, id, fingerprint), joined on the key.
//
//   node pairs.mjs [--n 1000000] [--k 3] [--blocks B [--keyBlocks C] | --substrings M] [--check]
//
// Each table's key of a fingerprint is its blocks' bits concatenated, the first block highest
// (Plan.keys). Two fingerprints within k have, in some table, keys within that table's radius
// (the plan's pigeonhole argument), so joining every key with every key within the radius of
// it, then keeping the pairs whose whole fingerprints are within k, finds every pair exactly.
// The keys are computed in SQL from the plan's blocks (shift and mask), and the keys within
// the radius as the key XOR each flip mask; the masks are Plan.probeKeysByTable(0): the keys
// within the radius of 0. The join itself is pairs.sql, which Spark runs unchanged
// (examples/spark). --check compares the answer with Index.pairs().
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { Index, Plan, pairK, pairKLimit } from 'simprint';

/**
 * The named queries of a SQL file (`-- name: NAME` lines open each), in order: [[name, sql]].
 * pairs.sql is shared with the Spark example, which reads it the same way.
 */
export function namedQueries(text) {
  return text
    .split(/^-- name: /m)
    .slice(1)
    .map((part) => {
      const [name, ...body] = part.split('\n');
      return [
        name.trim(),
        body
          .filter((l) => !l.startsWith('--'))
          .join('\n')
          .trim(),
      ];
    });
}
export const PAIRS_SQL = namedQueries(
  readFileSync(new URL('./pairs.sql', import.meta.url), 'utf8'),
);

/**
 * Every pair `{ a, b, distance }` (ids `a < b`, distance <= k) among `fps` (BigInts of
 * `width` bits; the id of fps[i] is i), sorted by distance, then a, then b, as Index.pairs()
 * sorts them; with the time each step took. `plan` gives the Plan options (default: permuted
 * tables of k + 1 blocks, radius 0). With `counts` (each text's featureCount, by id), only the
 * pairs also within the pair rule's k of their two counts (pairK, at `tolerance`: `{
 * tolerance, far }`, the defaults if left out).
 */
export async function sqlPairs(
  fps,
  { width = 64, k = 3, plan: planOptions, counts, tolerance } = {},
) {
  if (width > 64) throw new Error('this example stores fingerprints as UBIGINT: width up to 64');
  if (counts && !fps.every((_, id) => Number.isInteger(counts[id]) && counts[id] >= 0))
    throw new Error('counts must give every fingerprint its feature count, a whole number');
  const plan = new Plan({ width, k, ...(planOptions ?? { blocks: k + 1 }) });
  const times = {};
  let t0 = performance.now();
  const lap = (name) => {
    const now = performance.now();
    times[name] = now - t0;
    t0 = now;
  };
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  try {
    const described = plan.describe();
    if (described.tables.length === 0) throw new Error('a scan plan has no keys to join on');
    await db.run('CREATE TABLE fps (id UINTEGER NOT NULL, fp UBIGINT NOT NULL, n UINTEGER)');
    // One row per block of each table's key: key |= ((fp >> shift) & mask) << pos.
    await db.run('CREATE TABLE parts (tbl UTINYINT, shift UTINYINT, mask UBIGINT, pos UTINYINT)');
    await db.run(
      `CREATE TABLE params AS SELECT ${Number(k)}::INTEGER AS k, ${counts ? 1 : 0}::INTEGER AS pair`,
    );
    await db.run('CREATE TABLE limits (d INTEGER, ratio DOUBLE)');
    if (counts) {
      // The pair rule as a table (what `simprint keys --pair-limits` writes).
      const options = { width, ...tolerance };
      const limits = await db.createAppender('limits');
      for (let d = 0; d <= pairK(1, 1, options); d++) {
        limits.appendInteger(d);
        limits.appendDouble(pairKLimit(d, options));
        limits.endRow();
      }
      limits.closeSync();
    }
    await db.run('CREATE TABLE flips (tbl UTINYINT, flip UBIGINT)');
    const parts = await db.createAppender('parts');
    described.tables.forEach((table, t) => {
      let offset = table.keyBits;
      for (const { start, len } of table.ranges) {
        offset -= len;
        parts.appendUTinyInt(t);
        parts.appendUTinyInt(width - start - len);
        parts.appendUBigInt((1n << BigInt(len)) - 1n);
        parts.appendUTinyInt(offset);
        parts.endRow();
      }
    });
    parts.closeSync();
    const flips = await db.createAppender('flips');
    plan.probeKeysByTable(0n).forEach((masks, t) => {
      for (const mask of masks) {
        flips.appendUTinyInt(t);
        flips.appendUBigInt(mask);
        flips.endRow();
      }
    });
    flips.closeSync();
    const rows = await db.createAppender('fps');
    fps.forEach((fp, id) => {
      rows.appendUInteger(id);
      rows.appendUBigInt(fp);
      if (counts) rows.appendUInteger(counts[id]);
      else rows.appendNull();
      rows.endRow();
    });
    rows.closeSync();
    lap('loadMs');
    await db.run(`CREATE TABLE keys AS
      SELECT p.tbl, f.id, f.fp, f.n, bit_or(((f.fp >> p.shift) & p.mask) << p.pos) AS key
      FROM fps f, parts p GROUP BY p.tbl, f.id, f.fp, f.n`);
    lap('keysMs');
    // The self-join, as pairs.sql has it (the Spark example runs the same file).
    let reader;
    for (const [index, [name, sql]] of PAIRS_SQL.entries()) {
      if (index < PAIRS_SQL.length - 1) await db.run(`CREATE TABLE ${name} AS ${sql}`);
      else reader = await db.runAndReadAll(sql);
      lap(`${name}Ms`);
    }
    const pairs = reader
      .getRows()
      .map(([a, b, distance]) => ({ a: Number(a), b: Number(b), distance: Number(distance) }));
    const count = async (table) =>
      Number((await db.runAndReadAll(`SELECT count(*) FROM ${table}`)).getRows()[0][0]);
    return {
      pairs,
      times,
      plan: described,
      keyRows: await count('keys'),
      probeRows: await count('probes'),
    };
  } finally {
    db.closeSync();
    instance.closeSync?.();
    plan.free();
  }
}

/**
 * `n` 64-bit fingerprints from a seeded generator (splitmix64): random ones, and near copies
 * of earlier ones (up to `spread` bits flipped) so that pairs within k exist at every distance.
 */
export function fingerprints(n, { seed = 2026, spread = 6, copies = 0.3 } = {}) {
  const M = (1n << 64n) - 1n;
  let s = BigInt(seed);
  const next = () => {
    s = (s + 0x9e3779b97f4a7c15n) & M;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    return z ^ (z >> 31n);
  };
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const r = next();
    if (i > 0 && Number(r & 0xffffn) / 65536 < copies) {
      let fp = out[Number((r >> 16n) % BigInt(i))];
      for (let f = Number((r >> 48n) % BigInt(spread + 1)); f > 0; f--) fp ^= 1n << (next() % 64n);
      out[i] = fp;
    } else out[i] = next();
  }
  return out;
}

/** Index.pairs() of the same fingerprints (ids 0 .. n-1), for comparison. */
export function indexPairs(fps, { width = 64, k = 3 } = {}) {
  const index = new Index({ width, k });
  try {
    const ids = Float64Array.from(fps, (_, i) => i);
    index.insertMany(ids, BigUint64Array.from(fps));
    index.compact();
    return index.pairs();
  } finally {
    index.free();
  }
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    return i < 0 ? fallback : Number(args[i + 1]);
  };
  const n = opt('n', 1_000_000);
  const k = opt('k', 3);
  const plan = args.includes('--substrings')
    ? { substrings: opt('substrings') }
    : args.includes('--blocks')
      ? { blocks: opt('blocks'), keyBlocks: opt('keyBlocks', undefined) }
      : undefined;
  let t0 = performance.now();
  const fps = fingerprints(n);
  const generatedMs = performance.now() - t0;
  const { pairs, times, plan: described, keyRows, probeRows } = await sqlPairs(fps, { k, plan });
  console.log(
    JSON.stringify({
      n,
      k,
      plan: `${described.kind}, ${described.tables.length} tables of ${described.tables.map((t) => t.keyBits).join('/')} bits, radius ${described.tables.map((t) => t.radius).join('/')}`,
      keyRows,
      probeRows,
      pairs: pairs.length,
      generatedMs: Math.round(generatedMs),
      ...Object.fromEntries(Object.entries(times).map(([key, v]) => [key, Math.round(v)])),
    }),
  );
  if (args.includes('--check')) {
    t0 = performance.now();
    const want = indexPairs(fps, { k });
    const same = JSON.stringify(want) === JSON.stringify(pairs);
    console.log(
      JSON.stringify({
        indexPairs: want.length,
        indexMs: Math.round(performance.now() - t0),
        same,
      }),
    );
    if (!same) process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
