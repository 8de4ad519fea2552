//! Prints the profile of each page named on standard input (one path a line, `.html.gz` read
//! gunzipped) as one JSON line: `{"path": ..., "profile": [...]}`, the names first as
//! `{"names": [...]}`. A development aid for the adaptation gate (scripts/gate_dev.py).

use std::io::{BufRead, Write};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}",
        serde_json::json!({ "names": victor_features::profile_names() })
    )?;
    let mut segmenter = victor_features::Segmenter::new();
    for line in std::io::stdin().lock().lines() {
        let path = line?;
        let bytes = victor_features::file::read_page_file(std::path::Path::new(&path))?;
        let profile = match victor_features::decode(&bytes)
            .map_err(|e| e.to_string())
            .and_then(|d| segmenter.segment(&d.text).map_err(|e| e.to_string()))
        {
            Ok(page) => victor_features::PageProfile::of(&page).0.to_vec(),
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        writeln!(
            out,
            "{}",
            serde_json::json!({ "path": path, "profile": profile })
        )?;
    }
    Ok(())
}
