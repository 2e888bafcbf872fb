//! The `auto` tokenizer's single scan: ASCII words, CJK characters and the punctuation between
//! them classified in one pass over the text, with full UAX #29 segmentation only around the
//! characters the scan does not know.
//!
//! Technical writing in Chinese or Japanese switches script every few words (`使用 apt-get
//! 安装，然后运行 /usr/bin/foo。`). Each switch used to end a piece, and every kana, 。, 、 or
//! 「 sent the text around it through `unicode-segmentation`. Here most characters are one of a
//! few kinds whose segmentation is known exactly (see [`Kind`]): such a character is a *unit*
//! when no word rule joins it to the characters on either side, and the text between units is
//! either ASCII and Latin letters (the 64-bit-mask word scanner) or, rarely, segmented in full
//! on its own. Runs of adjacent CJK units are handed over whole, so their n-grams are cut as
//! slices of the text.

use super::script::{is_alone, stands_apart};
use super::segments::{auto_of_segmented, AutoTokens};

/// What a character is to the scan. Every kind but [`Kind::Other`] is never Extend, Format,
/// ZWJ or SpacingMark, never Extended_Pictographic, and (but katakana) never joined to a
/// neighbour by any word rule; a test checks each character against `unicode-segmentation`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    /// ASCII.
    Ascii,
    /// A CJK character of Word_Break Other (Han, hiragana, 〇, ・, strokes, radicals): its own
    /// word segment and grapheme cluster, one character of a CJK run.
    Ideo,
    /// Katakana (Word_Break Katakana): a CJK character that joins katakana next to it (no
    /// change to the run) and ExtendNumLet such as `_` (which can make it part of a word).
    Kata,
    /// Punctuation or a symbol of Word_Break Other, not CJK, neither letter nor digit (。、「」
    /// 《》, curly quotes, dashes, arrows, the full-width punctuation): ends a CJK run.
    Sep,
    /// Anything else (letters outside ASCII, marks, joiners, 々, Bopomofo, spaces other than
    /// ASCII): left to full segmentation.
    Other,
}

/// The kind of a character.
pub(super) const fn kind_of(c: char) -> Kind {
    match c as u32 {
        0..=0x7F => Kind::Ascii,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF => Kind::Ideo,
        // Hiragana (and its unassigned code points, Word_Break Other too), ゝ ゞ ゟ, 〇, the
        // Hangzhou numerals, 〸–〺, ・, CJK strokes, radicals, compatibility ideographs and the
        // supplementary ideograph planes.
        0x3040..=0x3098
        | 0x309D..=0x309F
        | 0x3007
        | 0x3021..=0x3029
        | 0x3038..=0x303A
        | 0x30FB
        | 0x3100..=0x3104
        | 0x31C0..=0x31EF
        | 0x2E80..=0x2FDF
        | 0xF900..=0xFAFF
        | 0x20000..=0x2FA1F
        | 0x30000..=0x323AF => Kind::Ideo,
        0x30A0..=0x30FA | 0x30FC..=0x30FF | 0x309B | 0x309C | 0x31F0..=0x31FF => Kind::Kata,
        // CJK punctuation and symbols: 、。〃〄, brackets, 〒〓, 〜, 〶〷, 〾〿.
        0x3001..=0x3004 | 0x3008..=0x3020 | 0x3036 | 0x3037 | 0x303E | 0x303F => Kind::Sep,
        // Full-width punctuation of Word_Break Other (those that stay when widths are not
        // folded): not ＇，．：； (middle characters), digits, letters or ＿.
        0xFF01..=0xFF06
        | 0xFF08..=0xFF0B
        | 0xFF0D
        | 0xFF0F
        | 0xFF1C..=0xFF20
        | 0xFF3B..=0xFF3E
        | 0xFF40
        | 0xFF5B..=0xFF5E => Kind::Sep,
        _ if is_alone(c) => Kind::Sep,
        _ => Kind::Other,
    }
}

/// The kinds of U+3000–U+33FF (CJK punctuation, kana, Bopomofo, strokes, katakana
/// extensions, enclosed CJK), looked up rather than matched: Japanese text is mostly kana.
static KINDS_3000: [Kind; 0x400] = {
    let mut table = [Kind::Other; 0x400];
    let mut i = 0u32;
    while i < 0x400 {
        table[i as usize] = match char::from_u32(0x3000 + i) {
            Some(c) => kind_of(c),
            None => Kind::Other,
        };
        i += 1;
    }
    table
};

/// The character starting at byte `at` of `text` (a character boundary, not ASCII), its
/// kind, and its length. Han and kana (lead bytes E3–E9) are decoded inline.
#[inline(always)]
fn char_at(text: &str, at: usize) -> (Kind, usize) {
    let bytes = text.as_bytes();
    let lead = bytes[at];
    if (0xE4..=0xE9).contains(&lead) {
        // U+4000–U+9FFF: all Han but Yijing hexagrams (U+4DC0–U+4DFF).
        let hexagram = lead == 0xE4 && bytes.get(at + 1).is_some_and(|&b| b == 0xB7);
        return (if hexagram { Kind::Other } else { Kind::Ideo }, 3);
    }
    if lead == 0xE3 {
        // U+3000–U+3FFF: the second and third bytes hold the low 12 bits.
        if let (Some(&b1), Some(&b2)) = (bytes.get(at + 1), bytes.get(at + 2)) {
            let low = (usize::from(b1 & 0x3F) << 6) | usize::from(b2 & 0x3F);
            let kind = match KINDS_3000.get(low) {
                Some(&kind) => kind,
                None => Kind::Ideo, // U+3400–U+3FFF: CJK extension A
            };
            return (kind, 3);
        }
    }
    match text.get(at..).and_then(|t| t.chars().next()) {
        Some(c) => (kind_of(c), c.len_utf8()),
        // Not reached: `at` is a character boundary before the end.
        None => (Kind::Other, 1),
    }
}

/// True when `bytes[at..]` starts with a three-byte CJK character of kind `Ideo` or `Kata`.
#[inline(always)]
fn cjk3(bytes: &[u8], at: usize) -> bool {
    let Some(&[lead, b1, b2]) = bytes.get(at..at + 3) else {
        return false;
    };
    if lead != 0xE3 {
        // U+4000–U+9FFF: all Han but the Yijing hexagrams (U+4DC0–U+4DFF). Without a branch
        // on the lead byte: Chinese text has Han of every lead, in no order, and a match on
        // it was mispredicted about once a run.
        let han = lead.wrapping_sub(0xE4) < 6;
        let hexagram = (lead == 0xE4) & (b1 == 0xB7);
        return han & !hexagram;
    }
    matches!(
        KINDS_3000.get((usize::from(b1 & 0x3F) << 6) | usize::from(b2 & 0x3F)),
        Some(Kind::Ideo | Kind::Kata) | None
    )
}

/// True when what starts at `at` makes a three-byte CJK character before it a unit, as
/// [`stands_after`] would say but cheaper: another such character (of kind `Ideo` or `Kata`),
/// ASCII but `_` (which would join katakana), or the end of the text.
#[inline(always)]
fn follows_unit(bytes: &[u8], at: usize) -> bool {
    cjk3(bytes, at) || bytes.get(at).is_none_or(|&b| b < 0x80 && b != b'_')
}

/// Where a run of CJK units that takes the character ending at `next` ends: it goes on over
/// three-byte Han, kana and katakana followed by more of them, or by ASCII (but `_`) or the
/// end of the text (so units: nothing after them can attach or join), without the general
/// checks. Each character is looked at once.
#[inline(always)]
fn run_end(bytes: &[u8], next: usize) -> usize {
    let mut end = next;
    if cjk3(bytes, end) {
        while cjk3(bytes, end + 3) {
            end += 3;
        }
        // The run's last three-byte character: in mixed text most runs end with ASCII.
        if bytes.get(end + 3).is_none_or(|&b| b < 0x80 && b != b'_') {
            end += 3;
        }
    }
    end
}

/// True when the character at `at` (or the end of the text) cannot join the character before
/// it, of kind `before` (a unit candidate): it is not a mark, joiner or format character, and
/// after katakana it is not ExtendNumLet (`_`, `＿`), which would join it (WB13a).
#[inline(always)]
fn stands_after(text: &str, at: usize, before: Kind) -> bool {
    let Some(&b) = text.as_bytes().get(at) else {
        return true;
    };
    if b < 0x80 {
        return !(before == Kind::Kata && b == b'_');
    }
    let (kind, _) = char_at(text, at);
    if kind != Kind::Other {
        return true;
    }
    let c = text[at..].chars().next().unwrap_or('\0');
    stands_apart(c) && !(before == Kind::Kata && c == '\u{FF3F}')
}

/// The last place in the ASCII text `text[from..to]` where it may be cut (an ASCII whitespace
/// followed by a non-whitespace byte: no segmentation rule looks across it), if any.
fn last_ascii_cut(bytes: &[u8], from: usize, to: usize) -> Option<usize> {
    (from + 1..to)
        .rev()
        .find(|&i| bytes[i - 1].is_ascii_whitespace() && !bytes[i].is_ascii_whitespace())
}

/// The first such place in `text[from..to]`.
fn first_ascii_cut(bytes: &[u8], from: usize, to: usize) -> Option<usize> {
    (from + 1..to).find(|&i| bytes[i - 1].is_ascii_whitespace() && !bytes[i].is_ascii_whitespace())
}

/// The `auto` tokens of `text`, in order; `text` must start and end where text may be cut (the
/// whole text, or a piece of it). The same tokens as full segmentation, but that a CJK run may
/// come as [`AutoTokens::cjk_run`] and [`AutoTokens::end_of_run`] may repeat.
pub(crate) fn auto_of<'t>(text: &'t str, tokens: &mut impl AutoTokens<'t>) {
    let bytes = text.as_bytes();
    let len = bytes.len();
    let mut out = Pending {
        text,
        done: 0,
        complex: false,
        run_start: 0,
        run_end: 0,
        run_3: true,
    };
    // Whether katakana at `at` would be a unit on its left: the character before it is no
    // ExtendNumLet or katakana it could join (katakana joined to a unit stays in the run).
    let mut kata_left = true;
    let mut at = 0;
    while at < len {
        if bytes[at] < 0x80 || crate::ascii_words::latin_letter_at(bytes, at) {
            // ASCII and the Latin letters the word scanner takes alike (`é`, `ñ`, `Č`: ALetter
            // as ASCII letters are), so an accented word does not send the text around it to
            // full segmentation.
            let end = at + crate::ascii_words::ascii_or_latin_len(&bytes[at..]);
            if out.complex {
                // End the fully segmented text at the first cut of this ASCII text, so a word
                // of accented letters does not send what follows it there too.
                if let Some(cut) = first_ascii_cut(bytes, at, end) {
                    out.region_to(cut, tokens);
                }
            }
            kata_left = bytes[end - 1] != b'_';
            at = end;
            if kata_left && cjk3(bytes, at) && follows_unit(bytes, at + 3) {
                // Han, kana or katakana after ASCII and before more of them or ASCII (most
                // runs of mixed text start so): a unit, and its run, without the general
                // checks below (which come to the same).
                out.region_to(at, tokens);
                out.run_start = at;
                out.run_3 = true;
                at = run_end(bytes, at + 3);
                out.run_end = at;
                out.done = at;
            }
            continue;
        }
        let (kind, n) = char_at(text, at);
        let next = at + n;
        let unit = match kind {
            Kind::Ideo | Kind::Sep => stands_after(text, next, kind),
            Kind::Kata => kata_left && stands_after(text, next, kind),
            Kind::Ascii | Kind::Other => false,
        };
        kata_left = unit || kind == Kind::Ideo || kind == Kind::Sep;
        if !unit {
            if !out.complex {
                // text[done..at] is ASCII: up to its last cut it keeps the fast path.
                if let Some(cut) = last_ascii_cut(bytes, out.done, at) {
                    out.region_to(cut, tokens);
                }
                out.complex = true;
            }
            at = next;
            continue;
        }
        out.region_to(at, tokens);
        if kind == Kind::Sep {
            out.flush_run(tokens);
            tokens.end_of_run();
        } else {
            if out.run_end != at || out.run_start == out.run_end {
                out.flush_run(tokens);
                out.run_start = at;
                out.run_3 = true;
            }
            // A character of the supplementary planes (four bytes) in the run.
            out.run_3 &= n == 3;
            let end = run_end(bytes, next);
            out.run_end = end;
            out.done = end;
            at = end;
            continue;
        }
        out.done = next;
        at = next;
    }
    out.region_to(len, tokens);
    out.flush_run(tokens);
}

/// What the scan has not handed over yet: a run of adjacent CJK units, then the text from
/// `done` on.
struct Pending<'t> {
    text: &'t str,
    /// Everything before `done` has been handed over, or is in the run.
    done: usize,
    /// `text[done..]` up to the scan's position holds a character only full segmentation may
    /// handle; else it is ASCII.
    complex: bool,
    /// The run of adjacent CJK units, `text[run_start..run_end]` (empty when equal).
    run_start: usize,
    run_end: usize,
    /// Every character of the run is three bytes long (none of the supplementary planes).
    run_3: bool,
}

impl<'t> Pending<'t> {
    /// Hands over the run of CJK units, if any.
    #[inline(always)]
    fn flush_run(&mut self, tokens: &mut impl AutoTokens<'t>) {
        if self.run_start < self.run_end {
            let run = &self.text[self.run_start..self.run_end];
            if self.run_3 {
                tokens.cjk_run_3(run);
            } else {
                tokens.cjk_run(run);
            }
        }
        (self.run_start, self.run_end) = (0, 0);
    }

    /// Hands over the run, then the tokens of `text[done..to]` (between units or cuts):
    /// ASCII words, or full segmentation when it is complex.
    #[inline(always)]
    fn region_to(&mut self, to: usize, tokens: &mut impl AutoTokens<'t>) {
        if self.done >= to {
            return;
        }
        self.flush_run(tokens);
        if self.complex {
            auto_of_segmented(&self.text[self.done..to], tokens);
        } else {
            // ASCII: no CJK, so the run ends.
            tokens.end_of_run();
            crate::ascii_words::for_each_word_in(self.text, self.done, to, |w| tokens.word(w));
        }
        self.done = to;
        self.complex = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;
    use unicode_segmentation::UnicodeSegmentation;

    /// Each character of a kind but `Other` is what its kind says, by `unicode-segmentation`,
    /// whatever stands around it: its own word segment (katakana: unless a katakana or
    /// ExtendNumLet is next to it), so one grapheme cluster of its run for `Ideo` and `Kata`
    /// (which are CJK), and no word for `Sep` (which is not).
    #[test]
    fn kinds_segment_as_they_say() {
        let neighbours = [
            "",
            "a",
            "1",
            "_",
            ".",
            "'",
            ":",
            ",",
            " ",
            "中",
            "あ",
            "カ",
            "。",
            "\u{3005}",
            "\u{3105}",
            "\u{301}",
            "\u{200d}",
            "\u{200b}",
            "\u{ad}",
            "\u{600}",
            "\u{1f1e6}",
            "א",
            "\"",
            "🙂",
            "\u{3099}",
            "\u{ff3f}",
            "\u{203f}",
            "\u{3000}",
            "é",
        ];
        let mut counts = [0usize; 5];
        for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
            let kind = kind_of(c);
            if kind == Kind::Other {
                continue;
            }
            counts[kind as usize] += 1;
            // The ideograph blocks alike: every 61st and their first and last.
            let u = c as u32;
            let bulk = matches!(u, 0x3401..=0x4DBE | 0x4E01..=0x9FFE | 0x20001..=0x323AE);
            if bulk && !u.is_multiple_of(61) {
                continue;
            }
            assert_eq!(
                super::super::is_cjk(c),
                matches!(kind, Kind::Ideo | Kind::Kata),
                "{c:?}"
            );
            if kind == Kind::Sep {
                assert!(!c.is_alphanumeric(), "{c:?}");
            }
            let c = String::from(c);
            for before in neighbours {
                for after in neighbours {
                    // What the scan checks before taking a character as a unit.
                    let next = after.chars().next();
                    let joins = |n: &str| {
                        kind == Kind::Kata
                            && n.chars().next().is_some_and(|x| {
                                matches!(x, '_' | '\u{ff3f}' | '\u{203f}')
                                    || kind_of(x) == Kind::Kata
                            })
                    };
                    if next.is_some_and(|x| kind_of(x) == Kind::Other && !stands_apart(x))
                        || joins(before)
                        || joins(after)
                    {
                        continue;
                    }
                    let text = format!("{before}{c}{after}");
                    let start = before.len();
                    let end = start + c.len();
                    let words: Vec<(usize, &str)> = text.split_word_bound_indices().collect();
                    assert!(
                        words.iter().any(|&(at, s)| at == start && s == c),
                        "{text:?}: {words:?}"
                    );
                    assert!(words.iter().all(|&(at, _)| at <= start || at >= end));
                }
            }
        }
        // Ideo, Kata and Sep characters.
        assert!(counts[Kind::Ideo as usize] > 90_000);
        assert!(counts[Kind::Kata as usize] > 100);
        assert!(counts[Kind::Sep as usize] > 80);
    }

    #[test]
    fn decoding_agrees_with_kinds() {
        let all: String = (0x80..=0x10FFFFu32).filter_map(char::from_u32).collect();
        for (at, c) in all.char_indices() {
            assert_eq!(char_at(&all, at), (kind_of(c), c.len_utf8()), "{c:?}");
        }
    }
}
