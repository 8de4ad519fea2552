//! Settling the decoding: the one call that turns a bundle and a person's choice into the
//! [`Decoding`] a [`crate::Cleaner`] labels with, and says where it came from.
//!
//! A person chooses with a [`DecodingChoice`] (`--threshold T`, `--viterbi`, `--expected-f1`
//! on the command line; `decoding="threshold 0.4"` or `threshold=0.4` in Python, read by
//! [`choose`]) or not at all. [`settle`] completes the choice with the bundle's settings
//! (`victor_label::Model::decoding`, the one match from a choice to a decoding: expected-F1
//! decoding gets the bundle's calibration and minimum, a threshold without a value the bundle's
//! threshold) and, without a choice, takes the bundle's recommended decoding (Viterbi for a
//! bundle that recommends none). The decoders themselves are `victor_core`'s
//! ([`Decoding`], decided block by block in `core/src/decide.rs`).

use victor_core::{Decoding, DecodingChoice, DecodingChoiceError, Threshold, ThresholdError};
use victor_label::{Model, NoThreshold};

use crate::{Cleaner, Method};

/// Where a settled decoding came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The person's choice (completed by the bundle's settings).
    Chosen,
    /// The bundle's recommendation (its cross-validation's threshold or expected-F1 decoding).
    Recommended,
    /// Viterbi decoding: the bundle recommends no decoding and none was chosen.
    Default,
}

/// A decoding settled from a bundle and a choice ([`settle`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settled {
    /// The complete decoding.
    pub decoding: Decoding,
    /// Where it came from.
    pub source: Source,
}

impl Settled {
    /// The name outputs give the labelling (the `decoding` of a JSON line): a rule-based
    /// method's name when one labels instead of the CRF, else the decoding's (`viterbi`,
    /// `expected-f1`, `threshold 0.7`).
    pub fn name(&self, method: Option<Method>) -> String {
        match method {
            Some(m) => m.name().to_string(),
            None => self.decoding.to_string(),
        }
    }
}

/// The decoding a bundle labels with under a person's choice (`None`: none made).
///
/// # Errors
///
/// [`NoThreshold`] for a threshold without a value, from a bundle that recommends none.
pub fn settle(model: &Model, choice: Option<DecodingChoice>) -> Result<Settled, NoThreshold> {
    let source = match choice {
        Some(_) => Source::Chosen,
        None if model.recommended_threshold().is_some() => Source::Recommended,
        None => Source::Default,
    };
    Ok(Settled {
        decoding: model.decoding(choice)?,
        source,
    })
}

/// Why a decoding's name and a threshold make no choice ([`choose`]).
#[derive(Debug, thiserror::Error)]
pub enum ChoiceError {
    /// The name is no decoding's.
    #[error(transparent)]
    Name(#[from] DecodingChoiceError),
    /// The threshold is out of range.
    #[error("threshold: {0}")]
    Threshold(#[from] ThresholdError),
    /// A threshold given with a decoding other than a threshold (the name given).
    #[error("threshold goes with decoding=\"threshold\", not {0:?}")]
    Conflict(String),
}

/// The choice a decoding's name (`"viterbi"`, `"expected-f1"`, `"threshold"`, `"threshold
/// 0.4"`, read as [`DecodingChoice`] reads them) and a threshold make together, as the Python
/// package's `Cleaner(decoding=..., threshold=...)` takes them: a threshold alone, or with the
/// name `threshold`, is that threshold; neither is no choice.
///
/// # Errors
///
/// [`ChoiceError`]: an unknown name, a threshold out of range, or a threshold with another
/// decoding.
pub fn choose(
    name: Option<&str>,
    threshold: Option<f64>,
) -> Result<Option<DecodingChoice>, ChoiceError> {
    let choice = name.map(str::parse::<DecodingChoice>).transpose()?;
    let threshold = threshold.map(Threshold::new).transpose()?;
    Ok(match (choice, threshold) {
        (None, None) => None,
        (None | Some(DecodingChoice::Threshold(None)), Some(t)) => {
            Some(DecodingChoice::Threshold(Some(t)))
        }
        (Some(c), None) => Some(c),
        (Some(_), Some(_)) => {
            return Err(ChoiceError::Conflict(name.unwrap_or_default().to_string()));
        }
    })
}

impl Cleaner {
    /// The same model with the decoding a person chose, completed by the bundle ([`settle`]).
    ///
    /// # Errors
    ///
    /// [`NoThreshold`] for a threshold without a value, from a bundle that recommends none.
    pub fn with_choice(&self, choice: DecodingChoice) -> Result<Cleaner, NoThreshold> {
        Ok(self.with_decoding(settle(self.model(), Some(choice))?.decoding))
    }
}

#[cfg(all(test, feature = "builtin"))]
mod tests {
    use super::*;

    #[test]
    fn a_choice_settles_with_its_source_and_names_read_as_python_gives_them() {
        let c = Cleaner::builtin().expect("builtin");
        let model = c.model();
        let none = settle(model, None).expect("settles");
        assert_eq!(none.decoding, model.recommended_decoding());
        assert_ne!(none.source, Source::Chosen);
        let v = settle(model, Some(DecodingChoice::Viterbi)).expect("settles");
        assert_eq!((v.decoding, v.source), (Decoding::Viterbi, Source::Chosen));
        assert_eq!(v.name(None), "viterbi");
        assert_eq!(v.name(Some(Method::Justext)), Method::Justext.name());
        let t = Threshold::new(0.4).expect("a threshold");
        assert_eq!(
            choose(Some("threshold"), Some(0.4)).expect("a choice"),
            Some(DecodingChoice::Threshold(Some(t)))
        );
        assert_eq!(choose(None, None).expect("no choice"), None);
        assert!(matches!(
            choose(Some("viterbi"), Some(0.4)),
            Err(ChoiceError::Conflict(n)) if n == "viterbi"
        ));
        assert!(choose(None, Some(1.5)).is_err());
        assert!(choose(Some("fast"), None).is_err());
        let e = c.with_choice(DecodingChoice::ExpectedF1).expect("settles");
        assert_eq!(e.decoding(), Decoding::ExpectedF1(model.expected_options()));
    }
}
