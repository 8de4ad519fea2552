//! Progress bars on standard error (hidden when it is not a terminal or `--quiet` is given).

use super::streams::say;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A bar over `len` items named `what` (e.g. "pages"), showing rate and ETA.
pub(crate) fn bar(len: u64, what: &str, quiet: bool) -> ProgressBar {
    let pb = ProgressBar::new(len);
    if quiet {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    }
    if let Ok(style) = style(what) {
        pb.set_style(style);
    }
    pb
}

/// The bar's look: message, elapsed time, bar, count, rounded rate ([`rate`]) and ETA.
fn style(what: &str) -> Result<ProgressStyle, indicatif::style::TemplateError> {
    let template = format!(
        "{{spinner}} {{msg:12}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {what} ({{rate}}, ETA {{eta}})"
    );
    Ok(ProgressStyle::with_template(&template)?
        .with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&rate(state.per_sec()));
            },
        )
        .progress_chars("=> "))
}

/// A rate for the bar, rounded as a person reads it: `1642/s`, `12.5/s`, `0.25/s`
/// (indicatif's own `{per_sec}` prints `1,642.1126/s`).
pub(crate) fn rate(per_sec: f64) -> String {
    if !per_sec.is_finite() || per_sec <= 0.0 {
        "0/s".to_string()
    } else if per_sec >= 100.0 {
        format!("{per_sec:.0}/s")
    } else if per_sec >= 1.0 {
        format!("{per_sec:.1}/s")
    } else {
        format!("{per_sec:.2}/s")
    }
}

/// Prints `line` on standard error above `bar`. Unlike `ProgressBar::println`, which prints
/// nothing while the bar is hidden, the line also reaches standard error when it is not a
/// terminal (a log file) or `--quiet` hides the bar.
pub(crate) fn note(bar: &ProgressBar, line: &str) {
    bar.suspend(|| say!("{line}"));
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_bar_template_parses() {
        assert!(super::style("pages").is_ok());
    }

    #[test]
    fn rates_are_rounded() {
        assert_eq!(super::rate(1642.1126), "1642/s");
        assert_eq!(super::rate(12.345), "12.3/s");
        assert_eq!(super::rate(0.254), "0.25/s");
        assert_eq!(super::rate(f64::NAN), "0/s");
    }
}
