//! Which bytes a regular expression's matches must contain, read from its syntax tree: a block
//! of text with none of them cannot match, and is not searched for it.
//!
//! [`required_sets`] gives, for an expression, sets of bytes such that every match contains at
//! least one byte of each (none when there is no such set, as for an expression that matches
//! the empty string). A concatenation offers a choice (every match of `\d+@x` contains a
//! digit and an `@` and an `x`); the caller picks among them by how often ordinary text holds
//! their bytes ([`ByteSet::weight`], from [`BYTE_WEIGHT`]), so that the filter skips as many
//! blocks as it can. Only that choice depends on the weights, never a result.

use regex_syntax::hir::{Class, Hir, HirKind};

/// A set of bytes, one bit per byte value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct ByteSet([u64; 4]);

impl ByteSet {
    fn insert_range(&mut self, lo: u8, hi: u8) {
        for b in lo..=hi {
            self.0[usize::from(b >> 6)] |= 1 << (b & 63);
        }
    }

    /// The bytes of either set.
    pub(super) fn union(mut self, other: ByteSet) -> ByteSet {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        self
    }

    /// Whether byte `b` is in the set.
    pub(super) fn contains(&self, b: u8) -> bool {
        self.0[usize::from(b >> 6)] >> (b & 63) & 1 == 1
    }

    /// How often ordinary text holds one of these bytes: the sum of their weights.
    pub(super) fn weight(&self) -> f64 {
        let mut sum = 0.0;
        for (k, &word) in self.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                sum += BYTE_WEIGHT[k * 64 + bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
        }
        sum
    }
}

/// A rough share (per cent) of each byte in web text, to choose among the byte sets a
/// concatenation requires the one fewest blocks contain: lowercase letters by their English
/// frequency, the space most, capitals, digits and non-ASCII lead bytes a little, rare
/// punctuation least. Only the choice depends on it, never a result.
const BYTE_WEIGHT: [f64; 256] = {
    // a..z, English letter frequencies (per cent).
    const LOWER: [f64; 26] = [
        8.2, 1.5, 2.8, 4.3, 12.7, 2.2, 2.0, 6.1, 7.0, 0.2, 0.8, 4.0, 2.4, 6.7, 7.5, 1.9, 0.1, 6.0,
        6.3, 9.1, 2.8, 1.0, 2.4, 0.2, 2.0, 0.1,
    ];
    let mut w = [0.05; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        w[b] = if c == b' ' {
            15.0
        } else if c.is_ascii_lowercase() {
            LOWER[(c - b'a') as usize]
        } else if c.is_ascii_uppercase() {
            LOWER[(c - b'A') as usize] / 10.0
        } else if c.is_ascii_digit() {
            0.3
        } else if c == b'.' || c == b',' {
            1.0
        } else if c >= 0x80 {
            0.2
        } else {
            0.05
        };
        b += 1;
    }
    w
};

/// The first byte of the UTF-8 encoding of `c`.
fn lead_byte(c: char) -> u8 {
    let mut buf = [0u8; 4];
    c.encode_utf8(&mut buf);
    buf[0]
}

/// Most alternatives [`required_sets`] keeps for one expression (the lightest ones).
const MAX_CHOICES: usize = 16;

/// Byte sets every match of `hir` contains at least one byte of, each a valid requirement on
/// its own (a concatenation offers one per part); empty when some match may contain no
/// particular byte (it may be empty, or made only of look-around assertions).
pub(super) fn required_sets(hir: &Hir) -> Vec<ByteSet> {
    let single = |lo: u8, hi: u8| {
        let mut s = ByteSet::default();
        s.insert_range(lo, hi);
        s
    };
    let mut sets = match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => Vec::new(),
        // Every byte of a literal is in every match.
        HirKind::Literal(lit) => lit.0.iter().map(|&b| single(b, b)).collect(),
        // A character matched by a class starts with its UTF-8 lead byte; lead bytes grow
        // with the code point, so a range of characters gives a range of lead bytes.
        HirKind::Class(Class::Unicode(cls)) => {
            let mut s = ByteSet::default();
            for r in cls.iter() {
                s.insert_range(lead_byte(r.start()), lead_byte(r.end()));
            }
            vec![s]
        }
        HirKind::Class(Class::Bytes(cls)) => {
            let mut s = ByteSet::default();
            for r in cls.iter() {
                s.insert_range(r.start(), r.end());
            }
            vec![s]
        }
        HirKind::Repetition(rep) if rep.min == 0 => Vec::new(),
        HirKind::Repetition(rep) => required_sets(&rep.sub),
        HirKind::Capture(cap) => required_sets(&cap.sub),
        // Every part of a concatenation is in every match: any part's sets will do.
        HirKind::Concat(parts) => parts.iter().flat_map(required_sets).collect(),
        // A match of an alternation is a match of one branch: the union of one set of each.
        // Starting from each set of the first branch, every other branch adds the set that
        // grows the union least (so that `\d+x|\d+y` offers the digits, not `[xy]`).
        HirKind::Alternation(branches) => {
            let per: Option<Vec<Vec<ByteSet>>> = branches
                .iter()
                .map(|b| Some(required_sets(b)).filter(|s| !s.is_empty()))
                .collect();
            let Some(per) = per else {
                return Vec::new();
            };
            let first = per.first().cloned().unwrap_or_default();
            first
                .into_iter()
                .map(|seed| {
                    per.iter().fold(seed, |acc, sets| {
                        sets.iter()
                            .map(|s| acc.union(*s))
                            .min_by(|x, y| x.weight().total_cmp(&y.weight()))
                            .unwrap_or(acc)
                    })
                })
                .collect()
        }
    };
    sets.sort_by(|a, b| a.weight().total_cmp(&b.weight()));
    sets.dedup();
    sets.truncate(MAX_CHOICES);
    sets
}

/// [`required_sets`] of an expression, parsed as the regex crate parses it by default; empty
/// also when it does not parse (the regex crate reports that error).
pub(super) fn required_sets_of(pattern: &str) -> Vec<ByteSet> {
    regex_syntax::Parser::new()
        .parse(pattern)
        .map(|hir| required_sets(&hir))
        .unwrap_or_default()
}

/// The lightest of [`required_sets_of`].
#[cfg(test)]
fn required_bytes_of(pattern: &str) -> Option<ByteSet> {
    required_sets_of(pattern).into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(bytes: &[u8]) -> ByteSet {
        let mut s = ByteSet::default();
        for &b in bytes {
            s.insert_range(b, b);
        }
        s
    }

    #[test]
    fn finds_the_rarest_required_bytes() {
        assert_eq!(required_bytes_of("abc@example"), Some(set(b"@")));
        assert_eq!(required_bytes_of("(?i)\\bwww\\."), Some(set(b".")));
        assert_eq!(required_bytes_of("(?:https?|ftp)://"), Some(set(b":")));
        // Unicode digits: ASCII ones and the lead bytes of the others.
        let digits = required_bytes_of("\\d{2}").unwrap_or_default();
        assert!(digits.contains(b'7') && digits.contains(0xd9) && !digits.contains(b'a'));
        assert!(!digits.contains(0xe2), "no decimal digit in U+2000..U+2FFF");
        // A branch without a requirement: no set.
        assert_eq!(required_bytes_of("abc|x*"), None);
        assert_eq!(required_bytes_of("\\b"), None);
        assert!(required_bytes_of("(?:19|20)\\d{2}").is_some());
    }

    #[test]
    fn every_match_holds_a_required_byte() {
        // Texts that match each expression contain one of its bytes; the checks above pick
        // the sets, this one their soundness on real matches.
        let cases = [
            ("(?i)\\bmonday|tue\\b", "Tue."),
            ("\\d{4}\\s*年", "２０２６年"),
            ("(?i)[ap]\\.?m\\.?", "P.M."),
            ("(?i)kelvin", "\u{212a}elvin"),
        ];
        for (re, text) in cases {
            let need = required_bytes_of(re).unwrap_or_default();
            assert!(
                regex::Regex::new(re).is_ok_and(|r| r.is_match(text)),
                "{re} matches {text}"
            );
            assert!(text.bytes().any(|b| need.contains(b)), "{re}: {text}");
        }
    }
}
