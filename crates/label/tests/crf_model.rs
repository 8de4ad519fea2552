//! Reading CRFsuite model files: names, ids and weights of a model trained here with `crfs`,
//! and refusal (an error, never a panic) of damaged files.

mod crf_support;

use crf_support::{LABELS_IN_ID_ORDER, feat_records, trained_model};
use victor_label::{CrfModel, ModelError};

/// Loads `bytes`, asserting that the `crfs` reader was never reached with something that made
/// it panic (our own checks must catch every damage first).
fn load(bytes: &[u8]) -> Result<CrfModel, ModelError> {
    let result = CrfModel::from_bytes(bytes);
    if let Err(ModelError::ReaderPanic { message }) = &result {
        panic!("validation let a damaged file reach crfs, which panicked: {message}");
    }
    result
}

#[test]
fn labels_keep_the_files_first_appearance_order() {
    let bytes = trained_model();
    let model = load(&bytes).unwrap();
    assert_eq!(model.num_labels(), 3);
    assert_eq!(model.labels(), LABELS_IN_ID_ORDER);
    assert_eq!(model.label_id("text"), Some(0));
    assert_eq!(model.label_id("other"), Some(1));
    assert_eq!(model.label_id("header"), Some(2));
    assert_eq!(model.label_id("Header"), None);
    assert_eq!(model.labels().get(2).map(String::as_str), Some("header"));
    assert_eq!(model.labels().get(3), None);

    // crfs's own reader agrees on every id.
    let reference = crfs::Model::new(&bytes).unwrap();
    for (id, name) in model.labels().iter().enumerate() {
        assert_eq!(reference.to_label(id as u32), Some(name.as_str()));
    }
}

#[test]
fn attribute_names_and_ids_round_trip() {
    let bytes = trained_model();
    let model = load(&bytes).unwrap();
    let reference = crfs::Model::new(&bytes).unwrap();
    assert_eq!(model.num_attrs() as u32, reference.num_attrs());
    // 1 + 1 + 2 + 1 + 1 + 5 distinct attributes in the synthetic task.
    assert_eq!(model.num_attrs(), 11);
    let attrs: Vec<(u32, &str)> = model.attrs().collect();
    assert_eq!(attrs.len(), model.num_attrs());
    for (id, name) in attrs {
        assert_eq!(reference.to_attr(id), Some(name));
        assert_eq!(model.attr_name(id), Some(name));
        assert_eq!(model.attr_id(name), Some(id));
    }
    assert_eq!(model.attr_name(model.num_attrs() as u32), None);
    assert_eq!(model.attr_id("never-seen"), None);
    assert!(model.attr_id("tag=h").is_some());
}

/// The weights must be the file's, put in the right cells: compare with `crfs`'s dump
/// (6 decimals, enough to catch a swapped source/target or a shifted label id).
#[test]
fn weights_match_the_crfs_dump() {
    let bytes = trained_model();
    let model = load(&bytes).unwrap();
    let reference = crfs::Model::new(&bytes).unwrap();
    let mut dump = Vec::new();
    reference.dump(&mut dump).unwrap();
    let dump = String::from_utf8(dump).unwrap();

    let (mut states, mut transitions) = (0, 0);
    for line in dump.lines() {
        let line = line.trim();
        let (kind, rest) = match line.split_once(") ") {
            Some(("(0", rest)) => (0, rest),
            Some(("(1", rest)) => (1, rest),
            _ => continue,
        };
        let (pair, weight) = rest.rsplit_once(": ").unwrap();
        let (source, target) = pair.split_once(" --> ").unwrap();
        let weight: f64 = weight.parse().unwrap();
        let target = model.label_id(target).unwrap();
        let ours = if kind == 0 {
            states += 1;
            model.state_weights()[[model.attr_id(source).unwrap() as usize, target]]
        } else {
            transitions += 1;
            model.transitions()[[model.label_id(source).unwrap(), target]]
        };
        assert!((ours - weight).abs() <= 5.1e-7, "{line}: we read {ours}");
    }
    assert_eq!(states + transitions, model.num_features());
    assert_eq!(
        transitions, 9,
        "L2 training gives every transition a weight"
    );
    assert_eq!(
        model.state_weights().iter().filter(|w| **w != 0.0).count(),
        states
    );
    assert_eq!(model.state_weights().dim(), (11, 3));
    assert_eq!(model.transitions().dim(), (3, 3));
}

#[test]
fn empty_short_and_foreign_files_are_refused() {
    assert_eq!(load(b"").unwrap_err(), ModelError::TooShort { len: 0 });
    assert_eq!(
        load(&[0; 47]).unwrap_err(),
        ModelError::TooShort { len: 47 }
    );
    let mut bytes = trained_model();
    bytes[0] = b'L';
    assert_eq!(
        load(&bytes).unwrap_err(),
        ModelError::BadMagic { found: *b"LCRF" }
    );
    let text = b"this is not a CRFsuite model, just some text long enough for a header".to_vec();
    assert!(matches!(load(&text), Err(ModelError::BadMagic { .. })));
}

#[test]
fn every_truncation_is_refused() {
    let bytes = trained_model();
    assert!(load(&bytes).is_ok());
    for len in 0..bytes.len() {
        let cut = &bytes[..len];
        assert!(load(cut).is_err(), "prefix of {len} bytes accepted");
        // Same, with the header's size field rewritten to match, so the chunk checks are the
        // ones that must notice.
        if len >= 8 {
            let mut patched = cut.to_vec();
            patched[4..8].copy_from_slice(&(len as u32).to_le_bytes());
            assert!(
                load(&patched).is_err(),
                "patched prefix of {len} bytes accepted"
            );
        }
    }
    let mut padded = bytes.clone();
    padded.push(0);
    assert_eq!(
        load(&padded).unwrap_err(),
        ModelError::SizeMismatch {
            declared: bytes.len() as u32,
            actual: bytes.len() + 1
        }
    );
}

#[test]
fn flipped_bytes_never_panic_and_structural_damage_is_refused() {
    let bytes = trained_model();
    let (feat_start, num_features) = feat_records(&bytes);
    let feat_end = feat_start + 20 * num_features;
    let mut refused = 0;
    for at in 0..bytes.len() {
        for mask in [0xFF, 0x01, 0x80] {
            let mut damaged = bytes.clone();
            damaged[at] ^= mask;
            match load(&damaged) {
                Err(_) => refused += 1,
                // Whatever gets through must be outside the header and the FEAT ids: a weight,
                // the text of a name, a CQDB hash bucket (only used for string -> id lookups,
                // which this crate does itself) or the order of a reference list.
                Ok(model) => {
                    // (A header feature count of 0 is what CRFsuite's C writer puts there.)
                    let zero_count = damaged[16..20] == [0; 4];
                    assert!(
                        at >= 48 || zero_count,
                        "header byte {at} ^ {mask:#x} accepted"
                    );
                    if (feat_start..feat_end).contains(&at) {
                        let field = (at - feat_start) % 20;
                        assert!(field >= 12, "FEAT id byte {at} ^ {mask:#x} accepted");
                    }
                    assert_eq!(model.num_labels(), 3);
                }
            }
        }
    }
    // Every header byte, every FEAT id byte and more.
    assert!(
        refused > 3 * (48 + 12 * num_features),
        "only {refused} refused"
    );
}

/// Rewrites one little-endian u32 of a model file.
fn put_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

#[test]
fn inconsistent_features_are_refused_with_a_reason() {
    let bytes = trained_model();
    let (start, num_features) = feat_records(&bytes);

    let mut unknown_type = bytes.clone();
    put_u32(&mut unknown_type, start, 7);
    assert_eq!(
        load(&unknown_type).unwrap_err(),
        ModelError::Feature {
            index: 0,
            problem: "unknown feature type 7".into()
        }
    );

    let mut nan = bytes.clone();
    nan[start + 12..start + 20].copy_from_slice(&f64::NAN.to_le_bytes());
    assert!(matches!(
        load(&nan),
        Err(ModelError::Feature { index: 0, .. })
    ));

    let mut bad_target = bytes.clone();
    put_u32(&mut bad_target, start + 8, 3);
    assert!(matches!(
        load(&bad_target),
        Err(ModelError::Feature { index: 0, .. })
    ));

    // Feature 1 made a copy of feature 0: caught as a duplicate or by the reference lists.
    let mut duplicate = bytes.clone();
    duplicate.copy_within(start..start + 12, start + 20);
    assert!(load(&duplicate).is_err());

    // The header's feature count may be 0 (CRFsuite's C writer) but not another number.
    let mut zero_count = bytes.clone();
    put_u32(&mut zero_count, 16, 0);
    assert_eq!(load(&zero_count).unwrap().num_features(), num_features);
    let mut wrong_count = bytes.clone();
    put_u32(&mut wrong_count, 16, num_features as u32 + 1);
    assert!(matches!(
        load(&wrong_count),
        Err(ModelError::Chunk { chunk: "FEAT", .. })
    ));

    // Absurd attribute counts are refused before anything is allocated.
    let mut huge = bytes.clone();
    put_u32(&mut huge, 24, u32::MAX);
    assert!(load(&huge).is_err());
    let mut no_labels = bytes.clone();
    put_u32(&mut no_labels, 20, 0);
    assert_eq!(load(&no_labels).unwrap_err(), ModelError::NoLabels);
}

#[test]
fn errors_explain_themselves() {
    let err = load(&[0; 10]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "model file is 10 bytes, shorter than the 48-byte CRFsuite header"
    );
    let bytes = trained_model();
    let err = load(&bytes[..bytes.len() - 1]).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "model header declares {} bytes but the file has {} (truncated or padded)",
            bytes.len(),
            bytes.len() - 1
        )
    );
}

/// Many random multi-byte corruptions, including random values in the header's counts and
/// offsets: the reader must return (either way) without panicking or reaching `crfs` with a bad
/// file.
#[test]
fn random_damage_never_panics() {
    let bytes = trained_model();
    let mut rng = crf_support::Rng(99);
    for round in 0..5000 {
        let mut damaged = bytes.clone();
        for _ in 0..1 + rng.below(4) {
            if round % 2 == 0 {
                // A random 32-bit value over one of the 12 header words.
                let word = 4 * rng.below(12);
                let value = match rng.below(3) {
                    0 => rng.below(bytes.len() + 64) as u32,
                    1 => u32::MAX - rng.below(16) as u32,
                    _ => (rng.next_f64() * u32::MAX as f64) as u32,
                };
                put_u32(&mut damaged, word, value);
            } else {
                let at = rng.below(bytes.len());
                damaged[at] = rng.below(256) as u8;
            }
        }
        let _ = load(&damaged);
    }
}
