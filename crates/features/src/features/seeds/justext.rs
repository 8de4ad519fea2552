//! jusText (seed `002`): paragraphs classified by length, link density and stop-word density,
//! then by their neighbours.
//!
//! The stages, in the seed's order ("Headings"):
//!
//! 1. context-free classification ("Context-free classification", `doClassifyContextFree`):
//!    link density above `max_link_density` or a copyright sign -> bad; an `h1` (a headline) ->
//!    good; shorter than `length_low` characters -> bad with a link, else short; stop-word
//!    density at least `stopwords_high` -> good if longer than `length_high`, else near-good; at
//!    least `stopwords_low` -> near-good; else bad. (`SELECT` contents never become blocks in
//!    victor; image paragraphs have no text here.)
//! 2. heading pre-processing: a short heading (`h1`..`h6`) followed by a good paragraph within
//!    `max_heading_distance` characters becomes near-good;
//! 3. context-sensitive classification ("Context-sensitive classification"): short paragraphs
//!    between good ones are good, between bad ones bad; between a good and a bad side, good when
//!    a near-good paragraph separates them from the bad side, else bad; near-good paragraphs are
//!    bad between two bad ones, else good; the page's edges count as bad. As in the reference
//!    implementation, "between" means the nearest good or bad paragraph on each side.
//! 4. heading post-processing: a heading whose context-free class was not bad and that now is
//!    bad becomes good when a good paragraph follows within `max_heading_distance` characters
//!    (not iteratively).
//!
//! Stop words come from the `stop-words` crate's ISO lists for the page's language. Without a
//! list, jusText's language-independent mode applies: both stop-word thresholds are 0, so
//! length alone decides among the medium and long paragraphs.

use std::ops::Range;

use rustc_hash::FxHashSet;
use victor_html::Page;

use super::paragraph::{ParaStats, paragraphs};
use victor_html::within::{Within, WithinMut};

/// The parameters of the classification, with the seed's defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Paragraphs with a larger share of characters in links are bad (0.2).
    pub max_link_density: f64,
    /// Shorter paragraphs (characters) are short (70).
    pub length_low: u32,
    /// Longer paragraphs with many stop words are good (200).
    pub length_high: u32,
    /// Stop-word density of near-good paragraphs (0.30).
    pub stopwords_low: f64,
    /// Stop-word density of good paragraphs (0.32).
    pub stopwords_high: f64,
    /// Characters between a heading and the good paragraph it introduces (200, the reference
    /// implementation's default; the seed names the parameter without a value).
    pub max_heading_distance: u32,
    /// Headlines (`h1`) are good before anything but link density and copyright ("Classify
    /// headlines as good").
    pub headlines: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            max_link_density: 0.2,
            length_low: 70,
            length_high: 200,
            stopwords_low: 0.30,
            stopwords_high: 0.32,
            max_heading_distance: 200,
            headlines: true,
        }
    }
}

/// jusText's classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Boilerplate.
    Bad,
    /// Main content.
    Good,
    /// Too short to decide alone.
    Short,
    /// Between short and good.
    NearGood,
}

impl Class {
    /// Every class, in the order of [`Class::index`].
    pub const ALL: [Class; 4] = [Class::Bad, Class::Good, Class::Short, Class::NearGood];

    /// The class's position in [`Class::ALL`].
    pub const fn index(self) -> u8 {
        match self {
            Class::Bad => 0,
            Class::Good => 1,
            Class::Short => 2,
            Class::NearGood => 3,
        }
    }

    /// The class's name, as jusText writes it.
    pub const fn name(self) -> &'static str {
        match self {
            Class::Bad => "bad",
            Class::Good => "good",
            Class::Short => "short",
            Class::NearGood => "neargood",
        }
    }
}

/// One paragraph as the classification sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Paragraph {
    /// Its blocks.
    pub blocks: Range<usize>,
    /// Its measurements.
    pub stats: ParaStats,
    /// Inside `h1`..`h6`.
    pub heading: bool,
    /// Inside `h1`.
    pub headline: bool,
}

/// The context-free class of a paragraph (stage 1).
pub fn classify_context_free(p: &Paragraph, params: &Params, has_stop_list: bool) -> Class {
    let s = &p.stats;
    if s.link_density() > params.max_link_density || s.copyright {
        return Class::Bad;
    }
    if params.headlines && p.headline {
        return Class::Good;
    }
    if s.chars < params.length_low {
        return if s.link_chars > 0 {
            Class::Bad
        } else {
            Class::Short
        };
    }
    let (low, high) = if has_stop_list {
        (params.stopwords_low, params.stopwords_high)
    } else {
        (0.0, 0.0)
    };
    let d = s.stop_density();
    if d >= high {
        if s.chars > params.length_high {
            Class::Good
        } else {
            Class::NearGood
        }
    } else if d >= low {
        Class::NearGood
    } else {
        Class::Bad
    }
}

/// For each paragraph, the class of the nearest paragraph before it that is good or bad (or
/// also near-good with `neargood`); `Bad` at the page's start.
fn prev_classes(classes: &[Class], neargood: bool, out: &mut Vec<Class>) {
    out.clear();
    let mut last = Class::Bad;
    for &c in classes {
        out.push(last);
        if matches!(c, Class::Good | Class::Bad) || (neargood && c == Class::NearGood) {
            last = c;
        }
    }
}

/// As [`prev_classes`], looking after each paragraph.
fn next_classes(classes: &[Class], neargood: bool, out: &mut Vec<Class>) {
    out.clear();
    out.resize(classes.len(), Class::Bad);
    let mut last = Class::Bad;
    for (i, &c) in classes.iter().enumerate().rev() {
        out[i] = last;
        if matches!(c, Class::Good | Class::Bad) || (neargood && c == Class::NearGood) {
            last = c;
        }
    }
}

/// Whether a good paragraph follows paragraph `i` within `max` characters.
fn good_follows(paras: &[Paragraph], classes: &[Class], i: usize, max: u32) -> bool {
    let mut distance = 0u32;
    for (p, c) in paras.iter().zip(classes).skip(i + 1) {
        if distance > max {
            break;
        }
        if *c == Class::Good {
            return true;
        }
        distance += p.stats.chars;
    }
    false
}

/// Classifies the paragraphs: the context-free classes (stage 1) into `cf`, the final classes
/// (stages 2 to 4, always good or bad) into `out`.
pub fn classify(
    paras: &[Paragraph],
    params: &Params,
    has_stop_list: bool,
    cf: &mut Vec<Class>,
    out: &mut Vec<Class>,
) {
    cf.clear();
    cf.extend(
        paras
            .iter()
            .map(|p| classify_context_free(p, params, has_stop_list)),
    );
    out.clear();
    out.extend_from_slice(cf);
    let n = paras.len();
    // Stage 2: short headings before good text become near-good.
    for i in 0..n {
        if paras[i].heading
            && out[i] == Class::Short
            && good_follows(paras, out, i, params.max_heading_distance)
        {
            out[i] = Class::NearGood;
        }
    }
    // Stage 3a: short paragraphs by their nearest good or bad neighbours.
    let (mut prev, mut next, mut prev_any, mut next_any) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    prev_classes(out, false, &mut prev);
    next_classes(out, false, &mut next);
    prev_classes(out, true, &mut prev_any);
    next_classes(out, true, &mut next_any);
    let snapshot = out.clone();
    for i in 0..n {
        if snapshot[i] != Class::Short {
            continue;
        }
        out[i] = match (prev[i], next[i]) {
            (Class::Good, Class::Good) => Class::Good,
            (Class::Bad, Class::Bad) => Class::Bad,
            (p, nx) => {
                let near_bad_before = p == Class::Bad && prev_any[i] == Class::NearGood;
                let near_bad_after = nx == Class::Bad && next_any[i] == Class::NearGood;
                if near_bad_before || near_bad_after {
                    Class::Good
                } else {
                    Class::Bad
                }
            }
        };
    }
    // Stage 3b: near-good paragraphs are bad only between two bad ones.
    prev_classes(out, false, &mut prev);
    next_classes(out, false, &mut next);
    for i in 0..n {
        if out[i] == Class::NearGood {
            out[i] = if prev[i] == Class::Bad && next[i] == Class::Bad {
                Class::Bad
            } else {
                Class::Good
            };
        }
    }
    // Stage 4: headings that were not bad by themselves are good before good text.
    for i in 0..n {
        if paras[i].heading
            && out[i] == Class::Bad
            && cf[i] != Class::Bad
            && good_follows(paras, out, i, params.max_heading_distance)
        {
            out[i] = Class::Good;
        }
    }
}

/// The paragraphs of a page with their measurements.
pub fn page_paragraphs(page: &Page, stop: Option<&FxHashSet<u64>>) -> Vec<Paragraph> {
    let heading = super::in_heading(page);
    let h1 = in_h1(page);
    let mut ranges = Vec::new();
    paragraphs(page, &mut ranges);
    ranges
        .into_iter()
        .map(|r| {
            let blocks = page.blocks.within(r.clone());
            let is = |marks: &[bool]| {
                blocks
                    .iter()
                    .any(|b| marks.get(b.parent as usize).copied().unwrap_or(false))
            };
            Paragraph {
                stats: ParaStats::of(page, r.clone(), stop),
                heading: is(&heading),
                headline: is(&h1),
                blocks: r,
            }
        })
        .collect()
}

/// Whether each element is or sits inside an `h1`.
fn in_h1(page: &Page) -> Vec<bool> {
    super::inside(page, |t| t == victor_html::Tag::H1)
}

/// The final jusText class of every block (its paragraph's), into `out`.
pub fn block_classes(
    page: &Page,
    stop: Option<&FxHashSet<u64>>,
    params: &Params,
    out: &mut Vec<Class>,
) {
    let mut cf = Vec::new();
    block_classes_both(page, stop, params, &mut cf, out);
}

/// The context-free (`cf`) and final (`out`) jusText class of every block (its paragraph's).
pub fn block_classes_both(
    page: &Page,
    stop: Option<&FxHashSet<u64>>,
    params: &Params,
    cf_out: &mut Vec<Class>,
    out: &mut Vec<Class>,
) {
    let paras = page_paragraphs(page, stop);
    let (mut cf, mut classes) = (Vec::new(), Vec::new());
    classify(&paras, params, stop.is_some(), &mut cf, &mut classes);
    out.clear();
    out.resize(page.blocks.len(), Class::Bad);
    cf_out.clear();
    cf_out.resize(page.blocks.len(), Class::Bad);
    for ((p, c), f) in paras.iter().zip(&classes).zip(&cf) {
        for slot in out.within_mut(p.blocks.clone()) {
            *slot = *c;
        }
        for slot in cf_out.within_mut(p.blocks.clone()) {
            *slot = *f;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn para(chars: u32, link_chars: u32, words: u32, stop_words: u32) -> Paragraph {
        Paragraph {
            blocks: 0..1,
            stats: ParaStats {
                chars,
                link_chars,
                words,
                stop_words,
                ..ParaStats::default()
            },
            heading: false,
            headline: false,
        }
    }

    #[test]
    fn context_free_rules_follow_the_seed_table() {
        let p = Params::default();
        let cf = |x: &Paragraph| classify_context_free(x, &p, true);
        // Link density above 0.2: bad, whatever else.
        assert_eq!(cf(&para(300, 61, 50, 25)), Class::Bad);
        assert_eq!(cf(&para(300, 60, 50, 25)), Class::Good);
        // Short: below 70 characters; with a link bad.
        assert_eq!(cf(&para(69, 0, 10, 5)), Class::Short);
        assert_eq!(cf(&para(69, 3, 10, 5)), Class::Bad);
        // Medium (70..=200) and long (> 200) by stop-word density (0.30, 0.32).
        assert_eq!(cf(&para(200, 0, 100, 32)), Class::NearGood);
        assert_eq!(cf(&para(201, 0, 100, 32)), Class::Good);
        assert_eq!(cf(&para(201, 0, 100, 31)), Class::NearGood);
        assert_eq!(cf(&para(201, 0, 100, 30)), Class::NearGood);
        assert_eq!(cf(&para(201, 0, 100, 29)), Class::Bad);
        assert_eq!(cf(&para(80, 0, 100, 29)), Class::Bad);
        // Copyright: bad.
        let mut c = para(300, 0, 50, 25);
        c.stats.copyright = true;
        assert_eq!(cf(&c), Class::Bad);
        // A headline is good unless links or copyright say otherwise.
        let mut h = para(10, 0, 2, 0);
        h.headline = true;
        assert_eq!(cf(&h), Class::Good);
        // Without a stop list both thresholds are 0: length decides.
        assert_eq!(
            classify_context_free(&para(201, 0, 100, 0), &p, false),
            Class::Good
        );
        assert_eq!(
            classify_context_free(&para(100, 0, 100, 0), &p, false),
            Class::NearGood
        );
    }

    fn run(cf: &[Class]) -> Vec<Class> {
        // Paragraphs whose context-free class is the given one: lengths and densities chosen
        // for each class.
        let paras: Vec<Paragraph> = cf
            .iter()
            .map(|c| match c {
                Class::Bad => para(300, 0, 100, 0),
                Class::Good => para(300, 0, 100, 50),
                Class::Short => para(20, 0, 4, 0),
                Class::NearGood => para(100, 0, 20, 10),
            })
            .collect();
        let (mut f, mut out) = (Vec::new(), Vec::new());
        classify(&paras, &Params::default(), true, &mut f, &mut out);
        assert_eq!(f, cf);
        out
    }

    #[test]
    fn context_sensitive_pass_follows_the_seed() {
        use Class::*;
        // Between two good: good; between two bad: bad.
        assert_eq!(
            run(&[Good, Short, NearGood, Good]),
            [Good, Good, Good, Good]
        );
        assert_eq!(run(&[Bad, Short, NearGood, Bad]), [Bad, Bad, Bad, Bad]);
        // Good on one side, bad on the other: the near-good next to the bad side delimits.
        assert_eq!(run(&[Good, Short, NearGood, Bad]), [Good, Good, Good, Bad]);
        assert_eq!(run(&[Good, NearGood, Short, Bad]), [Good, Good, Bad, Bad]);
        // Only short ones between good and bad: bad.
        assert_eq!(run(&[Good, Short, Short, Bad]), [Good, Bad, Bad, Bad]);
        // The page's edges count as bad.
        assert_eq!(run(&[Short, Good, Short]), [Bad, Good, Bad]);
        assert_eq!(run(&[NearGood, Good]), [Good, Good]);
        assert_eq!(run(&[NearGood]), [Bad]);
    }
}
