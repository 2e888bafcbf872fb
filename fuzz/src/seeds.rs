//! The seed corpus and the hand-made regression inputs, written from the values they describe.
//!
//! A fuzz input is bytes that a target decodes (with `arbitrary`) into options and text, an
//! operation sequence, or an index buffer. Each seed here is written by an encoder that mirrors
//! that decoding, and is decoded back and compared with the value it was written from, so every
//! file means what its name says: when a target's decoding changes, `tests/seeds.rs` fails until
//! the files are written again (`SIMPRINT_BLESS=1`), and they keep their meaning.
//!
//! Seeds go to `seeds/<target>/` (which holds nothing else); the hand-made regressions to
//! `regressions/<target>/`, beside the inputs the fuzzer saves there.

use simprint::index::FIRST_NAMED_ID;
use simprint::BytesProblem;
use simprint::{
    Algorithm, Error, Fingerprint, Index, Key, Normalization, Options, Plan, Tokenizer, Weighting,
};

use crate::index_bytes::{self, sealed};
use crate::index_ops::{Fp, Id, Name, Op, Setup};
use crate::{pipeline, stream, FuzzOptions};

/// Where an input goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Folder {
    Seeds,
    Regressions,
}

impl Folder {
    pub fn name(self) -> &'static str {
        match self {
            Folder::Seeds => "seeds",
            Folder::Regressions => "regressions",
        }
    }
}

/// One input file: `<folder>/<target>/<name>`.
pub struct Input {
    pub folder: Folder,
    pub target: &'static str,
    pub name: &'static str,
    pub bytes: Vec<u8>,
}

/// Bytes that `arbitrary` decodes into the values pushed, in order.
#[derive(Default)]
struct Enc(Vec<u8>);

impl Enc {
    fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    fn bool(&mut self, v: bool) -> &mut Self {
        self.u8(u8::from(v))
    }
    fn u16(&mut self, v: u16) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn u128(&mut self, v: u128) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// Variant `i` of a derived enum of `count` variants (chosen by `(u32 * count) >> 32`).
    fn variant(&mut self, i: u32, count: u32) -> &mut Self {
        let x = ((2 * u64::from(i) + 1) << 32) / (2 * u64::from(count));
        self.0.extend_from_slice(&(x as u32).to_le_bytes());
        self
    }
    /// A `Vec`: each element after a `true`, then a `false`.
    fn vec<T>(&mut self, items: &[T], mut each: impl FnMut(&mut Enc, &T)) -> &mut Self {
        for item in items {
            self.bool(true);
            each(self, item);
        }
        self.bool(false)
    }
}

// ---- pipeline and stream: options and text ----

fn width(e: &mut Enc, width: u32) {
    // See `width_from`: 0..=3 is 0, 4..=7 is 129, else 1 + b % 128.
    e.u8(match width {
        0 => 0,
        129 => 4,
        w => (127 + w) as u8,
    });
}

fn n(e: &mut Enc, n: usize) {
    // See `n_from`: 0..=3 is 0, 4..=7 is 65, 8..=63 reads n − 1 next, 64.. is 1 + b % 4.
    match n {
        0 => e.u8(0),
        65 => e.u8(4),
        1..=4 => e.u8(63 + n as u8),
        n => e.u8(8).u8((n - 1) as u8),
    };
}

fn options(e: &mut Enc, o: &Options) {
    width(e, o.width);
    match o.tokenizer {
        Tokenizer::Auto { word_n, char_n } => {
            e.u8(0);
            n(e, word_n);
            n(e, char_n);
        }
        Tokenizer::Words { n: wn } => {
            e.u8(1);
            n(e, wn);
        }
        Tokenizer::Chars { n: cn } => {
            e.u8(2);
            n(e, cn);
        }
    }
    e.u8(match o.weighting {
        Weighting::Binary => 0,
        Weighting::TermFrequency => 1,
        Weighting::LogTermFrequency => 2,
    });
    e.bool(o.normalization == Normalization::Width);
    e.bool(o.case_fold);
    if o.key == Key::DEFAULT {
        e.bool(false);
    } else {
        e.bool(true);
        for b in o.key.bytes() {
            e.u8(b);
        }
    }
}

/// Text as raw bytes (`text_from`'s second way), so any bytes, invalid UTF-8 included.
fn text(e: &mut Enc, bytes: &[u8]) {
    e.bool(false).vec(bytes, |e, &b| {
        e.u8(b);
    });
}

fn valid(o: &Options) -> bool {
    o.validate().is_ok()
}

fn pipeline_input(o: Options, bytes: &[u8], with_idf: bool) -> Vec<u8> {
    let mut e = Enc::default();
    options(&mut e, &o);
    text(&mut e, bytes);
    e.bool(with_idf);
    // One-bit MinHash is a trailing byte (inputs from before it end earlier).
    if o.algorithm == Algorithm::MinHash {
        e.bool(true);
    }
    let want = (
        FuzzOptions {
            options: o,
            valid: valid(&o),
        },
        bytes.to_vec(),
        with_idf,
    );
    assert_eq!(pipeline::decode(&e.0), Some(want), "pipeline seed");
    e.0
}

fn stream_input(o: Options, bytes: &[u8], cuts: &[u16], with_idf: bool) -> Vec<u8> {
    let mut e = Enc::default();
    options(&mut e, &o);
    text(&mut e, bytes);
    e.vec(cuts, |e, &c| {
        e.u16(c);
    });
    e.bool(with_idf);
    let want = (
        FuzzOptions {
            options: o,
            valid: valid(&o),
        },
        bytes.to_vec(),
        cuts.iter().map(|&c| usize::from(c)).collect(),
        with_idf,
    );
    assert_eq!(stream::decode(&e.0), Some(want), "stream seed");
    e.0
}

fn o(width: u32, tokenizer: Tokenizer, weighting: Weighting) -> Options {
    Options {
        width,
        tokenizer,
        weighting,
        ..Options::default()
    }
}

const ENGLISH: &str = "The quick brown fox jumps over the lazy dog. It's 3.14, isn't it? \
                       Mr. O'Neil paid $12.50 for e-mail_addresses; x'y, a.b.c: done.";
const CHINESE: &str = "我们今天去公园散步。天气很好、风也不大，孩子们在草地上放风筝。";
const JAPANESE: &str = "東京タワーは1958年に完成した。ｶﾀｶﾅもＡＢＣも全角のまま々ー。";
const MIXED: &str = "Hello 世界! Привет, мир. مرحبا بالعالم. 안녕하세요 ㄅㄆ ひらがな \
                     🙂👍🏽 👨‍👩‍👧 🇫🇷 ΟΔΟΣ ὁδός İstanbul ǅemal Straße 𠀀豈 — ‥ e\u{301}\u{301}";
/// Characters at the edges of UTF-8 and of the scalar values (no surrogates: Rust text has
/// none), controls, separators and a BOM.
const EDGES: &str = "\u{0}a\u{7f}\u{80}\u{85}\u{a0}\u{7ff}\u{800}\u{d7ff}\u{e000}\u{fffd}\u{fffe}\
                     \u{ffff}\u{10000}\u{10ffff}\u{2028}\u{2029}\u{feff}x\r\n\t\u{3000}y";
/// Bytes that are not UTF-8: a lone continuation, a truncated 3-byte sequence, an overlong
/// form, an encoded surrogate, 0xff, and a 4-byte sequence cut short at the end.
const BROKEN: &[u8] = b"ab\x80cd \xe4\xb8 ef \xc0\xaf \xed\xa0\x80 \xff\xfe gh \xf0\x9f\x99";

fn pipeline_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let default = Options::default();
    let auto = Tokenizer::default();
    let key = Key::new(*b"0123456789abcdef");
    vec![
        (
            "english-default",
            pipeline_input(default, ENGLISH.as_bytes(), false),
        ),
        (
            "chinese-default",
            pipeline_input(default, CHINESE.as_bytes(), false),
        ),
        (
            "japanese-width-folding-idf",
            pipeline_input(default, JAPANESE.as_bytes(), true),
        ),
        (
            "mixed-scripts-128bit-tf",
            pipeline_input(
                o(128, auto, Weighting::TermFrequency),
                MIXED.as_bytes(),
                false,
            ),
        ),
        (
            "edge-characters-chars1-logtf",
            pipeline_input(
                o(64, Tokenizer::Chars { n: 1 }, Weighting::LogTermFrequency),
                EDGES.as_bytes(),
                false,
            ),
        ),
        (
            "broken-utf8-words3-key",
            pipeline_input(
                Options {
                    key,
                    ..o(33, Tokenizer::Words { n: 3 }, Weighting::Binary)
                },
                BROKEN,
                false,
            ),
        ),
        (
            "auto-2-3-no-folding-idf",
            pipeline_input(
                Options {
                    normalization: Normalization::None,
                    case_fold: false,
                    ..o(
                        65,
                        Tokenizer::Auto {
                            word_n: 2,
                            char_n: 3,
                        },
                        Weighting::TermFrequency,
                    )
                },
                MIXED.as_bytes(),
                true,
            ),
        ),
        (
            "minhash-128-mixed-idf",
            pipeline_input(
                Options {
                    algorithm: Algorithm::MinHash,
                    ..o(128, Tokenizer::default(), Weighting::Binary)
                },
                MIXED.as_bytes(),
                true,
            ),
        ),
        (
            "minhash-13-chinese-words2",
            pipeline_input(
                Options {
                    algorithm: Algorithm::MinHash,
                    ..o(13, Tokenizer::Words { n: 2 }, Weighting::Binary)
                },
                CHINESE.as_bytes(),
                false,
            ),
        ),
        (
            "minhash-tf-refused",
            pipeline_input(
                Options {
                    algorithm: Algorithm::MinHash,
                    ..o(64, Tokenizer::default(), Weighting::TermFrequency)
                },
                ENGLISH.as_bytes(),
                false,
            ),
        ),
        (
            "width1-chars64",
            pipeline_input(
                o(1, Tokenizer::Chars { n: 64 }, Weighting::Binary),
                CHINESE.as_bytes(),
                false,
            ),
        ),
        (
            "empty-text",
            pipeline_input(o(7, auto, Weighting::Binary), b"", true),
        ),
        (
            "refused-width-0",
            pipeline_input(o(0, auto, Weighting::Binary), b"text", false),
        ),
        (
            "refused-word-n-65",
            pipeline_input(
                o(
                    64,
                    Tokenizer::Auto {
                        word_n: 65,
                        char_n: 2,
                    },
                    Weighting::Binary,
                ),
                b"text",
                false,
            ),
        ),
    ]
}

fn stream_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let default = Options::default();
    // Every byte of the first 40, so cuts fall inside every UTF-8 sequence there.
    let every: Vec<u16> = (1..40).collect();
    vec![
        (
            "chinese-cut-inside-characters",
            stream_input(default, CHINESE.as_bytes(), &every, false),
        ),
        (
            "japanese-cut-idf",
            stream_input(default, JAPANESE.as_bytes(), &[3, 4, 5, 17, 40, 41], true),
        ),
        (
            "emoji-sequences-cut-inside",
            stream_input(
                o(128, Tokenizer::Chars { n: 2 }, Weighting::TermFrequency),
                "a 👨‍👩‍👧 🇫🇷🇩🇪 👍🏽 e\u{301} b".as_bytes(),
                &[3, 5, 7, 9, 12, 19, 23, 27, 30],
                false,
            ),
        ),
        (
            "crlf-and-separators-split",
            stream_input(
                o(64, Tokenizer::Words { n: 2 }, Weighting::LogTermFrequency),
                b"one\r\ntwo\r\n\r\nthree\xc2\x85four\xe2\x80\xa8five",
                &[4, 9, 11, 12, 19, 20, 25, 26, 27],
                false,
            ),
        ),
        (
            "edge-characters-every-byte",
            stream_input(
                Options {
                    normalization: Normalization::None,
                    ..o(
                        16,
                        Tokenizer::Auto {
                            word_n: 3,
                            char_n: 1,
                        },
                        Weighting::Binary,
                    )
                },
                EDGES.as_bytes(),
                &every,
                false,
            ),
        ),
        (
            "mixed-scripts-no-cuts",
            stream_input(default, MIXED.as_bytes(), &[], true),
        ),
    ]
}

// ---- index_ops: operation sequences ----

const OPS: u32 = 17;

fn op_index(op: &Op) -> u32 {
    match op {
        Op::Insert(..) => 0,
        Op::InsertMany(..) => 1,
        Op::InsertRange { .. } => 2,
        Op::Remove(..) => 3,
        Op::RemoveRange { .. } => 4,
        Op::Get(..) => 5,
        Op::Query(..) => 6,
        Op::ExplainQuery(..) => 7,
        Op::Pairs(..) => 8,
        Op::Clusters(..) => 9,
        Op::Compact => 10,
        Op::RoundTrip => 11,
        Op::Clear => 12,
        Op::InsertNamed(..) => 13,
        Op::RemoveNamed(..) => 14,
        Op::GetNamed(..) => 15,
        Op::IdForName(..) => 16,
    }
}

fn fp(e: &mut Enc, fp: &Fp) {
    match *fp {
        Fp::Near {
            centre,
            flips,
            count,
        } => {
            e.variant(0, 2).u8(centre);
            for f in flips {
                e.u8(f);
            }
            e.u8(count);
        }
        Fp::Raw(v) => {
            e.variant(1, 2).u128(v);
        }
    }
}

fn opt_k(e: &mut Enc, k: Option<u8>) {
    match k {
        Some(k) => e.bool(true).u8(k),
        None => e.bool(false),
    };
}

fn op(e: &mut Enc, op: &Op) {
    e.variant(op_index(op), OPS);
    match op {
        Op::Insert(id, f) => {
            e.u16(id.0);
            fp(e, f);
        }
        Op::InsertMany(items) => {
            e.vec(items, |e, (id, f)| {
                e.u16(id.0);
                fp(e, f);
            });
        }
        Op::InsertRange { start, count, seed } => {
            e.u16(*start).u16(*count).u64(*seed);
        }
        Op::Remove(id) | Op::Get(id) => {
            e.u16(id.0);
        }
        Op::RemoveRange { start, count } => {
            e.u16(*start).u16(*count);
        }
        Op::Query(f, k) | Op::ExplainQuery(f, k) => {
            fp(e, f);
            opt_k(e, *k);
        }
        Op::Pairs(k) | Op::Clusters(k) => opt_k(e, *k),
        Op::Compact | Op::RoundTrip | Op::Clear => {}
        Op::InsertNamed(name, f) => {
            e.u8(name.0);
            fp(e, f);
        }
        Op::RemoveNamed(name) | Op::GetNamed(name) | Op::IdForName(name) => {
            e.u8(name.0);
        }
    }
}

fn ops_input(setup: Setup, ops: &[Op]) -> Vec<u8> {
    let mut e = Enc::default();
    e.u8(setup.width)
        .u8(setup.k)
        .u8(setup.plan)
        .u8(setup.blocks)
        .u64(setup.seed);
    for o in ops {
        op(&mut e, o);
    }
    assert_eq!(
        crate::index_ops::decode(&e.0),
        Some((setup, ops.to_vec())),
        "index_ops seed"
    );
    e.0
}

fn near(centre: u8, flips: [u8; 3], count: u8) -> Fp {
    Fp::Near {
        centre,
        flips,
        count,
    }
}

/// `Setup` for a width from `Setup::width` (0: 64 bits, 1: 128, else 1 + w % 128), `k`, a plan
/// kind (0 automatic, 1 permuted, 2 scan, 3 multi-index, 4 combined) and its blocks byte.
fn setup(width: u8, k: u8, plan: u8, blocks: u8) -> Setup {
    Setup {
        width,
        k,
        plan,
        blocks,
        seed: 0x5eed_0000 + u64::from(plan),
    }
}

/// Queries, pairs and clusters at the index's k and at others.
fn questions() -> Vec<Op> {
    vec![
        Op::Query(near(0, [1, 2, 3], 2), None),
        Op::Query(near(1, [0, 9, 63], 3), Some(5)),
        Op::ExplainQuery(near(2, [4, 0, 0], 1), None),
        Op::Pairs(None),
        Op::Pairs(Some(1)),
        Op::Clusters(None),
        Op::Get(Id(3)),
    ]
}

/// 600 entries (past the 256 the insert buffer holds: segments), some removed.
fn segments() -> Vec<Op> {
    vec![
        Op::InsertRange {
            start: 0,
            count: 300,
            seed: 1,
        },
        Op::InsertRange {
            start: 300,
            count: 300,
            seed: 2,
        },
        Op::RemoveRange {
            start: 100,
            count: 250,
        },
        Op::Insert(Id(5), near(0, [7, 8, 9], 3)),
    ]
}

fn index_ops_seeds() -> Vec<(&'static str, Vec<u8>)> {
    // The explicit plans the setups below describe exist (else the target plans automatically).
    assert!(Plan::with_blocks(64, 2, 6).is_ok());
    assert!(Plan::multi_index(64, 8, 4).is_ok());
    assert!(Plan::combined(128, 10, 7, 2).is_ok());
    assert!(Plan::with_blocks(128, 0, 122).is_ok());
    let plan_seed = |width: u8, k: u8, plan: u8, blocks: u8| {
        let mut ops = segments();
        ops.extend(questions());
        ops.push(Op::RoundTrip);
        ops.extend(questions());
        ops_input(setup(width, k, plan, blocks), &ops)
    };
    vec![
        ("automatic-64bit-k3", plan_seed(0, 3, 0, 0)),
        ("automatic-128bit-k20", plan_seed(1, 20, 0, 0)),
        // plan / 5 caps the kernel level: 1 AVX2 (folded words above k = 4 at k = 6), 3 the
        // portable kernels (18 % 5 = 3: multi-index, 1 + 3 % 9 = 4 substrings).
        ("automatic-64bit-k6-avx2", plan_seed(0, 6, 5, 0)),
        ("automatic-64bit-k9-avx2", plan_seed(0, 9, 5, 0)),
        ("multi-index-64bit-k8-portable", plan_seed(0, 8, 18, 3)),
        ("permuted-64bit-k2-6-blocks", plan_seed(0, 2, 1, 6)),
        // Width 1 + 18 % 128 (18 % 4 = 2: a width of its own).
        ("scan-19bit-k4", plan_seed(18, 4, 2, 0)),
        // 1 + 3 % 9 = 4 substrings.
        ("multi-index-64bit-k8-4-substrings", plan_seed(0, 8, 3, 3)),
        // 2 + 12 % 7 = 7 blocks, 1 + (12 / 7) % 9 = 2 per key.
        ("combined-128bit-k10", plan_seed(1, 10, 4, 12)),
        (
            "names-and-numbers",
            ops_input(
                setup(0, 3, 0, 0),
                &[
                    Op::InsertNamed(Name(0), near(0, [1, 0, 0], 1)),
                    Op::InsertNamed(Name(1), near(0, [2, 0, 0], 1)),
                    // A number on the id the next name would get: names must skip it.
                    Op::Insert(Id(0xffe2), near(1, [0, 0, 0], 0)),
                    Op::IdForName(Name(2)),
                    Op::InsertNamed(Name(3), near(0, [3, 0, 0], 1)),
                    Op::InsertNamed(Name(253), near(2, [0, 0, 0], 0)),
                    Op::InsertNamed(Name(254), near(2, [5, 0, 0], 1)),
                    Op::InsertNamed(Name(255), near(2, [5, 0, 0], 1)),
                    Op::Query(near(0, [0, 0, 0], 0), None),
                    Op::GetNamed(Name(1)),
                    Op::RemoveNamed(Name(0)),
                    Op::Remove(Id(0xffe2)),
                    // The second name's entry removed by its number: the name goes with it.
                    Op::Remove(Id(0xffe1)),
                    Op::GetNamed(Name(1)),
                    Op::InsertNamed(Name(1), near(0, [2, 0, 0], 1)),
                    Op::RoundTrip,
                    Op::GetNamed(Name(2)),
                    Op::InsertNamed(Name(2), near(0, [4, 0, 0], 1)),
                    Op::Pairs(Some(2)),
                    Op::Clusters(None),
                    Op::RoundTrip,
                    Op::Clear,
                    Op::InsertNamed(Name(0), near(0, [1, 0, 0], 1)),
                    Op::RoundTrip,
                ],
            ),
        ),
        (
            "ids-at-the-top-and-compact",
            ops_input(
                setup(9, 2, 0, 0),
                &[
                    Op::InsertMany(vec![
                        (Id(0xffff), near(0, [0, 0, 0], 0)),
                        (Id(0xfff0), near(0, [1, 0, 0], 1)),
                        (Id(0), Fp::Raw(u128::MAX)),
                        (Id(0xffff), near(1, [0, 0, 0], 0)),
                    ]),
                    Op::InsertRange {
                        start: 0,
                        count: 400,
                        seed: 7,
                    },
                    Op::InsertNamed(Name(4), near(0, [2, 0, 0], 1)),
                    Op::RemoveRange {
                        start: 0,
                        count: 380,
                    },
                    Op::Compact,
                    Op::Query(near(0, [0, 0, 0], 0), Some(3)),
                    Op::RoundTrip,
                    Op::Pairs(None),
                    Op::Clusters(Some(4)),
                ],
            ),
        ),
    ]
}

// ---- index_bytes: buffers ----

/// First input bytes: 76 gives the raw bytes (76 % 4 = 0) under a 128 MB limit (76 / 4 = 19);
/// 0 gives them under 256 bytes; 77 seals them (appends the checksum) under 128 MB.
const RAW: u8 = 76;
const RAW_SMALL_LIMIT: u8 = 0;
const SEAL: u8 = 77;

/// The loaded index's entries and named entries, or the error.
fn outcome(bytes: &[u8]) -> Result<(usize, usize), Error> {
    Index::from_bytes(bytes).map(|index| {
        let n = index.len();
        let named = index
            .entries()
            .iter()
            .filter(|e| index.name_of(e.0).is_some())
            .count();
        (n, named)
    })
}

/// An input of `mode` then `rest`, checked to give `buffer`, which loads as `want` says.
fn bytes_input(
    mode: u8,
    rest: &[u8],
    buffer: &[u8],
    want: &Result<(usize, usize), Error>,
) -> Vec<u8> {
    let mut input = vec![mode];
    input.extend_from_slice(rest);
    let made = index_bytes::buffer(&input).expect("a buffer");
    assert_eq!(made, buffer, "index_bytes seed");
    assert_eq!(&outcome(&made), want, "index_bytes seed");
    input
}

fn raw(bytes: &[u8], want: Result<(usize, usize), Error>) -> Vec<u8> {
    bytes_input(RAW, bytes, bytes, &want)
}

fn spread(i: u64, width: u32) -> Fingerprint {
    let v = u128::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835);
    Fingerprint::new(v >> (128 - width), width).expect("fits")
}

/// An index with `plan` (or automatic at `width`, `k`) holding `n` entries spread over the
/// width, ids 0, 3, 6, …, the last at `u64::MAX`, and `names` named entries after them.
fn index_with(plan: Option<Plan>, width: u32, k: u32, n: u64, names: &[&str]) -> Index {
    let mut index = match plan {
        Some(plan) => Index::with_plan(plan).expect("a valid plan"),
        None => Index::new(width, k).expect("valid width and k"),
    };
    let w = index.width();
    index
        .insert_many((0..n).map(|i| {
            let id = if i + 1 == n { u64::MAX } else { 3 * i };
            (id, spread(i, w))
        }))
        .expect("memory");
    for (i, name) in names.iter().enumerate() {
        index
            .insert_named(name, spread(1000 + i as u64, w))
            .expect("a short name");
    }
    index
}

/// Generated-mode input, checked to load as `want` says: `mode` 78 (unnamed) or 79 (named),
/// both under 128 MB; the header's fields as `Header` reads them, and entries `(raw id,
/// fingerprint)`.
#[allow(clippy::too_many_arguments)]
fn generated(
    want: Result<(usize, usize), Error>,
    mode: u8,
    width: u8,
    k: u8,
    plan: u8,
    blocks: u8,
    start: u8,
    names_fault: u8,
    entries: &[(u64, u128)],
) -> Vec<u8> {
    let mut e = Enc::default();
    // version 1 (not a multiple of 8: the right version), reserved 1 (likewise), no count error
    // (1), ascending ids.
    e.u16(1)
        .u8(width)
        .u8(k)
        .u8(plan)
        .u8(blocks)
        .u16(1)
        .u8(1)
        .bool(true)
        .u8(start)
        .u8(names_fault);
    let fp_bytes = if width % 128 < 64 { 8 } else { 16 };
    for &(id, v) in entries {
        e.u64(id);
        e.0.extend_from_slice(&v.to_le_bytes()[..fp_bytes]);
    }
    let mut input = vec![mode];
    input.extend_from_slice(&e.0);
    let made = index_bytes::buffer(&input).expect("a buffer");
    assert_eq!(outcome(&made), want, "index_bytes seed");
    input
}

fn index_bytes_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let ok = |index: &Index| {
        let named = index
            .entries()
            .iter()
            .filter(|e| index.name_of(e.0).is_some())
            .count();
        raw(&index.to_bytes(), Ok((index.len(), named)))
    };
    let plan = |p: Result<Plan, Error>| Some(p.expect("a valid plan"));
    let long = "n".repeat(300);
    let names: [&str; 4] = ["https://example.org/a", "", "名前", &long];
    // Entries for generated inputs: ids step by raw % 4, fingerprints masked to the width.
    let gen_entries: Vec<(u64, u128)> = (0..12u64)
        .map(|i| (i % 3 + 1, u128::from(i) * 0x0123_4567_89ab_cdef_0123_4567))
        .collect();
    let named_low = index_bytes::format::index_bytes(64, 3, &[(5, 1)], &[(5, "a")]);
    // Without its checksum and the last byte of the last name.
    let mut truncated_names = index_with(None, 64, 3, 2, &["a", "b"]).to_bytes();
    truncated_names.truncate(truncated_names.len() - 9);
    vec![
        ("v1-empty-1bit", ok(&Index::new(1, 0).expect("valid"))),
        ("v1-automatic-64bit", ok(&index_with(None, 64, 3, 9, &[]))),
        (
            "v1-automatic-64bit-segment",
            ok(&index_with(None, 64, 3, 260, &[])),
        ),
        (
            "v1-permuted-128bit",
            ok(&index_with(
                plan(Plan::with_blocks(128, 2, 8)),
                0,
                0,
                9,
                &[],
            )),
        ),
        (
            "v1-scan-7bit",
            ok(&index_with(plan(Plan::scan(7, 2)), 0, 0, 9, &[])),
        ),
        (
            "v2-multi-index-64bit",
            ok(&index_with(plan(Plan::multi_index(64, 6, 4)), 0, 0, 9, &[])),
        ),
        (
            "v2-combined-100bit",
            ok(&index_with(
                plan(Plan::combined(100, 8, 6, 2)),
                0,
                0,
                9,
                &[],
            )),
        ),
        (
            "v3-names-automatic",
            ok(&index_with(None, 64, 3, 5, &names)),
        ),
        (
            "v3-names-combined-128bit",
            ok(&index_with(
                plan(Plan::combined(128, 10, 7, 2)),
                0,
                0,
                5,
                &names[..2],
            )),
        ),
        (
            "v3-names-only",
            ok(&index_with(None, 65, 4, 0, &names[..3])),
        ),
        (
            "refused-name-below-2-53",
            raw(
                &named_low,
                Err(Error::MalformedIndexBytes {
                    problem: BytesProblem::NamedIdBelowRange { id: 5 },
                }),
            ),
        ),
        (
            "refused-names-truncated",
            bytes_input(
                SEAL,
                &truncated_names,
                &sealed(truncated_names.clone()),
                &Err(Error::MalformedIndexBytes {
                    problem: BytesProblem::MalformedNames,
                }),
            ),
        ),
        ("refused-253-tables-under-256-bytes", {
            let index = index_with(plan(Plan::with_blocks(65, 21, 23)), 0, 0, 20, &[]);
            let bytes = index.to_bytes();
            let input = bytes_input(RAW_SMALL_LIMIT, &bytes, &bytes, &Ok((20, 0)));
            assert!(Index::from_bytes_limited(&bytes, 256).is_err());
            input
        }),
        // Generated: width 1 + 63 % 128 = 64, k 3, permuted 3 + 1 + 4 % 24 = 8 blocks.
        (
            "generated-v1-permuted",
            generated(Ok((12, 0)), 78, 63, 3, 1, 4, 0, 6, &gen_entries),
        ),
        // Named, ids ending at u64::MAX (start 3); names_fault 6: good names.
        (
            "generated-v3-names-at-the-top",
            generated(Ok((12, 6)), 79, 63, 3, 0, 0, 3, 6, &gen_entries),
        ),
        // Named, 128 bits, scan, from FIRST_NAMED_ID − 2: the first name (empty) is below 2^53.
        (
            "generated-v3-names-straddling-2-53",
            generated(
                Err(Error::MalformedIndexBytes {
                    problem: BytesProblem::NamedIdBelowRange {
                        id: FIRST_NAMED_ID - 1,
                    },
                }),
                79,
                127,
                9,
                2,
                0,
                1,
                5,
                &gen_entries,
            ),
        ),
        // Named from FIRST_NAMED_ID, the last name repeating the first.
        (
            "generated-v3-repeated-name",
            generated(
                Err(Error::MalformedIndexBytes {
                    problem: BytesProblem::MalformedNames,
                }),
                79,
                63,
                3,
                0,
                0,
                2,
                0,
                &gen_entries,
            ),
        ),
    ]
}

/// The hand-made regression inputs: each the input form of a bug's minimal case in
/// tests/regressions.rs, made from the value so it keeps its meaning.
fn regressions() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let format = |entries: &[(u64, u64)], names: &[(u64, &str)]| {
        index_bytes::format::index_bytes(64, 3, entries, names)
    };
    // tests/regressions.rs `from_bytes_refuses_blocks_without_an_explicit_plan`.
    let mut blocks = b"SIMPIDX\0".to_vec();
    blocks.extend_from_slice(&1u16.to_le_bytes());
    blocks.extend_from_slice(&[64, 10, 0, 104, 0, 0]);
    blocks.extend_from_slice(&0u64.to_le_bytes());
    let blocks = sealed(blocks);
    // Saved by index_bytes when it began loading every buffer under a memory limit too: a
    // buffer that fits the limit (248 bytes under 256) of an index that does not (nine 128-bit
    // fingerprints take 288 bytes), which must be refused.
    let small = index_with(None, 128, 3, 9, &[]).to_bytes();
    assert_eq!(small.len(), 248);
    assert!(matches!(
        Index::from_bytes_limited(&small, 256),
        Err(Error::IndexTooLarge { bytes: 288, .. })
    ));
    let flood = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/flood-words.txt"
    ))
    .expect("tests/flood-words.txt");
    let flood: Vec<&str> = flood.split_whitespace().take(300).collect();
    let flood = flood.join(" ");
    let long_word = "a".repeat(3000);
    let chunks: Vec<u16> = (1..=150).map(|i| i * 20).collect();
    vec![
        (
            "index_bytes",
            "blocks-byte-without-explicit-plan",
            raw(
                &blocks,
                Err(Error::MalformedIndexBytes {
                    problem: BytesProblem::BlocksWithoutPlan { blocks: 104 },
                }),
            ),
        ),
        (
            "index_bytes",
            "load-limit-below-buffer-memory",
            bytes_input(RAW_SMALL_LIMIT, &small, &small, &Ok((9, 0))),
        ),
        (
            "index_bytes",
            "name-on-the-last-id",
            raw(&format(&[(u64::MAX, 1)], &[(u64::MAX, "a")]), Ok((1, 1))),
        ),
        (
            "index_bytes",
            "name-one-below-the-last-id-and-a-number-on-it",
            raw(
                &format(&[(u64::MAX - 1, 1), (u64::MAX, 2)], &[(u64::MAX - 1, "a")]),
                Ok((2, 1)),
            ),
        ),
        // `pairs_with_more_than_64_blocks`: 128 bits, k 0, 122 permuted blocks, a segment of
        // 273 entries, pairs within 0.
        (
            "index_ops",
            "pairs-with-over-64-blocks",
            ops_input(
                Setup {
                    width: 1,
                    k: 0,
                    plan: 1,
                    blocks: 122,
                    seed: 112_028_140_225_691_648,
                },
                &[
                    Op::InsertRange {
                        start: 57661,
                        count: 8673,
                        seed: 18_411_886_256_574_169_057,
                    },
                    Op::Pairs(Some(0)),
                ],
            ),
        ),
        // `crafted_hash_collisions_still_count_each_word_once`: words whose default-key hashes
        // share their top 15 bits, which place them in the table.
        (
            "pipeline",
            "crafted-hash-collisions",
            pipeline_input(Options::default(), flood.as_bytes(), false),
        ),
        // `streaming_text_without_cuts_takes_linear_time`: one long word in small chunks.
        (
            "stream",
            "long-word-in-small-chunks",
            stream_input(Options::default(), long_word.as_bytes(), &chunks, false),
        ),
        // `streaming_any_two_cuts_with_invalid_bytes`: invalid and incomplete sequences, cut
        // inside them.
        (
            "stream",
            "cuts-inside-invalid-bytes",
            stream_input(
                Options::default(),
                b"a\xe4\xb8\xad\xff b\xe4\xb8 \xf0\x9f\x99\x82c\xc3",
                &[2, 3, 5, 8, 9, 12, 13, 14, 17],
                false,
            ),
        ),
    ]
}

/// Every seed and hand-made regression input, each checked to decode to what it was written
/// from.
#[must_use]
pub fn all() -> Vec<Input> {
    let mut out = Vec::new();
    for (target, seeds) in [
        ("pipeline", pipeline_seeds()),
        ("stream", stream_seeds()),
        ("index_bytes", index_bytes_seeds()),
        ("index_ops", index_ops_seeds()),
    ] {
        out.extend(seeds.into_iter().map(|(name, bytes)| Input {
            folder: Folder::Seeds,
            target,
            name,
            bytes,
        }));
    }
    out.extend(
        regressions()
            .into_iter()
            .map(|(target, name, bytes)| Input {
                folder: Folder::Regressions,
                target,
                name,
                bytes,
            }),
    );
    out
}
