//! Counts in messages, with the noun in the number the count asks for: `1 page`, `2 pages`.

/// `n` and the noun: `one` for 1, `many` for any other count (`count(1, "page", "pages")` is
/// `1 page`, `count(0, "page", "pages")` is `0 pages`).
pub(crate) fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `n pages` (`1 page`).
pub(crate) fn pages(n: usize) -> String {
    count(n, "page", "pages")
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(super::pages(1), "1 page");
        assert_eq!(super::pages(0), "0 pages");
        assert_eq!(super::count(2, "bad one", "bad ones"), "2 bad ones");
    }
}
