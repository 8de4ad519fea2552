//! Standard output and standard error when their reader has gone: the one rule every command
//! follows.
//!
//! Rust ignores SIGPIPE, so a write to a pipe that nobody reads any more returns a
//! [`BrokenPipe`](std::io::ErrorKind::BrokenPipe) error instead of ending the process, and
//! `println!` and `eprintln!` turn that error into a panic (exit status 101, "failed printing to
//! stdout"). The command line never uses them (clippy's `disallowed-macros`,
//! `crates/cli/clippy.toml`):
//!
//! - Standard output is written with `write!`/`writeln!`, and the error is returned. [`finish`],
//!   which `main` calls once for every command, flushes what is left and turns a closed pipe
//!   anywhere in the error's chain ([`is_closed_pipe`]) into the exit status [`CLOSED_STATUS`],
//!   without a word: `victor label crawl/ | head -1` ends at once, quietly, with the status a
//!   shell reports for a program that SIGPIPE ended (`cat big | head -1` gives the same).
//! - Standard error gets its messages through [`say!`](crate::util::streams::say), which drops
//!   a message it cannot write: a closed standard error loses the messages, never the run.
//! - Progress bars draw on standard error only when it is a terminal, and indicatif drops a
//!   draw that fails.
//!
//! Either way the files a run writes are whole or absent: each is written atomically
//! (`util::output`), and a bundle's two files are both written or neither is
//! (the facade's `victor::train`, over `victor_train::write_bundle`).

use std::io::Write;
use std::process::ExitCode;

/// The exit status of a run whose output pipe was closed by its reader: 128 + SIGPIPE (13), the
/// status a shell reports for a program ended by the signal, so that `set -o pipefail` and
/// `${PIPESTATUS[0]}` tell such a run from one that finished.
pub(crate) const CLOSED_STATUS: u8 = 141;

/// Writes one line on standard error, as `eprintln!` does, but drops it when standard error
/// cannot take it (a closed pipe, a full disk) instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::util::streams::say_line(format_args!($($arg)*))
    };
}
pub(crate) use say;

/// The line [`say!`] writes; a failed write is dropped (see the module's docs).
pub(crate) fn say_line(line: std::fmt::Arguments<'_>) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_fmt(line).and_then(|()| err.write_all(b"\n"));
}

/// Whether the error comes from writing to a pipe whose reader has gone (standard output read
/// by `head`, a `--csv >(head -1)`, a FIFO): the run then ends quietly with
/// [`CLOSED_STATUS`]. The chain is searched, so any context may wrap the I/O error, also inside
/// a JSON or CSV writer's error.
pub(crate) fn is_closed_pipe(e: &anyhow::Error) -> bool {
    use std::io::ErrorKind::BrokenPipe;
    e.chain().any(|cause| {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            return io.kind() == BrokenPipe;
        }
        if let Some(json) = cause.downcast_ref::<serde_json::Error>() {
            return json.io_error_kind() == Some(BrokenPipe);
        }
        if let Some(csv) = cause.downcast_ref::<csv::Error>()
            && let csv::ErrorKind::Io(io) = csv.kind()
        {
            return io.kind() == BrokenPipe;
        }
        false
    })
}

/// The exit status of a command's run: its own, once what is left of standard output is
/// flushed; [`CLOSED_STATUS`] for a closed pipe; otherwise the error, said on standard error,
/// and failure.
pub(crate) fn finish(result: anyhow::Result<ExitCode>) -> ExitCode {
    use anyhow::Context;
    let result = result.and_then(|code| {
        std::io::stdout()
            .flush()
            .context("cannot write to standard output")?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        Err(e) if is_closed_pipe(&e) => ExitCode::from(CLOSED_STATUS),
        Err(e) => {
            say!("victor: error: {}", super::errors::message(&e));
            ExitCode::FAILURE
        }
    }
}

/// The exit status of a command line clap did not run: its help or version printed (on
/// standard output), or its error (on standard error); [`CLOSED_STATUS`] when the help could
/// not be printed because standard output was closed (`victor --help | head -1`, the reader
/// gone first).
pub(crate) fn clap_exit(e: &clap::Error) -> ExitCode {
    let printed = e.print();
    let code = u8::try_from(e.exit_code()).unwrap_or(2);
    match printed {
        Err(io) if io.kind() == std::io::ErrorKind::BrokenPipe && !e.use_stderr() => {
            ExitCode::from(CLOSED_STATUS)
        }
        _ => ExitCode::from(code),
    }
}

#[cfg(test)]
mod tests {
    use super::is_closed_pipe;
    use anyhow::Context;

    #[test]
    fn a_closed_pipe_is_found_under_any_context() {
        let pipe = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        let e = Err::<(), _>(pipe)
            .context("cannot write to standard output")
            .unwrap_err();
        assert!(is_closed_pipe(&e));
        let json = serde_json::Error::io(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert!(is_closed_pipe(
            &anyhow::Error::new(json).context("a JSON line")
        ));
        let full = anyhow::Error::new(std::io::Error::other("disk full"));
        assert!(!is_closed_pipe(&full.context("cannot write out/a.txt")));
    }
}
