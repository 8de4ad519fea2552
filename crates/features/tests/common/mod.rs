//! Helpers shared by the feature tests.

use victor_features::{Extractor, FeatureConfig, Segmenter};

/// The raw values of column `name` for every block of `html` under `cfg`.
pub fn column(cfg: &FeatureConfig, html: &str, name: &str) -> Vec<f32> {
    let ex = Extractor::new(cfg).expect("compiles");
    let col = ex
        .schema()
        .columns
        .iter()
        .position(|c| c.name == name)
        .expect("column exists");
    let page = Segmenter::new().segment(html).expect("segments");
    let table = ex.extract(&page);
    (0..table.blocks).map(|b| table.raw(b, col)).collect()
}
