//! The gate of an adapted bundle: how much of the adaptation applies to a page.
//!
//! Adapting a bundle to fifty pages of one guideline moves weights that every kind of page
//! shares ("short lines and dates are not content"), so a plain adapted bundle applies the
//! user's guideline everywhere and forgets the rest of the web. A gated bundle keeps the base it
//! was adapted from (its folder `base/`) and a [`Gate`]: a logistic regression on the page's
//! [`PageProfile`] fitted at adaptation time to tell the user's pages from a sample of the
//! base's ([`PageSample`], which every trained bundle stores). Each page's marginals are then
//!
//! ```text
//! P(label) = s * P_adapted(label) + (1 - s) * P_base(label),    s = share(page) in [0, 1]
//! ```
//!
//! so that the guideline applies in full on pages like the user's, and the base's labels stand
//! on pages unlike them. The share rises linearly in the gate's log-odds from 0 at [`Gate::none`]
//! to 1 at [`Gate::full`]; both were placed at fitting time from held-out scores of the user's
//! own pages (`victor_train`'s `gate`), so that a new page as like the user's as most of theirs
//! gets the adapted model whole.

use serde::{Deserialize, Serialize};
use victor_features::{PROFILE_DIMS, PROFILE_VERSION, PageProfile, profile_names};

/// Subfolder of a gated bundle that holds the bundle it was adapted from.
pub const BASE_DIR: &str = "base";

/// A gate: the share of the adapted model in a page's marginals, from the page's profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gate {
    /// [`PROFILE_VERSION`] of the profiles it reads.
    pub profile: String,
    /// The gate's log-odds at which the adapted model's share starts to rise from 0.
    pub none: f64,
    /// The log-odds from which the adapted model applies in full.
    pub full: f64,
    /// How it was fitted, and what it does on the pages it was fitted on.
    pub fitted: GateFit,
    /// The logistic regression.
    pub model: Logistic,
}

/// How a gate was fitted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GateFit {
    /// The user's pages it was fitted on.
    pub pages: usize,
    /// The base's pages it was fitted against (its [`PageSample`]).
    pub base_pages: usize,
    /// The L2 penalty of the regression (on standardised profiles).
    pub l2: f64,
    /// Share of the user's pages whose held-out log-odds reach [`Gate::full`] (cross-validated
    /// by pages: each page scored by a gate fitted without it).
    pub user_full: f64,
    /// Share of the base's sample pages at or below [`Gate::none`] (the base alone applies).
    pub base_none: f64,
}

/// A logistic regression on standardised page profiles: log-odds `bias + sum_i weight_i *
/// (x_i - mean_i) / scale_i`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Logistic {
    /// The intercept.
    pub bias: f64,
    /// One term per profile value, in the profile's order.
    pub terms: Vec<Term>,
}

/// One profile value's part in a [`Logistic`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Term {
    /// The value's name ([`profile_names`]).
    pub name: String,
    /// Its mean over the pages fitted on.
    pub mean: f64,
    /// Its spread (standard deviation; 1 where it did not vary).
    pub scale: f64,
    /// Its weight on the standardised value.
    pub weight: f64,
}

impl Logistic {
    /// The log-odds of a profile (its values beyond the terms ignored).
    pub fn log_odds(&self, p: &PageProfile) -> f64 {
        self.terms.iter().zip(p.0).fold(self.bias, |acc, (t, x)| {
            acc + t.weight * (f64::from(x) - t.mean) / t.scale
        })
    }
}

impl Gate {
    /// The share of the adapted model on a page of this profile: 0 at or below
    /// [`Gate::none`]'s log-odds, 1 at or above [`Gate::full`]'s, linear between.
    pub fn share(&self, p: &PageProfile) -> f64 {
        self.share_of(self.model.log_odds(p))
    }

    /// [`Gate::share`] of a log-odds.
    pub fn share_of(&self, log_odds: f64) -> f64 {
        if log_odds >= self.full {
            1.0
        } else if log_odds <= self.none || self.full <= self.none {
            0.0
        } else {
            (log_odds - self.none) / (self.full - self.none)
        }
    }

    /// What the gate does, in a sentence a person reads (`victor models`): where the
    /// adaptation applies, how well the gate told the pages apart, and the profile values that
    /// weigh most.
    pub fn describe(&self) -> String {
        let f = &self.fitted;
        let mut terms: Vec<&Term> = self.model.terms.iter().collect();
        terms.sort_by(|a, b| b.weight.abs().total_cmp(&a.weight.abs()));
        let strongest: Vec<String> = terms
            .iter()
            .take(5)
            .map(|t| format!("{} {:+.2}", t.name, t.weight))
            .collect();
        format!(
            "the adapted model applies in full where a page is like the {} pages adapted on (log-odds from {:.2}), its base alone where it is not (below {:.2}), in proportion between; the log-odds of a logistic regression on the page's profile against {} pages of the base's; held out, {:.0}% of the pages adapted on reached full and {:.0}% of the base's stayed at none; it weighs most {}",
            f.pages,
            self.full,
            self.none,
            f.base_pages,
            100.0 * f.user_full,
            100.0 * f.base_none,
            strongest.join(", ")
        )
    }

    /// Checks what serde cannot: the profile's version and names are this victor's, and every
    /// number is finite (a scale positive).
    pub fn check(&self) -> Result<(), String> {
        check_profile(&self.profile)?;
        let names = profile_names();
        if self.model.terms.len() != names.len() {
            return Err(format!(
                "gate: {} terms for {} profile values",
                self.model.terms.len(),
                names.len()
            ));
        }
        for (t, n) in self.model.terms.iter().zip(&names) {
            if &t.name != n {
                return Err(format!(
                    "gate: term {} where the profile has {n:?}",
                    crate::bundle::excerpt(&t.name)
                ));
            }
            if !(t.mean.is_finite() && t.weight.is_finite() && t.scale.is_finite())
                || t.scale <= 0.0
            {
                return Err(format!("gate: term {n:?} holds a number out of range"));
            }
        }
        if !(self.model.bias.is_finite() && self.none.is_finite() && self.full.is_finite()) {
            return Err("gate: a bound or the bias is not a finite number".into());
        }
        Ok(())
    }
}

/// The profiles of a sample of the pages a bundle was trained on: what a gate is fitted
/// against when the bundle is adapted. Stored column by column, each value coded in one byte
/// between the column's `low` and `high` (an error of at most 1/510 of the range, far below the
/// spread of any value between pages), so that a sample of 600 pages takes about 60 KB.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PageSample {
    /// [`PROFILE_VERSION`] of the profiles.
    pub profile: String,
    /// Pages the bundle was trained on, by set, and how many of each are in the sample.
    pub sets: Vec<SampledSet>,
    /// The profiles.
    pub sample: SampleColumns,
}

/// Pages of one training set in a [`PageSample`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampledSet {
    /// The set's name.
    pub set: String,
    /// Its pages used in training.
    pub pages: usize,
    /// Of those, in the sample.
    pub sampled: usize,
}

/// The columns of a [`PageSample`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleColumns {
    /// Pages in the sample.
    pub pages: usize,
    /// One column per profile value.
    pub columns: Vec<SampleColumn>,
}

/// One profile value over the sample's pages.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleColumn {
    /// The value's name ([`profile_names`]).
    pub name: String,
    /// The smallest value.
    pub low: f64,
    /// The largest value.
    pub high: f64,
    /// Each page's value as a byte `round(255 * (x - low) / (high - low))`, hex.
    pub codes: String,
}

/// Checks that stored profiles are of this victor's layout.
fn check_profile(version: &str) -> Result<(), String> {
    if version == PROFILE_VERSION {
        Ok(())
    } else {
        Err(format!(
            "page profiles of layout {}, but this victor computes {PROFILE_VERSION}",
            crate::bundle::excerpt(version)
        ))
    }
}

impl PageSample {
    /// One line a person reads: `601 pages (dragnet-train 165 of 618, ...)`.
    pub fn describe(&self) -> String {
        let sets: Vec<String> = self
            .sets
            .iter()
            .map(|s| format!("{} {} of {}", s.set, s.sampled, s.pages))
            .collect();
        format!("{} pages ({})", self.sample.pages, sets.join(", "))
    }

    /// The sample of `profiles`, the sets' counts given.
    pub fn new(sets: Vec<SampledSet>, profiles: &[PageProfile]) -> PageSample {
        let columns = profile_names()
            .into_iter()
            .enumerate()
            .map(|(i, name)| {
                let values = profiles.iter().map(|p| f64::from(p.0[i]));
                let low = values.clone().fold(f64::INFINITY, f64::min);
                let high = values.clone().fold(f64::NEG_INFINITY, f64::max);
                let (low, high) = if low.is_finite() {
                    (low, high)
                } else {
                    (0.0, 0.0)
                };
                let range = high - low;
                let codes: Vec<u8> = values
                    .map(|x| {
                        if range > 0.0 {
                            (255.0 * (x - low) / range).round().clamp(0.0, 255.0) as u8
                        } else {
                            0
                        }
                    })
                    .collect();
                SampleColumn {
                    name,
                    low,
                    high,
                    codes: hex::encode(codes),
                }
            })
            .collect();
        PageSample {
            profile: PROFILE_VERSION.to_string(),
            sets,
            sample: SampleColumns {
                pages: profiles.len(),
                columns,
            },
        }
    }

    /// The profiles, decoded.
    ///
    /// # Errors
    ///
    /// A message when the sample is not of this victor's profile layout or its columns do not
    /// decode to [`SampleColumns::pages`] values each.
    pub fn profiles(&self) -> Result<Vec<PageProfile>, String> {
        check_profile(&self.profile)?;
        let names = profile_names();
        let cols = &self.sample.columns;
        if cols.len() != PROFILE_DIMS {
            return Err(format!(
                "page sample: {} columns for {PROFILE_DIMS} profile values",
                cols.len()
            ));
        }
        let n = self.sample.pages;
        let mut out = vec![PageProfile([0.0; PROFILE_DIMS]); n];
        for (i, (c, name)) in cols.iter().zip(&names).enumerate() {
            if &c.name != name {
                return Err(format!(
                    "page sample: column {} where the profile has {name:?}",
                    crate::bundle::excerpt(&c.name)
                ));
            }
            let codes = hex::decode(&c.codes)
                .map_err(|e| format!("page sample: column {name:?} is not hex: {e}"))?;
            if codes.len() != n || !(c.low.is_finite() && c.high.is_finite()) {
                return Err(format!(
                    "page sample: column {name:?} holds {} values for {n} pages",
                    codes.len()
                ));
            }
            for (p, &code) in out.iter_mut().zip(&codes) {
                p.0[i] = (c.low + (c.high - c.low) * f64::from(code) / 255.0) as f32;
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(seed: f32) -> PageProfile {
        let mut v = [0f32; PROFILE_DIMS];
        for (i, x) in v.iter_mut().enumerate() {
            *x = ((i as f32 + 1.0) * seed).sin().abs() * 3.0;
        }
        PageProfile(v)
    }

    #[test]
    fn a_sample_decodes_within_its_coding_error() {
        let ps: Vec<PageProfile> = (1..40).map(|i| profile(i as f32 * 0.37)).collect();
        let s = PageSample::new(Vec::new(), &ps);
        let back = s.profiles().expect("decodes");
        assert_eq!(back.len(), ps.len());
        for (a, b) in ps.iter().zip(&back) {
            for i in 0..PROFILE_DIMS {
                let c = &s.sample.columns[i];
                let err = f64::from((a.0[i] - b.0[i]).abs());
                assert!(err <= (c.high - c.low) / 510.0 + 1e-5, "{i}: {err}");
            }
        }
        let json = serde_json::to_string(&s).expect("serializes");
        let read: PageSample = serde_json::from_str(&json).expect("parses");
        assert_eq!(read, s);
    }

    #[test]
    fn a_sample_of_another_layout_or_length_is_refused() {
        let ps = vec![profile(1.0), profile(2.0)];
        let mut s = PageSample::new(Vec::new(), &ps);
        s.sample.pages = 3;
        assert!(s.profiles().expect_err("short").contains("2 values for 3"));
        let mut s = PageSample::new(Vec::new(), &ps);
        s.profile = "page-profile-0".into();
        assert!(s.profiles().expect_err("old").contains("page-profile-0"));
    }

    #[test]
    fn the_share_rises_from_none_to_full() {
        let names = profile_names();
        let gate = Gate {
            profile: PROFILE_VERSION.into(),
            none: -1.0,
            full: 1.0,
            fitted: GateFit {
                pages: 1,
                base_pages: 1,
                l2: 1.0,
                user_full: 1.0,
                base_none: 1.0,
            },
            model: Logistic {
                bias: 0.0,
                terms: names
                    .iter()
                    .map(|n| Term {
                        name: n.clone(),
                        mean: 0.0,
                        scale: 1.0,
                        weight: 0.0,
                    })
                    .collect(),
            },
        };
        assert_eq!(gate.check(), Ok(()));
        assert_eq!(gate.share_of(-3.0), 0.0);
        assert_eq!(gate.share_of(0.0), 0.5);
        assert_eq!(gate.share_of(2.0), 1.0);
        assert_eq!(gate.share(&profile(1.0)), 0.5);
        let mut bad = gate.clone();
        bad.model.terms[3].scale = 0.0;
        assert!(bad.check().is_err());
        let mut bad = gate;
        bad.model.terms.pop();
        assert!(bad.check().is_err());
    }
}
