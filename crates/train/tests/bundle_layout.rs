//! `victor.json` keeps its layout: every shipped bundle's description, read and written again
//! with [`JsonLayout::BUNDLE`] (what `victor train` writes), comes back byte for byte.

use std::path::Path;

use victor_annotations::JsonLayout;
use victor_label::{BundleMeta, META_FILE};

#[test]
fn shipped_bundle_descriptions_round_trip_byte_for_byte() {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let mut seen = 0;
    for entry in std::fs::read_dir(&models).expect("models/") {
        let path = entry.expect("entry").path().join(META_FILE);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let meta: BundleMeta = serde_json::from_str(&text).expect("victor.json parses");
        let again = JsonLayout::BUNDLE.to_string(&meta).expect("serializes") + "\n";
        assert!(
            again == text,
            "{} is not written back the same",
            path.display()
        );
        seen += 1;
    }
    assert!(seen >= 4, "only {seen} bundles under {}", models.display());
}
