// The simprint command (pkg/cli/): its pure parts (arguments, records, CSV, the progress line,
// a document's k) as units, then whole runs of pkg/cli/simprint.mjs on files: outputs against
// the library and brute force, the same output for any number of threads, errors with file
// and line, nothing half-written. tests/js/package.test.mjs runs it as users do, from the
// packed tarball in a scratch project (npx, a terminal, Parquet).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
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
import { PLANNED_DOCUMENTS, documentK, replan } from '../../pkg/cli/dedup.mjs';
import {
  Fingerprinter,
  Index,
  Plan,
  collectionK,
  defaults,
  hamming,
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
    refused(['dedup', '--no-k'], 'unknown option --no-k');
    assert.throws(
      () => merge('fingerprint', { k: 3 }),
      /--k does not apply to simprint fingerprint/,
    );
    assert.throws(() => merge('dedup', { k: 3, maxK: 5 }), /--k and --max-k do not go together/);
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
const DOCS_FOR_REPLAN = [
  'one text about indexes',
  'another text entirely, on cooking',
  'a third about the weather today',
];

// Whole runs.
const DOCS = corpus(1500, { words: [3, 150] });
const CORPUS = file('corpus.jsonl', jsonl(DOCS));

/** What dedup must answer, by brute force over the library's fingerprints and k. */
function bruteDedup(
  docs,
  { expected = 0, indexK = collectionK(Math.max(PLANNED_DOCUMENTS, expected)) } = {},
) {
  const fp = new Fingerprinter();
  const kept = [];
  const out = [];
  for (const { id, text } of docs) {
    const f = fp.fingerprint(text);
    const k = Math.min(
      fp.recommendedK(text),
      collectionK(Math.max(kept.length, expected)) ?? 0,
      indexK,
    );
    let best;
    for (const o of kept) {
      const d = hamming(f, o.f);
      if (d <= k && (!best || d < best.distance)) best = { original: o.id, distance: d };
    }
    if (best) out.push({ id, original: best.original, distance: best.distance, k });
    else kept.push({ id, f });
  }
  fp.free();
  return { duplicates: out, kept: kept.map((k) => k.id) };
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
    })),
  );
  // Options as the library's, from flags or a config file.
  const words = new Fingerprinter({ tokenizer: 'words', n: 2, width: 32 });
  const want = DOCS.slice(0, 5).map(({ id, text }) => ({
    id,
    fingerprint: toHex(words.fingerprint(text), 32),
    k: words.recommendedK(text, { tolerance: 0.2 }),
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
    })),
  );
  quality.free();
  fp.free();
  words.free();
});

test('dedup: exactly the brute-force answer, the same for 1, 2 and 3 threads', () => {
  const want = bruteDedup(DOCS);
  assert.ok(want.duplicates.length > 200, `duplicates to find (${want.duplicates.length})`);
  assert.ok(new Set(want.duplicates.map((d) => d.k)).size > 1, 'documents compared at different k');
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
  // A collection expected to hold a million: every k within collectionK(10^6), and the index
  // planned for it.
  const expected = simprint(['dedup', CORPUS, '--expected', '1000000', '--progress']);
  assert.deepEqual(lines(expected.stdout), bruteDedup(DOCS, { expected: 1_000_000 }).duplicates);
  assert.ok(lines(expected.stdout).every((d) => d.k <= collectionK(1_000_000)));
  assert.match(expected.stderr, new RegExp(`k up to ${collectionK(1_000_000)},`));
  // An index for a larger k (--max-k, not replanned): collectionK still bounds each k.
  const wide = simprint(['dedup', CORPUS, '--expected', '1000000', '--max-k', '20']);
  assert.deepEqual(
    lines(wide.stdout),
    bruteDedup(DOCS, { expected: 1_000_000, indexK: 20 }).duplicates,
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

test('dedup --index: two runs over two halves answer what one run over the whole does', () => {
  const whole = simprint(['dedup', CORPUS]).stdout;
  const index = join(dir, 'resume.idx');
  const first = file('first.jsonl', jsonl(DOCS.slice(0, 700)));
  const second = file('second.jsonl', jsonl(DOCS.slice(700)));
  const a = simprint(['dedup', first, '--index', index]);
  assert.equal(a.status, 0, a.stderr);
  assert.ok(existsSync(index));
  const b = simprint(['dedup', second, '--index', index]);
  assert.equal(b.status, 0, b.stderr);
  assert.equal(a.stdout + b.stdout, whole);
  // The index holds the kept documents of both runs; running a half again is refused by id.
  assert.equal(Index.fromBytes(readFileSync(index)).size, bruteDedup(DOCS).kept.length);
  const again = simprint(['dedup', second, '--index', index]);
  assert.equal(again.status, 1);
  assert.match(
    again.stderr,
    /^simprint: .*second\.jsonl:\d+: the id \d+ is already in the index \(an earlier document's, or one of .*resume\.idx\): ids must be unique\n$/,
  );
  const wider = simprint(['dedup', second, '--index', index, '--max-k', '30']);
  assert.match(wider.stderr, /the index was built for k up to 16, but this run asks 30/);
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
  assert.ok(!existsSync(out) && !existsSync(keep) && !existsSync(join(dir, 'failed.idx')));
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
  const want = lines(readFileSync(fps, 'utf8')).flatMap(({ id, fingerprint }) =>
    plan
      .keys(fingerprint)
      .map((key, table) => ({ id, fingerprint, table, key: toHex(key, tables[table].keyBits) })),
  );
  assert.deepEqual(rows, want);
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
