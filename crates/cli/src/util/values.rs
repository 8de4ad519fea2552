//! Command-line values checked where they are read: clap calls these parsers, so a value out of
//! range is refused before any work starts, with the option named by clap
//! (`invalid value '0' for '--jobs <N>': ...`).

/// The most threads `--jobs` takes: far beyond any machine this runs on, and low enough that a
/// typo (`--jobs 10000`) does not spend its time starting threads.
pub(crate) const MAX_JOBS: usize = 1024;

/// A whole number, with the message clap shows for anything else.
fn whole(s: &str) -> Result<usize, String> {
    s.trim()
        .parse::<usize>()
        .map_err(|_| format!("{s:?} is not a whole number"))
}

/// `--jobs N`: from 1 to [`MAX_JOBS`].
pub(crate) fn jobs(s: &str) -> Result<usize, String> {
    match whole(s)? {
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
    match whole(s)? {
        n if n < 2 => Err(format!("cross-validation needs at least 2 folds, got {n}")),
        n => Ok(n),
    }
}

/// `train --threshold-folds N`: 0 (no cross-validation) or at least 2.
pub(crate) fn folds_or_none(s: &str) -> Result<usize, String> {
    match whole(s)? {
        1 => Err("cross-validation needs at least 2 folds (0: none)".to_string()),
        n => Ok(n),
    }
}

/// A count that must be at least 1 (`--parallel-folds`, `--repeat`).
pub(crate) fn at_least_one(s: &str) -> Result<usize, String> {
    match whole(s)? {
        0 => Err("must be at least 1".to_string()),
        n => Ok(n),
    }
}

/// A share (`import --min-coverage`): a number within 0 and 1. (A threshold is a
/// [`victor_label::Threshold`], which checks itself.)
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
        victor_features::file::destination(&p),
        Ok(victor_features::file::Destination::Stdout
            | victor_features::file::Destination::Stream(_))
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
