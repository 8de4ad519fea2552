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
//!
//! # Layout, and adding a feature
//!
//! `registry.rs` lists every fixed column (module, name, extractor, discretization) and builds a
//! configuration's columns; `data.rs` measures a page once (text statistics, structure, keyword
//! groups, candidates, totals, languages, expression hits, the seeds' signals); `fill.rs` holds
//! one extractor per column, filling it from those measurements; `class.rs`, `langid.rs` and
//! `regexp.rs` hold the measurements of their modules; `table.rs` the schema and the table.
//!
//! A new feature is one entry in the registry's `REGISTRY` and one function in `fill.rs`
//! (`fn(&PageData, u8, &mut [f32])`), plus a row in the table above; a field of `PageData` only
//! when it needs a page-level measurement that is not there yet.

pub(crate) mod candidate;
mod charinfo;
mod class;
mod data;
mod fill;
mod langid;
pub(crate) mod lexicon;
mod module;
mod regexp;
mod registry;
mod repeat;
pub mod seeds;
pub(crate) mod structure;
mod table;
pub(crate) mod text;

pub use candidate::Candidates;
pub use module::Module;
pub use table::{Column, FeatureTable, Kind, Schema};

use crate::config::{ConfigError, FeatureConfig, LangIdMethod};
use data::PageData;
use lexicon::{Keywords, StopIndex, StopWords, singular};
use regexp::Regexps;
use registry::{Columns, known_feature_name, language_codes};
use structure::TagSet;
use table::Fill;
use text::{CHAR_CLASSES, TOKEN_CLASSES};
use victor_html::Page;
use victor_html::{KNOWN_TAGS, Tag};

/// A compiled configuration that computes feature tables. Build one and share it across threads
/// (it is `Sync`); stop-word lists load on first use.
#[derive(Debug)]
pub struct Extractor {
    config: FeatureConfig,
    schema: Schema,
    containers: Vec<TagSet>,
    splits: Vec<TagSet>,
    /// Per known tag (by id), the split classes it belongs to (`splits` read the other way
    /// round: a block's split records are read once for all the `split.*` columns).
    split_classes: Vec<Vec<u8>>,
    regexps: Regexps,
    keywords: Keywords,
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

fn tag_set(names: &[String], what: &str) -> Result<TagSet, ConfigError> {
    let mut set = TagSet::default();
    for n in names {
        let t = Tag::lookup(n.as_bytes())
            .ok_or_else(|| ConfigError::UnknownTag(n.clone(), what.to_string()))?;
        set.insert(t);
    }
    Ok(set)
}

/// The configured columns of the `markup` module around its fixed ones: a flag per container
/// class, then `container.hidden`, then a count per split class. Returns the container and
/// split tag sets, and the container classes that hold `img` (bit per class).
fn markup_columns(c: &mut Columns<'_>) -> Result<(Vec<TagSet>, Vec<TagSet>, u32), ConfigError> {
    let (mut containers, mut splits, mut img_containers) = (Vec::new(), Vec::new(), 0u32);
    if !c.on(Module::Markup) {
        return Ok((containers, splits, img_containers));
    }
    let config = c.config();
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
        c.flag(format!("container.{name}"), (fill::container, k as u8));
    }
    c.fixed(Module::Markup)?;
    for (k, (name, tags)) in config.splits.iter().enumerate().take(255) {
        splits.push(tag_set(tags, &format!("splits.{name}"))?);
        c.numeric(
            format!("split.{name}"),
            (fill::split, k as u8),
            Some(vec![1.0, 2.0, 3.0]),
        )?;
    }
    Ok((containers, splits, img_containers))
}

/// The columns of the `content` module: character counts (absolute, relative), token counts
/// (absolute, relative), each class in turn, then its fixed columns.
fn content_columns(c: &mut Columns<'_>) -> Result<(), ConfigError> {
    if !c.on(Module::Content) {
        return Ok(());
    }
    let groups: [(&str, &[&str], &str, Fill); 4] = [
        ("char", &CHAR_CLASSES, "abs", fill::char_abs),
        ("char", &CHAR_CLASSES, "rel", fill::char_rel),
        ("token", &TOKEN_CLASSES, "abs", fill::token_abs),
        ("token", &TOKEN_CLASSES, "rel", fill::token_rel),
    ];
    for (unit, classes, kind, f) in groups {
        for (k, class) in classes.iter().enumerate() {
            c.numeric(format!("{unit}.{class}-{kind}"), (f, k as u8), None)?;
        }
    }
    c.fixed(Module::Content)
}

/// The columns of the `regexp` module: one per expression key (the index of its first
/// matching expression), then `regexp.date-window` when a `date` or `time` key is configured.
fn regexp_columns(c: &mut Columns<'_>) -> Result<Regexps, ConfigError> {
    if !c.on(Module::Regexp) {
        return Ok(Regexps::default());
    }
    let config = c.config();
    for (k, (name, list)) in config.regexp.iter().enumerate().take(255) {
        let default: Vec<f64> = (1..=list.len()).map(|i| i as f64).collect();
        c.numeric(
            format!("regexp.{name}"),
            (fill::regexp, k as u8),
            Some(default),
        )?;
    }
    if config.regexp.contains_key("date") || config.regexp.contains_key("time") {
        c.fixed(Module::Regexp)?;
    }
    Regexps::new(config)
}

/// The columns of the `class` module: the keyword group of the nearest one or two ancestors
/// with a `class` or `id`, and a flag per `class_outer` group. Returns the keyword index
/// (singular, lowercase token -> group) and the outer groups in column order.
fn class_columns(c: &mut Columns<'_>) -> Result<(Keywords, Vec<u8>), ConfigError> {
    let mut keywords = Keywords::default();
    let mut outer_groups = Vec::new();
    if !c.on(Module::Class) {
        return Ok((keywords, outer_groups));
    }
    let config = c.config();
    if config.class_keywords.len() > 250 {
        return Err(ConfigError::Invalid("at most 250 keyword groups".into()));
    }
    let mut values = vec!["none".to_string(), "other".to_string()];
    // Earlier groups win when a token is listed twice.
    for (g, group) in config.class_keywords.iter().enumerate().rev() {
        for t in &group.tokens {
            keywords.insert(singular(&t.to_lowercase()), g as u8);
        }
    }
    values.extend(config.class_keywords.iter().map(|g| g.group.clone()));
    for level in 0..config.class_depth.clamp(1, 2) {
        c.categorical(
            &format!("class.{}", level + 1),
            (fill::class, level as u8),
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
            (fill::class_in, outer_groups.len() as u8),
        );
        outer_groups.push(g as u8);
    }
    Ok((keywords, outer_groups))
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
        // Columns in the order of `Module::ALL`.
        let mut c = Columns::new(config, modules);
        c.fixed(Module::Main)?;
        let (containers, splits, img_containers) = markup_columns(&mut c)?;
        content_columns(&mut c)?;
        c.fixed(Module::Sentence)?;
        c.fixed(Module::Duplicate)?;
        let regexps = regexp_columns(&mut c)?;
        c.fixed_span(Module::Groups, Module::StopWords)?;
        let (keywords, outer_groups) = class_columns(&mut c)?;
        c.fixed_span(Module::Title, Module::Declared)?;
        let (cols, used_bins) = c.finish();
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
            split_classes: (0..KNOWN_TAGS)
                .map(|t| {
                    (0..splits.len())
                        .filter(|&k| splits[k].contains(Tag(t as u16)))
                        .map(|k| k as u8)
                        .collect()
                })
                .collect(),
            splits,
            regexps,
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
            langs: language_codes(),
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

    /// Whether module `m` is switched on.
    fn on(&self, m: Module) -> bool {
        self.modules[m as usize]
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
            values: Vec::with_capacity(n * ncols),
            nan: false,
        };
        if n == 0 {
            return table;
        }
        let data = PageData::new(self, page);
        table.language = data.lang.map(|l| l.code());
        // Column by column, each column's extractor a tight loop over the blocks.
        let mut column: Vec<f32> = vec![0.0; n];
        let mut counts: Vec<u32> = Vec::with_capacity(n);
        for col in &self.schema.columns {
            (col.fill)(&data, col.arg, &mut column);
            // A fold rather than `any`: it tests the column a vector at a time.
            table.nan |= column.iter().fold(false, |nan, v| nan | v.is_nan());
            table.raw.extend_from_slice(&column);
            col.discretize_column(&column, &mut table.values, &mut counts);
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
