// The compare view's lessons, on fixed short texts (so the library is asked here, on the page's
// thread): why k = 3 misses short texts, and why the reference article reports 3 differing
// bits for its Chinese pair where this page shows 17.
import {
  explain,
  Fingerprinter,
  fingerprint,
  fingerprintFeatures,
  hamming,
  pairK,
} from '../pkg/simprint.js';
import { $, drawBinary, escapeHtml } from './common.js';

// The same two-character edit at the end of ever longer texts. The context is written for this
// page; only its length matters.
const CONTEXT = [
  '天色渐渐暗了下来，街上的路灯一盏接一盏地亮起。小明和几个同学还在操场上踢球，谁也不想先回去。',
  '球场边的大树下放着他们的书包和水壶，风一吹，树叶沙沙作响。远处的居民楼里飘出了饭菜的香味，有人家在炒青菜，有人家在炖排骨。',
  '这时，楼上的窗户打开了，邻居阿姨探出头来朝操场喊了一声。小明的朋友们都笑了起来，因为每天到了这个时候，总会有人听到同样的一句话。',
  '大家一边收拾东西，一边约好明天放学以后再来比赛。小明把足球夹在胳膊下面，慢慢地往家的方向走去。',
  '路过小卖部的时候，他停下来看了一眼橱窗里的新文具，心里盘算着下个月的零花钱该怎么用。回到家门口，他闻到了熟悉的红烧肉的味道，肚子立刻咕咕叫了起来。',
  '妈妈在厨房里忙着，爸爸正在阳台上给花浇水，电视里播放着晚间新闻。吃完晚饭以后，小明坐在书桌前写作业，数学题有点难，他想了很久才找到解题的方法。',
];
// The reference's rule of thumb for long texts (“距离小于3的基本都是相似”).
const REFERENCE_K = 3;

// The two 64-bit simhashes the reference article “海量数据相似度计算之simhash和海明距离” prints
// for its pair (“通过simhash计算结果为”).
export const ARTICLE_BITS = [
  '1000010010101101111111100000101011010001001111100001001011001011',
  '1000010010101101011111100000101011010001001111100001101010001011',
];
// The pair cut into words as a Chinese word segmenter would (the article's step 1, 分词), and
// weights in its spirit (its step 1 grades each word 1 to 5 by importance). Written here: the
// article does not print its segmenter's output or its weights for this pair.
const WORDS = [
  ['你', '妈妈', '喊', '你', '回家', '吃饭', '哦', '回家', '罗', '回家', '罗'],
  ['你', '妈妈', '叫', '你', '回家', '吃饭', '啦', '回家', '罗', '回家', '罗'],
];
const IMPORTANCE = { 你: 1, 妈妈: 4, 喊: 2, 叫: 2, 回家: 4, 吃饭: 5, 哦: 1, 啦: 1, 罗: 1 };
// Other SipHash keys: each is another hash function, as the article's Java hash is another.
const KEYS = Array.from({ length: 12 }, (_, i) => (i + 1).toString(16).padStart(32, '0'));

const pct = (x, width) => `${(x / width) * 100}%`;

/** The pair rule's k along the rows, as "15 up to 235 characters, 12 from 308". */
function kRuns(rows) {
  const runs = [];
  for (const r of rows) {
    if (runs.at(-1)?.k === r.k) runs.at(-1).last = r.length;
    else runs.push({ k: r.k, first: r.length, last: r.length });
  }
  if (runs.length === 1) return `${runs[0].k} for every one of them`;
  return runs
    .map((run, i) => `${run.k} ${i === 0 ? `up to ${run.last}` : `from ${run.first}`} characters`)
    .join(', ');
}

/**
 * Why k = 3 misses short texts: the same edit in texts of growing length, each pair's
 * distance against the reference's k = 3 and the library's pair rule (pairK of both texts'
 * distinct features).
 */
export function drawShortTextLesson(pair) {
  const width = 64; // a Fingerprinter and pairK with no options: the library's defaults
  const rows = [];
  const fp = new Fingerprinter();
  try {
    for (let n = 0; n <= CONTEXT.length; n++) {
      const context = CONTEXT.slice(0, n).join('');
      const a = context + pair.a;
      const b = context + pair.b;
      const ca = fp.fingerprintCounted(a);
      const cb = fp.fingerprintCounted(b);
      rows.push({
        length: [...a].length,
        d: hamming(ca.fingerprint, cb.fingerprint),
        k: pairK(ca.features, cb.features),
        a,
        b,
      });
    }
  } finally {
    fp.free();
  }
  const box = $('cmp-short');
  box.querySelector('.dist-chart').innerHTML =
    rows
      .map(
        (r, i) => `
    <div class="dist-row${i === 0 ? ' reference' : ''}" data-length="${r.length}" data-d="${r.d}" data-k="${r.k}">
      <span class="dist-label">${r.length} characters${i === 0 ? ' <span class="tag">the reference pair</span>' : ''}</span>
      <span class="dist-track" role="img" aria-label="${r.length} characters: d = ${r.d}, pairK = ${r.k}">
        <span class="dist-bar ${r.d <= r.k ? 'within' : 'beyond'}" style="width:${pct(r.d, width)}"></span>
        <span class="dist-mark mark-ref" style="left:${pct(REFERENCE_K, width)}" title="k = ${REFERENCE_K}"></span>
        <span class="dist-mark mark-rec" style="left:${pct(r.k, width)}" title="pairK = ${r.k}"></span>
      </span>
      <span class="dist-value">d = <strong>${r.d}</strong> · k<sub>pair</sub> = ${r.k}</span>
    </div>`,
      )
      .join('') +
    `<div class="dist-axis" aria-hidden="true"><span></span><span class="dist-ticks">${[
      0, 16, 32, 48, 64,
    ]
      .map((t) => `<span style="left:${pct(t, width)}">${t}</span>`)
      .join('')}</span><span></span></div>`;
  const first = rows[0];
  const last = rows.at(-1);
  const beyond = rows.filter((r) => r.d > REFERENCE_K).length;
  box.querySelector('.lesson-note').innerHTML =
    `The same two characters changed (喊→叫, 哦→啦), at the end of texts of ${first.length} to ${last.length} ` +
    `characters: d = ${first.d} at ${first.length} characters, ${last.d} at ${last.length}. In a long text the edit ` +
    'replaces a few of many features and most sums Vᵢ keep their sign; in a short one it replaces a large share. ' +
    `A k of ${REFERENCE_K}, which suits long texts in the reference, misses ${beyond} of these ${rows.length} pairs. ` +
    "The library's pair rule asks what share of the text was edited, not how long it is: pairK, from both texts' " +
    `sizes, is ${kRuns(rows)}, the distance that tells a copy with a tenth of its words or characters edited from ` +
    `one with a fifth. The ${first.length}-character pair lies ${first.d > first.k ? 'beyond' : 'within'} it: two ` +
    `characters changed in ${first.length} are more than a tenth of the text, and a text that short carries too few ` +
    'features for any k to separate copies from strangers reliably.';
  box.querySelector('.lesson-longest').innerHTML =
    `<p><span class="tag">A</span> ${escapeHtml(last.a)}</p><p><span class="tag">B</span> ${escapeHtml(last.b)}</p>`;
}

/**
 * Why the article reports 3 differing bits for its pair and this page 17: each thing that
 * differs between its pipeline and this page's (features, weights, hash, width) changed in
 * turn, every distance from the library.
 */
export function drawReferenceLesson(pair) {
  const d = (options) => hamming(fingerprint(pair.a, options), fingerprint(pair.b, options));
  const weighted = (words) => words.map((w) => [w, IMPORTANCE[w]]);
  const dWords = (list, options) =>
    hamming(fingerprintFeatures(list[0], options), fingerprintFeatures(list[1], options));
  const article = hamming(BigInt(`0b${ARTICLE_BITS[0]}`), BigInt(`0b${ARTICLE_BITS[1]}`));
  const rows = [
    [
      'page',
      'This page: character pairs (the auto tokenizer), binary weights, SipHash, 64 bits',
      d({}),
    ],
    ['chars', 'Single characters instead of pairs', d({ tokenizer: 'chars', n: 1 })],
    ['tf', 'Character pairs counted (tf: 回家 appears three times)', d({ weighting: 'tf' })],
    ['width', 'Character pairs at 128 bits (out of 128)', d({ width: 128 })],
    [
      'words',
      'Words, as a segmenter cuts them (你 / 妈妈 / 喊 / 你 / 回家 / 吃饭 / 哦 …), weight 1 each',
      dWords(WORDS),
    ],
    [
      'weighted',
      `Those words weighted by importance (${Object.entries(IMPORTANCE)
        .map(([w, x]) => `${w} ${x}`)
        .join(', ')})`,
      dWords(WORDS.map(weighted)),
    ],
  ];
  const spreads = KEYS.map((key) => ({
    pairs: d({ key }),
    words: dWords(WORDS.map(weighted), { key }),
  }));
  const range = (xs) => `${Math.min(...xs)} to ${Math.max(...xs)}`;
  const box = $('cmp-reference');
  const marks = Array.from(ARTICLE_BITS[0], (b, i) => b !== ARTICLE_BITS[1][i]);
  box.querySelector('.ref-article').innerHTML =
    '<span class="tag">A</span> <code class="binary"></code><br>' +
    '<span class="tag">B</span> <code class="binary"></code><br>' +
    `hamming() of the two: <strong class="ref-d" data-d="${article}">${article}</strong> of 64 (marked).`;
  box
    .querySelectorAll('.ref-article code')
    .forEach((el, i) => drawBinary(el, ARTICLE_BITS[i], marks));
  box.querySelector('tbody').innerHTML = rows
    .map(
      ([key, what, x]) =>
        `<tr data-row="${key}" data-d="${x}"><td>${what}</td><td class="num"><strong>${x}</strong></td></tr>`,
    )
    .join('');
  box.querySelector('.ref-keys').innerHTML =
    `The hash matters too: under ${KEYS.length} other SipHash keys (each a different hash function) the character ` +
    `pairs give d = <span class="ref-keys-pairs">${range(spreads.map((x) => x.pairs))}</span> and the weighted words ` +
    `d = <span class="ref-keys-words">${range(spreads.map((x) => x.words))}</span>. One pair's distance is one draw: ` +
    'the angle between the two feature vectors sets its expected value (θ ≈ π·d/f), the hash function decides the draw.';
  // How many of this page's features the edit replaced: A's features that B lacks.
  const ea = explain(pair.a);
  const inB = new Set(explain(pair.b).features.map((f) => f.feature));
  const replaced = ea.features.filter((f) => !inB.has(f.feature)).length;
  box.querySelector('.ref-conclusion').innerHTML =
    `So ${article} of 64 says the article's few weighted words moved little when two light ones changed; ` +
    `<span class="ref-page-d">${rows[0][2]}</span> says that of this page's <span class="ref-features">${ea.features.length}</span> ` +
    `character pairs, <span class="ref-replaced">${replaced}</span> were replaced. Neither is wrong: a distance measures ` +
    'the features and weights chosen, through one hash.';
}
