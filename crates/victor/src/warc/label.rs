//! Labelling the page of a WARC record ([`crate::Cleaner::render_record`]): its body decoded
//! (chunks and content codings undone), labelled with the charset of its HTTP header, and
//! written in a format with the record's fields in a JSON line.

use super::{BodyError, Record, html_page};
use crate::format::{Fields, RenderError, Rendering};
use crate::{Cleaner, RawPage};

/// Why a record's page gave no output.
#[derive(Debug, thiserror::Error)]
pub enum RecordFailure {
    /// The record holds no HTML page.
    #[error("not an HTML page")]
    NotHtml,
    /// The body does not decode (a broken record).
    #[error(transparent)]
    Broken(#[from] BodyError),
    /// The page could not be labelled or written.
    #[error(transparent)]
    Render(#[from] RenderError),
}

impl Cleaner {
    /// Labels a record's page and appends its rendering to `out`: the source is the record's
    /// `WARC-Target-URI` (else `file@offset`), and a JSON line carries `WARC-Record-ID` and
    /// `WARC-Target-URI` before the page's keys and `warc_date` (the record's `WARC-Date`)
    /// after them. Their capitalised names sort before the page's lower-case keys, and
    /// `warc_date` after them, keeping the keys in order; the record's date is named apart
    /// from the page's publication date, `date` as in every other JSON line.
    ///
    /// # Errors
    ///
    /// [`RecordFailure`]: no HTML page, a body that does not decode, or a page that cannot be
    /// labelled.
    pub fn render_record(
        &self,
        rec: &Record,
        file: &str,
        how: &Rendering<'_>,
        out: &mut Vec<u8>,
    ) -> Result<(), RecordFailure> {
        let page = html_page(rec).map_err(|_| RecordFailure::NotHtml)?;
        let body = page.decoded()?;
        let uri = rec.header("WARC-Target-URI");
        let source = uri.map_or_else(|| format!("{file}@{}", rec.offset), str::to_string);
        let p = RawPage {
            html: &body,
            charset: page.charset,
            url: uri,
            fetched: rec.header("WARC-Date"),
        };
        let before = ["WARC-Record-ID", "WARC-Target-URI"].map(|k| (k, rec.header(k)));
        let after = [("warc_date", rec.header("WARC-Date"))];
        let fields = Fields {
            before: &before,
            after: &after,
        };
        self.render(p, &source, fields, how, out)?;
        Ok(())
    }
}
