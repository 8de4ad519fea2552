//! Fuzz target: arbitrary bytes through the whole first stage (decode, segment, features),
//! checking the invariants every page must keep.
//!
//! Run with `cargo fuzz run segment` (from the repository root; see `fuzz/README.md`).
//! The same checks are replayed by `crates/features/tests/decode_bad_input.rs` on mutated
//! real pages, so they also run in CI without a fuzzer.

#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use victor_features::{Extractor, FeatureConfig, Segmenter, decode};

fn extractor() -> &'static Extractor {
    static EXTRACTOR: OnceLock<Extractor> = OnceLock::new();
    EXTRACTOR
        .get_or_init(|| Extractor::new(&FeatureConfig::default()).expect("default config compiles"))
}

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = decode(data) else {
        return;
    };
    let mut segmenter = Segmenter::new();
    let Ok(page) = segmenter.segment(&doc.text) else {
        return;
    };
    let text: &str = &doc.text;
    let mut prev_end = 0u32;
    for (i, b) in page.blocks.iter().enumerate() {
        // Source ranges lie within the document, on char boundaries, and increase.
        assert!(b.source.start <= b.source.end, "block {i}: reversed source");
        assert!(
            (b.source.end as usize) <= text.len(),
            "block {i}: source past the end"
        );
        assert!(
            text.get(b.source.start as usize..b.source.end as usize)
                .is_some(),
            "block {i}: source not on char boundaries"
        );
        assert!(
            b.source.start >= prev_end,
            "block {i}: source ranges overlap"
        );
        prev_end = b.source.end;
        // Text is non-empty and trimmed.
        let t = page.block_text(b);
        assert!(!t.is_empty(), "block {i}: empty text");
        assert_eq!(t, t.trim(), "block {i}: untrimmed text");
        // The parent is a real element and the ancestor walk ends at the root.
        assert!(
            (b.parent as usize) < page.elements.len() && b.parent != 0,
            "block {i}: parent {} out of range",
            b.parent
        );
        let mut steps = 0usize;
        let mut e = b.parent;
        while e != 0 {
            e = page.elements[e as usize].parent;
            steps += 1;
            assert!(steps <= page.elements.len(), "block {i}: ancestor cycle");
        }
        assert!(b.splits.start <= b.splits.end && (b.splits.end as usize) <= page.splits.len());
    }
    let table = extractor().extract(&page);
    assert_eq!(table.blocks, page.blocks.len());
    for bi in 0..page.blocks.len() {
        assert_eq!(table.row(bi).len(), table.columns);
    }
});
