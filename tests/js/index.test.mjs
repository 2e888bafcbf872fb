import { test } from 'node:test';
import assert from 'node:assert/strict';
import sp from './load.mjs';
import { splitmix64 as rng, popcount } from './support.mjs';

function brute(model, q, k) {
  return [...model]
    .map(([id, fp]) => ({ id, distance: popcount(fp ^ q) }))
    .filter((m) => m.distance <= k)
    .sort((a, b) => a.distance - b.distance || a.id - b.id);
}

function clusteredSet(next, n, width) {
  const mask = (1n << BigInt(width)) - 1n;
  const centres = Array.from({ length: 1 + Math.floor(n / 40) }, () =>
    width > 64 ? ((next() << 64n) | next()) & mask : next() & mask,
  );
  return Array.from({ length: n }, () => {
    let v = centres[Number(next() % BigInt(centres.length))];
    const flips = Number(next() % 6n);
    for (let i = 0; i < flips; i++) v ^= 1n << (next() % BigInt(width));
    return v;
  });
}

for (const width of [64, 128]) {
  test(`index queries equal a brute-force scan (width ${width})`, () => {
    const next = rng(width);
    const values = clusteredSet(next, 3000, width);
    const index = new sp.Index({ width, k: 3 });
    const ids = Float64Array.from(values, (_, i) => i * 2 + 1);
    let fps;
    if (width <= 64) {
      fps = BigUint64Array.from(values);
    } else {
      fps = new BigUint64Array(values.length * 2);
      values.forEach((v, i) => {
        fps[2 * i] = v >> 64n;
        fps[2 * i + 1] = v & ((1n << 64n) - 1n);
      });
    }
    index.insertMany(ids, fps);
    const model = new Map(values.map((v, i) => [i * 2 + 1, v]));
    assert.equal(index.size, 3000);
    assert.equal(index.width, width);
    assert.equal(index.plan().scan, false);
    for (let i = 0; i < 60; i++) {
      const q = values[i * 37] ^ (1n << BigInt(i % width));
      for (const k of [undefined, 0, 2, 3, 6]) {
        const all = brute(model, q, k ?? 3);
        assert.deepEqual(index.query(q, k), all, `query ${i} k ${k}`);
        // A limit gives the first `limit` of the same answer.
        for (const limit of [0, 1, 2, all.length - 1, all.length, all.length + 1, 2 ** 53 - 1]) {
          if (limit < 0) continue;
          assert.deepEqual(
            index.query(q, k, limit),
            all.slice(0, limit),
            `query ${i} k ${k} limit ${limit}`,
          );
        }
      }
    }
    // Pairs equal the brute-force pairs.
    const pairs = index.pairs();
    const entries = [...model];
    let expected = 0;
    for (let a = 0; a < entries.length; a++) {
      for (let b = a + 1; b < entries.length; b++) {
        if (popcount(entries[a][1] ^ entries[b][1]) <= 3) expected++;
      }
    }
    assert.equal(pairs.length, expected);
    for (const p of pairs) {
      assert.ok(p.a < p.b);
      assert.equal(popcount(model.get(p.a) ^ model.get(p.b)), p.distance);
    }
    // Bytes round trip keeps every answer.
    const bytes = index.toBytes();
    assert.ok(bytes instanceof Uint8Array);
    const loaded = sp.Index.fromBytes(bytes);
    assert.equal(loaded.size, index.size);
    for (let i = 0; i < 20; i++) {
      const q = values[i * 101];
      assert.deepEqual(loaded.query(q), index.query(q));
    }
    assert.deepEqual(
      loaded.ids(),
      [...model.keys()].sort((a, b) => a - b),
    );
    index.free();
    loaded.free();
  });
}

// The tables' bucket check above k = 6 has a path of its own in wasm (chunks of 8 with no
// branch per word), and a query within less than the index's k probes fewer tables, nearer:
// an explicit multi-index plan for 12 over copies at every distance, queried at every k from
// 0 to 12, must give exactly the brute-force answer.
test('multi-index queries at every k up to the plan for 12 equal a brute-force scan', () => {
  const next = rng(912);
  const centres = Array.from({ length: 60 }, () => next());
  const values = Array.from({ length: 4000 }, () => {
    let v = centres[Number(next() % 60n)];
    const flips = Number(next() % 15n);
    for (let i = 0; i < flips; i++) v ^= 1n << (next() % 64n);
    return v;
  });
  const index = new sp.Index({ width: 64, k: 12, substrings: 5 });
  index.insertMany(
    Float64Array.from(values, (_, i) => i),
    BigUint64Array.from(values),
  );
  const plan = index.plan();
  assert.equal(plan.kind, 'multiIndex');
  assert.ok(plan.tables.every((t) => !t.folded));
  const model = new Map(values.map((v, i) => [i, v]));
  let hits = 0;
  for (let i = 0; i < 40; i++) {
    const q = centres[i % 60] ^ (1n << BigInt(i % 64));
    for (let k = 0; k <= 12; k++) {
      const all = brute(model, q, k);
      hits += all.length;
      assert.deepEqual(index.query(q, k), all, `query ${i} k ${k}`);
    }
  }
  assert.ok(hits > 1000, `the queries must find copies (${hits})`);
  index.free();
});

// A query within less than the index's k probes what that k needs, which the explanation
// shows: on a plan of five 13-bit substrings for 12 (radii 2, 2, 2, 1, 1), an exact query reads
// one bucket of one table, one within 6 probes two tables within 1 bit and three exactly, and
// one within 12 every table within its radius; each still finds everything (above).
test('a query within less than the index k probes fewer tables, nearer', () => {
  const index = new sp.Index({ width: 64, k: 12, substrings: 5 });
  const next = rng(64);
  const values = Array.from({ length: 20_000 }, () => next());
  index.insertMany(
    Float64Array.from(values, (_, i) => i),
    BigUint64Array.from(values),
  );
  const probed = (k) => {
    const buckets = new Map();
    for (const c of index.explainQuery(values[5], k)) {
      const table = buckets.get(c.table) ?? new Set();
      table.add(c.probe.bucket);
      buckets.set(c.table, table);
    }
    return { tables: buckets.size, flips: Math.max(...[...buckets.values()].map((b) => b.size)) };
  };
  assert.deepEqual(probed(0), { tables: 1, flips: 1 });
  assert.equal(probed(6).tables, 5);
  assert.ok(probed(6).flips <= 14, 'within 1 bit of 13: at most 14 buckets a table');
  assert.ok(probed(12).flips > 14, 'within 2 bits: more than 14 buckets in some table');
  index.free();
});

test('insert, replace, get, has, remove, clear and the same fingerprint under many ids', () => {
  // The defaults: 64 bits and the pair rule's largest k at the width (pairK of equal sizes).
  for (const [options, width, k] of [
    [undefined, 64, 12],
    [{ width: 128 }, 128, 23],
    [{ width: 5 }, 5, sp.pairK(1, 1, 5)],
  ]) {
    const plain = new sp.Index(options);
    assert.deepEqual([plain.width, plain.k], [width, k]);
    assert.equal(k, sp.pairK(1, 1, width));
    assert.equal(new sp.Plan(options ?? {}).describe().k, k);
    plain.free();
  }
  const index = new sp.Index({ k: 3 });
  assert.equal(index.width, 64);
  assert.equal(index.insert(1, 0xffn), undefined);
  assert.equal(index.insert(2, 0xffn), undefined);
  assert.equal(index.insert(Number.MAX_SAFE_INTEGER, 0xf0n), undefined);
  assert.deepEqual(index.query(0xffn), [
    { id: 1, distance: 0 },
    { id: 2, distance: 0 },
  ]);
  assert.equal(index.insert(1, 0x1n), 0xffn, 'replacing returns the old fingerprint');
  assert.equal(index.get(1), 0x1n);
  assert.equal(index.has(2), true);
  assert.equal(index.remove(2), 0xffn);
  assert.equal(index.remove(2), undefined);
  assert.equal(index.has(2), false);
  assert.equal(index.get(2), undefined);
  assert.equal(index.size, 2);
  assert.deepEqual(index.query(0xf1n, 1), [{ id: Number.MAX_SAFE_INTEGER, distance: 1 }]);
  assert.deepEqual(index.query(0xf1n, 64).length, 2, 'k above the index k scans');
  index.clear();
  assert.equal(index.size, 0);
  index.free();
});

test('a limited query over thousands of copies: the nearest first, ties by id', () => {
  const index = new sp.Index({ k: 3 });
  const n = 5000;
  // Ids in a scrambled order, so storage order is not id order; batch and one-at-a-time.
  const ids = Float64Array.from({ length: n }, (_, i) => (i * 7919) % n);
  index.insertMany(ids.subarray(0, n / 2), new BigUint64Array(n / 2).fill(0b1n));
  for (const id of ids.subarray(n / 2)) index.insert(id, 0b1n);
  index.insert(n + 1, 0b11n); // distance 2 from the query
  index.insert(n + 2, 0n); // distance 0
  const all = index.query(0n);
  assert.equal(all.length, n + 2);
  const first = index.query(0n, undefined, 100);
  assert.equal(first.length, 100);
  assert.deepEqual(first[0], { id: n + 2, distance: 0 });
  assert.deepEqual(
    first.slice(1).map((m) => m.id),
    Array.from({ length: 99 }, (_, i) => i),
  );
  assert.ok(first.slice(1).every((m) => m.distance === 1));
  assert.deepEqual(first, all.slice(0, 100));
  assert.deepEqual(index.query(0n, null, 100), first, 'null k is the index k');
  assert.deepEqual(
    index.query(0n, 0, 100),
    [{ id: n + 2, distance: 0 }],
    'fewer matches than the limit',
  );
  assert.deepEqual(
    index.query(0n, 10, n + 2),
    index.query(0n, 10),
    'k above the index k scans, limited too',
  );
  assert.deepEqual(index.query(0n, 3, 0), []);
  assert.deepEqual(index.query(0n, undefined, undefined), all);
  assert.deepEqual(index.query(0n, undefined, null), all, 'null limit is no limit');
  index.free();
});

test('pairs and clusters for batch dedup', () => {
  const index = new sp.Index({ k: 1 });
  index.insertMany([1, 2, 3, 4, 5], [0b00n, 0b01n, 0b11n, 0xff00n, 0xff01n]);
  assert.deepEqual(index.pairs(), [
    { a: 1, b: 2, distance: 1 },
    { a: 2, b: 3, distance: 1 },
    { a: 4, b: 5, distance: 1 },
  ]);
  assert.deepEqual(index.clusters(), [
    [1, 2, 3],
    [4, 5],
  ]);
  assert.deepEqual(index.clusters(0), []);
  assert.equal(index.pairs(2).length, 4, 'k above the index k still exact');
  index.free();
});

test('explicit plans and the plan description', () => {
  const index = new sp.Index({ k: 3, blocks: 5 });
  const plan = index.plan();
  assert.equal(plan.tables.length, 10);
  assert.deepEqual(
    plan.blocks.map((b) => b.len),
    [13, 13, 13, 13, 12],
  );
  assert.equal(plan.kind, 'permuted');
  assert.deepEqual(plan.tables[0], {
    blocks: [0, 1],
    ranges: [
      { start: 0, len: 13 },
      { start: 13, len: 13 },
    ],
    keyBits: 26,
    radius: 0,
    bucketBits: 0,
    probes: 1,
    folded: true,
  });
  assert.deepEqual(Object.keys(plan.estimate), ['probes', 'candidates', 'nanos']);
  assert.equal(new sp.Index({ scan: true }).plan().scan, true);
  assert.equal(new sp.Index({ scan: true }).plan().kind, 'scan');
  // Multi-index hashing: substrings and radii whose sum plus one each passes k.
  const mih = new sp.Index({ k: 9, substrings: 4 }).plan();
  assert.equal(mih.kind, 'multiIndex');
  assert.deepEqual(
    mih.blocks,
    [0, 16, 32, 48].map((start) => ({ start, len: 16 })),
  );
  assert.deepEqual(
    mih.tables.map((t) => t.radius),
    [2, 2, 1, 1],
  );
  const combined = new sp.Index({ k: 9, blocks: 6, keyBlocks: 2 }).plan();
  assert.equal(combined.kind, 'combined');
  assert.equal(combined.tables.length, 15);
  assert.ok(combined.tables.every((t) => t.radius === 2 && t.ranges.length === 2));
  assert.throws(() => new sp.Index({ k: 9, substrings: 4, scan: true }), /at most one of/);
  assert.throws(() => new sp.Index({ k: 9, keyBlocks: 2 }), /keyBlocks needs blocks/);
  assert.throws(() => new sp.Index({ k: 9, substrings: 0 }), /substrings must be from 1/);
  const big = new sp.Index({ k: 3 });
  big.insertMany(
    new Uint32Array(100000).map((_, i) => i),
    BigUint64Array.from({ length: 100000 }, rng(5)),
  );
  assert.equal(big.plan().tables.length, 4);
  assert.ok(big.memoryBytes() / big.size < 100, `${big.memoryBytes() / big.size} bytes each`);
  big.free();
});

test("the planner gives 128-bit fingerprints an eighth table at the quality mode's k", () => {
  // A million 128-bit fingerprints at k = 14 to 32 (one-bit MinHash's 16 to 22 among them):
  // eight substrings of 16 bits (seven of 18 or 19, or six of 21 or 22 below 18, needed
  // thousands of probes and took up to twice the time; at 12 and 13 wasm's prices pick seven);
  // 64 bits, k = 11 and 33, and two million (where the eighth table's larger buckets cost more
  // than it saves) keep 7 at most; wasm's 128-bit prices scan at 33 and 38, and at two million
  // from 32.
  for (const k of [14, 16, 17, 18, 22, 26, 30, 32]) {
    const plan = new sp.Plan({ width: 128, k });
    assert.equal(plan.tableCount, 8, `k ${k}`);
    assert.deepEqual(
      plan.describe().tables.map((t) => t.keyBits),
      Array(8).fill(16),
    );
    plan.free();
  }
  for (const [width, k] of [
    [128, 11],
    [128, 33],
    [64, 22],
  ]) {
    const plan = new sp.Plan({ width, k });
    assert.ok(plan.tableCount <= 7, `width ${width} k ${k}: ${plan.tableCount} tables`);
    plan.free();
  }
  for (const k of [22, 26, 30]) {
    const plan = new sp.Plan({ width: 128, k, size: 2_000_000 });
    assert.ok(plan.tableCount <= 7, `two million, k ${k}: ${plan.tableCount} tables`);
    plan.free();
  }
  for (const [k, size] of [
    [33, 1_000_000],
    [38, 1_000_000],
    [32, 2_000_000], // seven substrings with the 64-bit prices: as slow as the scan
  ]) {
    const plan = new sp.Plan({ width: 128, k, size });
    assert.equal(plan.describe().kind, 'scan', `k ${k}, ${size}`);
    plan.free();
  }
});

test('128-bit plans are priced with their own prices, other widths with the 64-bit ones', () => {
  // wasm scans two words a 128-bit fingerprint: 0.84 ns a fingerprint against 0.72 for 64
  // bits (and for widths 65 to 127, never measured, as before).
  const nanos = (width) => {
    const plan = new sp.Plan({ width, k: 9, scan: true, size: 1_000_000 });
    const { estimate } = plan.describe();
    plan.free();
    return estimate.nanos;
  };
  assert.ok(nanos(128) > 1.1 * nanos(64), `${nanos(128)} ${nanos(64)}`);
  assert.equal(nanos(96), nanos(64));
});

test('explainQuery shows the tables at work; compact merges segments', () => {
  const index = new sp.Index({ k: 3, blocks: 4 });
  const next = rng(9);
  for (let i = 0; i < 600; i++) index.insert(i, next());
  assert.ok(index.segments >= 1);
  index.compact();
  assert.equal(index.segments, 1);
  const q = index.get(17) ^ 0b101n;
  const seen = index.explainQuery(q);
  assert.ok(seen.every((c) => c.segment === 0 && c.table >= 0 && c.table < 4));
  const accepted = [...new Set(seen.filter((c) => c.accepted).map((c) => c.id))];
  assert.deepEqual(
    accepted.sort((a, b) => a - b),
    index
      .query(q)
      .map((m) => m.id)
      .sort((a, b) => a - b),
  );
  assert.ok(seen.some((c) => c.id === 17 && c.distance === 2));
  // Permuted tables probe the query's own bucket only.
  assert.ok(seen.every((c) => c.probe.flipped.length === 0 && c.probe.bucketBits === 9));
  assert.equal(index.segmentPlan(0).kind, 'permuted');
  assert.equal(index.segmentPlan(1), undefined);
  index.free();
});

test('explainQuery names the probe that found each candidate', () => {
  const index = new sp.Index({ k: 6, substrings: 4 });
  const next = rng(11);
  index.insertMany(
    new Uint32Array(3000).map((_, i) => i),
    BigUint64Array.from({ length: 3000 }, next),
  );
  const q = index.get(5) ^ (1n << 63n) ^ (1n << 40n) ^ 1n; // one bit in each of substrings 0, 1 and 3
  const seen = index.explainQuery(q);
  const plan = index.segmentPlan(0);
  assert.deepEqual(
    plan.tables.map((t) => t.radius),
    [1, 1, 1, 0],
  ); // 6 = 1·4 + 2
  for (const c of seen) {
    const table = plan.tables[c.table];
    assert.ok(c.probe.flipped.length <= table.radius, 'no probe flips more than the radius');
    assert.equal(c.probe.bucketBits, table.bucketBits);
    for (const bit of c.probe.flipped) {
      // Flipped bits lie in the table's bucket bits: the top bucketBits of its substring.
      assert.ok(bit >= table.ranges[0].start && bit < table.ranges[0].start + table.bucketBits);
    }
  }
  // Id 5 is 3 bits away: found in substrings 0 and 1 by flipping their one differing bit, in
  // substring 2 unflipped, and in substring 3 (radius 0) unflipped too: it differs there only
  // in bit 63, below the 11 bucket bits (positions 48 to 58).
  const found = seen.filter((c) => c.id === 5);
  assert.deepEqual(
    found.map((c) => [c.table, c.probe.flipped]),
    [
      [0, [0]],
      [1, [23]],
      [2, []],
      [3, []],
    ],
  );
  assert.ok(found.every((c) => c.accepted && c.distance === 3));
  index.free();
});

test('linear scan and distances', () => {
  const fps = BigUint64Array.from([0b1010n, 0n, 0b1011n, 0xffffn]);
  assert.deepEqual(sp.scan(0b1010n, fps, 1), [
    { index: 0, distance: 0 },
    { index: 2, distance: 1 },
  ]);
  assert.deepEqual(sp.scan(0b1010n, [0b1010n, 0n], 2), [
    { index: 0, distance: 0 },
    { index: 1, distance: 2 },
  ]);
  assert.deepEqual([...sp.distances(0n, fps)], [2, 0, 3, 16]);
  const wide = new BigUint64Array([1n, 0n, 0n, 1n]); // (1 << 64) and 1
  assert.deepEqual(sp.scan(1n << 64n, wide, 0, 128), [{ index: 0, distance: 0 }]);
});

// Bad arguments and bad buffers: a clear Error, and the index keeps working afterwards.
const index = new sp.Index({ k: 3 });
index.insert(7, 7n);
const good = index.toBytes();
const bad = [
  [
    'k above width',
    () => new sp.Index({ k: 65 }),
    /k must be between 0 and the width \(64\), got 65/,
  ],
  ['width 0', () => new sp.Index({ width: 0 }), /width must be between 1 and 128, got 0/],
  [
    'blocks too few',
    () => new sp.Index({ k: 3, blocks: 3 }),
    /invalid plan: blocks must be more than k/,
  ],
  [
    'blocks and scan',
    () => new sp.Index({ blocks: 5, scan: true }),
    /at most one of blocks, substrings and scan/,
  ],
  ['unknown option', () => new sp.Index({ kk: 3 }), /unknown field `kk`/],
  [
    'negative id',
    () => index.insert(-1, 1n),
    /id must be a whole number from 0 to 2\^53 - 1, got -1/,
  ],
  ['fractional id', () => index.insert(1.5, 1n), /got 1.5/],
  ['huge id', () => index.insert(2 ** 53, 1n), /got 9007199254740992/],
  ['boolean id', () => index.insert(true, 1n), /id must be a number or a string, got boolean/],
  [
    'number fingerprint',
    () => index.insert(1, 5),
    /fingerprint must be a BigInt or a hex string, got number/,
  ],
  [
    'fingerprint too wide',
    () => index.insert(1, 1n << 64n),
    /value needs 65 bits but the width is 64/,
  ],
  ['query k above width', () => index.query(1n, 65), /k must be between 0 and the width/],
  ['query k fraction', () => index.query(1n, 2.5), /k must be a whole number, got 2.5/],
  [
    'query limit negative',
    () => index.query(1n, 3, -1),
    /limit must be a whole number from 0 to 2\^53 - 1, got -1/,
  ],
  [
    'query limit fraction',
    () => index.query(1n, 3, 1.5),
    /limit must be a whole number from 0 to 2\^53 - 1, got 1.5/,
  ],
  [
    'query limit NaN',
    () => index.query(1n, 3, NaN),
    /limit must be a whole number from 0 to 2\^53 - 1, got NaN/,
  ],
  [
    'query limit Infinity',
    () => index.query(1n, undefined, Infinity),
    /limit must be a whole number from 0 to 2\^53 - 1, got Infinity/,
  ],
  [
    'query limit huge',
    () => index.query(1n, undefined, 2 ** 53),
    /limit must be a whole number from 0 to 2\^53 - 1, got 9007199254740992/,
  ],
  ['query limit string', () => index.query(1n, 3, '10'), /limit must be a number, got string/],
  ['query limit BigInt', () => index.query(1n, 3, 10n), /limit must be a number, got bigint/],
  ['query limit with a bad k', () => index.query(1n, 65, 0), /k must be between 0 and the width/],
  ['query limit with a bad fingerprint', () => index.query(1n << 64n, 3, 0), /value needs 65 bits/],
  [
    'mismatched lengths',
    () => index.insertMany([1, 2], BigUint64Array.from([1n])),
    /2 ids but 1 fingerprints/,
  ],
  [
    'ids not an array',
    () => index.insertMany('1,2', [1n, 2n]),
    /ids must be a Uint32Array, a Float64Array or an array of numbers and strings, got string/,
  ],
  [
    'bad id in a Float64Array',
    () => index.insertMany(Float64Array.from([1, NaN]), [1n, 2n]),
    /got NaN/,
  ],
  [
    'odd wide array',
    () => new sp.Index({ width: 128 }).insertMany([1], new BigUint64Array(3)),
    /length must be even/,
  ],
  [
    'bytes not a Uint8Array',
    () => sp.Index.fromBytes([1, 2, 3]),
    /bytes must be a Uint8Array, got an array/,
  ],
  [
    'empty bytes',
    () => sp.Index.fromBytes(new Uint8Array(0)),
    /shorter than the 32 of an empty index/,
  ],
  ['bad magic', () => sp.Index.fromBytes(new Uint8Array(good.length)), /bad magic/],
  ['truncated', () => sp.Index.fromBytes(good.slice(0, good.length - 1)), /truncated or corrupted/],
  [
    'flipped byte',
    () => {
      const b = good.slice();
      b[30] ^= 1;
      return sp.Index.fromBytes(b);
    },
    /checksum mismatch/,
  ],
  [
    'hostile count',
    () => {
      const b = good.slice();
      new DataView(b.buffer).setBigUint64(16, 1n << 60n, true);
      return sp.Index.fromBytes(b);
    },
    /header says 1152921504606846976 entries/,
  ],
  [
    'scan value wider than width',
    () => sp.scan(1n, BigUint64Array.from([1n, 256n]), 1, 8),
    /fingerprints\[1\]: value needs 9 bits but the width is 8/,
  ],
  ['scan without k', () => sp.scan(1n, [1n]), /k is required/],
  [
    'distances wrong array',
    () => sp.distances(1n, [1n]),
    /fingerprints must be a BigUint64Array, got an array/,
  ],
];
for (const [name, call, message] of bad) {
  test(`index rejects bad input with a clear Error: ${name}`, () => {
    assert.throws(call, (e) => e instanceof Error && message.test(e.message), name);
    assert.deepEqual(index.query(7n), [{ id: 7, distance: 0 }]);
    assert.equal(index.size, 1);
  });
}

test('string ids: URLs and keys in, the same strings out, through toBytes and fromBytes', () => {
  const fp = (t) => sp.fingerprint(t);
  const a = 'SimHash gives near-duplicate documents fingerprints a few bits apart.';
  const b = 'SimHash gives near duplicate documents fingerprints a few bits apart!';
  const index = new sp.Index({ k: 3 });
  assert.equal(index.insert('https://example.org/a', fp(a)), undefined);
  index.insert(42, fp(a));
  index.insertMany(['doc-1', 7, 'doc-2'], [fp(b), fp('unrelated words entirely here'), fp(b)]);
  assert.equal(index.size, 5);
  const sorted = (ids) => ids.map((id) => `${typeof id}:${id}`).sort();
  assert.deepEqual(
    sorted(index.query(fp(a)).map((m) => m.id)),
    sorted([42, 'doc-1', 'doc-2', 'https://example.org/a']),
  );
  assert.equal(index.get('doc-1'), fp(b));
  assert.equal(index.has('doc-9'), false);
  // "7" the string and 7 the number are two ids.
  assert.equal(index.has('7'), false);
  assert.equal(index.has(7), true);
  // Replacing by name keeps one entry.
  assert.equal(index.insert('doc-1', fp(a)), fp(b));
  assert.equal(index.size, 5);
  const pairs = index.pairs();
  assert.ok(
    pairs.some((p) => [p.a, p.b].includes('https://example.org/a') && [p.a, p.b].includes(42)),
  );
  assert.ok(index.clusters().flat().includes('doc-2'));
  assert.deepEqual(index.ids(), [7, 42, 'https://example.org/a', 'doc-1', 'doc-2']);
  const copy = sp.Index.fromBytes(index.toBytes());
  assert.deepEqual(copy.ids(), index.ids());
  assert.deepEqual(copy.query(fp(a)), index.query(fp(a)));
  assert.equal(copy.remove('doc-2'), fp(b));
  assert.equal(copy.has('doc-2'), false);
  assert.throws(
    () => copy.insert('x'.repeat(70000), fp(a)),
    /a name is 70000 bytes long; at most 65535 are allowed/,
  );
  assert.throws(() => copy.insert(true, fp(a)), /id must be a number or a string, got boolean/);
  index.free();
  copy.free();
});

test('explainQuery: a candidate of the insert buffer has null segment, table and probe, as typed', () => {
  const index = new sp.Index({ k: 3 });
  index.insert(1, 0b1011n);
  const [c] = index.explainQuery(0b1010n);
  assert.deepEqual(c, {
    id: 1,
    distance: 1,
    segment: null,
    table: null,
    probe: null,
    accepted: true,
  });
});

test('bulk loads from typed arrays equal the general path, refuse what it refuses, and stay small in wasm', () => {
  const next = rng(11);
  const values = clusteredSet(next, 5000, 64);
  const typed = new sp.Index({ k: 4 });
  typed.insertMany(
    Float64Array.from(values, (_, i) => i),
    BigUint64Array.from(values),
  );
  const general = new sp.Index({ k: 4 });
  general.insertMany(
    values.map((_, i) => i),
    values,
  );
  for (let i = 0; i < 50; i++)
    assert.deepEqual(typed.query(values[i * 31]), general.query(values[i * 31]));
  const u32 = new sp.Index({ k: 4 });
  u32.insertMany(
    Uint32Array.from(values, (_, i) => i),
    BigUint64Array.from(values),
  );
  assert.deepEqual(u32.query(values[7]), typed.query(values[7]));
  // What the general path refuses, the typed one refuses too, storing nothing.
  const narrow = new sp.Index({ width: 16, k: 2 });
  assert.throws(
    () => narrow.insertMany(Float64Array.of(1, 2), BigUint64Array.of(3n, 1n << 20n)),
    /fingerprints\[1\]/,
  );
  assert.throws(
    () => narrow.insertMany(Float64Array.of(1, -2), BigUint64Array.of(3n, 4n)),
    /ids\[1\]/,
  );
  assert.throws(
    () => narrow.insertMany(Float64Array.of(1), BigUint64Array.of(3n, 4n)),
    /1 ids but 2 fingerprints/,
  );
  assert.equal(narrow.size, 0);
  // A bulk load of 200,000 grows the package's memory by about what the index holds, not by
  // the many times that per-item values would take.
  const before = sp.wasmMemoryBytes();
  const big = new sp.Index({ k: 11 });
  const n = 200000;
  const fps = new BigUint64Array(n);
  for (let i = 0; i < n; i++) fps[i] = next();
  big.insertMany(
    Float64Array.from({ length: n }, (_, i) => i),
    fps,
  );
  const grown = sp.wasmMemoryBytes() - before;
  assert.ok(
    grown <= 2 * big.memoryBytes(),
    `grew ${grown} bytes for an index of ${big.memoryBytes()}`,
  );
  for (const ix of [typed, general, u32, narrow, big]) ix.free();
});

test('setMergeLimit: segments stop merging past the limit, and answers do not change', () => {
  const next = rng(12);
  const values = clusteredSet(next, 6000, 64);
  const limited = new sp.Index({ k: 3 });
  limited.setMergeLimit(1000);
  const model = new Map();
  for (let i = 0; i < values.length; i += 100) {
    limited.insertMany(
      Float64Array.from({ length: 100 }, (_, j) => i + j),
      BigUint64Array.from(values.slice(i, i + 100)),
    );
    values.slice(i, i + 100).forEach((v, j) => model.set(i + j, v));
  }
  let segments = 0;
  while (limited.segmentPlan(segments) !== undefined) {
    assert.ok(limited.segmentPlan(segments).size <= 1000, `segment ${segments} over the limit`);
    segments++;
  }
  assert.ok(segments >= 6, `${segments} segments`);
  for (let i = 0; i < 40; i++) {
    const q = values[i * 97] ^ 1n;
    assert.deepEqual(limited.query(q), brute(model, q, 3));
  }
  assert.throws(() => limited.setMergeLimit(-1), /entries must be a whole number/);
  assert.throws(() => limited.setMergeLimit('9'), /entries must be a number/);
  limited.free();
});

test('pairs() past 65,536 pairs: the whole answer, sorted, in one walk up to 524,288 and in two past it', () => {
  // Two groups of copies one bit apart: pairs inside a group at distance 0, across at 1.
  for (const [n0, n1] of [
    [500, 300], // 169,600 + 150,000 = 319,600 pairs: one walk
    [700, 500], // 369,400 + 350,000 = 719,400 pairs: counted, then collected
  ]) {
    const index = new sp.Index({ k: 3 });
    const n = n0 + n1;
    index.insertMany(
      Uint32Array.from({ length: n }, (_, i) => i),
      BigUint64Array.from({ length: n }, (_, i) => (i < n0 ? 0xabcdn : 0xabcfn)),
    );
    const pairs = index.pairs();
    const within = (n0 * (n0 - 1)) / 2 + (n1 * (n1 - 1)) / 2;
    assert.equal(pairs.length, within + n0 * n1);
    assert.deepEqual(pairs[0], { a: 0, b: 1, distance: 0 });
    assert.deepEqual(pairs[within - 1], { a: n - 2, b: n - 1, distance: 0 });
    assert.deepEqual(pairs[within], { a: 0, b: n0, distance: 1 });
    assert.deepEqual(pairs.at(-1), { a: n0 - 1, b: n - 1, distance: 1 });
    for (let i = 1; i < pairs.length; i++) {
      const [p, q] = [pairs[i - 1], pairs[i]];
      assert.ok(
        p.distance < q.distance ||
          (p.distance === q.distance && (p.a < q.a || (p.a === q.a && p.b < q.b))),
        `pairs ${i - 1} and ${i} out of order`,
      );
      assert.equal(q.distance, q.a < n0 === q.b < n0 ? 0 : 1);
    }
    index.free();
  }
});
