//! The library as an embedding host uses it (a worker pool, a Python or Spark executor): one
//! [`Model`] shared by reference between threads, one [`Labeler`] per thread, and the same
//! labels and marginals as one thread gives.

use std::path::Path;

use victor_label::{Decoding, Labeler, Model, Threshold};

/// Compile-time contract: a model is shared between threads, a labeler moves to one.
fn shared<T: Send + Sync>() {}
fn movable<T: Send>() {}

#[test]
fn models_are_shared_and_labelers_move_between_threads() {
    shared::<Model>();
    movable::<Labeler<'static>>();
}

fn corpus_model() -> Model {
    Model::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/corpus"))
        .expect("models/corpus loads")
}

/// Pages of different shapes: an article, a list, a table layout, junk and an empty page.
fn pages() -> Vec<Vec<u8>> {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../annotations/examples/pages");
    let mut pages: Vec<Vec<u8>> = std::fs::read_dir(&examples)
        .expect("annotations/examples/pages")
        .map(|e| std::fs::read(e.expect("entry").path()).expect("page"))
        .collect();
    pages.push(
        b"<ul><li>one item</li><li>two items here</li></ul><p>A sentence of text.</p>".to_vec(),
    );
    pages.push(
        b"<table><tr><td>menu</td><td>The body of the page, in a cell.</td></tr></table>".to_vec(),
    );
    pages.push(b"<p>unclosed <b>tags <i>everywhere".to_vec());
    pages.push(Vec::new());
    pages
}

/// Labels and marginals of every page, by one labeler in turn.
fn label_all(
    model: &Model,
    pages: &[Vec<u8>],
    decoding: Decoding,
) -> Vec<(Vec<String>, Vec<[f64; 3]>)> {
    let mut labeler = Labeler::new(model);
    pages
        .iter()
        .map(|p| {
            let lp = labeler.label_bytes(p, decoding).expect("labels");
            (
                lp.labels.iter().map(|l| l.as_str().to_string()).collect(),
                lp.probs.clone(),
            )
        })
        .collect()
}

#[test]
fn threads_sharing_one_model_label_as_one_thread_does() {
    let model = corpus_model();
    let pages = pages();
    for decoding in [
        Decoding::ExpectedF1(model.expected_options()),
        Decoding::Threshold(Threshold::new(0.5).expect("a threshold")),
        Decoding::Viterbi,
    ] {
        let alone = label_all(&model, &pages, decoding);
        assert!(
            alone
                .iter()
                .any(|(labels, _)| labels.iter().any(|l| l != "other")),
            "something is kept"
        );
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|k| {
                    let (model, pages) = (&model, &pages);
                    // Each thread starts at another page, so the labelers' reused buffers see
                    // the pages in another order.
                    s.spawn(move || {
                        let mut order: Vec<usize> = (0..pages.len()).collect();
                        order.rotate_left(k % pages.len());
                        let mine: Vec<Vec<u8>> = order.iter().map(|&i| pages[i].clone()).collect();
                        (order, label_all(model, &mine, decoding))
                    })
                })
                .collect();
            for h in handles {
                let (order, got) = h.join().expect("thread");
                for (i, g) in order.into_iter().zip(got) {
                    assert_eq!(g, alone[i], "page {i}, {decoding:?}");
                }
            }
        });
    }
}
