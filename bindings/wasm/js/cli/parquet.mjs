// Parquet through DuckDB's Node API (@duckdb/node-api), loaded only when a .parquet file is
// given: it is a native package of about 60 MB per platform, which every other use of simprint
// (browsers, Workers, JSONL and CSV) does without. It is an optional peer dependency of the
// package: npm does not install it unless the project asks for it (docs/cli.md).
import { InputError } from './errors.mjs';

export const DUCKDB_PACKAGE = '@duckdb/node-api';
export const DUCKDB_VERSION = '1.5.6-r.1';

async function duckdb() {
  try {
    return await import(DUCKDB_PACKAGE);
  } catch (e) {
    if (e.code === 'ERR_MODULE_NOT_FOUND') {
      throw new InputError(
        `Parquet needs DuckDB's Node API beside simprint: npm install ${DUCKDB_PACKAGE}@${DUCKDB_VERSION}`,
      );
    }
    throw e;
  }
}

const literal = (s) => `'${s.replaceAll("'", "''")}'`;

async function withDuckDB(run) {
  const { DuckDBInstance } = await duckdb();
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  try {
    return await run(db);
  } finally {
    db.closeSync();
    instance.closeSync?.();
  }
}

/** Every row of the Parquet file `file` as a JSONL file at `out` (one object a row, in order). */
export async function parquetToJsonl(file, out) {
  try {
    await withDuckDB((db) =>
      db.run(
        `COPY (SELECT * FROM read_parquet(${literal(file)})) TO ${literal(out)} (FORMAT json)`,
      ),
    );
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${file}: could not be read as Parquet: ${e.message.split('\n')[0]}`);
  }
  return out;
}

/** The JSONL file `jsonl` written as the Parquet file `out`, the columns' types inferred. */
export async function jsonlToParquet(jsonl, out) {
  await withDuckDB((db) =>
    db.run(
      `COPY (SELECT * FROM read_json(${literal(jsonl)}, format = 'newline_delimited')) TO ${literal(out)} (FORMAT parquet)`,
    ),
  );
}
