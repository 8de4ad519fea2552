//! The annotated-set format: a round trip through the files, the errors a stale or damaged set
//! gives, and the example set of the repository.

use std::path::Path;

use victor_annotations::Label::{self, Header as H, Other as O, Text as T};
use victor_annotations::{
    AnchorError, Annotator, Corpus, LoadError, PageInfo, PageRecord, SetInfo, SetWriter, Source,
    StoreError, anchor_labels,
};
use victor_features::{Page, Segmenter};

/// A page in windows-1252 (declared), with an entity and an inline tag.
const PAGE: &[u8] = b"<html><head><meta charset=\"windows-1252\"><title>t</title></head><body>\
    <ul><li><a href=\"/\">Home</a></li></ul><h1>Caf\xe9 news</h1>\
    <p>Fish &amp; chips <b>today</b>!</p><p>\xa9 2024</p></body></html>";

fn segment(bytes: &[u8]) -> (String, Page) {
    let text = victor_features::decode(bytes).unwrap().text.into_owned();
    let page = victor_features::segment(&text).unwrap();
    (text, page)
}

fn record(id: &str, split: &str, bytes: &[u8], page: &Page, labels: &[Label]) -> PageRecord {
    PageRecord {
        format: 1,
        id: id.to_string(),
        split: Some(split.to_string()),
        lang: Some("en".to_string()),
        url: Some(format!("http://example.org/{id}")),
        page: PageInfo::of(bytes, "windows-1252", page.blocks.len()),
        source: Source {
            set: "unit".to_string(),
            ..Source::default()
        },
        annotated_by: Annotator::new("hand"),
        labels: anchor_labels(page, labels).unwrap(),
        unlabelled: Default::default(),
    }
}

/// A set with two pages: `a` (dev) and `b` (test), both with `PAGE`'s bytes.
fn write_set(dir: &Path) -> Vec<Label> {
    let (_, page) = segment(PAGE);
    let texts: Vec<&str> = page.blocks.iter().map(|b| page.block_text(b)).collect();
    assert_eq!(
        texts,
        ["Home", "Café news", "Fish & chips", "today", "!", "© 2024"]
    );
    let labels = vec![O, H, T, T, T, O];
    let writer = SetWriter::create(dir, &SetInfo::new("unit", None)).unwrap();
    writer
        .write_page(&record("a", "dev", PAGE, &page, &labels), PAGE)
        .unwrap();
    writer
        .write_page(&record("b", "test", PAGE, &page, &labels), PAGE)
        .unwrap();
    labels
}

#[test]
fn round_trip() {
    let tmp = tempfile::tempdir().unwrap();
    let labels = write_set(tmp.path());
    // The page keeps its exact bytes.
    assert_eq!(
        std::fs::read(tmp.path().join("pages/a.html")).unwrap(),
        PAGE
    );
    let json = std::fs::read_to_string(tmp.path().join("labels/a.json")).unwrap();
    assert!(
        json.contains(
            "\n    {\"block\": 1, \"start\": 112, \"end\": 122, \"label\": \"header\", \
             \"text\": \"Café news\"},\n"
        ),
        "{json}"
    );

    let corpus = Corpus::open([tmp.path()], None).unwrap();
    let ids: Vec<&str> = corpus.pages().iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["a", "b"]);
    let pages: Vec<_> = corpus.iter().map(Result::unwrap).collect();
    let a = &pages[0];
    assert_eq!((a.id.as_str(), a.set.as_str()), ("a", "unit"));
    assert_eq!(a.labels, labels);
    assert_eq!(a.page.blocks.len(), 6);
    assert_eq!(a.text, segment(PAGE).0);
    assert_eq!(a.record.page.blocks as usize, a.page.blocks.len());
    let (_, page) = segment(PAGE);
    assert_eq!(a.record, record("a", "dev", PAGE, &page, &labels));
    assert_eq!(
        a.record.annotated_by.segmenter,
        victor_annotations::SEGMENTER
    );

    // Split filter, and two folders at once.
    let test_only = Corpus::open([tmp.path()], Some("test")).unwrap();
    let ids: Vec<&str> = test_only.pages().iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["b"]);
    let twice = Corpus::open([tmp.path(), tmp.path()], Some("dev")).unwrap();
    assert_eq!(twice.len(), 2);

    // Relabelling a loaded page and writing only its labels.
    let mut b = pages[1].clone();
    b.labels[5] = T;
    b.record.set_labels(&b.page, &b.labels).unwrap();
    let writer = SetWriter::open(tmp.path()).unwrap();
    writer.write_labels(&b.record).unwrap();
    let again = Corpus::open([tmp.path()], Some("test")).unwrap();
    let b2 = again.iter().next().unwrap().unwrap();
    assert_eq!(b2.labels, [O, H, T, T, T, T]);
}

#[test]
fn partially_labelled_pages_know_only_their_anchored_blocks() {
    let tmp = tempfile::tempdir().unwrap();
    write_set(tmp.path());
    let corpus = Corpus::open([tmp.path()], Some("dev")).unwrap();
    let mut a = corpus.iter().next().unwrap().unwrap();
    assert!(a.known.is_empty(), "a fully labelled page lists no flags");
    // Block 0 marked other, block 2 text, the rest unknown.
    let partial = [Some(O), None, Some(T), None, None, None];
    a.record.set_partial_labels(&a.page, &partial).unwrap();
    let json = a.record.to_json().unwrap();
    assert!(json.contains("\"unlabelled\": \"unknown\""), "{json}");
    assert!(json.contains("\"label\": \"other\""), "{json}");
    SetWriter::open(tmp.path())
        .unwrap()
        .write_labels(&a.record)
        .unwrap();
    let again = Corpus::open([tmp.path()], Some("dev")).unwrap();
    let a2 = again.iter().next().unwrap().unwrap();
    assert_eq!(a2.known, [true, false, true, false, false, false]);
    assert_eq!((a2.labels[0], a2.labels[2]), (O, T));
    // Back to full labels: the marker goes.
    let mut r = a2.record.clone();
    r.set_labels(&a2.page, &a2.labels).unwrap();
    assert!(!r.to_json().unwrap().contains("unlabelled"));
}

#[test]
fn a_label_that_no_longer_fits_is_an_error_naming_page_and_block() {
    let tmp = tempfile::tempdir().unwrap();
    write_set(tmp.path());
    let path = tmp.path().join("labels/a.json");
    let json = std::fs::read_to_string(&path).unwrap();

    // The range moved and the page had another block count when labelled (as if the segmenter
    // now cut the page elsewhere).
    assert!(json.contains("\"blocks\": 6"), "{json}");
    let moved = json
        .replace("\"start\": 112", "\"start\": 111")
        .replace("\"blocks\": 6", "\"blocks\": 7");
    std::fs::write(&path, &moved).unwrap();
    let corpus = Corpus::open([tmp.path()], None).unwrap();
    let results: Vec<_> = corpus.iter().collect();
    match &results[0] {
        Err(LoadError::Anchor(AnchorError::NoBlock {
            page,
            block,
            start,
            end,
            label,
            ..
        })) => assert_eq!(
            (page.as_str(), *block, *start, *end, *label),
            ("a", 1, 111, 122, H)
        ),
        other => panic!("expected NoBlock, got {other:?}"),
    }
    let message = results[0].as_ref().unwrap_err().to_string();
    assert!(
        message.starts_with(
            "page a: the header label of block 1 (bytes 111..122, \"Café news\") fits no block"
        ),
        "{message}"
    );
    // The other page of the set still loads.
    assert!(results[1].is_ok());

    // Same range, other text (as if the segmenter now decoded entities differently).
    std::fs::write(&path, json.replace("Fish & chips", "Fish &amp; chips")).unwrap();
    let err = Corpus::open([tmp.path()], None)
        .unwrap()
        .iter()
        .next()
        .unwrap()
        .unwrap_err();
    match err {
        LoadError::Anchor(AnchorError::TextChanged {
            page,
            block,
            expected,
            found,
            ..
        }) => {
            assert_eq!((page.as_str(), block), ("a", 2));
            assert_eq!(
                (expected.as_str(), found.as_str()),
                ("Fish &amp; chips", "Fish & chips")
            );
        }
        other => panic!("expected TextChanged, got {other:?}"),
    }

    // The page file changed under its labels.
    std::fs::write(&path, &json).unwrap();
    let mut bytes = PAGE.to_vec();
    bytes.extend_from_slice(b"\n");
    std::fs::write(tmp.path().join("pages/a.html"), bytes).unwrap();
    let err = Corpus::open([tmp.path()], None)
        .unwrap()
        .iter()
        .next()
        .unwrap()
        .unwrap_err();
    assert!(
        matches!(err, LoadError::PageChanged { ref id, .. } if id == "a"),
        "{err}"
    );
}

#[test]
fn damaged_sets_fail_per_page_or_per_set() {
    let tmp = tempfile::tempdir().unwrap();
    write_set(tmp.path());
    // A broken labels file is that page's error, found even through a split filter.
    std::fs::write(tmp.path().join("labels/b.json"), "{\"format\": 1,").unwrap();
    let corpus = Corpus::open([tmp.path()], Some("dev")).unwrap();
    let ids: Vec<&str> = corpus.pages().iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["a", "b"]);
    let results: Vec<_> = corpus.iter().collect();
    assert!(results[0].is_ok());
    assert!(matches!(results[1], Err(LoadError::Json { .. })));
    // A label file of a later format.
    let json = std::fs::read_to_string(tmp.path().join("labels/a.json")).unwrap();
    std::fs::write(
        tmp.path().join("labels/b.json"),
        json.replace("\"format\": 1", "\"format\": 2")
            .replace("\"id\": \"a\"", "\"id\": \"b\""),
    )
    .unwrap();
    let err = Corpus::open([tmp.path()], None).unwrap().pages()[1]
        .load(&mut Segmenter::new())
        .unwrap_err();
    assert!(matches!(err, LoadError::Format { found: 2, .. }), "{err}");
    // Labels filed under another page's name.
    std::fs::write(tmp.path().join("labels/b.json"), &json).unwrap();
    let err = Corpus::open([tmp.path()], None).unwrap().pages()[1]
        .load(&mut Segmenter::new())
        .unwrap_err();
    assert!(matches!(err, LoadError::IdMismatch { .. }), "{err}");
    // A folder that is not a set: what one is, and how it is made (issue 67).
    let empty = tempfile::tempdir().unwrap();
    let err = Corpus::open([empty.path()], None).unwrap_err();
    assert!(
        matches!(&err, LoadError::NotASet { why, .. } if why == "it has no set.json"),
        "{err}"
    );
    assert!(err.to_string().contains("`victor import`"), "{err}");
    assert!(matches!(
        SetWriter::open(empty.path()),
        Err(StoreError::NotASet(_))
    ));
    // Ids that cannot be file names are refused before anything is written.
    let writer = SetWriter::create(empty.path(), &SetInfo::new("x", None)).unwrap();
    let (_, page) = segment(PAGE);
    let bad = record("../evil", "dev", PAGE, &page, &[O, O, O, O, O, O]);
    assert!(matches!(
        writer.write_page(&bad, PAGE),
        Err(StoreError::BadId(_))
    ));
    assert_eq!(
        std::fs::read_dir(empty.path().join("pages"))
            .unwrap()
            .count(),
        0
    );
}

#[test]
fn the_repository_examples_load_with_their_labels() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../annotations/examples");
    let corpus = Corpus::open([&dir], None).unwrap();
    let mut counts = [0usize; 3];
    let mut ids = Vec::new();
    for page in corpus.iter() {
        let page = page.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(page.set, "examples");
        // The segmenter gives the blocks it gave when the labels were made.
        assert_eq!(
            page.record.page.blocks as usize,
            page.page.blocks.len(),
            "{}",
            page.id
        );
        for l in &page.labels {
            counts[l.index()] += 1;
        }
        ids.push(page.id.clone());
        if page.id == "forum-bike-chain" {
            let headers: Vec<&str> = page
                .page
                .blocks
                .iter()
                .zip(&page.labels)
                .filter(|(_, l)| **l == H)
                .map(|(b, _)| page.page.block_text(b))
                .collect();
            assert_eq!(headers, ["Chain keeps slipping on the smallest cog"]);
        }
    }
    assert_eq!(
        ids,
        [
            "blog-sourdough-starter",
            "forum-bike-chain",
            "guide-home-composting",
            "news-harbour-bridge",
            "portal-city-events"
        ]
    );
    assert_eq!(counts, [10, 48, 180]);
}

/// Issue 60: the set writer follows the one writer rule (`victor_features::file::write`): a
/// page file that is a link has its target written (the link stays), a FIFO or a device as the
/// set folder is refused with what it is.
#[cfg(unix)]
#[test]
fn the_set_writer_follows_links_and_refuses_what_is_no_folder() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set");
    write_set(&set);
    let page = set.join("pages/a.html");
    let elsewhere = dir.path().join("elsewhere.html");
    std::fs::write(&elsewhere, "old").unwrap();
    std::fs::remove_file(&page).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &page).unwrap();
    write_set(&set);
    assert!(std::fs::symlink_metadata(&page).unwrap().is_symlink());
    assert_ne!(std::fs::read(&elsewhere).unwrap(), b"old");
    assert!(std::fs::read_dir(dir.path()).unwrap().all(|e| {
        !e.unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with(".victor-")
    }));
    let err = SetWriter::create("/dev/null", &SetInfo::new("x", None)).unwrap_err();
    assert!(
        err.to_string().contains("a character device, not a folder"),
        "{err}"
    );
}
