//! Turning crfs's progress lines into a progress display.
//!
//! crfs prints `Iteration N: loss = ...` with `println!` and offers no callback. While a
//! training runs, standard output (file descriptor 1) is pointed at a pipe; a thread reads the
//! lines, feeds the iteration lines to a progress bar and passes anything else on to standard
//! error. When the training ends, standard output is restored. Only the command line does this:
//! the libraries never touch process-wide state.

use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, RawFd};

use indicatif::ProgressBar;

/// Redirects standard output while alive.
pub(crate) struct Capture {
    saved: RawFd,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Capture {
    /// Starts capturing; iteration lines advance `bar` (its length is the iteration limit).
    pub(crate) fn start(bar: ProgressBar) -> std::io::Result<Capture> {
        let _ = std::io::stdout().flush();
        let mut fds = [0 as RawFd; 2];
        // SAFETY: plain POSIX calls on file descriptors we own; results are checked.
        unsafe {
            if libc::pipe(fds.as_mut_ptr()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            let saved = libc::dup(1);
            if saved < 0 {
                libc::close(fds[0]);
                libc::close(fds[1]);
                return Err(std::io::Error::last_os_error());
            }
            if libc::dup2(fds[1], 1) < 0 {
                let e = std::io::Error::last_os_error();
                libc::close(fds[0]);
                libc::close(fds[1]);
                libc::close(saved);
                return Err(e);
            }
            libc::close(fds[1]);
            let read_end = std::fs::File::from_raw_fd(fds[0]);
            let reader = std::thread::spawn(move || {
                for line in BufReader::new(read_end).lines() {
                    let Ok(line) = line else { break };
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
}

impl Drop for Capture {
    fn drop(&mut self) {
        let _ = std::io::stdout().flush();
        // SAFETY: restores the descriptor saved in `start`; closing fd 1's pipe copy ends the
        // reader thread's input.
        unsafe {
            libc::dup2(self.saved, 1);
            libc::close(self.saved);
        }
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
            l.split(',')
                .next()
                .unwrap_or("")
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
