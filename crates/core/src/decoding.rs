//! How labels are chosen from the marginals, as complete values: a [`Decoding`] carries
//! everything it needs (the [`Threshold`], checked once when it is made; the settings of
//! expected-F1 decoding), and a [`DecodingChoice`] is a decoding as a person names it, before a
//! model bundle completes it.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize};

/// An other-threshold: a number within 0 and 1 (both included). A block is `other` where
/// P(other) >= it. The range is checked here, when the value is made ([`Threshold::new`],
/// [`str::parse`], deserialisation), and nowhere else.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Serialize)]
#[serde(transparent)]
pub struct Threshold(f64);

/// Why a value is not a [`Threshold`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ThresholdError {
    /// The text is not a number.
    #[error("{0:?} is not a number")]
    NotANumber(String),
    /// A number outside [0, 1], or NaN.
    #[error("must be within 0 and 1, got {0}")]
    OutOfRange(f64),
}

impl Threshold {
    /// `value` as a threshold, if it is within 0 and 1 (not NaN).
    ///
    /// # Errors
    ///
    /// [`ThresholdError::OutOfRange`] for anything else.
    pub fn new(value: f64) -> Result<Threshold, ThresholdError> {
        if (0.0..=1.0).contains(&value) {
            Ok(Threshold(value))
        } else {
            Err(ThresholdError::OutOfRange(value))
        }
    }

    /// The number.
    pub const fn get(self) -> f64 {
        self.0
    }
}

impl FromStr for Threshold {
    type Err = ThresholdError;

    /// A number within 0 and 1, spaces around it ignored (`--threshold 0.45`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let x: f64 = s
            .trim()
            .parse()
            .map_err(|_| ThresholdError::NotANumber(s.to_string()))?;
        Threshold::new(x)
    }
}

impl fmt::Display for Threshold {
    /// Six decimals at most: bundles trained before the threshold grid was exact hold values
    /// such as 0.7000000000000001, shown as 0.7.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", (self.0 * 1e6).round() / 1e6)
    }
}

impl<'de> Deserialize<'de> for Threshold {
    /// A number within 0 and 1; anything else is refused with the value in the message (a
    /// bundle's `"value": 1.5` says `threshold 1.5 is not within 0 and 1`).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let x = f64::deserialize(d)?;
        Threshold::new(x)
            .map_err(|_| serde::de::Error::custom(format!("threshold {x} is not within 0 and 1")))
    }
}

/// A monotone map of P(other) applied before expected-F1 decoding:
/// `logit(q') = scale * logit(q) + shift`. `scale < 1` softens the marginals, `shift > 0` makes
/// every block likelier `other`. With `spread > 0`, the expected F1 is also averaged over a
/// shift of the whole page's log-odds (the label crate's `expected` module explains it).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// Multiplies the log-odds of `other`.
    pub scale: f64,
    /// Is added to them.
    pub shift: f64,
    /// Standard deviation of the page-wide shift of the log-odds (0: blocks independent).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub spread: f64,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

impl Default for Calibration {
    fn default() -> Self {
        Calibration::IDENTITY
    }
}

impl Calibration {
    /// Marginals as they are.
    pub const IDENTITY: Calibration = Calibration {
        scale: 1.0,
        shift: 0.0,
        spread: 0.0,
    };

    /// Whether this is the identity (bundles leave it out of `victor.json` then).
    pub fn is_identity(&self) -> bool {
        *self == Calibration::IDENTITY
    }

    /// The recalibrated P(other) (scale and shift; the spread acts in the decoding); 0 and 1
    /// stay where they are.
    pub fn apply(&self, q: f64) -> f64 {
        if (self.scale == 1.0 && self.shift == 0.0) || q <= 0.0 || q >= 1.0 || q.is_nan() {
            return q;
        }
        let l = self.scale * (q / (1.0 - q)).ln() + self.shift;
        1.0 / (1.0 + (-l).exp())
    }
}

/// The settings of expected-F1 decoding, as a bundle records them (the default: the identity
/// calibration and no minimum).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ExpectedOptions {
    /// The recalibration of P(other).
    pub calibration: Calibration,
    /// A page whose kept blocks hold fewer words than this keeps nothing.
    pub min_words: u32,
}

/// How labels are chosen from the marginals: a complete value, ready to decode with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Decoding {
    /// `other` where P(other) >= T, else the likelier of header and text.
    Threshold(Threshold),
    /// The most likely label sequence.
    Viterbi,
    /// A threshold per page: the one that maximises the page's expected text-level F1 under the
    /// marginals recalibrated by these settings (the label crate's `expected` module).
    ExpectedF1(ExpectedOptions),
}

impl fmt::Display for Decoding {
    /// The short name used in tables, CSV, JSON and the Python binding: `viterbi`,
    /// `expected-f1` (its settings are the bundle's, not named) or `threshold T`, T with six
    /// decimals at most (as [`Threshold`] shows it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decoding::Viterbi => f.write_str("viterbi"),
            Decoding::ExpectedF1(_) => f.write_str("expected-f1"),
            Decoding::Threshold(t) => write!(f, "threshold {t}"),
        }
    }
}

/// A decoding as a person names it (`victor label --viterbi`, Python's
/// `decoding="expected-f1"`), before a model bundle completes it: expected-F1 decoding takes
/// the bundle's settings, and a threshold without a value the bundle's recommended one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DecodingChoice {
    /// A threshold: this one, or (`None`) the bundle's.
    Threshold(Option<Threshold>),
    /// Viterbi decoding.
    Viterbi,
    /// Expected-F1 decoding with the bundle's settings.
    ExpectedF1,
}

/// Why a text names no decoding.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DecodingChoiceError {
    /// Not one of the names.
    #[error("decoding must be \"threshold\", \"viterbi\" or \"expected-f1\", not {0:?}")]
    Unknown(String),
    /// `threshold T` with a T that is not a threshold.
    #[error("threshold {0}")]
    Threshold(#[from] ThresholdError),
}

impl FromStr for DecodingChoice {
    type Err = DecodingChoiceError;

    /// `viterbi`, `expected-f1`, `threshold` (the bundle's), or `threshold T` (as a
    /// [`Decoding`] shows itself, so that a decoding's name reads back).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "viterbi" => Ok(DecodingChoice::Viterbi),
            "expected-f1" => Ok(DecodingChoice::ExpectedF1),
            "threshold" => Ok(DecodingChoice::Threshold(None)),
            t => match t.strip_prefix("threshold ") {
                Some(value) => Ok(DecodingChoice::Threshold(Some(value.parse()?))),
                None => Err(DecodingChoiceError::Unknown(s.to_string())),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_checked_once_when_made() {
        assert_eq!(Threshold::new(0.0).map(Threshold::get), Ok(0.0));
        assert_eq!(Threshold::new(1.0).map(Threshold::get), Ok(1.0));
        for bad in [-0.1, 1.5, f64::NAN, f64::INFINITY] {
            assert!(Threshold::new(bad).is_err(), "{bad}");
        }
        assert_eq!(" 0.25 ".parse::<Threshold>().map(Threshold::get), Ok(0.25));
        assert_eq!(
            "1.5".parse::<Threshold>().unwrap_err().to_string(),
            "must be within 0 and 1, got 1.5"
        );
        assert!("NaN".parse::<Threshold>().is_err());
        assert_eq!(
            "x".parse::<Threshold>().unwrap_err().to_string(),
            "\"x\" is not a number"
        );
        let e = serde_json::from_str::<Threshold>("1.5").unwrap_err();
        assert!(
            e.to_string()
                .contains("threshold 1.5 is not within 0 and 1"),
            "{e}"
        );
        assert_eq!(
            serde_json::from_str::<Threshold>("0.45").ok(),
            Threshold::new(0.45).ok()
        );
    }

    #[test]
    fn decodings_have_short_names_that_read_back() {
        let t = |x| Decoding::Threshold(Threshold::new(x).unwrap());
        assert_eq!(Decoding::Viterbi.to_string(), "viterbi");
        let e = Decoding::ExpectedF1(ExpectedOptions::default());
        assert_eq!(e.to_string(), "expected-f1");
        assert_eq!(t(0.7000000000000001).to_string(), "threshold 0.7");
        assert_eq!(t(0.45).to_string(), "threshold 0.45");
        let choice = |s: &str| s.parse::<DecodingChoice>();
        assert_eq!(choice("viterbi"), Ok(DecodingChoice::Viterbi));
        assert_eq!(choice("expected-f1"), Ok(DecodingChoice::ExpectedF1));
        assert_eq!(choice("threshold"), Ok(DecodingChoice::Threshold(None)));
        assert_eq!(
            choice("threshold 0.45"),
            Ok(DecodingChoice::Threshold(Threshold::new(0.45).ok()))
        );
        assert!(
            choice("threshold 1.5")
                .unwrap_err()
                .to_string()
                .contains("within 0 and 1")
        );
        assert!(choice("beam").unwrap_err().to_string().contains("decoding"));
    }
}
