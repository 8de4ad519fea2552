//! Turning crfs's progress lines into a progress display.
//!
//! crfs prints `Iteration N: loss = ...` with `println!` and offers no callback. While a
//! training runs, standard output (file descriptor 1) is pointed at a pipe; a thread reads the
//! lines, feeds the iteration lines to a progress bar and passes anything else on to standard
//! error. When the training ends, standard output is restored. Only the command line does this:
//! the libraries never touch process-wide state.

use std::io::{BufRead, BufReader, Write};
use std::os::fd::{AsFd, OwnedFd};

use indicatif::ProgressBar;

/// Redirects standard output while alive.
pub(crate) struct Capture {
    /// A copy of the standard output that was, put back on drop.
    saved: OwnedFd,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Capture {
    /// Starts capturing; iteration lines advance `bar` (its length is the iteration limit).
    pub(crate) fn start(bar: ProgressBar) -> std::io::Result<Capture> {
        let _ = std::io::stdout().flush();
        let (read_end, write_end) = rustix::pipe::pipe()?;
        let saved = rustix::io::dup(std::io::stdout().as_fd())?;
        rustix::stdio::dup2_stdout(&write_end)?;
        // Standard output is now the only writer: the reader sees the end of its input once
        // `drop` points standard output back.
        drop(write_end);
        let read_end = std::fs::File::from(read_end);
        let reader = std::thread::spawn(move || {
            // Read to the end whatever comes: a reader that stopped early (at a line that is not
            // UTF-8) would close the pipe, and the trainer's next `println!` would panic on it.
            for line in BufReader::new(read_end).split(b'\n') {
                let Ok(line) = line else { break };
                let line = String::from_utf8_lossy(&line);
                if let Some((n, loss)) = parse_iteration(&line) {
                    bar.set_position(n);
                    bar.set_message(format!("loss {loss:.1}"));
                } else if !line.trim().is_empty() {
                    bar.println(format!("crfs: {line}"));
                }
            }
        });
        Ok(Capture {
            saved,
            reader: Some(reader),
        })
    }
}

impl Drop for Capture {
    fn drop(&mut self) {
        let _ = std::io::stdout().flush();
        // Restores the saved descriptor; replacing fd 1 closes the pipe's last write end, which
        // ends the reader thread's input.
        let _ = rustix::stdio::dup2_stdout(&self.saved);
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }
}

/// `Iteration 12: loss = 1234.5, ...` -> (12, 1234.5).
pub(crate) fn parse_iteration(line: &str) -> Option<(u64, f64)> {
    let rest = line.strip_prefix("Iteration ")?;
    let (n, rest) = rest.split_once(':')?;
    let n: u64 = n.trim().parse().ok()?;
    let loss = rest
        .split_once("loss = ")
        .map(|(_, l)| {
            l.split_once(',')
                .map_or(l, |(first, _)| first)
                .trim()
                .parse()
                .unwrap_or(f64::NAN)
        })
        .unwrap_or(f64::NAN);
    Some((n, loss))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_crfs_iteration_lines() {
        assert_eq!(
            parse_iteration("Iteration 12: loss = 1234.500000, ||x|| = 3.0, ||g|| = 1.0"),
            Some((12, 1234.5))
        );
        assert_eq!(parse_iteration("Number of features: 12"), None);
    }
}
