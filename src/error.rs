//! The one error type of the crate: every bad option or input is a value, never a panic.

use alloc::string::String;
use core::fmt;

/// Everything that can go wrong when fingerprinting, formatting or comparing.
///
/// Every public function that takes user input returns `Result<_, Error>`; none of them
/// panics. The `Display` text is the message the JavaScript package throws.
///
/// ```
/// use simprint::{Error, Fingerprinter, Options};
/// let err = Fingerprinter::new(Options { width: 0, ..Options::default() }).unwrap_err();
/// assert_eq!(err, Error::InvalidWidth(0));
/// assert_eq!(err.to_string(), "width must be between 1 and 128, got 0");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// The fingerprint width is outside `1..=128`.
    InvalidWidth(u32),
    /// An n-gram size is outside `1..=MAX_N`; `what` names the option.
    InvalidN {
        /// Which option carried the bad value (`"n"`, `"wordN"`, `"charN"`).
        what: &'static str,
        /// The rejected value.
        n: u64,
    },
    /// A tokenizer name that is not `auto`, `words` or `chars`.
    UnknownTokenizer(String),
    /// A weighting name that is not `tf`, `logtf` or `binary`.
    UnknownWeighting(String),
    /// A hex string that is empty, too long, or holds a character that is not a hex digit.
    MalformedHex(String),
    /// A value (fingerprint or pre-hashed feature) with bits set above the width.
    TooWide {
        /// Bits the value needs.
        bits: u32,
        /// The width it had to fit in.
        width: u32,
    },
    /// Two fingerprints of different widths were compared.
    WidthMismatch(u32, u32),
    /// A feature weight that is NaN or infinite.
    InvalidWeight(f64),
    /// A SipHash key that is not exactly 32 hex digits (16 bytes).
    InvalidKey(String),
    /// A distance bound above the fingerprint width.
    InvalidK {
        /// The rejected `k`.
        k: u32,
        /// The width it must not exceed.
        width: u32,
    },
    /// An explicit index plan that cannot work (why is in the text).
    InvalidPlan(String),
    /// Index bytes that are truncated, corrupted, of another version or inconsistent.
    Bytes(String),
    /// A normalization name that is not `none` or `width`.
    UnknownNormalization(String),
    /// Options that do not fit together (why is in the text).
    InvalidOptions(String),
    /// An answer too large to hold in memory (what and why is in the text).
    TooLarge(String),
    /// Memory could not be had for a structure of about `bytes` bytes (nothing was changed).
    OutOfMemory {
        /// About how many bytes were asked for.
        bytes: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidWidth(w) => write!(f, "width must be between 1 and 128, got {w}"),
            Error::InvalidN { what, n } => write!(
                f,
                "{what} must be between 1 and {}, got {n}",
                crate::tokenize::MAX_N
            ),
            Error::UnknownTokenizer(name) => write!(
                f,
                "unknown tokenizer {name:?}: expected \"auto\", \"words\" or \"chars\""
            ),
            Error::UnknownWeighting(name) => {
                write!(
                    f,
                    "unknown weighting {name:?}: expected \"tf\", \"logtf\" or \"binary\""
                )
            }
            Error::MalformedHex(why) => write!(f, "malformed hex: {why}"),
            Error::TooWide { bits, width } => {
                write!(f, "value needs {bits} bits but the width is {width}")
            }
            Error::WidthMismatch(a, b) => write!(
                f,
                "cannot compare fingerprints of different widths ({a} and {b})"
            ),
            // Only NaN and infinities are rejected, so they are named rather than formatted
            // (which keeps float formatting code out of the wasm).
            Error::InvalidWeight(w) => {
                let name = if w.is_nan() {
                    "NaN"
                } else if *w > 0.0 {
                    "infinity"
                } else {
                    "-infinity"
                };
                write!(f, "weight must be a finite number, got {name}")
            }
            Error::InvalidKey(why) => write!(f, "invalid key: {why}"),
            Error::InvalidK { k, width } => {
                write!(f, "k must be between 0 and the width ({width}), got {k}")
            }
            Error::InvalidPlan(why) => write!(f, "invalid plan: {why}"),
            Error::Bytes(why) => f.write_str(why),
            Error::UnknownNormalization(name) => {
                write!(
                    f,
                    "unknown normalization {name:?}: expected \"none\" or \"width\""
                )
            }
            Error::InvalidOptions(why) => write!(f, "invalid options: {why}"),
            Error::TooLarge(why) => f.write_str(why),
            Error::OutOfMemory { bytes } => write!(
                f,
                "out of memory: {bytes} more bytes could not be allocated (nothing was changed)"
            ),
        }
    }
}

impl core::error::Error for Error {}

/// Most characters of a caller's value an error message repeats.
const ECHO_CHARS: usize = 64;

/// `value` as an error may hold and repeat it: its first 64 characters and how many there were
/// in all, so a message never carries a huge input along.
///
/// ```
/// assert_eq!(simprint::error::echo("words"), "words");
/// assert!(simprint::error::echo(&"x".repeat(1000)).ends_with("… (1000 characters in all)"));
/// ```
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
        let e = Error::UnknownTokenizer(echo(&long));
        let text = alloc::string::ToString::to_string(&e);
        assert!(text.len() < 200, "{text}");
        assert!(text.contains("1000000 characters in all"), "{text}");
        // Cut between characters, never inside one.
        assert!(echo(&"語".repeat(100)).starts_with(&"語".repeat(64)));
    }
}
