//! The feature configuration: which feature modules run, the tag classes and word lists they use,
//! and the bins that map continuous values to finite sets ("specified in the configuration",
//! Victor section 3.1, step 5).
//!
//! The configuration is a JSON file; the default ships as `templates/features.json` and is built
//! into the library ([`FeatureConfig::default`]). A model bundle stores the configuration it was
//! trained with, so labeling reproduces the features exactly.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The default configuration, `templates/features.json`.
pub const DEFAULT_CONFIG_JSON: &str = include_str!("../../../templates/features.json");

/// Version of the feature computations. A model trained with another version cannot be used:
/// raise it whenever a change alters the value of any feature for some page.
pub const FEATURE_VERSION: &str = "victor-features-1";

/// Why a configuration cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The JSON does not parse or does not have the expected shape.
    #[error("feature configuration is not valid JSON for victor: {0}")]
    Json(#[from] serde_json::Error),
    /// A regular expression does not compile.
    #[error("feature configuration: regexp.{name}[{index}] does not compile: {error}")]
    Regex {
        /// The feature (`url`, `date`, `time`).
        name: String,
        /// Index in its list.
        index: usize,
        /// The regex error.
        error: String,
    },
    /// Bins must be finite and strictly increasing.
    #[error("feature configuration: bins of {0} must be finite and strictly increasing")]
    Bins(String),
    /// A bin list names no feature this victor computes.
    #[error("feature configuration: bins given for unknown feature {0:?}")]
    UnknownFeature(String),
    /// A module name this victor does not know.
    #[error("feature configuration: unknown module {0:?}")]
    UnknownModule(String),
    /// A tag name in a class list is not an HTML tag victor knows.
    #[error("feature configuration: unknown tag {0:?} in {1}")]
    UnknownTag(String, String),
    /// A value label contains characters that templates cannot separate.
    #[error("feature configuration: {0}")]
    Invalid(String),
}

/// The feature configuration (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeatureConfig {
    /// Feature modules that run, by name (see [`crate::features::Module`]).
    pub modules: Vec<String>,
    /// `container.NAME`: a block gets 1 if any ancestor has one of these tags.
    pub containers: BTreeMap<String, Vec<String>>,
    /// `split.NAME`: number of these tags opened or closed since the previous block.
    pub splits: BTreeMap<String, Vec<String>>,
    /// `regexp.NAME`: index (1-based) of the first expression that matches the block, 0 if none.
    pub regexp: BTreeMap<String, Vec<String>>,
    /// Keyword groups for ancestor `class`/`id` tokens, in priority order (the first group with a
    /// matching token names the element).
    pub class_keywords: Vec<KeywordGroup>,
    /// How many of the nearest ancestors that carry a `class` or `id` are looked at.
    pub class_depth: usize,
    /// Read class names by their role (default off, as bundles made before this setting
    /// existed were trained): an element marked as a blog post's container (hAtom `hentry`,
    /// WordPress `type-*` with `status-*`, `post-123`) is `content` whatever its
    /// `category-*` and `tag-*` slugs say (`category-worth-sharing` is not a sharing bar), so
    /// that the readability-style candidate scoring does not drop it as unlikely.
    #[serde(default)]
    pub class_roles: bool,
    /// Keyword groups looked for on every ancestor, not only the nearest `class_depth`:
    /// `class.in-GROUP` is 1 when the block's element or any ancestor below `<body>` has a
    /// `class`/`id` token of the group (a comment's paragraph sits in `div.format-text` inside
    /// `dd.comment` inside `dl#comment-list`). Default none.
    #[serde(default)]
    pub class_outer: Vec<String>,
    /// Language identification.
    pub langid: LangIdConfig,
    /// Bins per feature name: thresholds `t1 < t2 < ...`; a value `v` falls in bin `i`, the number
    /// of thresholds `<= v`.
    pub bins: BTreeMap<String, Vec<f64>>,
}

/// A named group of whole `class`/`id` tokens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeywordGroup {
    /// The group's name (a feature value, so letters, digits, `-`, `_`, `.` only).
    pub group: String,
    /// Lowercase tokens; `main-content` and `mainContent` both give the tokens `main`, `content`.
    pub tokens: Vec<String>,
}

/// Settings of the `langid` module.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LangIdConfig {
    /// ISO 639-3 codes the detector may answer (empty: all languages whatlang knows).
    pub allow: Vec<String>,
    /// Blocks shorter than this (in characters, a CJK character counting three:
    /// `TextStats::text_length`) get no per-block detection (value "short").
    pub min_block_chars: usize,
    /// At most this many blocks per page are run through the detector (the longest first).
    pub max_blocks: usize,
    /// Characters of the page's longest blocks fed to page-level detection.
    pub page_sample_chars: usize,
    /// How languages are identified (default `whatlang`, as bundles made before this
    /// setting existed were trained).
    #[serde(default)]
    pub method: LangIdMethod,
}

/// How the `langid` and `stopwords` modules identify languages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LangIdMethod {
    /// whatlang's trigram and alphabet detector, for the page and for its longest blocks.
    #[default]
    Whatlang,
    /// A vote of stop words: the page's language is the one whose stop-word list covers most
    /// words of the sample, when it wins clearly (whatlang decides otherwise, e.g. for
    /// languages written without spaces); a block's confidence is its stop-word hits in the
    /// page's language over the best language's. About ten times cheaper than whatlang.
    Stopwords,
}

impl Default for FeatureConfig {
    /// The built-in configuration, `templates/features.json`, compiled into the crate.
    ///
    /// # Panics
    /// Only if that file, a constant of the build, does not parse: the test
    /// `shipped_configuration_parses` catches it before any release. An empty configuration in its place
    /// would turn every feature off without a word.
    fn default() -> Self {
        serde_json::from_str(DEFAULT_CONFIG_JSON)
            .expect("the built-in feature configuration templates/features.json parses")
    }
}

impl FeatureConfig {
    /// Parses a configuration from JSON.
    pub fn from_json(s: &str) -> Result<Self, ConfigError> {
        Ok(serde_json::from_str(s)?)
    }

    /// The configuration as pretty JSON.
    pub fn to_json(&self) -> String {
        // Structs of strings, numbers and lists, with string keys: nothing serde_json refuses
        // (a NaN becomes `null`).
        serde_json::to_string_pretty(self).expect("a feature configuration serializes")
    }

    /// Whether a module is switched on.
    pub fn has_module(&self, name: &str) -> bool {
        self.modules.iter().any(|m| m == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_configuration_parses() {
        let c =
            FeatureConfig::from_json(DEFAULT_CONFIG_JSON).expect("templates/features.json parses");
        assert!(c.has_module("markup") && c.has_module("content"));
        assert_eq!(c, FeatureConfig::default());
        let again = FeatureConfig::from_json(&c.to_json()).expect("round trip");
        assert_eq!(again, c);
        assert_eq!(c.langid.method, LangIdMethod::Stopwords);
    }

    #[test]
    fn bundles_without_a_language_method_keep_whatlang() {
        // Bundles trained before `langid.method` existed must extract the features they were
        // trained on.
        let mut v: serde_json::Value =
            serde_json::from_str(DEFAULT_CONFIG_JSON).expect("shipped configuration");
        if let Some(l) = v.get_mut("langid").and_then(|l| l.as_object_mut()) {
            l.remove("method");
        }
        let c = FeatureConfig::from_json(&v.to_string()).expect("parses without method");
        assert_eq!(c.langid.method, LangIdMethod::Whatlang);
    }

    #[test]
    fn bundles_without_the_class_settings_keep_them_off() {
        let shipped = FeatureConfig::default();
        assert!(shipped.class_roles);
        assert_eq!(shipped.class_outer, ["comment"]);
        let mut v: serde_json::Value =
            serde_json::from_str(DEFAULT_CONFIG_JSON).expect("shipped configuration");
        if let Some(o) = v.as_object_mut() {
            o.remove("class_roles");
            o.remove("class_outer");
        }
        let c = FeatureConfig::from_json(&v.to_string()).expect("parses without them");
        assert!(!c.class_roles);
        assert!(c.class_outer.is_empty());
    }
}
