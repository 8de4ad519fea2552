//! The annotation effort of a few pages: clicks and key presses that bring each page to its gold
//! labels in the annotation tool, from nothing (every block `other`) and from a model's
//! pre-labelling, by the tool's rules (`victor_annotator::effort`, the rules the browser test
//! checks against the tool's own counters).
//!
//! ```text
//! cargo run --release -p victor-annotator --example effort -- SET N [MODEL_DIR]
//! ```
//!
//! SET is an annotated set (e.g. made by `victor import`); its first N test pages (by id) are used.

use std::path::PathBuf;

use victor_annotations::Corpus;
use victor_annotations::Label;
use victor_annotator::{effort, plan};
use victor_label::{Labeler, Model};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let set = PathBuf::from(args.next().ok_or("usage: effort SET N [MODEL_DIR]")?);
    let n: usize = args
        .next()
        .ok_or("usage: effort SET N [MODEL_DIR]")?
        .parse()?;
    let model = args
        .next()
        .map(|m| Model::load(&PathBuf::from(m)))
        .transpose()?;
    let mut labeler = model.as_ref().map(Labeler::new);
    // Test pages only: the shipped models were trained on dev pages.
    let corpus = Corpus::open([&set], Some("test"))?;
    println!("page\tblocks\tcontent\tclicks\tkeys\tclicks_model\tkeys_model\tblocks_model_wrong");
    let mut total = [0usize; 5];
    for page in corpus.iter().take(n) {
        let page = page?;
        let gold = &page.labels;
        let none = vec![Label::Other; gold.len()];
        let e = effort(&plan(&none, gold));
        let (mut cm, mut km, mut wrong) = (0, 0, 0);
        if let Some(l) = labeler.as_mut() {
            let bytes = std::fs::read(set.join("pages").join(format!("{}.html", page.id)))?;
            let decoding = l.default_decoding();
            let labelled = l.label_bytes(&bytes, decoding)?;
            if labelled.labels.len() != gold.len() {
                return Err(format!("{}: the model's page has other blocks", page.id).into());
            }
            let em = effort(&plan(&labelled.labels, gold));
            (cm, km) = (em.clicks, em.keys);
            wrong = labelled
                .labels
                .iter()
                .zip(gold)
                .filter(|(a, b)| a != b)
                .count();
        }
        let content = gold.iter().filter(|l| l.is_content()).count();
        println!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            page.id,
            gold.len(),
            content,
            e.clicks,
            e.keys,
            cm,
            km,
            wrong
        );
        for (t, v) in total.iter_mut().zip([e.clicks, e.keys, cm, km, wrong]) {
            *t += v;
        }
    }
    println!(
        "total\t\t\t{}\t{}\t{}\t{}\t{}",
        total[0], total[1], total[2], total[3], total[4]
    );
    Ok(())
}
