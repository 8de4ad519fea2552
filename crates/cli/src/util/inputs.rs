//! Finding input pages: files, folders walked recursively, and lists of paths (`--files-from`).

use std::io::BufRead;
use std::path::{Path, PathBuf};

use anyhow::Context;

/// File name extensions taken when walking a folder.
const PAGE_EXTENSIONS: &[&str] = &["html", "htm", "xhtml", "shtml", "php", "asp", "aspx", "jsp"];

/// Expands files and folders (recursively, pages by extension, sorted) and an optional list file
/// (`-` for standard input, one path a line) into a list of page paths.
pub fn collect(paths: &[PathBuf], files_from: Option<&Path>) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = walkdir::WalkDir::new(p)
                .follow_links(true)
                .into_iter()
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_file())
                .map(walkdir::DirEntry::into_path)
                .filter(|f| {
                    f.extension()
                        .and_then(|e| e.to_str())
                        .is_some_and(|e| PAGE_EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
                })
                .collect();
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    if let Some(list) = files_from {
        let reader: Box<dyn BufRead> = if list == Path::new("-") {
            Box::new(std::io::stdin().lock())
        } else {
            Box::new(std::io::BufReader::new(
                std::fs::File::open(list)
                    .with_context(|| format!("cannot open list {}", list.display()))?,
            ))
        };
        for line in reader.lines() {
            let line = line.with_context(|| format!("cannot read list {}", list.display()))?;
            let t = line.trim();
            if !t.is_empty() {
                out.push(PathBuf::from(t));
            }
        }
    }
    Ok(out)
}
