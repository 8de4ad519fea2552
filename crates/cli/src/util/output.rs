//! Output files and folders named on the command line. Files follow the one writer rule of
//! [`victor::file`]: a regular file (or nothing) is written atomically, a
//! symbolic link is followed to its target, a FIFO, a character device or `-` (standard output)
//! is written as a stream, and anything else is refused. A new file gets the permissions the
//! umask gives a new file (0644 under the usual 022); a replaced one keeps its own.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use victor::file::{self, Destination};

/// Makes `dir` a folder that files can be written into (creating it and its parents), or says
/// once, up front, why it cannot be: it is `-` (standard output is no folder), a file, a FIFO or
/// a device, or it cannot be created or written into. `what` names the option (`--out`).
pub(crate) fn prepare_dir(dir: &Path, what: &str) -> anyhow::Result<()> {
    check_folder(dir, what)?;
    match std::fs::metadata(dir) {
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

/// Says up front whether `dir` can be an output folder: `-` is refused
/// ([`refuse_stdout_as_folder`]), and so is anything that exists and is no folder (a file, a
/// FIFO, a device: the message says which). A folder, or nothing yet, passes.
pub(crate) fn check_folder(dir: &Path, what: &str) -> anyhow::Result<()> {
    refuse_stdout_as_folder(dir, what)?;
    match std::fs::metadata(dir) {
        Ok(m) if m.is_file() => anyhow::bail!("{what} {} is a file, not a folder", dir.display()),
        Ok(m) if !m.is_dir() => anyhow::bail!(
            "{what} {} is {}, not a folder",
            dir.display(),
            file::kind_of(m.file_type())
        ),
        _ => Ok(()),
    }
}

/// Refuses `-` where a folder is named (`--out -`): `-` stands for standard output, which holds
/// no files; without this a folder named `-` would be made.
fn refuse_stdout_as_folder(dir: &Path, what: &str) -> anyhow::Result<()> {
    if dir == Path::new(file::STDOUT) {
        anyhow::bail!(
            "{what} -: `-` stands for standard output, and {what} names a folder (a folder named - is ./-)"
        );
    }
    Ok(())
}

/// Says up front, before any work, whether `path` can take a file (`what` names the option,
/// `--csv`): a folder, a socket or a block device is refused with what it is.
pub(crate) fn check_file(path: &Path, what: &str) -> anyhow::Result<()> {
    file::destination(path)
        .map(drop)
        .with_context(|| format!("{what} {}: cannot write a file there", path.display()))
}

/// Whether `path` stands for standard output (`-`).
pub(crate) fn is_stdout(path: &Path) -> bool {
    matches!(file::destination(path), Ok(Destination::Stdout))
}

/// Checks a command's output files up front ([`check_file`]; each with the option naming it)
/// and says where its report goes: to standard output, or to standard error when one of the
/// files is `-`, so that standard output holds that file alone. Two files on standard output
/// are refused.
pub(crate) fn report_for(files: &[(Option<&Path>, &str)]) -> anyhow::Result<Box<dyn Write>> {
    let mut on_stdout: Vec<&str> = Vec::new();
    for (path, what) in files {
        if let Some(p) = path {
            check_file(p, what)?;
            if is_stdout(p) {
                on_stdout.push(what);
            }
        }
    }
    Ok(match on_stdout.as_slice() {
        [] => Box::new(std::io::stdout()),
        [_] => Box::new(std::io::stderr()),
        [a, b, ..] => anyhow::bail!(
            "{a} - and {b} - would both write to standard output: name a file for one"
        ),
    })
}

/// The folder of a new file at `path` (its links followed), created if missing: a regular
/// file's temporary file goes there.
fn create_folder_of(path: &Path) -> anyhow::Result<()> {
    if let Ok(Destination::File(target)) = file::destination(path)
        && let Some(dir) = target.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create folder {}", dir.display()))?;
    }
    Ok(())
}

/// Writes `bytes` to `path` by the one writer rule ([`file::write_file`]), creating the folders
/// of a new file.
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    create_folder_of(path)?;
    write_file_in_existing(path, bytes)
}

/// Like [`write_file`] for a path whose folder is known to exist (a batch creates its output
/// folders once instead of once a page: the check is a system call per file).
pub(crate) fn write_file_in_existing(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    file::write_file(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// Starts writing `path` by the one writer rule ([`file::Output`]), creating the folders of a
/// new file; [`file::Output::commit`] finishes it.
pub(crate) fn create(path: &Path) -> anyhow::Result<file::Output> {
    create_folder_of(path)?;
    file::Output::create(path).with_context(|| format!("cannot write {}", path.display()))
}

/// Like [`write_file`], with the content produced by a closure writing into a buffer.
pub(crate) fn write_file_with(
    path: &Path,
    fill: impl FnOnce(&mut Vec<u8>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut buf = Vec::new();
    fill(&mut buf)?;
    write_file(path, &buf)
}
