//! What the tokenizers' fast paths are tested against: the plain tokenizer, which segments
//! everything with `unicode-segmentation`, and fragments of mixed text for property tests to
//! draw from.

use unicode_segmentation::UnicodeSegmentation;

use super::window::Window;
use super::{is_cjk, Tokenizer};

impl Tokenizer {
    /// The tokenizer without the ASCII fast path, for tests to compare against.
    pub(crate) fn for_each_feature_reference<'t>(
        &self,
        text: &'t str,
        mut emit: impl FnMut(&[&'t str], &'static str),
    ) {
        match *self {
            Tokenizer::Words { n } => {
                let mut words = Window::new(n, " ", text);
                for w in text.unicode_words() {
                    words.push(w, &mut emit);
                }
                words.flush(&mut emit);
            }
            Tokenizer::Chars { n } => {
                let mut chars = Window::new(n, "", text);
                let mut pending_space = false;
                for g in text.graphemes(true) {
                    if g.chars().all(super::properties::is_whitespace) {
                        pending_space = chars.seen > 0;
                    } else {
                        if pending_space {
                            chars.push(" ", &mut emit);
                            pending_space = false;
                        }
                        chars.push(g, &mut emit);
                    }
                }
                chars.flush(&mut emit);
            }
            Tokenizer::Auto { word_n, char_n } => {
                let mut words = Window::new(word_n, " ", text);
                let mut run = Window::new(char_n, "", text);
                for segment in text.split_word_bounds() {
                    if segment.chars().next().is_some_and(is_cjk) {
                        for g in segment.graphemes(true) {
                            run.push(g, &mut emit);
                        }
                    } else {
                        run.flush(&mut emit);
                        if segment.chars().any(super::properties::is_alphanumeric) {
                            words.push(segment, &mut emit);
                        }
                    }
                }
                run.flush(&mut emit);
                words.flush(&mut emit);
            }
        }
    }
}

/// Fragments of Chinese and Japanese technical writing (words, kana, katakana, 々), the
/// ASCII it mixes in (commands, options, paths, URLs, identifiers, numbers), the
/// punctuation between them, and the rarer characters that interact with them (ExtendNumLet,
/// marks, joiners, half-width kana, Bopomofo, 〆, supplementary ideographs).
pub(crate) const MIXED: &[&str] = &[
    "安装",
    "软件包",
    "使用",
    "命令",
    "配置文件",
    "的",
    "是",
    "系统",
    "インストール",
    "します",
    "パッケージ",
    "を",
    "の",
    "は",
    "設定",
    "人々",
    "々",
    "ファイル",
    "する",
    "ー",
    "カ",
    "タ",
    "apt-get",
    "install",
    "--help",
    "-y",
    "/usr/bin/foo",
    "/etc/apt/sources.list",
    "https://www.debian.org/doc/",
    "foo_bar",
    "_",
    "__init__",
    "3.14",
    "v1.2.3",
    "e.g.",
    "x86_64",
    "Debian",
    "GNU/Linux",
    "`ls -l`",
    "$HOME",
    "~/.bashrc",
    "a'b",
    "1,000",
    "Français",
    "Česky",
    "d’Avignon",
    "l'été",
    "naïve",
    "5ème",
    "e\u{301}",
    "。",
    "、",
    "「",
    "」",
    "（",
    "）",
    "，",
    "：",
    ",",
    ".",
    ":",
    "《",
    "》",
    "・",
    "〜",
    "“",
    "”",
    "—",
    "…",
    "→",
    "！",
    "？",
    "＿",
    "Ａ",
    "１",
    "ｶﾞ",
    "ﾞ",
    " ",
    " ",
    " ",
    "\n",
    "\t",
    "\u{3000}",
    "é",
    "\u{301}",
    "\u{3099}",
    "\u{200d}",
    "\u{200b}",
    "ㄅ",
    "〆",
    "\u{20000}",
    "\u{4dc0}",
    "🙂",
    "\u{203f}",
    "ß",
    "Σ",
    "〇",
    "〒",
    "ゝ",
    "ヽ",
    "\u{fe0f}",
    "\u{a0}",
];
