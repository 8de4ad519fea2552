//! Progress bars on standard error (hidden when it is not a terminal or `--quiet` is given).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `len` items named `what` (e.g. "pages"), showing rate and ETA.
pub fn bar(len: u64, what: &str, quiet: bool) -> ProgressBar {
    let pb = ProgressBar::new(len);
    if quiet {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    }
    let template = format!(
        "{{spinner}} {{msg:12}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {what} ({{per_sec}}, ETA {{eta}})"
    );
    if let Ok(style) = ProgressStyle::with_template(&template) {
        pb.set_style(style.progress_chars("=> "));
    }
    pb
}

/// Prints `line` on standard error above `bar`. Unlike `ProgressBar::println`, which prints
/// nothing while the bar is hidden, the line also reaches standard error when it is not a
/// terminal (a log file) or `--quiet` hides the bar.
pub fn note(bar: &ProgressBar, line: &str) {
    bar.suspend(|| eprintln!("{line}"));
}

/// Maps `f` over `jobs` on the threads of `pool`, each thread with its own state from `init` (a
/// worker that reuses its buffers), and ticks `bar` once a job; the results keep the order of
/// `jobs`.
pub fn par_map<J, S, T>(
    pool: &rayon::ThreadPool,
    jobs: &[J],
    bar: &ProgressBar,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, &J) -> T + Sync + Send,
) -> Vec<T>
where
    J: Sync,
    T: Send,
{
    use rayon::prelude::*;
    pool.install(|| {
        jobs.par_iter()
            .map_init(&init, |state, job| {
                let out = f(state, job);
                bar.inc(1);
                out
            })
            .collect()
    })
}
