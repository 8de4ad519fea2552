//! The cores of the seeds' rule-based cleaners that victor offers as labelers
//! (`victor-methods`) and whose signals are feature modules here (`justext`, `kimatu`; the
//! `bte` module computes body text extraction's span itself):
//!
//! - [`paragraph`]: jusText's paragraphs over victor's blocks, and their measurements;
//! - [`justext`]: jusText's classification (seed `002`);
//! - [`kimatu`]: Kimatu's blocks, ratios and steps (seed `000`).

pub mod justext;
pub mod kimatu;
pub mod paragraph;

use victor_html::Page;

/// Whether each element (indexed by id) is or sits inside an `h1` to `h6` element, in one pass
/// over the elements from the root down.
pub fn in_heading(page: &Page) -> Vec<bool> {
    inside(page, |t| t.is_heading())
}

/// Whether each element (indexed by id) is or sits inside an element whose tag `is` accepts, in
/// one pass over the elements from the root down.
pub fn inside(page: &Page, is: impl Fn(victor_html::Tag) -> bool) -> Vec<bool> {
    let mut marks = vec![false; page.elements.len()];
    for e in crate::features::structure::top_down(page) {
        let el = page.element(e);
        let parent = marks.get(el.parent as usize).copied().unwrap_or(false);
        if let Some(m) = marks.get_mut(e as usize) {
            *m = parent || is(el.tag);
        }
    }
    marks
}

#[cfg(test)]
mod tests {
    use crate::{Extractor, FeatureConfig};

    const PROSE: &str = "It was the best of times and it was the worst of times, it was the age of \
        wisdom and it was the age of foolishness, it was the epoch of belief. The council met on \
        Tuesday to discuss the new budget, and the mayor promised a decision by the spring.";

    /// The `justext` and `kimatu` modules are off by default and, switched on, give the
    /// methods' signals per block.
    #[test]
    fn justext_and_kimatu_feature_modules() {
        let page = crate::segment(&format!(
            "<body><div class=nav><a href=/>Home</a> <a href=/n>News</a></div>\
             <div class=story><p>{PROSE}</p><p>{PROSE}</p></div></body>"
        ))
        .expect("segment");
        let default = Extractor::new(&FeatureConfig::default()).expect("extractor");
        assert!(
            !default
                .schema()
                .columns
                .iter()
                .any(|c| c.name.starts_with("justext.") || c.name.starts_with("kimatu."))
        );
        let mut config = FeatureConfig::default();
        config.modules.push("justext".into());
        config.modules.push("kimatu".into());
        let ex = Extractor::new(&config).expect("extractor");
        let table = ex.extract(&page);
        let col = |name: &str| {
            ex.schema()
                .columns
                .iter()
                .position(|c| c.name == name)
                .expect(name)
        };
        let label = |b: usize, name: &str| {
            let c = col(name);
            ex.schema().columns[c].labels[usize::from(table.value(b, c))].clone()
        };
        let home = 0;
        let prose = page.blocks.len() - 1;
        assert_eq!(label(home, "justext.cf"), "bad");
        assert_eq!(label(prose, "justext.cf"), "good");
        assert_eq!(label(home, "justext.good"), "0");
        assert_eq!(label(prose, "justext.good"), "1");
        assert_eq!(label(home, "kimatu.kept"), "0");
        assert_eq!(label(prose, "kimatu.kept"), "1");
        assert!(table.raw(prose, col("kimatu.relevance")) > 0.32);
        assert!(table.raw(home, col("kimatu.relevance")) < 0.0);
    }
}
