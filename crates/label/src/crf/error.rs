//! The two ways the CRF core can refuse: a model file it cannot trust ([`ModelError`]) and
//! inputs that do not fit the model ([`InferenceError`]).
//!
//! Both are plain data: a caller displays them or matches on the variant, nothing here logs.

use thiserror::Error;

/// Why a byte buffer is not a usable CRFsuite model.
///
/// Every structural problem of the file is reported here; reading a model never panics.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum ModelError {
    /// The buffer is shorter than the fixed 48-byte file header.
    #[error("model file is {len} bytes, shorter than the 48-byte CRFsuite header")]
    TooShort {
        /// Length of the buffer.
        len: usize,
    },
    /// The first four bytes are not `lCRF`.
    #[error("not a CRFsuite model: magic {found:?}, expected \"lCRF\"")]
    BadMagic {
        /// The four bytes found.
        found: [u8; 4],
    },
    /// A CRFsuite file of a kind this reader does not know (only 1st-order CRFs, `FOMC`
    /// version 100, exist).
    #[error("unsupported CRFsuite model: type {kind:?} version {version}, expected \"FOMC\" 100")]
    Unsupported {
        /// The model type tag.
        kind: [u8; 4],
        /// The format version.
        version: u32,
    },
    /// The size recorded in the header differs from the buffer length: the file was cut short
    /// or has bytes appended.
    #[error(
        "model header declares {declared} bytes but the file has {actual} (truncated or padded)"
    )]
    SizeMismatch {
        /// Size recorded in the header.
        declared: u32,
        /// Length of the buffer.
        actual: usize,
    },
    /// The header declares no labels at all.
    #[error("model declares no labels")]
    NoLabels,
    /// A chunk (`FEAT`, `LFRF`, `AFRF` or a `CQDB` dictionary) is out of bounds or inconsistent.
    #[error("corrupt {chunk} chunk: {problem}")]
    Chunk {
        /// Which chunk.
        chunk: &'static str,
        /// What is wrong with it.
        problem: String,
    },
    /// A record of the `FEAT` chunk is invalid (unknown type, id out of range, non-finite or
    /// duplicate weight).
    #[error("corrupt feature #{index}: {problem}")]
    Feature {
        /// Index of the record in the `FEAT` chunk.
        index: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// A string dictionary (labels or attributes) cannot be read or is inconsistent.
    #[error("corrupt {dict} dictionary: {problem}")]
    Dictionary {
        /// `"label"`, `"attribute"` or `"label or attribute"`.
        dict: &'static str,
        /// What is wrong with it.
        problem: String,
    },
    /// The dense weight matrix (attributes x labels) would be unreasonably large.
    #[error(
        "model too large: {num_attrs} attributes x {num_labels} labels exceeds the dense weight limit"
    )]
    TooLarge {
        /// Number of attributes declared.
        num_attrs: u32,
        /// Number of labels declared.
        num_labels: u32,
    },
    /// The `crfs` dictionary reader panicked on this file despite the checks made before calling
    /// it; the panic was caught and turned into this error.
    #[error("the crfs dictionary reader failed on this file: {message}")]
    ReaderPanic {
        /// The panic message, if it was a string.
        message: String,
    },
}

/// Why inference refused its inputs.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum InferenceError {
    /// A score matrix or score row does not have one column per model label.
    #[error("scores have {found} columns but the model has {expected} labels")]
    LabelCount {
        /// Number of labels of the model.
        expected: usize,
        /// Number of columns (or row length) given.
        found: usize,
    },
    /// A state score is NaN or infinite.
    #[error("state score at position {position}, label {label} is not finite")]
    NonFiniteScore {
        /// Position in the sequence.
        position: usize,
        /// Label id (column).
        label: usize,
    },
    /// An attribute id is not below the model's number of attributes.
    #[error("attribute id {attr} out of range (the model has {num_attrs} attributes){}",
        .position.map(|p| format!(" at position {p}")).unwrap_or_default())]
    UnknownAttribute {
        /// The offending id.
        attr: u32,
        /// Number of attributes of the model.
        num_attrs: usize,
        /// Position in the sequence, when known.
        position: Option<usize>,
    },
    /// The sequence is too long for a `positions x labels` matrix to be addressed.
    #[error("a sequence of {positions} positions is too long")]
    TooLong {
        /// Number of positions requested.
        positions: usize,
    },
}
