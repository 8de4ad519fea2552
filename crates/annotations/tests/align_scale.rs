//! Large and pathological inputs: the aligner must stay fast and exact on big pages and must
//! not blow up on repetitive ones.

use std::time::{Duration, Instant};

use victor_annotations::{AlignConfig, GoldSegment, SegmentKind, align};

/// A small deterministic generator (64-bit LCG) so the test needs no dependency.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A paragraph of `n` words drawn from `vocab` words spelt `{prefix}{i}`, the first 20 of
/// which (like "the", "of") make up about half of the text.
fn paragraph(rng: &mut Lcg, prefix: &str, vocab: usize, n: usize) -> String {
    let mut s = String::new();
    for k in 0..n {
        let w = if rng.below(2) == 0 {
            rng.below(20)
        } else {
            rng.below(vocab)
        };
        if k > 0 {
            s.push(' ');
        }
        s.push_str(prefix);
        s.push_str(&w.to_string());
    }
    s.push('.');
    s
}

/// Generous for a loaded 2-core machine; the alignment takes a fraction of it.
const LIMIT: Duration = Duration::from_secs(20);

#[test]
fn large_page_aligns_exactly_and_fast() {
    let mut rng = Lcg(7);
    // 2,000 blocks of 50 words: 100,000 page tokens.
    let blocks: Vec<String> = (0..2000)
        .map(|_| paragraph(&mut rng, "w", 3000, 50))
        .collect();
    // Gold: every third block, neighbouring pairs swapped, plus 20 paragraphs not in the page.
    let mut chosen: Vec<usize> = (0..blocks.len()).step_by(3).collect();
    for pair in chosen.chunks_mut(2) {
        pair.reverse();
    }
    let absent: Vec<String> = (0..20)
        .map(|_| paragraph(&mut rng, "x", 3000, 40))
        .collect();
    let mut gold: Vec<GoldSegment<&str, SegmentKind>> = chosen
        .iter()
        .map(|&b| GoldSegment::new(blocks[b].as_str(), SegmentKind::Paragraph))
        .collect();
    for (k, a) in absent.iter().enumerate() {
        gold.insert(k * 30, GoldSegment::new(a.as_str(), SegmentKind::Paragraph));
    }

    let start = Instant::now();
    let a = align(&blocks, gold, &AlignConfig::default()).expect("alignment");
    let took = start.elapsed();
    assert!(took < LIMIT, "took {took:?}");

    let t = a.totals();
    assert_eq!(t.page_tokens, 100_000);
    assert_eq!(t.gold_tokens, 667 * 50 + 20 * 40);
    assert_eq!(t.gold_found, 667 * 50);
    assert_eq!(t.page_aligned, 667 * 50);
    for (b, block) in a.blocks().iter().enumerate() {
        let expected = if b % 3 == 0 { 50 } else { 0 };
        assert_eq!(block.aligned, expected, "block {b}");
    }
}

#[test]
fn repetitive_page_stays_bounded() {
    // 25,000 identical blocks ("a b c d"), gold 5,000 identical segments: every k-gram is far
    // too frequent to seed, so whole-block matching, guided by context, does the work.
    let blocks = vec!["a b c d"; 25_000];
    let gold = vec![GoldSegment::new("a b c d", SegmentKind::Paragraph); 5_000];
    let start = Instant::now();
    let a = align(&blocks, gold, &AlignConfig::default()).expect("alignment");
    let took = start.elapsed();
    assert!(took < LIMIT, "took {took:?}");
    let t = a.totals();
    assert_eq!(
        (t.page_tokens, t.gold_tokens, t.gold_found),
        (100_000, 20_000, 20_000)
    );
    // Consecutive segments land on consecutive blocks.
    assert!(a.blocks()[..5000].iter().all(|b| b.aligned == 4));
    assert!(a.blocks()[5000..].iter().all(|b| b.aligned == 0));
}

#[test]
fn repetitive_text_in_one_block_stays_bounded() {
    // One block of 60,000 tokens cycling through three words, gold the same cycle 20,000 times
    // long: no seed, no equal block, no bracketing anchor. Nothing aligns, quickly.
    let page = "x y z ".repeat(20_000);
    let gold = "x y z ".repeat(6_000);
    let start = Instant::now();
    let a = align(
        [page.as_str()],
        [GoldSegment::new(gold.as_str(), SegmentKind::Paragraph)],
        &AlignConfig::default(),
    )
    .expect("alignment");
    assert!(start.elapsed() < LIMIT);
    assert_eq!(a.totals().gold_found, 0);
}

#[test]
fn moderately_repeated_text_is_tiled_in_order() {
    // The same 40-word paragraph 50 times in the page (under the seed cap) and 10 times in
    // the gold: the gold copies take the first ten page copies, in order.
    let mut rng = Lcg(11);
    let p = paragraph(&mut rng, "w", 500, 40);
    let blocks = vec![p.as_str(); 50];
    let gold = vec![GoldSegment::new(p.as_str(), SegmentKind::Paragraph); 10];
    let a = align(&blocks, gold, &AlignConfig::default()).expect("alignment");
    let aligned: Vec<u32> = a.blocks().iter().map(|b| b.aligned).collect();
    let mut expected = vec![40; 10];
    expected.resize(50, 0);
    assert_eq!(aligned, expected);
}
