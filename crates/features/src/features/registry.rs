//! The feature registry: every column whose name and values no configuration changes, with its
//! module, its discretization and the function that computes it ([`REGISTRY`]); and the builder
//! that lays out a configuration's columns ([`Columns`]).
//!
//! Adding a feature is one [`Entry`] here and one function in [`super::fill`] that fills its
//! column from the page's shared measurements ([`PageData`](super::data::PageData)).

use rustc_hash::FxHashSet;

use super::candidate;
use super::fill;
use super::module::Module;
use super::seeds;
use super::table::{Column, Fill, Kind};
use super::text::{CHAR_CLASSES, END_CLASSES, TOKEN_CLASSES};
use crate::config::{ConfigError, FeatureConfig};

/// How a registered column is discretized.
#[derive(Clone, Copy)]
pub(super) enum Spec {
    /// 0 or 1.
    Flag,
    /// Bins from the configuration, else these (`None`: the configuration must give them).
    Numeric(Option<&'static [f64]>),
    /// The names of its values.
    Categorical(fn() -> Vec<String>),
}

/// One feature column whose name and values no configuration changes: its module, name, the
/// function that computes it, and its discretization.
pub(super) struct Entry {
    module: Module,
    name: &'static str,
    fill: Fill,
    spec: Spec,
}

const fn entry(module: Module, name: &'static str, fill: Fill, spec: Spec) -> Entry {
    Entry {
        module,
        name,
        fill,
        spec,
    }
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Values of `paragraph.position`.
pub(super) const PARA_POSITIONS: [&str; 4] = ["only", "first", "middle", "last"];

/// Default bins of the items in a run of repeated items (below 2.5: in no run).
const RUN_ITEMS: [f64; 4] = [2.5, 4.5, 9.5, 24.5];

/// Default bins of the density shares.
const SHARES: [f64; 6] = [0.02, 0.05, 0.1, 0.25, 0.5, 0.75];

/// The fixed columns, module by module in column order. The columns a configuration names
/// (containers, splits, character and token classes, expressions, class levels and outer
/// groups) are registered in [`super::Extractor::new`] around them.
#[rustfmt::skip]
const REGISTRY: &[Entry] = {
    use Module as M;
    use Spec::{Categorical as C, Flag, Numeric as N};
    use fill as f;
    &[
        entry(M::Main, "main.in-best", f::main_in_best, Flag),
        entry(M::Main, "main.ratio", f::main_ratio, N(None)),
        entry(M::Markup, "container.hidden", f::hidden, Flag),
        entry(M::Content, "token.upper-rel", f::token_upper_rel, N(None)),
        entry(M::Sentence, "sentence.count", f::sentence_count, N(None)),
        entry(M::Sentence, "sentence.avg-length", f::sentence_avg_length, N(None)),
        entry(M::Sentence, "sentence-begin", f::sentence_begin, Flag),
        entry(M::Sentence, "sentence-end", f::sentence_end, Flag),
        entry(M::Sentence, "text.end", f::text_end, C(|| names(&END_CLASSES))),
        entry(M::Duplicate, "first-duplicate", f::first_duplicate, Flag),
        entry(M::Duplicate, "duplicate-count", f::duplicate_count, N(None)),
        entry(M::Duplicate, "duplicate.prefix-count", f::prefix_count, N(None)),
        // Only with a `date` or `time` expression configured.
        entry(M::Regexp, "regexp.date-window", f::date_window, N(None)),
        entry(M::Groups, "div-group.word-ratio", f::div_group, N(None)),
        entry(M::Groups, "td-group.word-ratio", f::td_group, N(None)),
        entry(M::LangId, "langid.page", f::lang_page, C(language_names)),
        entry(M::LangId, "langid.block", f::lang_block, N(None)),
        entry(M::Document, "position", f::position, N(None)),
        entry(M::Document, "document.word-count", f::doc_words, N(None)),
        entry(M::Document, "document.sentence-count", f::doc_sentences, N(None)),
        entry(M::Document, "document.block-count", f::doc_blocks, N(None)),
        entry(M::Document, "document.max-div-group", f::doc_max_div, N(None)),
        entry(M::Document, "document.max-td-group", f::doc_max_td, N(None)),
        entry(M::Paragraph, "paragraph.word-count", f::para_words, N(None)),
        entry(M::Paragraph, "paragraph.link-density", f::para_link_density, N(None)),
        entry(M::Paragraph, "paragraph.blocks", f::para_blocks, N(None)),
        entry(M::Paragraph, "paragraph.position", f::para_position, C(|| names(&PARA_POSITIONS))),
        entry(M::StopWords, "stopword-density", f::stop_density, N(None)),
        entry(M::StopWords, "paragraph.stopword-density", f::para_stop_density, N(None)),
        entry(M::Title, "title.in-title", f::title_in, N(None)),
        entry(M::Title, "title.cover", f::title_cover, N(None)),
        entry(M::Bte, "bte.in", f::bte_in, Flag),
        entry(M::Bte, "bte.in-text", f::bte_in_text, Flag),
        entry(M::Density, "density.best-share", f::density_best_share, N(Some(&SHARES))),
        entry(M::Density, "density.place", f::density_place, C(|| names(&candidate::PLACES))),
        entry(M::Density, "density.region-share", f::density_region_share, N(Some(&SHARES))),
        entry(M::Density, "density.region-link", f::density_region_link, N(Some(&[0.05, 0.2, 0.4, 0.6, 0.8]))),
        entry(M::Density, "density.semantic", f::density_semantic, Flag),
        entry(M::Density, "density.in-article", f::density_in_article, Flag),
        entry(M::JusText, "justext.cf", f::justext_cf, C(justext_names)),
        entry(M::JusText, "justext.good", f::justext_good, Flag),
        entry(M::Kimatu, "kimatu.relevance", f::kimatu_relevance, N(Some(&[-1.5, -1.0, -0.5, 0.0, 0.1, 0.32, 0.5]))),
        entry(M::Kimatu, "kimatu.kept", f::kimatu_kept, Flag),
        entry(M::Repeat, "repeat.items", f::repeat_items, N(Some(&RUN_ITEMS))),
        entry(M::Repeat, "repeat.share", f::repeat_share, N(Some(&SHARES))),
        entry(M::Repeat, "repeat.item-words", f::repeat_item_words, N(Some(&[5.0, 15.0, 40.0, 100.0, 250.0]))),
        entry(M::Repeat, "repeat.spread", f::repeat_spread, N(Some(&[0.3, 0.6, 1.0, 1.5]))),
        entry(M::Repeat, "repeat.first-item", f::repeat_first_item, Flag),
        entry(M::Repeat, "repeat.item-start", f::repeat_item_start, Flag),
        entry(M::Repeat, "repeat.page-share", f::repeat_page_share, N(Some(&SHARES))),
        entry(M::Repeat, "repeat.page-items", f::repeat_page_items, N(Some(&RUN_ITEMS))),
        entry(M::Declared, "page.declared", f::page_declared, C(declared_names)),
    ]
};

/// The values of `page.declared`: the kinds a page declares.
fn declared_names() -> Vec<String> {
    crate::Declared::ALL
        .iter()
        .map(|d| d.name().to_string())
        .collect()
}

/// The values of `justext.cf`: jusText's classes.
fn justext_names() -> Vec<String> {
    seeds::justext::Class::ALL
        .iter()
        .map(|c| c.name().to_string())
        .collect()
}

/// The values of `langid.page`: `unknown`, then whatlang's ISO 639-3 codes in order.
fn language_names() -> Vec<String> {
    names(&language_codes())
}

/// `unknown`, then whatlang's ISO 639-3 codes in order: the index of a page's language.
pub(super) fn language_codes() -> Vec<&'static str> {
    let mut langs: Vec<&'static str> = whatlang::Lang::all().iter().map(|l| l.code()).collect();
    langs.sort_unstable();
    langs.insert(0, "unknown");
    langs
}

/// Whether `name` is a feature some module computes under this configuration.
pub(super) fn known_feature_name(config: &FeatureConfig, name: &str) -> bool {
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

/// The columns of a configuration as [`super::Extractor::new`] registers them, and the names
/// whose bins were used.
pub(super) struct Columns<'a> {
    config: &'a FeatureConfig,
    modules: [bool; Module::ALL.len()],
    cols: Vec<Column>,
    used_bins: FxHashSet<String>,
}

impl<'a> Columns<'a> {
    /// No columns yet, for a configuration and its switched-on modules.
    pub(super) fn new(config: &'a FeatureConfig, modules: [bool; Module::ALL.len()]) -> Self {
        Columns {
            config,
            modules,
            cols: Vec::new(),
            used_bins: FxHashSet::default(),
        }
    }

    /// A numeric column, binned as the configuration says or else by `default`.
    pub(super) fn numeric(
        &mut self,
        name: String,
        (fill, arg): (Fill, u8),
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
            fill,
            arg,
            bins: bins32,
        });
        Ok(())
    }

    /// A 0/1 column.
    pub(super) fn flag(&mut self, name: String, (fill, arg): (Fill, u8)) {
        self.cols.push(Column {
            name,
            kind: Kind::Flag,
            labels: vec!["0".into(), "1".into()],
            fill,
            arg,
            bins: Vec::new(),
        });
    }

    /// A column of named values.
    pub(super) fn categorical(
        &mut self,
        name: &str,
        (fill, arg): (Fill, u8),
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
            fill,
            arg,
            bins: Vec::new(),
        });
        Ok(())
    }

    /// The configuration.
    pub(super) fn config(&self) -> &'a FeatureConfig {
        self.config
    }

    /// The columns, and the names whose configured bins they use.
    pub(super) fn finish(self) -> (Vec<Column>, FxHashSet<String>) {
        (self.cols, self.used_bins)
    }

    /// Whether module `m` is switched on.
    pub(super) fn on(&self, m: Module) -> bool {
        self.modules[m as usize]
    }

    /// The [`REGISTRY`] columns of module `m`, if it is on.
    pub(super) fn fixed(&mut self, m: Module) -> Result<(), ConfigError> {
        if !self.on(m) {
            return Ok(());
        }
        for e in REGISTRY.iter().filter(|e| e.module == m) {
            let how = (e.fill, 0);
            match e.spec {
                Spec::Flag => self.flag(e.name.to_string(), how),
                Spec::Numeric(default) => {
                    self.numeric(e.name.to_string(), how, default.map(<[f64]>::to_vec))?
                }
                Spec::Categorical(values) => self.categorical(e.name, how, values())?,
            }
        }
        Ok(())
    }

    /// The [`REGISTRY`] columns of the modules from `first` to `last`, both included, in
    /// [`Module::ALL`]'s order (which the columns follow), those that are on.
    pub(super) fn fixed_span(&mut self, first: Module, last: Module) -> Result<(), ConfigError> {
        for &m in &Module::ALL[first as usize..=last as usize] {
            self.fixed(m)?;
        }
        Ok(())
    }
}

fn valid_label(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+'))
}
