//! After warm-up, scoring, marginals and Viterbi allocate nothing, whatever the page length:
//! counted with an allocator that tallies this thread's allocations.

mod crf_support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use crf_support::{Rng, ids, random_items, trained_model};
use ndarray::Array2;
use victor_label::{CrfModel, Workspace};

/// The system allocator, counting allocations made by the current thread.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counter is a
// thread-local `Cell` with a const initialiser, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn inference_allocates_nothing_after_warm_up() {
    let model = CrfModel::from_bytes(&trained_model()).unwrap();
    let mut rng = Rng(77);
    let pages: Vec<Vec<Vec<u32>>> = (0..50)
        .map(|_| {
            let n = 1 + rng.below(500);
            random_items(&mut rng, n)
                .iter()
                .map(|item| ids(&model, item))
                .collect()
        })
        .collect();
    let longest = pages.iter().map(Vec::len).max().unwrap();

    let mut ws = Workspace::new();
    let mut scores = Array2::zeros((0, 0));
    let mut marginals = Array2::zeros((0, 0));
    let mut path = Vec::new();
    let mut run = |page: &[Vec<u32>]| {
        model.state_scores(page, &mut scores).unwrap();
        model
            .marginals(scores.view(), &mut ws, &mut marginals)
            .unwrap();
        model
            .viterbi_into(scores.view(), &mut ws, &mut path)
            .unwrap();
        assert_eq!(marginals.nrows(), page.len());
        assert_eq!(path.len(), page.len());
    };

    // Warm-up on the longest page sizes every buffer.
    let long = pages.iter().find(|p| p.len() == longest).unwrap();
    run(long);
    let before = allocations();
    for page in &pages {
        run(page);
    }
    assert_eq!(
        allocations() - before,
        0,
        "inference allocated after warm-up"
    );
}
