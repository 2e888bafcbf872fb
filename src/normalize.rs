//! What the text becomes before it is cut into features: width-folded, then lowercased
//! ([`fold`]).
//!
//! Width folding: full-width and half-width forms become their ordinary forms, so `Ｔｅｘｔ１`
//! matches `Text1`, `ｶﾞｲﾄﾞ` matches `ガイド` and an ideographic space is a space.
//!
//! It maps the Halfwidth and Fullwidth Forms block (U+FF00–U+FFEF) and U+3000 as Unicode's
//! compatibility mappings do, composing half-width voiced sound marks with the kana before
//! them. It is the part of NFKC that matters for CJK text, without NFKC's tables (which would
//! add about 70 KB to the gzipped WebAssembly).

mod case;
mod case_table;
mod width;

/// The Unicode version of the case tables (the tokenizer's tables are checked against it).
#[cfg(test)]
pub(crate) const CASE_UNICODE_VERSION: (u8, u8, u8) = case_table::UNICODE_VERSION;

use alloc::borrow::Cow;
use alloc::string::String;

#[cfg(test)]
use self::case::lowercase_unchanged;
use self::case::{lowercase_of, sigma_at};
pub use self::width::fold_width;
use self::width::{is_width_variant, push_folded};
use crate::options::Normalization;

/// The text as the tokenizer sees it: width-folded if `normalization` says so, then
/// lowercased if `case_fold`; borrowed when neither changes anything.
///
/// ```
/// use simprint::{normalize::fold, Normalization};
/// assert_eq!(fold("Ｔｅｘｔ Σ", Normalization::Width, true), "text σ");
/// assert!(matches!(fold("plain", Normalization::Width, true), std::borrow::Cow::Borrowed(_)));
/// ```
#[must_use]
pub fn fold(text: &str, normalization: Normalization, case_fold: bool) -> Cow<'_, str> {
    fold_counting(text, normalization, case_fold).0
}

/// [`fold`], and how many three-byte CJK characters (Han, kana: lead bytes E3–E9) its one pass
/// skipped over: 0 when it made none (nothing to fold, or the standard path). The fingerprinter
/// sizes its table of distinct features by it, as CJK text has more features per byte.
pub(crate) fn fold_counting(
    text: &str,
    normalization: Normalization,
    case_fold: bool,
) -> (Cow<'_, str>, usize) {
    let width = normalization == Normalization::Width;
    let case = case_fold;
    if !width && !case {
        return (Cow::Borrowed(text), 0);
    }
    let mut cjk = 0;
    let folded = fold_one_pass(text, width, case, &mut cjk);
    (folded, cjk)
}

/// [`fold`] in one pass over the text, sixteen bytes at a time where the target has vectors
/// ([`crate::byte_classes::fold_classes16`]), else eight (see [`Block`]): ASCII and Han
/// and kana (lead bytes E3–E9) have nothing to fold but A–Z, which are lowered in bulk at the
/// end, so a block of only those is passed over without decoding, and only the other
/// characters are decoded one by one. Unchanged text is copied in whole slices. Borrowed when
/// nothing changes. Adds the number of Han and kana lead bytes passed over to `cjk`.
fn fold_one_pass<'t>(text: &'t str, width: bool, case: bool, cjk: &mut usize) -> Cow<'t, str> {
    let bytes = text.as_bytes();
    let len = bytes.len();
    // What has changed so far, from `copied` on not yet copied.
    let mut out: Option<String> = None;
    let mut copied = 0;
    // The high bit of a byte set where some block had an A–Z there.
    let mut upper = 0u64;
    let mut cjk_leads = 0;
    let mut i = 0;
    'bytes: while i < len {
        // Sixteen bytes a step where the target has vectors (see `crate::byte_classes`), the
        // same tests as the eight-byte arithmetic below.
        'block: {
            if let (true, Some(chunk)) =
                (crate::byte_classes::VECTORS, bytes[i..].first_chunk::<16>())
            {
                let x = u128::from_le_bytes(*chunk);
                #[allow(clippy::cast_possible_truncation, reason = "the block's two halves")]
                let block = crate::byte_classes::fold_classes16(x as u64, (x >> 64) as u64);
                upper |= u64::from(block.upper);
                if block.stop == 0 {
                    cjk_leads += block.cjk.count_ones() as usize;
                    i += 16;
                    continue 'bytes;
                }
                let skip = block.stop.trailing_zeros();
                cjk_leads += (block.cjk & ((1 << skip) - 1)).count_ones() as usize;
                i += skip as usize;
                // On to the one character below, past the eight-byte step (which would find the
                // same stop).
                break 'block;
            }
            if let Some(chunk) = bytes[i..].first_chunk::<8>() {
                let x = u64::from_le_bytes(*chunk);
                if x & Block::HIGH == 0 {
                    // ASCII, as long as it lasts: only A–Z to note (in the bytes' high bits, the
                    // rest cleared at the end).
                    let mut a_to_z = Block::ascii_upper(x);
                    i += 8;
                    while let Some(chunk) = bytes.get(i..i + 8) {
                        let x = u64::from_le_bytes([
                            chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6],
                            chunk[7],
                        ]);
                        if x & Block::HIGH != 0 {
                            break;
                        }
                        a_to_z |= Block::ascii_upper(x);
                        i += 8;
                    }
                    upper |= a_to_z & Block::HIGH;
                    continue 'bytes;
                }
                // Mixed text switches between ASCII and CJK every few characters: whole blocks
                // keep those switches out of the branches.
                let block = Block::of(x);
                upper |= block.upper;
                if block.stop == 0 {
                    cjk_leads += Block::count(block.cjk);
                    i += 8;
                    continue 'bytes;
                }
                // Up to the first character that may fold, nothing does.
                let skip = block.stop.trailing_zeros() as usize / 8;
                cjk_leads += Block::count(block.cjk & ((1u64 << (8 * skip)) - 1));
                i += skip;
            }
        }
        // One character: the one a block stopped at, or one of the last few bytes; from its
        // start, which may be in a block passed over (a U+3000 found by its last bytes, or a
        // character cut by the end of the last block).
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        let lead = bytes[i];
        if lead < 0x80 {
            if lead.is_ascii_uppercase() {
                upper = 0x80;
            }
            i += 1;
            continue;
        }
        let Some(c) = text[i..].chars().next() else {
            break;
        };
        let next = i + c.len_utf8();
        if width && is_width_variant(c) {
            let out = out.get_or_insert_with(|| String::with_capacity(len));
            out.push_str(&text[copied..i]);
            // What it folds to is ASCII (lowered below) or caseless (a test checks every one).
            push_folded(out, c);
            copied = next;
        } else if let Some(lower) = case.then(|| lowercase_of(c)).flatten() {
            let out = out.get_or_insert_with(|| String::with_capacity(len));
            out.push_str(&text[copied..i]);
            if c == 'Σ' {
                out.push(sigma_at(text, i));
            } else {
                lower.push_to(out);
            }
            copied = next;
        }
        i = next;
    }
    *cjk += cjk_leads;
    let upper = case && upper != 0;
    match out {
        Some(mut out) => {
            out.push_str(&text[copied..]);
            if case {
                out.make_ascii_lowercase();
            }
            Cow::Owned(out)
        }
        None if upper => {
            let mut out = String::from(text);
            out.make_ascii_lowercase();
            Cow::Owned(out)
        }
        None => Cow::Borrowed(text),
    }
}

/// Eight bytes of UTF-8 as [`fold_one_pass`] sees them: masks with the high bit of a byte set
/// where the byte is A–Z (`upper`), the lead byte of a Han or kana character (`cjk`), or
/// where a character that may fold starts or lies (`stop`): a lead byte of anything but
/// U+3000–U+9FFF (letters with case, width variants, all else), or the bytes 80 80 of
/// U+3000 (the only width variant there), or a last byte 80 that may begin them. Other
/// characters with those bytes are looked at too, and left alone.
struct Block {
    upper: u64,
    cjk: u64,
    stop: u64,
}

impl Block {
    /// The high bit of every byte.
    const HIGH: u64 = 0x8080_8080_8080_8080;

    /// The high bit of each byte of `v` (each below 80) set where it is at least `c`.
    #[inline(always)]
    fn at_least(v: u64, c: u8) -> u64 {
        v + 0x0101_0101_0101_0101 * u64::from(0x80 - c)
    }

    /// The high bit of each byte set where the byte is A–Z, of the bytes of `ascii` (high
    /// bits) of `x`.
    #[inline(always)]
    fn upper(x: u64, ascii: u64) -> u64 {
        let low = x & !Block::HIGH;
        (Block::at_least(low, b'A') ^ Block::at_least(low, b'Z' + 1)) & ascii
    }

    /// [`Block::upper`] of eight ASCII bytes, but that only the high bits are meaningful.
    #[inline(always)]
    fn ascii_upper(x: u64) -> u64 {
        Block::at_least(x, b'A') ^ Block::at_least(x, b'Z' + 1)
    }

    /// How many bytes of a mask of high bits are set (without a popcount instruction, which
    /// the baseline x86-64 target lacks): the bits, moved to the bytes' low bits, summed by
    /// a multiply into the top byte.
    #[inline(always)]
    fn count(mask: u64) -> usize {
        #[allow(clippy::cast_possible_truncation, reason = "at most 8")]
        let n = ((mask >> 7).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
        n
    }

    /// The masks of the block `x` (first byte lowest).
    #[inline(always)]
    fn of(x: u64) -> Block {
        const HIGH: u64 = Block::HIGH;
        const LOW: u64 = !HIGH;
        let low = x & LOW;
        // Lead bytes of multi-byte characters: 11xxxxxx.
        let lead = x & (x << 1) & HIGH;
        // E3–E9 are the leads whose low seven bits are 63–69.
        let cjk = (Block::at_least(low, 0x63) ^ Block::at_least(low, 0x6A)) & lead;
        // Bytes equal to 80: their xor with 80 is zero.
        let z = x ^ HIGH;
        let is_80 = !(((z & LOW) + LOW) | z) & HIGH;
        // A last byte 80 stops too, rather than looking past the block: about one block in
        // a hundred of CJK text.
        let pair = is_80 & ((is_80 >> 8) | 0x80 << 56);
        Block {
            upper: Block::upper(x, !x & HIGH),
            cjk,
            stop: (lead & !cjk) | pair,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `fold_one_pass` does not look at the case of width variants when widths are folded
    /// first: what each one folds to is ASCII (lowered in bulk) or has no lowercase.
    #[test]
    fn width_variants_fold_to_ascii_or_caseless_text() {
        let variants = (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| is_width_variant(c));
        let mut checked = 0;
        for c in variants {
            checked += 1;
            let folded = fold_width(&String::from(c));
            assert!(
                folded
                    .chars()
                    .all(|d| d.is_ascii() || lowercase_unchanged(d)),
                "{c:?} folds to {folded:?}"
            );
        }
        assert_eq!(checked, 1 + 0xFFEE - 0xFF01 + 1);
    }

    /// Width folding then `str::to_lowercase`, as the options say: what [`fold`] must equal.
    /// None where the standard library's Unicode is not the case tables' (see
    /// [`case::std_lowercase`]).
    fn plain_fold(text: &str, width: bool, case: bool) -> Option<String> {
        let mut expected = String::from(text);
        if width {
            expected = fold_width(&expected);
        }
        if case {
            expected = case::std_lowercase(&expected)?;
        }
        Some(expected)
    }

    /// Every character, in one text (so each is met at every alignment of the eight-byte steps
    /// as the text goes on), through each combination of the folds.
    #[test]
    fn fold_of_every_character() {
        let all: String = (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .flat_map(|c| [c, 'A', c, ' '])
            .collect();
        for (width, case) in [(true, true), (true, false), (false, true)] {
            let normalization = if width {
                Normalization::Width
            } else {
                Normalization::None
            };
            if let Some(expected) = plain_fold(&all, width, case) {
                assert!(fold(&all, normalization, case) == expected);
            }
        }
    }

    /// Σ in long words, among ordinary Σ and case-ignorable characters: decided in the one
    /// pass, as the standard path decides them.
    #[test]
    fn sigma_in_a_long_word() {
        let long: String = "ΑΣ".repeat(200);
        let marks: String = "\u{301}".repeat(300);
        for text in [
            long.clone(),
            alloc::format!("x {long} ΑΣ Σ ΣΑ"),
            "ΑΣ. ΑΣΑ Σ".into(),
            alloc::format!("Α{marks}Σ{marks}"),
            alloc::format!("Α{marks}Σ{marks}Α"),
            alloc::format!("{marks}Σ{marks}ΣΣ{marks}"),
        ] {
            let folded = fold(&text, Normalization::Width, true);
            assert_eq!(folded, text.to_lowercase());
        }
    }

    /// Fragments of mixed technical text, in upper and lower case, with the width variants
    /// and case changes that meet them.
    const MIXED: &[&str] = &[
        "安装",
        "软件包",
        "インストール",
        "します",
        "人々",
        "apt-get",
        "INSTALL",
        "--Help",
        "/usr/Bin/foo",
        "https://www.Debian.org/",
        "Foo_Bar",
        "3.14",
        "README",
        "x",
        "X",
        " ",
        "\n",
        "。",
        "、",
        "，",
        "：",
        "（",
        "）",
        "Ａ",
        "ｚ",
        "１",
        "ｶ",
        "ﾞ",
        "ﾊﾟ",
        "\u{3000}",
        "Σ",
        "σ",
        "İ",
        "K",
        "É",
        "ß",
        "Ω",
        "Ꭰ",
        "𐐀",
        "\u{FFE5}",
        "😀",
        "\u{3001}",
        "abcdefgh",
        "ABCDEFGHIJ",
        "ΟΔΥΣΣΕΥΣ",
        "ΣΑ",
        "Σ.",
        "Σ'",
        "Σ\u{301}",
        ".Σ",
        "Α\u{301}Σ",
        "\u{3a3}\u{3a3}",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 2000, ..Default::default() })]

        /// The one-pass fold (sixteen or eight bytes at a time, ASCII and CJK passed over
        /// undecoded, slices copied whole, bulk lowering, borrowing) equals the plain folds on
        /// mixed text long enough to cross many steps at every alignment.
        #[test]
        fn fold_equals_plain_folds_on_mixed_text(
            fragments in proptest::collection::vec(proptest::sample::select(MIXED), 0..60),
            width in proptest::bool::ANY,
            case_fold in proptest::bool::ANY,
        ) {
            let text: String = fragments.concat();
            let normalization = if width { Normalization::Width } else { Normalization::None };
            let folded = fold(&text, normalization, case_fold);
            let expected = plain_fold(&text, width, case_fold);
            if let Some(expected) = expected {
                proptest::prop_assert_eq!(folded.as_ref(), expected.as_str());
            }
            proptest::prop_assert_eq!(matches!(folded, Cow::Borrowed(_)), folded == text.as_str());
            // The Han and kana the pass counts (to size the fingerprinter's table): all but
            // those in the last few bytes, which it takes one character at a time.
            let (_, cjk) = fold_counting(&text, normalization, case_fold);
            let leads = text.bytes().filter(|b| (0xE3..=0xE9).contains(b)).count();
            if width || case_fold {
                proptest::prop_assert!(cjk <= leads && leads <= cjk + 2, "{cjk} of {leads}");
            } else {
                proptest::prop_assert_eq!(cjk, 0);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 2000, ..Default::default() })]

        /// On any characters, Σ among them next to cased, case-ignorable and other ones
        /// (combining marks, apostrophes, modifier letters, spaces), the fold is width folding
        /// then `str::to_lowercase`: the case tables and the final-sigma rule in context.
        #[test]
        fn fold_of_any_text_with_sigma(
            chars in proptest::collection::vec(proptest::prop_oneof![
                proptest::char::any(),
                proptest::sample::select(alloc::vec![
                    'Σ', 'Σ', 'Α', 'σ', '\u{301}', '\u{345}', '\'', '.', ':', '\u{2b0}', '\u{ad}',
                    ' ', '\u{3000}', 'İ', 'Ａ', 'ｶ', 'ﾞ', '中', 'a', '1',
                ]),
            ], 0..40),
            width in proptest::bool::ANY,
        ) {
            let text: String = chars.into_iter().collect();
            let normalization = if width { Normalization::Width } else { Normalization::None };
            if let Some(expected) = plain_fold(&text, width, true) {
                let folded = fold(&text, normalization, true);
                proptest::prop_assert_eq!(folded.as_ref(), expected.as_str());
            }
        }
    }

    proptest::proptest! {
        /// The fold's shortcuts (borrowing, bulk ASCII lowering, looking at non-ASCII
        /// characters only) give exactly width folding followed by `str::to_lowercase`.
        #[test]
        fn fold_equals_width_fold_then_to_lowercase(
            chars in proptest::collection::vec(proptest::sample::select(alloc::vec![
                'a', 'Z', ' ', '.', 'Σ', 'σ', 'Ａ', 'ｚ', 'ｶ', 'ﾞ', '\u{3000}', 'İ', 'K', '“',
                '中', 'É', 'ß', '\u{FFE5}', '1', '\u{3001}', 'ぁ', '\u{9fff}', '\u{a640}', 'Ｚ',
                // Bytes 80 80 as in U+3000, in characters that do not fold.
                '\u{4000}', '\u{1f000}', '\u{2000}',
            ]), 0..24),
            width in proptest::bool::ANY,
            case_fold in proptest::bool::ANY,
        ) {
            let text: String = chars.into_iter().collect();
            let normalization = if width { Normalization::Width } else { Normalization::None };
            let mut expected = text.clone();
            if width {
                expected = fold_width(&expected);
            }
            if case_fold {
                expected = expected.to_lowercase();
            }
            let folded = fold(&text, normalization, case_fold);
            proptest::prop_assert_eq!(folded.as_ref(), expected.as_str());
        }
    }
}
