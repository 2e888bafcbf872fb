//! The fingerprint value: `f` bits with their width, hex and binary forms, and comparison.

use alloc::string::String;
use core::fmt;

use crate::distance::{hamming, Comparison};
use crate::error::{Error, HexProblem};

/// The widest fingerprint supported.
pub const MAX_WIDTH: u32 = 128;

/// Checks that `width` is in `1..=128`, the widths every function here takes.
///
/// # Errors
///
/// [`Error::WidthOutOfRange`] outside `1..=128`.
///
/// ```
/// assert_eq!(simprint::check_width(64)?, 64);
/// assert!(simprint::check_width(0).is_err());
/// # Ok::<(), simprint::Error>(())
/// ```
pub fn check_width(width: u32) -> Result<u32, Error> {
    if (1..=MAX_WIDTH).contains(&width) {
        Ok(width)
    } else {
        Err(Error::WidthOutOfRange { width })
    }
}

/// Checks that a distance bound `k` makes sense for `width`-bit fingerprints: `0..=width`.
///
/// # Errors
///
/// [`Error::WidthOutOfRange`] for a bad width, [`Error::KOutOfRange`] for `k` above it.
///
/// ```
/// assert!(simprint::check_k(64, 64).is_ok());
/// assert!(simprint::check_k(64, 65).is_err());
/// ```
pub fn check_k(width: u32, k: u32) -> Result<(), Error> {
    check_width(width)?;
    if k > width {
        return Err(Error::KOutOfRange { k, width });
    }
    Ok(())
}

/// All ones in the low `width` bits; `width` is already checked.
#[inline]
pub(crate) fn mask(width: u32) -> u128 {
    u128::MAX >> (MAX_WIDTH - width)
}

/// Fails unless `value` fits in `width` bits.
pub(crate) fn check_fits(value: u128, width: u32) -> Result<u128, Error> {
    if value & !mask(width) == 0 {
        Ok(value)
    } else {
        Err(Error::ValueTooWide {
            bits: 128 - value.leading_zeros(),
            width,
        })
    }
}

/// An `f`-bit SimHash fingerprint, `1 <= f <= 128`.
///
/// Bit `i` of the fingerprint (counting from 0 at the most significant bit) is the sign of
/// `V[i]`, so the binary form reads `V[0], V[1], …` from left to right, as the reference
/// material draws it. The value is held in the low `f` bits of a `u128`.
///
/// ```
/// use simprint::Fingerprint;
/// let fp = Fingerprint::new(0b001, 3)?;
/// assert_eq!(fp.to_binary(), "001");
/// assert!(fp.bit(2) && !fp.bit(0));
/// assert_eq!(Fingerprint::from_hex("00ff", 16)?.value(), 255);
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint {
    value: u128,
    width: u8,
}

impl Fingerprint {
    /// A fingerprint of `width` bits holding `value`.
    ///
    /// Fails if `width` is outside `1..=128` or `value` has bits set at or above `width`.
    ///
    /// # Errors
    ///
    /// [`Error::WidthOutOfRange`] for a bad width, [`Error::ValueTooWide`] for a value with
    /// bits at or above it.
    ///
    /// ```
    /// use simprint::{Error, Fingerprint};
    /// assert!(Fingerprint::new(7, 3).is_ok());
    /// assert_eq!(Fingerprint::new(8, 3), Err(Error::ValueTooWide { bits: 4, width: 3 }));
    /// ```
    pub fn new(value: u128, width: u32) -> Result<Fingerprint, Error> {
        let width = check_width(width)?;
        let value = check_fits(value, width)?;
        Ok(Fingerprint::from_parts(value, width))
    }

    /// Builds from parts already known to be valid.
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "a checked width is at most 128"
    )]
    pub(crate) fn from_parts(value: u128, width: u32) -> Fingerprint {
        debug_assert!(check_width(width).is_ok() && check_fits(value, width).is_ok());
        Fingerprint {
            value,
            width: width as u8,
        }
    }

    /// The bits as an integer (the low `width` bits are used).
    ///
    /// ```
    /// assert_eq!(simprint::Fingerprint::new(42, 64)?.value(), 42);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn value(&self) -> u128 {
        self.value
    }

    /// The width `f` in bits.
    ///
    /// ```
    /// assert_eq!(simprint::Fingerprint::new(1, 8)?.width(), 8);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn width(&self) -> u32 {
        u32::from(self.width)
    }

    /// The value as a `u64`, when the width is at most 64.
    ///
    /// ```
    /// use simprint::Fingerprint;
    /// assert_eq!(Fingerprint::new(5, 64)?.to_u64(), Some(5));
    /// assert_eq!(Fingerprint::new(5, 128)?.to_u64(), None);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn to_u64(&self) -> Option<u64> {
        if self.width <= 64 {
            #[allow(clippy::cast_possible_truncation, reason = "it fits 64 bits")]
            Some(self.value as u64)
        } else {
            None
        }
    }

    /// Bit `i`, counting from 0 at the most significant bit; `false` past the width.
    ///
    /// ```
    /// let fp = simprint::Fingerprint::new(0b100, 3)?;
    /// assert_eq!([fp.bit(0), fp.bit(1), fp.bit(2)], [true, false, false]);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn bit(&self, i: u32) -> bool {
        i < self.width() && (self.value >> (self.width() - 1 - i)) & 1 == 1
    }

    /// Lowercase hex with leading zeros: always `ceil(f/4)` digits.
    ///
    /// ```
    /// use simprint::Fingerprint;
    /// assert_eq!(Fingerprint::new(0xab, 64)?.to_hex(), "00000000000000ab");
    /// assert_eq!(Fingerprint::new(0b101, 3)?.to_hex(), "5");
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn to_hex(&self) -> String {
        let digits = self.width().div_ceil(4);
        let mut out = String::with_capacity(digits as usize);
        for d in (0..digits).rev() {
            let nibble = ((self.value >> (4 * d)) & 0xf) as u32;
            out.push(char::from_digit(nibble, 16).unwrap_or('0'));
        }
        out
    }

    /// Parses hex back into a fingerprint of `width` bits.
    ///
    /// Accepts an optional `0x` prefix and either case, with 1 to `ceil(width/4)` digits.
    /// Fails on an empty or over-long string, a non-hex character, or a value wider than
    /// `width`.
    ///
    /// # Errors
    ///
    /// [`Error::WidthOutOfRange`] for a bad width, [`Error::MalformedHex`] for no digits, too
    /// many or a character that is not one, [`Error::ValueTooWide`] for a value above the
    /// width.
    ///
    /// ```
    /// use simprint::{Error, Fingerprint};
    /// let fp = Fingerprint::from_hex("0x00000000000000AB", 64)?;
    /// assert_eq!(fp.value(), 0xab);
    /// assert!(matches!(Fingerprint::from_hex("xyz", 64), Err(Error::MalformedHex { .. })));
    /// assert!(matches!(Fingerprint::from_hex("f", 3), Err(Error::ValueTooWide { .. })));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn from_hex(hex: &str, width: u32) -> Result<Fingerprint, Error> {
        let width = check_width(width)?;
        let digits = hex
            .strip_prefix("0x")
            .or_else(|| hex.strip_prefix("0X"))
            .unwrap_or(hex);
        let max_digits = width.div_ceil(4) as usize;
        if digits.is_empty() {
            return Err(Error::MalformedHex {
                problem: HexProblem::NoDigits,
            });
        }
        if digits.len() > max_digits {
            return Err(Error::MalformedHex {
                problem: HexProblem::TooManyDigits {
                    digits: digits.chars().count(),
                    max: max_digits,
                    width,
                },
            });
        }
        let mut value: u128 = 0;
        for c in digits.chars() {
            let Some(nibble) = c.to_digit(16) else {
                return Err(Error::MalformedHex {
                    problem: HexProblem::NotADigit(c),
                });
            };
            // At most 32 digits were accepted above, so this never overflows.
            value = (value << 4) | u128::from(nibble);
        }
        Fingerprint::new(value, width)
    }

    /// The `f` bits as a string of `0` and `1`, bit 0 first.
    ///
    /// ```
    /// assert_eq!(simprint::Fingerprint::new(0b101011, 6)?.to_binary(), "101011");
    /// # Ok::<(), simprint::Error>(())
    /// ```
    #[must_use]
    pub fn to_binary(&self) -> String {
        (0..self.width())
            .map(|i| if self.bit(i) { '1' } else { '0' })
            .collect()
    }

    /// Hamming distance to a fingerprint of the same width.
    ///
    /// # Errors
    ///
    /// [`Error::WidthMismatch`] when the widths differ.
    ///
    /// ```
    /// use simprint::Fingerprint;
    /// let a = Fingerprint::new(0b10101, 5)?;
    /// let b = Fingerprint::new(0b00110, 5)?;
    /// assert_eq!(a.distance(&b)?, 3);
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn distance(&self, other: &Fingerprint) -> Result<u32, Error> {
        if self.width != other.width {
            return Err(Error::WidthMismatch {
                left: self.width(),
                right: other.width(),
            });
        }
        Ok(hamming(self.value, other.value))
    }

    /// Distance, similarity `1 − d/f`, angle `π·d/f` and its cosine.
    ///
    /// # Errors
    ///
    /// [`Error::WidthMismatch`] when the widths differ.
    ///
    /// ```
    /// use simprint::Fingerprint;
    /// let a = Fingerprint::new(0, 64)?;
    /// let b = Fingerprint::new(0xffff, 64)?;
    /// let c = a.compare(&b)?;
    /// assert_eq!((c.distance, c.similarity), (16, 0.75));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn compare(&self, other: &Fingerprint) -> Result<Comparison, Error> {
        Ok(Comparison::new(self.distance(other)?, self.width()))
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({}/{})", self.to_hex(), self.width)
    }
}

/// Formats as [`Fingerprint::to_hex`].
impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_at_every_width() {
        for width in 1..=128u32 {
            for value in [
                0u128,
                1,
                mask(width),
                mask(width) >> 1,
                0x5555_5555 & mask(width),
            ] {
                let fp = Fingerprint::new(value, width).unwrap();
                let hex = fp.to_hex();
                assert_eq!(hex.len() as u32, width.div_ceil(4));
                assert_eq!(Fingerprint::from_hex(&hex, width).unwrap(), fp);
            }
        }
    }

    #[test]
    fn bad_widths_and_values() {
        assert_eq!(
            Fingerprint::new(0, 0),
            Err(Error::WidthOutOfRange { width: 0 })
        );
        assert_eq!(
            Fingerprint::new(0, 129),
            Err(Error::WidthOutOfRange { width: 129 })
        );
        assert_eq!(Fingerprint::new(u128::MAX, 128).unwrap().value(), u128::MAX);
        assert_eq!(
            Fingerprint::new(1 << 64, 64),
            Err(Error::ValueTooWide {
                bits: 65,
                width: 64
            })
        );
    }

    #[test]
    fn malformed_hex() {
        for bad in ["", "0x", "g", "12 3", "-1", "+1", "é"] {
            assert!(
                matches!(
                    Fingerprint::from_hex(bad, 64),
                    Err(Error::MalformedHex { .. })
                ),
                "{bad:?}"
            );
        }
        // 17 digits do not fit a 64-bit fingerprint even when they are zeros.
        assert!(matches!(
            Fingerprint::from_hex("00000000000000000", 64),
            Err(Error::MalformedHex { .. })
        ));
        assert_eq!(
            Fingerprint::from_hex("8", 3),
            Err(Error::ValueTooWide { bits: 4, width: 3 })
        );
        assert_eq!(
            Fingerprint::from_hex("1", 0),
            Err(Error::WidthOutOfRange { width: 0 })
        );
    }

    #[test]
    fn width_mismatch() {
        let a = Fingerprint::new(1, 64).unwrap();
        let b = Fingerprint::new(1, 128).unwrap();
        assert_eq!(
            a.distance(&b),
            Err(Error::WidthMismatch {
                left: 64,
                right: 128
            })
        );
    }
}
