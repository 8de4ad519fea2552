//! `--format csv`: one row a block ([`write_csv`]) under the header row [`CSV_HEADER`], which
//! comes once before a file's or a stream's first page.

use std::fmt::Write as _;
use std::io::{self, Write};

use victor_core::{Label, Probs};
use victor_features::Page;

use super::{Item, Spec, debug_check_lengths};

/// The CSV writer [`write_csv`] writes rows with (the `csv` crate's).
pub use ::csv::Writer as CsvWriter;

/// The CSV format.
pub(super) struct Csv;

impl Spec for Csv {
    fn extension(&self) -> &'static str {
        "csv"
    }

    fn render(&self, item: &Item<'_>, out: &mut Vec<u8>) -> io::Result<()> {
        let lp = item.lp;
        let mut w = ::csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        write_csv(
            &mut w,
            item.source,
            &lp.processed.page,
            &lp.labels,
            &lp.probs,
        )?;
        out.extend_from_slice(&w.into_inner().map_err(|e| e.into_error())?);
        Ok(())
    }

    fn header(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut w = ::csv::Writer::from_writer(out);
        w.write_record(CSV_HEADER)?;
        w.flush()
    }
}

/// Rows of `--format csv`: page, block, start, end, label, P(header), P(text), P(other), text.
pub fn write_csv(
    out: &mut CsvWriter<Vec<u8>>,
    source: &str,
    page: &Page,
    labels: &[Label],
    probs: &[Probs],
) -> ::csv::Result<()> {
    debug_check_lengths(page, labels, probs);
    let mut num = String::new();
    for (i, b) in page.blocks.iter().enumerate() {
        let p = probs.get(i).copied().unwrap_or([0.0, 0.0, 1.0]);
        num.clear();
        let _ = write!(num, "{i}");
        out.write_record([
            source,
            num.as_str(),
            &b.source.start.to_string(),
            &b.source.end.to_string(),
            labels.get(i).copied().unwrap_or(Label::Other).as_str(),
            &format!("{:.6}", p[0]),
            &format!("{:.6}", p[1]),
            &format!("{:.6}", p[2]),
            page.block_text(b),
        ])?;
    }
    Ok(())
}

/// The header row of `--format csv`.
pub const CSV_HEADER: [&str; 9] = [
    "page", "block", "start", "end", "label", "p_header", "p_text", "p_other", "text",
];
