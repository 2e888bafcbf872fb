import { test } from 'node:test';
import assert from 'node:assert/strict';
import sp, { golden } from './load.mjs';

test('3-bit worked example: V = (-4, -2, 6), fingerprint 001', () => {
  const hashes = [
    [0b101n, 1],
    [0b011n, 2],
    [0b100n, 0],
    [0b001n, 3],
    [0b110n, 0],
  ];
  const e = sp.explainHashes(hashes, 3);
  assert.deepEqual(e.v, [-4, -2, 6]);
  assert.equal(e.bits, '001');
  assert.equal(e.fingerprint, 1n);
  assert.deepEqual(
    e.features.map((f) => f.bits),
    ['101', '011', '100', '001', '110'],
  );
  assert.equal(sp.fingerprintHashes(hashes, 3), 0b001n);
});

test('Accumulator steps through the 3-bit worked example', () => {
  const acc = new sp.Accumulator(3);
  const steps = [];
  for (const [h, w] of [
    [0b101n, 1],
    [0b011n, 2],
    [0b100n, 0],
    [0b001n, 3],
    [0b110n, 0],
  ]) {
    acc.add(h, w);
    steps.push([...acc.v]);
  }
  assert.deepEqual(steps, [
    [1, -1, 1],
    [-1, 1, 3],
    [-1, 1, 3],
    [-4, -2, 6],
    [-4, -2, 6],
  ]);
  assert.equal(acc.bits, '001');
  assert.equal(acc.fingerprint, 1n);
  assert.throws(() => acc.add(0b1000n, 1), /value needs 4 bits but the width is 3/);
  assert.throws(() => acc.add(1n, NaN), /weight must be a finite number/);
  assert.deepEqual([...acc.v], [-4, -2, 6], 'a rejected add leaves V unchanged');
  assert.ok(acc.v instanceof Float64Array);
  acc.free();
});

test('6-bit worked example: V = (9, -9, 1, -1, 1, 9), fingerprint 101011', () => {
  const hashes = [
    [0b100101n, 4],
    [0b101011n, 5],
  ];
  const e = sp.explainHashes(hashes, 6);
  assert.deepEqual(e.v, [9, -9, 1, -1, 1, 9]);
  assert.equal(e.bits, '101011');
  assert.equal(sp.fingerprintHashes(hashes, 6), 0b101011n);
});

test('fragility: the bits one feature more or less could flip, against every one-feature change', () => {
  // 美国 100101 (weight 4) and 51区 101011 (weight 5): V = (9, -9, 1, -1, 1, 9).
  assert.deepEqual(
    sp.fragilityOfHashes(
      [
        [0b100101n, 4],
        [0b101011n, 5],
      ],
      6,
    ),
    [
      { removals: [], addition: null },
      { removals: [], addition: null },
      { removals: [1], addition: 4 },
      { removals: [1], addition: 4 },
      { removals: [1], addition: 4 },
      { removals: [], addition: null },
    ],
  );
  // A text's bits, against fingerprinting every changed feature list again: each feature
  // removed, and one feature of each weight added with an all-ones and an all-zeros hash.
  for (const options of [{ width: 16 }, { width: 64, weighting: 'tf' }]) {
    const text = 'The cat sat on the mat. The dog sat on the log, and the cat sat again.';
    const fp = new sp.Fingerprinter(options);
    const e = fp.explain(text);
    const rows = e.features.map((f) => [f.hash, f.weight]);
    const flips = (list) => {
      const bits = sp.explainHashes(list, e.width).bits;
      return [...bits].map((b, i) => b !== e.bits[i]);
    };
    const want = e.v.map(() => ({ removals: [], addition: null }));
    rows.forEach((_, j) =>
      flips(rows.filter((__, r) => r !== j)).forEach((f, i) => f && want[i].removals.push(j)),
    );
    const all = (1n << BigInt(e.width)) - 1n;
    for (const w of [...new Set(rows.map(([, w]) => w))].sort((a, b) => a - b)) {
      for (const hash of [all, 0n]) {
        flips([...rows, [hash, w]]).forEach((f, i) => {
          if (f && want[i].addition === null) want[i].addition = w;
        });
      }
    }
    assert.deepEqual(fp.fragility(text), want, JSON.stringify(options));
    assert.ok(
      want.some((b) => b.removals.length) && want.some((b) => b.addition === null),
      'some bits are fragile, some not',
    );
    fp.free();
  }
  assert.throws(
    () => sp.fragilityOfHashes([[0b1000n, 1]], 3),
    /value needs 4 bits but the width is 3/,
  );
});

test('golden vectors match in Node', () => {
  assert.ok(golden.vectors.length >= 30);
  for (const v of golden.vectors) {
    const fp = sp.fingerprint(v.text, v.options);
    assert.equal(typeof fp, 'bigint');
    assert.equal(sp.toHex(fp, v.options.width ?? 64), v.hex, v.name);
  }
});

// The CJK bigram fast path (bigrams met recently skipped, new ones hashed in batches) and the
// table sized for each text, through the package: fingerprints equal explanations', whose
// features go one by one through the generic path. Texts from 150 characters (a table with room
// for every feature) to 40,000 (the long-text sizing), dense (every bigram new) and repetitive,
// runs longer and shorter than a batch, one at the very end.
test('CJK text of every density and length fingerprints as its explanation does', () => {
  const han = [
    ...'的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持音跑',
  ];
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  const texts = [];
  for (const length of [150, 1_000, 10_000, 40_000]) {
    // Dense: characters drawn from the whole list; repetitive: from its first twenty.
    for (const pool of [han.length, 20]) {
      let text = '';
      while (text.length < length) {
        const r = next();
        if (r % 17 === 0) text += ' apt-get ';
        else if (r % 29 === 0) text += '。';
        else text += han[r % pool];
      }
      texts.push(text, `${text}x`);
    }
  }
  const fp = new sp.Fingerprinter({});
  // With IDF the set of bigrams is the same kind (binary weights), weighted at the end.
  const df = new sp.DocumentFrequencies();
  for (const text of texts.slice(0, 4)) df.add(text);
  const idf = df.fingerprinter();
  for (const text of texts) {
    assert.equal(fp.fingerprint(text), fp.explain(text).fingerprint, `${text.length} characters`);
    assert.equal(
      idf.fingerprint(text),
      idf.explain(text).fingerprint,
      `IDF, ${text.length} characters`,
    );
  }
  fp.free();
  idf.free();
  df.free();
});

// Accented Latin letters take the word scanner's fast path, which in wasm reads whole 64-byte
// blocks its own way: a text's fingerprint is that of its words written out by hand, with the
// words at every offset of the scanner's 8-byte words and blocks. The same case natively:
// tests/latin_letters.rs.
test('accented words fingerprint as their words do', () => {
  const body = "Le café d'Amélie, Česky 5ème: naïve l'été. Ærø ÿ ";
  for (let k = 0; k <= 72; k++) {
    const filler = 'z'.repeat(k);
    const text = `${filler} ${body}${body}中文`;
    const words = [filler, 'le', 'café', "d'amélie", 'česky', '5ème', 'naïve', "l'été", 'ærø', 'ÿ'];
    const rows = [...new Set([...words.filter((w) => w !== ''), '中文'])].map((w) => [w, 1]);
    assert.equal(sp.fingerprint(text), sp.fingerprintFeatures(rows), JSON.stringify(text));
  }
});

test('explain agrees with fingerprint and describes every feature', () => {
  const text = 'To be, or not to be: that is the question. 你妈妈喊你回家吃饭哦';
  for (const options of [
    {},
    { width: 8 },
    { width: 128, tokenizer: 'chars', n: 3 },
    { weighting: 'binary' },
  ]) {
    const e = sp.explain(text, options);
    assert.equal(e.fingerprint, sp.fingerprint(text, options));
    assert.equal(e.width, options.width ?? 64);
    assert.equal(e.v.length, e.width);
    assert.equal(e.bits, [...e.v].map((x) => (x > 0 ? '1' : '0')).join(''));
    assert.equal(e.hex, sp.toHex(e.fingerprint, e.width));
    for (const f of e.features) {
      assert.equal(typeof f.feature, 'string');
      assert.equal(f.bits.length, e.width);
      assert.equal(BigInt(`0b${f.bits}`), f.hash);
    }
  }
  const to = sp
    .explain('to be or not to be', { weighting: 'tf' })
    .features.find((f) => f.feature === 'to');
  assert.equal(to.weight, 2);
  const once = sp.explain('to be or not to be').features.find((f) => f.feature === 'to');
  assert.equal(once.weight, 1, 'binary weights by default');
});

test('fingerprintMany: many texts in one call, as a BigUint64Array', () => {
  const texts = ['one text', '第二个文本', '', 'The quick brown fox'];
  const fp = new sp.Fingerprinter();
  const many = fp.fingerprintMany(texts);
  assert.ok(many instanceof BigUint64Array);
  assert.deepEqual(
    [...many],
    texts.map((t) => sp.fingerprint(t)),
  );
  const wide = new sp.Fingerprinter({ width: 128 }).fingerprintMany(texts);
  assert.equal(wide.length, 8);
  assert.equal((wide[6] << 64n) | wide[7], sp.fingerprint('The quick brown fox', { width: 128 }));
  assert.throws(() => fp.fingerprintMany(['a', 5]), /texts\[1\] must be a string, got number/);
  // The fast path hands anything but strings to the generic export, its messages included.
  const holes = ['a', 'b'];
  holes[3] = 'd';
  assert.throws(() => fp.fingerprintMany(holes), /texts\[2\] must be a string, got undefined/);
  const getter = ['a', 'b'];
  Object.defineProperty(getter, 1, {
    get() {
      throw new Error('element says no');
    },
  });
  assert.throws(() => fp.fingerprintMany(getter), /texts\[1\] could not be read: element says no/);
  const lengths = Array.from({ length: 40 }, (_, i) => i);
  for (const n of lengths) {
    const some = texts.concat(texts, texts, texts, texts, texts, texts).slice(0, n);
    assert.deepEqual(
      [...fp.fingerprintMany(some)],
      some.map((t) => fp.fingerprint(t)),
      `${n}`,
    );
  }
  assert.throws(() => fp.fingerprintMany('a'), /texts must be an array of strings/);
  fp.free();
});

test('streaming equals one-shot for random chunkings, bytes and strings', () => {
  const text =
    'Streaming 指纹, split anywhere: 一字不差。 Ｆｕｌｌ　ｗｉｄｔｈ ｶﾞｲﾄﾞ and emoji 👩‍💻 too.\n'.repeat(
      20,
    );
  const bytes = new TextEncoder().encode(text);
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (const options of [
    {},
    { tokenizer: 'words', n: 2 },
    { tokenizer: 'chars', n: 3, weighting: 'tf' },
    { width: 128 },
  ]) {
    const fp = new sp.Fingerprinter(options);
    const expected = fp.fingerprint(text);
    for (let round = 0; round < 20; round++) {
      const stream = fp.stream();
      for (let i = 0; i < bytes.length; ) {
        const n = 1 + (next() % 17);
        stream.update(bytes.subarray(i, i + n));
        i += n;
      }
      assert.equal(stream.bytes, bytes.length);
      assert.equal(stream.finish(), expected, JSON.stringify(options));
    }
    const s = fp.stream();
    for (const part of text.split(' ')) s.update(`${part} `);
    assert.equal(
      s.finish(),
      fp.fingerprint(
        text
          .split(' ')
          .map((p) => `${p} `)
          .join(''),
      ),
    );
    assert.throws(() => s.update('more'), /the stream is finished/);
    assert.throws(
      () => fp.stream().update(5),
      /chunk must be a Uint8Array or a string, got number/,
    );
    fp.free();
  }
});

test('Fingerprinter reuses checked options', () => {
  const fp = new sp.Fingerprinter({ width: 128, tokenizer: 'words', n: 2 });
  assert.equal(fp.width, 128);
  const a = fp.fingerprint('the quick brown fox jumps');
  assert.equal(
    a,
    sp.fingerprint('the quick brown fox jumps', { width: 128, tokenizer: 'words', n: 2 }),
  );
  assert.ok(a < 1n << 128n);
  assert.equal(fp.explain('the quick brown fox jumps').fingerprint, a);
  fp.free();
});

test('near-duplicates are close, unrelated texts are far', () => {
  const a = sp.fingerprint('你妈妈喊你回家吃饭哦,回家罗回家罗');
  const b = sp.fingerprint('你妈妈叫你回家吃饭啦,回家罗回家罗');
  const en = sp.fingerprint(
    'The quick brown fox jumps over the lazy dog near the bank of the river',
  );
  assert.ok(sp.hamming(a, b) + 10 <= sp.hamming(a, en), `chinese pair at ${sp.hamming(a, b)}`);
  assert.ok(sp.hamming(a, en) >= 24);
  // The core's rule (src/recommend.rs), derived from each text's features: two bigrams change
  // with each edited CJK character, one word with each edited word.
  assert.equal(sp.recommendedK('你妈妈喊你回家吃饭哦,回家罗回家罗'), 15);
  assert.equal(sp.recommendedK('An English sentence'), 12);
  assert.equal(sp.recommendedK('An English sentence', 128), 23);
});

test('recommendedK takes a width or { width, tolerance, far }; compare gives the verdict at a k', () => {
  const text = 'An English sentence that is long enough to have a few words in it';
  const k = sp.recommendedK(text);
  assert.equal(sp.recommendedK(text, {}), k);
  assert.equal(sp.recommendedK(text, { tolerance: 0.1, far: 0.2 }), k);
  assert.equal(sp.recommendedK(text, { width: 128 }), sp.recommendedK(text, 128));
  // A stricter tolerance asks for fewer bits, a looser one for more.
  assert.deepEqual(
    [0.05, 0.1, 0.2].map((tolerance) => sp.recommendedK(text, { tolerance })),
    [8, 12, 17],
  );
  assert.ok(sp.recommendedK(text, { far: 0.4 }) > k);
  // A fingerprinter's own pipeline: word 3-shingles change three features for each edited word.
  const plain = new sp.Fingerprinter();
  const shingles = new sp.Fingerprinter({ wordN: 3 });
  assert.equal(plain.recommendedK(text), k);
  assert.equal(plain.recommendedK(text, { tolerance: 0.2 }), 17);
  assert.ok(shingles.recommendedK(text) > k);
  assert.equal(new sp.Fingerprinter({ width: 128 }).recommendedK(text), sp.recommendedK(text, 128));
  assert.throws(() => plain.recommendedK(text, { width: 128 }), /unknown field `width`/);
  plain.free();
  shingles.free();
  for (const bad of [
    { tolerance: 0 },
    { tolerance: 1 },
    { tolerance: 0.2, far: 0.1 },
    { far: 1.5 },
    { tolerance: NaN },
  ]) {
    assert.throws(
      () => sp.recommendedK(text, bad),
      /tolerance must be a share of the text edited/,
      JSON.stringify(bad),
    );
  }
  assert.throws(() => sp.recommendedK(text, { tolerence: 0.1 }), /unknown field `tolerence`/);
  assert.throws(() => sp.recommendedK(text, { tolerance: '0.1' }), /tolerance must be a number/);
  assert.deepEqual(sp.defaults().tolerance, { near: 0.1, far: 0.2 });
  // The quality mode: one-bit MinHash at 128 bits, each text at its own k for them.
  const { width, algorithm } = sp.defaults().quality;
  assert.deepEqual({ width, algorithm }, { width: 128, algorithm: 'minhash' });
  const quality = new sp.Fingerprinter({ width, algorithm });
  assert.ok(quality.recommendedK(text) > sp.recommendedK(text));
  assert.ok(quality.recommendedK(text) < sp.recommendedK(text, width));
  quality.free();

  const a = sp.fingerprint('你妈妈喊你回家吃饭哦,回家罗回家罗');
  const b = sp.fingerprint('你妈妈叫你回家吃饭啦,回家罗回家罗');
  const d = sp.hamming(a, b);
  assert.equal(sp.compare(a, b).nearDuplicate, undefined);
  assert.equal(sp.compare(a, b, { k: d }).nearDuplicate, true);
  assert.equal(sp.compare(a, b, { k: d - 1 }).nearDuplicate, false);
  assert.deepEqual(
    { ...sp.compare(a, b, { k: d }), nearDuplicate: undefined },
    { ...sp.compare(a, b), nearDuplicate: undefined },
  );
  assert.equal(sp.compare(a, b, { width: 64 }).distance, d);
  assert.equal(sp.compare(1n << 100n, 0n, { width: 128, k: 1 }).nearDuplicate, true);
  assert.throws(
    () => sp.compare(a, b, { k: 65 }),
    /k must be between 0 and the width \(64\), got 65/,
  );
  assert.throws(() => sp.compare(a, b, { k: 1.5 }), /\bk\b/);
  assert.throws(() => sp.compare(a, b, { kk: 1 }), /unknown field `kk`/);
});

test('width folding, log-tf weights and IDF from document frequencies', () => {
  assert.equal(sp.fingerprint('Ｔｅｘｔ　１２３ ｶﾞｲﾄﾞ'), sp.fingerprint('text 123 ガイド'));
  assert.notEqual(
    sp.fingerprint('Ｔｅｘｔ１２３', { normalization: 'none' }),
    sp.fingerprint('text123', { normalization: 'none' }),
  );
  const log = sp.explain('spam spam spam eggs', { weighting: 'logtf' });
  assert.equal(log.features.find((f) => f.feature === 'spam').weight, 1 + Math.log(3));
  assert.equal(log.fingerprint, sp.fingerprint('spam spam spam eggs', { weighting: 'logtf' }));

  const df = new sp.DocumentFrequencies();
  for (const doc of ['the cat sat', 'the dog ran', 'the bird flew']) df.add(doc);
  assert.equal(df.documents, 3);
  assert.equal(df.frequency('the'), 3);
  assert.equal(df.idf('cat'), Math.log(4 / 2) + 1);
  const fp = df.fingerprinter();
  const e = fp.explain('the cat');
  assert.ok(e.features[0].weight < e.features[1].weight, 'common words weigh less');
  assert.equal(e.fingerprint, fp.fingerprint('the cat'));
  df.add('cat cat cat');
  assert.equal(
    fp.explain('the cat').features[1].weight,
    e.features[1].weight,
    'a fingerprinter keeps its table',
  );
  assert.throws(() => df.fingerprinter('idf'), /unknown weighting "idf"/);
  fp.free();
  df.free();
});

test('caller-supplied features', () => {
  const a = sp.fingerprintFeatures([
    ['美国', 4],
    ['51区', 5],
  ]);
  assert.equal(
    a,
    sp.explainFeatures([
      ['美国', 4],
      ['51区', 5],
    ]).fingerprint,
  );
  assert.equal(sp.fingerprintFeatures([['a', 1]], { width: 8 }) >> 0n < 256n, true);
  // Features are taken as given: no case folding.
  assert.notEqual(sp.fingerprintFeatures([['Word', 1]]), sp.fingerprintFeatures([['word', 1]]));
  assert.equal(
    sp.fingerprintFeatures([
      ['x', 1],
      ['x', 2],
    ]),
    sp.fingerprintFeatures([['x', 3]]),
  );
  // Weights of 1 are counted as integers until another weight comes: the same as the float
  // sums explainFeatures reports, and a bad weight after them is still an error.
  const words = Array.from({ length: 300 }, (_, i) => `w${i % 37}`);
  for (const tail of [
    [],
    [['late', 0.3]],
    [
      ['neg', -1.5],
      ['w1', 1],
    ],
  ]) {
    const features = [...words.map((w) => [w, 1]), ...tail];
    assert.equal(sp.fingerprintFeatures(features), sp.explainFeatures(features).fingerprint);
  }
  assert.throws(
    () =>
      sp.fingerprintFeatures([
        ['a', 1],
        ['b', 1],
        ['c', NaN],
      ]),
    /weight/,
  );
  // After the refused call the module still computes the right fingerprints (a golden vector:
  // comparing a call with itself would pass on a module left in any state).
  const known = golden.vectors[0];
  assert.deepEqual(known.options, {});
  assert.equal(sp.toHex(sp.fingerprint(known.text)), known.hex);
});

// Random feature lists for the string form: empty strings, CJK, emoji, combining marks, lone
// surrogates of both halves (so a feature may start or end with one, and two features may put
// a high and a low one side by side), long runs (the JS side's buffer grows), repeats.
const PIECES = [
  'a',
  'word',
  'Word',
  '',
  ' ',
  'é',
  'ß',
  '中文',
  '的',
  '😀',
  '👍🏽',
  'e\u0301',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\ud83d',
  '\ude00',
  'x'.repeat(300),
  'ü'.repeat(200),
  '语'.repeat(150),
];
const WEIGHTS = [1, 1, 1, 1, 2, 0, -1.5, 0.25, 1e-300, -0, 3e10];

function randomLists(seed, count) {
  const next = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  const lists = [
    [],
    [''],
    ['\ud800', '\udc00'],
    ['\ud83d', '', '\ude00'],
    ['a\udbff', '\udfffb', '\ud800\udc00'],
  ];
  while (lists.length < count) {
    const n = Math.floor(next() ** 2 * 60);
    const list = [];
    for (let i = 0; i < n; i++) {
      if (i > 0 && next() < 0.2) list.push(pick(list));
      else list.push(Array.from({ length: Math.floor(next() * 5) }, () => pick(PIECES)).join(''));
    }
    lists.push(list);
  }
  return lists.map((features) => ({ features, weights: features.map(() => pick(WEIGHTS)) }));
}

test('features as a string[]: the same fingerprints as pairs, and as hashing each feature alone', () => {
  const key = '000102030405060708090a0b0c0d0e0f';
  for (const options of [{}, { width: 128, key }, { width: 8 }]) {
    const width = options.width ?? 64;
    const alone = new Map(); // a feature's hash: the fingerprint of it alone, with weight 1
    const hashOf = (s) => {
      if (!alone.has(s)) alone.set(s, sp.fingerprintFeatures([s], options));
      return alone.get(s);
    };
    const fp = new sp.Fingerprinter(options);
    for (const { features, weights } of randomLists(7, 300)) {
      const label = JSON.stringify(features);
      const ones = sp.fingerprintFeatures(features, options);
      assert.equal(
        ones,
        sp.fingerprintFeatures(
          features.map((f) => [f, 1]),
          options,
        ),
        label,
      );
      assert.equal(
        ones,
        sp.fingerprintHashes(
          features.map((f) => [hashOf(f), 1]),
          width,
        ),
        label,
      );
      assert.equal(
        ones,
        sp.fingerprintFeatures(
          features.map((f) => f.toWellFormed()),
          options,
        ),
        label,
      );
      assert.equal(ones, fp.fingerprintFeatures(features), label);
      const pairs = features.map((f, i) => [f, weights[i]]);
      const weighted = sp.fingerprintFeatures(pairs, options);
      assert.equal(
        weighted,
        sp.fingerprintHashes(
          features.map((f, i) => [hashOf(f), weights[i]]),
          width,
        ),
        label,
      );
      assert.equal(weighted, sp.fingerprintFeatures(features, { ...options, weights }), label);
      assert.equal(
        weighted,
        sp.fingerprintFeatures(features, { ...options, weights: Float64Array.from(weights) }),
        label,
      );
      assert.equal(weighted, fp.fingerprintFeatures(features, { weights }), label);
      const explained = sp.explainFeatures(features, { ...options, weights });
      assert.deepEqual(explained, sp.explainFeatures(pairs, options), label);
      assert.deepEqual(explained, fp.explainFeatures(features, { weights }), label);
      assert.equal(explained.fingerprint, weighted, label);
      assert.deepEqual(
        explained.features.map((f) => f.feature),
        features.map((f) => f.toWellFormed()),
        label,
      );
    }
    fp.free();
  }
});

test('a feature hashes as the text pipeline hashes the same word or character', () => {
  const asIs = { caseFold: false, normalization: 'none' };
  for (const [text, options] of [
    ['simhash', { tokenizer: 'words' }],
    ['Near', { tokenizer: 'words' }],
    ['中', { tokenizer: 'chars', n: 1 }],
    ['😀', { tokenizer: 'chars', n: 1 }],
    ['é', { tokenizer: 'chars', n: 1, width: 128 }],
  ]) {
    const [row] = sp.explain(text, { ...asIs, ...options }).features;
    assert.equal(row.feature, text);
    const width = options.width === undefined ? {} : { width: options.width };
    assert.equal(sp.fingerprintFeatures([text], width), row.hash, text);
    assert.equal(sp.fingerprintFeatures([[text, 1]], width), row.hash, text);
  }
});

test('a list the one-crossing reading gives up on is read element by element, to the same fingerprint', () => {
  // Element 0's getter throws once: the JS side gives up and the bindings read every element
  // again one by one (the way that names a bad element in its error).
  const flaky = (list) => {
    const copy = [...list];
    let failed = false;
    Object.defineProperty(copy, 0, {
      get() {
        if (!failed) {
          failed = true;
          throw new Error('not this time');
        }
        return list[0];
      },
    });
    return copy;
  };
  for (const { features, weights } of randomLists(11, 100)) {
    if (features.length === 0) continue;
    const label = JSON.stringify(features);
    const pairs = features.map((f, i) => [f, weights[i]]);
    assert.equal(sp.fingerprintFeatures(flaky(features)), sp.fingerprintFeatures(features), label);
    assert.equal(sp.fingerprintFeatures(flaky(pairs)), sp.fingerprintFeatures(pairs), label);
    assert.equal(
      sp.fingerprintFeatures(features, { weights: flaky(weights) }),
      sp.fingerprintFeatures(pairs),
      label,
    );
    assert.equal(
      sp.fingerprintFeatures(flaky(features), { weights }),
      sp.fingerprintFeatures(pairs),
      label,
    );
    assert.deepEqual(sp.explainFeatures(flaky(pairs)), sp.explainFeatures(pairs), label);
  }
});

test('weights from another realm (a vm context, an iframe) and from subclasses', async () => {
  const { runInNewContext } = await import('node:vm');
  const features = ['a', 'b', 'c'];
  const want = sp.fingerprintFeatures(features.map((f, i) => [f, i + 0.5]));
  assert.equal(
    sp.fingerprintFeatures(features, {
      weights: runInNewContext('new Float64Array([0.5, 1.5, 2.5])'),
    }),
    want,
  );
  assert.equal(
    sp.fingerprintFeatures(features, { weights: runInNewContext('[0.5, 1.5, 2.5]') }),
    want,
  );
  assert.equal(
    sp.fingerprintFeatures(runInNewContext('["a", "b", "c"]'), { weights: [0.5, 1.5, 2.5] }),
    want,
  );
  class Weights extends Float64Array {
    get length() {
      throw new Error('not called');
    }
  }
  assert.equal(sp.fingerprintFeatures(features, { weights: Weights.from([0.5, 1.5, 2.5]) }), want);
});

test('a well-formed list is read once, in one crossing: one read per element', () => {
  const counted = (list) => {
    const counter = { reads: 0 };
    counter.list = new Proxy(list, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) counter.reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    return counter;
  };
  const features = ['alpha', 'beta', '', '中文', 'x\ud800', '\udc00y', 'alpha'];
  const weights = features.map((_, i) => i - 2.5);
  for (const [list, options] of [
    [features, undefined],
    [features.map((f, i) => [f, weights[i]]), undefined],
    [features, { weights }],
  ]) {
    const c = counted(list);
    sp.fingerprintFeatures(c.list, options);
    assert.equal(c.reads, list.length);
  }
  const w = counted(weights);
  sp.fingerprintFeatures(features, { weights: w.list });
  assert.equal(w.reads, weights.length);
});

test('hex keeps leading zeros and parses back, at 64 and 128 bits', () => {
  assert.equal(sp.toHex(0xabn), '00000000000000ab');
  assert.equal(sp.toHex(1n, 128), `${'0'.repeat(31)}1`);
  assert.equal(sp.toHex(0b101n, 3), '5');
  assert.equal(sp.fromHex('00000000000000ab'), 0xabn);
  assert.equal(sp.fromHex('0xFF', 8), 255n);
  const big = (1n << 128n) - 1n;
  assert.equal(sp.fromHex(sp.toHex(big, 128), 128), big);
});

test('hamming and the estimates', () => {
  assert.equal(sp.hamming(0b10101n, 0b00110n), 3);
  assert.equal(sp.hamming((1n << 128n) - 1n, 0n), 128);
  const c = sp.compare(0n, 0xffffn);
  assert.deepEqual(Object.keys(c).sort(), ['angle', 'cosine', 'distance', 'similarity', 'width']);
  assert.equal(c.distance, 16);
  assert.equal(c.similarity, 0.75);
  assert.ok(Math.abs(c.angle - Math.PI / 4) < 1e-12);
  assert.ok(Math.abs(c.cosine - Math.SQRT1_2) < 1e-12);
});

// Each bad input throws an Error with a clear message, and the module keeps working.
const bad = [
  ['width 0', () => sp.fingerprint('x', { width: 0 }), /width must be between 1 and 128, got 0/],
  [
    'width 129',
    () => sp.fingerprint('x', { width: 129 }),
    /width must be between 1 and 128, got 129/,
  ],
  ['width -1', () => sp.fingerprint('x', { width: -1 }), /width must be a whole number, got -1/],
  [
    'width 64.5',
    () => new sp.Fingerprinter({ width: 64.5 }),
    /width must be a whole number, got 64.5/,
  ],
  ['width NaN', () => sp.toHex(1n, NaN), /width must be a whole number, got NaN/],
  [
    'n = 0',
    () => sp.fingerprint('x', { tokenizer: 'words', n: 0 }),
    /n must be between 1 and 64, got 0/,
  ],
  ['charN = 0', () => sp.fingerprint('x', { charN: 0 }), /charN must be between 1 and 64, got 0/],
  ['n with auto', () => sp.fingerprint('x', { n: 2 }), /n does not apply to tokenizer "auto"/],
  [
    'unknown tokenizer',
    () => sp.fingerprint('x', { tokenizer: 'sentences' }),
    /unknown tokenizer "sentences"/,
  ],
  [
    'unknown weighting',
    () => sp.fingerprint('x', { weighting: 'idf' }),
    /unknown weighting "idf": expected "tf", "logtf" or "binary"/,
  ],
  [
    'unknown normalization',
    () => sp.fingerprint('x', { normalization: 'nfc' }),
    /unknown normalization "nfc"/,
  ],
  ['unknown option', () => sp.fingerprint('x', { widht: 64 }), /unknown field `widht`/],
  ['bad key', () => sp.fingerprint('x', { key: 'abc' }), /invalid key: expected 32 hex digits/],
  ['options not an object', () => sp.fingerprint('x', 64), /options must be an object/],
  ['text not a string', () => sp.fingerprint(42), /text must be a string, got number/],
  ['malformed hex', () => sp.fromHex('12g4'), /malformed hex: 'g' is not a hex digit/],
  ['empty hex', () => sp.fromHex(''), /malformed hex: no hex digits/],
  ['hex too long', () => sp.fromHex('0'.repeat(17)), /malformed hex: 17 digits/],
  ['hex wider than width', () => sp.fromHex('f', 3), /value needs 4 bits but the width is 3/],
  [
    'more hex digits than width',
    () => sp.fromHex('1ff', 8),
    /malformed hex: 3 digits is more than the 2 a 8-bit fingerprint has/,
  ],
  [
    'fingerprint wider than width',
    () => sp.toHex(1n << 64n),
    /fingerprint: value needs 65 bits but the width is 64/,
  ],
  [
    'fingerprint not a BigInt',
    () => sp.toHex(5),
    /fingerprint must be a BigInt or a hex string, got number/,
  ],
  [
    'fingerprint not hex',
    () => sp.toHex('xyz'),
    /fingerprint: malformed hex: 'x' is not a hex digit/,
  ],
  ['negative fingerprint', () => sp.hamming(-1n, 0n), /a must be a BigInt from 0 to 2\^128 - 1/],
  [
    'hash wider than width',
    () => sp.fingerprintHashes([[8n, 1]], 3),
    /hashes\[0\]\[0\]: value needs 4 bits but the width is 3/,
  ],
  [
    'weight not finite',
    () => sp.fingerprintHashes([[1n, Infinity]], 3),
    /hashes\[0\]\[1\] \(the weight\) must be a finite number/,
  ],
  [
    'pair not a pair',
    () => sp.fingerprintFeatures([['a']]),
    /features\[0\] must be a \[item, weight\] pair/,
  ],
  [
    'features not an array',
    () => sp.fingerprintFeatures('a b'),
    /features must be an array of strings or of \[item, weight\] pairs, got string/,
  ],
  [
    'string then not',
    () => sp.fingerprintFeatures(['a', 5]),
    /features\[1\] must be a string like features\[0\], got number/,
  ],
  [
    'pairs with weights',
    () => sp.fingerprintFeatures([['a', 1]], { weights: [1] }),
    /features\[0\] must be a string \(weights go with an array of strings\), got an array/,
  ],
  [
    'weights too short',
    () => sp.fingerprintFeatures(['a', 'b'], { weights: [1] }),
    /weights must hold one weight per feature: 1 for 2 features/,
  ],
  [
    'weights too long',
    () => sp.fingerprintFeatures(['a'], { weights: new Float64Array(2) }),
    /weights must hold one weight per feature: 2 for 1 features/,
  ],
  [
    'weight NaN',
    () => sp.fingerprintFeatures(['a', 'b'], { weights: [1, NaN] }),
    /weights\[1\] must be a finite number, got NaN/,
  ],
  [
    'weight Infinity',
    () => sp.explainFeatures(['a'], { weights: new Float64Array([-Infinity]) }),
    /weights\[0\] must be a finite number, got -Infinity/,
  ],
  [
    'weight a string',
    () => sp.fingerprintFeatures(['a'], { weights: ['1'] }),
    /weights\[0\] must be a finite number, got string/,
  ],
  [
    'weights Float32Array',
    () => sp.fingerprintFeatures(['a'], { weights: new Float32Array(1) }),
    /weights must be a Float64Array or an array of numbers, got object/,
  ],
  [
    'fingerprinter width',
    () => new sp.Fingerprinter().fingerprintFeatures(['a'], { width: 8 }),
    /options: unknown field `width`, expected one of weights/,
  ],
];
for (const [name, call, message] of bad) {
  test(`bad input throws a clear Error: ${name}`, () => {
    assert.throws(call, (e) => e instanceof Error && message.test(e.message), name);
    // The instance is not poisoned: a normal call still works afterwards.
    assert.equal(sp.toHex(sp.fingerprint('')), '0000000000000000');
  });
}

test('defaults() are what leaving options out gives', () => {
  const d = sp.defaults();
  assert.deepEqual(Object.keys(d.options).sort(), [
    'algorithm',
    'caseFold',
    'charN',
    'key',
    'normalization',
    'tokenizer',
    'weighting',
    'width',
    'wordN',
  ]);
  assert.equal(d.options.key, '73696d7072696e742d7369702d6b6579');
  for (const text of [
    'The cat sat on the MAT. 你妈妈喊你回家吃饭哦,回家罗回家罗',
    'Ｆｕｌｌ-width the the',
  ]) {
    assert.equal(sp.fingerprint(text, d.options), sp.fingerprint(text));
    assert.equal(
      sp.fingerprint(text, { tokenizer: 'words', n: d.n.words }),
      sp.fingerprint(text, { tokenizer: 'words' }),
    );
    assert.equal(
      sp.fingerprint(text, { tokenizer: 'chars', n: d.n.chars }),
      sp.fingerprint(text, { tokenizer: 'chars' }),
    );
  }
  const index = new sp.Index();
  assert.deepEqual({ width: index.width, k: index.k }, { width: d.index.width, k: d.index.k });
  index.free();
  // A Plan without `size` is planned for defaults().index.planSize fingerprints.
  assert.equal(d.index.planSize, 1_000_000);
  const plan = new sp.Plan({ width: 64, k: 9 });
  assert.equal(plan.describe().size, d.index.planSize);
  assert.deepEqual(
    plan.describe(),
    new sp.Plan({ width: 64, k: 9, size: d.index.planSize }).describe(),
  );
  plan.free();
  // A fresh object each time: changing it changes nothing.
  d.options.width = 8;
  assert.equal(sp.defaults().options.width, 64);
});

const KNOWN_TEXT = 'SimHash gives near-duplicate documents fingerprints a few bits apart.';

test('fingerprints as hex strings, for JSON: out with fingerprintHex, in wherever a fingerprint goes', () => {
  const a = sp.fingerprint(KNOWN_TEXT);
  const hex = sp.fingerprintHex(KNOWN_TEXT);
  assert.equal(hex, sp.toHex(a));
  assert.equal(
    new sp.Fingerprinter({ width: 128 }).fingerprintHex(KNOWN_TEXT),
    sp.toHex(sp.fingerprint(KNOWN_TEXT, { width: 128 }), 128),
  );
  // Through JSON and back: BigInts cannot go, hex can.
  const doc = JSON.parse(JSON.stringify({ id: 1, fingerprint: hex }));
  assert.equal(sp.hamming(doc.fingerprint, a), 0);
  assert.deepEqual(sp.compare(doc.fingerprint, a), sp.compare(a, a));
  const index = new sp.Index({ k: 3 });
  index.insert(1, doc.fingerprint);
  assert.deepEqual(index.query(`0x${hex}`), [{ id: 1, distance: 0 }]);
  assert.equal(index.get(1), a);
  index.free();
  // Hex wider than the width is the core's error, as fromHex gives it.
  assert.throws(
    () => sp.toHex('1ffff', 16),
    /fingerprint: malformed hex: 5 digits is more than the 4 a 16-bit fingerprint has/,
  );
  assert.throws(
    () => sp.toHex('1f', 4),
    /fingerprint: malformed hex: 2 digits is more than the 1 a 4-bit fingerprint has/,
  );
  assert.throws(() => sp.toHex('f', 3), /fingerprint: value needs 4 bits but the width is 3/);
});

test('toBinary: the bits, bit 0 (most significant) first, as explain draws them', () => {
  assert.equal(sp.toBinary(0b101011n, 6), '101011');
  assert.equal(sp.toBinary(1n), `${'0'.repeat(63)}1`);
  const e = sp.explain('near duplicate');
  assert.equal(sp.toBinary(e.fingerprint), e.bits);
  assert.throws(() => sp.toBinary(8n, 3), /fingerprint: value needs 4 bits but the width is 3/);
});

test("a stream made with { recommend: true } gives the whole text's recommended k, for any chunking", () => {
  const texts = [
    'Debian 管理员手册介绍了如何安装和配置系统，以及如何使用 APT 工具维护软件包。',
    'A short comment, seven words long.',
    `${'SimHash keeps near-duplicate documents close in Hamming distance. '.repeat(40)}日本語のテキスト。`,
    '',
  ];
  for (const options of [{}, { width: 128 }, { tokenizer: 'words', n: 3 }]) {
    const fp = new sp.Fingerprinter(options);
    for (const text of texts) {
      for (const size of [1, 3, 17, 1000]) {
        const bytes = new TextEncoder().encode(text);
        const stream = fp.stream({ recommend: true });
        for (let i = 0; i < bytes.length; i += size) stream.update(bytes.subarray(i, i + size));
        assert.deepEqual(stream.finishRecommending(), {
          fingerprint: fp.fingerprint(text),
          k: fp.recommendedK(text),
          features: fp.featureCount(text),
        });
      }
      const strict = fp.stream({ recommend: true, tolerance: 0.05 });
      strict.update(text);
      assert.equal(strict.finishRecommending().k, fp.recommendedK(text, { tolerance: 0.05 }));
    }
  }
  const fp = new sp.Fingerprinter();
  assert.throws(
    () => fp.stream({ tolerance: 0.05 }),
    /tolerance and far need \{ recommend: true \}/,
  );
  assert.throws(() => fp.stream({ recommend: 1 }), /recommend must be true or false/);
  assert.throws(() => fp.stream({ recommend: true, tolerance: 2 }), /tolerance/i);
  assert.throws(() => fp.stream({ recomend: true }), /unknown field `recomend`/);
  const plain = fp.stream();
  plain.update('text');
  assert.throws(() => plain.finishRecommending(), /needs a stream made with \{ recommend: true \}/);
});

test('featureCount and fingerprintCounted: the distinct features explain lists, in one pass with the fingerprint', () => {
  const fp = new sp.Fingerprinter();
  assert.equal(fp.featureCount('the cat and the hat'), 4);
  assert.equal(fp.featureCount('The CAT, the hat!'), 3);
  assert.equal(fp.featureCount(''), 0);
  for (const options of [{}, { width: 128 }, { weighting: 'tf' }]) {
    const f = new sp.Fingerprinter(options);
    for (const text of [
      '',
      'Near-duplicate detection, near-duplicate DETECTION: the same words again.',
      '近似重复检测找出几乎相同的文档，例如只改了几个字的副本。近似重复检测',
      'SimHash 指纹 in English and 中文 mixed, ｆｕｌｌ ｗｉｄｔｈ too',
    ]) {
      const features = f.featureCount(text);
      assert.equal(features, f.explain(text).features.length, text);
      assert.deepEqual(f.fingerprintCounted(text), { fingerprint: f.fingerprint(text), features });
    }
  }
  assert.throws(() => fp.featureCount(42), /text must be a string/);
  assert.throws(() => fp.fingerprintCounted(null), /text must be a string/);
});

test('pairK: the k for a pair of texts from both their feature counts', () => {
  const fp = new sp.Fingerprinter();
  const a =
    'Near-duplicate detection finds documents that are almost the same, such as a page and ' +
    'its copy with a few words changed, among millions of others, by comparing short ' +
    'fingerprints instead of whole texts, so that a crawler or an editor can keep one copy.';
  const b = a.replace('a few words', 'some words').replace('keep one', 'keep a single');
  const k = sp.pairK(fp.featureCount(a), fp.featureCount(b));
  assert.ok(k > 0);
  assert.ok(sp.hamming(fp.fingerprint(a), fp.fingerprint(b)) <= k);
  // Symmetric; largest at equal sizes; sizes a tenth apart in the near share's square rule
  // out a near-duplicate whatever the distance.
  assert.equal(sp.pairK(400, 500), sp.pairK(500, 400));
  assert.ok(sp.pairK(1000, 900) < sp.pairK(1000, 1000));
  assert.equal(sp.pairK(1000, 800), 0);
  assert.ok(sp.pairK(500, 500, 128) > sp.pairK(500, 500));
  assert.equal(sp.pairK(500, 500, { width: 128 }), sp.pairK(500, 500, 128));
  assert.ok(sp.pairK(500, 500, { tolerance: 0.2 }) > sp.pairK(500, 500));
  assert.equal(sp.pairK(500, 500, { tolerance: 0.1, far: 0.2 }), sp.pairK(500, 500));
  assert.throws(() => sp.pairK('5', 5), /featuresA must be a number/);
  assert.throws(() => sp.pairK(5, -1), /featuresB must be a whole number/);
  assert.throws(() => sp.pairK(5, 5, { tolerance: 0.3, far: 0.2 }), /tolerance/);
  assert.throws(() => sp.pairK(5, 5, { widht: 64 }), /unknown field `widht`/);
  assert.throws(() => sp.pairK(5, 5, 0), /width must be between 1 and 128, got 0/);
  assert.throws(() => sp.pairK(5, 5, { width: 129 }), /width must be between 1 and 128, got 129/);
  assert.throws(() => sp.pairK(5, 5, 'wide'), /options must be an object, got string/);
  assert.throws(() => sp.pairK(5, 5, { width: 1.5 }), /width must be a whole number, got 1.5/);
});

test('pairKLimit: pairK as a table a SQL join can read, exactly pairK for every pair of counts', () => {
  for (const options of [{}, { width: 128 }, { width: 32, tolerance: 0.05, far: 0.1 }]) {
    const most = sp.pairK(1, 1, options);
    const limits = Array.from({ length: 70 }, (_, d) => sp.pairKLimit(d, options));
    assert.equal(limits[0], Number.MAX_VALUE, 'every pair is within 0');
    assert.ok(limits[most] >= 1 && limits.slice(most + 1).every((l) => l === 0));
    // pairK(a, b) ≥ d exactly while max(a, b, 1) / max(min(a, b), 1) ≤ limits[d].
    for (let a = 0; a < 700; a += 3)
      for (let b = Math.max(0, a - 200); b < a + 200; b += 7) {
        const ratio = Math.max(a, b, 1) / Math.max(Math.min(a, b), 1);
        const k = limits.filter((limit) => ratio <= limit).length - 1;
        assert.equal(k, sp.pairK(a, b, options), `${JSON.stringify(options)}: ${a}, ${b}`);
      }
  }
  assert.equal(sp.pairKLimit(3, 64), sp.pairKLimit(3, { width: 64 }));
  assert.throws(() => sp.pairKLimit('3'), /d must be a number/);
  assert.throws(() => sp.pairKLimit(-1), /d must be a whole number/);
  assert.throws(() => sp.pairKLimit(3, { tolerance: 0.3, far: 0.2 }), /tolerance/);
  assert.throws(() => sp.pairKLimit(3, 0), /width must be between 1 and 128, got 0/);
});

test('algorithm "minhash": one-bit MinHash fingerprints, their k rules and what they refuse', () => {
  const mh = new sp.Fingerprinter({ width: 128, algorithm: 'minhash' });
  assert.equal(mh.algorithm, 'minhash');
  assert.equal(new sp.Fingerprinter().algorithm, sp.defaults().options.algorithm);
  assert.equal(sp.defaults().options.algorithm, 'simhash');
  const words = Array.from({ length: 300 }, (_, i) => `w${i}`);
  const edited = words.map((w, i) => (i % 20 === 0 ? `x${i}` : w));
  const other = words.map((_, i) => `y${i}`);
  const [a, b, c] = [words, edited, other].map((t) => mh.fingerprint(t.join(' ')));
  assert.ok(a < 2n ** 128n);
  // A set: repeats change nothing, and the same features given by hand give the same bits.
  assert.equal(mh.fingerprint(`${words.join(' ')} ${words.join(' ')}`), a);
  assert.equal(mh.fingerprintFeatures(words), a);
  assert.throws(
    () => mh.fingerprintFeatures([['w1', 2]]),
    /a feature weight other than 1 does not apply to algorithm "minhash"/,
  );
  // Copies close, strangers far, and both rules put k between them.
  const near = sp.hamming(a, b);
  const far = sp.hamming(a, c);
  const k = mh.recommendedK(words.join(' '));
  assert.ok(near <= k && k < far, `${near} ${k} ${far}`);
  const n = mh.featureCount(words.join(' '));
  assert.equal(n, 300);
  assert.deepEqual(mh.fingerprintCounted(words.join(' ')), { fingerprint: a, features: 300 });
  assert.throws(() => mh.pairK('300', 300), /featuresA must be a number/);
  assert.throws(() => mh.pairK(300, -1), /featuresB must be a whole number/);
  assert.throws(() => mh.pairK(300, 300, { tolerance: 0.3, far: 0.2 }), /tolerance/);
  assert.throws(() => mh.pairK(300, 300, { width: 64 }), /unknown field `width`/);
  assert.equal(mh.pairK(n, n), sp.pairK(n, n, { width: 128, algorithm: 'minhash' }));
  assert.ok(mh.pairK(n, n) >= mh.pairK(n, 290));
  assert.notEqual(sp.pairK(n, n, { width: 128, algorithm: 'minhash' }), sp.pairK(n, n, 128));
  assert.equal(sp.pairK(n, n, { width: 128, algorithm: 'simhash' }), sp.pairK(n, n, 128));
  assert.throws(
    () => sp.pairK(5, 5, { algorithm: 'lsh' }),
    /unknown algorithm "lsh": expected "simhash" or "minhash"/,
  );
  // A stream gives the one-shot fingerprint and k.
  const stream = mh.stream({ recommend: true });
  for (const w of words) stream.update(`${w} `);
  assert.deepEqual(stream.finishRecommending(), { fingerprint: a, k, features: n });
  // What SimHash has and a set of features has not.
  assert.throws(() => mh.explain('text'), /explain does not apply to algorithm "minhash"/);
  assert.throws(() => mh.explainFeatures(['text']), /explain does not apply/);
  const df = new sp.DocumentFrequencies({ algorithm: 'minhash' });
  df.add('some text');
  assert.throws(
    () => df.fingerprinter(),
    /document frequencies does not apply to algorithm "minhash"/,
  );
  df.free();
  assert.throws(() => mh.fragility('text'), /explain does not apply to algorithm "minhash"/);
  assert.throws(
    () => new sp.Fingerprinter({ algorithm: 'minhash', weighting: 'tf' }),
    /weighting "tf" does not apply to algorithm "minhash"/,
  );
  assert.throws(
    () => new sp.Fingerprinter({ algorithm: 'MinHash' }),
    /unknown algorithm "MinHash"/,
  );
  assert.throws(() => new sp.Fingerprinter({ algorithm: 1 }), /algorithm must be a string/);
  // The index takes its fingerprints as it takes any 128-bit ones.
  const index = new sp.Index({ width: 128, k: 20 });
  index.insert(1, a);
  index.insert(2, c);
  assert.deepEqual(index.query(b, k), [{ id: 1, distance: near }]);
  index.free();
});

test('collectionK: the largest k at which a collection of unrelated fingerprints gives no chance match', () => {
  assert.equal(sp.collectionK(1_000_000), 11);
  assert.equal(sp.collectionK(1_000_000, 128), 34);
  assert.equal(sp.collectionK(1000), 16);
  assert.equal(sp.collectionK(0), 64);
  assert.equal(
    sp.collectionK(1000, 8),
    undefined,
    'no k keeps a thousand 8-bit fingerprints apart',
  );
  // Larger collections never allow a larger k.
  let last = Infinity;
  for (const n of [1, 10, 100, 1e4, 1e6, 1e8, 4e9]) {
    const k = sp.collectionK(n);
    assert.ok(k <= last, `${n}: ${k}`);
    last = k;
  }
  assert.throws(() => sp.collectionK(-1), /documents must be a whole number/);
  assert.throws(() => sp.collectionK('10'), /documents must be a number/);
  assert.throws(() => sp.collectionK(10, 'wide'), /width must be a number/);
  assert.throws(() => sp.collectionK(10, 200), /width/);
});

// fast.js takes the commonest calls past the generic exports; each must answer exactly as the
// generic path does (reached here through fingerprintMany, hex strings and explicit options).
test('the fast paths agree with the generic exports', () => {
  const texts = [
    '',
    'a',
    'The quick brown fox',
    'é'.repeat(99),
    'é'.repeat(100),
    'ü'.repeat(65_536),
    'ü'.repeat(65_537),
    'naïve café 東京タワー 서울',
    'lone \ud800 surrogate \udfff',
    `${'x'.repeat(70_000)} y z`,
    'word '.repeat(20_000),
    '日本語のテキスト'.repeat(9_000),
  ];
  // Mostly ASCII with lone surrogates and accents at shifting places, some between the
  // characters fast.js samples: the encodeInto path must read them as the glue does.
  for (let k = 0; k < 24; k++) texts.push(`${'a '.repeat(75 + k)}\ud800é\udc00 ${'b '.repeat(75)}`);
  for (const width of [64, 128, 17]) {
    const fp = new sp.Fingerprinter({ width });
    // fingerprint(text, options) reads the text through the generic export.
    const expected = texts.map((t) => sp.fingerprint(t, { width }));
    const many = fp.fingerprintMany(texts);
    const words = width > 64 ? expected.flatMap((v) => [v >> 64n, v & (2n ** 64n - 1n)]) : expected;
    assert.deepEqual([...many], words, `fingerprintMany, width ${width}`);
    texts.forEach((t, i) => {
      const generic = expected[i];
      assert.equal(fp.fingerprint(t), generic, `width ${width}, text ${i}`);
      assert.deepEqual(
        fp.fingerprintCounted(t),
        { fingerprint: generic, features: fp.featureCount(t) },
        `fingerprintCounted, width ${width}, text ${i}`,
      );
      if (width === 64) {
        assert.equal(sp.fingerprint(t), generic, `fingerprint(), text ${i}`);
        assert.equal(sp.fingerprint(t, {}), generic);
      }
    });
  }
  // Texts written into the scratch buffer in wasm memory: as it grows (up to the longest it
  // takes, 2^16 units), a shorter text after a longer one (the longer one's bytes stay past
  // it), and after wasm memory grew, which detaches every view of it.
  const ascii = (n, seed) =>
    Array.from({ length: n }, (_, i) => 'abc de fgh, ij.\n'[(i * 7 + seed) % 16]).join('');
  const scratchTexts = [100, 101, 5_000, 150, 65_536, 1_000, 120].map(ascii);
  const fp = new sp.Fingerprinter();
  const expected = scratchTexts.map((t) => sp.fingerprint(t, {}));
  for (let round = 0; round < 2; round++) {
    scratchTexts.forEach((t, i) => {
      assert.equal(fp.fingerprint(t), expected[i], `scratch text ${i}, round ${round}`);
      assert.equal(sp.fingerprint(t), expected[i], `fingerprint(), scratch text ${i}`);
      assert.equal(fp.fingerprintCounted(t).fingerprint, expected[i]);
    });
    const before = sp.wasmMemoryBytes();
    const index = new sp.Index();
    for (let i = 0; sp.wasmMemoryBytes() === before; i++) index.insert(i, BigInt(i));
    index.free();
  }
  const values = [0n, 1n, 0xffff_ffff_ffff_ffffn, 0x8000_0000_0000_0000n, 0x1234_5678_9abc_def0n];
  for (const a of values) {
    for (const b of values) {
      const hex = [sp.toHex(a), sp.toHex(b)];
      assert.equal(sp.hamming(a, b), sp.hamming(...hex));
      assert.deepEqual(sp.compare(a, b), sp.compare(...hex));
      assert.deepEqual(sp.compare(a, b), sp.compare(a, b, 64));
      assert.deepEqual(sp.compare(a, b, null), sp.compare(a, b, { width: 64 }));
      assert.ok(!('nearDuplicate' in sp.compare(a, b)));
    }
  }
  assert.equal(sp.hamming(1n << 64n, 0n), 1);
  assert.throws(() => sp.hamming(-1n, 0n), /a must be a BigInt from 0 to 2\^128 - 1/);
  assert.throws(() => sp.hamming(1n << 128n, 0n), /a must be a BigInt from 0 to 2\^128 - 1/);
  assert.throws(() => sp.hamming(0n, 1), /b must be a BigInt or a hex string, got number/);
  assert.throws(() => sp.compare(1n << 64n, 0n), /a: /);
  assert.throws(() => new sp.Fingerprinter().fingerprint(42), /text must be a string, got number/);
  assert.throws(() => sp.fingerprint(null), /text must be a string, got null/);
  assert.throws(() => new sp.Fingerprinter().fingerprintCounted(42), /text must be a string/);
});

// The scratch buffer's entries are the glue's, callable by anyone: with a length past what was
// written, more than the buffer holds, or bytes that are not UTF-8 written into wasm memory,
// they read the bytes as TextDecoder does and never trap; a buffer larger than fast.js ever
// asks for is refused (null), and fast.js then copies the glue's way.
test("the scratch buffer's entries read any bytes as TextDecoder does", async () => {
  const glue = await import('../../pkg/simprint_glue.js');
  const fp = new sp.Fingerprinter();
  const memory = glue.__memory();
  assert.ok(memory instanceof WebAssembly.Memory);
  assert.equal(glue.__scratch(3 * 65_536 + 1), 0);
  const at = glue.__scratch(4096);
  assert.notEqual(at, 0);
  const cases = [
    [0x61, 0x62, 0xff, 0x63],
    [0xe6, 0x97],
    [0xed, 0xa0, 0x80, 0x20, 0x78],
    [0xf0, 0x9f, 0x98, 0x80, 0x41],
    [...new TextEncoder().encode('naïve café 東京タワー')],
  ];
  for (const bytes of cases) {
    new Uint8Array(memory.buffer, at, 4096).fill(0).set(bytes);
    const text = new TextDecoder().decode(new Uint8Array(bytes));
    assert.equal(fp.__fingerprintScratch(bytes.length), fp.fingerprint(text), `${bytes}`);
    assert.equal(fp.__fingerprintScratch(0), fp.fingerprint(''));
    assert.equal(fp.__fingerprintCountedScratch(bytes.length), fp.fingerprint(text));
    assert.equal(glue.__lastCount(), fp.featureCount(text));
  }
  // Past the buffer's end: the whole buffer, whatever it holds.
  const capacity = (() => {
    let n = 4096;
    while (glue.__scratch(n * 2) === at && n < 3 * 65_536) n *= 2;
    return n;
  })();
  const whole = new Uint8Array(memory.buffer, glue.__scratch(capacity), capacity);
  whole.fill(0x41);
  whole[7] = 0xc3;
  assert.equal(
    fp.__fingerprintScratch(2 ** 31),
    fp.fingerprint(new TextDecoder().decode(whole.slice())),
  );
  // fast.js finds the buffer where it now is and answers as before.
  const t = 'plain ascii words '.repeat(40);
  assert.equal(fp.fingerprint(t), sp.fingerprint(t, {}));
});

// Options objects are read in one call out of wasm (guard.js's `fields`): every listed field
// once, falsy values as given, null and undefined as absent, fields past the first few
// (algorithm is the tenth of the fingerprint's) like the first, inherited ones too.
test('options are read once each, falsy values as given, null and undefined as absent', () => {
  const t = 'Mixed Case Words And MORE words in Mixed Case';
  const reads = new Map();
  const counted = new Proxy(
    { width: 128, caseFold: false, algorithm: null, key: undefined },
    {
      get(target, name) {
        reads.set(name, (reads.get(name) ?? 0) + 1);
        return target[name];
      },
    },
  );
  const fp = new sp.Fingerprinter(counted);
  assert.equal(fp.width, 128);
  assert.ok(
    [...reads.values()].every((n) => n === 1),
    JSON.stringify([...reads]),
  );
  for (const name of ['width', 'caseFold', 'algorithm', 'key', 'tokenizer', 'weighting'])
    assert.equal(reads.get(name), 1, name);
  const asIs = sp.fingerprint(t, { width: 128, caseFold: false });
  assert.equal(fp.fingerprint(t), asIs);
  assert.notEqual(asIs, sp.fingerprint(t, { width: 128 }));
  assert.equal(sp.fingerprint(t, { width: null, caseFold: undefined }), sp.fingerprint(t));
  assert.equal(sp.fingerprint(t, Object.create({ width: 128 })), sp.fingerprint(t, { width: 128 }));
  assert.equal(
    sp.fingerprint(t, { algorithm: 'minhash', width: 128 }),
    new sp.Fingerprinter({ width: 128, algorithm: 'minhash' }).fingerprint(t),
  );
  assert.notEqual(sp.fingerprint(t, { algorithm: 'minhash' }), sp.fingerprint(t));
  assert.throws(() => sp.fingerprint(t, { width: 0 }), /width/);
  assert.throws(() => sp.pairK(10, 20, { tolerance: 0 }), /tolerance/);
  assert.throws(() => sp.fingerprint(t, { widht: 64 }), /unknown field `widht`/);
  const late = {
    width: 64,
    get algorithm() {
      throw new Error('late getter says no');
    },
  };
  assert.throws(
    () => sp.fingerprint(t, late),
    /^Error: options\.algorithm could not be read: late getter says no$/,
  );
});

// fast.js's Index paths (a whole-number id, a BigInt below 2^64, a 64-bit index, a query at
// the index's k with no limit) answer as the generic exports do, reached here with hex strings;
// anything else takes the generic path, errors included; the internal entries, callable by
// anyone, check what fast.js checks for them.
test('the index fast paths agree with the generic exports', () => {
  let x = 0x243f_6a88_85a3_08d3n;
  const next = () => {
    x = (x * 6364136223846793005n + 1442695040888963407n) & 0xffff_ffff_ffff_ffffn;
    return x;
  };
  const fps = Array.from({ length: 3000 }, next);
  for (const k of [3, 9]) {
    const fast = new sp.Index({ k });
    const generic = new sp.Index({ k });
    fps.forEach((f, i) => {
      assert.equal(fast.insert(i, f), undefined);
      assert.equal(generic.insert(i, sp.toHex(f)), undefined);
    });
    // Stored again: the previous fingerprint comes back.
    assert.equal(fast.insert(7, fps[8]), fps[7]);
    assert.equal(generic.insert(7, sp.toHex(fps[8])), fps[7]);
    for (let i = 0; i < fps.length; i += 7) {
      const near = fps[i] ^ (1n << BigInt(i % 64)) ^ (1n << BigInt((i * 5) % 64));
      assert.deepEqual(fast.query(near), generic.query(sp.toHex(near)), `k ${k}, query ${i}`);
      assert.deepEqual(fast.query(near, undefined, undefined), fast.query(near, null));
    }
    for (const [qk, limit] of [[12], [0], [k, 0], [9, 2], [null, 1], [undefined, 3], [64, 5]]) {
      const q = fps[11] ^ 0x11n;
      assert.deepEqual(
        fast.query(q, qk, limit),
        generic.query(sp.toHex(q), qk, limit),
        `k ${k}: query at ${qk}, limit ${limit}`,
      );
    }
    for (const [qk, limit, message] of [
      [-1, undefined, /k must be a whole number/],
      [1.5, undefined, /k must be a whole number, got 1.5/],
      [65, undefined, /k/],
      [Number.NaN, undefined, /k must be a whole number/],
      [3, -1, /limit must be a whole number/],
      [3, 0.5, /limit must be a whole number from 0 to 2\^53 - 1, got 0.5/],
      [3, 2 ** 53, /limit must be a whole number/],
      ['3', undefined, /k must be a number, got string/],
    ]) {
      assert.throws(() => fast.query(fps[0], qk, limit), message, `${qk}, ${limit}`);
      assert.throws(() => generic.query(sp.toHex(fps[0]), qk, limit), message);
    }
    assert.equal(fast.size, generic.size);
  }
  const index = new sp.Index({ k: 3 });
  index.insert('doc', 5n);
  index.insert(2 ** 53 - 1, 0xffff_ffff_ffff_fff0n);
  assert.deepEqual(index.query(5n), [{ id: 'doc', distance: 0 }]);
  assert.deepEqual(index.query(0xffff_ffff_ffff_fff0n), [{ id: 2 ** 53 - 1, distance: 0 }]);
  assert.throws(
    () => index.insert(-1, 1n),
    /id must be a whole number from 0 to 2\^53 - 1, got -1/,
  );
  assert.throws(() => index.insert(2 ** 53, 1n), /id must be a whole number from 0 to 2\^53 - 1/);
  assert.throws(() => index.insert(1.5, 1n), /got 1.5/);
  assert.throws(() => index.insert(1, 1n << 64n), /fingerprint/);
  assert.throws(() => index.insert(1, -1n), /fingerprint/);
  assert.throws(() => index.query(-1n), /fingerprint/);
  const narrow = new sp.Index({ width: 17, k: 2 });
  assert.equal(narrow.insert(1, 5n), undefined);
  assert.deepEqual(narrow.query(5n), [{ id: 1, distance: 0 }]);
  assert.throws(() => narrow.insert(2, 1n << 20n), /fingerprint/);
  assert.throws(() => narrow.__insert64(2, 1n << 20n), /17/);
  assert.throws(() => narrow.__query64(1n << 20n, -1, -1), /17/);
  assert.throws(() => narrow.__insert64(-1, 1n), /id must be a whole number/);
  assert.throws(() => narrow.__insert64(Number.NaN, 1n), /id must be a whole number/);
  assert.equal(narrow.size, 1);
  assert.deepEqual(narrow.query(5n), [{ id: 1, distance: 0 }]);
  index.free();
  assert.throws(() => index.insert(1, 1n), /freed/);
  assert.throws(() => index.query(1n), /freed/);
});
