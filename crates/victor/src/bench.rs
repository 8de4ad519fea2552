//! The stages `victor bench` times (feature `bench`): each a cumulative pipeline over one page
//! (decode; decode + segment; ... to the text and Markdown outputs), beside two floors: lol_html's
//! tokenizer alone with a no-op text handler (the baseline, the tokenizer victor used before it
//! had its own) and victor's tokenizer (then with its tree builder). The stages read pages as
//! `victor label --format text` does (no links, no head), but for the one that computes the JSON
//! outputs' page fields. [`Bench::time`] runs them round robin and gives each stage's median.

use std::time::Instant;

use victor_features::{Collect, Extractor, Segmenter, decode, tokenize_and_build, tokenize_only};
use victor_label::{Decoding, Labeler, Model, render_text};

/// The feature configuration the stages without a model extract with, and why one is invalid.
pub use victor_features::{ConfigError, FeatureConfig};

/// One stage's work on one page: the returned number is summed, so that nothing is optimised
/// away.
pub type StageFn<'a> = Box<dyn FnMut(&[u8]) -> usize + 'a>;

/// The stages of a benchmark over one feature configuration.
#[derive(Debug)]
pub struct Bench {
    extractor: Extractor,
}

/// A stage's name and its median time over the repetitions.
#[derive(Clone, Debug)]
pub struct Timed {
    /// The stage.
    pub name: &'static str,
    /// Median seconds over all pages.
    pub median: f64,
}

impl Bench {
    /// The stages for a feature configuration (the stages without a model extract with it).
    ///
    /// # Errors
    ///
    /// [`ConfigError`] for an invalid configuration.
    pub fn new(config: &FeatureConfig) -> Result<Bench, ConfigError> {
        Ok(Bench {
            extractor: Extractor::new(config)?,
        })
    }

    /// Every stage, in order: the baseline first, the labelling stages only with a model.
    pub fn stages<'a>(&'a self, model: Option<&'a Model>) -> Vec<(&'static str, StageFn<'a>)> {
        let mut seg = Segmenter::new();
        seg.set_collect(Collect::NONE);
        let mut seg2 = Segmenter::new();
        seg2.set_collect(Collect::NONE);
        let extractor = &self.extractor;
        let mut work: Vec<(&'static str, StageFn<'a>)> = vec![
            (
                "baseline: lol_html tokenizer only",
                Box::new(|p| {
                    decode(p)
                        .ok()
                        .and_then(|d| lol_html_tokenize_only(&d.text).ok())
                        .unwrap_or(0)
                }),
            ),
            (
                "victor tokenizer only",
                Box::new(|p| decode(p).map_or(0, |d| tokenize_only(&d.text))),
            ),
            (
                "victor tokenizer + tree builder (floor)",
                Box::new(|p| decode(p).map_or(0, |d| tokenize_and_build(&d.text))),
            ),
            (
                "decode",
                Box::new(|p| decode(p).map(|d| d.text.len()).unwrap_or(0)),
            ),
            (
                "decode + segment",
                Box::new(move |p| {
                    decode(p)
                        .ok()
                        .and_then(|d| seg.segment(&d.text).ok())
                        .map_or(0, |pg| pg.blocks.len())
                }),
            ),
            (
                "decode + segment + features",
                Box::new(move |p| {
                    victor_features::process(p, &mut seg2, extractor).map_or(0, |x| x.table.blocks)
                }),
            ),
        ];
        if let Some(model) = model {
            work.extend(label_stages(model));
        }
        work
    }

    /// Runs every stage over every page `repeat` times, round robin (every repetition runs each
    /// stage once, so that a phase of load on a shared machine slows all the stages alike
    /// instead of the few that ran through it), and gives each stage's median.
    pub fn time(
        work: &mut [(&'static str, StageFn<'_>)],
        pages: &[Vec<u8>],
        repeat: usize,
    ) -> Vec<Timed> {
        let mut secs: Vec<Vec<f64>> = vec![Vec::with_capacity(repeat); work.len()];
        let mut sink = 0usize;
        for _ in 0..repeat {
            for ((_, f), secs) in work.iter_mut().zip(&mut secs) {
                let t = Instant::now();
                for p in pages {
                    sink = sink.wrapping_add(f(p));
                }
                secs.push(t.elapsed().as_secs_f64());
            }
        }
        std::hint::black_box(sink);
        work.iter()
            .zip(&mut secs)
            .map(|((name, _), secs)| Timed {
                name,
                median: median(secs),
            })
            .collect()
    }
}

/// The median of the times (NaN for none).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The stages that label with the model's recommended decoding.
fn label_stages(model: &Model) -> Vec<(&'static str, StageFn<'_>)> {
    let decoding = model.recommended_decoding();
    let labeler = |collect: Collect| {
        let mut l = Labeler::new(model);
        l.set_collect(collect);
        l
    };
    let mut plain = labeler(Collect::NONE);
    // The JSON outputs' page fields on top of the text: the parse collects the head, and the
    // metadata and the confidence are computed (issue 51 asks them to cost at most 5 % of the
    // pages per second; compare with the stage before).
    let with_head = Collect {
        head: true,
        ..Collect::NONE
    };
    let mut md = labeler(Collect::NONE);
    let mut text = String::new();
    vec![
        (
            "... + marginals + labels (the model's features)",
            Box::new(move |p| {
                plain
                    .label_bytes(p, decoding)
                    .map_or(0, |lp| lp.labels.len())
            }),
        ),
        (
            "... + text output (whole pipeline)",
            text_stage(labeler(Collect::NONE), decoding, false),
        ),
        (
            "... + text, metadata and confidence",
            text_stage(labeler(with_head), decoding, true),
        ),
        (
            "... + Markdown output (whole pipeline)",
            Box::new(move |p| {
                md.label_bytes(p, decoding).map_or(0, |lp| {
                    text.clear();
                    let opts = victor_label::MarkdownOptions {
                        doc: Some(lp.processed.decoded.text.as_ref()),
                        ..Default::default()
                    };
                    victor_label::render_markdown(&lp.processed.page, &lp.labels, opts, &mut text);
                    text.len()
                })
            }),
        ),
    ]
}

/// The whole pipeline to the plain text and, with `fields`, the JSON outputs' page fields
/// (metadata and confidence) as well. Returns a size, so that nothing is optimised away.
fn text_stage(mut labeler: Labeler<'_>, decoding: Decoding, fields: bool) -> StageFn<'_> {
    let mut text = String::new();
    Box::new(move |p| {
        labeler.label_bytes(p, decoding).map_or(0, |lp| {
            text.clear();
            let page = &lp.processed.page;
            render_text(page, &lp.labels, false, &mut text);
            if !fields {
                return text.len();
            }
            let md = victor_label::metadata(page, &lp.labels);
            let c = victor_label::confidence(page, &lp.labels, &lp.probs, &lp.words);
            text.len() + md.title.map_or(0, |t| t.len()) + usize::from(c > 0.5)
        })
    })
}

/// Runs lol_html over a document with a no-op text handler and returns the number of text bytes
/// it reported: the benchmark's baseline (the tokenizer victor used before it had its own).
fn lol_html_tokenize_only(html: &str) -> Result<usize, lol_html::errors::RewritingError> {
    let count = std::cell::RefCell::new(0usize);
    let mut rewriter = lol_html::HtmlRewriter::new(
        lol_html::Settings::new()
            .with_strict(false)
            .append_document_content_handler(lol_html::doc_text!(|t| {
                *count.borrow_mut() += t.as_str().len();
                Ok(())
            })),
        |_: &[u8]| {},
    );
    rewriter.write(html.as_bytes())?;
    rewriter.end()?;
    Ok(count.into_inner())
}
