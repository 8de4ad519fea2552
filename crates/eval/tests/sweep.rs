//! The threshold sweep: exact rows on a hand-made set, monotonicity,
//! text-level scoring through a caller's closure, and input errors.

use victor_core::Label::{self, Header as H, Other as O, Text as T};
use victor_core::Probs;
use victor_eval::{Bags, TokenBag, Tokenizer};
use victor_eval::{SweepError, SweepPage, sweep, sweep_with_text, threshold_grid};

#[test]
fn grid() {
    let g = |a, b, s| threshold_grid(a, b, s).expect("a valid grid");
    assert_eq!(g(0.0, 1.0, 0.25), [0.0, 0.25, 0.5, 0.75, 1.0]);
    let ten = g(0.0, 1.0, 0.1);
    assert_eq!(ten.len(), 11);
    assert_eq!(ten[3], 0.3, "rounded, not accumulated sums");
    assert_eq!(
        g(0.2, 0.5, 0.25),
        [0.2, 0.45, 0.5],
        "the upper end is always included"
    );
    assert_eq!(g(0.5, 0.5, 0.1), [0.5]);
    // The grid `victor train` chooses thresholds from: the doubles nearest to i / 20.
    let train: Vec<f64> = (1..20).map(|i| f64::from(i) / 20.0).collect();
    assert_eq!(g(0.05, 0.95, 0.05), train);
    assert_eq!(g(0.0, 1.0, 0.02).len(), 51);
}

#[test]
fn grid_errors() {
    use victor_eval::GridError;
    assert_eq!(
        threshold_grid(0.6, 0.5, 0.1),
        Err(GridError::Ends { from: 0.6, to: 0.5 })
    );
    assert!(matches!(
        threshold_grid(0.0, 1.5, 0.1),
        Err(GridError::Ends { .. })
    ));
    assert_eq!(threshold_grid(0.0, 1.0, 0.0), Err(GridError::Step(0.0)));
    assert!(matches!(
        threshold_grid(0.0, 1.0, f64::NAN),
        Err(GridError::Step(_))
    ));
    assert_eq!(
        threshold_grid(0.0, 1.0, 1e-6),
        Err(GridError::TooMany(1e-6))
    );
}

/// Two pages; P(other) of the blocks: page 0: .1 .4 .6 .9, page 1: .2 .7 .
fn hand_made() -> (Vec<Vec<Probs>>, Vec<Vec<Label>>) {
    let marginals = vec![
        vec![
            [0.1, 0.8, 0.1],
            [0.5, 0.1, 0.4],
            [0.1, 0.3, 0.6],
            [0.05, 0.05, 0.9],
        ],
        vec![[0.7, 0.1, 0.2], [0.1, 0.2, 0.7]],
    ];
    let gold = vec![vec![T, H, O, O], vec![T, T]];
    (marginals, gold)
}

fn pages<'a>(m: &'a [Vec<Probs>], g: &'a [Vec<Label>]) -> Vec<SweepPage<'a>> {
    m.iter()
        .zip(g)
        .map(|(m, g)| SweepPage {
            marginals: m,
            gold: g,
        })
        .collect()
}

#[test]
fn rows_on_a_hand_made_set() {
    let (m, g) = hand_made();
    let rows = sweep(&pages(&m, &g), &[1.0, 0.5, 0.3, 0.05]).expect("valid");
    assert_eq!(rows.len(), 4);
    assert!(
        rows.iter()
            .all(|r| r.text.is_none() && r.text_pages.is_none())
    );
    // T = 1: everything content. Labels T H T T | H T. Gold T H O O | T T.
    let r = &rows[0];
    assert_eq!(r.threshold, 1.0);
    assert_eq!(r.content_blocks, 6);
    assert_eq!(
        (r.counts.correct_content(), r.counts.annotated_content()),
        (4, 4)
    );
    assert_eq!(r.block.precision, 4.0 / 6.0);
    assert_eq!(r.block.recall, 1.0);
    assert_eq!(r.block.accuracy, 3.0 / 6.0);
    // T = .5: blocks with P(other) .6 .9 .7 become other. Labels T H O O | H O.
    let r = &rows[1];
    assert_eq!(r.content_blocks, 3);
    assert_eq!((r.block.precision, r.block.recall), (1.0, 3.0 / 4.0));
    assert_eq!(r.block.accuracy, 4.0 / 6.0);
    assert_eq!(r.block.unlabelled_accuracy, 5.0 / 6.0);
    // T = .3: the header (.4) goes too. Labels T O O O | H O.
    let r = &rows[2];
    assert_eq!(r.content_blocks, 2);
    assert_eq!((r.block.precision, r.block.recall), (1.0, 0.5));
    assert_eq!(r.block.f1, 2.0 / 3.0);
    // T = .05: nothing is content; precision 1 by convention, recall 0.
    let r = &rows[3];
    assert_eq!(r.content_blocks, 0);
    assert_eq!(
        (r.block.precision, r.block.recall, r.block.f1),
        (1.0, 0.0, 0.0)
    );
    assert_eq!(r.block.accuracy, 2.0 / 6.0);
}

/// A small deterministic generator (64-bit LCG) for synthetic marginals.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[test]
fn content_shrinks_and_precision_recall_trade_as_threshold_falls() {
    let mut rng = Lcg(7);
    let mut m = Vec::new();
    let mut g = Vec::new();
    for _ in 0..40 {
        let n = 1 + (rng.next() * 30.0) as usize;
        let mut pm = Vec::new();
        let mut pg = Vec::new();
        for _ in 0..n {
            let (a, b, c) = (rng.next(), rng.next(), rng.next());
            let s = a + b + c;
            pm.push([a / s, b / s, c / s]);
            // Gold correlates with the marginals, so recall falls as T falls.
            pg.push(if c / s > rng.next() {
                O
            } else if a > b {
                H
            } else {
                T
            });
        }
        m.push(pm);
        g.push(pg);
    }
    let mut thresholds = threshold_grid(0.0, 1.0, 0.02).expect("a valid grid");
    thresholds.reverse();
    let rows = sweep(&pages(&m, &g), &thresholds).expect("valid");
    for pair in rows.windows(2) {
        let (hi, lo) = (&pair[0], &pair[1]);
        assert!(
            lo.content_blocks <= hi.content_blocks,
            "at T={}",
            lo.threshold
        );
        assert!(lo.counts.correct_content() <= hi.counts.correct_content());
        assert!(lo.block.recall <= hi.block.recall);
        assert_eq!(lo.counts.total(), hi.counts.total());
    }
    let total: u64 = m.iter().map(|p| p.len() as u64).sum();
    assert_eq!(
        rows.first().map(|r| r.content_blocks),
        Some(total),
        "T = 1 keeps every block"
    );
    assert_eq!(
        rows.last().map(|r| r.content_blocks),
        Some(0),
        "T = 0 keeps none"
    );
    assert!(rows[25].block.precision > rows[0].block.precision);
}

#[test]
fn text_level_through_the_callers_closure() {
    let (m, g) = hand_made();
    let blocks: Vec<Vec<&str>> = vec![
        vec!["alpha beta gamma", "Heading", "menu menu", "copyright"],
        vec!["delta", "epsilon zeta"],
    ];
    let gold_texts = ["Heading\nalpha beta gamma", "delta epsilon zeta"];
    let mut tok = Tokenizer::new();
    let gold: Vec<TokenBag> = gold_texts.iter().map(|t| tok.bag(t)).collect();
    let mut calls = Vec::new();
    let rows = sweep_with_text(
        &pages(&m, &g),
        &gold,
        &[1.0, 0.95, 0.5, 0.45, 0.3],
        |page, labels, out| {
            calls.push(page);
            for (text, label) in blocks[page].iter().zip(labels) {
                if label.is_content() {
                    out.push_str(text);
                    out.push('\n');
                }
            }
        },
    )
    .expect("valid");
    // Page 0 (P(other) .1 .4 .6 .9) changes labels at .5 and .3, page 1 (.2 .7) at .5 only;
    // at the other thresholds the previous text score is reused.
    assert_eq!(calls, [0, 0, 0, 1, 1]);

    let text = |i: usize| rows[i].text.expect("text scored");
    // T = 1: page 0 extracts 7 tokens, 4 of them gold (4 gold): P 4/7, R 1.
    // Page 1: all 3 tokens, P 1, R 1.
    let t = text(0);
    assert_eq!(t.pages, 2);
    assert_eq!(t.macro_avg.precision, (4.0 / 7.0 + 1.0) / 2.0);
    assert_eq!(t.macro_avg.recall, 1.0);
    // T = .5: page 0 keeps "alpha beta gamma" + "Heading" (P 1, R 1); page 1 keeps "delta"
    // (P 1, R 1/3, F1 .5).
    let t = text(2);
    assert_eq!(
        (t.macro_avg.precision, t.macro_avg.recall),
        (1.0, (1.0 + 1.0 / 3.0) / 2.0)
    );
    assert!((t.macro_avg.f1 - 0.75).abs() < 1e-12);
    assert_eq!(t.micro.recall, 5.0 / 7.0);
    // T = .3: page 0 keeps only the first block: R 3/4.
    let pages0 = rows[4].text_pages.as_ref().expect("per page");
    assert_eq!(pages0.pages()[0].overlap, 3);
    assert_eq!(pages0.pages()[0].prf().recall, 0.75);
    // Block figures are the same as without text.
    let plain = sweep(&pages(&m, &g), &[1.0, 0.95, 0.5, 0.45, 0.3]).expect("valid");
    for (a, b) in rows.iter().zip(&plain) {
        assert_eq!(a.counts, b.counts);
    }
}

#[test]
fn invalid_input_is_an_error() {
    let (m, g) = hand_made();
    let ok = pages(&m, &g);
    assert!(matches!(
        sweep(&ok, &[0.5, f64::NAN]),
        Err(SweepError::InvalidThreshold { index: 1, .. })
    ));
    let short = [T];
    let bad_len = [SweepPage {
        marginals: &m[0],
        gold: &short,
    }];
    assert_eq!(
        sweep(&bad_len, &[0.5]).err(),
        Some(SweepError::LengthMismatch {
            page: 0,
            marginals: 4,
            gold: 1
        })
    );
    let nan = [[0.1, f64::INFINITY, 0.2]];
    let bad_m = [
        ok[0],
        SweepPage {
            marginals: &nan,
            gold: &short,
        },
    ];
    assert!(matches!(
        sweep(&bad_m, &[0.5]),
        Err(SweepError::InvalidMarginals {
            page: 1,
            block: 0,
            ..
        })
    ));
    let gold = [TokenBag::new()];
    assert_eq!(
        sweep_with_text(&ok, &gold, &[0.5], |_, _, _| {}).err(),
        Some(SweepError::GoldTextCount {
            pages: 2,
            gold_texts: 1
        })
    );
    assert!(
        sweep(&[], &[0.5]).expect("no pages is fine")[0]
            .text
            .is_none()
    );
    assert!(sweep(&ok, &[]).expect("no thresholds is fine").is_empty());
}
