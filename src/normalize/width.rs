//! Width folding: full-width and half-width forms become their ordinary forms (the Halfwidth
//! and Fullwidth Forms block and U+3000, as Unicode's compatibility mappings map them, with
//! half-width voiced sound marks composed with the kana before them).

use alloc::string::String;

/// Half-width katakana and punctuation U+FF61–U+FF9D, in order.
const HALFWIDTH_KANA: [char; 61] = [
    '。', '「', '」', '、', '・', 'ヲ', 'ァ', 'ィ', 'ゥ', 'ェ', 'ォ', 'ャ', 'ュ', 'ョ', 'ッ', 'ー',
    'ア', 'イ', 'ウ', 'エ', 'オ', 'カ', 'キ', 'ク', 'ケ', 'コ', 'サ', 'シ', 'ス', 'セ', 'ソ', 'タ',
    'チ', 'ツ', 'テ', 'ト', 'ナ', 'ニ', 'ヌ', 'ネ', 'ノ', 'ハ', 'ヒ', 'フ', 'ヘ', 'ホ', 'マ', 'ミ',
    'ム', 'メ', 'モ', 'ヤ', 'ユ', 'ヨ', 'ラ', 'リ', 'ル', 'レ', 'ロ', 'ワ', 'ン',
];

/// The ordinary form of one width variant, if `c` is one; the voiced marks are handled by the
/// caller.
fn fold_char(c: char) -> Option<char> {
    let u = c as u32;
    let mapped = match u {
        0x3000 => 0x20,
        0xFF01..=0xFF5E => u - 0xFF01 + 0x21,
        0xFF5F => 0x2985,
        0xFF60 => 0x2986,
        0xFF61..=0xFF9D => return Some(HALFWIDTH_KANA[(u - 0xFF61) as usize]),
        0xFFA0 => 0x3164,
        0xFFA1..=0xFFBE => u - 0xFFA1 + 0x3131,
        0xFFC2..=0xFFC7 => u - 0xFFC2 + 0x314F,
        0xFFCA..=0xFFCF => u - 0xFFCA + 0x3155,
        0xFFD2..=0xFFD7 => u - 0xFFD2 + 0x315B,
        0xFFDA..=0xFFDC => u - 0xFFDA + 0x3161,
        0xFFE0 => 0xA2,
        0xFFE1 => 0xA3,
        0xFFE2 => 0xAC,
        0xFFE3 => 0xAF,
        0xFFE4 => 0xA6,
        0xFFE5 => 0xA5,
        0xFFE6 => 0x20A9,
        0xFFE8 => 0x2502,
        0xFFE9..=0xFFEC => u - 0xFFE9 + 0x2190,
        0xFFED => 0x25A0,
        0xFFEE => 0x25CB,
        _ => return None,
    };
    char::from_u32(mapped)
}

/// The kana a voiced (`semi == false`) or semi-voiced sound mark turns `base` into.
fn voiced(base: char, semi: bool) -> Option<char> {
    let u = base as u32;
    let offset = match (u, semi) {
        // カ…ヂ rows: every other code point takes the voiced mark.
        (0x30AB..=0x30C1, false) if (u - 0x30AB).is_multiple_of(2) => 1,
        (0x30C4 | 0x30C6 | 0x30C8, false) => 1,
        // ハ ヒ フ ヘ ホ: +1 voiced, +2 semi-voiced.
        (0x30CF | 0x30D2 | 0x30D5 | 0x30D8 | 0x30DB, false) => 1,
        (0x30CF | 0x30D2 | 0x30D5 | 0x30D8 | 0x30DB, true) => 2,
        (0x30A6, false) => return Some('ヴ'),
        (0x30EF, false) => return Some('ヷ'),
        (0x30F2, false) => return Some('ヺ'),
        _ => return None,
    };
    char::from_u32(u + offset)
}

/// True when [`fold_width`] changes `c` (alone, or as a voiced mark composed with the
/// character before it).
pub(crate) fn is_width_variant(c: char) -> bool {
    c == '\u{3000}' || ('\u{FF01}'..='\u{FFEE}').contains(&c)
}

/// `text` with every width variant folded (see [the module](crate::normalize)).
///
/// ```
/// use simprint::normalize::fold_width;
/// assert_eq!(fold_width("Ｔｅｘｔ　１２３"), "Text 123");
/// assert_eq!(fold_width("ｶﾞｲﾄﾞ ﾊﾟｽ"), "ガイド パス");
/// assert_eq!(fold_width("ﾞ alone"), "゛ alone");
/// ```
#[must_use]
pub fn fold_width(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    // Copy everything between width variants as whole slices: every variant is U+3000 or
    // U+FF01..U+FFEE, which start with byte E3 or EF, so only those bytes need a look.
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != 0xE3 && bytes[i] != 0xEF {
            i += 1;
            continue;
        }
        // i is a character boundary: E3 and EF only ever lead a sequence.
        let Some(c) = text[i..].chars().next() else {
            break;
        };
        let is_variant = c == '\u{3000}' || ('\u{FF01}'..='\u{FFEE}').contains(&c);
        if is_variant {
            out.push_str(&text[copied..i]);
            push_folded(&mut out, c);
            copied = i + c.len_utf8();
        }
        i += c.len_utf8();
    }
    out.push_str(&text[copied..]);
    out
}

/// Appends the folded form of the width variant `c`, composing a voiced sound mark with the
/// kana before it.
pub(super) fn push_folded(out: &mut String, c: char) {
    if c == '\u{FF9E}' || c == '\u{FF9F}' {
        let semi = c == '\u{FF9F}';
        match out
            .chars()
            .last()
            .and_then(|prev| voiced(prev, semi).map(|v| (prev, v)))
        {
            Some((prev, v)) => {
                out.truncate(out.len() - prev.len_utf8());
                out.push(v);
            }
            // No kana to combine with: the spacing marks, as NFKC leaves them.
            None => out.push(if semi { '゜' } else { '゛' }),
        }
    } else {
        out.push(fold_char(c).unwrap_or(c));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain one-character-at-a-time fold the fast one must equal.
    fn reference(text: &str) -> String {
        let mut out = String::new();
        for c in text.chars() {
            if c == '\u{3000}' || ('\u{FF01}'..='\u{FFEE}').contains(&c) {
                push_folded(&mut out, c);
            } else {
                out.push(c);
            }
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn fast_fold_equals_reference(chars in proptest::collection::vec(proptest::sample::select(alloc::vec![
            'a', ' ', 'カ', 'ｶ', 'ﾊ', '\u{ff9e}', '\u{ff9f}', '\u{3000}', 'Ａ', '，', '中', '\u{e3}', '\u{ef}',
            '\u{3001}', '\u{ffef}', '\u{ff00}', '😀',
        ]), 0..30)) {
            let text: String = chars.into_iter().collect();
            proptest::prop_assert_eq!(fold_width(&text), reference(&text));
        }
    }

    #[test]
    fn folds_the_block() {
        assert_eq!(fold_width("ＡＢＣ－ｘｙｚ～！"), "ABC-xyz~!");
        assert_eq!(
            fold_width("ｱｲｳｴｵ ｯｰ ｳﾞ ﾜﾞ ｦﾞ ﾎﾟ ﾋﾞ"),
            "アイウエオ ッー ヴ ヷ ヺ ポ ビ"
        );
        assert_eq!(fold_width("ｻﾞ ｼﾞ ﾄﾞ ﾂﾞ ｱﾞ"), "ザ ジ ド ヅ ア゛");
        assert_eq!(fold_width("\u{FFA1}\u{FFA4}\u{FFBE}"), "ㄱㄴㅎ");
        assert_eq!(fold_width("￥１００　￡５"), "¥100 £5");
        assert_eq!(fold_width("plain ascii, 中文"), "plain ascii, 中文");
        assert!(!"plain ascii, 中文。".chars().any(is_width_variant));
        assert!("ｶﾀｶﾅ".chars().all(is_width_variant));
        assert!(is_width_variant('\u{3000}'));
    }
}
