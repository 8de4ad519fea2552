//! The `regexp` module: the index of each key's first matching expression per block, and the
//! share of dated blocks around each block.
//!
//! The expressions are searched in a few [`RegexSet`]s, grouped by the bytes their matches must
//! contain ([`super::prefilter`]): the expressions that need a digit form one set, those that
//! need an `@` another, and so on; one byte pass over a block tells which sets can match it,
//! and only those are searched. Expressions without a rare required byte share one set that
//! every block is searched with. Most blocks hold no digit, `@` or `:` and skip the sets of the
//! date, time and address expressions, and smaller sets build smaller lazy automata.

use regex::{Regex, RegexSet};

use super::Extractor;
use super::prefilter::{ByteSet, required_sets_of};
use crate::config::{ConfigError, FeatureConfig};

/// The largest [`ByteSet::weight`] of a group's required bytes for the group to be searched
/// only on blocks that contain one of them (the space alone weighs 15, the ASCII digits and
/// the lead bytes of other decimal digits together about 5).
const SELECTIVE_WEIGHT: f64 = 8.0;

/// Expressions searched together.
#[derive(Debug)]
struct Group {
    set: RegexSet,
    /// Each of the set's patterns' index among all the expressions.
    patterns: Vec<usize>,
    /// The group's bit in [`Regexps::table`]; `None`: searched on every block.
    bit: Option<u32>,
}

/// Blocks on either side looked at by `regexp.date-window`.
const DATE_WINDOW: usize = 5;

/// The compiled expressions of a configuration.
#[derive(Debug)]
pub(super) struct Regexps {
    /// The sets: the one searched on every block (if any), then the one of rare bytes.
    groups: Vec<Group>,
    /// Per byte value, the bits of the groups whose matches may hold it.
    table: [u32; 256],
    /// Every group bit: a block holding them all needs no more scanning.
    all_bits: u32,
    /// Each key's range of patterns in the set, in key order.
    ranges: Vec<std::ops::Range<usize>>,
    /// Keys (by index) that `regexp.date-window` counts: `date` and `time`.
    dated: Vec<usize>,
}

/// Compiles a configured expression. `\\b` means an ASCII word boundary (Unicode boundaries
/// would push the regex engine off its fast path on non-ASCII text).
fn compile_regex(r: &str) -> Result<Regex, regex::Error> {
    Regex::new(&ascii_boundaries(r))
}

/// The expression with `\\b` made an ASCII word boundary.
fn ascii_boundaries(r: &str) -> String {
    r.replace("\\b", "(?-u:\\b)")
}

impl Default for Regexps {
    fn default() -> Self {
        Regexps {
            groups: Vec::new(),
            table: [0; 256],
            all_bits: 0,
            ranges: Vec::new(),
            dated: Vec::new(),
        }
    }
}

/// Names the first configured expression that does not compile alone.
fn culprit(config: &FeatureConfig, e: regex::Error) -> ConfigError {
    let (name, index, error) = config
        .regexp
        .iter()
        .flat_map(|(name, list)| {
            list.iter()
                .enumerate()
                .map(move |(i, r)| (name, i, compile_regex(r)))
        })
        .find_map(|(name, i, r)| r.err().map(|e| (name.clone(), i, e.to_string())))
        .unwrap_or_else(|| (String::from("(all)"), 0, e.to_string()));
    ConfigError::Regex { name, index, error }
}

/// The expressions in two groups: those searched only on blocks holding one of a set of rare
/// bytes, and those searched on every block (no required byte, or only common ones). The rare
/// group takes expressions by the weight of their lightest required byte set
/// ([`required_sets_of`]), lightest first, while the union of their sets weighs at most
/// [`SELECTIVE_WEIGHT`]. One rare group rather than one per byte set: every group is a scan of
/// the block, and a configuration's expressions need many different rare bytes.
fn group_patterns(patterns: &[String]) -> Vec<(Option<ByteSet>, Vec<usize>)> {
    let mut needs: Vec<(usize, ByteSet, f64)> = patterns
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let need = required_sets_of(p).into_iter().next()?;
            Some((i, need, need.weight()))
        })
        .collect();
    needs.sort_by(|a, b| a.2.total_cmp(&b.2).then(a.0.cmp(&b.0)));
    let mut rare = ByteSet::default();
    let mut rare_members = Vec::new();
    for &(i, need, _) in &needs {
        let union = rare.union(need);
        if union.weight() > SELECTIVE_WEIGHT {
            break;
        }
        rare = union;
        rare_members.push(i);
    }
    let (rare_members, always): (Vec<usize>, Vec<usize>) =
        (0..patterns.len()).partition(|i| rare_members.contains(i));
    [(None, always), (Some(rare), rare_members)]
        .into_iter()
        .filter(|(_, members)| !members.is_empty())
        .collect()
}

impl Regexps {
    /// Compiles the expressions of the configuration's keys (at most 255), naming the first
    /// one that does not compile.
    pub(super) fn new(config: &FeatureConfig) -> Result<Regexps, ConfigError> {
        let mut patterns: Vec<String> = Vec::new();
        let mut ranges = Vec::new();
        for list in config.regexp.values().take(255) {
            let start = patterns.len();
            patterns.extend(list.iter().map(|r| ascii_boundaries(r)));
            ranges.push(start..patterns.len());
        }
        if patterns.is_empty() {
            return Ok(Regexps::default());
        }
        let mut table = [0u32; 256];
        let mut all_bits = 0u32;
        let mut groups = Vec::new();
        for (k, (need, members)) in group_patterns(&patterns).into_iter().enumerate() {
            let set = RegexSet::new(members.iter().map(|&i| &patterns[i]))
                .map_err(|e| culprit(config, e))?;
            let bit = need.map(|need| {
                let bit = 1u32 << k;
                for b in 0..=255u8 {
                    if need.contains(b) {
                        table[usize::from(b)] |= bit;
                    }
                }
                all_bits |= bit;
                bit
            });
            groups.push(Group {
                set,
                patterns: members,
                bit,
            });
        }
        let dated = ["date", "time"]
            .iter()
            .filter_map(|k| config.regexp.keys().position(|x| x == k))
            .collect();
        Ok(Regexps {
            groups,
            table,
            all_bits,
            ranges,
            dated,
        })
    }
}

impl Extractor {
    /// Per block and key (row-major), the first expression of the key that matches the block's
    /// text, counted from 1 (0: none); and the number of keys.
    pub(super) fn regex_hits(&self, page: &crate::page::Page) -> (Vec<u16>, usize) {
        let re = &self.regexps;
        let nre = re.ranges.len();
        let mut hits: Vec<u16> = vec![0; page.blocks.len() * nre];
        if re.groups.is_empty() {
            return (hits, nre);
        }
        let mut matched = Vec::new();
        for (i, b) in page.blocks.iter().enumerate() {
            let text = page.block_text(b);
            // The groups whose required bytes the block holds.
            let mut seen = 0u32;
            if re.all_bits != 0 {
                for &byte in text.as_bytes() {
                    seen |= re.table[usize::from(byte)];
                    if seen == re.all_bits {
                        break;
                    }
                }
            }
            matched.clear();
            for g in &re.groups {
                // Most blocks match nothing: the earliest-match test is cheaper than the
                // overlapping search that names the patterns.
                if g.bit.is_none_or(|bit| seen & bit != 0) && g.set.is_match(text) {
                    matched.extend(g.set.matches(text).iter().map(|m| g.patterns[m]));
                }
            }
            if matched.is_empty() {
                continue;
            }
            matched.sort_unstable();
            for (k, range) in re.ranges.iter().enumerate() {
                // The first pattern of the key that matches, counted from 1.
                if let Some(m) = matched.iter().find(|m| range.contains(m)) {
                    hits[i * nre + k] = (m - range.start) as u16 + 1;
                }
            }
        }
        (hits, nre)
    }

    /// Share of the blocks within [`DATE_WINDOW`] of each block that match a date or time
    /// expression: comment lists and news tickers stamp every item.
    pub(super) fn date_window(&self, hits: &[u16], nre: usize, n: usize) -> Vec<f32> {
        let mut window = vec![0f32; n];
        let dated = &self.regexps.dated;
        if dated.is_empty() || nre == 0 {
            return window;
        }
        let hit: Vec<u32> = (0..n)
            .map(|i| u32::from(dated.iter().any(|&k| hits[i * nre + k] > 0)))
            .collect();
        let mut prefix = vec![0u32; n + 1];
        for i in 0..n {
            prefix[i + 1] = prefix[i] + hit[i];
        }
        for (i, w) in window.iter_mut().enumerate() {
            let a = i.saturating_sub(DATE_WINDOW);
            let z = (i + DATE_WINDOW + 1).min(n);
            let others = (z - a).saturating_sub(1);
            if others > 0 {
                *w = (prefix[z] - prefix[a] - hit[i]) as f32 / others as f32;
            }
        }
        window
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_expressions_group_by_their_rare_bytes() {
        let config = FeatureConfig::default();
        let patterns: Vec<String> = config
            .regexp
            .values()
            .flatten()
            .map(|r| ascii_boundaries(r))
            .collect();
        let groups = group_patterns(&patterns);
        // Every expression in exactly one group.
        let mut all: Vec<usize> = groups.iter().flat_map(|g| g.1.clone()).collect();
        all.sort_unstable();
        assert_eq!(all, (0..patterns.len()).collect::<Vec<_>>());
        // Most expressions need a rare byte (a digit, `@`, `:`, `-`): a block of letters and
        // spaces is searched for the others only.
        let rare = groups
            .iter()
            .find_map(|(need, members)| need.map(|s| (s, members.len())));
        assert!(
            rare.is_some_and(|(s, n)| n >= 8 && !s.contains(b' ') && !s.contains(b'e')),
            "{groups:?}"
        );
    }
}
