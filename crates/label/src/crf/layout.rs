//! The byte layout of a CRFsuite model file, checked end to end before anything reads it.
//!
//! A CRFsuite (`crfs`) model is one little-endian buffer:
//!
//! ```text
//! 0   header (48 bytes): "lCRF", file size, "FOMC", version 100, num_features (0 when
//!     written by CRFsuite's C code, which only counts them in FEAT), num_labels,
//!     num_attrs, then absolute offsets of the FEAT, label CQDB, attribute CQDB, LFRF, AFRF chunks
//! FEAT  "FEAT", chunk size (12 + 20 n), n, then n records {type u32, source u32, target u32,
//!       weight f64}; type 0 = state feature attribute(source) -> label(target),
//!       type 1 = transition label(source) -> label(target)
//! CQDB  two string dictionaries (labels, attributes): "CQDB", chunk size, ...
//! LFRF  "LFRF", chunk size, count (num_labels + 2), count absolute offsets, then per label
//!       {k u32, k feature ids}: the transition features leaving that label
//! AFRF  "AFRF", chunk size, count (num_attrs), offsets, then per attribute the state features
//! ```
//!
//! [`Layout::parse`] checks every offset and size against the buffer and the counts against each
//! other; [`Layout::features`] then decodes and validates the `FEAT` records, and
//! [`Layout::check_refs`] verifies that the two reference chunks point at features of the right
//! kind. Only after all of that does anyone (including `crfs`) look inside the dictionaries.
//! All arithmetic is checked: a hostile header cannot make this module index out of bounds,
//! overflow, or allocate more than the buffer's size.

use super::error::ModelError;
use victor_features::within::Within;

/// Size of the fixed file header.
pub(super) const HEADER_SIZE: usize = 48;
/// Size of a chunk header (`magic`, size, count).
const CHUNK_HEADER: usize = 12;
/// Size of one `FEAT` record.
const FEATURE_SIZE: usize = 20;
/// Minimum size of a CQDB chunk: 24-byte header plus 256 table references of 8 bytes.
const CQDB_MIN_SIZE: usize = 24 + 256 * 8;
/// Feature type of a state feature.
pub(super) const STATE: u32 = 0;
/// Feature type of a transition feature.
pub(super) const TRANSITION: u32 = 1;

/// Reads a little-endian `u32` at `at`, or `None` past the end.
fn read_u32(buf: &[u8], at: usize) -> Option<u32> {
    let bytes = buf.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes(bytes.try_into().ok()?))
}

/// Reads four raw bytes at `at`, or `None` past the end.
fn read_tag(buf: &[u8], at: usize) -> Option<[u8; 4]> {
    buf.get(at..at.checked_add(4)?)?.try_into().ok()
}

/// One decoded `FEAT` record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct RawFeature {
    /// [`STATE`] or [`TRANSITION`].
    pub(super) kind: u32,
    /// Attribute id (state) or previous label id (transition).
    pub(super) source: u32,
    /// Label id.
    pub(super) target: u32,
    /// Weight.
    pub(super) weight: f64,
}

/// The validated positions of everything in a model buffer.
#[derive(Debug, Clone, Copy)]
pub(super) struct Layout {
    /// Number of `FEAT` records.
    pub(super) num_features: u32,
    /// Number of labels.
    pub(super) num_labels: u32,
    /// Number of attributes.
    pub(super) num_attrs: u32,
    /// Offset of the first `FEAT` record.
    features_start: usize,
    /// Offset of the `LFRF` chunk.
    label_refs: usize,
    /// Offset of the `AFRF` chunk.
    attr_refs: usize,
}

/// A validated chunk: where it starts and ends.
#[derive(Debug, Clone, Copy)]
struct Chunk {
    start: usize,
    end: usize,
}

/// Checks that a chunk with the given magic starts at `offset`, that its size field is at least
/// `min_size` and that it lies inside the buffer.
fn chunk(
    buf: &[u8],
    offset: u32,
    magic: &[u8; 4],
    name: &'static str,
    min_size: usize,
) -> Result<Chunk, ModelError> {
    let problem = |problem: String| ModelError::Chunk {
        chunk: name,
        problem,
    };
    let start = offset as usize;
    if start < HEADER_SIZE {
        return Err(problem(format!(
            "offset {start} points into the file header"
        )));
    }
    let found = read_tag(buf, start).ok_or_else(|| {
        problem(format!(
            "offset {start} is past the end of the {}-byte file",
            buf.len()
        ))
    })?;
    if &found != magic {
        return Err(problem(format!(
            "magic {found:?} at offset {start}, expected {magic:?}"
        )));
    }
    let size = read_u32(buf, start + 4)
        .ok_or_else(|| problem("size field is past the end of the file".into()))?
        as usize;
    if size < min_size {
        return Err(problem(format!(
            "size {size} is below the minimum of {min_size}"
        )));
    }
    let end = start
        .checked_add(size)
        .filter(|&end| end <= buf.len())
        .ok_or_else(|| {
            problem(format!(
                "{size} bytes from offset {start} run past the end of the {}-byte file",
                buf.len()
            ))
        })?;
    Ok(Chunk { start, end })
}

impl Layout {
    /// Validates the header and the bounds and counts of every chunk.
    pub(super) fn parse(buf: &[u8]) -> Result<Self, ModelError> {
        if buf.len() < HEADER_SIZE {
            return Err(ModelError::TooShort { len: buf.len() });
        }
        let field = |index: usize| read_u32(buf, 4 * index).unwrap_or(0);
        let tag = |index: usize| read_tag(buf, 4 * index).unwrap_or([0; 4]);
        let magic = tag(0);
        if &magic != b"lCRF" {
            return Err(ModelError::BadMagic { found: magic });
        }
        let (kind, version) = (tag(2), field(3));
        if &kind != b"FOMC" || version != 100 {
            return Err(ModelError::Unsupported { kind, version });
        }
        let declared = field(1);
        if declared as usize != buf.len() {
            return Err(ModelError::SizeMismatch {
                declared,
                actual: buf.len(),
            });
        }
        let (declared_features, num_labels, num_attrs) = (field(4), field(5), field(6));
        if num_labels == 0 {
            return Err(ModelError::NoLabels);
        }
        let (off_features, off_labels, off_attrs, off_label_refs, off_attr_refs) =
            (field(7), field(8), field(9), field(10), field(11));

        // FEAT: its own count is authoritative (CRFsuite's C writer leaves the header's at 0,
        // crfs fills it in); its size must be exactly its header plus that many records.
        let feat = chunk(buf, off_features, b"FEAT", "FEAT", CHUNK_HEADER)?;
        let num_features = read_u32(buf, feat.start + 8).unwrap_or(0);
        if declared_features != 0 && declared_features != num_features {
            return Err(ModelError::Chunk {
                chunk: "FEAT",
                problem: format!(
                    "holds {num_features} features, the header declares {declared_features}"
                ),
            });
        }
        let expected = (num_features as usize)
            .checked_mul(FEATURE_SIZE)
            .and_then(|n| n.checked_add(CHUNK_HEADER));
        if expected != Some(feat.end - feat.start) {
            return Err(ModelError::Chunk {
                chunk: "FEAT",
                problem: format!(
                    "size {} does not fit {num_features} records of {FEATURE_SIZE} bytes",
                    feat.end - feat.start
                ),
            });
        }

        chunk(buf, off_labels, b"CQDB", "label CQDB", CQDB_MIN_SIZE)?;
        chunk(buf, off_attrs, b"CQDB", "attribute CQDB", CQDB_MIN_SIZE)?;

        let layout = Self {
            num_features,
            num_labels,
            num_attrs,
            features_start: feat.start + CHUNK_HEADER,
            label_refs: off_label_refs as usize,
            attr_refs: off_attr_refs as usize,
        };
        // The reference chunks: bounds and counts now, contents in `check_refs`.
        layout.ref_chunk(buf, RefKind::Label)?;
        layout.ref_chunk(buf, RefKind::Attr)?;
        Ok(layout)
    }

    /// Decodes every `FEAT` record, checking types, ids and weights.
    pub(super) fn features<'a>(
        &self,
        buf: &'a [u8],
    ) -> impl ExactSizeIterator<Item = Result<RawFeature, ModelError>> + 'a {
        let (num_labels, num_attrs) = (self.num_labels, self.num_attrs);
        // `parse` checked that the feature chunk lies in the buffer.
        let records = buf
            .within(self.features_start..)
            .chunks_exact(FEATURE_SIZE)
            .take(self.num_features as usize);
        records.enumerate().map(move |(index, record)| {
            let problem = |problem: String| ModelError::Feature { index, problem };
            let word = |at: usize| read_u32(record, at).unwrap_or(u32::MAX);
            let weight = record
                .get(12..20)
                .and_then(|b| b.try_into().ok())
                .map(f64::from_le_bytes)
                .unwrap_or(f64::NAN);
            let feature = RawFeature {
                kind: word(0),
                source: word(4),
                target: word(8),
                weight,
            };
            let source_limit = match feature.kind {
                STATE => num_attrs,
                TRANSITION => num_labels,
                other => return Err(problem(format!("unknown feature type {other}"))),
            };
            if feature.source >= source_limit {
                return Err(problem(format!(
                    "source id {} out of range (< {source_limit})",
                    feature.source
                )));
            }
            if feature.target >= num_labels {
                return Err(problem(format!(
                    "target label {} out of range (< {num_labels})",
                    feature.target
                )));
            }
            if !weight.is_finite() {
                return Err(problem(format!("weight {weight} is not finite")));
            }
            Ok(feature)
        })
    }

    /// Checks that every list of the `LFRF` and `AFRF` chunks is in bounds and names features of
    /// the right type and source, and that the lists name as many features as the `FEAT` chunk
    /// holds of that type.
    ///
    /// `features` are the decoded `FEAT` records.
    pub(super) fn check_refs(&self, buf: &[u8], features: &[RawFeature]) -> Result<(), ModelError> {
        for kind in [RefKind::Label, RefKind::Attr] {
            let (chunk, entries) = self.ref_chunk(buf, kind)?;
            let name = kind.name();
            let problem = |problem: String| ModelError::Chunk {
                chunk: name,
                problem,
            };
            // Lists come after the offset table (bounds checked by `ref_chunk`).
            let lists_start = chunk.start + CHUNK_HEADER + 4 * kind.count(self);
            let mut total = 0usize;
            for owner in 0..entries {
                let entry = chunk.start + CHUNK_HEADER + 4 * owner;
                let list = read_u32(buf, entry).unwrap_or(0) as usize;
                if list < lists_start || list >= chunk.end {
                    return Err(problem(format!(
                        "list {owner} at offset {list} lies outside its chunk"
                    )));
                }
                let len = read_u32(buf, list).unwrap_or(0) as usize;
                let ids_end = len
                    .checked_mul(4)
                    .and_then(|n| n.checked_add(list + 4))
                    .filter(|&end| end <= chunk.end)
                    .ok_or_else(|| {
                        problem(format!("list {owner} of {len} ids runs past its chunk"))
                    })?;
                // `list` and `ids_end` were just checked to lie in the chunk.
                let ids = buf.within(list + 4..ids_end);
                for id in ids.chunks_exact(4) {
                    let fid = read_u32(id, 0).unwrap_or(u32::MAX);
                    let Some(feature) = features.get(fid as usize) else {
                        return Err(problem(format!(
                            "list {owner} names feature {fid}, beyond the {} features",
                            features.len()
                        )));
                    };
                    if feature.kind != kind.feature_type() || feature.source as usize != owner {
                        return Err(problem(format!(
                            "list {owner} names feature {fid}, which belongs to another {}",
                            kind.owner()
                        )));
                    }
                }
                total += len;
            }
            let expected = features
                .iter()
                .filter(|f| f.kind == kind.feature_type())
                .count();
            if total != expected {
                return Err(problem(format!(
                    "lists name {total} features, the FEAT chunk has {expected} of this type"
                )));
            }
        }
        Ok(())
    }

    /// Validates the header of a reference chunk; returns it and the number of lists to read.
    fn ref_chunk(&self, buf: &[u8], kind: RefKind) -> Result<(Chunk, usize), ModelError> {
        let (offset, magic) = match kind {
            RefKind::Label => (self.label_refs, b"LFRF"),
            RefKind::Attr => (self.attr_refs, b"AFRF"),
        };
        let name = kind.name();
        let offset = u32::try_from(offset).unwrap_or(u32::MAX);
        let chunk = chunk(buf, offset, magic, name, CHUNK_HEADER)?;
        let count = read_u32(buf, chunk.start + 8).unwrap_or(0) as usize;
        // crfs and CRFsuite write num_labels + 2 label lists (two unused); accept exactly what
        // they write.
        let expected = kind.count(self);
        if count != expected {
            return Err(ModelError::Chunk {
                chunk: name,
                problem: format!("holds {count} lists, expected {expected}"),
            });
        }
        let table_end = count
            .checked_mul(4)
            .and_then(|n| n.checked_add(chunk.start + CHUNK_HEADER));
        if table_end.is_none_or(|end| end > chunk.end) {
            return Err(ModelError::Chunk {
                chunk: name,
                problem: format!("offset table of {count} entries runs past the chunk"),
            });
        }
        let owners = match kind {
            RefKind::Label => self.num_labels as usize,
            RefKind::Attr => self.num_attrs as usize,
        };
        Ok((chunk, owners))
    }
}

/// Which reference chunk.
#[derive(Debug, Clone, Copy)]
enum RefKind {
    /// `LFRF`: transition features by previous label.
    Label,
    /// `AFRF`: state features by attribute.
    Attr,
}

impl RefKind {
    fn name(self) -> &'static str {
        match self {
            RefKind::Label => "LFRF",
            RefKind::Attr => "AFRF",
        }
    }

    fn owner(self) -> &'static str {
        match self {
            RefKind::Label => "label",
            RefKind::Attr => "attribute",
        }
    }

    fn feature_type(self) -> u32 {
        match self {
            RefKind::Label => TRANSITION,
            RefKind::Attr => STATE,
        }
    }

    /// Number of entries in the chunk's offset table.
    fn count(self, layout: &Layout) -> usize {
        match self {
            RefKind::Label => layout.num_labels as usize + 2,
            RefKind::Attr => layout.num_attrs as usize,
        }
    }
}
