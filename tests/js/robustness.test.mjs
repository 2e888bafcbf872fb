// Bad, hostile and huge input at the JavaScript boundary. Every exported function and method
// is called with values of every wrong type in every argument position: each call either works
// (where the value is a legitimate one) or throws an Error — never a WebAssembly trap — whose
// message names the argument, and after every failure the module still fingerprints a known
// text to its golden value. Then lone surrogates, strings of 50 MB, getters and proxies that
// throw, and freed objects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import sp, { golden } from './load.mjs';
import { indexBytes } from '../support/index-bytes.mjs';

// initSync returns the instance's exports once initialised: its memory, for measurements.
const wasm = sp.initSync({
  module: readFileSync(new URL('../../pkg/simprint_bg.wasm', import.meta.url)),
});

const KNOWN = golden.vectors.find((v) => v.name === 'english default');
assert.ok(KNOWN, 'the golden file has the english default vector');

/** The module still works and gives the golden fingerprint. */
function stillWorks(context) {
  let hex;
  try {
    hex = sp.toHex(sp.fingerprint(KNOWN.text, KNOWN.options));
  } catch (e) {
    assert.fail(`${context}: the module stopped working: ${e}`);
  }
  assert.equal(hex, KNOWN.hex, `${context}: the module gives a different fingerprint now`);
}

/** Calls `fn`; returns { ok: true, value } or { ok: false, error }, checking the error's kind. */
function attempt(fn, context) {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    assert.ok(error instanceof Error, `${context}: threw a non-Error: ${String(error)}`);
    assert.ok(
      !(error instanceof WebAssembly.RuntimeError),
      `${context}: the wasm trapped: ${error.message}`,
    );
    assert.equal(typeof error.message, 'string');
    assert.ok(error.message.length > 0, `${context}: an empty message`);
    return { ok: false, error };
  }
}

// An array whose element 0 is a getter that throws, and proxies whose every trap throws.
const throwingArray = [];
Object.defineProperty(throwingArray, 0, {
  get() {
    throw new Error('getter says no');
  },
  enumerable: true,
});
const hostileHandler = {};
for (const trap of ['get', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf']) {
  hostileHandler[trap] = () => {
    throw new Error(`proxy trap ${trap} says no`);
  };
}
const hostileObject = new Proxy({}, hostileHandler);
const hostileArray = new Proxy([1n, 2n], hostileHandler);
const { proxy: revoked, revoke } = Proxy.revocable({}, {});
revoke();

// One value of every kind that goes where it should not.
const VALUES = [
  ['undefined', undefined],
  ['null', null],
  ['5', 5],
  ['0', 0],
  ['-1', -1],
  ['1.5', 1.5],
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['-Infinity', -Infinity],
  ['1e300', 1e300],
  ['2^53', 2 ** 53],
  ['2^32 - 1', 2 ** 32 - 1],
  ["'abc'", 'abc'],
  ["'64'", '64'],
  ["''", ''],
  ['5n', 5n],
  ['-1n', -1n],
  ['2n ** 200n', 2n ** 200n],
  ['true', true],
  ['[1, 2]', [1, 2]],
  ['[]', []],
  ['{ a: 1 }', { a: 1 }],
  ['a symbol', Symbol('s')],
  ['a function', () => 1],
  ['a Uint8Array', new Uint8Array([1, 2])],
  ['a BigUint64Array', new BigUint64Array([1n, 2n])],
  ['a Date', new Date(0)],
  ['a Map', new Map([['width', 8]])],
  ['an array with a throwing getter', throwingArray],
  ['a proxy whose traps throw', hostileObject],
  ['an array proxy whose traps throw', hostileArray],
  ['a revoked proxy', revoked],
  ['a sparse array of length 2^32 - 1', new Array(2 ** 32 - 1)],
];

// Which values a kind of argument legitimately takes (everything else must throw). The
// predicates never touch the hostile values, which would throw here too.
const hostile = new Set([hostileObject, hostileArray, revoked, throwingArray]);
const isWhole = (v, lo, hi) => typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
const absent = (v) => v === undefined || v === null;
const plainArray = (v) => !hostile.has(v) && Array.isArray(v);
// An object without own enumerable keys is an empty options object (a Date, a Map).
const emptyObject = (v) =>
  typeof v === 'object' &&
  v !== null &&
  !hostile.has(v) &&
  !Array.isArray(v) &&
  Object.keys(v).length === 0;
const ACCEPTS = {
  text: (v) => typeof v === 'string',
  options: (v) => absent(v) || emptyObject(v),
  width: (v) => absent(v) || isWhole(v, 1, 128),
  positionalWidth: (v) => absent(v) || isWhole(v, 1, 128),
  // recommendedK's and compare's second or third argument: a width, or an options object.
  widthOrOptions: (v) => absent(v) || isWhole(v, 1, 128) || emptyObject(v),
  n: (v) => absent(v) || isWhole(v, 1, 64),
  name: (v) => absent(v), // tokenizer, weighting, normalization: no value here is a valid name
  hex: (v) => typeof v === 'string' && /^(0x)?[0-9a-f]{1,16}$/i.test(v),
  key: (v) => absent(v),
  bool: (v) => absent(v) || typeof v === 'boolean',
  // A fingerprint is a BigInt below 2^width or its hex (toHex's form, for JSON).
  fp64: (v) =>
    (typeof v === 'bigint' && v >= 0n && v < 1n << 64n) ||
    (typeof v === 'string' && /^(0x)?[0-9a-f]{1,16}$/i.test(v)),
  fp128: (v) =>
    (typeof v === 'bigint' && v >= 0n && v < 1n << 128n) ||
    (typeof v === 'string' && /^(0x)?[0-9a-f]{1,32}$/i.test(v)),
  id: (v) => isWhole(v, 0, Number.MAX_SAFE_INTEGER) || (typeof v === 'string' && v.length <= 65535),
  optionalK: (v) => absent(v) || isWhole(v, 0, 64),
  indexK: (v) => absent(v) || isWhole(v, 0, 64),
  k: (v) => isWhole(v, 0, 64),
  limit: (v) => absent(v) || isWhole(v, 0, Number.MAX_SAFE_INTEGER),
  blocks: (v) => absent(v) || v === 5, // k = 3 at 64 bits: 4 to 64 blocks, at most 256 tables
  texts: (v) => plainArray(v) && v.length === 0,
  pairs: (v) => plainArray(v) && v.length === 0,
  ids: (v) =>
    plainArray(v) && v.length === 2 && v.every((x) => isWhole(x, 0, Number.MAX_SAFE_INTEGER)),
  fps: (v) => !hostile.has(v) && v instanceof BigUint64Array,
  scanFps: (v) =>
    !hostile.has(v) && (v instanceof BigUint64Array || (Array.isArray(v) && v.length === 0)),
  fpArray: (v) => !hostile.has(v) && v instanceof BigUint64Array,
  chunk: (v) => typeof v === 'string' || (!hostile.has(v) && v instanceof Uint8Array),
  bytes: () => false, // no value here is a valid index buffer
  weight: (v) => typeof v === 'number' && Number.isFinite(v),
  weights: (v) => absent(v), // for one feature: no value here is a list of one number
  weighting: (v) => absent(v),
};
// The word an error about each kind of argument must contain (else given per call).
const NAMES = {
  text: /\btext\b/,
  options: /\boptions\b/,
  width: /\bwidth\b/,
  positionalWidth: /\bwidth\b/,
  widthOrOptions: /\b(width|options)\b/,
  id: /\bid\b/,
  optionalK: /\bk\b/,
  k: /\bk\b/,
  indexK: /\bk\b/,
  limit: /\blimit\b/,
  blocks: /\bblocks\b/,
  texts: /\btexts\b/,
  ids: /\bids?\b/,
  fps: /\bfingerprints\b/,
  scanFps: /\bfingerprints\b/,
  fpArray: /\bfingerprints\b/,
  chunk: /\bchunk\b/,
  bytes: /\bbytes\b/,
  weight: /\bweight\b/,
  weights: /\bweights\b/,
  weighting: /\bweighting\b/,
  key: /\bkey\b/,
  hex: /\bhex\b/,
};

const fp64 = sp.fingerprint('a b c');
const index = new sp.Index({ k: 3 }); // only read below
index.insert(1, fp64);
const scratch = new sp.Index({ k: 3 }); // inserted into and removed from
const fingerprinter = new sp.Fingerprinter();
const df = new sp.DocumentFrequencies();
df.add('a b c');

// [name, kind of the argument, call with the value in that position, the word the error names]
const CALLS = [
  ['fingerprint(text)', 'text', (v) => sp.fingerprint(v)],
  ['fingerprint(text, options)', 'options', (v) => sp.fingerprint('abc', v)],
  ['fingerprint(text, {width})', 'width', (v) => sp.fingerprint('abc', { width: v })],
  [
    'fingerprint(text, {tokenizer})',
    'name',
    (v) => sp.fingerprint('abc', { tokenizer: v }),
    /\btokenizer\b/,
  ],
  [
    'fingerprint(text, {tokenizer: "words", n})',
    'n',
    (v) => sp.fingerprint('abc', { tokenizer: 'words', n: v }),
    /\bn\b/,
  ],
  ['fingerprint(text, {wordN})', 'n', (v) => sp.fingerprint('abc', { wordN: v }), /\bwordN\b/],
  ['fingerprint(text, {charN})', 'n', (v) => sp.fingerprint('abc', { charN: v }), /\bcharN\b/],
  [
    'fingerprint(text, {normalization})',
    'name',
    (v) => sp.fingerprint('abc', { normalization: v }),
    /\bnormalization\b/,
  ],
  [
    'fingerprint(text, {caseFold})',
    'bool',
    (v) => sp.fingerprint('abc', { caseFold: v }),
    /\bcaseFold\b/,
  ],
  [
    'fingerprint(text, {weighting})',
    'name',
    (v) => sp.fingerprint('abc', { weighting: v }),
    /\bweighting\b/,
  ],
  ['fingerprint(text, {key})', 'key', (v) => sp.fingerprint('abc', { key: v })],
  ['explain(text)', 'text', (v) => sp.explain(v)],
  ['explain(text, options)', 'options', (v) => sp.explain('abc', v)],
  ['recommendedK(text)', 'text', (v) => sp.recommendedK(v)],
  ['recommendedK(text, width)', 'widthOrOptions', (v) => sp.recommendedK('abc', v)],
  ['recommendedK(text, {width})', 'width', (v) => sp.recommendedK('abc', { width: v })],
  [
    'Fingerprinter.recommendedK(text, options)',
    'options',
    (v) => fingerprinter.recommendedK('abc', v),
  ],
  ['fingerprintFeatures(features)', 'pairs', (v) => sp.fingerprintFeatures(v), /\bfeatures\b/],
  [
    'fingerprintFeatures([[feature, 1]])',
    'text',
    (v) => sp.fingerprintFeatures([[v, 1]]),
    /\bfeatures\b/,
  ],
  ['fingerprintFeatures([["a", weight]])', 'weight', (v) => sp.fingerprintFeatures([['a', v]])],
  [
    'fingerprintFeatures(features, options)',
    'options',
    (v) => sp.fingerprintFeatures([['a', 1]], v),
  ],
  [
    'fingerprintFeatures(features, {width})',
    'width',
    (v) => sp.fingerprintFeatures([['a', 1]], { width: v }),
  ],
  ['explainFeatures(features)', 'pairs', (v) => sp.explainFeatures(v), /\bfeatures\b/],
  [
    'fingerprintFeatures(["a", feature])',
    'text',
    (v) => sp.fingerprintFeatures(['a', v]),
    /\bfeatures\b/,
  ],
  [
    'fingerprintFeatures([feature], {weights})',
    'text',
    (v) => sp.fingerprintFeatures([v], { weights: [1] }),
    /\bfeatures\b/,
  ],
  [
    'fingerprintFeatures(["a"], {weights})',
    'weights',
    (v) => sp.fingerprintFeatures(['a'], { weights: v }),
  ],
  [
    'fingerprintFeatures(["a"], {weights: [weight]})',
    'weight',
    (v) => sp.fingerprintFeatures(['a'], { weights: [v] }),
    /\bweights\b/,
  ],
  [
    'explainFeatures(["a"], {weights})',
    'weights',
    (v) => sp.explainFeatures(['a'], { weights: v }),
  ],
  ['fingerprintHashes(hashes)', 'pairs', (v) => sp.fingerprintHashes(v), /\bhashes\b/],
  ['fingerprintHashes([[hash, 1]])', 'fp64', (v) => sp.fingerprintHashes([[v, 1]]), /\bhashes\b/],
  [
    'fingerprintHashes(hashes, width)',
    'positionalWidth',
    (v) => sp.fingerprintHashes([[1n, 1]], v),
  ],
  ['explainHashes(hashes, width)', 'positionalWidth', (v) => sp.explainHashes([[1n, 1]], v)],
  ['fragilityOfHashes(hashes)', 'pairs', (v) => sp.fragilityOfHashes(v), /\bhashes\b/],
  [
    'fragilityOfHashes(hashes, width)',
    'positionalWidth',
    (v) => sp.fragilityOfHashes([[1n, 1]], v),
  ],
  ['hamming(a, b)', 'fp128', (v) => sp.hamming(v, 1n), /\ba\b/],
  ['hamming(a, b) second', 'fp128', (v) => sp.hamming(1n, v), /\bb\b/],
  ['compare(a, b)', 'fp64', (v) => sp.compare(v, 1n), /\ba\b/],
  ['compare(a, b, width)', 'widthOrOptions', (v) => sp.compare(1n, 1n, v)],
  ['compare(a, b, {k})', 'optionalK', (v) => sp.compare(1n, 1n, { k: v })],
  ['toHex(fp)', 'fp64', (v) => sp.toHex(v), /\bfingerprint\b/],
  ['toHex(fp, width)', 'positionalWidth', (v) => sp.toHex(1n, v)],
  ['fromHex(hex)', 'hex', (v) => sp.fromHex(v)],
  ['fromHex(hex, width)', 'positionalWidth', (v) => sp.fromHex('1', v)],
  ['scan(fp, fps, k)', 'fp64', (v) => sp.scan(v, new BigUint64Array([1n]), 3), /\bfingerprint\b/],
  ['scan(fp, fps, k) fps', 'scanFps', (v) => sp.scan(1n, v, 3)],
  ['scan(fp, fps, k) k', 'k', (v) => sp.scan(1n, new BigUint64Array([1n]), v)],
  [
    'scan(fp, fps, k, width)',
    'positionalWidth',
    (v) => sp.scan(1n, new BigUint64Array([1n]), 1, v),
  ],
  [
    'distances(fp, fps)',
    'fp64',
    (v) => sp.distances(v, new BigUint64Array([1n])),
    /\bfingerprint\b/,
  ],
  ['distances(fp, fps) fps', 'fpArray', (v) => sp.distances(1n, v)],
  ['new Fingerprinter(options)', 'options', (v) => new sp.Fingerprinter(v)],
  ['Fingerprinter.fingerprint(text)', 'text', (v) => fingerprinter.fingerprint(v)],
  ['Fingerprinter.explain(text)', 'text', (v) => fingerprinter.explain(v)],
  ['Fingerprinter.fragility(text)', 'text', (v) => fingerprinter.fragility(v)],
  ['Fingerprinter.fingerprintMany(texts)', 'texts', (v) => fingerprinter.fingerprintMany(v)],
  [
    'Fingerprinter.fingerprintMany([text])',
    'text',
    (v) => fingerprinter.fingerprintMany(['a', v]),
    /\btexts\b/,
  ],
  [
    'Fingerprinter.fingerprintFeatures(features)',
    'pairs',
    (v) => fingerprinter.fingerprintFeatures(v),
    /\bfeatures\b/,
  ],
  [
    'Fingerprinter.fingerprintFeatures(features, options)',
    'options',
    (v) => fingerprinter.fingerprintFeatures(['a'], v),
  ],
  [
    'Fingerprinter.fingerprintFeatures(["a"], {weights})',
    'weights',
    (v) => fingerprinter.fingerprintFeatures(['a'], { weights: v }),
  ],
  [
    'Fingerprinter.explainFeatures(features)',
    'pairs',
    (v) => fingerprinter.explainFeatures(v),
    /\bfeatures\b/,
  ],
  ['FingerprintStream.update(chunk)', 'chunk', (v) => fingerprinter.stream().update(v)],
  ['new Accumulator(width)', 'positionalWidth', (v) => new sp.Accumulator(v)],
  ['Accumulator.add(hash, 1)', 'fp64', (v) => new sp.Accumulator(64).add(v, 1), /\bhash\b/],
  ['Accumulator.add(1n, weight)', 'weight', (v) => new sp.Accumulator(64).add(1n, v)],
  ['new DocumentFrequencies(options)', 'options', (v) => new sp.DocumentFrequencies(v)],
  ['DocumentFrequencies.add(text)', 'text', (v) => df.add(v)],
  ['DocumentFrequencies.frequency(feature)', 'text', (v) => df.frequency(v), /\bfeature\b/],
  ['DocumentFrequencies.idf(feature)', 'text', (v) => df.idf(v), /\bfeature\b/],
  ['DocumentFrequencies.fingerprinter(weighting)', 'weighting', (v) => df.fingerprinter(v)],
  ['new Index(options)', 'options', (v) => new sp.Index(v)],
  ['new Index({width})', 'width', (v) => new sp.Index({ width: v })],
  ['new Index({k})', 'indexK', (v) => new sp.Index({ k: v })],
  ['new Index({blocks})', 'blocks', (v) => new sp.Index({ k: 3, blocks: v })],
  ['new Index({scan})', 'bool', (v) => new sp.Index({ scan: v }), /\bscan\b/],
  ['Index.insert(id, fp)', 'id', (v) => scratch.insert(v, fp64)],
  ['Index.insert(id, fp) fp', 'fp64', (v) => scratch.insert(2, v), /\bfingerprint\b/],
  [
    'Index.insertMany(ids, fps)',
    'ids',
    (v) => scratch.insertMany(v, new BigUint64Array([fp64, fp64])),
  ],
  ['Index.insertMany(ids, fps) fps', 'fps', (v) => scratch.insertMany([2, 3], v)],
  ['Index.remove(id)', 'id', (v) => scratch.remove(v)],
  ['Index.get(id)', 'id', (v) => index.get(v)],
  ['Index.has(id)', 'id', (v) => index.has(v)],
  ['Index.query(fp)', 'fp64', (v) => index.query(v), /\bfingerprint\b/],
  ['Index.query(fp, k)', 'optionalK', (v) => index.query(fp64, v)],
  ['Index.query(fp, k, limit)', 'limit', (v) => index.query(fp64, 3, v)],
  ['Index.query(fp, undefined, limit)', 'limit', (v) => index.query(fp64, undefined, v)],
  ['Index.explainQuery(fp, k)', 'optionalK', (v) => index.explainQuery(fp64, v)],
  ['Index.pairs(k)', 'optionalK', (v) => index.pairs(v)],
  ['Index.clusters(k)', 'optionalK', (v) => index.clusters(v)],
  ['Index.fromBytes(bytes)', 'bytes', (v) => sp.Index.fromBytes(v)],
];

for (const [name, kind, call, named] of CALLS) {
  test(`wrong types: ${name}`, () => {
    const accepts = ACCEPTS[kind];
    const word = named ?? NAMES[kind];
    assert.ok(accepts, `no acceptance rule for ${kind}`);
    assert.ok(word, `no argument name for ${name}`);
    let threw = 0;
    for (const [label, value] of VALUES) {
      const context = `${name} with ${label}`;
      const got = attempt(() => call(value), context);
      if (accepts(value)) {
        assert.ok(got.ok, `${context}: should work but threw: ${got.error?.message}`);
      } else {
        assert.ok(!got.ok, `${context}: should throw but returned ${String(got.value)}`);
        assert.match(got.error.message, word, `${context}: the message does not name the argument`);
        threw++;
      }
      stillWorks(context);
    }
    assert.ok(threw > 0);
    // The objects used above still work too.
    assert.deepEqual(index.query(fp64), [{ id: 1, distance: 0 }]);
    assert.equal(fingerprinter.fingerprint(KNOWN.text), BigInt(`0x${KNOWN.hex}`));
  });
}

test('the error names the argument and says what was wrong', () => {
  const cases = [
    [() => sp.fingerprint('x', { width: '64' }), 'width must be a number, got string'],
    [() => sp.fingerprint('x', { caseFold: 'yes' }), 'caseFold must be true or false, got string'],
    [() => sp.fingerprint('x', { key: 5 }), 'key must be a string, got number'],
    [
      () => sp.fingerprint('x', hostileObject),
      'options could not be read: proxy trap ownKeys says no',
    ],
    [() => new sp.Index({ k: 2000 }), 'k must be between 0 and the width (64), got 2000'],
    [() => new sp.Index({ k: -1 }), 'k must be a whole number, got -1'],
    [() => index.insert(1.5, 1n), 'id must be a whole number from 0 to 2^53 - 1, got 1.5'],
    [
      () => index.insertMany([1, 2.5], [1n, 2n]),
      'ids[1] must be a whole number from 0 to 2^53 - 1, got 2.5',
    ],
    [
      () => index.query(1n, 2 ** 53),
      'k must be a whole number no larger than 4294967295, got 9007199254740992',
    ],
    [() => df.idf(5), 'feature must be a string, got number'],
    [() => index.query(1n, Infinity), 'k must be a whole number, got Infinity'],
    [() => index.query(1n, 3, -1), 'limit must be a whole number from 0 to 2^53 - 1, got -1'],
    [
      () => index.query(1n, 3, 1e300),
      'limit must be a whole number from 0 to 2^53 - 1, got 1e+300',
    ],
    [() => index.query(1n, null, 'all'), 'limit must be a number, got string'],
    [
      () => fingerprinter.fingerprintMany(throwingArray),
      'texts[0] could not be read: getter says no',
    ],
    [
      () => fingerprinter.fingerprintMany(new Array(2 ** 32 - 1)),
      'texts[0] must be a string, got undefined',
    ],
    [
      () => sp.fingerprintFeatures([['a', 1], hostileArray]),
      'features[1] could not be read: proxy trap get says no',
    ],
    [
      () => sp.fingerprintFeatures(hostileArray),
      'features could not be read: proxy trap get says no',
    ],
    [() => sp.fingerprintFeatures(throwingArray), 'features[0] could not be read: getter says no'],
    [
      () => sp.fingerprintFeatures(['a', hostileArray]),
      'features[1] must be a string like features[0], got an array',
    ],
    [
      () => sp.fingerprintFeatures(['a', 5n]),
      'features[1] must be a string like features[0], got bigint',
    ],
    [
      () => sp.fingerprintFeatures([5], { weights: [1] }),
      'features[0] must be a string (weights go with an array of strings), got number',
    ],
    [
      () => sp.fingerprintFeatures(5, { weights: [1] }),
      'features must be an array of strings (with weights), got number',
    ],
    [
      () => sp.fingerprintFeatures(['a'], { weights: throwingArray }),
      'weights[0] could not be read: getter says no',
    ],
    [
      () => sp.fingerprintFeatures(['a'], { weights: hostileArray }),
      'weights could not be read: proxy trap get says no',
    ],
    [
      () => sp.fingerprintFeatures(['a'], { weights: hostileObject }),
      'weights must be a Float64Array or an array of numbers, got object',
    ],
    [
      () => sp.fingerprintFeatures(['a'], { weights: new Array(2 ** 32 - 1) }),
      'weights must hold one weight per feature: 4294967295 for 1 features',
    ],
    [
      () => sp.fingerprintFeatures(['a', 'b'], { weights: [1, undefined] }),
      'weights[1] must be a finite number, got undefined',
    ],
    [
      () => sp.fingerprintFeatures(['a', 'b'], { weights: new Float64Array([0, NaN]) }),
      'weights[1] must be a finite number, got NaN',
    ],
    [
      () => fingerprinter.explainFeatures(['a'], { key: '' }),
      'options: unknown field `key`, expected one of weights',
    ],
    [
      () => sp.scan(1n, [1n], 2 ** 32 - 1),
      'k must be between 0 and the width (64), got 4294967295',
    ],
  ];
  for (const [call, message] of cases) {
    assert.throws(
      call,
      (e) =>
        e instanceof Error && !(e instanceof WebAssembly.RuntimeError) && e.message === message,
      message,
    );
    stillWorks(message);
  }
});

test('thousands of failures in a row leave the instance working (no leak per thrown error)', () => {
  // An exception unwinding through wasm frames (a throwing getter read without `catch`) leaked
  // the shadow stack: about 1,300 of them and every later call trapped. Each of these is read
  // through a catching import now, and errors are returned, not thrown through wasm.
  const proxiedFingerprints = new Proxy(new BigUint64Array([1n]), {});
  for (let i = 0; i < 20000; i++) {
    assert.throws(() => sp.fingerprint('x', hostileObject), /options could not be read/);
    assert.throws(
      () => fingerprinter.fingerprintMany(throwingArray),
      /texts\[0\] could not be read/,
    );
    assert.throws(() => sp.fingerprint(5), /text must be a string/);
    assert.throws(() => index.insert(-1, 1n), /id must be a whole number/);
    // The features' JS side throws (a getter) and the bindings read again to name it.
    assert.throws(() => sp.fingerprintFeatures(throwingArray), /features\[0\] could not be read/);
    assert.throws(
      () => sp.fingerprintFeatures(['a'], { weights: throwingArray }),
      /weights\[0\] could not be read/,
    );
    // A typed array behind a proxy: its own getters throw when called on the proxy.
    assert.throws(
      () => sp.scan(1n, proxiedFingerprints, 3),
      /fingerprints must be a BigUint64Array/,
    );
  }
  stillWorks('after 140,000 errors');
});

// Typed arrays that are not what they seem. A proxy of one passes `instanceof` but throws from
// every getter the array's own methods use; a subclass can make `length` or `subarray` lie; a
// detached one reads as empty; one from another realm fails `instanceof` though it is genuine.
// Reading any of them must give the right values or an Error naming the argument — never an
// exception through wasm, which left the `&mut self` of the object called borrowed for good
// ("recursive use of an object detected").

/** Variants of the genuine typed array `a`: [label, value, whether it is genuine, the error]. */
function disguises(a) {
  const Type = a.constructor;
  const values = Array.from(a);
  const copy = () => Type.from(values);
  class Lying extends Type {
    get length() {
      return 1e9;
    }
  }
  class Rewired extends Type {
    static get [Symbol.species]() {
      throw new Error('species says no');
    }
    get length() {
      throw new Error('length says no');
    }
    get buffer() {
      throw new Error('buffer says no');
    }
    get byteOffset() {
      return 8;
    }
    get byteLength() {
      return 1e9;
    }
    get [Symbol.toStringTag]() {
      throw new Error('toStringTag says no');
    }
    subarray() {
      throw new Error('subarray says no');
    }
    slice() {
      throw new Error('slice says no');
    }
    set() {
      throw new Error('set says no');
    }
    [Symbol.iterator]() {
      throw new Error('iterator says no');
    }
  }
  // Filled through the intrinsic set: the subclass's own would throw.
  const subclass = (Sub) => {
    const s = new Sub(values.length);
    Type.prototype.set.call(s, a);
    return s;
  };
  const detached = copy();
  structuredClone(detached.buffer, { transfer: [detached.buffer] });
  const resizable = new ArrayBuffer(a.byteLength + 16, { maxByteLength: a.byteLength + 16 });
  const outOfBounds = new Type(resizable, 8, values.length);
  resizable.resize(0);
  // The same elements in the middle of a larger buffer (a non-zero byteOffset).
  const padded = new Type(values.length + 2);
  padded.set(a, 1);
  const shared = new Type(new SharedArrayBuffer(a.byteLength));
  shared.set(a);
  const foreign = runInNewContext(`${Type.name}.from(values)`, { values });
  assert.ok(!(foreign instanceof Type));
  return [
    ['a proxy of it', new Proxy(copy(), {}), false, /must be .*, got object$/],
    [
      'a proxy of it whose traps throw',
      new Proxy(copy(), hostileHandler),
      false,
      /must be .*, got object$/,
    ],
    [
      'an object with its prototype',
      Object.setPrototypeOf({}, Type.prototype),
      false,
      /must be .*, got object$/,
    ],
    ['a detached one', detached, false, /could not be read: its ArrayBuffer is detached/],
    [
      'one out of bounds of a shrunk buffer',
      outOfBounds,
      false,
      /could not be read: its ArrayBuffer is detached or no longer holds it/,
    ],
    ['a subclass whose length says 1e9', subclass(Lying), true],
    ['a subclass whose methods and getters throw or lie', subclass(Rewired), true],
    ['a view into the middle of a larger buffer', padded.subarray(1, values.length + 1), true],
    ['one over a SharedArrayBuffer', shared, true],
    ['one from another realm (node:vm)', foreign, true],
  ];
}

test('typed arrays that are proxies, subclasses, detached or from another realm', () => {
  const fingerprints = new BigUint64Array([1n, 0xf0n, 0xffffn]);
  const saved = (() => {
    const i = new sp.Index({ k: 3 });
    i.insertMany([7, 8], fingerprints.subarray(0, 2));
    const bytes = i.toBytes();
    i.free();
    return bytes;
  })();
  const text = new TextEncoder().encode('the quick brown fox ');
  /** A fresh Index: `call` inserts `ids` and `fps` into it, `works` uses it afterwards. */
  const inserting = (options, ids, fps, read) => () => {
    const idx = new sp.Index(options);
    return {
      call: (v) => {
        idx.insertMany(ids ?? v, fps ?? v);
        return read(idx);
      },
      works: () => {
        idx.insert(1, 1n);
        assert.ok(idx.size >= 1);
        idx.free();
      },
    };
  };
  const free = (call) => () => ({ call, works: () => {} });
  // [argument, a genuine value, the word its errors name, a fresh { call, works } for it]
  const positions = [
    [
      'Index.insertMany ids (Float64Array)',
      new Float64Array([5, 6]),
      /\bids\b/,
      inserting({}, null, fingerprints.subarray(0, 2), (idx) => idx.ids()),
    ],
    [
      'Index.insertMany ids (Uint32Array)',
      new Uint32Array([5, 6]),
      /\bids\b/,
      inserting({}, null, fingerprints.subarray(0, 2), (idx) => idx.ids()),
    ],
    [
      'Index.insertMany fingerprints',
      fingerprints,
      /\bfingerprints\b/,
      inserting({}, [4, 5, 6], null, (idx) => [4, 5, 6].map((id) => idx.get(id))),
    ],
    [
      'Index.insertMany fingerprints (128 bits)',
      new BigUint64Array([1n, 2n, 3n, 4n]),
      /\bfingerprints\b/,
      inserting({ width: 128 }, [4, 5], null, (idx) => [idx.get(4), idx.get(5)]),
    ],
    [
      'Index.fromBytes bytes',
      saved,
      /\bbytes\b/,
      free((v) => {
        const i = sp.Index.fromBytes(v);
        const got = [i.ids(), i.get(7), i.get(8)];
        i.free();
        return got;
      }),
    ],
    ['scan fingerprints', fingerprints, /\bfingerprints\b/, free((v) => sp.scan(0n, v, 4))],
    [
      'scan fingerprints (width 16)',
      fingerprints,
      /\bfingerprints\b/,
      free((v) => sp.scan(0n, v, 4, 16)),
    ],
    [
      'scan fingerprints (128 bits)',
      new BigUint64Array([0n, 1n, 0n, 3n]),
      /\bfingerprints\b/,
      free((v) => sp.scan(0n, v, 1, 128)),
    ],
    [
      'distances fingerprints',
      fingerprints,
      /\bfingerprints\b/,
      free((v) => [...sp.distances(0n, v)]),
    ],
    [
      'FingerprintStream.update chunk',
      text,
      /\bchunk\b/,
      () => {
        const stream = fingerprinter.stream();
        return {
          call: (v) => {
            stream.update(v);
            return stream.bytes;
          },
          works: () => {
            stream.update('jumps');
            assert.ok(typeof stream.finish() === 'bigint');
          },
        };
      },
    ],
    [
      'fingerprintFeatures weights',
      new Float64Array([0.5, 2]),
      /\bweights\b/,
      free((v) => sp.fingerprintFeatures(['a', 'b'], { weights: v })),
    ],
    [
      'Fingerprinter.explainFeatures weights',
      new Float64Array([0.5, 2]),
      /\bweights\b/,
      () => {
        const f = new sp.Fingerprinter();
        return {
          call: (v) => f.explainFeatures(['a', 'b'], { weights: v }).fingerprint,
          works: () => {
            assert.equal(f.fingerprint(KNOWN.text), BigInt(`0x${KNOWN.hex}`));
            f.free();
          },
        };
      },
    ],
  ];
  const failures = [];
  for (const [name, genuine, word, setup] of positions) {
    const first = setup();
    const want = first.call(genuine);
    first.works();
    for (const [label, value, accepted, message] of disguises(genuine)) {
      const context = `${name} as ${label}`;
      const { call, works } = setup();
      try {
        const got = attempt(() => call(value), context);
        if (accepted) {
          assert.ok(got.ok, `${context}: should work but threw: ${got.error?.message}`);
          assert.deepEqual(got.value, want, `${context}: read differently`);
        } else {
          assert.ok(!got.ok, `${context}: should throw but returned ${String(got.value)}`);
          assert.match(
            got.error.message,
            word,
            `${context}: the message does not name the argument: ${got.error.message}`,
          );
          assert.match(got.error.message, message, context);
        }
      } catch (e) {
        failures.push(e.message.split('\n')[0]);
      }
      try {
        works();
        stillWorks(context);
      } catch (e) {
        failures.push(`${context}: afterwards: ${e.message.split('\n')[0]}`);
      }
    }
  }
  assert.equal(failures.length, 0, `${failures.length} failures:\n${failures.join('\n')}`);
});

test("typed arrays in the module's own memory are read before it grows, or throw a clear Error", () => {
  // A view of wasm.memory.buffer is detached whenever the module grows its memory, which a
  // call may do before it reads its arguments (then: an Error naming the argument) or while
  // copying them (so the bindings copy such a view out first). Never wrong values, never a trap.
  const pages = 10;
  const at = wasm.memory.grow(pages) * 65536; // pages the module's allocator never hands out
  const own = (Type, values) => {
    const a = new Type(wasm.memory.buffer, at, values.length);
    a.set(values);
    return a;
  };
  const many = Array.from({ length: 70000 }, (_, i) => BigInt(i)); // more than one 512 KB step
  const cases = [
    [
      'scan',
      /\bfingerprints\b/,
      () => sp.scan(0n, own(BigUint64Array, [1n, 2n, 3n]), 1),
      [
        { index: 0, distance: 1 },
        { index: 1, distance: 1 },
      ],
    ],
    [
      'scan in steps',
      /\bfingerprints\b/,
      () => sp.scan(69999n, own(BigUint64Array, many), 0).length,
      1,
    ],
    [
      'distances',
      /\bfingerprints\b/,
      () => [...sp.distances(0n, own(BigUint64Array, [1n, 2n, 3n]))],
      [1, 1, 2],
    ],
    [
      'insertMany',
      /\bids\b/,
      () => {
        const idx = new sp.Index();
        try {
          idx.insertMany(own(Float64Array, [1, 2]), [1n, 2n]);
          return idx.ids();
        } finally {
          idx.free();
        }
      },
      [1, 2],
    ],
    [
      'stream update',
      /\bchunk\b/,
      () => {
        const stream = fingerprinter.stream();
        stream.update(own(Uint8Array, [...new TextEncoder().encode('a b')]));
        return stream.finish();
      },
      sp.fingerprint('a b'),
    ],
  ];
  for (const [name, word, call, want] of cases) {
    let worked = 0;
    for (let round = 0; round < 3; round++) {
      const got = attempt(call, name);
      if (got.ok) {
        assert.deepEqual(got.value, want, name);
        worked++;
      } else {
        assert.match(got.error.message, word, `${name}: ${got.error.message}`);
      }
      stillWorks(name);
    }
    assert.ok(worked > 0, `${name}: never read`);
  }
});

test('a freed object throws a clear Error, and the module keeps working', () => {
  const fp = new sp.Fingerprinter();
  fp.free();
  const idx = new sp.Index();
  idx.free();
  // Checked before wasm is entered (pkg/simprint.js), so a loop of them costs nothing; see
  // limits.test.mjs for every method of every class.
  for (let i = 0; i < 1000; i++) {
    assert.throws(
      () => fp.fingerprint('x'),
      (e) =>
        e instanceof Error &&
        /Fingerprinter\.fingerprint: this Fingerprinter was freed/.test(e.message),
    );
    assert.throws(
      () => idx.insert(1, 1n),
      (e) => e instanceof Error && /Index\.insert: this Index was freed/.test(e.message),
    );
  }
  stillWorks('after calls on freed objects');
});

test('lone surrogates read as U+FFFD, everywhere a string goes in', () => {
  const lone = ['\ud800', '\udfff', 'a\ud83db c', '\ude00\ud83d', 'x\ud800\ud800y'];
  for (const s of lone) {
    const replaced = s.replace(/[\ud800-\udfff]/g, (c, i) => {
      const code = s.charCodeAt(i);
      const pair =
        code <= 0xdbff
          ? s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff
          : s.charCodeAt(i - 1) >= 0xd800 && s.charCodeAt(i - 1) <= 0xdbff;
      return pair ? c : '\ufffd';
    });
    assert.equal(s.isWellFormed(), false);
    assert.equal(replaced.toWellFormed(), s.toWellFormed());
    for (const options of [{}, { tokenizer: 'chars', n: 1 }, { width: 128, caseFold: false }]) {
      assert.equal(
        sp.fingerprint(s, options),
        sp.fingerprint(s.toWellFormed(), options),
        `${JSON.stringify(s)}`,
      );
      assert.equal(sp.explain(s, options).fingerprint, sp.fingerprint(s, options));
    }
    const stream = fingerprinter.stream();
    stream.update(s);
    assert.equal(stream.finish(), sp.fingerprint(s.toWellFormed()));
    assert.deepEqual([...fingerprinter.fingerprintMany([s])], [sp.fingerprint(s.toWellFormed())]);
    assert.equal(sp.fingerprintFeatures([[s, 1]]), sp.fingerprintFeatures([[s.toWellFormed(), 1]]));
    // Exactly per feature: two copies side by side may pair a high surrogate ending one with a
    // low one starting the other, but each still reads as its own U+FFFD.
    const well = s.toWellFormed();
    assert.equal(
      sp.fingerprintFeatures([s, s]),
      sp.fingerprintFeatures([
        [well, 1],
        [well, 1],
      ]),
    );
    assert.equal(
      sp.fingerprintFeatures([s, '', s], { weights: [2, 1, -1] }),
      sp.fingerprintFeatures([
        [well, 2],
        ['', 1],
        [well, -1],
      ]),
    );
    assert.equal(sp.recommendedK(s), sp.recommendedK(s.toWellFormed()));
    df.add(s);
  }
  // A surrogate pair split across two stream updates is two lone surrogates (as documented:
  // string chunks must not split a pair; Uint8Array chunks may split anywhere).
  const s = fingerprinter.stream();
  s.update('smile \ud83d');
  s.update('\ude00 now');
  assert.equal(s.finish(), sp.fingerprint('smile \ufffd\ufffd now'));
  assert.throws(() => sp.fromHex('\ud800'), /malformed hex/);
  assert.throws(() => sp.fingerprint('x', { key: '\ud800'.repeat(32) }), /invalid key/);
  assert.throws(
    () => sp.fingerprint('x', { tokenizer: '\ud800' }),
    /unknown tokenizer "\u{fffd}"/u,
  );
  stillWorks('lone surrogates');
});

test('50 MB strings: one shot, in one stream update, in 64 KB chunks; wasm memory stays bounded', (t) => {
  const MB = 1 << 20;
  const memoryBefore = wasm.memory.buffer.byteLength;
  // Binary weights: a text repeated gives the features of two copies.
  const paragraph =
    'The Quick brown fox jumps over the LAZY dog, again and again. 敏捷的棕色狐狸跳过了懒狗。 ';
  const big = paragraph.repeat(Math.ceil((50 * MB) / paragraph.length));
  assert.ok(big.length >= 50 * MB);
  const cases = [
    ['repeated paragraph', big, sp.fingerprint(paragraph.repeat(2))],
    // One 50 MB "word" and one 50 MB CJK run: no place to cut, so a stream buffers it all;
    // each update must still cost only its own bytes (it re-scanned the buffer: quadratic).
    ['one word', 'x'.repeat(50 * MB), null], // its fingerprint is the word's hash, below
    ['one CJK run', '中文'.repeat(25 * MB), sp.fingerprint('中文中文')],
  ];
  cases[1][2] = sp.fingerprintFeatures([[cases[1][1], 1]]);
  assert.equal(sp.fingerprintFeatures([cases[1][1]]), cases[1][2]);
  for (const [name, text, want] of cases) {
    let t0 = performance.now();
    assert.equal(sp.fingerprint(text), want, name);
    const oneShot = performance.now() - t0;
    t0 = performance.now();
    const whole = fingerprinter.stream();
    whole.update(text);
    assert.equal(whole.finish(), want, `${name}: one update`);
    const chunked = fingerprinter.stream();
    for (let i = 0; i < text.length; i += 65536) chunked.update(text.slice(i, i + 65536));
    assert.equal(chunked.finish(), want, `${name}: 64 KB chunks`);
    const streamed = performance.now() - t0;
    t.diagnostic(
      `${name} (${(text.length / MB).toFixed(0)}M UTF-16 units): one shot ${oneShot.toFixed(0)} ms, ` +
        `two streams ${streamed.toFixed(0)} ms`,
    );
    assert.ok(streamed < 60000, `${name}: streaming took ${streamed} ms`);
  }
  assert.deepEqual(
    [...fingerprinter.fingerprintMany([big, paragraph])],
    [cases[0][2], sp.fingerprint(paragraph)],
  );
  // Its 9 million words as one list of features, in one call: each word of the paragraph
  // counted once per copy, and the empty string after the last space.
  const words = big.split(' ');
  const distinct = paragraph.split(' ').slice(0, -1);
  const copies = (words.length - 1) / distinct.length;
  assert.ok(Number.isInteger(copies));
  const t0 = performance.now();
  const listed = sp.fingerprintFeatures(words);
  t.diagnostic(`${words.length} features in one list: ${(performance.now() - t0).toFixed(0)} ms`);
  assert.equal(
    listed,
    sp.fingerprintFeatures([...distinct, ''], { weights: [...distinct.map(() => copies), 1] }),
  );
  assert.equal(sp.recommendedK(big), 9); // its features repeat: an edit rarely brings a new one
  assert.throws(() => sp.fromHex(big), /malformed hex/);
  assert.throws(() => sp.fingerprint('x', { key: big }), /invalid key: expected 32 hex digits/);
  const memoryAfter = wasm.memory.buffer.byteLength;
  t.diagnostic(
    `wasm memory: ${(memoryBefore / MB).toFixed(0)} MB before, ${(memoryAfter / MB).toFixed(0)} MB after`,
  );
  // The largest text is 150 MB of UTF-8 (50M CJK characters × 3 bytes). One shot holds it and
  // its lowercased copy; a stream given it in one update holds the chunk and its buffer, then
  // the buffer and the lowercased copy: measured 486 MB of wasm memory at the peak, 3.2 times
  // the input. (Memory is never returned to the engine: this is the high-water mark.)
  assert.ok(memoryAfter < 4 * 150 * MB, `wasm memory grew to ${memoryAfter / MB} MB`);
  stillWorks('50 MB strings');
});

test('pairs with an explicit plan of more than 64 blocks (fuzz finding) are exact', () => {
  // 100 blocks at k = 1 above 64 bits is a valid plan (100 tables); pairs() built 64-bit
  // block masks with 1 << block, which wrapped in release builds and lost pairs.
  const next = (() => {
    let s = 0x9e3779b97f4a7c15n;
    return () => {
      s = (s * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
      return s;
    };
  })();
  const idx = new sp.Index({ width: 128, k: 1, blocks: 100 });
  const entries = [];
  for (let c = 0; c < 100; c++) {
    const centre = (next() << 64n) | next();
    entries.push([3 * c, centre]);
    for (let j = 1; j < 3; j++)
      entries.push([3 * c + j, centre ^ (next() % 2n === 0n ? 1n << (next() % 128n) : 0n)]);
  }
  idx.insertMany(
    entries.map((e) => e[0]),
    entries.map((e) => e[1]),
  );
  assert.equal(idx.segments, 1);
  const want = [];
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) {
      const d = sp.hamming(entries[i][1], entries[j][1]);
      if (d <= 1) want.push({ a: entries[i][0], b: entries[j][0], distance: d });
    }
  }
  want.sort((x, y) => x.distance - y.distance || x.a - y.a || x.b - y.b);
  assert.deepEqual(idx.pairs(), want);
  idx.free();
});

test('the key option: the same text under two random keys is f/2 apart on average', () => {
  // Random 32-hex-digit keys, as a deployment would keep in a secret (see docs/robustness.md).
  const randomKey = () =>
    [...crypto.getRandomValues(new Uint8Array(16))]
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
  let seed = 5;
  const next = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const word = () =>
    Array.from({ length: 3 + Math.floor(next() * 7) }, () =>
      String.fromCharCode(97 + Math.floor(next() * 26)),
    ).join('');
  const texts = Array.from({ length: 200 }, () =>
    Array.from({ length: 40 + Math.floor(next() * 200) }, word).join(' '),
  );
  for (const width of [64, 128]) {
    const keyA = randomKey();
    const [a, b] = [
      new sp.Fingerprinter({ width, key: keyA }),
      new sp.Fingerprinter({ width, key: randomKey() }),
    ];
    const d = texts.map((t) => sp.hamming(a.fingerprint(t), b.fingerprint(t)));
    const mean = d.reduce((x, y) => x + y, 0) / d.length;
    // Binomial(f, 1/2) per text: the mean of 200 is f/2 with sd √f/2/√200 (0.28 at 64 bits).
    assert.ok(
      Math.abs(mean - width / 2) < (5 * Math.sqrt(width)) / 2 / Math.sqrt(200),
      `width ${width}: mean ${mean}`,
    );
    // A key is deterministic: the same key, given again to another fingerprinter and to the
    // one-shot function, gives the same fingerprints.
    const again = new sp.Fingerprinter({ width, key: keyA });
    for (const t of texts.slice(0, 5)) {
      assert.equal(again.fingerprint(t), a.fingerprint(t));
      assert.equal(sp.fingerprint(t, { width, key: keyA }), a.fingerprint(t));
    }
    again.free();
  }
  stillWorks('keys');
});

test('clusters() of 20,000 copies of one fingerprint (was a trap: every pair was listed first)', () => {
  const idx = new sp.Index({ k: 3 });
  const n = 20000;
  idx.insertMany(
    Float64Array.from({ length: n }, (_, i) => i),
    new BigUint64Array(n).fill(0x1234n),
  );
  idx.insert(n, 0x1235n); // one more, a bit away
  idx.insert(n + 1, 0xffffn << 40n); // a loner
  const t0 = performance.now();
  const groups = idx.clusters();
  assert.ok(performance.now() - t0 < 10000);
  assert.equal(groups.length, 1);
  assert.equal(groups[0].length, n + 1);
  assert.deepEqual(groups[0].slice(0, 3), [0, 1, 2]);
  assert.equal(groups[0][n], n);
  idx.free();
  stillWorks('clusters of copies');
});

test('index bytes naming id 2^64 - 1 load, and a name below 2^53 is refused (fuzz finding)', () => {
  // 69 bytes, version 3: one entry under id 2^64 - 1, named "a". Reading it computed the next
  // name's id as 2^64: a panic with overflow checks on, a silent wrap in release builds.
  const last = (1n << 64n) - 1n;
  const bytes = indexBytes(64, 3, [[last, 1n]], [[last, 'a']]);
  assert.equal(bytes.length, 69);
  const index = sp.Index.fromBytes(bytes);
  assert.deepEqual(index.ids(), ['a']);
  index.insert(Number.MAX_SAFE_INTEGER, 2n);
  index.insert('b', 3n);
  // Past 2^64 - 1, new names start again at 2^53: after every number, before "a".
  assert.deepEqual(index.ids(), [Number.MAX_SAFE_INTEGER, 'b', 'a']);
  const copy = sp.Index.fromBytes(index.toBytes());
  assert.deepEqual(copy.ids(), index.ids());
  assert.deepEqual([copy.get('a'), copy.get('b'), copy.get(Number.MAX_SAFE_INTEGER)], [1n, 3n, 2n]);
  index.free();
  copy.free();
  // A name on id 5, which is also the number 5 to JavaScript: refused, not loaded.
  assert.throws(
    () => sp.Index.fromBytes(indexBytes(64, 3, [[5n, 1n]], [[5n, 'a']])),
    (e) =>
      e instanceof Error &&
      !(e instanceof WebAssembly.RuntimeError) &&
      /^index bytes: id 5 has a name, but names' ids start at 2\^53$/.test(e.message),
  );
  stillWorks('named index bytes');
});

test('words crafted to collide in the table of distinct features count once each', () => {
  // tests/flood-words.txt: words whose default-key 64-bit hashes share the bits that place them
  // (at widths up to 64), so the table's probe runs overflow; the fingerprint must still count
  // each distinct word once.
  const words = readFileSync(new URL('../flood-words.txt', import.meta.url), 'utf8')
    .trim()
    .split(' ');
  assert.equal(words.length, 10_000);
  const text = `${words.join(' ')} ${words.join(' ')}`;
  const rows = [...new Set(words)].map((w) => [w, 1]);
  for (const width of [64, 32]) {
    assert.equal(
      sp.fingerprint(text, { width }),
      sp.fingerprintFeatures(rows, { width }),
      `width ${width}`,
    );
  }
  stillWorks('crafted collisions');
});
