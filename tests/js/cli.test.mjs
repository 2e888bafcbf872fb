// The simprint command (pkg/cli/): its pure parts (arguments, records, CSV, the progress line,
// a document's k) as units, then whole runs of pkg/cli/simprint.mjs on files: outputs against
// the library and brute force, the same output for any number of threads, errors with file
// and line, nothing half-written. tests/js/package.test.mjs runs it as users do, from the
// packed tarball in a scratch project (npx, a terminal, Parquet).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import {
  COMMANDS,
  UsageError,
  fingerprinterOptions,
  formatOf,
  merge,
  parse,
} from '../../pkg/cli/args.mjs';
import {
  CsvRecords,
  RecordError,
  checkId,
  csvObject,
  jsonlDocument,
  labelledPair,
} from '../../pkg/cli/records.mjs';
import { progressLine } from '../../pkg/cli/progress.mjs';
import { FIRST_PAGE, PLANNED_DOCUMENTS, documentK, replan } from '../../pkg/cli/dedup.mjs';
import { Counts, UNCOUNTED, hashName } from '../../pkg/cli/counts.mjs';
import {
  Fingerprinter,
  Index,
  Plan,
  collectionK,
  defaults,
  hamming,
  pairK,
  pairKLimit,
  toHex,
} from '../../pkg/node.mjs';
import { corpus, jsonl } from '../support/corpus.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'pkg', 'cli', 'simprint.mjs');
const dir = mkdtempSync(join(tmpdir(), 'simprint-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name, content) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
/** One run of the CLI: { status, stdout, stderr }. */
const simprint = (args, input) =>
  spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', input, cwd: dir });
const lines = (text) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe('arguments', () => {
  test('commands, files, flags in both spellings, switches and their negations', () => {
    const a = parse([
      'dedup',
      'a.jsonl',
      '--k',
      '3',
      '--text-field=body',
      'b.csv',
      '-j',
      '2',
      '--no-case-fold',
      '--clusters',
      '-o',
      'out.jsonl',
    ]);
    assert.equal(a.command, 'dedup');
    assert.deepEqual(a.files, ['a.jsonl', 'b.csv']);
    assert.deepEqual(a.settings, {
      k: 3,
      textField: 'body',
      threads: 2,
      caseFold: false,
      clusters: true,
      output: 'out.jsonl',
    });
    assert.deepEqual(parse(['fingerprint', '-', '--', '--odd-name']).files, ['-', '--odd-name']);
    assert.equal(parse(['--help']).help, true);
    assert.deepEqual(COMMANDS, ['fingerprint', 'dedup', 'keys', 'calibrate']);
  });

  test('usage errors name the option and what was wrong', () => {
    const refused = (argv, message) =>
      assert.throws(
        () => parse(argv),
        (e) => e instanceof UsageError && e.message === message,
      );
    refused(['sort'], 'unknown command "sort": expected fingerprint, dedup, keys, calibrate');
    refused(['dedup', '--bogus'], 'unknown option --bogus');
    refused(['dedup', '--k'], '--k needs a value');
    refused(['dedup', '--k', 'x'], '--k must be a whole number from 0 to 128, got "x"');
    refused(['dedup', '--threads', '0'], '--threads must be a whole number from 1 to 256, got "0"');
    refused(['dedup', '--on-error', 'maybe'], '--on-error must be one of fail, skip, got "maybe"');
    refused(['dedup', '--rule', 'both'], '--rule must be one of pair, text, got "both"');
    refused(['dedup', '--no-k'], 'unknown option --no-k');
    assert.throws(
      () => merge('fingerprint', { k: 3 }),
      /--k does not apply to simprint fingerprint/,
    );
    assert.throws(() => merge('dedup', { k: 3, maxK: 5 }), /--k and --max-k do not go together/);
    assert.throws(() => merge('keys', { rule: 'pair' }), /--rule does not apply to simprint keys/);
    assert.throws(
      () => merge('dedup', {}, '{"rule": "texts"}'),
      /--rule must be one of pair, text/,
    );
  });

  test('a config file gives settings, flags override it, unknown names are refused', () => {
    const config = JSON.stringify({
      textField: 'body',
      width: 64,
      tokenizer: 'words',
      k: 4,
      blocks: 5,
    });
    assert.deepEqual(merge('fingerprint', { tokenizer: 'chars' }, config), {
      textField: 'body',
      width: 64,
      tokenizer: 'chars',
    });
    assert.deepEqual(merge('dedup', {}, config).k, 4);
    assert.throws(
      () => merge('dedup', {}, '{"textfield": "x"}', 'c.json'),
      /c\.json: unknown setting "textfield"/,
    );
    assert.throws(() => merge('dedup', {}, '[1]', 'c.json'), /c\.json must hold a JSON object/);
    assert.throws(() => merge('dedup', {}, '{', 'c.json'), /c\.json is not JSON/);
    assert.throws(() => merge('dedup', {}, '{"k": "many"}'), /--k must be a whole number/);
    assert.deepEqual(fingerprinterOptions({ width: 64, textField: 'x', caseFold: false }), {
      width: 64,
      caseFold: false,
    });
  });

  test('formats by name', () => {
    assert.deepEqual(
      ['a.jsonl', 'a.NDJSON', 'a.json.gz', 'a.csv', 'a.csv.gz', 'a.parquet', 'a.txt', '-'].map(
        (f) => formatOf(f),
      ),
      ['jsonl', 'jsonl', 'jsonl', 'csv', 'csv', 'parquet', 'text', 'jsonl'],
    );
    assert.equal(formatOf('a.txt', 'jsonl'), 'jsonl');
    assert.equal(formatOf('fps', undefined, 'jsonl'), 'jsonl');
  });
});

describe('records', () => {
  test('JSONL lines: text and id fields, the fallback id, blank lines', () => {
    assert.deepEqual(jsonlDocument('{"id": 7, "text": "a b"}', {}, 'f:1'), { id: 7, text: 'a b' });
    assert.deepEqual(jsonlDocument('{"text": "a b"}', {}, 'f:1'), { id: 'f:1', text: 'a b' });
    assert.deepEqual(
      jsonlDocument('{"url": "u", "body": "x"}', { textField: 'body', idField: 'url' }, 'f:1'),
      { id: 'u', text: 'x' },
    );
    assert.equal(jsonlDocument('   ', {}, 'f:1'), undefined);
  });

  test('bad lines say what was wrong', () => {
    const refused = (line, fields, message) =>
      assert.throws(
        () => jsonlDocument(line, fields, 'f:1'),
        (e) => e instanceof RecordError && message.test(e.message),
        line,
      );
    refused('{"text": 1}', {}, /^"text" must be a string, got number$/);
    refused('[1]', {}, /^expected a JSON object, got an array$/);
    refused('{"txt": "a"}', {}, /^no field "text" \(fields: "txt"\); --text-field names it$/);
    refused('{"text": "a"}', { idField: 'url' }, /^no field "url"; --id-field names it$/);
    refused(
      '{"text": "a", "id": 1.5}',
      {},
      /^"id" must be a non-empty string or a whole number from 0 to 2\^53 - 1, got 1\.5$/,
    );
    refused('{"text": "a", "id": ""}', {}, /got an empty string/);
    refused('{"text": "a"', {}, /^not JSON: /);
    assert.equal(checkId(2 ** 53 - 1, 'id'), 2 ** 53 - 1);
    assert.throws(() => checkId(2 ** 53, 'id'), RecordError);
  });

  test("labelled pairs (simprint calibrate's lines): [a, b, duplicate], or a message", () => {
    assert.deepEqual(labelledPair('{"a": "x", "b": "y", "duplicate": false, "note": 1}'), [
      'x',
      'y',
      false,
    ]);
    assert.equal(labelledPair('  '), undefined);
    for (const [line, message] of [
      ['{"a": "x"', /^not JSON: /],
      ['"x"', /^expected a JSON object, got string$/],
      ['null', /^expected a JSON object, got null$/],
      ['{"b": "y", "duplicate": true}', /^"a" must be a string, got undefined$/],
      ['{"a": "x", "b": ["y"], "duplicate": true}', /^"b" must be a string, got an array$/],
      ['{"a": "x", "b": "y", "duplicate": 1}', /^"duplicate" must be true or false, got number$/],
      ['{"a": "x", "b": "y"}', /^"duplicate" must be true or false, got undefined$/],
    ]) {
      assert.throws(
        () => labelledPair(line),
        (e) => e instanceof RecordError && message.test(e.message),
        line,
      );
    }
  });

  test('CSV: quotes, doubled quotes, line breaks in fields, CRLF; the same records for any cut', () => {
    const text = 'id,text\r\n1,"hello, ""world""\nsecond line"\r\n2,plain\n\n3,"",x\n4,last';
    const whole = new CsvRecords();
    const want = [...whole.push(text), ...whole.end()];
    assert.deepEqual(want, [
      { fields: ['id', 'text'], line: 1 },
      { fields: ['1', 'hello, "world"\nsecond line'], line: 2 },
      { fields: ['2', 'plain'], line: 4 },
      { fields: ['3', '', 'x'], line: 6 },
      { fields: ['4', 'last'], line: 7 },
    ]);
    for (let cut = 1; cut < text.length; cut++) {
      const parser = new CsvRecords();
      assert.deepEqual(
        [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut)), ...parser.end()],
        want,
        `cut at ${cut}`,
      );
    }
    assert.throws(
      () => new CsvRecords().push('a,b"c\n'),
      /line 1: a quote inside an unquoted field/,
    );
    assert.throws(
      () => new CsvRecords().push('"a"b\n'),
      /line 1: characters after a closing quote/,
    );
    const open = new CsvRecords();
    open.push('x\n"never closed\n');
    assert.throws(() => open.end(), /line 2: a quoted field is not closed by the end of the file/);
    assert.throws(() => csvObject(['a', 'b'], ['1']), /1 fields, but the header has 2 columns/);
  });
});

test('the progress line: share, rates, ETA; without a total, the time elapsed', () => {
  const line = progressLine({ documents: 50_000, bytes: 25e6, total: 100e6, seconds: 10 }, 100);
  assert.match(
    line,
    /^\[#+\.+\] {2}25% {2}50,000 docs {2}5,000 docs\/s {2}2\.5 MB\/s {2}ETA 0:30$/,
  );
  assert.ok(line.length < 100);
  assert.match(
    progressLine({ documents: 10, bytes: 1e6, seconds: 65 }),
    /^10 docs {2}0 docs\/s {2}0\.0 MB\/s {2}1:05 elapsed$/,
  );
  assert.ok(
    progressLine({ documents: 1, bytes: 1, total: 2, seconds: 1, note: 'x'.repeat(200) }, 40)
      .length < 40,
  );
});

test("a document's k: min(recommended, collectionK of the kept documents, the index's k), or --k", () => {
  assert.equal(PLANNED_DOCUMENTS, 1000);
  const width = 64;
  assert.equal(documentK({ recommended: 12, kept: 0, indexK: 16, width }), 12);
  assert.equal(documentK({ recommended: 20, kept: 0, indexK: 16, width }), 16);
  assert.equal(
    documentK({ recommended: 14, kept: 1_000_000, indexK: 16, width }),
    collectionK(1_000_000),
  );
  assert.equal(
    documentK({ recommended: 14, kept: 10, expected: 1_000_000, indexK: 16, width }),
    collectionK(1_000_000),
  );
  assert.equal(documentK({ fixedK: 3, recommended: 14, kept: 10, indexK: 16, width }), 3);
  assert.equal(documentK({ recommended: 5, kept: 1000, indexK: 8, width: 8 }), 0); // no k keeps chance matches rare
});

test('replan: the same entries at a smaller k, with the same answers and the same ties', () => {
  // Copies of a few fingerprints under names and numbers: many answers tie on distance.
  const fp = new Fingerprinter();
  const base = DOCS_FOR_REPLAN.map((t) => fp.fingerprint(t));
  let index = new Index({ k: 16 });
  const entries = [];
  for (let i = 0; i < 600; i++)
    entries.push([
      i % 3 === 0 ? i : `doc-${(i * 7919) % 600}`,
      base[i % base.length] ^ BigInt(1 << (i % 5)),
    ]);
  for (const [id, f] of entries) index.insert(id, f);
  const before = base.map((f) => index.query(f, 8));
  assert.ok(
    before.some((m) => m.length > 2 && m[0].distance === m[1].distance),
    'answers with ties',
  );
  index = replan(index, 8);
  assert.equal(index.k, 8);
  assert.equal(index.size, entries.length);
  assert.deepEqual(
    base.map((f) => index.query(f, 8)),
    before,
  );
  index.free();
  fp.free();
});
test("feature counts by the index's ids: numbers and names apart, exact when names share a hash", () => {
  // Every name hashed alike (one shared hash), then the real hash: the same answers.
  for (const hash of [() => 7, hashName]) {
    const counts = new Counts({ hash });
    const ids = [];
    for (let i = 0; i < 3000; i++) {
      const id = i % 3 === 0 ? i * 1_000_003 : i % 3 === 1 ? `doc-${i}` : String(i - 2);
      ids.push(id);
      counts.set(id, i % 7 === 0 ? UNCOUNTED : i, () => ids);
    }
    ids.push(2 ** 53 - 1);
    counts.set(2 ** 53 - 1, 5, () => ids);
    assert.equal(counts.size, 3001);
    assert.equal(counts.uncounted, 429);
    for (let i = 0; i < 3000; i++)
      assert.equal(counts.get(ids[i]), i % 7 === 0 ? UNCOUNTED : i, String(ids[i]));
    assert.equal(counts.get(2 ** 53 - 1), 5);
    // The number 0 and the name "0" are two ids (as in the index).
    assert.equal(counts.get(0), UNCOUNTED);
    assert.equal(counts.get('0'), 2);
  }
  assert.notEqual(hashName('doc-1'), hashName('doc-2'));
  assert.ok(Number.isSafeInteger(hashName('x'.repeat(1000))));
});

const DOCS_FOR_REPLAN = [
  'one text about indexes',
  'another text entirely, on cooking',
  'a third about the weather today',
];

// Whole runs.
const DOCS = corpus(1500, { words: [3, 150] });
const CORPUS = file('corpus.jsonl', jsonl(DOCS));

/**
 * What dedup must answer, by brute force over the library's fingerprints, feature counts and k:
 * each document against every document kept before it (`kept`: those of earlier runs,
 * `{ id, f, n }`, `n` undefined for one kept without a count), at the k of the pair under
 * `rule` ("pair": min(pairK(n, m), cap); "text", or a kept document without a count:
 * min(recommendedK(text), cap)), cap = min(collectionK(kept), indexK). A duplicate of the
 * nearest accepted (ties: the earliest kept), with that pair's k.
 */
function bruteDedup(
  docs,
  {
    rule = 'pair',
    expected = 0,
    indexK = collectionK(Math.max(PLANNED_DOCUMENTS, expected)),
    kept: before = [],
  } = {},
) {
  const fp = new Fingerprinter();
  const kept = [...before];
  const out = [];
  for (const { id, text } of docs) {
    const f = fp.fingerprint(text);
    const n = fp.featureCount(text);
    const cap = Math.min(collectionK(Math.max(kept.length, expected)) ?? 0, indexK);
    const textK = Math.min(fp.recommendedK(text), cap);
    let best;
    for (const o of kept) {
      const k = rule === 'text' || o.n === undefined ? textK : Math.min(pairK(n, o.n), cap);
      const d = hamming(f, o.f);
      if (d <= k && (!best || d < best.distance)) best = { original: o.id, distance: d, k };
    }
    if (best) out.push({ id, ...best });
    else kept.push({ id, f, n });
  }
  fp.free();
  return { duplicates: out, kept: kept.map((k) => k.id), state: kept };
}

test("fingerprint: the library's fingerprint and recommended k of every document, in order", () => {
  const run = simprint(['fingerprint', CORPUS]);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, '', 'nothing on stderr when it is not a terminal');
  const fp = new Fingerprinter();
  assert.deepEqual(
    lines(run.stdout),
    DOCS.map(({ id, text }) => ({
      id,
      fingerprint: toHex(fp.fingerprint(text)),
      k: fp.recommendedK(text),
      features: fp.featureCount(text),
    })),
  );
  // Options as the library's, from flags or a config file.
  const words = new Fingerprinter({ tokenizer: 'words', n: 2, width: 32 });
  const want = DOCS.slice(0, 5).map(({ id, text }) => ({
    id,
    fingerprint: toHex(words.fingerprint(text), 32),
    k: words.recommendedK(text, { tolerance: 0.2 }),
    features: words.featureCount(text),
  }));
  const small = file('small.jsonl', jsonl(DOCS.slice(0, 5)));
  assert.deepEqual(
    lines(
      simprint([
        'fingerprint',
        small,
        '--tokenizer',
        'words',
        '--n',
        '2',
        '--width',
        '32',
        '--tolerance',
        '0.2',
      ]).stdout,
    ),
    want,
  );
  const config = file(
    'config.json',
    JSON.stringify({ tokenizer: 'words', n: 2, width: 32, tolerance: 0.2 }),
  );
  assert.deepEqual(lines(simprint(['fingerprint', small, '--config', config]).stdout), want);
  // The quality mode: one-bit MinHash at 128 bits, each text at its own k.
  const quality = new Fingerprinter(defaults().quality);
  assert.deepEqual(
    lines(simprint(['fingerprint', small, '--algorithm', 'minhash', '--width', '128']).stdout),
    DOCS.slice(0, 5).map(({ id, text }) => ({
      id,
      fingerprint: toHex(quality.fingerprint(text), 128),
      k: quality.recommendedK(text),
      features: quality.featureCount(text),
    })),
  );
  quality.free();
  fp.free();
  words.free();
});

test('dedup: exactly the brute-force answer, the same for 1, 2 and 3 threads', () => {
  // The pair rule (the default): each kept document at the pair k of the two counts.
  const want = bruteDedup(DOCS);
  const text = bruteDedup(DOCS, { rule: 'text' });
  assert.ok(want.duplicates.length > 200, `duplicates to find (${want.duplicates.length})`);
  assert.ok(new Set(want.duplicates.map((d) => d.k)).size > 1, 'pairs compared at different k');
  assert.notDeepEqual(want.duplicates, text.duplicates, 'the rules differ on this corpus');
  const outputs = [1, 2, 3].map((threads) => {
    const keep = join(dir, `kept-${threads}.jsonl`);
    const run = simprint(['dedup', CORPUS, '--threads', String(threads), '--keep', keep]);
    assert.equal(run.status, 0, run.stderr);
    return { stdout: run.stdout, keep: readFileSync(keep, 'utf8') };
  });
  assert.deepEqual(lines(outputs[0].stdout), want.duplicates);
  assert.deepEqual(
    lines(outputs[0].keep).map((d) => d.id),
    want.kept,
  );
  assert.equal(outputs[1].stdout, outputs[0].stdout);
  assert.equal(outputs[2].stdout, outputs[0].stdout);
  assert.equal(outputs[1].keep, outputs[0].keep);
  // Kept lines are the input's lines, byte for byte.
  assert.equal(lines(outputs[0].keep)[0].text, DOCS[0].text);
  // The text rule: each document at its own k, from the flag or a config file.
  assert.ok(new Set(text.duplicates.map((d) => d.k)).size > 1, 'documents at different k');
  for (const threads of ['1', '3']) {
    const run = simprint(['dedup', CORPUS, '--rule', 'text', '--threads', threads]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(lines(run.stdout), text.duplicates);
  }
  const config = file('text-rule.json', JSON.stringify({ rule: 'text' }));
  assert.deepEqual(lines(simprint(['dedup', CORPUS, '--config', config]).stdout), text.duplicates);
  // A collection expected to hold a million: every k within collectionK(10^6), and the index
  // planned for it.
  for (const rule of ['pair', 'text']) {
    const expected = simprint([
      'dedup',
      CORPUS,
      '--expected',
      '1000000',
      '--progress',
      '--rule',
      rule,
    ]);
    assert.deepEqual(
      lines(expected.stdout),
      bruteDedup(DOCS, { rule, expected: 1_000_000 }).duplicates,
    );
    assert.ok(lines(expected.stdout).every((d) => d.k <= collectionK(1_000_000)));
    assert.match(expected.stderr, new RegExp(`k up to ${collectionK(1_000_000)},`));
    // An index for a larger k (--max-k, not replanned): collectionK still bounds each k.
    const wide = simprint([
      'dedup',
      CORPUS,
      '--expected',
      '1000000',
      '--max-k',
      '20',
      '--rule',
      rule,
    ]);
    assert.deepEqual(
      lines(wide.stdout),
      bruteDedup(DOCS, { rule, expected: 1_000_000, indexK: 20 }).duplicates,
    );
  }
  // Unless the k is given, the pair rule plans the index for pairK(n, n), the largest pair k.
  assert.match(
    simprint(['dedup', CORPUS, '--progress']).stderr,
    new RegExp(`k up to ${pairK(1, 1)},`),
  );
  assert.match(
    simprint(['dedup', CORPUS, '--progress', '--rule', 'text']).stderr,
    new RegExp(`k up to ${collectionK(PLANNED_DOCUMENTS)},`),
  );
});

test('dedup --k, --clusters, and stdin', () => {
  const fp = new Fingerprinter();
  const run = simprint(['dedup', '-', '--k', '3'], jsonl(DOCS.slice(0, 400)));
  assert.equal(run.status, 0, run.stderr);
  const dups = lines(run.stdout);
  assert.ok(dups.length > 20);
  for (const d of dups) {
    assert.equal(d.k, 3);
    assert.equal(
      hamming(fp.fingerprint(DOCS[d.id].text), fp.fingerprint(DOCS[d.original].text)),
      d.distance,
    );
    assert.ok(d.distance <= 3 && d.original < d.id);
  }
  const clusters = lines(
    simprint(['dedup', '-', '--k', '3', '--clusters'], jsonl(DOCS.slice(0, 400))).stdout,
  );
  const grouped = new Map();
  for (const d of dups) grouped.set(d.original, [...(grouped.get(d.original) ?? []), d.id]);
  assert.deepEqual(
    clusters,
    [...grouped].map(([original, duplicates]) => ({ original, duplicates })),
  );
  fp.free();
});

test('dedup --index: two runs over two halves answer what one run over the whole does, for either rule and either kind of id', () => {
  const named = DOCS.map(({ id, text }) => ({ id: `doc-${id}`, text }));
  for (const [rule, docs] of [
    ['pair', DOCS],
    ['text', DOCS],
    ['pair', named],
  ]) {
    const whole = simprint(['dedup', file('whole.jsonl', jsonl(docs)), '--rule', rule]).stdout;
    assert.deepEqual(lines(whole), bruteDedup(docs, { rule }).duplicates);
    const index = join(dir, `resume-${rule}-${typeof docs[0].id}.idx`);
    const first = file('first.jsonl', jsonl(docs.slice(0, 700)));
    const second = file('second.jsonl', jsonl(docs.slice(700)));
    const a = simprint(['dedup', first, '--index', index, '--rule', rule]);
    assert.equal(a.status, 0, a.stderr);
    assert.ok(existsSync(index) && existsSync(`${index}.features`));
    const b = simprint(['dedup', second, '--index', index, '--rule', rule]);
    assert.equal(b.status, 0, b.stderr);
    assert.equal(a.stdout + b.stdout, whole, `${rule}, ids like ${docs[0].id}`);
    // The index holds the kept documents of both runs, and its sidecar a count for each.
    assert.equal(Index.fromBytes(readFileSync(index)).size, bruteDedup(docs, { rule }).kept.length);
    assert.equal(
      readFileSync(`${index}.features`).length,
      80 + 4 * bruteDedup(docs, { rule }).kept.length,
    );
  }
  // Running a half again is refused by id.
  const index = join(dir, 'resume-pair-number.idx');
  const second = file('second.jsonl', jsonl(DOCS.slice(700)));
  const again = simprint(['dedup', second, '--index', index]);
  assert.equal(again.status, 1);
  assert.match(
    again.stderr,
    /^simprint: .*second\.jsonl:\d+: the id \d+ is already in the index \(an earlier document's, or one of .*resume-pair-number\.idx\): ids must be unique\n$/,
  );
  // The pair rule planned the index for pairK(n, n), the text rule for collectionK(1000).
  const wider = simprint(['dedup', second, '--index', index, '--max-k', '30']);
  assert.match(
    wider.stderr,
    new RegExp(`the index was built for k up to ${pairK(1, 1)}, but this run asks 30`),
  );
  const textIndex = join(dir, 'resume-text-number.idx');
  const widerText = simprint(['dedup', second, '--index', textIndex, '--max-k', '30']);
  assert.match(widerText.stderr, /the index was built for k up to 16, but this run asks 30/);
});

test("dedup --index without its sidecar (an earlier version's index): its documents at each text's recommended k", () => {
  // A Chinese text and a copy of it 13 to 16 bits away: its recommended k (16) takes it, the
  // pair k (12) does not, so the copy is found only if the index is asked past pairK(n, n).
  const fp = new Fingerprinter();
  const han = (i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20000));
  const chinese = Array.from({ length: 30 }, (_, i) => han(i)).join('');
  let copy;
  for (let i = 0; !copy; i++) {
    const chars = [...chinese];
    chars[10] = han(1000 + i);
    chars[20] = han(2000 + i);
    const d = hamming(fp.fingerprint(chinese), fp.fingerprint(chars.join('')));
    if (d > pairK(1, 1) && d <= Math.min(fp.recommendedK(chars.join('')), 16))
      copy = chars.join('');
  }
  fp.free();
  const docs = [
    [...DOCS.slice(0, 500), { id: 5000, text: chinese }],
    [...DOCS.slice(500, 1000), { id: 5001, text: copy }],
    DOCS.slice(1000),
  ];
  const parts = docs.map((part, i) => file(`part-${i}.jsonl`, jsonl(part)));
  // Part 0 by the text rule, as an earlier version would have kept it (its index at k 16).
  const a = bruteDedup(docs[0], { rule: 'text' });
  const counted = join(dir, 'counted.idx');
  const uncounted = join(dir, 'uncounted.idx');
  for (const index of [counted, uncounted]) {
    const run = simprint(['dedup', parts[0], '--index', index, '--rule', 'text']);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(lines(run.stdout), a.duplicates);
  }
  rmSync(`${uncounted}.features`);
  // With the sidecar (a text rule's run counts too), part 1 at the pair rule as if in one run.
  const withCounts = bruteDedup(docs[1], { kept: a.state, indexK: 16 });
  assert.ok(!withCounts.duplicates.some((d) => d.id === 5001));
  const b1 = simprint(['dedup', parts[1], '--index', counted, '--progress']);
  assert.equal(b1.status, 0, b1.stderr);
  assert.deepEqual(lines(b1.stdout), withCounts.duplicates);
  assert.doesNotMatch(b1.stderr, /without a feature count/);
  // Without: part 0's documents at the asking text's recommended k, part 1's at the pair k.
  const before = a.state.map(({ id, f }) => ({ id, f }));
  const without = bruteDedup(docs[1], { kept: before, indexK: 16 });
  assert.equal(without.duplicates.find((d) => d.id === 5001)?.k, 16);
  const b2 = simprint(['dedup', parts[1], '--index', uncounted, '--progress']);
  assert.equal(b2.status, 0, b2.stderr);
  assert.deepEqual(lines(b2.stdout), without.duplicates);
  assert.match(
    b2.stderr,
    new RegExp(`${a.kept.length} without a feature count: compared at each text's recommended k`),
  );
  // The sidecar written then says which documents have no count: a third run goes on alike.
  const c = simprint(['dedup', parts[2], '--index', uncounted]);
  assert.equal(c.status, 0, c.stderr);
  assert.deepEqual(
    lines(c.stdout),
    bruteDedup(docs[2], { kept: without.state, indexK: 16 }).duplicates,
  );
});

test('the sidecar FILE.features as docs/cli.md describes it, written by any run with --index (--k too)', () => {
  const docs = DOCS.slice(0, 400).map(({ id, text }) => ({ id: id % 2 ? `doc-${id}` : id, text }));
  const index = join(dir, 'format.idx');
  const run = simprint(['dedup', file('format.jsonl', jsonl(docs)), '--index', index, '--k', '3']);
  assert.equal(run.status, 0, run.stderr);
  const ids = Index.fromBytes(readFileSync(index)).ids();
  const bytes = readFileSync(`${index}.features`);
  assert.equal(bytes.subarray(0, 8).toString('latin1'), 'SPFEAT01');
  assert.equal(bytes.readBigUInt64LE(8), BigInt(ids.length));
  const sha256 = (data) => createHash('sha256').update(data).digest();
  assert.deepEqual(
    bytes.subarray(16, 48),
    sha256(ids.map((id) => `${JSON.stringify(id)}\n`).join('')),
  );
  const fp = new Fingerprinter();
  const textOf = new Map(docs.map((d) => [d.id, d.text]));
  assert.deepEqual(
    ids.map((_, i) => bytes.readUInt32LE(48 + 4 * i)),
    ids.map((id) => fp.featureCount(textOf.get(id))),
  );
  fp.free();
  assert.equal(bytes.length, 48 + 4 * ids.length + 32);
  assert.deepEqual(bytes.subarray(bytes.length - 32), sha256(bytes.subarray(0, bytes.length - 32)));
});

test('dedup --index: a sidecar damaged or of another index is refused, naming it', () => {
  const index = join(dir, 'checked.idx');
  const sidecar = `${index}.features`;
  const first = file('checked-first.jsonl', jsonl(DOCS.slice(0, 300)));
  const next = file('checked-next.jsonl', jsonl(DOCS.slice(300, 400)));
  assert.equal(simprint(['dedup', first, '--index', index]).status, 0);
  const good = readFileSync(sidecar);
  const indexBytes = readFileSync(index);
  const other = (name, docs) => {
    const path = join(dir, name);
    assert.equal(
      simprint(['dedup', file(`${name}.jsonl`, jsonl(docs)), '--index', path]).status,
      0,
    );
    return readFileSync(`${path}.features`);
  };
  const flipped = Buffer.from(good);
  flipped[100] ^= 1;
  const kept = bruteDedup(DOCS.slice(0, 300)).kept.length;
  const cases = [
    [flipped, 'damaged: its checksum does not match its contents'],
    [
      good.subarray(0, good.length - 4),
      `damaged: ${good.length - 4} bytes, but it says it holds ${kept} counts`,
    ],
    [Buffer.from('{"features": []}\n'), 'not a feature-count file of simprint'],
    [
      other('fewer.idx', DOCS.slice(0, 200)),
      `holds the counts of other documents than the index ${index} (${bruteDedup(DOCS.slice(0, 200)).kept.length} counts, ${kept} documents in the index)`,
    ],
    // As many documents, under other ids.
    [
      other(
        'renamed.idx',
        DOCS.slice(0, 300).map(({ id, text }) => ({ id: `doc-${id}`, text })),
      ),
      `holds the counts of other documents than the index ${index} (${kept} counts, ${kept} documents in the index)`,
    ],
  ];
  for (const [bytes, problem] of cases) {
    writeFileSync(sidecar, bytes);
    for (const rule of ['pair', 'text']) {
      const run = simprint(['dedup', next, '--index', index, '--rule', rule]);
      assert.equal(run.status, 1, problem);
      assert.equal(
        run.stderr,
        `simprint: ${sidecar}: ${problem}; restore the ${index} it was saved with, or delete it (then the index's documents are checked at each text's recommended k)\n`,
      );
      // Refused before anything is written.
      assert.ok(readFileSync(sidecar).equals(bytes) && readFileSync(index).equals(indexBytes));
    }
  }
  writeFileSync(sidecar, good);
  assert.equal(simprint(['dedup', next, '--index', index]).status, 0);
});

test('dedup: matches refused for their size, pages of them, never hide an accepted one farther away', () => {
  // Q, then kept before it: texts of Q with a third more words appended (nearer to Q, but
  // pairK 0 for sizes that far apart) and one copy of Q of its size, farther but within its
  // pair k. The copy is Q's original, found past FIRST_PAGE + 4 * FIRST_PAGE refused matches.
  const fp = new Fingerprinter();
  const words = corpus(400, { seed: 5, copies: 0, words: [60, 61], vocabulary: 100_000 }).map((d) =>
    d.text.split(' '),
  );
  const q = words[0].join(' ');
  const [fq, nq] = [fp.fingerprint(q), fp.featureCount(q)];
  const k = pairK(nq, nq);
  const docs = [];
  for (let i = 1; i < words.length && docs.length < 100; i++) {
    const text = `${q} ${words[i].slice(0, 24).join(' ')}`;
    const n = fp.featureCount(text);
    const d = hamming(fq, fp.fingerprint(text));
    if (d < k && d > pairK(nq, n)) docs.push({ id: docs.length, text });
  }
  let copy;
  for (let i = 1; !copy; i++) {
    const w = [...words[0]];
    for (let j = 0; j < 10; j++) w[(j * 7 + i) % w.length] = words[i][j];
    const text = w.join(' ');
    if (hamming(fq, fp.fingerprint(text)) === k && pairK(nq, fp.featureCount(text)) === k)
      copy = text;
  }
  docs.push({ id: docs.length, text: copy });
  assert.ok(
    docs.length - 1 > FIRST_PAGE * 5,
    `matches refused before the copy (${docs.length - 1})`,
  );
  // Kept by the text rule at a tolerance that makes k 0 (all kept), with their counts.
  const index = join(dir, 'refused.idx');
  const first = simprint([
    'dedup',
    file('refused.jsonl', jsonl(docs)),
    '--index',
    index,
    '--rule',
    'text',
    '--tolerance',
    '0.0001',
    '--far',
    '0.0002',
  ]);
  assert.equal(first.status, 0, first.stderr);
  assert.equal(first.stdout, '', 'all kept');
  const want = [{ id: 'q', original: docs.length - 1, distance: k, k }];
  const queried = file('q.jsonl', jsonl([{ id: 'q', text: q }]));
  const run = simprint(['dedup', queried, '--index', index]);
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(lines(run.stdout), want);
  const kept = docs.map(({ id, text }) => ({
    id,
    f: fp.fingerprint(text),
    n: fp.featureCount(text),
  }));
  assert.deepEqual(bruteDedup([{ id: 'q', text: q }], { kept }).duplicates, want);
  fp.free();
});

test('inputs: CSV with quoted line breaks, text files, gzip, JSONL with other fields', () => {
  const fp = new Fingerprinter();
  const csv = file('docs.csv', 'url,body\r\nu1,"first, ""quoted""\nand broken"\r\nu2,second\r\n');
  assert.deepEqual(
    lines(simprint(['fingerprint', csv, '--text-field', 'body', '--id-field', 'url']).stdout).map(
      (d) => [d.id, d.fingerprint],
    ),
    [
      ['u1', toHex(fp.fingerprint('first, "quoted"\nand broken'))],
      ['u2', toHex(fp.fingerprint('second'))],
    ],
  );
  const txt = file('page.txt', 'a page of text\non two lines\n');
  const gz = file('docs.jsonl.gz', gzipSync(jsonl(DOCS.slice(0, 3))));
  const out = lines(simprint(['fingerprint', txt, gz]).stdout);
  assert.deepEqual(
    out.map((d) => d.id),
    [txt, 0, 1, 2],
  );
  assert.equal(out[0].fingerprint, toHex(fp.fingerprint('a page of text\non two lines\n')));
  const crlf = file('crlf.jsonl', '{"text":"one"}\r\n\r\n{"text":"two"}');
  assert.deepEqual(
    lines(simprint(['fingerprint', crlf]).stdout).map((d) => d.id),
    [`${crlf}:1`, `${crlf}:3`],
  );
  fp.free();
});

test('errors name the file, the line and what was wrong; exit 1 (2 for usage)', () => {
  const bad = file('bad.jsonl', '{"text":"fine"}\n{"text": 3}\n');
  const cases = [
    [['dedup', bad], 1, `simprint: ${bad}:2: "text" must be a string, got number\n`],
    [
      ['dedup', join(dir, 'missing.jsonl')],
      1,
      `simprint: ${join(dir, 'missing.jsonl')}: no such file\n`,
    ],
    [
      ['fingerprint', file('bad.csv', 'id,text\n1,"open\n')],
      1,
      `simprint: ${join(dir, 'bad.csv')}:2: a quoted field is not closed by the end of the file\n`,
    ],
    [
      ['fingerprint', file('binary.bin', Buffer.from([0xff, 0xfe, 0x00]))],
      1,
      `simprint: ${join(dir, 'binary.bin')}: not UTF-8 text (a text file is read as one document; give JSONL, CSV or Parquet by their extension, or --format)\n`,
    ],
    [['fingerprint', file('bad.gz', 'not gzip')], 1, /^simprint: .*bad\.gz: /],
    [
      ['dedup', CORPUS, '--tokenizer', 'sentences'],
      2,
      'simprint: unknown tokenizer "sentences": expected "auto", "words" or "chars"\n(simprint --help lists the commands and options)\n',
    ],
    [['dedup', CORPUS, '--tolerance', '2'], 2, /^simprint: tolerance must be a share/],
    [
      ['fingerprint', CORPUS, '--algorithm', 'lsh'],
      2,
      /^simprint: unknown algorithm "lsh": expected "simhash" or "minhash"\n/,
    ],
    [
      ['fingerprint', CORPUS, '--algorithm', 'minhash', '--weighting', 'tf'],
      2,
      /^simprint: weighting "tf" does not apply to algorithm "minhash"/,
    ],
    [['dedup'], 2, /^simprint: simprint dedup needs input files/],
    [
      ['keys', CORPUS],
      1,
      /^simprint: .*corpus\.jsonl:1: expected an object with the fingerprint as hex in "fingerprint" \(fields: id, text\)\n$/,
    ],
  ];
  for (const [args, status, message] of cases) {
    const run = simprint(args);
    assert.equal(run.status, status, `${args.join(' ')}: ${run.stderr}`);
    if (typeof message === 'string') assert.equal(run.stderr, message);
    else assert.match(run.stderr, message);
  }
  // --on-error skip reports the line and goes on.
  const skip = simprint(['fingerprint', bad, '--on-error', 'skip']);
  assert.equal(skip.status, 0);
  assert.equal(skip.stderr, `simprint: skipped ${bad}:2: "text" must be a string, got number\n`);
  assert.equal(lines(skip.stdout).length, 1);
});

test('nothing half-written: a failed run leaves no output file, and an earlier one as it was', () => {
  const bad = file('late-bad.jsonl', `${jsonl(DOCS.slice(0, 1000))}not json\n`);
  const out = join(dir, 'out.jsonl');
  const keep = join(dir, 'keep.jsonl');
  const run = simprint([
    'dedup',
    bad,
    '-o',
    out,
    '--keep',
    keep,
    '--index',
    join(dir, 'failed.idx'),
  ]);
  assert.equal(run.status, 1);
  assert.match(run.stderr, /late-bad\.jsonl:1001: not JSON/);
  assert.ok(
    !existsSync(out) &&
      !existsSync(keep) &&
      !existsSync(join(dir, 'failed.idx')) &&
      !existsSync(join(dir, 'failed.idx.features')),
  );
  writeFileSync(out, 'earlier\n');
  simprint(['dedup', bad, '-o', out]);
  assert.equal(readFileSync(out, 'utf8'), 'earlier\n');
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith('.')),
    [],
    'no temporary files left',
  );
  // A complete run replaces it.
  assert.equal(simprint(['dedup', CORPUS, '-o', out]).status, 0);
  assert.equal(readFileSync(out, 'utf8'), simprint(['dedup', CORPUS]).stdout);
});

test('keys: Plan.keys of each fingerprint, the flip masks, the plan', () => {
  const fps = file(
    'fps.jsonl',
    simprint(['fingerprint', file('some.jsonl', jsonl(DOCS.slice(0, 50)))]).stdout,
  );
  const rows = lines(simprint(['keys', fps, '--k', '9', '--substrings', '4']).stdout);
  const plan = new Plan({ k: 9, substrings: 4 });
  const tables = plan.describe().tables;
  const want = lines(readFileSync(fps, 'utf8')).flatMap(({ id, fingerprint, features }) =>
    plan.keys(fingerprint).map((key, table) => ({
      id,
      fingerprint,
      features,
      table,
      key: toHex(key, tables[table].keyBits),
    })),
  );
  assert.deepEqual(rows, want);
  assert.ok(
    rows.every((r) => Number.isInteger(r.features)),
    'the counts pass through',
  );
  // The pair rule as a table: pairKLimit(d) for d = 0 to pairK(n, n), at the width and
  // tolerance given.
  for (const [args, options] of [
    [[], {}],
    [
      ['--width', '128', '--tolerance', '0.05', '--far', '0.1'],
      { width: 128, tolerance: 0.05, far: 0.1 },
    ],
  ]) {
    const limits = lines(simprint(['keys', '--pair-limits', ...args]).stdout);
    assert.equal(limits.length, pairK(1, 1, options) + 1);
    limits.forEach((row, d) => assert.deepEqual(row, { d, ratio: pairKLimit(d, options) }));
    assert.ok(limits[0].ratio > 1e300 && limits.at(-1).ratio >= 1);
  }
  // The library refusing a plan or a tolerance is a usage error, with its message.
  for (const args of [
    ['--k', '70', '--plan'],
    ['--pair-limits', '--tolerance', '0.3', '--far', '0.2'],
    ['--pair-limits', '--width', '200'],
  ]) {
    const run = simprint(['keys', ...args]);
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(
      run.stderr,
      /^simprint: (k must be between|tolerance must be|width must be between)/,
    );
  }
  const badCount = file(
    'bad-count.jsonl',
    `${JSON.stringify({ id: 1, fingerprint: '00ff', features: -1 })}\n`,
  );
  const refused = simprint(['keys', badCount, '--k', '3']);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /bad-count\.jsonl:1: "features" must be a whole number, got -1/);
  const flips = lines(simprint(['keys', '--k', '9', '--substrings', '4', '--flips']).stdout);
  assert.deepEqual(
    flips,
    plan
      .probeKeysByTable(0n)
      .flatMap((masks, table) =>
        masks.map((m) => ({ table, flip: toHex(m, tables[table].keyBits) })),
      ),
  );
  assert.deepEqual(
    JSON.parse(simprint(['keys', '--k', '9', '--substrings', '4', '--plan']).stdout),
    plan.describe(),
  );
  plan.free();
});

test("calibrate: the library's Fingerprinter.calibrate of the labelled pairs, as one JSON line; errors name the line", () => {
  // Copies edited with the text's own words (every 9th word a near-duplicate, every 3rd not).
  const docs = corpus(12, { seed: 11, copies: 0, words: [80, 160] });
  const pairs = docs.flatMap(({ text }) => {
    const words = text.split(' ');
    const reuse = (every) => words.map((w, i) => (i % every === 0 ? words[1] : w)).join(' ');
    return [
      [text, reuse(9), true],
      [text, reuse(3), false],
    ];
  });
  const path = file(
    'labelled.jsonl',
    `${pairs.map(([a, b, duplicate]) => JSON.stringify({ a, b, duplicate, note: 'kept' })).join('\n')}\n\n`,
  );
  for (const options of [{}, { width: 128 }]) {
    const args = ['calibrate', path, ...(options.width ? ['--width', '128'] : [])];
    const run = simprint(args);
    assert.equal(run.status, 0, run.stderr);
    const fp = new Fingerprinter(options);
    assert.deepEqual(lines(run.stdout), [fp.calibrate(pairs)]);
    fp.free();
  }
  const bad = file(
    'bad.jsonl',
    `${JSON.stringify({ a: 'x', b: 'y', duplicate: true })}\n{"a": "x", "b": 2, "duplicate": false}\n`,
  );
  const failed = simprint(['calibrate', bad]);
  assert.equal(failed.status, 1);
  assert.equal(failed.stderr, `simprint: ${bad}:2: "b" must be a string, got number\n`);
  const oneKind = simprint(
    ['calibrate', '-'],
    `${JSON.stringify({ a: 'x', b: 'x', duplicate: true })}\n`,
  );
  assert.equal(
    oneKind.stderr,
    'simprint: calibration needs pairs of both kinds, got near-duplicates: 1, other pairs: 0\n',
  );
  assert.equal(simprint(['calibrate', path, '--k', '3']).status, 2);
  const csv = file('labelled.csv', 'a,b,duplicate\nx,y,true\n');
  const notJsonl = simprint(['calibrate', csv]);
  assert.equal(notJsonl.status, 1);
  assert.equal(
    notJsonl.stderr,
    `simprint: ${csv}: simprint calibrate reads JSONL lines {"a", "b", "duplicate"}\n`,
  );
});
