//! Prints the blocks of annotated pages with their labels: one line per block, `H`/`T`/`.` for
//! header/text/other, the block's ancestor path and its text. A debugging aid for importers
//! and for checking hand-made labels.
//!
//! Usage: `cargo run -p victor-annotations --example show_labels -- SET_DIR [ID…]` (all pages
//! of the set when no id is given).

use std::io::Write;

use victor_annotations::Label;
use victor_annotations::{Corpus, PageRef};
use victor_features::Segmenter;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((dir, ids)) = args.split_first() else {
        return Err("usage: show_labels SET_DIR [ID…]".into());
    };
    let corpus = Corpus::open([dir], None)?;
    let pages: Vec<&PageRef> = corpus
        .pages()
        .iter()
        .filter(|p| ids.is_empty() || ids.contains(&p.id))
        .collect();
    let mut segmenter = Segmenter::new();
    let mut out = std::io::stdout().lock();
    for p in pages {
        let a = p.load(&mut segmenter)?;
        writeln!(out, "# {} ({} blocks)", a.id, a.page.blocks.len())?;
        for (i, (b, l)) in a.page.blocks.iter().zip(&a.labels).enumerate() {
            let mark = match l {
                Label::Header => 'H',
                Label::Text => 'T',
                Label::Other => '.',
            };
            writeln!(
                out,
                "{mark} {i:>4} {} | {}",
                a.page.path(b.parent),
                a.page.block_text(b)
            )?;
        }
    }
    Ok(())
}
