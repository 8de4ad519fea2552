//! Adds the page sample ([`victor_label::gate::PageSample`]) to a bundle trained before bundles
//! stored one, from the annotated sets it was trained on, without touching anything else:
//!
//! ```text
//! cargo run --release -p victor-train --example page_sample -- models/web
//! ```
//!
//! The sets are the folders its `victor.json` records (`data.sets`, relative to where this runs),
//! read with the split it records. Their pages are streamed exactly as training streams them
//! (`victor_train::export_crfsuite`, to /dev/null) and each set's page count compared with the
//! bundle's: other counts mean other pages, and nothing is written. The data digest is compared
//! too, and a difference only reported: it covers the labels as well, which a re-import may
//! have changed, while a profile depends on the page alone.
//! The new `victor.json` is the old one byte for byte but for the added `pages`, which is
//! checked before it is written (so the bundle labels exactly as before).

use std::path::{Path, PathBuf};

use victor_annotations::{Corpus, JsonLayout};
use victor_features::{Extractor, Template};
use victor_label::{BundleMeta, META_FILE};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .ok_or("usage: page_sample BUNDLE_DIR")?,
    );
    let path = dir.join(META_FILE);
    let old = std::fs::read_to_string(&path)?;
    let mut meta = BundleMeta::parse(&old, &dir)?;
    if JsonLayout::BUNDLE.to_string(&meta)? + "\n" != old {
        return Err(format!("{}: not in the layout victor writes", path.display()).into());
    }
    let extractor = Extractor::new(&meta.features)?;
    let template = Template::parse(&meta.template, extractor.schema())?;
    let setup = victor_train::Setup {
        extractor: &extractor,
        template: &template,
    };
    let mut pages = Vec::new();
    for s in &meta.data.sets {
        let split = (!s.split.is_empty()).then_some(s.split.as_str());
        let corpus = Corpus::open([Path::new(&s.path)], split)?;
        eprintln!("{}: {} pages", s.path, corpus.pages().len());
        if corpus.pages().len() != s.pages {
            return Err(format!(
                "{} holds {} pages, where the bundle records {}",
                s.path,
                corpus.pages().len(),
                s.pages
            )
            .into());
        }
        pages.extend(corpus.pages().iter().cloned());
    }
    let sum = victor_train::export_crfsuite(&pages, setup, Path::new("/dev/null"), &|_| {})?;
    if sum.pages != meta.data.pages {
        return Err(format!(
            "{} pages could be used, where the bundle records {}",
            sum.pages, meta.data.pages
        )
        .into());
    }
    if sum.digest != meta.data.digest {
        eprintln!(
            "note: the data digest differs ({} here, {} recorded): the same pages, labelled otherwise since",
            sum.digest, meta.data.digest
        );
    }
    meta.pages = Some(victor_train::gate::sample_pages(&sum.profiles));
    let new = JsonLayout::BUNDLE.to_string(&meta)? + "\n";
    let mut back = BundleMeta::parse(&new, &dir)?;
    back.pages = None;
    if JsonLayout::BUNDLE.to_string(&back)? + "\n" != old {
        return Err("the new description would differ beyond its page sample".into());
    }
    victor_features::file::write_file(&path, new.as_bytes())?;
    let sample = meta.pages.as_ref().map_or(0, |p| p.sample.pages);
    eprintln!(
        "{}: {sample} of {} pages sampled",
        path.display(),
        sum.pages
    );
    Ok(())
}
