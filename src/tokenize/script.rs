//! Which characters are which: CJK runs, Han ideographs, and the punctuation that stands
//! alone in UAX #29 segmentation.

/// The common Han ideographs (CJK Unified Ideographs and Extension A): Word_Break Other and
/// Grapheme_Cluster_Break Other, so no segmentation rule joins them to their neighbours but
/// the ones that attach following marks, joiners and format characters.
pub(super) fn is_han(c: char) -> bool {
    matches!(c as u32, 0x4E00..=0x9FFF | 0x3400..=0x4DBF)
}

/// Non-ASCII punctuation and symbols that are Word_Break Other and not Extended_Pictographic,
/// so no word rule joins them to a neighbour (their word segment is never a CJK one, so
/// grapheme rules do not matter): Latin-1 punctuation and signs (not ª µ º, which are letters,
/// · a middle letter, the soft hyphen, © ®, nor ¸, the superscript digits and fractions, which
/// `unicode-segmentation` joins to letters or digits), × ÷,
/// dashes and quotation marks (not ‘ ’ ․ ‧, which join words), bullets and ellipsis, per
/// mille, primes, guillemets and ※, and the arrows ← ↑ → ↓. A test checks each one against
/// `unicode-segmentation`.
pub(super) const fn is_alone(c: char) -> bool {
    matches!(c as u32,
        0xA0..=0xA8 | 0xAB | 0xAC | 0xAF..=0xB1 | 0xB4 | 0xB6 | 0xBB | 0xBF
        | 0xD7 | 0xF7
        | 0x2010..=0x2017 | 0x201A..=0x2023 | 0x2025 | 0x2026 | 0x2030..=0x203B
        | 0x2190..=0x2193)
}

/// Characters that never attach to the character before them, in words (not Extend, Format
/// or ZWJ) or grapheme clusters (not Extend, ZWJ or SpacingMark): ASCII, Han, the characters
/// of [`is_alone`], CJK punctuation up to U+3029 (U+302A–U+302F are marks), general
/// punctuation up to U+2027 (U+2028 on are separators and format characters), and
/// full-width ASCII forms.
pub(super) fn stands_apart(c: char) -> bool {
    c.is_ascii()
        || is_han(c)
        || is_alone(c)
        || matches!(c as u32, 0x3000..=0x3029 | 0x2010..=0x2027 | 0xFF01..=0xFF5E)
}

/// Scripts written without spaces between words, where character n-grams stand in for words.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x2FDF      // CJK and Kangxi radicals
        | 0x3005 | 0x3007    // 々 〇
        | 0x3021..=0x3029    // Hangzhou numerals
        | 0x3038..=0x303B
        | 0x3040..=0x30FF    // Hiragana, Katakana
        | 0x3100..=0x312F    // Bopomofo
        | 0x31A0..=0x31FF    // Bopomofo extended, Katakana phonetic extensions
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF66..=0xFF9F    // half-width Katakana
        | 0x20000..=0x2FA1F  // CJK extensions B–F, compatibility supplement
        | 0x30000..=0x323AF) // CJK extensions G, H
}
