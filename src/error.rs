//! The one error type of the crate: every bad option or input is a value, never a panic.

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use core::fmt;

/// Everything that can go wrong, each variant named by what went wrong.
///
/// Every public function that takes user input returns `Result<_, Error>`; none of them
/// panics. `Display` gives the message in Rust's spelling of the options; the JavaScript
/// package throws [`Error::describe`] with its own spelling (`wordN` for `word_n`).
///
/// ```
/// use simprint::{Error, Fingerprinter, Options};
/// let err = Fingerprinter::new(Options { width: 0, ..Options::default() }).unwrap_err();
/// assert_eq!(err, Error::WidthOutOfRange { width: 0 });
/// assert_eq!(err.to_string(), "width must be between 1 and 128, got 0");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A fingerprint width outside `1..=128`.
    WidthOutOfRange {
        /// The rejected width.
        width: u32,
    },
    /// An n-gram size outside `1..=max` (`max` is [`MAX_N`](crate::MAX_N)).
    NOutOfRange {
        /// Which size it was.
        setting: NSetting,
        /// The rejected size.
        n: u64,
        /// The largest size allowed.
        max: usize,
    },
    /// A distance bound above the fingerprint width.
    KOutOfRange {
        /// The rejected `k`.
        k: u32,
        /// The width it must not exceed.
        width: u32,
    },
    /// A tokenizer name that is not `auto`, `words` or `chars`.
    UnknownTokenizer {
        /// The name given (at most 64 characters of it; see [`echo`]).
        name: String,
    },
    /// A weighting name that is not `tf`, `logtf` or `binary`.
    UnknownWeighting {
        /// The name given (cut as [`echo`] does).
        name: String,
    },
    /// An algorithm name that is not `simhash` or `minhash`.
    UnknownAlgorithm {
        /// The name given (cut as [`echo`] does).
        name: String,
    },
    /// Something SimHash has and one-bit MinHash does not (weights other than binary, IDF,
    /// per-bit sums to explain) asked of a [`Algorithm::MinHash`](crate::Algorithm::MinHash)
    /// fingerprinter.
    NotForMinHash {
        /// What was asked: `"weighting \"tf\""`, `"document frequencies"`, `"explain"`, ….
        what: &'static str,
    },
    /// A normalization name that is not `none` or `width`.
    UnknownNormalization {
        /// The name given (cut as [`echo`] does).
        name: String,
    },
    /// Hex that does not spell a fingerprint.
    MalformedHex {
        /// What is wrong with it.
        problem: HexProblem,
    },
    /// A SipHash key that is not exactly 32 hex digits (16 bytes).
    MalformedKey {
        /// What is wrong with it.
        problem: KeyProblem,
    },
    /// A value (fingerprint or pre-hashed feature) with bits set at or above the width.
    ValueTooWide {
        /// Bits the value needs.
        bits: u32,
        /// The width it had to fit in.
        width: u32,
    },
    /// Two fingerprints of different widths were compared, or stored together.
    WidthMismatch {
        /// The first one's width.
        left: u32,
        /// The second one's width.
        right: u32,
    },
    /// A feature weight that is NaN or infinite.
    NonFiniteWeight {
        /// The rejected weight.
        weight: f64,
    },
    /// A [`Tolerance`](crate::Tolerance) whose shares are not `0 < near < far ≤ 1`.
    ToleranceOutOfRange {
        /// The share still called a near-duplicate.
        near: f64,
        /// The share it must be told apart from.
        far: f64,
    },
    /// [`Fingerprinter::calibrate`](crate::Fingerprinter::calibrate) was given no
    /// near-duplicate or no other pair: F1 needs both.
    CalibrationNeedsBothKinds {
        /// Pairs labelled near-duplicates.
        duplicates: usize,
        /// Pairs labelled otherwise.
        others: usize,
    },
    /// Document frequencies built with other options than the fingerprinter given them.
    OptionsMismatch,
    /// An explicit index plan that cannot work.
    ImpossiblePlan {
        /// Why.
        problem: PlanProblem,
    },
    /// Index bytes that are truncated, corrupted, of another version or inconsistent.
    MalformedIndexBytes {
        /// What is wrong with them.
        problem: BytesProblem,
    },
    /// Index bytes whose index would take more memory than the caller allows.
    IndexTooLarge {
        /// About how many bytes the index would take.
        bytes: usize,
        /// The limit.
        limit: usize,
        /// Its fingerprints.
        fingerprints: usize,
        /// Its plan's tables.
        tables: usize,
    },
    /// More pairs within `k` than a list of pairs may hold.
    TooManyPairs {
        /// The distance asked for.
        k: u32,
        /// The most pairs a list holds.
        max: usize,
    },
    /// A name for an index entry longer than the index takes.
    NameTooLong {
        /// The name's length in bytes.
        bytes: usize,
        /// The most allowed.
        max: usize,
    },
    /// Memory could not be had for a structure of about `bytes` bytes (nothing was changed).
    OutOfMemory {
        /// About how many bytes were asked for.
        bytes: usize,
    },
}

/// Which n-gram size an [`Error::NOutOfRange`] is about.
///
/// ```
/// assert_eq!(simprint::NSetting::WordN.name(), "word_n");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NSetting {
    /// `Tokenizer::Words { n }` or `Tokenizer::Chars { n }`.
    N,
    /// `Tokenizer::Auto { word_n, .. }`.
    WordN,
    /// `Tokenizer::Auto { char_n, .. }`.
    CharN,
}

impl NSetting {
    /// The field's name in Rust.
    ///
    /// ```
    /// assert_eq!(simprint::NSetting::CharN.name(), "char_n");
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            NSetting::N => "n",
            NSetting::WordN => "word_n",
            NSetting::CharN => "char_n",
        }
    }
}

/// What is wrong with hex that should spell a fingerprint.
///
/// ```
/// use simprint::{HexProblem, Error, Fingerprint};
/// let err = Fingerprint::from_hex("12g", 64).unwrap_err();
/// assert_eq!(err, Error::MalformedHex { problem: HexProblem::NotADigit('g') });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HexProblem {
    /// Nothing after an optional `0x`.
    NoDigits,
    /// More digits than the width has.
    TooManyDigits {
        /// Digits given.
        digits: usize,
        /// Digits a fingerprint of the width has.
        max: usize,
        /// The width.
        width: u32,
    },
    /// A character that is not a hex digit.
    NotADigit(char),
}

/// What is wrong with a key that should be 32 hex digits.
///
/// ```
/// use simprint::{KeyProblem, Error, Key};
/// let err = Key::from_hex("abc").unwrap_err();
/// assert_eq!(err, Error::MalformedKey { problem: KeyProblem::WrongLength { chars: 3 } });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KeyProblem {
    /// Not 32 characters.
    WrongLength {
        /// Characters given.
        chars: usize,
    },
    /// 32 characters, not all hex digits.
    NotHex,
}

/// Why an explicit index plan cannot work.
///
/// ```
/// use simprint::{PlanProblem, Error, Plan};
/// let err = Plan::with_blocks(64, 3, 3).unwrap_err();
/// assert_eq!(err, Error::ImpossiblePlan {
///     problem: PlanProblem::BlocksOutOfRange { blocks: 3, k: 3, width: 64 },
/// });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PlanProblem {
    /// Blocks must be more than `k` and at most the width.
    BlocksOutOfRange {
        /// Blocks asked for.
        blocks: u32,
        /// The plan's `k`.
        k: u32,
        /// The width.
        width: u32,
    },
    /// The plan needs more tables than allowed.
    TooManyTables {
        /// Blocks asked for.
        blocks: u32,
        /// The plan's `k`.
        k: u32,
        /// Tables it would need.
        tables: u64,
        /// Tables allowed.
        max: usize,
    },
    /// A multi-index plan needs from 1 substring to one per bit.
    SubstringsOutOfRange {
        /// Substrings asked for.
        substrings: u32,
        /// The width.
        width: u32,
    },
    /// A combined plan keys each table by at least one and at most all of its blocks.
    KeyBlocksOutOfRange {
        /// Blocks per key asked for.
        key_blocks: u32,
        /// Blocks the bits are cut into.
        blocks: u32,
    },
    /// The plan probes more keys per fingerprint than [`Plan::probe_keys`](crate::Plan::probe_keys)
    /// collects ([`MAX_PROBE_KEYS`](crate::index::MAX_PROBE_KEYS)).
    TooManyProbeKeys {
        /// Keys the plan probes.
        keys: u64,
        /// Keys allowed.
        max: u64,
    },
}

/// What is wrong with bytes that should hold an index.
///
/// ```
/// use simprint::{BytesProblem, Error, Index};
/// let err = Index::from_bytes(b"nonsense").unwrap_err();
/// assert_eq!(err, Error::MalformedIndexBytes {
///     problem: BytesProblem::TooShort { len: 8, min: 32 },
/// });
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum BytesProblem {
    /// Shorter than an empty index.
    TooShort {
        /// Bytes given.
        len: usize,
        /// Bytes of an empty index.
        min: usize,
    },
    /// The magic is not `SIMPIDX\0`.
    NotAnIndex,
    /// A format version this build cannot read.
    UnsupportedVersion {
        /// The buffer's version.
        version: u16,
        /// The newest version this build reads (it reads every version from 1 up to it).
        supported: u16,
    },
    /// A header field (width, `k`, plan) that cannot be.
    BadHeader(Box<Error>),
    /// The reserved header bytes are not zero.
    ReservedNotZero,
    /// The entry count disagrees with the buffer's length.
    CountMismatch {
        /// Entries the header counts.
        count: u64,
        /// Bytes of entries that follow.
        body: u64,
        /// Bytes per entry.
        entry: usize,
    },
    /// The checksum does not match.
    ChecksumMismatch,
    /// A blocks byte without an explicit plan of blocks.
    BlocksWithoutPlan {
        /// The blocks byte.
        blocks: u32,
    },
    /// A version 2 header for a plan version 1 can hold: each index has one encoding, and
    /// those plans are written as version 1.
    NeedlessVersion {
        /// The plan byte.
        kind: u8,
    },
    /// A names section that is truncated, holds a name that is not UTF-8 or too long, a name
    /// twice, ids out of order, or an id no entry is stored under.
    MalformedNames,
    /// A version 3 header (names) without names, or names with another version.
    NamesWithoutVersion,
    /// A plan kind this build does not know.
    UnknownPlanKind {
        /// The plan byte.
        kind: u8,
    },
    /// Entry ids not in strictly ascending order.
    IdsNotAscending,
    /// An entry whose fingerprint has bits above the width.
    EntryTooWide {
        /// The entry's id.
        id: u64,
        /// Bits the fingerprint needs.
        bits: u32,
        /// The width.
        width: u32,
    },
    /// A name on an id below [`FIRST_NAMED_ID`](crate::index::FIRST_NAMED_ID), where only
    /// numeric ids live: no index writes one, and in JavaScript it would meet a number.
    NamedIdBelowRange {
        /// The named id.
        id: u64,
    },
}

impl Error {
    /// The message, with n-gram settings named by `name` (Rust's names are
    /// [`NSetting::name`]; the JavaScript package passes its own: `wordN`, `charN`).
    ///
    /// ```
    /// use simprint::{Error, NSetting};
    /// let err = Error::NOutOfRange { setting: NSetting::WordN, n: 0, max: 64 };
    /// assert_eq!(err.to_string(), "word_n must be between 1 and 64, got 0");
    /// let js = err.describe(|s| match s { NSetting::WordN => "wordN", other => other.name() });
    /// assert_eq!(js, "wordN must be between 1 and 64, got 0");
    /// ```
    pub fn describe(&self, name: impl Fn(NSetting) -> &'static str) -> String {
        match self {
            Error::NOutOfRange { setting, n, max } => {
                alloc::format!("{} must be between 1 and {max}, got {n}", name(*setting))
            }
            Error::MalformedIndexBytes {
                problem: BytesProblem::BadHeader(inner),
            } => alloc::format!("index bytes: {}", inner.describe(name)),
            other => other.to_string(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::WidthOutOfRange { width } => {
                write!(f, "width must be between 1 and 128, got {width}")
            }
            Error::NOutOfRange { .. } => f.write_str(&self.describe(NSetting::name)),
            Error::KOutOfRange { k, width } => {
                write!(f, "k must be between 0 and the width ({width}), got {k}")
            }
            Error::UnknownTokenizer { name } => write!(
                f,
                "unknown tokenizer {}: expected \"auto\", \"words\" or \"chars\"",
                Quoted(name, '"')
            ),
            Error::UnknownWeighting { name } => write!(
                f,
                "unknown weighting {}: expected \"tf\", \"logtf\" or \"binary\"",
                Quoted(name, '"')
            ),
            Error::UnknownAlgorithm { name } => write!(
                f,
                "unknown algorithm {}: expected \"simhash\" or \"minhash\"",
                Quoted(name, '"')
            ),
            Error::NotForMinHash { what } => write!(
                f,
                "{what} does not apply to algorithm \"minhash\": one-bit MinHash takes each \
                 text as a set of features, with no weights and no per-bit sums"
            ),
            Error::UnknownNormalization { name } => write!(
                f,
                "unknown normalization {}: expected \"none\" or \"width\"",
                Quoted(name, '"')
            ),
            Error::MalformedHex { problem } => write!(f, "malformed hex: {problem}"),
            Error::MalformedKey { problem } => write!(f, "invalid key: {problem}"),
            Error::ValueTooWide { bits, width } => {
                write!(f, "value needs {bits} bits but the width is {width}")
            }
            Error::WidthMismatch { left, right } => write!(
                f,
                "cannot compare fingerprints of different widths ({left} and {right})"
            ),
            // Only NaN and infinities are rejected, so they are named rather than formatted
            // (which keeps float formatting code out of the wasm).
            Error::NonFiniteWeight { weight } => {
                let name = if weight.is_nan() {
                    "NaN"
                } else if *weight > 0.0 {
                    "infinity"
                } else {
                    "-infinity"
                };
                write!(f, "weight must be a finite number, got {name}")
            }
            // Not formatted, like weights: float formatting stays out of the wasm.
            Error::ToleranceOutOfRange { .. } => f.write_str(
                "tolerance must be a share of the text edited above 0 and below 1, with the \
                 share it is told apart from above it and at most 1",
            ),
            Error::CalibrationNeedsBothKinds { duplicates, others } => write!(
                f,
                "calibration needs pairs of both kinds, got near-duplicates: {duplicates}, \
                 other pairs: {others}"
            ),
            Error::OptionsMismatch => f.write_str(
                "invalid options: the document frequencies were built with other options \
                 (tokenizer, n, normalization, case folding, key or width): build them with these",
            ),
            Error::ImpossiblePlan { problem } => write!(f, "invalid plan: {problem}"),
            Error::MalformedIndexBytes { problem } => write!(f, "index bytes: {problem}"),
            Error::IndexTooLarge {
                bytes,
                limit,
                fingerprints,
                tables,
            } => write!(
                f,
                "index bytes: the index would take about {bytes} bytes of memory ({fingerprints} \
                 fingerprints, {tables} tables), more than the limit of {limit}; raise the \
                 limit if the buffer is trusted"
            ),
            Error::TooManyPairs { k, max } => write!(
                f,
                "pairs: more than {max} pairs are within {k}; ask for the first of them with a \
                 limit, or group them with clusters(), which needs no list of pairs"
            ),
            Error::NameTooLong { bytes, max } => {
                write!(f, "a name is {bytes} bytes long; at most {max} are allowed")
            }
            Error::OutOfMemory { bytes } => write!(
                f,
                "out of memory: {bytes} more bytes could not be allocated (nothing was changed)"
            ),
        }
    }
}

impl fmt::Display for HexProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexProblem::NoDigits => f.write_str("no hex digits"),
            HexProblem::TooManyDigits { digits, max, width } => write!(
                f,
                "{digits} digits is more than the {max} a {width}-bit fingerprint has"
            ),
            HexProblem::NotADigit(c) => {
                let mut buf = [0; 4];
                write!(
                    f,
                    "{} is not a hex digit",
                    Quoted(c.encode_utf8(&mut buf), '\'')
                )
            }
        }
    }
}

impl fmt::Display for KeyProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyProblem::WrongLength { chars } => write!(
                f,
                "expected 32 hex digits (16 bytes), got {chars} characters"
            ),
            KeyProblem::NotHex => f.write_str("the key holds a character that is not a hex digit"),
        }
    }
}

impl fmt::Display for PlanProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanProblem::BlocksOutOfRange { blocks, k, width } => write!(
                f,
                "blocks must be more than k ({k}) and at most the width ({width}), got {blocks}"
            ),
            PlanProblem::TooManyTables {
                blocks,
                k,
                tables,
                max,
            } => write!(
                f,
                "{blocks} blocks with k = {k} need {tables} tables; at most {max} are allowed"
            ),
            PlanProblem::SubstringsOutOfRange { substrings, width } => write!(
                f,
                "substrings must be from 1 to the width ({width}), got {substrings}"
            ),
            PlanProblem::KeyBlocksOutOfRange { key_blocks, blocks } => write!(
                f,
                "blocks per key must be from 1 to the blocks ({blocks}), got {key_blocks}"
            ),
            PlanProblem::TooManyProbeKeys { keys, max } => write!(
                f,
                "the plan probes {keys} keys per fingerprint; at most {max} are collected"
            ),
        }
    }
}

impl fmt::Display for BytesProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BytesProblem::TooShort { len, min } => {
                write!(f, "{len} bytes is shorter than the {min} of an empty index")
            }
            BytesProblem::NotAnIndex => f.write_str("not a simprint index (bad magic)"),
            BytesProblem::UnsupportedVersion { version, supported } => write!(
                f,
                "format version {version} is not supported (this build reads versions 1 to {supported})"
            ),
            BytesProblem::BadHeader(inner) => write!(f, "{inner}"),
            BytesProblem::ReservedNotZero => f.write_str("reserved header bytes are not zero"),
            BytesProblem::CountMismatch { count, body, entry } => write!(
                f,
                "the header says {count} entries but {body} bytes of entries follow ({entry} \
                 bytes each): truncated or corrupted"
            ),
            BytesProblem::ChecksumMismatch => {
                f.write_str("checksum mismatch: the buffer is corrupted")
            }
            BytesProblem::BlocksWithoutPlan { blocks } => write!(
                f,
                "blocks is {blocks} but the plan is not explicit blocks (it must be 0)"
            ),
            BytesProblem::UnknownPlanKind { kind } => write!(f, "unknown plan kind {kind}"),
            BytesProblem::MalformedNames => f.write_str(
                "the names section is truncated or holds a name that is not UTF-8 or too long, \
                 a repeated name, ids out of order or an id with no entry",
            ),
            BytesProblem::NamesWithoutVersion => {
                f.write_str("names are written as format version 3, and version 3 always has names")
            }
            BytesProblem::NeedlessVersion { kind } => write!(
                f,
                "plan kind {kind} is written as format version 1, not 2"
            ),
            BytesProblem::IdsNotAscending => f.write_str("ids are not in strictly ascending order"),
            BytesProblem::EntryTooWide { id, bits, width } => write!(
                f,
                "id {id}: value needs {bits} bits but the width is {width}"
            ),
            BytesProblem::NamedIdBelowRange { id } => write!(
                f,
                "id {id} has a name, but names' ids start at 2^53"
            ),
        }
    }
}

impl core::error::Error for Error {}

/// `text` between `quote`s, escaped as `{:?}` escapes ordinary text (the quote, `\\`, and
/// control characters), without core's table of printable characters that `{:?}` brings into
/// the wasm. (Unlike `{:?}`, other invisible characters are written as they are.)
///
/// ```
/// use simprint::Quoted;
/// assert_eq!(Quoted("a\"b\n", '"').to_string(), format!("{:?}", "a\"b\n"));
/// assert_eq!(Quoted("'", '\'').to_string(), format!("{:?}", '\''));
/// ```
pub struct Quoted<'a>(pub &'a str, pub char);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        let Quoted(text, quote) = *self;
        f.write_char(quote)?;
        for c in text.chars() {
            match c {
                '\t' => f.write_str("\\t")?,
                '\r' => f.write_str("\\r")?,
                '\n' => f.write_str("\\n")?,
                '\0' => f.write_str("\\0")?,
                '\\' => f.write_str("\\\\")?,
                c if c == quote => {
                    f.write_char('\\')?;
                    f.write_char(c)?;
                }
                c if c.is_control() => write!(f, "\\u{{{:x}}}", u32::from(c))?,
                c => f.write_char(c)?,
            }
        }
        f.write_char(quote)
    }
}

/// Most characters of a caller's value an error message repeats.
const ECHO_CHARS: usize = 64;

/// `value` as an error may hold and repeat it: its first 64 characters and how many there were
/// in all, so a message never carries a huge input along.
///
/// ```
/// assert_eq!(simprint::echo("words"), "words");
/// assert!(simprint::echo(&"x".repeat(1000)).ends_with("… (1000 characters in all)"));
/// ```
#[must_use]
pub fn echo(value: &str) -> String {
    match value.char_indices().nth(ECHO_CHARS) {
        None => String::from(value),
        Some((cut, _)) => alloc::format!(
            "{}… ({} characters in all)",
            &value[..cut],
            value.chars().count()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_are_cut_in_messages() {
        assert_eq!(echo("words"), "words");
        let long = "x".repeat(1_000_000);
        let e = Error::UnknownTokenizer { name: echo(&long) };
        let text = e.to_string();
        assert!(text.len() < 200, "{text}");
        assert!(text.contains("1000000 characters in all"), "{text}");
        // Cut between characters, never inside one.
        assert!(echo(&"語".repeat(100)).starts_with(&"語".repeat(64)));
    }
}
