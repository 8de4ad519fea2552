//! Finding the model bundle to use: `--model` takes a folder or a name, looked up by
//! [`victor::models::open`] (the search path, then the bundles built into the library);
//! without `--model`, the built-in default.

use std::path::Path;

use anyhow::Context;
use victor::decoding::Settled;
use victor::{Decoding, DecodingChoice, Method, Model, Threshold};

/// Loads `--model M` (see [`victor::models`] for the lookup), or, without `--model`, the
/// built-in default.
pub(crate) fn load(arg: Option<&Path>) -> anyhow::Result<Model> {
    match arg {
        None => victor::models::default_model().context("no --model given"),
        Some(p) => Ok(victor::models::open(p)?),
    }
}

/// The decoding options shared by `label` and `eval`.
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct DecodingArgs {
    /// Other-threshold T in [0, 1]: a block is other where P(other) >= T (default: the model's
    /// recommended decoding, or Viterbi if it has none).
    #[arg(
        long,
        value_name = "T",
        conflicts_with = "viterbi",
        allow_negative_numbers = true
    )]
    pub threshold: Option<Threshold>,
    /// Decode the most likely label sequence instead of thresholding.
    #[arg(long)]
    pub viterbi: bool,
    /// Expected-F1 decoding: each page gets the threshold that maximises its expected
    /// text-level F1 under the marginals, recalibrated as the bundle says, and keeps nothing if
    /// that is fewer words than the bundle's minimum (the default of bundles whose
    /// cross-validation chose it).
    #[arg(long, conflicts_with_all = ["viterbi", "threshold"])]
    pub expected_f1: bool,
}

impl DecodingArgs {
    /// The decoding chosen: `--viterbi`, `--expected-f1`, `--threshold T` (a [`Threshold`],
    /// checked as clap parsed it), or none (the bundle's recommended decoding).
    pub(crate) fn choice(&self) -> Option<DecodingChoice> {
        if self.viterbi {
            Some(DecodingChoice::Viterbi)
        } else if self.expected_f1 {
            Some(DecodingChoice::ExpectedF1)
        } else {
            self.threshold.map(|t| DecodingChoice::Threshold(Some(t)))
        }
    }

    /// The decoding asked for, settled with the bundle ([`victor::decoding::settle`]):
    /// expected-F1 decoding with its settings; without an option, its recommended decoding
    /// (Viterbi for a bundle without a threshold).
    pub(crate) fn decoding(&self, model: &Model) -> anyhow::Result<Decoding> {
        Ok(victor::decoding::settle(model, self.choice())?.decoding)
    }

    /// The decoding settled with the bundle, for a run labelling with `method` (`None`: the
    /// CRF), which [`DecodingArgs::check_method`] checks the options against.
    pub(crate) fn settle(&self, model: &Model, method: Option<Method>) -> anyhow::Result<Settled> {
        let settled = victor::decoding::settle(model, self.choice())?;
        self.check_method(method)?;
        Ok(settled)
    }

    /// Refuses a decoding option given with a rule-based `--method`: such a method labels by
    /// its own rules, with one-hot probabilities, so `--threshold`, `--viterbi` and
    /// `--expected-f1` would be ignored without a word (`None` is the CRF, which takes them).
    pub(crate) fn check_method(&self, method: Option<Method>) -> anyhow::Result<()> {
        let Some(method) = method else {
            return Ok(());
        };
        let given = self.choice().map(|c| match c {
            DecodingChoice::Threshold(_) => "--threshold",
            DecodingChoice::Viterbi => "--viterbi",
            DecodingChoice::ExpectedF1 => "--expected-f1",
        });
        match given {
            Some(option) => anyhow::bail!(
                "{option} applies to the CRF only: --method {} labels by its own rules, without probabilities to decode",
                method.name()
            ),
            None => Ok(()),
        }
    }
}
