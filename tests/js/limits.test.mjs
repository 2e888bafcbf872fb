// What the hostile-input review of 0.1.0 broke at the JavaScript boundary, each reproduced: hostile
// index bytes that asked for gigabytes, pairs() that grew memory to 3 GB before giving up, a leaked
// externref table slot per caught exception, calls on freed objects that wore the instance out, and
// errors that repeated a 100 MB argument. Each test measures the module's memory and externref
// table, which must stay flat, and checks the module still works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import sp, { golden } from './load.mjs';
import { hostileIndexBytes, sip13ZeroKey } from '../support/index-bytes.mjs';

// initSync returns the instance's exports: its memory and externref table, to measure.
const wasm = sp.initSync({
  module: readFileSync(new URL('../../pkg/simprint_bg.wasm', import.meta.url)),
});
const memory = () => wasm.memory.buffer.byteLength;
const table = () => wasm.__wbindgen_externrefs.length;

const KNOWN = golden.vectors.find((v) => v.name === 'english default');

function stillWorks(context) {
  assert.equal(
    sp.toHex(sp.fingerprint(KNOWN.text, KNOWN.options)),
    KNOWN.hex,
    `${context}: the module broke`,
  );
}

/** Runs `call` `n` times, each expected to throw an Error matching `message`; returns growth. */
function repeatFailing(n, call, message) {
  try {
    call();
  } catch {} // the first call may allocate for good (a table slab, a string)
  const [m0, t0] = [memory(), table()];
  for (let i = 0; i < n; i++) {
    assert.throws(
      call,
      (e) =>
        e instanceof Error && !(e instanceof WebAssembly.RuntimeError) && message.test(e.message),
    );
  }
  return { memory: memory() - m0, table: table() - t0 };
}

test('caught exceptions leak no externref table slot and no memory', () => {
  const throwingOptions = {
    get width() {
      throw new Error('getter says no');
    },
  };
  const trappingOptions = new Proxy(
    {},
    {
      ownKeys() {
        throw new Error('trap says no');
      },
    },
  );
  const throwingElement = [];
  Object.defineProperty(throwingElement, 0, {
    get() {
      throw new Error('element says no');
    },
  });
  const throwingLength = new Proxy([], {
    get(t, k) {
      if (k === 'length') throw new Error('length says no');
      return t[k];
    },
  });
  const detached = new BigUint64Array(4);
  structuredClone(detached.buffer, { transfer: [detached.buffer] });
  const index = new sp.Index({ k: 3 });
  const fingerprinter = new sp.Fingerprinter();
  const cases = [
    [
      'a throwing getter in options',
      () => sp.fingerprint('a', throwingOptions),
      /options\.width could not be read: getter says no/,
    ],
    [
      'a proxy trap in options',
      () => sp.fingerprint('a', trappingOptions),
      /options could not be read: trap says no/,
    ],
    [
      'a throwing array element',
      () => sp.fingerprintFeatures(throwingElement),
      /features\[0\] could not be read: element says no/,
    ],
    [
      'a throwing length',
      () => fingerprinter.fingerprintMany(throwingLength),
      /texts could not be read: length says no/,
    ],
    [
      'a detached typed array',
      () => index.insertMany(new Uint32Array(4), detached),
      /fingerprints could not be read/,
    ],
  ];
  for (const [name, call, message] of cases) {
    // 20,000 each: before, each one kept a table slot and about 8.5 bytes for good.
    const grew = repeatFailing(20000, call, message);
    assert.equal(grew.table, 0, `${name}: the externref table grew by ${grew.table} slots`);
    assert.equal(grew.memory, 0, `${name}: wasm memory grew by ${grew.memory} bytes`);
  }
  index.free();
  fingerprinter.free();
  stillWorks('after 100,000 caught exceptions');
});

test('calls on a freed object throw a clear Error without entering wasm, forever', () => {
  const objects = {
    Index: () => new sp.Index({ k: 3 }),
    Fingerprinter: () => new sp.Fingerprinter(),
    FingerprintStream: () => new sp.Fingerprinter().stream(),
    DocumentFrequencies: () => new sp.DocumentFrequencies(),
    Accumulator: () => new sp.Accumulator(8),
  };
  for (const [name, make] of Object.entries(objects)) {
    const object = make();
    object.free();
    // Twice is harmless, and so is disposing of it (before, each entered wasm and threw).
    for (let i = 0; i < 1000; i++) object.free();
    if (Symbol.dispose) object[Symbol.dispose]();
    const proto = Object.getPrototypeOf(object);
    const members = Object.getOwnPropertyNames(proto).filter(
      (k) => k !== 'constructor' && k !== 'free' && !k.startsWith('__'),
    );
    assert.ok(members.length > 0, name);
    for (const key of members) {
      const d = Object.getOwnPropertyDescriptor(proto, key);
      const use = d.get ? () => object[key] : () => object[key](1n, 1);
      assert.throws(
        use,
        (e) =>
          e instanceof Error &&
          e.message ===
            `${name}.${key}: this ${name} was freed (free() was called) and cannot be used`,
        `${name}.${key}`,
      );
    }
  }
  // Before, about 20,000 such calls left every later call failing with "memory access out of
  // bounds" (each throw from inside wasm leaked shadow stack).
  const index = new sp.Index({ k: 3 });
  index.free();
  const grew = repeatFailing(100000, () => index.query(1n), /Index\.query: this Index was freed/);
  assert.deepEqual(grew, { memory: 0, table: 0 });
  stillWorks('after 100,000 calls on a freed Index');
});

test('pairs() over 20,000 copies of one text fails early in bounded memory; a limit gives the first', () => {
  const index = new sp.Index({ k: 3 });
  const n = 20000;
  index.insertMany(
    Uint32Array.from({ length: n }, (_, i) => i),
    new BigUint64Array(n).fill(0xabcdn),
  );
  const m0 = memory();
  const started = performance.now();
  // 200 million pairs: before, this grew wasm memory to 3.23 GB before its error.
  assert.throws(
    () => index.pairs(),
    (e) => e instanceof Error && /more than 4194304 pairs are within 3/.test(e.message),
  );
  // Bounded whatever the number of pairs: the first walk holds up to 524,288 of them (12 MB,
  // briefly half again while its vector grows) before it only counts.
  assert.ok(memory() - m0 < 32 << 20, `memory grew by ${memory() - m0} bytes`);
  assert.ok(performance.now() - started < 20000);
  index.free();
  // A limit gives the first pairs in memory for that many (every pair is still visited, so
  // fewer copies here: 2,000 make about 2 million pairs).
  const copies = new sp.Index({ k: 3 });
  copies.insertMany(
    Uint32Array.from({ length: 2000 }, (_, i) => i),
    new BigUint64Array(2000).fill(0xabcdn),
  );
  assert.deepEqual(copies.pairs(undefined, 3), [
    { a: 0, b: 1, distance: 0 },
    { a: 0, b: 2, distance: 0 },
    { a: 0, b: 3, distance: 0 },
  ]);
  assert.deepEqual(copies.pairs(3, 0), []);
  assert.throws(
    () => copies.pairs(3, -1),
    /limit must be a whole number from 0 to 2\^53 - 1, got -1/,
  );
  // Bounded whatever the number of pairs: the first walk holds up to 524,288 of them (12 MB,
  // briefly half again while its vector grows) before it only counts.
  assert.ok(memory() - m0 < 32 << 20, `memory grew by ${memory() - m0} bytes`);
  copies.free();
  stillWorks('after pairs() gave up');
});

test('Index.fromBytes refuses a buffer whose plan would take more memory than allowed', () => {
  // The checksum helper is the format's.
  const own = new sp.Index({ k: 3 }).toBytes();
  const view = new DataView(own.buffer, own.byteOffset);
  assert.equal(
    view.getBigUint64(own.length - 8, true),
    sip13ZeroKey(own.subarray(0, own.length - 8)),
  );

  const small = hostileIndexBytes(100);
  const loaded = sp.Index.fromBytes(small);
  assert.equal(loaded.plan().tables.length, 253);
  loaded.free();

  // 2.4 MB that described a 508 MB index.
  const bytes = hostileIndexBytes(100000);
  const m0 = memory();
  const started = performance.now();
  assert.throws(
    () => sp.Index.fromBytes(bytes),
    (e) =>
      e instanceof Error &&
      /index bytes: the index would take about \d+ bytes of memory \(100000 fingerprints, 253 tables\), more than the limit of 67108864/.test(
        e.message,
      ),
  );
  assert.ok(performance.now() - started < 2000, 'refused before building anything');
  // The caller's limit, lower or higher.
  assert.throws(
    () => sp.Index.fromBytes(small, { maxMemoryBytes: 1000 }),
    /more than the limit of 1000/,
  );
  assert.throws(
    () => sp.Index.fromBytes(small, { maxMemoryBytes: -1 }),
    /maxMemoryBytes must be a number of bytes \(0 or more\), got -1/,
  );
  assert.throws(() => sp.Index.fromBytes(small, { maxMemory: 1 }), /unknown field `maxMemory`/);
  const copy = sp.Index.fromBytes(small, { maxMemoryBytes: 4e6 });
  assert.ok(copy.memoryBytes() <= 4e6);
  copy.free();
  // 21.6 MB trusted with no limit asked wasm for about 4.5 GB: before, memory grew to 4.29 GB
  // and the instance trapped; now the whole size is asked for at once and refused.
  const huge = hostileIndexBytes(900000);
  assert.throws(
    () => sp.Index.fromBytes(huge, { maxMemoryBytes: Infinity }),
    (e) =>
      e instanceof Error &&
      !(e instanceof WebAssembly.RuntimeError) &&
      /out of memory/.test(e.message),
  );
  assert.ok(memory() - m0 < 64 << 20, `memory grew by ${memory() - m0} bytes`);
  stillWorks('after refusing hostile bytes');
});

test('errors repeat at most a little of a huge argument', () => {
  const huge = 'x'.repeat(50_000_000);
  const calls = [
    () => sp.fingerprint('a', { tokenizer: huge }),
    () => sp.fingerprint('a', { weighting: huge }),
    () => sp.fingerprint('a', { normalization: huge }),
    () => sp.fingerprint('a', { key: huge }),
    () => sp.fromHex(huge),
    () => sp.fingerprint('a', { [huge]: 1 }),
    () =>
      sp.fingerprint('a', {
        get width() {
          throw new Error(huge);
        },
      }),
  ];
  for (const call of calls) {
    assert.throws(call, (e) => e instanceof Error && e.message.length < 400, String(call));
  }
  stillWorks('after huge arguments');
});
