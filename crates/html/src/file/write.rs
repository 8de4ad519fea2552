//! The one writer rule: how every file victor writes reaches the path it was given.
//!
//! Every writer (`label --out`, `import --out`, `annotate --out`, `train --out`, `eval`, `sweep`
//! and `cv --csv`, `sweep --plot`, the libraries' set and bundle writers) goes through
//! [`Output`] (or [`write_file`]), which looks at what stands at the path first:
//!
//! - nothing, or a regular file: the bytes go to a temporary file beside it ([`TMP_PREFIX`]`*`),
//!   renamed over the path once written whole, so no reader sees half a file and a failure
//!   leaves the old file as it was; a file that is replaced keeps its permissions;
//! - a symbolic link: followed (a chain of them too), and its target written as above, the
//!   temporary file in the target's folder; the link stays a link. A link to nothing creates
//!   its target;
//! - a FIFO or a character device (`/dev/null`, `/dev/stdout`, a terminal, the pipe of a
//!   shell's `>(...)`): opened and written as a stream, without staging (the device node stays);
//!   opening a FIFO waits for its reader, as every program writing to one does;
//! - `-` (exactly): standard output, as a stream;
//! - anything else (a folder, a socket, a block device) is refused with what it is, and nothing
//!   is written.
//!
//! Nothing is ever renamed over a path that is not a regular file: what stands there is looked
//! at again just before the rename.

use std::io::Write;
use std::path::{Path, PathBuf};

/// How the temporary files of atomic writes are named (`.victor-tmp-XXXXXX`): hidden, and
/// recognisable as victor's should a crash or a second Ctrl-C leave one behind.
pub const TMP_PREFIX: &str = ".victor-tmp-";

/// The path that stands for standard output.
pub const STDOUT: &str = "-";

/// Symbolic links followed from a path before giving up (the limit Linux puts on a lookup).
const MAX_LINKS: usize = 40;

/// A temporary file or folder builder named `prefix*`, whose results get `mode` less the umask
/// (0666 for files, 0777 for folders: the permissions any new file or folder gets), not the
/// owner-only ones of temporary files.
pub fn temp_builder(prefix: &str, mode: u32) -> tempfile::Builder<'_, '_> {
    let mut b = tempfile::Builder::new();
    b.prefix(prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(mode));
    }
    #[cfg(not(unix))]
    let _ = mode;
    b
}

/// A new temporary file in `dir` ([`TMP_PREFIX`]), to be renamed over its target when written
/// whole; dropped unrenamed, on an error or an interruption, it is removed. Writers of files go
/// through [`Output`], which decides whether a path is staged at all.
///
/// # Errors
/// The file cannot be created in `dir`.
pub fn temp_file_in(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    temp_builder(TMP_PREFIX, 0o666).tempfile_in(dir)
}

/// Where the bytes written to a path go, by what stands at it ([`destination`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// A regular file or nothing (symbolic links followed: this is the final target), written
    /// atomically beside itself.
    File(PathBuf),
    /// A FIFO or a character device, written as a stream.
    Stream(PathBuf),
    /// Standard output (the path `-`), written as a stream.
    Stdout,
}

/// What a path that is neither a regular file, a FIFO nor a character device is, for the
/// message that refuses to write it.
fn unwritable(t: std::fs::FileType) -> std::io::Error {
    let what = super::kind_of(t);
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!(
            "it is {what}: victor writes a file there only if it is a regular file, a FIFO, a \
             character device or nothing yet"
        ),
    )
}

/// `path` with its symbolic links followed, one after the other, to what is not a link (or to
/// nothing): a relative link is read from the folder it is in.
fn follow_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("more than {MAX_LINKS} symbolic links in a row (a loop?)"),
    ))
}

/// Where writing to `path` goes, by the rule of this module: `-` is standard output; links are
/// followed; a regular file or nothing is a [`Destination::File`], a FIFO or a character device
/// a [`Destination::Stream`].
///
/// # Errors
/// The path is a folder, a socket or a block device (the message says which), its links loop,
/// or what stands there cannot be looked at.
pub fn destination(path: &Path) -> std::io::Result<Destination> {
    if path == Path::new(STDOUT) {
        return Ok(Destination::Stdout);
    }
    let target = follow_links(path)?;
    match std::fs::symlink_metadata(&target) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Destination::File(target)),
        Err(e) => Err(e),
        Ok(m) if m.is_file() => Ok(Destination::File(target)),
        Ok(m) if super::is_stream(m.file_type()) => Ok(Destination::Stream(target)),
        Ok(m) => Err(unwritable(m.file_type())),
    }
}

/// A file being written by the rule of this module: [`Output::create`], write, then
/// [`Output::commit`]. Dropped without a commit, a staged file is removed and the old file (if
/// any) stays as it was; what went to a stream is gone already.
#[derive(Debug)]
pub struct Output {
    inner: Inner,
}

#[derive(Debug)]
enum Inner {
    /// A temporary file beside `target`, renamed over it on commit.
    Staged {
        tmp: tempfile::NamedTempFile,
        target: PathBuf,
        /// Whether a regular file stood at `target` when the write began.
        existed: bool,
    },
    /// A FIFO or a character device.
    Stream(std::fs::File),
    /// Standard output.
    Stdout(std::io::Stdout),
}

impl Output {
    /// Starts writing `path` by the rule of this module ([`destination`]). A FIFO is opened
    /// for writing here, which waits for its reader. The folder of a staged file must exist.
    ///
    /// # Errors
    /// What [`destination`] refuses; the temporary file cannot be created, or the stream not
    /// opened.
    pub fn create(path: &Path) -> std::io::Result<Output> {
        let inner = match destination(path)? {
            Destination::Stdout => Inner::Stdout(std::io::stdout()),
            Destination::Stream(target) => Inner::Stream(open_stream(&target)?),
            Destination::File(target) => {
                let dir = match target.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d,
                    _ => Path::new("."),
                };
                let tmp = temp_file_in(dir)?;
                let old = std::fs::metadata(&target).ok().filter(|m| m.is_file());
                if let Some(m) = &old {
                    // The new file takes the place of the old one with its permissions.
                    tmp.as_file().set_permissions(m.permissions())?;
                }
                Inner::Staged {
                    tmp,
                    target,
                    existed: old.is_some(),
                }
            }
        };
        Ok(Output { inner })
    }

    /// Whether the bytes go to a stream (a FIFO, a character device or standard output), not
    /// to a staged file.
    pub fn is_stream(&self) -> bool {
        !matches!(self.inner, Inner::Staged { .. })
    }

    /// Finishes the write: a staged file is renamed over its target (refused if something other
    /// than a regular file has taken its place meanwhile), a stream is flushed.
    ///
    /// # Errors
    /// The flush or the rename fails, or the target is no longer a regular file or nothing.
    pub fn commit(self) -> std::io::Result<()> {
        match self.inner {
            Inner::Stdout(mut out) => out.flush(),
            Inner::Stream(mut file) => file.flush(),
            Inner::Staged {
                mut tmp,
                target,
                existed,
            } => {
                tmp.flush()?;
                match std::fs::symlink_metadata(&target) {
                    Ok(m) if m.is_file() => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        if !existed {
                            // Nothing stood there: nothing may be replaced.
                            return tmp
                                .persist_noclobber(&target)
                                .map(drop)
                                .map_err(|e| e.error);
                        }
                    }
                    Ok(m) => return Err(unwritable(m.file_type())),
                    Err(e) => return Err(e),
                }
                tmp.persist(&target).map(drop).map_err(|e| e.error)
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.inner {
            Inner::Staged { tmp, .. } => tmp.write(buf),
            Inner::Stream(f) => f.write(buf),
            Inner::Stdout(out) => out.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match &mut self.inner {
            Inner::Staged { tmp, .. } => tmp.write_all(buf),
            Inner::Stream(f) => f.write_all(buf),
            Inner::Stdout(out) => out.lock().write_all(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.inner {
            Inner::Staged { tmp, .. } => tmp.flush(),
            Inner::Stream(f) => f.flush(),
            Inner::Stdout(out) => out.flush(),
        }
    }
}

/// Opens a FIFO or a character device for writing (never creating, never truncating: a device
/// takes what it is given), and checks that what was opened is still one.
fn open_stream(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    {
        // A terminal written to does not become the controlling terminal of the process.
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    let t = file.metadata()?.file_type();
    if !super::is_stream(t) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "it changed while being opened (now {}): not written",
                super::kind_of(t)
            ),
        ));
    }
    Ok(file)
}

/// Writes `bytes` to `path` by the rule of this module ([`Output`]): atomically for a regular
/// file or nothing (a link followed to its target), as a stream to a FIFO, a character device
/// or `-`. The folder of a new file must exist.
///
/// # Errors
/// What [`Output::create`], the write and [`Output::commit`] fail with.
pub fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut out = Output::create(path)?;
    out.write_all(bytes)?;
    out.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names in `dir` left by a staged write.
    fn temporaries(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .expect("read_dir")
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(TMP_PREFIX))
            .collect()
    }

    #[test]
    fn a_new_or_regular_file_is_written_whole_and_keeps_its_permissions() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let p = tmp.path().join("a.csv");
        write_file(&p, b"one").expect("new");
        assert_eq!(std::fs::read(&p).expect("read"), b"one");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).expect("chmod");
            write_file(&p, b"two").expect("replaced");
            let mode = std::fs::metadata(&p).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert_eq!(std::fs::read(&p).expect("read"), b"two");
        // Dropped before its commit: the old file stays, no temporary file is left.
        let mut out = Output::create(&p).expect("create");
        out.write_all(b"half").expect("write");
        assert!(!out.is_stream());
        drop(out);
        assert_eq!(std::fs::read(&p).expect("read"), b"two");
        assert!(temporaries(tmp.path()).is_empty());
    }

    #[test]
    fn a_folder_or_a_socket_is_refused_and_left_alone() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("d.csv");
        std::fs::create_dir(&dir).expect("mkdir");
        let err = write_file(&dir, b"x").expect_err("a folder");
        assert!(err.to_string().contains("it is a folder"), "{err}");
        assert!(dir.is_dir());
        #[cfg(unix)]
        {
            let sock = tmp.path().join("s.csv");
            let _listener = std::os::unix::net::UnixListener::bind(&sock).expect("bind");
            let err = write_file(&sock, b"x").expect_err("a socket");
            assert!(err.to_string().contains("it is a socket"), "{err}");
            use std::os::unix::fs::FileTypeExt;
            let t = std::fs::symlink_metadata(&sock).expect("meta").file_type();
            assert!(t.is_socket());
        }
        assert!(temporaries(tmp.path()).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_followed_and_its_target_written_in_the_targets_folder() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let there = tmp.path().join("there");
        std::fs::create_dir(&there).expect("mkdir");
        let target = there.join("real.csv");
        std::fs::write(&target, "old").expect("write");
        // A relative link, and a link to that link.
        let link = tmp.path().join("link.csv");
        std::os::unix::fs::symlink("there/real.csv", &link).expect("link");
        let link2 = tmp.path().join("link2.csv");
        std::os::unix::fs::symlink(&link, &link2).expect("link");
        assert_eq!(
            destination(&link2).expect("dest"),
            Destination::File(tmp.path().join("there/real.csv"))
        );
        write_file(&link2, b"new").expect("through the links");
        assert_eq!(std::fs::read(&target).expect("read"), b"new");
        for l in [&link, &link2] {
            assert!(std::fs::symlink_metadata(l).expect("meta").is_symlink());
        }
        // A link to nothing creates its target.
        let dangling = tmp.path().join("dangling.csv");
        std::os::unix::fs::symlink(there.join("made.csv"), &dangling).expect("link");
        write_file(&dangling, b"made").expect("dangling");
        assert_eq!(
            std::fs::read(there.join("made.csv")).expect("read"),
            b"made"
        );
        assert!(
            std::fs::symlink_metadata(&dangling)
                .expect("meta")
                .is_symlink()
        );
        // A link to a folder is refused; a loop of links says so.
        let to_dir = tmp.path().join("to-dir.csv");
        std::os::unix::fs::symlink(&there, &to_dir).expect("link");
        let err = write_file(&to_dir, b"x").expect_err("a folder");
        assert!(err.to_string().contains("folder"), "{err}");
        let me = tmp.path().join("me.csv");
        std::os::unix::fs::symlink(&me, &me).expect("link");
        let err = write_file(&me, b"x").expect_err("a loop");
        assert!(err.to_string().contains("loop"), "{err}");
        assert!(std::fs::symlink_metadata(&me).expect("meta").is_symlink());
        assert!(temporaries(tmp.path()).is_empty() && temporaries(&there).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_and_a_character_device_are_written_as_streams() {
        use std::os::unix::fs::FileTypeExt;
        let tmp = tempfile::tempdir().expect("tempdir");
        let fifo = tmp.path().join("f.csv");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.expect("mkfifo runs").success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).expect("read the FIFO"))
        };
        let mut out = Output::create(&fifo).expect("opened once the reader is there");
        assert!(out.is_stream());
        out.write_all(b"streamed").expect("write");
        out.commit().expect("commit");
        assert_eq!(reader.join().expect("reader"), b"streamed");
        let t = std::fs::symlink_metadata(&fifo).expect("meta").file_type();
        assert!(t.is_fifo(), "the FIFO stays a FIFO");
        let null = Path::new("/dev/null");
        assert_eq!(
            destination(null).expect("dest"),
            Destination::Stream(null.into())
        );
        write_file(null, b"gone").expect("/dev/null");
        assert!(
            std::fs::symlink_metadata(null)
                .expect("meta")
                .file_type()
                .is_char_device()
        );
        assert_eq!(
            destination(Path::new("-")).expect("dest"),
            Destination::Stdout
        );
        assert_eq!(
            destination(Path::new("./-")).expect("dest"),
            Destination::File("./-".into())
        );
        assert!(temporaries(tmp.path()).is_empty());
    }
}
