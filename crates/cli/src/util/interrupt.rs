//! Ctrl-C (SIGINT) and SIGTERM during a batch: the first asks the batch to stop, the second
//! ends the process at once.
//!
//! Without a handler the signal kills the process wherever it is, and an atomic write caught
//! between creating its temporary file and renaming it leaves that file behind (5 of 22
//! interrupted `victor label --out` runs left one). With [`install`], the first signal only sets
//! a flag: the batch takes no new page ([`requested`]), the writes in flight finish (or fail and
//! their temporary files are removed as they are dropped), and the command says it was
//! interrupted and exits with [`EXIT_STATUS`]. A second signal, for a run that does not stop
//! soon enough, exits at once with the same status.

use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use signal_hook::consts::{SIGINT, SIGTERM};

/// Set by the first SIGINT or SIGTERM once [`install`] has run.
static REQUESTED: AtomicBool = AtomicBool::new(false);

/// The exit status of an interrupted run: 128 + SIGINT, as shells report a Ctrl-C.
pub(crate) const EXIT_STATUS: u8 = 130;

/// Installs the handlers of SIGINT and SIGTERM for a command that checks [`requested`] between
/// its units of work. Commands that do not check it must not call this: their Ctrl-C would
/// then only be heard the second time.
pub(crate) fn install() -> anyhow::Result<()> {
    for signal in [SIGINT, SIGTERM] {
        // The shutdown goes first: it sees the flag as the previous signal left it, so the
        // first signal only sets the flag and the second exits.
        signal_hook::flag::register_conditional_shutdown(
            signal,
            i32::from(EXIT_STATUS),
            &REQUESTED,
        )
        .context("cannot install the interrupt handler")?;
        signal_hook::flag::register(signal, &REQUESTED)
            .context("cannot install the interrupt handler")?;
    }
    Ok(())
}

/// Whether the run was asked to stop (a first SIGINT or SIGTERM since [`install`]).
pub(crate) fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
