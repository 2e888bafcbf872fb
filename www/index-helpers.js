// Pure helpers of the index view: plan names and labels, the choices offered, colours, and
// which sizes win. No DOM and no library calls here (tests/js/demo-helpers.test.mjs runs them in
// Node); everything they read is what the library's Plan.describe() and Index.plan() return.
import { plural } from './format.js';

export { plural };

export const MAX_TABLES = 70; // plans with more tables are not offered: too many rows to draw
export const MAX_SUBSTRINGS = 8; // multi-index plans offered: 2 to this many substrings
// The collection sizes the timing card offers (the sample's own size is added to them).
export const SIZES = [100, 200, 1_000, 3_000, 10_000, 100_000, 1_000_000];

/** The slider's top: 24 at 64 bits (25 blocks of 2-3 bits), in proportion at other widths. */
export const maxK = (width) => Math.min(width - 1, Math.round((3 * width) / 8));

const SNIPPET = 110;
export const snippet = (t) => (t.length > SNIPPET ? `${t.slice(0, SNIPPET)}…` : t);

/** Index (and Plan) options of a choice key ("multiIndex:5", "permuted:4", "combined:6:2", "scan"). */
export function planOptions(key) {
  const [kind, a, c] = key.split(':');
  if (kind === 'multiIndex') return { substrings: Number(a) };
  if (kind === 'permuted') return { blocks: Number(a) };
  if (kind === 'combined') return { blocks: Number(a), keyBlocks: Number(c) };
  return { scan: true };
}

/** The choice key naming a plan the library describes. */
export function planKey(p) {
  if (p.kind === 'scan') return 'scan';
  if (p.kind === 'combined') return `combined:${p.blocks.length}:${p.tables[0].blocks.length}`;
  return `${p.kind}:${p.blocks.length}`;
}

/** Each substring's radius in a multi-index plan, or null where the substring has no table. */
export const radiiOf = (p) =>
  p.blocks.map((_, b) => p.tables.find((t) => t.blocks[0] === b)?.radius ?? null);

const radiiText = (p) =>
  radiiOf(p)
    .map((r) => r ?? '–')
    .join(',');
const lengths = (p) => [...new Set(p.blocks.map((b) => b.len))].join('/');

/** A plan in a few words, for sentences. */
export function describePlan(p) {
  switch (p.kind) {
    case 'scan':
      return 'a scan (no tables)';
    case 'multiIndex':
      return `multi-index hashing: ${plural(p.blocks.length, 'substring')} of ${lengths(p)} bits, radii ${radiiText(p)}`;
    case 'permuted':
      return `permuted tables: ${plural(p.blocks.length, 'block')} of ${lengths(p)} bits, ${plural(p.tables.length, 'table')}`;
    default:
      return (
        `combined: ${plural(p.tables.length, 'table')} of ${p.tables[0].blocks.length} of ${p.blocks.length} ` +
        `blocks, radius ${p.tables[0].radius}`
      );
  }
}

export const GROUPS = {
  multiIndex: 'Multi-index hashing (substrings, radii)',
  permuted: 'Permuted tables (exact keys)',
  combined: 'Combined (key blocks, radius)',
  scan: 'No tables',
};

/** A plan's option label, short enough for a phone's select box (without the planner's ★). */
export function choiceLabel(p) {
  const tables = plural(p.tables.length, 'table');
  switch (p.kind) {
    case 'multiIndex':
      return `${p.blocks.length} substrings, r ${radiiText(p)}`;
    case 'permuted':
      return `${p.blocks.length} blocks, ${tables}`;
    case 'combined':
      return `${p.tables[0].blocks.length} of ${p.blocks.length} blocks, r ${p.tables[0].radius}, ${tables}`;
    default:
      return 'scan every fingerprint';
  }
}

/**
 * The choice keys offered at k, in order: multi-index hashing with 2 to 8 substrings, permuted
 * tables from k + 1 blocks while the tables stay drawable (the first is kept whatever its
 * count), combined plans of 4 and 6 blocks keyed by 2 (when their radius is above 0), a scan.
 * `describe(key)` is the library's plan for a key, or null where it refuses one.
 */
export function offeredChoices(width, k, describe) {
  const out = [];
  const add = (key) => {
    const p = describe(key);
    if (p) out.push({ key, kind: p.kind, tables: p.tables.length, label: choiceLabel(p), plan: p });
    return p;
  };
  for (let m = k === 0 ? 1 : 2; m <= Math.min(k + 1, MAX_SUBSTRINGS, width); m++)
    add(`multiIndex:${m}`);
  for (let blocks = k + 1; blocks <= Math.min(width, k + 4); blocks++) {
    const p = add(`permuted:${blocks}`);
    if (!p) break;
    if (p.tables.length > MAX_TABLES && out.filter((c) => c.kind === 'permuted').length > 1) {
      out.pop();
      break;
    }
  }
  for (const blocks of [4, 6]) {
    const before = out.length;
    add(`combined:${blocks}:2`);
    // A combined plan at radius 0 is one more permuted-like plan: not worth a row.
    if (
      out.length > before &&
      (out.at(-1).plan.tables[0].radius === 0 || out.at(-1).tables > MAX_TABLES)
    )
      out.pop();
  }
  add('scan');
  return out;
}

/**
 * The offered choice nearest to the one wanted: itself, else the same kind with the nearest
 * count, else the planner's pick, else the first.
 */
export function nearestChoice(want, choices, auto) {
  if (choices.some((c) => c.key === want)) return want;
  const [kind, count] = want.split(':');
  const same = choices.filter((c) => c.kind === kind);
  if (same.length) {
    const n = Number(count);
    const gap = (c) => Math.abs(Number(c.key.split(':')[1]) - n);
    return same.reduce((a, b) => (gap(b) < gap(a) ? b : a)).key;
  }
  return choices.some((c) => c.key === auto) ? auto : choices[0].key;
}

const gcd = (a, b) => (b ? gcd(b, a % b) : a);

/**
 * The colour of block b of n: hues spread evenly round the wheel, visited in a stride coprime
 * with n so neighbouring blocks get distant hues; every other block is also striped.
 */
export function blockStyle(b, n) {
  let stride = Math.max(1, Math.round(n * 0.382));
  while (n > 1 && gcd(stride, n) !== 1) stride++;
  const hue = Math.round((360 * ((b * stride) % n)) / Math.max(1, n));
  return { hue, striped: b % 2 === 1 };
}

/** The fingerprint bit positions of a table's key, in key order (bit 0 the most significant). */
export const keyPositions = (t) =>
  t.ranges.flatMap(({ start, len }) => Array.from({ length: len }, (_, i) => start + i));

/**
 * The first size of `rows` (ascending by size) from which `wins(row)` holds at every larger
 * size too, or null: where one way starts to beat the other for good.
 */
export function winsFrom(rows, wins) {
  let from = null;
  for (const row of rows) {
    if (!wins(row)) from = null;
    else from ??= row.size;
  }
  return from;
}

/** A time in µs as the page writes it: 3 significant digits. */
export function micros(us) {
  if (!Number.isFinite(us)) return '–';
  return us >= 100 ? `${Math.round(us)} µs` : `${Number(us.toPrecision(3))} µs`;
}

/** A candidate's probe as a chip: table · bucket · the bits flipped to reach it. */
export function probeChip(c) {
  if (c.table == null) return '<span class="chip" data-table="scan">scan</span>';
  if (!c.probe)
    return `<span class="chip" data-table="${c.table}" title="table T${c.table}, read whole">T${c.table} · whole</span>`;
  const { bucket, flipped } = c.probe;
  const how = flipped.length ? `⊕${flipped.join(',')}` : 'own';
  const title = flipped.length
    ? `table T${c.table}, bucket ${bucket}: the query's bucket with bit${flipped.length > 1 ? 's' : ''} ${flipped.join(', ')} flipped`
    : `table T${c.table}, bucket ${bucket}: the query's own bucket`;
  return (
    `<span class="chip" data-table="${c.table}" data-bucket="${bucket}" data-flipped="${flipped.join(',')}" ` +
    `title="${title}">T${c.table} · ${bucket} · ${how}</span>`
  );
}
