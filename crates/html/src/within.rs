//! Slicing where the code's own invariants keep the range in bounds.
//!
//! Offsets into a page's text, a block's splits or a model's tables are made by victor itself
//! (the segmenter, the feature table, the model loader), so a range out of bounds is a bug, not
//! bad input. Indexing (`text[a..b]`) would turn such a bug into a panic on one page of a
//! crawl; `text.get(a..b).unwrap_or_default()` would hide it as empty data. [`Within::within`]
//! says which it is: a debug build (every test run) panics at the caller's line, naming the
//! invariant that broke, and a release build gives the empty slice, so that one page's bug does
//! not end a batch of millions.

use std::slice::SliceIndex;

/// `get` for a range the caller's invariants keep in bounds (see the module docs).
pub trait Within<R> {
    /// `self.get(range)`: asserted to be in bounds (and, for `str`, on character boundaries)
    /// in debug builds; the empty slice in a release build where it is not.
    fn within(&self, range: R) -> &Self;
}

/// `get_mut` for a range the caller's invariants keep in bounds (see the module docs).
pub trait WithinMut<R> {
    /// `self.get_mut(range)`: asserted to be in bounds in debug builds; the empty slice in a
    /// release build where it is not.
    fn within_mut(&mut self, range: R) -> &mut Self;
}

/// An item at an index the caller's invariants keep in bounds (see the module docs).
pub trait ItemAt<T> {
    /// `self.get(index).copied()`: asserted to be in bounds in debug builds; `T::default()` in
    /// a release build where it is not.
    fn item_at(&self, index: usize) -> T;
}

impl<T, R: SliceIndex<[T], Output = [T]>> Within<R> for [T] {
    #[inline]
    #[track_caller]
    fn within(&self, range: R) -> &[T] {
        let got = self.get(range);
        debug_assert!(
            got.is_some(),
            "a range of {} items out of bounds",
            self.len()
        );
        got.unwrap_or_default()
    }
}

impl<T, R: SliceIndex<[T], Output = [T]>> WithinMut<R> for [T] {
    #[inline]
    #[track_caller]
    fn within_mut(&mut self, range: R) -> &mut [T] {
        let len = self.len();
        let got = self.get_mut(range);
        debug_assert!(got.is_some(), "a range of {len} items out of bounds");
        got.unwrap_or_default()
    }
}

impl<T: Copy + Default> ItemAt<T> for [T] {
    #[inline]
    #[track_caller]
    fn item_at(&self, index: usize) -> T {
        debug_assert!(
            index < self.len(),
            "index {index} out of bounds ({} items)",
            self.len()
        );
        self.get(index).copied().unwrap_or_default()
    }
}

impl<R: SliceIndex<str, Output = str>> Within<R> for str {
    #[inline]
    #[track_caller]
    fn within(&self, range: R) -> &str {
        let got = self.get(range);
        debug_assert!(
            got.is_some(),
            "a range of a {}-byte text out of bounds or off a character boundary",
            self.len()
        );
        got.unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::{ItemAt, Within, WithinMut};

    #[test]
    fn in_bounds_is_get() {
        assert_eq!("héllo".within(0..3), "hé");
        assert_eq!([1, 2, 3][..].within(1..), [2, 3]);
        assert_eq!([1, 2, 3][..].item_at(2), 3);
        let mut v = [1, 2, 3];
        v.within_mut(..2).fill(0);
        assert_eq!(v, [0, 0, 3]);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "out of bounds")]
    fn out_of_bounds_panics_in_debug_builds() {
        let _ = [1, 2, 3][..].within(2..5);
    }
}
