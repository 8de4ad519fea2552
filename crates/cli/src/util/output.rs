//! Atomic output: write to a temporary file in the destination folder, then rename, so no reader
//! ever sees a half-written file. The file gets the permissions the umask gives a new file
//! (0644 under the usual 022), as if it had been written in place.

use std::io::Write;
use std::path::Path;

use anyhow::Context;

/// Makes `dir` a folder that files can be written into (creating it and its parents), or says
/// once, up front, why it cannot be: it is a file, or it cannot be created or written into.
/// `what` names the option (`--out`).
pub(crate) fn prepare_dir(dir: &Path, what: &str) -> anyhow::Result<()> {
    match std::fs::metadata(dir) {
        Ok(m) if !m.is_dir() => {
            anyhow::bail!("{what} {} is a file, not a folder", dir.display())
        }
        Ok(_) => {}
        Err(_) => {
            if let Some(file) = dir.ancestors().skip(1).find(|a| a.is_file()) {
                anyhow::bail!(
                    "{what} {}: cannot create the folder, {} is a file",
                    dir.display(),
                    file.display()
                );
            }
            std::fs::create_dir_all(dir)
                .with_context(|| format!("{what} {}: cannot create the folder", dir.display()))?;
        }
    }
    // One probe file, created and removed: a folder that cannot be written into fails here
    // once instead of once a page.
    tempfile::Builder::new()
        .prefix(".victor-probe-")
        .tempfile_in(dir)
        .map_err(|e| {
            anyhow::anyhow!(
                "{what} {}: cannot write into the folder: {}",
                dir.display(),
                std::io::Error::from(e.kind())
            )
        })?;
    Ok(())
}

/// Writes `bytes` to `path` atomically (creating parent folders).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create folder {}", dir.display()))?;
    replace_in(dir, path, bytes)
}

/// Like [`write_atomic`] for a path whose folder is known to exist (a batch creates its output
/// folder once instead of once a page: the check is a system call per file).
pub(crate) fn write_atomic_in_existing(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    replace_in(dir, path, bytes)
}

fn replace_in(dir: &Path, path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut tmp = temp_file_in(dir)?;
    tmp.write_all(bytes)
        .with_context(|| format!("cannot write {}", path.display()))?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot move the output into place at {}", path.display()))?;
    Ok(())
}

/// A new temporary file in `dir` ([`victor_features::file::temp_file_in`]), to be renamed over
/// its target when written whole (`persist`); dropped unrenamed, on an error or an
/// interruption, it is removed.
pub(crate) fn temp_file_in(dir: &Path) -> anyhow::Result<tempfile::NamedTempFile> {
    victor_features::file::temp_file_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))
}

/// Like [`write_atomic`], with the content produced by a closure writing into a buffer.
pub(crate) fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut Vec<u8>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut buf = Vec::new();
    fill(&mut buf)?;
    write_atomic(path, &buf)
}
