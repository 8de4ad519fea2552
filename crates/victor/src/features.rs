//! The first stage from a program: a page's blocks and their features, raw and discretized
//! (`victor features`). [`process`] reads a page with an [`Extractor`] (a [`FeatureConfig`]
//! compiled), and a [`FeatureWriter`] writes its blocks in one of the [`FeatureFormat`]s.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub use victor_features::{
    Column, ConfigError, DEFAULT_TEMPLATE, Extractor, FeatureConfig, PageError, Processed, Schema,
    Segmenter, Template, TemplateError, process,
};

/// Most tag names of a block's path written: deeper paths keep their last ones after `…/`.
const PATH_NAMES: usize = 64;

/// How a [`FeatureWriter`] writes blocks (`victor features --format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum FeatureFormat {
    /// One JSON object per block: page, block, text, offsets, path (its last 64 tag names at
    /// most), and every feature as {"raw": number, "bin": label} under its name (plus
    /// "attributes" with --template).
    Jsonl,
    /// One row per block: page, block, text, then each feature's raw value and its bin.
    Csv,
    /// CRF++ column format: one block a line, the discretized value of every feature in schema
    /// order, tab-separated; a blank line between pages.
    Crfpp,
}

/// Where the rows go: straight to the writer, or through a CSV writer.
enum Sink<W: Write> {
    Plain(W),
    Csv(Box<csv::Writer<W>>),
}

/// Writes the blocks of pages with every feature value in a [`FeatureFormat`].
pub struct FeatureWriter<'a, W: Write> {
    sink: Sink<W>,
    format: FeatureFormat,
    schema: &'a Schema,
    /// With a template, JSON rows list each block's CRF attributes.
    template: Option<&'a Template>,
    buf: String,
}

/// A CSV error as the I/O error it holds (the only kind rows of strings can meet).
fn csv_io(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => io::Error::other(format!("{other:?}")),
    }
}

impl<'a, W: Write> FeatureWriter<'a, W> {
    /// A writer of blocks read by `extractor` into `out` (for CSV, its header written first).
    ///
    /// # Errors
    ///
    /// The writer's.
    pub fn new(
        out: W,
        format: FeatureFormat,
        extractor: &'a Extractor,
        template: Option<&'a Template>,
    ) -> io::Result<Self> {
        let schema = extractor.schema();
        let sink = if format == FeatureFormat::Csv {
            let mut w = csv::Writer::from_writer(out);
            let mut header = vec!["page".to_string(), "block".into(), "text".into()];
            for c in &schema.columns {
                header.push(c.name.clone());
                header.push(format!("{}:bin", c.name));
            }
            w.write_record(&header).map_err(csv_io)?;
            Sink::Csv(Box::new(w))
        } else {
            Sink::Plain(out)
        };
        Ok(FeatureWriter {
            sink,
            format,
            schema,
            template,
            buf: String::new(),
        })
    }

    /// Writes every block of the page `p`, named `name` in the rows.
    ///
    /// # Errors
    ///
    /// The writer's.
    pub fn page(&mut self, name: &str, p: &Processed<'_>) -> io::Result<()> {
        let schema = self.schema;
        for (i, b) in p.page.blocks.iter().enumerate() {
            let text = p.page.block_text(b);
            match &mut self.sink {
                Sink::Csv(w) => {
                    let mut rec = vec![name.to_string(), i.to_string(), text.to_string()];
                    for (c, col) in schema.columns.iter().enumerate() {
                        rec.push(p.table.raw(i, c).to_string());
                        rec.push(bin_label(col, p.table.value(i, c)).to_string());
                    }
                    w.write_record(&rec).map_err(csv_io)?;
                }
                Sink::Plain(out) if self.format == FeatureFormat::Jsonl => {
                    let mut feats = serde_json::Map::new();
                    for (c, col) in schema.columns.iter().enumerate() {
                        let raw = p.table.raw(i, c);
                        let bin = bin_label(col, p.table.value(i, c)).to_string();
                        let raw = serde_json::Number::from_f64(f64::from(raw))
                            .map_or(serde_json::Value::Null, serde_json::Value::Number);
                        feats.insert(
                            col.name.clone(),
                            serde_json::json!({"raw": raw, "bin": bin}),
                        );
                    }
                    let mut row = serde_json::json!({
                        "page": name,
                        "block": i,
                        "text": text,
                        "start": b.source.start,
                        "end": b.source.end,
                        "path": p.page.path_tail(b.parent, PATH_NAMES),
                        "space_before": b.space_before,
                        "features": feats,
                    });
                    if let Some(t) = self.template {
                        let mut attrs = Vec::new();
                        t.for_each_attribute(&p.table, i, &mut self.buf, |a| {
                            attrs.push(serde_json::Value::from(a))
                        });
                        row["attributes"] = serde_json::Value::Array(attrs);
                    }
                    serde_json::to_writer(&mut *out, &row)?;
                    out.write_all(b"\n")?;
                }
                Sink::Plain(out) => {
                    for (c, col) in schema.columns.iter().enumerate() {
                        if c > 0 {
                            out.write_all(b"\t")?;
                        }
                        let label = col
                            .labels
                            .get(usize::from(p.table.value(i, c)))
                            .map_or("?", String::as_str);
                        out.write_all(label.as_bytes())?;
                    }
                    out.write_all(b"\n")?;
                }
            }
        }
        if let (FeatureFormat::Crfpp, Sink::Plain(out)) = (self.format, &mut self.sink) {
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// Flushes what is written.
    ///
    /// # Errors
    ///
    /// The writer's.
    pub fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Plain(out) => out.flush(),
            Sink::Csv(w) => w.flush(),
        }
    }
}

/// The name of a column's bin `value`. The discretization gives each column's values from its
/// own bins, so the name is always there; a release build writes `""` where it were not.
fn bin_label(col: &Column, value: u16) -> &str {
    let label = col.labels.get(usize::from(value));
    debug_assert!(
        label.is_some(),
        "bin {value} of a column with {} bins",
        col.labels.len()
    );
    label.map_or("", String::as_str)
}

/// A feature configuration or template file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The configuration file cannot be read.
    #[error("cannot read feature configuration {}", .0.display())]
    Config(PathBuf, #[source] io::Error),
    /// It is not a valid configuration.
    #[error("in {}", .0.display())]
    Invalid(PathBuf, #[source] ConfigError),
    /// The template file cannot be read.
    #[error("cannot read template {}", .0.display())]
    Template(PathBuf, #[source] io::Error),
}

/// The feature configuration in the JSON file `path`; `None`: the built-in one
/// (`templates/features.json`).
///
/// # Errors
///
/// [`ReadError`]: the file cannot be read or is not a configuration.
pub fn read_config(path: Option<&Path>) -> Result<FeatureConfig, ReadError> {
    let Some(p) = path else {
        return Ok(FeatureConfig::default());
    };
    let s = std::fs::read_to_string(p).map_err(|e| ReadError::Config(p.to_path_buf(), e))?;
    FeatureConfig::from_json(&s).map_err(|e| ReadError::Invalid(p.to_path_buf(), e))
}

/// The text of the template file `path`; `None`: the built-in one ([`DEFAULT_TEMPLATE`]).
///
/// # Errors
///
/// [`ReadError::Template`]: the file cannot be read.
pub fn read_template(path: Option<&Path>) -> Result<String, ReadError> {
    match path {
        None => Ok(DEFAULT_TEMPLATE.to_string()),
        Some(p) => std::fs::read_to_string(p).map_err(|e| ReadError::Template(p.to_path_buf(), e)),
    }
}
