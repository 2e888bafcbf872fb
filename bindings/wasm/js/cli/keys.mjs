// simprint keys: the table keys of fingerprints under a plan (the Plan class), one row per
// fingerprint and table, for another engine to join on (examples/sql, examples/spark):
// {"id", "fingerprint", "table", "key"}, the key as hex of the table's key bits, and the
// text's "features" when the input has them (simprint fingerprint writes them). --flips
// writes each table's flip masks instead (the probe keys of 0: a key's probes are the key
// XOR each), --pair-limits the pair rule as a table, --plan the plan.
import { Plan, defaults, pairK, pairKLimit, toHex } from '../node.mjs';
import { UsageError, toleranceOptions } from './args.mjs';
import { InputError } from './errors.mjs';
import { batches, countOf } from './input.mjs';
import { whereOf } from './pipeline.mjs';
import { Output, tempBeside, temporary } from './output.mjs';
import { quote } from './records.mjs';

/** The Plan options among `settings`: --k, --blocks, --key-blocks, --substrings, --size. */
export function planOptions(settings) {
  const out = { width: settings.width ?? defaults().index.width };
  for (const name of ['k', 'blocks', 'keyBlocks', 'substrings', 'size'])
    if (settings[name] !== undefined) out[name] = settings[name];
  return out;
}

/** The key rows of one fingerprint: `{ table, key }` for each of the plan's tables, whose
 *  key bits are `keyBits` (from plan.describe(), read once). */
export function keyRows(plan, keyBits, hex) {
  return plan.keys(hex).map((key, table) => ({ table, key: toHex(key, keyBits[table]) }));
}

/** The library's verdict on an option, as a usage error (exit status 2), as for the others. */
function asUsage(make) {
  try {
    return make();
  } catch (e) {
    throw new UsageError(e.message);
  }
}

export async function keys(files, settings, { progress }) {
  const plan = asUsage(() => new Plan(planOptions(settings)));
  const out = new Output(settings.output);
  try {
    const tables = plan.describe().tables;
    if (settings.plan) {
      out.line(JSON.stringify(plan.describe()));
      await out.commit();
      return { documents: 0 };
    }
    if (settings.pairLimits) {
      // The pair rule for a join: a pair is within it while its distance d has a row whose
      // ratio its larger count over its smaller (each at least 1) does not pass.
      const options = { width: planOptions(settings).width, ...toleranceOptions(settings) };
      const most = asUsage(() => pairK(1, 1, options));
      for (let d = 0; d <= most; d++)
        out.line(JSON.stringify({ d, ratio: pairKLimit(d, options) }));
      await out.commit();
      return { documents: 0 };
    }
    if (settings.flips) {
      plan.probeKeysByTable(0n).forEach((masks, table) => {
        for (const mask of masks)
          out.line(JSON.stringify({ table, flip: toHex(mask, tables[table].keyBits) }));
      });
      await out.commit();
      return { documents: 0 };
    }
    if (tables.length === 0)
      throw new InputError(
        'a scan plan has no keys: give --k with --blocks or --substrings, or a --size the planner files in tables',
      );
    const keyBits = tables.map((t) => t.keyBits);
    const field = settings.fingerprintField ?? 'fingerprint';
    const idField = settings.idField ?? 'id';
    let documents = 0;
    const temp = () => temporary(tempBeside(settings.output ?? 'simprint-input', 'parquet-input'));
    for await (const batch of batches(
      files,
      { ...settings, fallbackFormat: 'jsonl' },
      (b) => progress.bytes(b),
      temp,
    )) {
      const lines = batch.kind === 'jsonl' ? batch.text.split('\n') : undefined;
      for (let i = 0; i < countOf(batch); i++) {
        const where = whereOf(batch, i);
        let record;
        if (lines) {
          if (lines[i].trim() === '') continue;
          try {
            record = JSON.parse(lines[i]);
          } catch (e) {
            throw new InputError(`${where}: not JSON: ${e.message}`);
          }
        } else if (batch.kind === 'records') record = batch.records[i];
        else
          throw new InputError(
            `${batch.file}: simprint keys reads fingerprints (JSONL or Parquet, as simprint fingerprint writes them), not text`,
          );
        if (record === null || typeof record !== 'object' || typeof record[field] !== 'string') {
          throw new InputError(
            `${where}: expected an object with the fingerprint as hex in ${quote(field)}${record && typeof record === 'object' ? ` (fields: ${Object.keys(record).slice(0, 8).join(', ')})` : ''}`,
          );
        }
        let rows;
        try {
          rows = keyRows(plan, keyBits, record[field]);
        } catch (e) {
          throw new InputError(`${where}: ${e.message}`);
        }
        const id = record[idField];
        const { features } = record;
        if (features !== undefined && !(Number.isInteger(features) && features >= 0))
          throw new InputError(
            `${where}: "features" must be a whole number, got ${JSON.stringify(features)}`,
          );
        for (const { table, key } of rows)
          out.line(JSON.stringify({ id, fingerprint: record[field], features, table, key }));
        documents++;
      }
      progress.documents(countOf(batch));
    }
    await out.commit();
    return { documents };
  } finally {
    plan.free();
  }
}
