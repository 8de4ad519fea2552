//! Word tokens for alignment: NFKC, lowercase, runs of letters and digits, CJK characters alone.
//!
//! Gold standards and pages disagree on everything but the words: gold has list bullets (`*`),
//! rules (`___`), its own whitespace, and in L3S-GN1 a `?` wherever a character outside Latin-1
//! stood ("Kosovo’s" became "Kosovo?s"). Reducing both sides to word tokens makes those
//! differences vanish: punctuation, symbols and whitespace only separate tokens, so "Kosovo?s"
//! and "Kosovo’s" both give `kosovo`, `s`.
//!
//! Rules, applied to the NFKC form of the text (ASCII text is already in NFKC and skips it):
//! - a token is a maximal run of alphanumeric characters, lowercased; combining marks continue
//!   a token (so scripts written with vowel signs keep their words whole);
//! - a CJK ideograph, kana or Hangul syllable is a token on its own, since those scripts do not
//!   separate words by spaces;
//! - everything else separates tokens.
//!
//! Each token also records whether a `?` touches it in the text. In L3S-GN1 gold such a `?`
//! often stands for a lost letter ("Đoković" became "?okovi?"), so the aligner lets gaps
//! around these tokens be bridged a little more generously.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use victor_features::within::Within;

/// One token: its place in the tokenizer's buffer and whether a `?` touches it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span {
    start: usize,
    end: usize,
    /// A `?` stands immediately before or after the token in the text.
    pub(crate) wild: bool,
}

/// Splits text into normalized word tokens, reusing its buffers from one text to the next:
/// `Kosovo’s ﬁnal STATUS: 漢字!` gives `kosovo`, `s`, `final`, `status`, `漢`, `字`.
#[derive(Debug, Default)]
pub(crate) struct Tokenizer {
    buf: String,
    spans: Vec<Span>,
}

impl Tokenizer {
    /// A tokenizer with empty buffers.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// The tokens of `text`, borrowed from the tokenizer until the next call.
    #[cfg(test)]
    pub(crate) fn tokenize(&mut self, text: &str) -> impl Iterator<Item = &str> + '_ {
        self.run(text);
        let buf = self.buf.as_str();
        self.spans
            .iter()
            .filter_map(move |s| buf.get(s.start..s.end))
    }

    /// Tokenizes `text` into the buffers; read them back with [`Tokenizer::spans`] and
    /// [`Tokenizer::token`].
    pub(crate) fn run(&mut self, text: &str) {
        self.buf.clear();
        self.spans.clear();
        let mut state = State::default();
        if text.is_ascii() {
            for c in text.chars() {
                self.push(&mut state, c);
            }
        } else {
            for c in text.chars().nfkc() {
                self.push(&mut state, c);
            }
        }
        self.close(&mut state, None);
    }

    /// The tokens found by the last [`Tokenizer::run`].
    pub(crate) fn spans(&self) -> &[Span] {
        &self.spans
    }

    /// The text of a span returned by the last [`Tokenizer::run`].
    pub(crate) fn token(&self, span: &Span) -> &str {
        // Spans are made by `run` over this buffer, at character boundaries.
        self.buf.within(span.start..span.end)
    }

    fn push(&mut self, state: &mut State, c: char) {
        if is_cjk(c) {
            self.close(state, Some(c));
            let start = self.buf.len();
            self.buf.push(c);
            self.spans.push(Span {
                start,
                end: self.buf.len(),
                wild: state.after_question,
            });
            state.after_question = false;
        } else if c.is_alphanumeric() || (state.open.is_some() && is_combining_mark(c)) {
            if state.open.is_none() {
                state.open = Some((self.buf.len(), state.after_question));
            }
            if c.is_ascii() {
                self.buf.push(c.to_ascii_lowercase());
            } else {
                self.buf.extend(c.to_lowercase());
            }
            state.after_question = false;
        } else {
            self.close(state, Some(c));
            state.after_question = c == '?';
        }
    }

    /// Ends the open token, if any, at separator `next` (`None` at the end of the text).
    fn close(&mut self, state: &mut State, next: Option<char>) {
        if let Some((start, wild_before)) = state.open.take() {
            self.spans.push(Span {
                start,
                end: self.buf.len(),
                wild: wild_before || next == Some('?'),
            });
        }
    }
}

#[derive(Default)]
struct State {
    /// Start of the open token in the buffer and whether a `?` preceded it.
    open: Option<(usize, bool)>,
    /// The previous character was a `?`.
    after_question: bool,
}

/// CJK ideographs, kana and Hangul syllables: scripts whose characters are tokens on their own.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // hiragana, katakana
        | 0x31F0..=0x31FF    // katakana phonetic extensions
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0x20000..=0x3134F // CJK extensions B to G, compatibility supplement
    )
}

/// Drops a leading list bullet typed as a lone lowercase `o` (CleanEval gold writes `o Item`).
///
/// `*`, `-` and `•` bullets vanish in tokenization anyway; `o` would be a word.
pub(crate) fn strip_bullet(text: &str) -> &str {
    let t = text.trim_start();
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some('o'), None) => "",
        (Some('o'), Some(c)) if c.is_whitespace() => chars.as_str(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<String> {
        let mut t = Tokenizer::new();
        t.tokenize(text).map(str::to_owned).collect()
    }

    #[test]
    fn normalizes_and_splits_cjk() {
        assert_eq!(
            toks("Kosovo’s ﬁnal STATUS: 漢字!"),
            ["kosovo", "s", "final", "status", "漢", "字"]
        );
    }

    fn wild(text: &str) -> Vec<bool> {
        let mut t = Tokenizer::new();
        t.run(text);
        t.spans().iter().map(|s| s.wild).collect()
    }

    #[test]
    fn punctuation_bullets_and_rules_vanish() {
        assert_eq!(
            toks("* Fast ___ For  Top\tDollar!"),
            ["fast", "for", "top", "dollar"]
        );
        assert_eq!(toks("$2.2 million"), ["2", "2", "million"]);
        assert!(toks("  ___ * -- | ").is_empty());
    }

    #[test]
    fn question_marks_split_like_curly_quotes() {
        assert_eq!(toks("Kosovo?s"), toks("Kosovo’s"));
        assert_eq!(wild("Kosovo?s future"), [true, true, false]);
        assert_eq!(wild("Kosovo’s future"), [false, false, false]);
        assert_eq!(wild("?okovi? won"), [true, false]);
    }

    #[test]
    fn nfkc_lowercase_and_marks() {
        assert_eq!(toks("ﬁnal ＡＢＣ Ünïcode"), ["final", "abc", "ünïcode"]);
        // Decomposed e + combining acute stays one token and composes.
        assert_eq!(toks("cafe\u{301} bar"), ["café", "bar"]);
        // Devanagari with a virama (a combining mark) is one word.
        assert_eq!(toks("नमस्ते दुनिया"), ["नमस्ते", "दुनिया"]);
    }

    #[test]
    fn cjk_characters_stand_alone() {
        assert_eq!(toks("東京abc한국"), ["東", "京", "abc", "한", "국"]);
    }

    #[test]
    fn bullets() {
        assert_eq!(strip_bullet("o Fast"), "Fast");
        assert_eq!(strip_bullet("  o\tFast"), "Fast");
        assert_eq!(strip_bullet("o"), "");
        assert_eq!(strip_bullet("of course"), "of course");
        assert_eq!(strip_bullet("O Canada"), "O Canada");
    }
}
