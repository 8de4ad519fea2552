//! The order `victor annotate --order uncertain` offers pages in: ids of an annotated set's pages
//! (one split) with the model's expected text-level F1, lowest first.
//!
//! ```text
//! cargo run --release -p victor-annotator --example order -- SET MODEL_DIR [SPLIT]
//! ```

use std::path::PathBuf;

use victor_annotations::Corpus;
use victor_label::{Labeler, Model};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: order SET MODEL_DIR [SPLIT]";
    let set = PathBuf::from(args.next().ok_or(usage)?);
    let model = Model::load(&PathBuf::from(args.next().ok_or(usage)?))?;
    let split = args.next();
    let corpus = Corpus::open([&set], split.as_deref())?;
    let mut labeler = Labeler::new(&model);
    let mut scored = Vec::new();
    for page in corpus.pages() {
        let bytes = page.bytes()?;
        match labeler.expected_f1(&bytes) {
            Ok(f) => scored.push((f, page.id.clone())),
            Err(e) => eprintln!("{}: {e}", page.id),
        }
    }
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (f, id) in scored {
        println!("{id}\t{f:.4}");
    }
    Ok(())
}
