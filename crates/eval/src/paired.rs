//! Paired comparisons of per-page scores: how much one run beats another on the same pages,
//! and how fast a score grows with the training data (a learning curve's slope), each with its
//! standard error over pages.
//!
//! Page scores of two runs on the same pages are correlated (a hard page is hard for both), so
//! the standard error of the mean *difference* is much smaller than the spread of either run's
//! mean: these are the figures to read a small change by.

/// A mean over pages and its standard error (sample standard deviation over the square root of
/// the number of pages; 0 with fewer than two pages).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanSe {
    /// The mean.
    pub mean: f64,
    /// Its standard error.
    pub se: f64,
}

impl MeanSe {
    /// The mean and standard error of `values` (`None` when empty).
    pub fn of(values: impl IntoIterator<Item = f64>) -> Option<MeanSe> {
        let v: Vec<f64> = values.into_iter().collect();
        if v.is_empty() {
            return None;
        }
        let n = v.len() as f64;
        let mean = v.iter().sum::<f64>() / n;
        // Two passes: the deviations' squares, not the difference of two large sums.
        let se = if v.len() < 2 {
            0.0
        } else {
            let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
            (var / n).sqrt()
        };
        Some(MeanSe { mean, se })
    }
}

/// The mean per-page gain of `after` over `before` (the same pages in the same order) and its
/// standard error; `None` when the lengths differ or there are no pages.
pub fn paired_difference(before: &[f64], after: &[f64]) -> Option<MeanSe> {
    if before.len() != after.len() {
        return None;
    }
    MeanSe::of(before.iter().zip(after).map(|(b, a)| a - b))
}

/// The gain in score for each doubling of the training data: for every page, the least-squares
/// slope of its scores against log2 of the training sizes, then their mean over pages and its
/// standard error. `scores[k][i]` is page `i`'s score when trained on `sizes[k]` items. `None`
/// with fewer than two distinct sizes, a size that is not positive, or runs of unequal length.
pub fn gain_per_doubling<S: AsRef<[f64]>>(sizes: &[f64], scores: &[S]) -> Option<MeanSe> {
    if sizes.len() != scores.len()
        || sizes
            .iter()
            .any(|&s| s.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater))
    {
        return None;
    }
    let pages = scores.first()?.as_ref().len();
    if scores.iter().any(|s| s.as_ref().len() != pages) {
        return None;
    }
    let x: Vec<f64> = sizes.iter().map(|s| s.log2()).collect();
    let xm = x.iter().sum::<f64>() / x.len() as f64;
    let sxx: f64 = x.iter().map(|v| (v - xm) * (v - xm)).sum();
    if sxx <= 1e-12 {
        return None;
    }
    MeanSe::of((0..pages).map(|i| {
        x.iter()
            .zip(scores)
            .map(|(xk, s)| (xk - xm) * s.as_ref()[i])
            .sum::<f64>()
            / sxx
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn mean_and_standard_error() {
        // 1, 2, 3, 4: mean 2.5, sample variance 5/3, se sqrt(5/12).
        let m = MeanSe::of([1.0, 2.0, 3.0, 4.0]).expect("values");
        assert!(close(m.mean, 2.5));
        assert!(close(m.se, (5.0f64 / 12.0).sqrt()));
        assert_eq!(MeanSe::of([7.0]), Some(MeanSe { mean: 7.0, se: 0.0 }));
        assert_eq!(MeanSe::of(std::iter::empty()), None);
    }

    #[test]
    fn differences_are_paired_by_page() {
        // Every page gains 0.1: the standard error is 0 however different the pages are.
        let d = paired_difference(&[0.2, 0.9, 0.5], &[0.3, 1.0, 0.6]).expect("pages");
        assert!(close(d.mean, 0.1));
        assert!(d.se < 1e-12);
        // Gains 0.1 and -0.1: mean 0, sample sd sqrt(0.02), se 0.1.
        let d = paired_difference(&[0.5, 0.5], &[0.6, 0.4]).expect("pages");
        assert!(close(d.mean, 0.0));
        assert!(close(d.se, 0.1));
        assert_eq!(paired_difference(&[0.5], &[0.5, 0.6]), None);
    }

    #[test]
    fn slope_per_doubling() {
        // Page 0 gains 0.02 per doubling exactly; page 1 gains 0.04 from 100 to 200 and nothing
        // from 200 to 400: its least-squares slope over log2 sizes 0, 1, 2 (centred -1, 0, 1) is
        // (-1 * 0.90 + 1 * 0.94) / 2 = 0.02 as well.
        let sizes = [100.0, 200.0, 400.0];
        let scores = vec![vec![0.80, 0.90], vec![0.82, 0.94], vec![0.84, 0.94]];
        let g = gain_per_doubling(&sizes, &scores).expect("slope");
        assert!(close(g.mean, 0.02));
        assert!(g.se < 1e-12);
        // Page 1 now gains 0.06 per doubling: slopes 0.02 and 0.06, mean 0.04, se 0.02.
        let scores = vec![vec![0.80, 0.70], vec![0.82, 0.76], vec![0.84, 0.82]];
        let g = gain_per_doubling(&sizes, &scores).expect("slope");
        assert!(close(g.mean, 0.04));
        assert!(close(g.se, 0.02));
        // One size, or sizes that do not differ, give no slope.
        assert_eq!(gain_per_doubling(&[100.0], &[vec![0.8]]), None);
        assert_eq!(
            gain_per_doubling(&[100.0, 100.0], &[vec![0.8], vec![0.9]]),
            None
        );
        assert_eq!(
            gain_per_doubling(&[0.0, 100.0], &[vec![0.8], vec![0.9]]),
            None
        );
    }
}
