// The keys scheme in JavaScript (Plan): keys and probe keys as the core defines them, and a
// store of the tables outside the index (a Map here) that answers what Index.query answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import sp from './load.mjs';
import { splitmix64 as rng, popcount } from './support.mjs';

test('keys: the blocks of each table concatenated, first block highest', () => {
  const plan = new sp.Plan({ width: 64, k: 9, substrings: 4 });
  assert.deepEqual(plan.keys(0x0123456789abcdefn), [0x0123n, 0x4567n, 0x89abn, 0xcdefn]);
  assert.deepEqual(
    plan.keys('0123456789abcdef'),
    [0x0123n, 0x4567n, 0x89abn, 0xcdefn],
    'hex works too',
  );
  assert.equal(plan.tableCount, 4);
  assert.equal(plan.width, 64);
  assert.equal(plan.k, 9);
  const combined = new sp.Plan({ width: 16, k: 3, blocks: 4, keyBlocks: 2 });
  assert.deepEqual(combined.keys(0x1234n), [0x12n, 0x13n, 0x14n, 0x23n, 0x24n, 0x34n]);
  assert.equal(combined.describe().kind, 'combined');
  // K + 1 substrings: radius 0, one key per table (the Worker's routing).
  const routing = new sp.Plan({ width: 64, k: 9, substrings: 10 });
  assert.equal(routing.probeCount, 10);
  assert.deepEqual(
    routing.describe().tables.map((t) => t.radius),
    Array(10).fill(0),
  );
});

test("probeKeys: every key within each radius, each table's own key first", () => {
  const plan = new sp.Plan({ width: 64, k: 9, substrings: 4 });
  const fp = 0x0123456789abcdefn;
  assert.deepEqual(plan.probeCounts(), [137, 137, 17, 17]);
  assert.equal(plan.probeCount, 308);
  const flat = plan.probeKeys(fp);
  const byTable = plan.probeKeysByTable(fp);
  assert.equal(flat.length, 308);
  assert.deepEqual(byTable.flat(), flat);
  const own = plan.keys(fp);
  const radii = plan.describe().tables.map((t) => t.radius);
  byTable.forEach((keys, t) => {
    assert.equal(keys[0], own[t]);
    assert.equal(new Set(keys).size, keys.length, 'no key twice');
    for (const key of keys) assert.ok(popcount(key ^ own[t]) <= radii[t]);
    assert.ok(keys.every((key) => key < 1n << 16n));
  });
});

test("Plan refuses what it cannot do, with the core's messages", () => {
  assert.throws(() => new sp.Plan({ width: 64, k: 9, blocks: 4 }), /blocks must be more than k/);
  assert.throws(() => new sp.Plan({ width: 64, blocks: 5, substrings: 3 }), /at most one of/);
  assert.throws(() => new sp.Plan({ width: 64, k: 3, nonsense: 1 }), /nonsense/);
  const plan = new sp.Plan({ width: 64, k: 3, blocks: 4 });
  assert.throws(() => plan.keys(1n << 64n), /fingerprint/);
  assert.throws(() => plan.probeKeys(12), /BigInt or a hex string/);
  assert.throws(
    () => new sp.Plan({ width: 128, k: 4, substrings: 1 }).probeKeys(1n),
    /probes \d+ keys/,
  );
  // Without an explicit plan: the one an Index picks for `size` fingerprints.
  assert.equal(new sp.Plan({ width: 64, k: 3, size: 100 }).describe().kind, 'scan');
  assert.deepEqual(
    new sp.Plan({ width: 64, k: 3, size: 100 }).probeKeys(5n),
    [],
    'a scan probes no keys',
  );
  assert.equal(
    new sp.Plan({ width: 64, k: 3 }).describe().kind,
    'permuted',
    'at a million, tables',
  );
  // A scan is priced at one constant per fingerprint (wasm's own, measured: read from the
  // library, not pinned, so a new measurement moves nothing here), at every k and size; the
  // plan picked for a size never costs more than scanning it.
  const describe = (options) => new sp.Plan({ width: 64, ...options }).describe();
  const perFingerprint = describe({ k: 9, scan: true, size: 1 }).estimate.nanos;
  assert.ok(perFingerprint > 0);
  for (const size of [100, 1000, 100_000, 1_000_000]) {
    for (const k of [3, 6, 9, 18]) {
      const scan = describe({ k, size, scan: true }).estimate;
      assert.ok(
        Math.abs(scan.nanos - perFingerprint * size) <= 1e-9 * scan.nanos,
        `scan of ${size} at k = ${k}`,
      );
      assert.deepEqual([scan.probes, scan.candidates], [0, size]);
      const picked = describe({ k, size });
      assert.ok(
        picked.estimate.nanos <= scan.nanos,
        `k = ${k} among ${size}: ${picked.kind} costs more than a scan`,
      );
    }
  }
  // wasm's constants make k = 6 among a thousand a scan (the portable ones would index it)
  // and k = 18 among a million not.
  assert.equal(new sp.Plan({ width: 64, k: 6, size: 1000 }).describe().kind, 'scan');
  assert.equal(new sp.Plan({ width: 64, k: 18 }).describe().kind, 'multiIndex');
});

test('a Map of (table, key) -> ids, looked up by probeKeys, answers what Index.query answers', () => {
  const next = rng(17);
  const M = (1n << 64n) - 1n;
  for (const options of [
    { substrings: 4 },
    { substrings: 10 },
    { blocks: 4, k: 3 },
    { blocks: 6, keyBlocks: 2, k: 6 },
  ]) {
    const k = options.k ?? 9;
    const plan = new sp.Plan({ width: 64, k, ...options });
    const index = new sp.Index({ width: 64, k });
    const store = new Map();
    const fps = [];
    for (let id = 0; id < 2000; id++) {
      let fp = id % 4 === 0 || fps.length === 0 ? next() : fps[Number(next() % BigInt(fps.length))];
      for (let f = Number(next() % BigInt(k + 3)); f > 0; f--) fp ^= 1n << (next() % 64n);
      fp &= M;
      fps.push(fp);
      index.insert(id, fp);
      plan.keys(fp).forEach((key, t) => {
        const name = `${t}:${key}`;
        if (!store.has(name)) store.set(name, []);
        store.get(name).push(id);
      });
    }
    const counts = plan.probeCounts();
    for (let q = 0; q < 100; q++) {
      const query = fps[Number(next() % 2000n)] ^ (1n << (next() % 64n));
      const keys = plan.probeKeys(query);
      const found = new Map();
      let t = 0;
      let left = counts[0];
      for (const key of keys) {
        while (left === 0) left = counts[++t];
        left--;
        for (const id of store.get(`${t}:${key}`) ?? []) {
          const d = popcount(fps[id] ^ query);
          if (d <= k) found.set(id, d);
        }
      }
      const got = [...found]
        .map(([id, distance]) => ({ id, distance }))
        .sort((a, b) => a.distance - b.distance || a.id - b.id);
      assert.deepEqual(got, index.query(query), JSON.stringify(options));
    }
    plan.free();
    index.free();
  }
});
