//! Hand-made cases with exact expected figures: tokens and bags, per-page text scores and
//! their aggregates, and the block-level metrics.

use victor_core::Label::{self, Header as H, Other as O, Text as T};
use victor_eval::{Bags, TokenBag, Tokenizer, tokens};
use victor_eval::{BlockCounts, LengthMismatch};
use victor_eval::{PageScore, Prf, TextScores};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn assert_prf(got: Prf, p: f64, r: f64, f1: f64) {
    assert!(
        close(got.precision, p) && close(got.recall, r) && close(got.f1, f1),
        "got {got:?}, expected P={p} R={r} F1={f1}"
    );
}

#[test]
fn tokens_follow_the_scorer_rules() {
    assert_eq!(
        tokens("Hello, World! hello_world 4.2 naïve"),
        ["hello", "world", "hello", "world", "4", "2", "naïve"]
    );
    // CJK and kana alone, Hangul in runs, Latin runs broken by ideographs.
    assert_eq!(
        tokens("日本語abcかな한국어"),
        ["日", "本", "語", "abc", "か", "な", "한국어"]
    );
    // NFKC: full-width letters, ligatures, superscripts, circled digits.
    assert_eq!(tokens("ＡＢＣ ﬁne x² ①"), ["abc", "fine", "x2", "1"]);
    // Final sigma, as Python's str.lower() does it.
    assert_eq!(tokens("ΟΔΟΣ ΣΑ"), ["οδος", "σα"]);
    // Combining vowel signs split a Devanagari word, as in Python's `re`.
    assert_eq!(tokens("हिन्दी"), ["ह", "न", "द"]);
    // Thai characters are single tokens, marks included.
    assert_eq!(tokens("ไม่"), ["ไ", "ม", "\u{e48}"]);
    assert!(tokens(" ,.;_ -- ").is_empty());
}

#[test]
fn bags_count_multisets() {
    let mut tok = Tokenizer::new();
    let a = tok.bag("a a b c");
    let b = tok.bag("A b b d");
    assert_eq!((a.len(), a.distinct(), b.len()), (4, 3, 4));
    assert_eq!((a.count("a"), a.count("A"), a.count("z")), (2, 0, 0));
    // min(2,1) for a + min(1,2) for b.
    assert_eq!(a.overlap(&b), 2);
    assert_eq!(b.overlap(&a), 2);
    let mut reused = TokenBag::new();
    tok.fill_bag("x y", &mut reused);
    tok.fill_bag("a a b c", &mut reused);
    assert_eq!(reused, a);
    assert!(tok.bag("").is_empty());
}

#[test]
fn page_scores_and_empty_rules() {
    assert_prf(Prf::from_counts(3, 4, 6), 0.75, 0.5, 0.6);
    // Empty gold: recall 1; precision and F1 1 only for an empty output.
    assert_prf(Prf::from_counts(0, 0, 0), 1.0, 1.0, 1.0);
    assert_prf(Prf::from_counts(0, 5, 0), 0.0, 1.0, 0.0);
    // Empty output, non-empty gold.
    assert_prf(Prf::from_counts(0, 0, 5), 0.0, 0.0, 0.0);
    // Nothing in common.
    assert_prf(Prf::from_counts(0, 3, 4), 0.0, 0.0, 0.0);

    let mut tok = Tokenizer::new();
    let gold = tok.bag("The cat sat on the mat.");
    let page = PageScore::new(&tok.bag("the THE cat dog"), &gold);
    assert_eq!(
        page,
        PageScore {
            overlap: 3,
            extracted: 4,
            gold: 6
        }
    );
    assert_prf(page.prf(), 0.75, 0.5, 0.6);
}

fn page(overlap: u64, extracted: u64, gold: u64) -> PageScore {
    PageScore {
        overlap,
        extracted,
        gold,
    }
}

#[test]
fn aggregates_macro_micro_median() {
    let mut s = TextScores::new();
    assert_eq!(
        (s.macro_avg(), s.micro(), s.median_f1(), s.summary()),
        (None, None, None, None)
    );
    s.push(page(3, 4, 6)); // P .75  R .5   F1 .6
    s.push(page(0, 0, 0)); // P 1    R 1    F1 1
    s.push(page(2, 2, 8)); // P 1    R .25  F1 .4
    s.push(page(0, 5, 0)); // P 0    R 1    F1 0
    let summary = s.summary().expect("pages");
    assert_eq!(summary.pages, 4);
    assert_prf(summary.macro_avg, 0.6875, 0.6875, 0.5);
    // Micro: 5 common of 11 extracted and 14 gold tokens; F1 = 2*5 / (11+14).
    assert_prf(summary.micro, 5.0 / 11.0, 5.0 / 14.0, 0.4);
    // Median of [0, .4, .6, 1]: mean of the middle two.
    assert!(close(summary.median_f1, 0.5));
    assert_eq!(s.worst(2), [3, 2]);
    assert_eq!(s.worst(10), [3, 2, 0, 1]);

    let mut odd = TextScores::new();
    odd.push(page(1, 1, 4)); // F1 .4
    odd.merge(&s);
    assert_eq!(odd.len(), 5);
    assert_eq!(odd.pages()[1], page(3, 4, 6));
    // Median of [0, .4, .4, .6, 1].
    assert!(close(odd.median_f1().expect("pages"), 0.4));
    // Ties keep page order.
    assert_eq!(odd.worst(3), [4, 0, 3]);
}

#[test]
fn block_metrics_of_the_paper() {
    let gold = [H, T, T, O, O, O];
    let pred = [T, T, O, O, T, H];
    let mut c = BlockCounts::new();
    c.add_page(&gold, &pred).expect("same length");
    assert_eq!(c.confusion(), [[0, 1, 0], [0, 1, 1], [1, 1, 1]]);
    assert_eq!(c.count(H, T), 1);
    assert_eq!(
        (
            c.total(),
            c.annotated_content(),
            c.labelled_content(),
            c.correct_content()
        ),
        (6, 3, 4, 2)
    );
    let m = c.metrics();
    assert_eq!(m.blocks, 6);
    assert!(close(m.accuracy, 2.0 / 6.0));
    assert!(close(m.unlabelled_accuracy, 0.5));
    // Header labelled text counts as a correct content block.
    assert!(close(m.precision, 0.5));
    assert!(close(m.recall, 2.0 / 3.0));
    assert!(close(m.f1, 4.0 / 7.0));
}

#[test]
fn header_and_text_confusions_count_as_correct() {
    let mut c = BlockCounts::new();
    c.add_page(&[H, T, H], &[T, H, H]).expect("same length");
    assert!(close(c.precision(), 1.0) && close(c.recall(), 1.0) && close(c.f1(), 1.0));
    assert!(close(c.unlabelled_accuracy(), 1.0));
    assert!(close(c.accuracy(), 1.0 / 3.0));
}

#[test]
fn zero_denominators() {
    let empty = BlockCounts::new();
    let m = empty.metrics();
    assert_eq!(m.blocks, 0);
    assert_eq!(
        (
            m.accuracy,
            m.unlabelled_accuracy,
            m.precision,
            m.recall,
            m.f1
        ),
        (1.0, 1.0, 1.0, 1.0, 1.0)
    );

    // Nothing labelled content: precision 1, recall 0, F1 0.
    let mut none_kept = BlockCounts::new();
    none_kept
        .add_page(&[T, H, O], &[O, O, O])
        .expect("same length");
    assert_eq!(
        (none_kept.precision(), none_kept.recall(), none_kept.f1()),
        (1.0, 0.0, 0.0)
    );

    // Nothing annotated content, nothing labelled content.
    let mut all_noise = BlockCounts::new();
    all_noise.add_page(&[O, O], &[O, O]).expect("same length");
    assert_eq!(
        (all_noise.precision(), all_noise.recall(), all_noise.f1()),
        (1.0, 1.0, 1.0)
    );

    // Nothing annotated content, something labelled content: precision 0, recall 1.
    let mut false_alarm = BlockCounts::new();
    false_alarm.add_page(&[O, O], &[T, O]).expect("same length");
    assert_eq!((false_alarm.precision(), false_alarm.recall()), (0.0, 1.0));
    assert!(close(false_alarm.f1(), 0.0));
}

#[test]
fn accumulators_merge() {
    let pages: [(&[Label], &[Label]); 3] =
        [(&[H, T, O], &[T, O, O]), (&[O, O], &[T, O]), (&[T], &[T])];
    let mut all = BlockCounts::new();
    let mut parts = Vec::new();
    for (g, p) in pages {
        all.add_page(g, p).expect("same length");
        let mut one = BlockCounts::new();
        one.add_page(g, p).expect("same length");
        parts.push(one);
    }
    let summed: BlockCounts = parts.iter().sum();
    assert_eq!(summed, all);
    let mut folded = parts[0];
    folded += &parts[1];
    folded.merge(&parts[2]);
    assert_eq!(folded, all);
    let mut n = BlockCounts::new();
    n.add_n(T, O, 3);
    assert_eq!(n.count(T, O), 3);

    assert_eq!(
        all.add_page(&[T, T], &[T]),
        Err(LengthMismatch {
            gold: 2,
            predicted: 1
        })
    );
    assert_eq!(all, summed, "a rejected page adds nothing");
}
