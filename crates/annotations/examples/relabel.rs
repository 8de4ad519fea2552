//! Changes block labels of a page in an annotated set by hand: `BLOCK=LABEL` pairs, block
//! indices as `show_labels` prints them. The page is loaded (every existing label checked),
//! relabelled, re-anchored, and its labels file rewritten atomically; the page file stays.
//!
//! Usage: `cargo run -p victor-annotations --example relabel -- SET_DIR ID BLOCK=LABEL…`,
//! e.g. `relabel annotations/examples forum-bike-chain 7=header 20=other`.

use victor_annotations::Label;
use victor_annotations::{Corpus, SetWriter};
use victor_features::Segmenter;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, id, changes @ ..] = args.as_slice() else {
        return Err("usage: relabel SET_DIR ID BLOCK=LABEL…".into());
    };
    let corpus = Corpus::open([dir], None)?;
    let page = corpus
        .pages()
        .iter()
        .find(|p| &p.id == id)
        .ok_or_else(|| format!("no page {id} in {dir}"))?;
    let mut loaded = page.load(&mut Segmenter::new())?;
    for change in changes {
        let (block, label) = change
            .split_once('=')
            .ok_or_else(|| format!("expected BLOCK=LABEL, not {change:?}"))?;
        let block: usize = block.parse()?;
        let label: Label = label.parse()?;
        let slot = loaded
            .labels
            .get_mut(block)
            .ok_or_else(|| format!("page {id} has no block {block}"))?;
        *slot = label;
    }
    loaded.record.set_labels(&loaded.page, &loaded.labels)?;
    SetWriter::open(dir)?.write_labels(&loaded.record)?;
    Ok(())
}
