//! Command-line values checked where they are read: clap calls these parsers, so a value out of
//! range is refused before any work starts, with the option named by clap
//! (`invalid value '0' for '--jobs <N>': ...`) and the range said. Every option's value may look
//! like a negative number (`--prior -1`, `main`'s `command`): clap would otherwise take `-1`
//! for an option and advise `-- -1`, which is wrong advice for an option's value.

/// The most threads `--jobs` takes: far beyond any machine this runs on, and low enough that a
/// typo (`--jobs 10000`) does not spend its time starting threads.
pub(crate) const MAX_JOBS: usize = 1024;

/// A whole number, with the message clap shows for anything else: `range` says which numbers
/// the option takes (`from 1 to 1024`).
fn whole(s: &str, range: &str) -> Result<usize, String> {
    s.trim()
        .parse::<usize>()
        .map_err(|_| format!("{s:?} is not a whole number {range}"))
}

/// A whole number, 0 or more (`--max-iterations`, `--adapt-trees`, `--worst`, ...).
pub(crate) fn count(s: &str) -> Result<usize, String> {
    whole(s, "at or above 0")
}

/// A seed: a whole number from 0 to 2^64 - 1.
pub(crate) fn seed(s: &str) -> Result<u64, String> {
    s.trim()
        .parse::<u64>()
        .map_err(|_| format!("{s:?} is not a whole number from 0 to 2^64 - 1"))
}

/// `--jobs N`: from 1 to [`MAX_JOBS`].
pub(crate) fn jobs(s: &str) -> Result<usize, String> {
    match whole(s, &format!("from 1 to {MAX_JOBS}"))? {
        0 => Err("needs at least 1 thread (leave --jobs out to use every core)".to_string()),
        n if n > MAX_JOBS => Err(format!(
            "{n} threads is more than {MAX_JOBS}; this machine has {} cores",
            cores()
        )),
        n => Ok(n),
    }
}

/// `--folds N`: at least 2 (one fold to train on, one to test on).
pub(crate) fn folds(s: &str) -> Result<usize, String> {
    match whole(s, "of folds, 2 or more")? {
        n if n < 2 => Err(format!("cross-validation needs at least 2 folds, got {n}")),
        n => Ok(n),
    }
}

/// `train --threshold-folds N`: 0 (no cross-validation) or at least 2, by the rule the Python
/// package checks by too ([`victor::train::check_threshold_folds`]).
pub(crate) fn folds_or_none(s: &str) -> Result<usize, String> {
    let n = whole(s, "of folds, 0 (none) or 2 or more")?;
    victor::train::check_threshold_folds(n).map_err(|e| e.to_string())
}

/// A count that must be at least 1 (`--parallel-folds`, `--repeat`).
pub(crate) fn at_least_one(s: &str) -> Result<usize, String> {
    match whole(s, "at or above 1")? {
        0 => Err("must be at least 1".to_string()),
        n => Ok(n),
    }
}

/// A number, finite unless `inf` is allowed.
fn number(s: &str, inf: bool) -> Option<f64> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| !v.is_nan() && (inf || v.is_finite()))
}

/// A number at or above 0, `inf` included (`--prior`).
pub(crate) fn non_negative(s: &str) -> Result<f64, String> {
    match number(s, true) {
        Some(v) if v >= 0.0 => Ok(v),
        _ => Err(format!("{s:?} is not a number from 0 to inf")),
    }
}

/// A finite number at or above 0 (`--c1`, `--c2`, `--min-freq`).
pub(crate) fn non_negative_finite(s: &str) -> Result<f64, String> {
    match number(s, false) {
        Some(v) if v >= 0.0 => Ok(v),
        _ => Err(format!("{s:?} is not a number at or above 0")),
    }
}

/// A finite number above 0 (`--boost-learning-rate`).
pub(crate) fn positive(s: &str) -> Result<f64, String> {
    match number(s, false) {
        Some(v) if v > 0.0 => Ok(v),
        _ => Err(format!("{s:?} is not a number above 0")),
    }
}

/// A number from 0 to 1 (`--boost-weight`).
pub(crate) fn unit_interval(s: &str) -> Result<f64, String> {
    match number(s, false) {
        Some(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a number from 0 to 1")),
    }
}

/// A share (`import --min-coverage`): a number within 0 and 1. (A threshold is a
/// [`victor::Threshold`], which checks itself.)
pub(crate) fn share(s: &str) -> Result<f64, String> {
    let x: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number"))?;
    if (0.0..=1.0).contains(&x) {
        Ok(x)
    } else {
        Err(format!("must be within 0 and 1, got {x}"))
    }
}

/// `--plot FILE.svg`: a path whose name ends in `.svg` (victor draws SVG only), or a stream
/// that has no such name: `-` (standard output), a FIFO or a character device (`/dev/null`,
/// `>(...)`), written as the one writer rule says.
pub(crate) fn svg_path(s: &str) -> Result<std::path::PathBuf, String> {
    let p = std::path::PathBuf::from(s);
    let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
    let stream = matches!(
        victor::file::destination(&p),
        Ok(victor::file::Destination::Stdout | victor::file::Destination::Stream(_))
    );
    if ext.eq_ignore_ascii_case("svg") || stream {
        Ok(p)
    } else {
        Err(format!(
            "victor draws plots as SVG only: name the file with .svg (e.g. {})",
            p.with_extension("svg").display()
        ))
    }
}

/// The cores of this machine (1 when unknown).
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Threads to start for `jobs` items: `--jobs` (or every core), never more than the items.
pub(crate) fn threads(jobs: Option<usize>, items: usize) -> usize {
    jobs.unwrap_or_else(cores).min(items).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert!(jobs("0").is_err());
        assert!(jobs("10000").is_err());
        assert_eq!(jobs("4"), Ok(4));
        assert!(folds("1").is_err());
        assert!(folds_or_none("1").is_err());
        assert_eq!(folds_or_none("0"), Ok(0));
        assert!(jobs("-1").is_err_and(|e| e.contains("from 1 to 1024")));
        assert!(non_negative("-1").is_err_and(|e| e.contains("from 0 to inf")));
        assert_eq!(non_negative("inf"), Ok(f64::INFINITY));
        assert!(non_negative_finite("inf").is_err());
        assert!(positive("0").is_err());
        assert!(unit_interval("1.5").is_err());
        assert!(count("-3").is_err_and(|e| e.contains("at or above 0")));
        assert_eq!(folds("2"), Ok(2));
        assert!(at_least_one("0").is_err());
        assert!(share("-0.1").is_err());
        assert!(share("1.5").is_err());
        assert!(share("NaN").is_err());
        assert_eq!(share("0.25"), Ok(0.25));
        assert_eq!(threads(Some(8), 3), 3);
        assert_eq!(threads(Some(8), 0), 1);
    }
}
