//! Finding input pages: files, folders walked recursively, lists of paths (`--files-from`), and
//! `-` for one page read from standard input.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use anyhow::Context;

/// File name extensions taken when walking a folder.
const PAGE_EXTENSIONS: &[&str] = &["html", "htm", "xhtml", "shtml", "php", "asp", "aspx", "jsp"];

/// The page path that stands for standard input.
pub const STDIN: &str = "-";

/// Whether a page path stands for standard input.
pub fn is_stdin(path: &Path) -> bool {
    path == Path::new(STDIN)
}

/// Reads a page's bytes: the file, or all of standard input for `-`.
pub fn read_page(path: &Path) -> std::io::Result<Vec<u8>> {
    if is_stdin(path) {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)?;
        Ok(bytes)
    } else {
        std::fs::read(path)
    }
}

/// Expands files and folders (recursively, pages by extension, sorted) and an optional list file
/// (`-` for standard input, one path a line) into a list of page paths. A page path `-` (one page
/// read from standard input) may appear once, and not with `--files-from -`.
pub fn collect(paths: &[PathBuf], files_from: Option<&Path>) -> anyhow::Result<Vec<PathBuf>> {
    let stdin_pages = paths.iter().filter(|p| is_stdin(p)).count();
    if stdin_pages > 1 {
        anyhow::bail!("`-` (a page from standard input) can be given only once");
    }
    if stdin_pages == 1 && files_from.is_some_and(is_stdin) {
        anyhow::bail!(
            "standard input cannot hold both a page (`-`) and the list of --files-from -"
        );
    }
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
        let reader: Box<dyn BufRead> = if is_stdin(list) {
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
