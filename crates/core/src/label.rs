//! The label vocabulary of the Victor paper: `header` and `text` are content, `other` is noise.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The label of one text block.
///
/// Blocks that carry no annotation are [`Label::Other`], as in the Victor paper (section 4).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// A headline belonging to the content.
    Header,
    /// Running text of the content.
    Text,
    /// Everything else: navigation, advertisements, boilerplate.
    #[default]
    Other,
}

impl Label {
    /// All labels in a fixed order (header, text, other); arrays indexed by label use it.
    pub const ALL: [Label; 3] = [Label::Header, Label::Text, Label::Other];

    /// The lowercase name used in files and in CRF models.
    pub const fn as_str(self) -> &'static str {
        match self {
            Label::Header => "header",
            Label::Text => "text",
            Label::Other => "other",
        }
    }

    /// Position of the label in [`Label::ALL`].
    pub const fn index(self) -> usize {
        match self {
            Label::Header => 0,
            Label::Text => 1,
            Label::Other => 2,
        }
    }

    /// Whether the label marks content (header or text) rather than noise.
    pub const fn is_content(self) -> bool {
        !matches!(self, Label::Other)
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error for a string that names no label.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown label {0:?} (expected header, text or other)")]
pub struct UnknownLabel(pub String);

impl FromStr for Label {
    type Err = UnknownLabel;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "header" => Ok(Label::Header),
            "text" => Ok(Label::Text),
            "other" => Ok(Label::Other),
            _ => Err(UnknownLabel(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_strings_and_indices() {
        for (i, l) in Label::ALL.iter().enumerate() {
            assert_eq!(l.index(), i);
            assert_eq!(l.as_str().parse::<Label>(), Ok(*l));
        }
        assert!("Text".parse::<Label>().is_err());
        assert!(Label::Header.is_content() && Label::Text.is_content());
        assert!(!Label::Other.is_content());
    }
}
