//! Hand-made alignment cases with exact expectations: each one is a way gold text and page
//! blocks disagree in the real gold standards.

use victor_annotations::Label;
use victor_annotations::{AlignConfig, Alignment, BlockAlignment, GoldSegment, SegmentKind, align};

use Label::{Header as H, Other as O, Text as T};
use SegmentKind::{Header, ListItem, NotContent, Paragraph};

fn run(blocks: &[&str], gold: &[(&str, SegmentKind)]) -> Alignment<SegmentKind> {
    let segments = gold.iter().map(|&(text, tag)| GoldSegment::new(text, tag));
    align(blocks, segments, &AlignConfig::default()).expect("alignment")
}

/// (tokens, aligned) per block.
fn counts(a: &Alignment<SegmentKind>) -> Vec<(u32, u32)> {
    a.blocks().iter().map(|b| (b.tokens, b.aligned)).collect()
}

/// Found tokens per segment.
fn found(a: &Alignment<SegmentKind>) -> Vec<u32> {
    a.segments().iter().map(|s| s.found).collect()
}

const P1: &str = "The council met on Tuesday to discuss the new budget for schools.";
const P2: &str = "Teachers asked for smaller classes and better pay across the region.";
const P3: &str = "A final vote is expected next month after a public consultation.";

#[test]
fn identical_text_aligns_fully() {
    let a = run(&[P1, P2], &[(P1, Paragraph), (P2, Paragraph)]);
    assert_eq!(counts(&a), [(12, 12), (11, 11)]);
    assert_eq!(found(&a), [12, 11]);
    assert_eq!(a.labels(0.5), [T, T]);
    let t = a.totals();
    assert_eq!(
        (t.gold_tokens, t.gold_found, t.page_tokens, t.page_content),
        (23, 23, 23, 23)
    );
    assert_eq!(a.blocks()[0].tag, Some(Paragraph));
}

#[test]
fn reordered_paragraphs() {
    let a = run(
        &[P1, P2, P3],
        &[(P3, Paragraph), (P1, Header), (P2, ListItem)],
    );
    assert_eq!(counts(&a), [(12, 12), (11, 11), (11, 11)]);
    assert_eq!(found(&a), [11, 12, 11]);
    let tags: Vec<_> = a.blocks().iter().map(|b| b.tag).collect();
    assert_eq!(tags, [Some(Header), Some(ListItem), Some(Paragraph)]);
    assert_eq!(a.labels(0.5), [H, T, T]);
}

#[test]
fn page_paragraph_missing_from_gold() {
    let a = run(
        &[
            "Home",
            "Sports",
            P1,
            "Subscribe to our newsletter for the latest budget news.",
            P2,
        ],
        &[(P1, Paragraph), (P2, Paragraph)],
    );
    assert_eq!(counts(&a), [(1, 0), (1, 0), (12, 12), (9, 0), (11, 11)]);
    assert_eq!(a.labels(0.5), [O, O, T, O, T]);
}

#[test]
fn gold_paragraph_missing_from_page_stays_unaligned() {
    let a = run(
        &[P1, P2],
        &[
            (P1, Paragraph),
            (
                "This sentence about the schools was never on the page.",
                Paragraph,
            ),
            (P2, Paragraph),
        ],
    );
    assert_eq!(counts(&a), [(12, 12), (11, 11)]);
    assert_eq!(found(&a), [12, 0, 11]);
    let t = a.totals();
    assert_eq!((t.gold_tokens, t.gold_found), (33, 23));
    assert_eq!((t.content_gold_tokens, t.content_gold_found), (33, 23));
}

#[test]
fn paragraph_split_by_inline_tags() {
    // <h1>Hello <b>world</b>!</h1><p>Some <i>text</i> here, and <a>more</a>.</p>
    let a = run(
        &[
            "Menu",
            "Hello",
            "world",
            "!",
            "Some",
            "text",
            "here, and",
            "more",
            ".",
            "Footer",
        ],
        &[
            ("Hello world!", Header),
            ("Some text here, and more.", Paragraph),
        ],
    );
    assert_eq!(
        counts(&a),
        [
            (1, 0),
            (1, 1),
            (1, 1),
            (0, 0),
            (1, 1),
            (1, 1),
            (2, 2),
            (1, 1),
            (0, 0),
            (1, 0)
        ]
    );
    // "!" lies between two content blocks and takes the label of the one before; "." lies
    // between content and boilerplate and stays other.
    assert_eq!(a.labels(0.5), [O, H, H, H, T, T, T, T, O, O]);
    assert_eq!(found(&a), [2, 5]);
}

#[test]
fn bullets_and_rules_in_gold() {
    let a = run(
        &[
            "Your Home Will Sell",
            "Fast",
            "For Top Dollar",
            "With the Least Amount of Hassle",
            "Call us today",
        ],
        &[
            ("Your Home Will Sell", Header),
            ("* Fast", ListItem),
            ("o For Top Dollar", ListItem),
            ("________________", Paragraph),
            ("o With the Least Amount of Hassle", ListItem),
        ],
    );
    assert_eq!(counts(&a), [(4, 4), (1, 1), (3, 3), (6, 6), (3, 0)]);
    assert_eq!(found(&a), [4, 1, 3, 0, 6]);
    assert_eq!(a.labels(0.5), [H, T, T, T, O]);
}

#[test]
fn question_marks_for_quotes_dashes_and_lost_letters() {
    let a = run(
        &[
            "No agreement reached on Kosovo’s future status in Security Council",
            "16 January 2008 – The Security Council today discussed the mission in Kosovo — a Serbian province.",
            "Novak Đoković won the final in straight sets.",
        ],
        &[
            (
                "No agreement reached on Kosovo?s future status in Security Council",
                Header,
            ),
            (
                "16 January 2008 ? The Security Council today discussed the mission in Kosovo ? a Serbian province.",
                Paragraph,
            ),
            ("Novak ?okovi? won the final in straight sets.", Paragraph),
        ],
    );
    assert_eq!(counts(&a), [(11, 11), (15, 15), (8, 8)]);
    assert_eq!(found(&a), [11, 15, 8]);
    assert_eq!(a.labels(0.5), [H, T, T]);
}

#[test]
fn common_words_in_a_menu_are_not_picked_up() {
    // The gold ends with a credit line that is not in the page; its words "the team" are a
    // menu entry and "news" another: lone or short matches there must not count.
    let a = run(
        &["News", "The Team", "Contact", P1, P2, "Share this"],
        &[
            (P1, Paragraph),
            (P2, Paragraph),
            ("Written by the team for the news desk", Paragraph),
        ],
    );
    assert_eq!(
        counts(&a),
        [(1, 0), (2, 0), (1, 0), (12, 12), (11, 11), (2, 0)]
    );
    assert_eq!(found(&a), [12, 11, 0]);
    assert_eq!(a.labels(0.5), [O, O, O, T, T, O]);
}

#[test]
fn lone_word_inside_a_longer_block_does_not_count_for_a_short_segment() {
    // "Why?" is a gold heading; the page only has "why" inside unrelated text far away.
    let a = run(
        &["Tell us why you came here today", P1, P2],
        &[(P1, Paragraph), ("Why?", Header), (P2, Paragraph)],
    );
    assert_eq!(counts(&a), [(7, 0), (12, 12), (11, 11)]);
    assert_eq!(found(&a), [12, 0, 11]);
}

#[test]
fn short_heading_matches_a_whole_block() {
    let a = run(
        &["Why?", "Blog", P1, "Why?", P2],
        &[(P1, Paragraph), ("Why?", Header), (P2, Paragraph)],
    );
    assert_eq!(counts(&a), [(1, 0), (1, 0), (12, 12), (1, 1), (11, 11)]);
    assert_eq!(a.labels(0.5), [O, O, T, H, T]);
}

#[test]
fn repeated_paragraph_goes_where_the_context_says() {
    let s = "Click here to read the full report on the budget.";
    let a = run(
        &[
            P1,
            "Advertisement",
            s,
            "Related stories",
            P2,
            "Most read",
            s,
        ],
        &[(P1, Paragraph), (s, Paragraph), (P2, Paragraph)],
    );
    assert_eq!(
        counts(&a),
        [
            (12, 12),
            (1, 0),
            (10, 10),
            (2, 0),
            (11, 11),
            (2, 0),
            (10, 0)
        ]
    );
    // And with the page's copies the other way round around the context.
    let b = run(
        &[s, "Most read", P1, "Advertisement", s, P2],
        &[(P1, Paragraph), (s, Paragraph), (P2, Paragraph)],
    );
    assert_eq!(
        counts(&b),
        [(10, 0), (2, 0), (12, 12), (1, 0), (10, 10), (11, 11)]
    );
}

#[test]
fn gold_paragraphs_merged_and_split_differently() {
    let a = run(
        &[&format!("{P1} {P2}"), P3],
        &[(P1, Paragraph), (&format!("{P2} {P3}"), Paragraph)],
    );
    assert_eq!(counts(&a), [(23, 23), (11, 11)]);
    assert_eq!(found(&a), [12, 22]);
}

#[test]
fn typos_between_anchors_are_bridged() {
    let a = run(
        &[
            "Home",
            "Bang a sign into your lawn and wait for buyers to call you back soon.",
        ],
        &[(
            "Bang a sign in to your lawn and wait for byers to call you back soon",
            Paragraph,
        )],
    );
    // "in to" for "into" and "byers" for "buyers" are substitutions between anchors.
    assert_eq!(counts(&a), [(1, 0), (15, 15)]);
    assert_eq!(found(&a), [16]);
}

#[test]
fn words_run_together_in_gold_are_bridged() {
    let a = run(
        &[
            "This is our 15th year doing outreach around the State of Oregon and occasionally into Washington and California.",
        ],
        &[(
            "This is our 15th year doing outreach around the State of Oregon andoccasionallyinto Washington and California.",
            Paragraph,
        )],
    );
    assert_eq!(counts(&a), [(18, 18)]);
    assert_eq!(found(&a), [16]);
}

#[test]
fn short_runs_between_anchors_come_from_a_local_lcs() {
    let a = run(
        &[
            "Menu",
            "We offer free estimates, fast service and friendly staff every day.",
        ],
        &[(
            "We offer free estimate fast service, and very friendly staff every day",
            Paragraph,
        )],
    );
    // "fast service and" by LCS, "estimate" ~ "estimates" by substitution; "very" is not found.
    assert_eq!(counts(&a), [(1, 0), (11, 11)]);
    assert_eq!(found(&a), [11]);
}

#[test]
fn not_content_gold_anchors_boilerplate() {
    let a = run(
        &["Home News Sport", P1, "Home News Sport"],
        &[
            ("Home News Sport", NotContent),
            (P1, Header),
            ("Home News Sport", NotContent),
        ],
    );
    assert_eq!(counts(&a), [(3, 3), (12, 12), (3, 3)]);
    let b: Vec<&BlockAlignment<SegmentKind>> = a.blocks().iter().collect();
    assert_eq!((b[0].content, b[0].tag), (0, Some(NotContent)));
    assert_eq!((b[1].content, b[1].header), (12, 12));
    assert_eq!(a.labels(0.5), [O, H, O]);
    let t = a.totals();
    assert_eq!(
        (
            t.gold_tokens,
            t.content_gold_tokens,
            t.page_aligned,
            t.page_content
        ),
        (18, 12, 18, 12)
    );
}

#[test]
fn empty_gold() {
    let a = run(&[P1, "Footer"], &[]);
    assert_eq!(counts(&a), [(12, 0), (1, 0)]);
    assert!(a.segments().is_empty());
    assert_eq!(a.labels(0.5), [O, O]);
    let f = a.fidelity(&a.labels(0.5)).expect("fidelity");
    assert_eq!((f.gold_content_tokens, f.labelled_content_tokens), (0, 0));
    assert_eq!((f.recall(), f.precision()), (1.0, 1.0));
}

#[test]
fn empty_page() {
    let a = run(&[], &[(P1, Paragraph), ("", Paragraph)]);
    assert!(a.blocks().is_empty());
    assert_eq!(found(&a), [0, 0]);
    let t = a.totals();
    assert_eq!((t.gold_tokens, t.gold_found), (12, 0));
    assert!(a.labels(0.5).is_empty());
}

#[test]
fn threshold_and_fidelity() {
    // Half of the second block is gold.
    let a = run(
        &[P1, "Budget news: teachers asked for smaller classes"],
        &[
            (P1, Paragraph),
            ("teachers asked for smaller classes", Paragraph),
        ],
    );
    assert_eq!(counts(&a), [(12, 12), (7, 5)]);
    assert_eq!(a.labels(0.5), [T, T]);
    assert_eq!(a.labels(0.8), [T, O]);
    let f = a.fidelity(&a.labels(0.5)).expect("fidelity");
    assert_eq!(
        (
            f.gold_content_tokens,
            f.gold_content_covered,
            f.labelled_content_tokens,
            f.labelled_content_in_gold
        ),
        (17, 17, 19, 17)
    );
    let f = a.fidelity(&a.labels(0.8)).expect("fidelity");
    assert_eq!(
        (f.gold_content_covered, f.labelled_content_tokens),
        (12, 12)
    );
    assert!(a.fidelity(&[T]).is_err());
}

#[test]
fn chinese_text_aligns_by_characters_and_a_menu_of_its_characters_stays_out() {
    // Every Han character is a token; the menu's entries are made of characters the article
    // uses ("经济", "新闻", "国家"), which must not count as found.
    const Z1: &str = "据新华社报道，国家统计局今天发布数据显示，前三季度经济运行总体平稳。";
    const Z2: &str = "分析人士指出，消费对经济增长的贡献率继续提高，服务业保持较快增长。";
    let a = run(
        &[
            "首页",
            "新闻",
            "经济",
            "国家",
            "前三季度经济数据发布",
            Z1,
            Z2,
            "分享到：微博",
        ],
        &[
            ("前三季度经济数据发布", Header),
            (Z1, Paragraph),
            (Z2, Paragraph),
        ],
    );
    assert_eq!(
        counts(&a),
        [
            (2, 0),
            (2, 0),
            (2, 0),
            (2, 0),
            (10, 10),
            (31, 31),
            (30, 30),
            (5, 0)
        ]
    );
    assert_eq!(found(&a), [10, 31, 30]);
    assert_eq!(a.labels(0.5), [O, O, O, O, H, T, T, O]);
}
