//! Feature extraction: a [`Page`] -> a [`FeatureTable`] with one row per block and one column per
//! feature, each cell holding the raw value and its discretized value (Victor section 3.2).
//!
//! # Modules and columns
//!
//! Features come in modules that the configuration switches on and off ([`Module`]):
//!
//! | module | columns |
//! |---|---|
//! | `main` | `main.in-best` (inside the element a readability-style score rates best), `main.ratio` (best score among the block's ancestors / the page's best) |
//! | `markup` | `container.*` (1 when an ancestor has a tag of the class), `container.hidden` (an ancestor is invisible: `display:none`, `hidden`, class `hidden`), `split.*` (tags opened or closed since the previous block) |
//! | `content` | `char.{alpha,num,punct,white,other}-{abs,rel}`, `token.{alpha,num,mix,other}-{abs,rel}`, `token.upper-rel` |
//! | `sentence` | `sentence.count`, `sentence.avg-length`, `sentence-begin`, `sentence-end`, `text.end` |
//! | `duplicate` | `first-duplicate`, `duplicate-count` (short blocks), `duplicate.prefix-count` (blocks starting with the same two words) |
//! | `regexp` | `regexp.url`, `regexp.date`, `regexp.time` (index of the first matching expression), `regexp.date-window` (share of the 10 nearest blocks with a date or time) |
//! | `groups` | `div-group.word-ratio`, `td-group.word-ratio` (words outside `<a>` of the block's group / of the page) |
//! | `langid` | `langid.page` (the page's language: a stop-word vote, or whatlang; see [`crate::LangIdMethod`]), `langid.block` (confidence that the block is in it) |
//! | `document` | `position`, `document.{word,sentence,block}-count`, `document.max-{div,td}-group` |
//! | `paragraph` | `paragraph.{word-count,link-density,blocks,position}` (jusText's paragraph: blocks between block-level tags) |
//! | `stopwords` | `stopword-density`, `paragraph.stopword-density` (stop words of the page's language) |
//! | `class` | `class.1`, `class.2`: keyword group of the nearest ancestors with a `class`/`id` (whole tokens); `class.in-GROUP` for each `class_outer` group (a token of it on any ancestor below `<body>`) |
//! | `title` | `title.in-title` (share of the block's words in `<title>`), `title.cover` (share of the title's words in the block) |
//! | `density` | `density.best-share` (share of the page's non-link text in the element `main` rates best), `density.in-article` (in that element or a sibling Readability would merge into it), `density.place` (`none`, `before`, `in`, `gap` or `after` that article), `density.region-share` and `density.region-link` (share of the page's non-link text in the block's region, its nearest ancestor with a `class` or `id`, else its nearest `div`; the region's link density), `density.semantic` (inside `<article>`, `<main>`, `role="main"`, `itemprop="articleBody"`, ...) |
//! | `justext` | `justext.cf` (the jusText context-free class of the block's paragraph: `bad`, `good`, `short`, `neargood`), `justext.good` (its final class is good; see [`seeds::justext`]) |
//! | `kimatu` | `kimatu.relevance` (Kimatu's content-relevance ratio of the block's appearance block), `kimatu.kept` (Kimatu keeps it; see [`seeds::kimatu`]) |
//! | `bte` | `bte.in` (inside the run of blocks that body text extraction picks: the most words inside and tags outside), `bte.in-text` (the same with the words of links counted as markup) |
//!
//! Numeric values are discretized by the bins of the configuration; flags are `0`/`1`;
//! categorical values are names. The discretized value of every cell has a label (a bin number,
//! `0`/`1`, or a name) that templates turn into CRF attribute strings.

pub mod candidate;
pub mod lexicon;
pub mod seeds;
pub mod structure;
pub mod text;

use std::cell::{Cell, RefCell};

use regex::{Regex, RegexSet};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::config::{ConfigError, FeatureConfig, LangIdMethod};
use crate::page::Page;
use crate::segment::tags::Tag;
use lexicon::{StopIndex, StopWords, attr_tokens, iso639_1, singular, tokens, word_hash};
use structure::{Structure, TagSet};
use text::{CHAR_CLASSES, END_CLASSES, TOKEN_CLASSES, TextStats};

/// Columns of one character or token count: unit (`char`, `token`), class names, `abs` or
/// `rel`, and the feature of class `k`.
type ClassColumns = (
    &'static str,
    &'static [&'static str],
    &'static str,
    fn(u8) -> Feat,
);

/// A feature module: a group of columns the configuration switches on by name. Columns come
/// in the order of [`Module::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Module {
    /// `main`.
    Main,
    /// `markup`.
    Markup,
    /// `content`.
    Content,
    /// `sentence`.
    Sentence,
    /// `duplicate`.
    Duplicate,
    /// `regexp`.
    Regexp,
    /// `groups`.
    Groups,
    /// `langid`.
    LangId,
    /// `document`.
    Document,
    /// `paragraph`.
    Paragraph,
    /// `stopwords`.
    StopWords,
    /// `class`.
    Class,
    /// `title`.
    Title,
    /// `bte`.
    Bte,
    /// `density`.
    Density,
    /// `justext`.
    JusText,
    /// `kimatu`.
    Kimatu,
}

impl Module {
    /// Every module, in column order.
    pub const ALL: [Module; 17] = [
        Module::Main,
        Module::Markup,
        Module::Content,
        Module::Sentence,
        Module::Duplicate,
        Module::Regexp,
        Module::Groups,
        Module::LangId,
        Module::Document,
        Module::Paragraph,
        Module::StopWords,
        Module::Class,
        Module::Title,
        Module::Bte,
        Module::Density,
        Module::JusText,
        Module::Kimatu,
    ];

    /// The module's name in configurations.
    pub const fn name(self) -> &'static str {
        match self {
            Module::Main => "main",
            Module::Markup => "markup",
            Module::Content => "content",
            Module::Sentence => "sentence",
            Module::Duplicate => "duplicate",
            Module::Regexp => "regexp",
            Module::Groups => "groups",
            Module::LangId => "langid",
            Module::Document => "document",
            Module::Paragraph => "paragraph",
            Module::StopWords => "stopwords",
            Module::Class => "class",
            Module::Title => "title",
            Module::Bte => "bte",
            Module::Density => "density",
            Module::JusText => "justext",
            Module::Kimatu => "kimatu",
        }
    }

    /// The module of a configuration name.
    pub fn from_name(name: &str) -> Option<Module> {
        Module::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// Languages a block's language competes with in `langid.block` (plus the page's).
const RIVALS: [whatlang::Lang; 6] = [
    whatlang::Lang::Eng,
    whatlang::Lang::Deu,
    whatlang::Lang::Fra,
    whatlang::Lang::Spa,
    whatlang::Lang::Rus,
    whatlang::Lang::Cmn,
];

/// Fewest stop words that decide a page's language by vote (`langid.method: stopwords`).
const STOP_VOTE_MIN: u16 = 3;

/// Characters of a block given to the language detector.
const BLOCK_SAMPLE_CHARS: usize = 150;

/// Sets every value of a column to `f(block)`: one monomorphic loop per feature.
#[inline(always)]
fn fill(column: &mut [f32], mut f: impl FnMut(usize) -> f32) {
    for (i, v) in column.iter_mut().enumerate() {
        *v = f(i);
    }
}

/// The first [`BLOCK_SAMPLE_CHARS`] characters of a block's text, for language identification.
fn block_sample(t: &str) -> &str {
    let cut = t
        .char_indices()
        .nth(BLOCK_SAMPLE_CHARS)
        .map_or(t.len(), |(k, _)| k);
    t.get(..cut).unwrap_or(t)
}

/// Blocks on either side looked at by `regexp.date-window`.
const DATE_WINDOW: usize = 5;

/// Blocks longer than this (in words) are never counted as duplicates.
const DUPLICATE_MAX_WORDS: u32 = 15;

/// A keyword group not computed yet, in the per-page memo of [`Extractor::class_group`] (groups
/// go up to 251: at most 250 configured groups, plus 2).
const GROUP_UNKNOWN: u8 = u8::MAX;

/// Values of `paragraph.position`.
const PARA_POSITIONS: [&str; 4] = ["only", "first", "middle", "last"];

/// One maximum-sum run search (Kadane's algorithm) of [`bte_windows`].
#[derive(Default)]
struct BestRun {
    best: std::ops::Range<usize>,
    best_sum: i64,
    start: usize,
    sum: i64,
}

impl BestRun {
    /// Block `i`, worth `words`, after `tags` tags: extend the run through the tags, or start a
    /// new run here (the tags before a run's first block are outside it).
    fn step(&mut self, i: usize, words: i64, tags: i64) {
        if self.sum - tags > 0 {
            self.sum += words - tags;
        } else {
            self.start = i;
            self.sum = words;
        }
        if self.sum > self.best_sum {
            self.best_sum = self.sum;
            self.best = self.start..i + 1;
        }
    }
}

/// Body text extraction (Finn et al., as improved in the BTE paper among victor's seeds): the
/// run of blocks that maximizes the words inside it plus the tags outside it, that is, the
/// maximum-sum run of `words - tags before the block` (Kadane's algorithm, linear in the
/// blocks); and the same run with the words of a block inside a link counted against the run
/// like tags. Both in one pass; empty when no block has words.
fn bte_windows(
    page: &Page,
    stats: &[TextStats],
) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
    let (mut all, mut text) = (BestRun::default(), BestRun::default());
    for (i, (b, s)) in page.blocks.iter().zip(stats).enumerate() {
        let tags: i64 = page
            .block_splits(b)
            .iter()
            .map(|sp| i64::from(sp.opened) + i64::from(sp.closed))
            .sum();
        let words = i64::from(s.words);
        all.step(i, words, tags);
        text.step(i, if b.in_anchor { -words } else { words }, tags);
    }
    (all.best, text.best)
}

/// What a column computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Feat {
    Container(u8),
    Hidden,
    Split(u8),
    CharAbs(u8),
    CharRel(u8),
    TokAbs(u8),
    TokRel(u8),
    TokUpperRel,
    SentCount,
    SentAvgLen,
    SentBegin,
    SentEnd,
    TextEnd,
    FirstDup,
    DupCount,
    PrefixCount,
    DateWindow,
    Regexp(u8),
    DivGroup,
    TdGroup,
    LangPage,
    LangBlock,
    Position,
    DocWords,
    DocSents,
    DocBlocks,
    DocMaxDiv,
    DocMaxTd,
    ParaWords,
    ParaLinkDensity,
    ParaBlocks,
    ParaPosition,
    StopDensity,
    ParaStopDensity,
    Class(u8),
    ClassIn(u8),
    TitleIn,
    TitleCover,
    MainInBest,
    MainRatio,
    BteIn,
    BteText,
    DensityBestShare,
    DensityPlace,
    DensityRegionShare,
    DensityRegionLink,
    DensitySemantic,
    DensityInArticle,
    JustextCf,
    JustextGood,
    KimatuRelevance,
    KimatuKept,
}

/// How a registered column is discretized.
#[derive(Clone, Copy)]
enum Spec {
    /// 0 or 1.
    Flag,
    /// Bins from the configuration, else these (`None`: the configuration must give them).
    Numeric(Option<&'static [f64]>),
    /// The names of its values.
    Categorical(fn() -> Vec<String>),
}

/// One feature column whose name and values no configuration changes: its module, name, what
/// computes it (the arm of [`Extractor::extract`] for its [`Feat`]) and its discretization.
struct Entry {
    module: Module,
    name: &'static str,
    feat: Feat,
    spec: Spec,
}

const fn entry(module: Module, name: &'static str, feat: Feat, spec: Spec) -> Entry {
    Entry {
        module,
        name,
        feat,
        spec,
    }
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The fixed columns, module by module in column order. The columns a configuration names
/// (containers, splits, character and token classes, expressions, class levels and outer
/// groups) are registered in [`Extractor::new`] around them.
const REGISTRY: &[Entry] = {
    use Module as M;
    use Spec::{Flag, Numeric as N};
    &[
        entry(M::Main, "main.in-best", Feat::MainInBest, Flag),
        entry(M::Main, "main.ratio", Feat::MainRatio, N(None)),
        entry(M::Markup, "container.hidden", Feat::Hidden, Flag),
        entry(M::Content, "token.upper-rel", Feat::TokUpperRel, N(None)),
        entry(M::Sentence, "sentence.count", Feat::SentCount, N(None)),
        entry(
            M::Sentence,
            "sentence.avg-length",
            Feat::SentAvgLen,
            N(None),
        ),
        entry(M::Sentence, "sentence-begin", Feat::SentBegin, Flag),
        entry(M::Sentence, "sentence-end", Feat::SentEnd, Flag),
        entry(
            M::Sentence,
            "text.end",
            Feat::TextEnd,
            Spec::Categorical(|| names(&END_CLASSES)),
        ),
        entry(M::Duplicate, "first-duplicate", Feat::FirstDup, Flag),
        entry(M::Duplicate, "duplicate-count", Feat::DupCount, N(None)),
        entry(
            M::Duplicate,
            "duplicate.prefix-count",
            Feat::PrefixCount,
            N(None),
        ),
        // Only with a `date` or `time` expression configured.
        entry(M::Regexp, "regexp.date-window", Feat::DateWindow, N(None)),
        entry(M::Groups, "div-group.word-ratio", Feat::DivGroup, N(None)),
        entry(M::Groups, "td-group.word-ratio", Feat::TdGroup, N(None)),
        entry(
            M::LangId,
            "langid.page",
            Feat::LangPage,
            Spec::Categorical(language_names),
        ),
        entry(M::LangId, "langid.block", Feat::LangBlock, N(None)),
        entry(M::Document, "position", Feat::Position, N(None)),
        entry(M::Document, "document.word-count", Feat::DocWords, N(None)),
        entry(
            M::Document,
            "document.sentence-count",
            Feat::DocSents,
            N(None),
        ),
        entry(
            M::Document,
            "document.block-count",
            Feat::DocBlocks,
            N(None),
        ),
        entry(
            M::Document,
            "document.max-div-group",
            Feat::DocMaxDiv,
            N(None),
        ),
        entry(
            M::Document,
            "document.max-td-group",
            Feat::DocMaxTd,
            N(None),
        ),
        entry(
            M::Paragraph,
            "paragraph.word-count",
            Feat::ParaWords,
            N(None),
        ),
        entry(
            M::Paragraph,
            "paragraph.link-density",
            Feat::ParaLinkDensity,
            N(None),
        ),
        entry(M::Paragraph, "paragraph.blocks", Feat::ParaBlocks, N(None)),
        entry(
            M::Paragraph,
            "paragraph.position",
            Feat::ParaPosition,
            Spec::Categorical(|| names(&PARA_POSITIONS)),
        ),
        entry(M::StopWords, "stopword-density", Feat::StopDensity, N(None)),
        entry(
            M::StopWords,
            "paragraph.stopword-density",
            Feat::ParaStopDensity,
            N(None),
        ),
        entry(M::Title, "title.in-title", Feat::TitleIn, N(None)),
        entry(M::Title, "title.cover", Feat::TitleCover, N(None)),
        entry(M::Bte, "bte.in", Feat::BteIn, Flag),
        entry(M::Bte, "bte.in-text", Feat::BteText, Flag),
        entry(
            M::Density,
            "density.best-share",
            Feat::DensityBestShare,
            N(Some(&SHARES)),
        ),
        entry(
            M::Density,
            "density.place",
            Feat::DensityPlace,
            Spec::Categorical(|| names(&candidate::PLACES)),
        ),
        entry(
            M::Density,
            "density.region-share",
            Feat::DensityRegionShare,
            N(Some(&SHARES)),
        ),
        entry(
            M::Density,
            "density.region-link",
            Feat::DensityRegionLink,
            N(Some(&[0.05, 0.2, 0.4, 0.6, 0.8])),
        ),
        entry(M::Density, "density.semantic", Feat::DensitySemantic, Flag),
        entry(
            M::Density,
            "density.in-article",
            Feat::DensityInArticle,
            Flag,
        ),
        entry(
            M::JusText,
            "justext.cf",
            Feat::JustextCf,
            Spec::Categorical(|| {
                seeds::justext::Class::ALL
                    .iter()
                    .map(|c| c.name().to_string())
                    .collect()
            }),
        ),
        entry(M::JusText, "justext.good", Feat::JustextGood, Flag),
        entry(
            M::Kimatu,
            "kimatu.relevance",
            Feat::KimatuRelevance,
            N(Some(&[-1.5, -1.0, -0.5, 0.0, 0.1, 0.32, 0.5])),
        ),
        entry(M::Kimatu, "kimatu.kept", Feat::KimatuKept, Flag),
    ]
};

/// Default bins of the density shares.
const SHARES: [f64; 6] = [0.02, 0.05, 0.1, 0.25, 0.5, 0.75];

/// The values of `langid.page`: `unknown`, then whatlang's ISO 639-3 codes in order.
fn language_names() -> Vec<String> {
    names(&language_codes())
}

/// `unknown`, then whatlang's ISO 639-3 codes in order: the index of a page's language.
fn language_codes() -> Vec<&'static str> {
    let mut langs: Vec<&'static str> = whatlang::Lang::all().iter().map(|l| l.code()).collect();
    langs.sort_unstable();
    langs.insert(0, "unknown");
    langs
}

/// How a column's raw values become discrete values.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// 0 or 1.
    Flag,
    /// Bin `i` holds values with `i` thresholds at or below them.
    Numeric(Vec<f64>),
    /// The raw value is the index of a name.
    Categorical,
}

/// One feature column.
#[derive(Clone, Debug)]
pub struct Column {
    /// The feature's name, as in the Victor paper where it has one (`char.alpha-rel`).
    pub name: String,
    /// How values are discretized.
    pub kind: Kind,
    /// Label of every discrete value (bin numbers, `0`/`1`, or names).
    pub labels: Vec<String>,
    feat: Feat,
    /// The bins of a numeric column, as compared with raw values (f32), in groups of eight
    /// padded with NaN (never `<=` a value): counting them is a fixed-width loop the compiler
    /// vectorizes, where a loop over a short slice of varying length would not.
    bins: Vec<[f32; 8]>,
}

impl Column {
    /// Discretizes a column of raw values into cell `col` of every row of `out` (rows of
    /// `stride` cells), deciding the kind once per column rather than once per cell.
    fn discretize_column(&self, raws: &[f32], out: &mut [u16], col: usize, stride: usize) {
        let rows = out.chunks_exact_mut(stride.max(1)).zip(raws);
        let cell = |row: &mut [u16], v: u16| {
            if let Some(c) = row.get_mut(col) {
                *c = v;
            }
        };
        match &self.kind {
            Kind::Flag => rows.for_each(|(row, &raw)| cell(row, u16::from(raw > 0.5))),
            Kind::Categorical => {
                let last = self.labels.len().saturating_sub(1);
                rows.for_each(|(row, &raw)| cell(row, (raw.max(0.0) as usize).min(last) as u16));
            }
            Kind::Numeric(_) => rows.for_each(|(row, &raw)| {
                let below = self
                    .bins
                    .iter()
                    .map(|group| group.iter().map(|&t| u16::from(t <= raw)).sum::<u16>());
                cell(row, below.sum());
            }),
        }
    }
}

/// The columns a configuration produces, in order.
#[derive(Clone, Debug)]
pub struct Schema {
    /// The columns.
    pub columns: Vec<Column>,
}

impl Schema {
    /// Index of the column with this name.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }

    /// Number of columns.
    pub fn len(&self) -> usize {
        self.columns.len()
    }

    /// Whether there are no columns.
    pub fn is_empty(&self) -> bool {
        self.columns.is_empty()
    }
}

/// Raw and discretized feature values of a page's blocks (row-major: block, then column).
#[derive(Clone, Debug, Default)]
pub struct FeatureTable {
    /// The page's language (ISO 639-3), when the langid or stopwords module detected one.
    pub language: Option<&'static str>,
    /// Number of blocks (rows).
    pub blocks: usize,
    /// Number of columns.
    pub columns: usize,
    /// Raw values, column after column (`columns x blocks`): each column is computed whole.
    raw: Vec<f32>,
    /// Discretized values, row after row (`blocks x columns`), as the labeler reads them.
    values: Vec<u16>,
}

impl FeatureTable {
    /// The raw value of a cell.
    #[inline]
    pub fn raw(&self, block: usize, col: usize) -> f32 {
        if block >= self.blocks {
            return 0.0;
        }
        self.raw
            .get(col * self.blocks + block)
            .copied()
            .unwrap_or(0.0)
    }

    /// The raw values of one column, one per block.
    #[inline]
    pub fn raw_column(&self, col: usize) -> &[f32] {
        self.raw
            .get(col * self.blocks..(col + 1) * self.blocks)
            .unwrap_or_default()
    }

    /// The discretized value of a cell.
    #[inline]
    pub fn value(&self, block: usize, col: usize) -> u16 {
        self.values
            .get(block * self.columns + col)
            .copied()
            .unwrap_or(0)
    }

    /// The discretized values of one block.
    #[inline]
    pub fn row(&self, block: usize) -> &[u16] {
        self.values
            .get(block * self.columns..(block + 1) * self.columns)
            .unwrap_or_default()
    }

    /// The discretized values of every block, row after row (`blocks x columns`).
    #[inline]
    pub fn values(&self) -> &[u16] {
        &self.values
    }
}

/// A compiled configuration that computes feature tables. Build one and share it across threads
/// (it is `Sync`); stop-word lists load on first use.
#[derive(Debug)]
pub struct Extractor {
    config: FeatureConfig,
    schema: Schema,
    containers: Vec<TagSet>,
    splits: Vec<TagSet>,
    /// Every `regexp` expression in one set, and each key's range of patterns in it.
    regexps: Option<RegexSet>,
    regex_ranges: Vec<std::ops::Range<usize>>,
    keywords: FxHashMap<String, u8>,
    /// Index of the keyword group named `content`, with `class_roles` on.
    content_group: Option<u8>,
    /// Keyword groups of `class_outer`, in column order.
    outer_groups: Vec<u8>,
    img_containers: u32,
    stop_words: StopWords,
    /// The stop-word vote, when the configuration asks for it instead of whatlang.
    stop_index: Option<StopIndex>,
    detector: whatlang::Detector,
    langs: Vec<&'static str>,
    modules: [bool; Module::ALL.len()],
}

/// A class name that marks a blog post's container: hAtom's `hentry`, microformats2's
/// `h-entry`, or WordPress's `post-<id>`.
fn is_post_marker(name: &str) -> bool {
    name == "hentry"
        || name == "h-entry"
        || name
            .strip_prefix("post-")
            .is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether a `class` value marks a blog post's container: a post marker, or WordPress's
/// `type-*` with `status-*`.
fn is_post_container(class: &str) -> bool {
    let names = || class.split_ascii_whitespace();
    names().any(is_post_marker)
        || (names().any(|n| n.starts_with("type-")) && names().any(|n| n.starts_with("status-")))
}

fn tag_set(names: &[String], what: &str) -> Result<TagSet, ConfigError> {
    let mut set = TagSet::default();
    for n in names {
        let t = Tag::lookup(n.as_bytes())
            .ok_or_else(|| ConfigError::UnknownTag(n.clone(), what.to_string()))?;
        set.insert(t);
    }
    Ok(set)
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

/// Whether `name` is a feature some module computes under this configuration.
fn known_feature_name(config: &FeatureConfig, name: &str) -> bool {
    if REGISTRY
        .iter()
        .any(|e| e.name == name && matches!(e.spec, Spec::Numeric(_)))
    {
        return true;
    }
    let class_of = |prefix: &str, suffixes: &[&str]| {
        name.strip_prefix(prefix).is_some_and(|rest| {
            suffixes.iter().any(|s| {
                rest.strip_suffix(s)
                    .is_some_and(|c| CHAR_CLASSES.contains(&c) || TOKEN_CLASSES.contains(&c))
            })
        })
    };
    if class_of("char.", &["-abs", "-rel"]) || class_of("token.", &["-abs", "-rel"]) {
        return true;
    }
    name.strip_prefix("split.")
        .is_some_and(|n| config.splits.contains_key(n))
        || name
            .strip_prefix("regexp.")
            .is_some_and(|n| config.regexp.contains_key(n))
}

/// The columns of a configuration as [`Extractor::new`] registers them, and the names whose
/// bins were used.
struct Columns<'a> {
    config: &'a FeatureConfig,
    cols: Vec<Column>,
    used_bins: FxHashSet<String>,
}

impl Columns<'_> {
    /// A numeric column, binned as the configuration says or else by `default`.
    fn numeric(
        &mut self,
        name: String,
        feat: Feat,
        default: Option<Vec<f64>>,
    ) -> Result<(), ConfigError> {
        let bins = match self.config.bins.get(&name) {
            Some(b) => b.clone(),
            None => default
                .ok_or_else(|| ConfigError::Invalid(format!("no bins for feature {name}")))?,
        };
        if bins.iter().any(|b| !b.is_finite()) || bins.windows(2).any(|w| w[0] >= w[1]) {
            return Err(ConfigError::Bins(name));
        }
        self.used_bins.insert(name.clone());
        let labels = (0..=bins.len()).map(|i| i.to_string()).collect();
        let bins32 = bins
            .chunks(8)
            .map(|c| {
                let mut group = [f32::NAN; 8];
                for (g, &b) in group.iter_mut().zip(c) {
                    *g = b as f32;
                }
                group
            })
            .collect();
        self.cols.push(Column {
            name,
            kind: Kind::Numeric(bins),
            labels,
            feat,
            bins: bins32,
        });
        Ok(())
    }

    /// A 0/1 column.
    fn flag(&mut self, name: String, feat: Feat) {
        self.cols.push(Column {
            name,
            kind: Kind::Flag,
            labels: vec!["0".into(), "1".into()],
            feat,
            bins: Vec::new(),
        });
    }

    /// A column of named values.
    fn categorical(
        &mut self,
        name: &str,
        feat: Feat,
        labels: Vec<String>,
    ) -> Result<(), ConfigError> {
        if let Some(bad) = labels.iter().find(|l| !valid_label(l)) {
            return Err(ConfigError::Invalid(format!(
                "value {bad:?} of {name} must use letters, digits, '-', '_', '.', '+' only"
            )));
        }
        self.cols.push(Column {
            name: name.to_string(),
            kind: Kind::Categorical,
            labels,
            feat,
            bins: Vec::new(),
        });
        Ok(())
    }

    /// The [`REGISTRY`] columns of module `m`, if it is on.
    fn fixed(&mut self, m: Module, on: impl Fn(Module) -> bool) -> Result<(), ConfigError> {
        if !on(m) {
            return Ok(());
        }
        for e in REGISTRY.iter().filter(|e| e.module == m) {
            match e.spec {
                Spec::Flag => self.flag(e.name.to_string(), e.feat),
                Spec::Numeric(default) => {
                    self.numeric(e.name.to_string(), e.feat, default.map(<[f64]>::to_vec))?
                }
                Spec::Categorical(values) => self.categorical(e.name, e.feat, values())?,
            }
        }
        Ok(())
    }
}

fn valid_label(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+'))
}

impl Extractor {
    /// Compiles a configuration.
    pub fn new(config: &FeatureConfig) -> Result<Extractor, ConfigError> {
        let mut modules = [false; Module::ALL.len()];
        for m in &config.modules {
            let module =
                Module::from_name(m).ok_or_else(|| ConfigError::UnknownModule(m.clone()))?;
            modules[module as usize] = true;
        }
        let on = |m: Module| modules[m as usize];
        let mut c = Columns {
            config,
            cols: Vec::new(),
            used_bins: FxHashSet::default(),
        };
        c.fixed(Module::Main, on)?;
        let mut containers = Vec::new();
        let mut img_containers = 0u32;
        let mut splits = Vec::new();
        if on(Module::Markup) {
            if config.containers.len() > 32 {
                return Err(ConfigError::Invalid("at most 32 container classes".into()));
            }
            for (k, (name, tags)) in config.containers.iter().enumerate() {
                let set = tag_set(tags, &format!("containers.{name}"))?;
                // img is void and never an ancestor: such a class means "shares its block-level
                // element with an image".
                if set.contains(Tag::IMG) {
                    img_containers |= 1 << k;
                }
                containers.push(set);
                c.flag(format!("container.{name}"), Feat::Container(k as u8));
            }
            c.fixed(Module::Markup, on)?;
            for (k, (name, tags)) in config.splits.iter().enumerate().take(255) {
                splits.push(tag_set(tags, &format!("splits.{name}"))?);
                c.numeric(
                    format!("split.{name}"),
                    Feat::Split(k as u8),
                    Some(vec![1.0, 2.0, 3.0]),
                )?;
            }
        }
        if on(Module::Content) {
            // Column order: char abs, char rel, token abs, token rel (each class in turn).
            let groups: [ClassColumns; 4] = [
                ("char", &CHAR_CLASSES, "abs", Feat::CharAbs),
                ("char", &CHAR_CLASSES, "rel", Feat::CharRel),
                ("token", &TOKEN_CLASSES, "abs", Feat::TokAbs),
                ("token", &TOKEN_CLASSES, "rel", Feat::TokRel),
            ];
            for (unit, classes, kind, feat) in groups {
                for (k, class) in classes.iter().enumerate() {
                    c.numeric(format!("{unit}.{class}-{kind}"), feat(k as u8), None)?;
                }
            }
            c.fixed(Module::Content, on)?;
        }
        c.fixed(Module::Sentence, on)?;
        c.fixed(Module::Duplicate, on)?;
        let mut patterns: Vec<String> = Vec::new();
        let mut regex_ranges: Vec<std::ops::Range<usize>> = Vec::new();
        if on(Module::Regexp) {
            for (k, (name, list)) in config.regexp.iter().enumerate().take(255) {
                let start = patterns.len();
                patterns.extend(list.iter().map(|r| ascii_boundaries(r)));
                regex_ranges.push(start..patterns.len());
                let default: Vec<f64> = (1..=list.len()).map(|i| i as f64).collect();
                c.numeric(
                    format!("regexp.{name}"),
                    Feat::Regexp(k as u8),
                    Some(default),
                )?;
            }
            if config.regexp.contains_key("date") || config.regexp.contains_key("time") {
                c.fixed(Module::Regexp, on)?;
            }
        }
        // All expressions in one set: a block is searched once, whatever the number of keys.
        let regexps = if patterns.is_empty() {
            None
        } else {
            Some(RegexSet::new(&patterns).map_err(|e| {
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
            })?)
        };
        for m in [
            Module::Groups,
            Module::LangId,
            Module::Document,
            Module::Paragraph,
            Module::StopWords,
        ] {
            c.fixed(m, on)?;
        }
        let langs = language_codes();
        let mut keywords = FxHashMap::default();
        let mut outer_groups = Vec::new();
        if on(Module::Class) {
            if config.class_keywords.len() > 250 {
                return Err(ConfigError::Invalid("at most 250 keyword groups".into()));
            }
            let mut values = vec!["none".to_string(), "other".to_string()];
            // Earlier groups win when a token is listed twice.
            for (g, group) in config.class_keywords.iter().enumerate().rev() {
                for t in &group.tokens {
                    keywords.insert(singular(&t.to_lowercase()).to_string(), g as u8);
                }
            }
            values.extend(config.class_keywords.iter().map(|g| g.group.clone()));
            for level in 0..config.class_depth.clamp(1, 2) {
                c.categorical(
                    &format!("class.{}", level + 1),
                    Feat::Class(level as u8),
                    values.clone(),
                )?;
            }
            for name in &config.class_outer {
                let g = config
                    .class_keywords
                    .iter()
                    .position(|k| &k.group == name)
                    .ok_or_else(|| {
                        ConfigError::Invalid(format!("class_outer: no keyword group {name:?}"))
                    })?;
                if outer_groups.len() == 32 {
                    return Err(ConfigError::Invalid(
                        "class_outer: at most 32 groups".into(),
                    ));
                }
                c.flag(
                    format!("class.in-{name}"),
                    Feat::ClassIn(outer_groups.len() as u8),
                );
                outer_groups.push(g as u8);
            }
        }
        for m in [
            Module::Title,
            Module::Bte,
            Module::Density,
            Module::JusText,
            Module::Kimatu,
        ] {
            c.fixed(m, on)?;
        }
        let Columns {
            cols, used_bins, ..
        } = c;
        // Bins may be listed for features of modules that are switched off; only names no
        // module could produce are errors (they are typos).
        if let Some(unknown) = config.bins.keys().find(|k| {
            !used_bins.contains(*k)
                && !cols.iter().any(|c| &c.name == *k)
                && !known_feature_name(config, k)
        }) {
            return Err(ConfigError::UnknownFeature(unknown.clone()));
        }
        let detector = if config.langid.allow.is_empty() {
            whatlang::Detector::new()
        } else {
            let mut list = Vec::new();
            for code in &config.langid.allow {
                list.push(whatlang::Lang::from_code(code.as_str()).ok_or_else(|| {
                    ConfigError::Invalid(format!("langid.allow: unknown language code {code:?}"))
                })?);
            }
            whatlang::Detector::with_allowlist(list)
        };
        Ok(Extractor {
            config: config.clone(),
            schema: Schema { columns: cols },
            containers,
            splits,
            regexps,
            regex_ranges,
            keywords,
            content_group: config
                .class_roles
                .then(|| {
                    config
                        .class_keywords
                        .iter()
                        .position(|g| g.group == "content")
                })
                .flatten()
                .map(|g| g as u8),
            outer_groups,
            img_containers,
            stop_words: StopWords::new(),
            stop_index: (config.langid.method == LangIdMethod::Stopwords
                && (config.has_module("langid") || config.has_module("stopwords")))
            .then(StopIndex::new),
            detector,
            langs,
            modules,
        })
    }

    /// The columns this extractor produces.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The configuration it was built from.
    pub fn config(&self) -> &FeatureConfig {
        &self.config
    }

    fn on(&self, m: Module) -> bool {
        self.modules[m as usize]
    }

    /// The language whatlang detects for the page (ISO 639-3), from a sample of its longest
    /// blocks; `None` if it cannot tell.
    pub fn page_language(&self, page: &Page) -> Option<whatlang::Lang> {
        // Blocks of running text in page order, then anything, until the sample is full.
        let limit = self.config.langid.page_sample_chars;
        let mut sample = String::with_capacity(limit + 256);
        for min_len in [60, 1] {
            for b in &page.blocks {
                if sample.len() >= limit {
                    break;
                }
                let t = page.block_text(b);
                if t.len() >= min_len && (min_len == 1 || tokens(t).nth(1).is_some()) {
                    sample.push_str(t);
                    sample.push(' ');
                }
            }
            if sample.len() >= limit / 2 {
                break;
            }
        }
        if sample.trim().is_empty() {
            return None;
        }
        if let Some(ix) = &self.stop_index {
            // A clear winner: enough stop words, at least twice the runner-up's.
            let (i, best, second) = ix.votes(&sample).best();
            if best >= STOP_VOTE_MIN && best >= 2 * second {
                return ix.lang(i);
            }
        }
        self.detector.detect_lang(&sample)
    }

    /// Keyword group of an element's `class`/`id` tokens: 0 none, 1 no keyword, 2.. group + 2.
    fn class_group(&self, page: &Page, e: u32) -> u8 {
        if e == 0 {
            return 0;
        }
        let el = page.element(e);
        let (c, i) = (page.class_of(el), page.id_of(el));
        if c.is_empty() && i.is_empty() {
            return 0;
        }
        if let Some(content) = self.content_group
            && is_post_container(c)
        {
            return content + 2;
        }
        let mut best: Option<u8> = None;
        for v in [c, i] {
            attr_tokens(v, |t| {
                if let Some(&g) = self.keywords.get(singular(t)) {
                    best = Some(best.map_or(g, |b| b.min(g)));
                }
            });
        }
        best.map_or(1, |g| g + 2)
    }

    /// Readability's class weight of an element: +25 for content keywords, -25 for boilerplate
    /// ones (comments, navigation, footers, sidebars, ads, sharing, metadata, lists, captions,
    /// mastheads), 0 otherwise.
    fn class_weight(&self, page: &Page, e: u32) -> f32 {
        self.group_weight(self.class_group(page, e))
    }

    /// [`Self::class_weight`] of an element in keyword group `g` (see [`Self::class_group`]).
    fn group_weight(&self, g: u8) -> f32 {
        match g {
            0 | 1 => 0.0,
            g => match self
                .config
                .class_keywords
                .get(usize::from(g - 2))
                .map(|k| k.group.as_str())
            {
                Some("content") => 25.0,
                Some("title") | None => 0.0,
                Some(_) => -25.0,
            },
        }
    }

    /// The readability-style candidate scores of a page's elements (for inspection; the
    /// `main` module turns them into features).
    pub fn candidates(&self, page: &Page) -> candidate::Candidates {
        let stats: Vec<TextStats> = page
            .blocks
            .iter()
            .map(|b| TextStats::of(page.block_text(b), None, &FxHashSet::default()))
            .collect();
        let st = Structure::of(page, &self.containers);
        candidate::candidates(
            page,
            &st,
            &stats,
            |e| self.unlikely(page, e),
            |e| self.class_weight(page, e),
        )
    }

    /// Whether an element's class/id names a region readability never takes for content
    /// (comments, navigation, footers, ads, sharing).
    fn unlikely(&self, page: &Page, e: u32) -> bool {
        self.group_unlikely(self.class_group(page, e))
    }

    /// [`Self::unlikely`] of an element in keyword group `g` (see [`Self::class_group`]).
    fn group_unlikely(&self, g: u8) -> bool {
        match g {
            0 | 1 => false,
            g => matches!(
                self.config
                    .class_keywords
                    .get(usize::from(g - 2))
                    .map(|k| k.group.as_str()),
                Some("comment" | "nav" | "footer" | "ad" | "social")
            ),
        }
    }

    /// Per element, bit `k` set when the element or an ancestor below `<body>` has a
    /// `class`/`id` token of the `k`-th `class_outer` group (empty without such groups).
    fn outer_masks(&self, page: &Page, st: &Structure) -> Vec<u32> {
        if self.outer_groups.is_empty() {
            return Vec::new();
        }
        let mut mask = vec![0u32; page.elements.len()];
        for &e in &st.order {
            let el = page.element(e);
            let mut m = mask.get(el.parent as usize).copied().unwrap_or(0);
            if !matches!(el.tag, Tag::BODY | Tag::HTML) {
                for v in [page.class_of(el), page.id_of(el)] {
                    attr_tokens(v, |t| {
                        if let Some(&g) = self.keywords.get(singular(t))
                            && let Some(k) = self.outer_groups.iter().position(|&o| o == g)
                        {
                            m |= 1 << k;
                        }
                    });
                }
            }
            mask[e as usize] = m;
        }
        mask
    }

    /// Computes the feature table of a page.
    pub fn extract(&self, page: &Page) -> FeatureTable {
        let n = page.blocks.len();
        let ncols = self.schema.columns.len();
        let mut table = FeatureTable {
            language: None,
            blocks: n,
            columns: ncols,
            raw: Vec::with_capacity(n * ncols),
            values: vec![0; n * ncols],
        };
        if n == 0 {
            return table;
        }
        let want_lang =
            self.on(Module::LangId) || self.on(Module::StopWords) || self.on(Module::JusText);
        let lang = if want_lang {
            self.page_language(page)
        } else {
            None
        };
        table.language = lang.map(|l| l.code());
        let stop = if self.on(Module::StopWords) {
            lang.and_then(|l| iso639_1(l.code()))
                .and_then(|c| self.stop_words.get(c))
        } else {
            None
        };
        let mut title_words: FxHashSet<u64> = FxHashSet::default();
        let mut title_len = 0u32;
        if self.on(Module::Title)
            && let Some(t) = &page.title
        {
            for w in tokens(t).filter(|w| w.chars().any(char::is_alphanumeric)) {
                if title_words.insert(word_hash(w)) {
                    title_len += 1;
                }
            }
        }
        let stats: Vec<TextStats> = page
            .blocks
            .iter()
            .map(|b| TextStats::of(page.block_text(b), stop, &title_words))
            .collect();
        let st = Structure::of(page, &self.containers);
        // Keyword group of every element, computed when first asked (the candidates and the
        // class features ask for the same elements many times); elements with the same class
        // and id (list items, cards) share one computation.
        let groups: Vec<Cell<u8>> = vec![Cell::new(GROUP_UNKNOWN); page.elements.len()];
        let by_attrs: RefCell<FxHashMap<(&str, &str), u8>> = RefCell::default();
        let group_of = |e: u32| -> u8 {
            // The group depends on the class and id alone (element 0, the root, has none).
            let Some(memo) = groups.get(e as usize).filter(|_| e != 0) else {
                return self.class_group(page, e);
            };
            if memo.get() == GROUP_UNKNOWN {
                let el = page.element(e);
                let key = (page.class_of(el), page.id_of(el));
                let g = *by_attrs
                    .borrow_mut()
                    .entry(key)
                    .or_insert_with(|| self.class_group(page, e));
                memo.set(g);
            }
            memo.get()
        };
        let cand = if self.on(Module::Main) || self.on(Module::Density) {
            candidate::candidates(
                page,
                &st,
                &stats,
                |e| self.group_unlikely(group_of(e)),
                |e| self.group_weight(group_of(e)),
            )
        } else {
            candidate::Candidates::default()
        };

        // Document totals and groups of words outside links.
        let mut doc_words = 0u32;
        let mut doc_sents = 0u32;
        let mut free_words = 0u32;
        let mut div_words = vec![0u32; page.elements.len().max(1)];
        let mut td_words = vec![0u32; page.elements.len().max(1)];
        for (b, s) in page.blocks.iter().zip(&stats) {
            doc_words += s.words;
            doc_sents += s.sentences;
            if !b.in_anchor {
                free_words += s.words;
                let info = st.of_block(b.parent);
                if let Some(w) = div_words.get_mut(info.div as usize) {
                    *w += s.words;
                }
                if let Some(w) = td_words.get_mut(info.td as usize) {
                    *w += s.words;
                }
            }
        }
        let ratio = |w: u32| {
            if free_words == 0 {
                0.0
            } else {
                w as f32 / free_words as f32
            }
        };
        let max_div = div_words.iter().copied().max().map_or(0.0, ratio);
        let max_td = td_words.iter().skip(1).copied().max().map_or(0.0, ratio);

        // Duplicates.
        // Duplicates among short blocks only: repeated phrases ("read more", "comments") are
        // boilerplate, but a page may well carry its article twice (print and screen versions).
        let mut dups: FxHashMap<u64, (u32, usize)> = FxHashMap::default();
        for (i, s) in stats.iter().enumerate() {
            if s.words <= DUPLICATE_MAX_WORDS {
                dups.entry(s.dup_key).or_insert((0, i)).0 += 1;
            }
        }

        // Blocks starting with the same two words ("Posted by", "Reply to"): the markers of
        // repeated structures such as comment lists.
        let mut prefixes: FxHashMap<u64, u32> = FxHashMap::default();
        for s in &stats {
            if s.prefix_key != 0 {
                *prefixes.entry(s.prefix_key).or_insert(0) += 1;
            }
        }

        // Paragraph aggregates.
        let np = st.paragraph_start.len().saturating_sub(1);
        let mut p_words = vec![0u32; np];
        let mut p_chars = vec![0u32; np];
        let mut p_link_chars = vec![0u32; np];
        let mut p_stop = vec![0u32; np];
        for (i, (b, s)) in page.blocks.iter().zip(&stats).enumerate() {
            let p = st.paragraph[i] as usize;
            let chars = s.total_chars();
            p_words[p] += s.words;
            p_chars[p] += chars;
            p_stop[p] += s.stop_words;
            if b.in_anchor {
                p_link_chars[p] += chars;
            }
        }

        // Per-block language confidence, for a few long blocks.
        let mut lang_block = vec![-1.0f32; n];
        if self.on(Module::LangId) {
            let min = self.config.langid.min_block_chars;
            let mut long: Vec<usize> = (0..n)
                .filter(|&i| stats[i].text_length() as usize >= min)
                .collect();
            for &i in &long {
                lang_block[i] = -0.5;
            }
            long.sort_unstable_by_key(|&i| std::cmp::Reverse(stats[i].text_length()));
            let by_votes = lang.and_then(|l| {
                let ix = self.stop_index.as_ref()?;
                Some((ix, ix.index_of(l)?))
            });
            if let Some((ix, page_lang)) = by_votes {
                // The block's stop words in the page's language, against the best language's.
                for &i in long.iter().take(self.config.langid.max_blocks) {
                    let v = ix.votes(block_sample(page.block_text(&page.blocks[i])));
                    let (_, best, _) = v.best();
                    let own = v.hits.get(page_lang).copied().unwrap_or(0);
                    lang_block[i] = if best == 0 {
                        0.0
                    } else {
                        f32::from(own) / f32::from(best)
                    };
                }
            } else if let Some(l) = lang {
                // Per block, the page's language competes with a few major languages only:
                // the question is "is this block in the page's language", and a short list
                // keeps whatlang several times cheaper than scoring every profile.
                let mut allow: Vec<whatlang::Lang> = RIVALS.to_vec();
                if !allow.contains(&l) {
                    allow.push(l);
                }
                let det = whatlang::Detector::with_allowlist(allow);
                for &i in long.iter().take(self.config.langid.max_blocks) {
                    lang_block[i] = match det.detect(block_sample(page.block_text(&page.blocks[i])))
                    {
                        Some(info) if info.lang() == l => info.confidence() as f32,
                        _ => 0.0,
                    };
                }
            }
        }
        let lang_value = lang
            .and_then(|l| self.langs.iter().position(|c| *c == l.code()))
            .unwrap_or(0) as f32;

        let nre = self.regex_ranges.len();
        let mut regex_hits: Vec<u16> = vec![0; n * nre];
        if let Some(set) = &self.regexps {
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
                for (k, range) in self.regex_ranges.iter().enumerate() {
                    // The first pattern of the key that matches, counted from 1.
                    if let Some(m) = matched.iter().find(|m| range.contains(m)) {
                        regex_hits[i * nre + k] = (m - range.start) as u16 + 1;
                    }
                }
            }
        }
        // Share of the blocks within DATE_WINDOW of each block that match a date or time
        // expression: comment lists and news tickers stamp every item.
        let mut date_window = vec![0f32; n];
        let dated: Vec<usize> = ["date", "time"]
            .iter()
            .filter_map(|k| self.config.regexp.keys().position(|x| x == k))
            .collect();
        if !dated.is_empty() && nre > 0 {
            let hit: Vec<u32> = (0..n)
                .map(|i| u32::from(dated.iter().any(|&k| regex_hits[i * nre + k] > 0)))
                .collect();
            let mut prefix = vec![0u32; n + 1];
            for i in 0..n {
                prefix[i + 1] = prefix[i] + hit[i];
            }
            for (i, w) in date_window.iter_mut().enumerate() {
                let a = i.saturating_sub(DATE_WINDOW);
                let z = (i + DATE_WINDOW + 1).min(n);
                let others = (z - a).saturating_sub(1);
                if others > 0 {
                    *w = (prefix[z] - prefix[a] - hit[i]) as f32 / others as f32;
                }
            }
        }
        let outer = self.outer_masks(page, &st);
        let infos: Vec<structure::ElemInfo> =
            page.blocks.iter().map(|b| st.of_block(b.parent)).collect();
        // Per block: its paragraph, the paragraph's first block and end, and the divisors of the
        // relative features.
        let para: Vec<(usize, usize, usize)> = (0..n)
            .map(|i| {
                let p = st.paragraph[i] as usize;
                let first = st.paragraph_start[p] as usize;
                let end = st.paragraph_start.get(p + 1).map_or(n, |&e| e as usize);
                (p, first, end)
            })
            .collect();
        let tchars: Vec<f32> = stats
            .iter()
            .map(|s| s.total_chars().max(1) as f32)
            .collect();
        let ttoks: Vec<f32> = stats
            .iter()
            .map(|s| s.total_tokens().max(1) as f32)
            .collect();
        let dens = if self.on(Module::Density) {
            candidate::density(page, &st, &cand)
        } else {
            candidate::Density::default()
        };
        let bte = if self.on(Module::Bte) {
            bte_windows(page, &stats)
        } else {
            (0..0, 0..0)
        };
        // jusText's classes of every block: context-free and final.
        let (mut justext_cf, mut justext_final) = (Vec::new(), Vec::new());
        if self.on(Module::JusText) {
            let stop = lang
                .and_then(|l| iso639_1(l.code()))
                .and_then(|c| self.stop_words.get(c));
            seeds::justext::block_classes_both(
                page,
                stop,
                &seeds::justext::Params::default(),
                &mut justext_cf,
                &mut justext_final,
            );
        }
        let (mut kimatu_rel, mut kimatu_kept) = (Vec::new(), Vec::new());
        if self.on(Module::Kimatu) {
            seeds::kimatu::block_signals(
                page,
                &seeds::kimatu::Params::default(),
                &mut kimatu_rel,
                &mut kimatu_kept,
            );
        }
        // Column by column, the feature decided once per column: each arm below is a tight
        // loop over the blocks.
        let mut column: Vec<f32> = vec![0.0; n];
        for (c, col) in self.schema.columns.iter().enumerate() {
            let col_out = &mut column[..];
            match col.feat {
                Feat::Container(k) => {
                    let bit = 1u32 << k;
                    let with_img = self.img_containers & bit != 0;
                    fill(col_out, |i| {
                        let info = &infos[i];
                        f32::from(u8::from(
                            info.containers & bit != 0 || (with_img && info.has_img),
                        ))
                    });
                }
                Feat::Hidden => fill(col_out, |i| f32::from(u8::from(infos[i].hidden))),
                Feat::Split(k) => {
                    let set = &self.splits[k as usize];
                    fill(col_out, |i| {
                        page.block_splits(&page.blocks[i])
                            .iter()
                            .filter(|sp| set.contains(sp.tag))
                            .map(|sp| u32::from(sp.opened) + u32::from(sp.closed))
                            .sum::<u32>() as f32
                    });
                }
                Feat::CharAbs(k) => fill(col_out, |i| stats[i].chars[k as usize] as f32),
                Feat::CharRel(k) => {
                    fill(col_out, |i| stats[i].chars[k as usize] as f32 / tchars[i]);
                }
                Feat::TokAbs(k) => fill(col_out, |i| stats[i].tokens[k as usize] as f32),
                Feat::TokRel(k) => {
                    fill(col_out, |i| stats[i].tokens[k as usize] as f32 / ttoks[i]);
                }
                Feat::TokUpperRel => fill(col_out, |i| {
                    let s = &stats[i];
                    s.upper_tokens as f32 / (s.tokens[0] + s.tokens[2]).max(1) as f32
                }),
                Feat::SentCount => fill(col_out, |i| stats[i].sentences as f32),
                Feat::SentAvgLen => fill(col_out, |i| {
                    stats[i].words as f32 / stats[i].sentences.max(1) as f32
                }),
                Feat::SentBegin => {
                    fill(col_out, |i| f32::from(u8::from(stats[i].sentence_begin)));
                }
                Feat::SentEnd => fill(col_out, |i| f32::from(u8::from(stats[i].sentence_end))),
                Feat::TextEnd => fill(col_out, |i| f32::from(stats[i].end)),
                Feat::FirstDup => fill(col_out, |i| {
                    let (count, first) = dups.get(&stats[i].dup_key).copied().unwrap_or((1, i));
                    f32::from(u8::from(count > 1 && first == i))
                }),
                Feat::DupCount => fill(col_out, |i| {
                    dups.get(&stats[i].dup_key).map_or(1, |d| d.0) as f32
                }),
                Feat::PrefixCount => fill(col_out, |i| {
                    prefixes.get(&stats[i].prefix_key).map_or(1, |c| *c) as f32
                }),
                Feat::DateWindow => col_out.copy_from_slice(&date_window),
                Feat::Regexp(k) => {
                    fill(col_out, |i| f32::from(regex_hits[i * nre + k as usize]));
                }
                Feat::DivGroup => fill(col_out, |i| {
                    ratio(div_words.get(infos[i].div as usize).copied().unwrap_or(0))
                }),
                Feat::TdGroup => fill(col_out, |i| {
                    let td = infos[i].td;
                    if td == 0 {
                        0.0
                    } else {
                        ratio(td_words.get(td as usize).copied().unwrap_or(0))
                    }
                }),
                Feat::LangPage => col_out.fill(lang_value),
                Feat::LangBlock => col_out.copy_from_slice(&lang_block),
                Feat::Position => fill(col_out, |i| (i as f32 + 0.5) / n as f32),
                Feat::DocWords => col_out.fill(doc_words as f32),
                Feat::DocSents => col_out.fill(doc_sents as f32),
                Feat::DocBlocks => col_out.fill(n as f32),
                Feat::DocMaxDiv => col_out.fill(max_div),
                Feat::DocMaxTd => col_out.fill(max_td),
                Feat::ParaWords => fill(col_out, |i| p_words[para[i].0] as f32),
                Feat::ParaLinkDensity => fill(col_out, |i| {
                    let p = para[i].0;
                    p_link_chars[p] as f32 / p_chars[p].max(1) as f32
                }),
                Feat::ParaBlocks => fill(col_out, |i| (para[i].2 - para[i].1) as f32),
                Feat::ParaPosition => fill(col_out, |i| {
                    let (_, p_first, p_end) = para[i];
                    if p_end - p_first == 1 {
                        0.0
                    } else if i == p_first {
                        1.0
                    } else if i + 1 == p_end {
                        3.0
                    } else {
                        2.0
                    }
                }),
                Feat::StopDensity => fill(col_out, |i| {
                    stats[i].stop_words as f32 / stats[i].words.max(1) as f32
                }),
                Feat::ParaStopDensity => fill(col_out, |i| {
                    let p = para[i].0;
                    p_stop[p] as f32 / p_words[p].max(1) as f32
                }),
                Feat::Class(level) => fill(col_out, |i| {
                    f32::from(group_of(infos[i].attr[level as usize & 1]))
                }),
                Feat::ClassIn(k) => fill(col_out, |i| {
                    let mask = outer.get(page.blocks[i].parent as usize).copied();
                    f32::from(u8::from(mask.unwrap_or(0) >> k & 1 == 1))
                }),
                Feat::TitleIn => fill(col_out, |i| {
                    stats[i].title_words as f32 / stats[i].words.max(1) as f32
                }),
                Feat::MainInBest => fill(col_out, |i| {
                    f32::from(u8::from(cand.in_best.get(i).copied().unwrap_or(false)))
                }),
                Feat::MainRatio => fill(col_out, |i| cand.ratio.get(i).copied().unwrap_or(0.0)),
                Feat::TitleCover => fill(col_out, |i| {
                    if title_len == 0 {
                        0.0
                    } else {
                        (stats[i].title_words as f32 / title_len as f32).min(1.0)
                    }
                }),
                Feat::DensityBestShare => fill(col_out, |_| dens.best_share),
                Feat::JustextCf => fill(col_out, |i| {
                    justext_cf.get(i).map_or(0.0, |c| f32::from(c.index()))
                }),
                Feat::JustextGood => fill(col_out, |i| {
                    f32::from(u8::from(
                        justext_final.get(i) == Some(&seeds::justext::Class::Good),
                    ))
                }),
                Feat::KimatuRelevance => fill(col_out, |i| {
                    kimatu_rel.get(i).copied().unwrap_or(0.0) as f32
                }),
                Feat::KimatuKept => fill(col_out, |i| {
                    f32::from(u8::from(kimatu_kept.get(i).copied().unwrap_or(false)))
                }),
                Feat::DensityPlace => fill(col_out, |i| {
                    f32::from(dens.place.get(i).copied().unwrap_or(0))
                }),
                Feat::DensityRegionShare => fill(col_out, |i| {
                    dens.region_share.get(i).copied().unwrap_or(0.0)
                }),
                Feat::DensityRegionLink => {
                    fill(col_out, |i| dens.region_link.get(i).copied().unwrap_or(0.0))
                }
                Feat::DensityInArticle => fill(col_out, |i| {
                    f32::from(u8::from(dens.in_article.get(i).copied().unwrap_or(false)))
                }),
                Feat::DensitySemantic => fill(col_out, |i| {
                    f32::from(u8::from(dens.semantic.get(i).copied().unwrap_or(false)))
                }),
                Feat::BteIn => fill(col_out, |i| f32::from(u8::from(bte.0.contains(&i)))),
                Feat::BteText => fill(col_out, |i| f32::from(u8::from(bte.1.contains(&i)))),
            }
            table.raw.extend_from_slice(&column);
            col.discretize_column(&column, &mut table.values, c, ncols);
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_are_indexed_by_their_place_and_named_once() {
        for (i, m) in Module::ALL.into_iter().enumerate() {
            assert_eq!(m as usize, i, "{m:?} indexes the switch array at its place");
            assert_eq!(Module::from_name(m.name()), Some(m));
        }
        assert_eq!(Module::from_name("Content"), None);
        let unknown = FeatureConfig {
            modules: vec!["content".into(), "nope".into()],
            ..FeatureConfig::default()
        };
        assert!(matches!(
            Extractor::new(&unknown),
            Err(ConfigError::UnknownModule(m)) if m == "nope"
        ));
    }
}
