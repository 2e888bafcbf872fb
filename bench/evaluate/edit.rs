//! The edit models: how a near-duplicate differs from its original.
//!
//! Every function keeps the text's layout (paragraphs, line breaks, the spaces it had) except
//! where changing it is the point ([`format`]).

use crate::Rng;

/// Scripts written without spaces (the library's `Auto` tokenizer cuts them into character
/// n-grams): the same ranges as the library's own test.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x2FDF | 0x3005 | 0x3007 | 0x3021..=0x3029 | 0x3038..=0x303B
        | 0x3040..=0x30FF | 0x3100..=0x312F | 0x31A0..=0x31FF | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0xFF66..=0xFF9F | 0x20000..=0x2FA1F
        | 0x30000..=0x323AF)
}

pub fn is_hangul(c: char) -> bool {
    matches!(c as u32, 0xAC00..=0xD7A3)
}

/// The languages of the evaluation: what an edit unit is and what boilerplate looks like.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Lang {
    En,
    Zh,
    Ja,
    Ko,
    De,
    Fr,
}

impl Lang {
    /// The folder name in the corpus layout.
    pub fn dir(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
            Lang::Ja => "ja",
            Lang::Ko => "ko",
            Lang::De => "de",
            Lang::Fr => "fr",
        }
    }

    /// Chinese and Japanese are edited character by character (their words are not marked);
    /// the words of other scripts inside them are edited as words.
    pub fn by_char(self) -> bool {
        matches!(self, Lang::Zh | Lang::Ja)
    }

    /// Headers (first) and signatures (second) a post or mail gains or loses.
    fn boilerplate(self) -> (&'static [&'static str], &'static [&'static str]) {
        match self {
            Lang::En => (
                &[
                    "Re: your question",
                    "Posted by admin",
                    "Update:",
                    "From the mailing list:",
                ],
                &[
                    "Thanks!",
                    "-- \nSent from my phone",
                    "Best regards,\nAlex",
                    "Cheers, Sam",
                ],
            ),
            Lang::Zh => (
                &["回复：", "转发：", "楼主：", "原帖由 admin 发表"],
                &["谢谢！", "发自我的手机", "此致\n敬礼", "—— 小王"],
            ),
            Lang::Ja => (
                &[
                    "Re: ",
                    "転送：",
                    "お世話になっております。",
                    "投稿者：管理人",
                ],
                &[
                    "よろしくお願いします。",
                    "iPhoneから送信",
                    "以上です。",
                    "-- \n山田",
                ],
            ),
            Lang::Ko => (
                &["Re: ", "답장:", "안녕하세요.", "작성자: 관리자"],
                &[
                    "감사합니다.",
                    "iPhone에서 보냄",
                    "수고하세요.",
                    "-- \n김민수 드림",
                ],
            ),
            Lang::De => (
                &[
                    "AW: Ihre Frage",
                    "WG: ",
                    "Hallo zusammen,",
                    "Beitrag von admin",
                ],
                &[
                    "Danke!",
                    "Viele Grüße\nJonas",
                    "Von meinem iPhone gesendet",
                    "-- \nMfG",
                ],
            ),
            Lang::Fr => (
                &[
                    "RE : votre question",
                    "TR : ",
                    "Bonjour à tous,",
                    "Message de admin",
                ],
                &[
                    "Merci !",
                    "Cordialement,\nMarie",
                    "Envoyé de mon iPhone",
                    "-- \nBonne journée",
                ],
            ),
        }
    }
}

/// An edit unit and the whitespace after it.
pub struct Unit {
    pub text: String,
    pub sep: String,
}

/// The text as units: whitespace-separated words, with each CJK character its own unit when
/// `by_char`. Returns the leading whitespace too.
pub fn units(text: &str, by_char: bool) -> (String, Vec<Unit>) {
    let mut lead = String::new();
    let mut out: Vec<Unit> = Vec::new();
    let mut word = String::new();
    let end_word = |word: &mut String, out: &mut Vec<Unit>| {
        if !word.is_empty() {
            out.push(Unit {
                text: std::mem::take(word),
                sep: String::new(),
            });
        }
    };
    for c in text.chars() {
        if c.is_whitespace() {
            end_word(&mut word, &mut out);
            match out.last_mut() {
                Some(u) => u.sep.push(c),
                None => lead.push(c),
            }
        } else if by_char && is_cjk(c) {
            end_word(&mut word, &mut out);
            out.push(Unit {
                text: c.to_string(),
                sep: String::new(),
            });
        } else {
            // A word right after a CJK character (no space between) starts a unit of its own.
            word.push(c);
        }
    }
    end_word(&mut word, &mut out);
    (lead, out)
}

pub fn render(lead: String, units: Vec<Unit>) -> String {
    let mut out = lead;
    for u in units {
        out.push_str(&u.text);
        out.push_str(&u.sep);
    }
    out
}

/// The edit units of `text`, as replacement material for [`edit`].
pub fn vocabulary(text: &str, by_char: bool) -> Vec<String> {
    units(text, by_char).1.into_iter().map(|u| u.text).collect()
}

/// What separates `before` from a unit inserted after it: nothing between CJK characters
/// edited one by one, a space otherwise.
pub fn glue(before: &str, after: &str, by_char: bool) -> &'static str {
    let cjk = |s: &str| s.chars().next().is_some_and(is_cjk);
    if by_char && cjk(before) && cjk(after) {
        ""
    } else {
        " "
    }
}

/// Edits about `rate` of the units: substitute, insert or delete, equally likely; the
/// inserted and substituted units come from `vocab`.
pub fn edit(text: &str, rate: f64, by_char: bool, vocab: &[String], rng: &mut Rng) -> String {
    let (lead, old) = units(text, by_char);
    let mut out: Vec<Unit> = Vec::with_capacity(old.len() + 8);
    for u in old {
        if !rng.chance(rate) {
            out.push(u);
            continue;
        }
        let new = vocab[rng.index(vocab.len())].clone();
        match rng.index(3) {
            0 => out.push(Unit {
                text: new,
                sep: u.sep,
            }),
            1 => {
                let sep = glue(&u.text, &new, by_char).to_string();
                out.push(Unit { text: u.text, sep });
                out.push(Unit {
                    text: new,
                    sep: u.sep,
                });
            }
            _ => {
                // Deleting keeps the whitespace that separated it, so lines stay lines.
                if let Some(prev) = out.last_mut() {
                    if prev.sep.len() < u.sep.len() {
                        prev.sep = u.sep;
                    }
                }
            }
        }
    }
    render(lead, out)
}

/// One typo in about `rate` of the words that have at least two letters (in CJK text, the
/// words of other scripts: commands, options, names): two neighbouring letters swapped, one
/// dropped, one doubled, or one replaced.
pub fn typos(text: &str, rate: f64, rng: &mut Rng) -> String {
    let (lead, mut us) = units(text, true);
    for u in &mut us {
        let chars: Vec<char> = u.text.chars().collect();
        let letters: Vec<usize> = (0..chars.len())
            .filter(|&i| chars[i].is_alphabetic() && !is_cjk(chars[i]))
            .collect();
        if letters.len() < 2 || !rng.chance(rate) {
            continue;
        }
        let mut chars = chars;
        let at = letters[rng.index(letters.len())];
        match rng.index(4) {
            0 if at + 1 < chars.len() && chars[at + 1].is_alphabetic() => chars.swap(at, at + 1),
            0 | 1 => {
                chars.remove(at);
            }
            2 => chars.insert(at, chars[at]),
            _ => {
                chars[at] = if is_hangul(chars[at]) {
                    char::from_u32(0xAC00 + rng.index(11172) as u32).unwrap()
                } else {
                    let c = (b'a' + rng.index(26) as u8) as char;
                    if chars[at].is_uppercase() {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    }
                };
            }
        }
        u.text = chars.into_iter().collect();
    }
    render(lead, us)
}

/// Sentence and clause punctuation: what [`format`] may drop or change.
fn swap_punctuation(c: char, cjk: bool, rng: &mut Rng) -> Option<char> {
    let pairs = [
        (',', '，'),
        ('.', '。'),
        (';', '；'),
        (':', '：'),
        ('!', '！'),
        ('?', '？'),
        ('(', '（'),
        (')', '）'),
    ];
    if cjk {
        // In CJK text the other width (or script) of the same mark.
        for (a, b) in pairs {
            if c == a {
                return Some(b);
            }
            if c == b {
                return Some(a);
            }
        }
        None
    } else {
        let others = [',', ';', '.', '!', ':', '-'];
        match c {
            '"' => Some(if rng.chance(0.5) { '“' } else { '”' }),
            '“' | '”' => Some('"'),
            ',' | ';' | '.' | '!' | ':' | '?' => Some(others[rng.index(others.len())]),
            _ => None,
        }
    }
}

/// Whitespace and punctuation changed, words untouched: a third of the clause and sentence
/// marks (those followed by a space, a line end or a CJK character, or after a CJK
/// character — never one inside a word, a path or a number) dropped or changed (to the other
/// width in CJK text), spaces doubled or dropped between CJK and other characters, spaces
/// added where CJK meets other scripts, paragraph breaks turned into line breaks, trailing
/// spaces.
pub fn format(text: &str, cjk: bool, rng: &mut Rng) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 16);
    let punctuation = |c: char| {
        matches!(
            c,
            ',' | '.' | ';' | ':' | '!' | '?' | '(' | ')' | '"' | '“' | '”'
        ) || matches!(
            c,
            '，' | '。' | '；' | '：' | '！' | '？' | '（' | '）' | '、'
        )
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let prev = if i > 0 { Some(chars[i - 1]) } else { None };
        let next = chars.get(i + 1).copied();
        let at_boundary =
            next.is_none_or(|n| n.is_whitespace() || is_cjk(n)) || prev.is_some_and(is_cjk);
        if punctuation(c) && at_boundary && rng.chance(1.0 / 3.0) {
            if rng.chance(0.5) {
                // Dropped; keep words apart if the mark was all that separated them.
                if prev.is_some_and(|p| !p.is_whitespace() && !is_cjk(p))
                    && next.is_some_and(|n| !n.is_whitespace() && !is_cjk(n))
                {
                    out.push(' ');
                }
            } else {
                out.push(swap_punctuation(c, cjk, rng).unwrap_or(c));
            }
        } else if c == ' ' {
            let between_scripts = prev.is_some_and(is_cjk) != next.is_some_and(is_cjk);
            if between_scripts && rng.chance(0.3) {
                // "使用 apt 命令" → "使用apt命令"
            } else if rng.chance(0.1) {
                out.push_str("  ");
            } else {
                out.push(' ');
            }
        } else if c == '\n' && next == Some('\n') {
            if rng.chance(0.3) {
                out.push('\n');
            } else {
                out.push_str("\n\n");
            }
            i += 1;
        } else {
            out.push(c);
            // "使用apt" → "使用 apt"
            if next.is_some_and(|n| n.is_alphanumeric() && is_cjk(c) != is_cjk(n))
                && rng.chance(0.3)
            {
                out.push(' ');
            }
        }
        if c == '\n' && rng.chance(0.1) {
            out.insert(out.len() - 1, ' ');
        }
        i += 1;
    }
    if rng.chance(0.5) {
        out.push_str(" \n");
    }
    out
}

/// A header, a signature or both, in the text's language.
pub fn boilerplate(text: &str, lang: Lang, rng: &mut Rng) -> String {
    let (headers, signatures) = lang.boilerplate();
    let header = headers[rng.index(headers.len())];
    let signature = signatures[rng.index(signatures.len())];
    match rng.index(3) {
        0 => format!("{header}\n\n{text}"),
        1 => format!("{text}\n\n{signature}"),
        _ => format!("{header}\n\n{text}\n\n{signature}"),
    }
}

/// The text as HTML: each paragraph in `<p>`, all of it in one wrapper.
pub fn html(text: &str, rng: &mut Rng) -> String {
    let wrappers = [
        ("<div class=\"post\">", "</div>"),
        ("<html><body>", "</body></html>"),
        ("<article>", "</article>"),
        ("<div class=\"comment-body\">", "</div>"),
    ];
    let (open, close) = wrappers[rng.index(wrappers.len())];
    let mut out = String::from(open);
    for p in text.split("\n\n") {
        out.push_str("\n<p>");
        out.push_str(&p.replace('\n', "<br>\n"));
        out.push_str("</p>");
    }
    out.push('\n');
    out.push_str(close);
    out
}

/// The paragraphs in another order, or for one paragraph its sentences; `None` when there is
/// only one of either.
pub fn reorder(text: &str, rng: &mut Rng) -> Option<String> {
    let paragraphs: Vec<&str> = text.split("\n\n").collect();
    let (mut parts, sep): (Vec<String>, &str) = if paragraphs.len() >= 2 {
        (paragraphs.iter().map(|p| p.to_string()).collect(), "\n\n")
    } else {
        let mut sentences = Vec::new();
        let mut current = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            current.push(c);
            let ends = matches!(c, '。' | '！' | '？' | '；')
                || (matches!(c, '.' | '!' | '?') && chars.peek().is_none_or(|n| n.is_whitespace()));
            if ends {
                sentences.push(std::mem::take(&mut current));
            }
        }
        if !current.trim().is_empty() {
            sentences.push(current);
        }
        let cjk = text.chars().filter(|&c| is_cjk(c)).count() * 2 > text.chars().count();
        (sentences, if cjk { "" } else { " " })
    };
    parts.retain(|p| !p.trim().is_empty());
    if parts.len() < 2 || parts.iter().all(|p| *p == parts[0]) {
        return None;
    }
    let original = parts.clone();
    while parts == original {
        for i in (1..parts.len()).rev() {
            parts.swap(i, rng.index(i + 1));
        }
    }
    Some(parts.iter().map(|p| p.trim()).collect::<Vec<_>>().join(sep))
}
