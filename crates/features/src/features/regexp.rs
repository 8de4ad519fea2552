//! The `regexp` module: every configured expression in one [`RegexSet`], the index of each
//! key's first matching expression per block, and the share of dated blocks around each block.

use regex::{Regex, RegexSet};

use super::Extractor;
use crate::config::{ConfigError, FeatureConfig};

/// Blocks on either side looked at by `regexp.date-window`.
const DATE_WINDOW: usize = 5;

/// The compiled expressions of a configuration.
#[derive(Debug, Default)]
pub(super) struct Regexps {
    /// Every expression in one set: a block is searched once, whatever the number of keys.
    set: Option<RegexSet>,
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
        let set = RegexSet::new(&patterns).map_err(|e| {
            // Name the culprit: the first expression that does not compile alone.
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
        })?;
        let dated = ["date", "time"]
            .iter()
            .filter_map(|k| config.regexp.keys().position(|x| x == k))
            .collect();
        Ok(Regexps {
            set: Some(set),
            ranges,
            dated,
        })
    }
}

impl Extractor {
    /// Per block and key (row-major), the first expression of the key that matches the block's
    /// text, counted from 1 (0: none); and the number of keys.
    pub(super) fn regex_hits(&self, page: &victor_html::Page) -> (Vec<u16>, usize) {
        let re = &self.regexps;
        let nre = re.ranges.len();
        let mut hits: Vec<u16> = vec![0; page.blocks.len() * nre];
        if let Some(set) = &re.set {
            let mut matched = Vec::new();
            for (i, b) in page.blocks.iter().enumerate() {
                let text = page.block_text(b);
                // Most blocks match nothing: the earliest-match test is cheaper than the
                // overlapping search that names the patterns.
                if !set.is_match(text) {
                    continue;
                }
                matched.clear();
                matched.extend(set.matches(text).iter());
                for (k, range) in re.ranges.iter().enumerate() {
                    // The first pattern of the key that matches, counted from 1.
                    if let Some(m) = matched.iter().find(|m| range.contains(m)) {
                        hits[i * nre + k] = (m - range.start) as u16 + 1;
                    }
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
