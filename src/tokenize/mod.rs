//! Feature extraction: turning text into the sequence of features that get hashed. The
//! rules are [`Tokenizer`]'s documentation.

mod auto;
mod pieces;
mod properties;
mod property_table;
#[cfg(test)]
mod reference;
mod script;
mod segments;
mod window;

pub(crate) use self::auto::auto_of;
pub(crate) use self::pieces::{last_cut, pieces};
#[cfg(test)]
pub(crate) use self::reference::MIXED;
pub(crate) use self::script::is_cjk;
pub(crate) use self::segments::{chars_of, words_of, AutoTokens, CharsState};

use self::window::Window;

use crate::error::{Error, NSetting};

/// Where features go: `feature(parts, separator)` for each. Any `FnMut(parts, separator)` is
/// one; the fingerprinter's own sink also takes the n-grams of a CJK run in one call
/// ([`Features::run_ngrams`]) to hash them in one loop.
pub(crate) trait Features<'t> {
    /// One feature: `parts` joined by `separator`.
    fn feature(&mut self, parts: &[&'t str], separator: &'static str);

    /// Every n-gram of `n` characters lying wholly in `run` (each character its own grapheme
    /// cluster), in order, each as one slice of `run`; returns how many there were. By
    /// default one [`Features::feature`] each, found by keeping a second position `n − 1`
    /// characters behind. `three_byte`: every character of `run` is known to be three bytes
    /// long (false when not known).
    #[inline]
    fn run_ngrams(&mut self, run: &'t str, n: usize, three_byte: bool) -> usize {
        let _ = three_byte;
        ngrams_one_by_one(self, run, n)
    }
}

/// [`Features::run_ngrams`] one [`Features::feature`] at a time.
#[inline]
pub(crate) fn ngrams_one_by_one<'t>(
    emit: &mut (impl Features<'t> + ?Sized),
    run: &'t str,
    n: usize,
) -> usize {
    let bytes = run.as_bytes();
    let (mut chars, mut lag, mut at) = (0, 0, 0);
    while at < bytes.len() {
        let end = at + window::utf8_len(bytes[at]);
        chars += 1;
        if chars >= n {
            emit.feature(&[&run[lag..end]], "");
            lag += window::utf8_len(bytes[lag]);
        }
        at = end;
    }
    chars.saturating_sub(n - 1)
}

impl<'t, F: FnMut(&[&'t str], &'static str)> Features<'t> for F {
    #[inline(always)]
    fn feature(&mut self, parts: &[&'t str], separator: &'static str) {
        self(parts, separator);
    }
}

/// The largest n-gram size accepted (bounds the per-call window buffer).
pub const MAX_N: usize = 64;

/// How text is cut into features.
///
/// Three tokenizers, all built on Unicode text segmentation (UAX #29, via
/// `unicode-segmentation`):
///
/// * [`Tokenizer::Words`] — word `n`-gram shingles. Words are UAX #29 word segments that hold
///   at least one letter or digit (punctuation and spaces are dropped). A shingle is `n`
///   consecutive words joined by one space; `n = 1` gives plain words.
/// * [`Tokenizer::Chars`] — character `n`-grams over grapheme clusters (extended), so an emoji
///   with modifiers or a letter with combining marks counts as one character. Every run of
///   whitespace counts as one space; leading and trailing whitespace is ignored.
/// * [`Tokenizer::Auto`] — script-aware: runs of Han, Hiragana, Katakana and Bopomofo (scripts
///   written without spaces between words) become character `char_n`-grams within the run;
///   every other word becomes part of one stream of word `word_n`-gram shingles.
///
/// A sequence shorter than `n` (a two-word text with `n = 3`, a one-character CJK run with
/// `n = 2`) gives one feature holding all of it, so short texts still have features.
///
/// ```
/// use simprint::Tokenizer;
/// assert_eq!("words".parse::<Tokenizer>()?, Tokenizer::Words { n: 1 });
/// assert_eq!(Tokenizer::default().name(), "auto");
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tokenizer {
    /// CJK runs as character `char_n`-grams, everything else as word `word_n`-gram shingles.
    Auto {
        /// Shingle size for words outside CJK runs.
        word_n: usize,
        /// n-gram size for characters inside CJK runs.
        char_n: usize,
    },
    /// Word `n`-gram shingles (`n = 1`: single words).
    Words {
        /// Words per shingle.
        n: usize,
    },
    /// Character (grapheme cluster) `n`-grams over the whole text.
    Chars {
        /// Characters per n-gram.
        n: usize,
    },
}

impl Tokenizer {
    /// Default word shingle size of `Auto`, chosen by measurement (see docs/evaluation.md).
    pub const DEFAULT_WORD_N: usize = 1;
    /// Default CJK character n-gram size of `Auto` and `Chars`, chosen by measurement.
    pub const DEFAULT_CHAR_N: usize = 2;

    /// The tokenizer's name, as it is parsed (and displayed), without its sizes.
    ///
    /// ```
    /// assert_eq!(simprint::Tokenizer::Chars { n: 3 }.name(), "chars");
    /// ```
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Tokenizer::Auto { .. } => "auto",
            Tokenizer::Words { .. } => "words",
            Tokenizer::Chars { .. } => "chars",
        }
    }

    /// Fails if an n-gram size is outside `1..=MAX_N`.
    ///
    /// # Errors
    ///
    /// [`Error::NOutOfRange`] for a size outside `1..=MAX_N`, naming which.
    ///
    /// ```
    /// assert!(simprint::Tokenizer::Words { n: 0 }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        let check = |setting, n: usize| {
            if (1..=MAX_N).contains(&n) {
                Ok(())
            } else {
                Err(Error::NOutOfRange {
                    setting,
                    n: n as u64,
                    max: MAX_N,
                })
            }
        };
        match *self {
            Tokenizer::Auto { word_n, char_n } => {
                check(NSetting::WordN, word_n)?;
                check(NSetting::CharN, char_n)
            }
            Tokenizer::Words { n } | Tokenizer::Chars { n } => check(NSetting::N, n),
        }
    }

    /// Calls `emit.feature(parts, separator)` for each feature of `text`, in order of
    /// appearance (the feature's text is `parts` joined by `separator`). Expects a validated
    /// tokenizer. Outside tests it is compiled for one kind of sink only, the fingerprinter's
    /// `Emit` (its sink or any closure; `Tokenizer::for_each_feature` beside it): a copy is
    /// some 13 KB of wasm.
    pub(crate) fn for_each_feature_into<'t>(&self, text: &'t str, emit: &mut impl Features<'t>) {
        match *self {
            Tokenizer::Words { n } => {
                let mut words = Window::new(n, " ", text);
                for piece in pieces(text) {
                    words_of(piece, |w| words.push(w, emit));
                }
                words.flush(emit);
            }
            Tokenizer::Chars { n } => {
                let mut chars = Window::new(n, "", text);
                let mut state = CharsState::default();
                for piece in pieces(text) {
                    chars_of(piece, &mut state, |g| chars.push(g, emit));
                }
                chars.flush(emit);
            }
            Tokenizer::Auto { word_n, char_n } => {
                let mut features = AutoFeatures {
                    words: Window::new(word_n, " ", text),
                    run: Window::new(char_n, "", text),
                    emit,
                };
                // One scan of the whole text: it finds its own cuts, so pieces are not needed.
                auto_of(text, &mut features);
                features.run.flush(features.emit);
                features.words.flush(features.emit);
            }
        }
    }
}

/// The `auto` tokenizer's windows: words into word n-grams, CJK characters into character
/// n-grams, each feature to `emit`.
struct AutoFeatures<'t, 'e, E> {
    words: Window<'t>,
    run: Window<'t>,
    emit: &'e mut E,
}

impl<'t, E: Features<'t>> AutoTokens<'t> for AutoFeatures<'t, '_, E> {
    #[inline(always)]
    fn word(&mut self, w: &'t str) {
        self.words.push(w, self.emit);
    }
    #[inline]
    fn cjk(&mut self, g: &'t str) {
        self.run.push(g, self.emit);
    }
    #[inline]
    fn cjk_run(&mut self, run: &'t str) {
        self.run.push_run(run, false, self.emit);
    }
    #[inline]
    fn cjk_run_3(&mut self, run: &'t str) {
        self.run.push_run(run, true, self.emit);
    }
    #[inline]
    fn end_of_run(&mut self) {
        self.run.flush(self.emit);
    }
}

impl core::str::FromStr for Tokenizer {
    type Err = Error;

    /// The tokenizer called `"auto"`, `"words"` or `"chars"`, with its default sizes.
    ///
    /// ```
    /// use simprint::{Error, Tokenizer};
    /// assert_eq!("chars".parse::<Tokenizer>()?, Tokenizer::Chars { n: 2 });
    /// assert!(matches!("bytes".parse::<Tokenizer>(), Err(Error::UnknownTokenizer { .. })));
    /// # Ok::<(), simprint::Error>(())
    /// ```
    fn from_str(name: &str) -> Result<Tokenizer, Error> {
        match name {
            "auto" => Ok(Tokenizer::default()),
            "words" => Ok(Tokenizer::Words {
                n: Self::DEFAULT_WORD_N,
            }),
            "chars" => Ok(Tokenizer::Chars {
                n: Self::DEFAULT_CHAR_N,
            }),
            other => Err(Error::UnknownTokenizer {
                name: crate::error::echo(other),
            }),
        }
    }
}

/// The name only (`auto`, `words`, `chars`); the sizes are fields.
impl core::fmt::Display for Tokenizer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl Default for Tokenizer {
    /// `Auto { word_n: 1, char_n: 2 }`.
    fn default() -> Tokenizer {
        Tokenizer::Auto {
            word_n: Self::DEFAULT_WORD_N,
            char_n: Self::DEFAULT_CHAR_N,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec::Vec;
    use unicode_segmentation::UnicodeSegmentation;

    use super::script::{is_alone, stands_apart};

    fn features(t: Tokenizer, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        t.for_each_feature(text, |parts, sep| out.push(parts.join(sep)));
        out
    }

    #[test]
    fn words_and_shingles() {
        let text = "Hello, world: it's 3.14 — isn't it?";
        assert_eq!(
            features(Tokenizer::Words { n: 1 }, text),
            ["Hello", "world", "it's", "3.14", "isn't", "it"]
        );
        assert_eq!(
            features(Tokenizer::Words { n: 3 }, "a b c d"),
            ["a b c", "b c d"]
        );
        assert_eq!(features(Tokenizer::Words { n: 3 }, "a b"), ["a b"]);
        assert!(features(Tokenizer::Words { n: 2 }, " ,; ").is_empty());
    }

    #[test]
    fn chars_over_graphemes_with_collapsed_spaces() {
        assert_eq!(
            features(Tokenizer::Chars { n: 2 }, "  ab \t\n c  "),
            ["ab", "b ", " c"]
        );
        // e + combining acute is one grapheme; a family emoji is one grapheme.
        assert_eq!(
            features(Tokenizer::Chars { n: 2 }, "e\u{301}👨‍👩‍👧x"),
            ["e\u{301}👨‍👩‍👧", "👨‍👩‍👧x"]
        );
        assert_eq!(features(Tokenizer::Chars { n: 5 }, "abc"), ["abc"]);
        assert!(features(Tokenizer::Chars { n: 1 }, " \n ").is_empty());
    }

    #[test]
    fn auto_splits_cjk_runs_from_words() {
        let text = "你妈妈喊你回家吃饭哦,回家罗 SimHash rocks";
        assert_eq!(
            features(
                Tokenizer::Auto {
                    word_n: 1,
                    char_n: 2
                },
                text
            ),
            [
                "你妈", "妈妈", "妈喊", "喊你", "你回", "回家", "家吃", "吃饭", "饭哦", "回家",
                "家罗", "SimHash", "rocks"
            ]
        );
        // Katakana words and kanji/kana runs stay in one run; a lone ideograph is one feature.
        assert_eq!(
            features(
                Tokenizer::Auto {
                    word_n: 2,
                    char_n: 2
                },
                "東京タワー。猫 and dogs"
            ),
            ["東京", "京タ", "タワ", "ワー", "猫", "and dogs"]
        );
    }

    fn features_by(fast: bool, t: Tokenizer, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let f = |parts: &[&str], sep: &str| out.push(parts.join(sep));
        if fast {
            t.for_each_feature(text, f);
        } else {
            t.for_each_feature_reference(text, f);
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 2000, ..Default::default() })]

        /// The ASCII fast path (and cutting text into pieces) changes no feature, on random
        /// ASCII with apostrophes, periods, colons, underscores and separators in numbers,
        /// and on ASCII mixed with letters, marks, CJK and emoji that interact with it.
        #[test]
        fn fast_path_equals_unicode_segmentation(
            chars in proptest::collection::vec(proptest::sample::select(alloc::vec![
                'a', 'b', 'Z', '1', '2', '0', '_', '\'', '.', ':', ',', ';', ' ', ' ', '\n', '\r',
                '\t', '-', '"', '!', '/', 'é', '\u{301}', '\u{200d}', '中', '文', 'カ', '🙂', '\u{1f3fd}',
                '٣', '\u{a0}', '\u{2019}', '\u{ff0c}', 'ß', '。', '、', '\u{3099}', 'ｶ', '\u{ff9e}',
                '\u{3000}', '\u{e01}', '\u{e33}', '\u{fe0f}', '\u{200b}', 'ー', '々', 'あ',
                '\u{903}', '\u{600}', '\u{302a}', '“', '—', '…', '㐀', '\u{2028}', '\u{202a}', '\u{ff01}',
                '«', '×', '→', '\u{a8}', '‘', '\u{2024}', '\u{2027}', '\u{2044}', 'ª', '·', '\u{ad}', '©',
                '‼', '↔', '\u{1f1e6}', '\u{1f1e8}', 'א', '\u{5f4}', '\u{feff}', 'Č', 'ñ', 'À',
                'ÿ', 'ɏ', 'ɐ', '÷', 'µ', '\u{2bc}',
            ]), 0..40),
            ascii_only in proptest::prelude::any::<bool>(),
            n in 1usize..4,
        ) {
            let text: String = chars.into_iter().filter(|c| !ascii_only || c.is_ascii()).collect();
            for t in [
                Tokenizer::Words { n },
                Tokenizer::Chars { n },
                Tokenizer::Auto { word_n: n, char_n: 2 },
                Tokenizer::Auto { word_n: 1, char_n: n },
            ] {
                proptest::prop_assert_eq!(features_by(true, t, &text), features_by(false, t, &text), "{:?} {:?}", t, text);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 3000, ..Default::default() })]

        /// The `auto` scan (units, runs, cuts, the ASCII scanner, full segmentation around
        /// what it does not know, n-grams cut from runs) gives the features of plain
        /// segmentation on text shaped like mixed technical writing, for every window size.
        #[test]
        fn auto_scan_equals_unicode_segmentation_on_mixed_text(
            fragments in proptest::collection::vec(proptest::sample::select(MIXED), 0..40),
            word_n in 1usize..3,
            char_n in 1usize..4,
        ) {
            let text: String = fragments.concat();
            let t = Tokenizer::Auto { word_n, char_n };
            proptest::prop_assert_eq!(features_by(true, t, &text), features_by(false, t, &text), "{:?}", text);
        }
    }

    /// Each character `is_alone` names is its own word segment, and no word, whatever stands around it (letters, digits, middle characters, marks, joiners,
    /// format characters, regional indicators, Hebrew, emoji, CJK).
    #[test]
    fn alone_characters_stand_alone() {
        let neighbours = [
            "a",
            "1",
            "_",
            ".",
            "'",
            ":",
            ",",
            "\u{2019}",
            "\u{2044}",
            "\u{301}",
            "\u{200d}",
            "\u{200b}",
            "\u{ad}",
            "\u{600}",
            "\u{1f1e6}",
            "א",
            "\"",
            "🙂",
            "中",
            "カ",
            " ",
            "",
        ];
        let mut checked = 0;
        for c in (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| is_alone(c))
        {
            checked += 1;
            let c = String::from(c);
            for before in neighbours {
                // Attaching marks and joiners after `c` are ruled out by `stands_apart`.
                for after in neighbours
                    .iter()
                    .filter(|a| a.chars().next().is_none_or(stands_apart))
                {
                    let text = alloc::format!("{before}{c}{after}");
                    let start = before.len();
                    let own = |mut bounds: Vec<(usize, &str)>| {
                        bounds.retain(|&(at, _)| at >= start && at <= start + c.len());
                        bounds.iter().any(|&(at, s)| at == start && s == c)
                    };
                    assert!(own(text.split_word_bound_indices().collect()), "{text:?}");
                    assert!(
                        text.unicode_words().all(|w| !w.contains(c.as_str())),
                        "{text:?}"
                    );
                }
            }
        }
        assert_eq!(checked, 56);
    }

    #[test]
    fn n_is_validated() {
        assert!(Tokenizer::Words { n: 0 }.validate().is_err());
        assert!(Tokenizer::Chars { n: MAX_N + 1 }.validate().is_err());
        assert!(Tokenizer::Auto {
            word_n: 1,
            char_n: 0
        }
        .validate()
        .is_err());
        assert!(Tokenizer::Chars { n: MAX_N }.validate().is_ok());
    }
}
