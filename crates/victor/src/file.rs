//! Reading page files and writing outputs by the one writer rule, re-exported by name from
//! `victor_html::file` (where the rule lives): a regular file (or nothing) is written atomically
//! ([`Output`], [`write_file`]), a symbolic link is followed, a FIFO, a character device or `-`
//! ([`STDOUT`]) is written as a stream, anything else is refused; pages are read inflated when
//! they are gzip ([`read_page_file`], at most [`MAX_PAGE_BYTES`]).

pub use victor_features::file::{
    Destination, FIFO_WAIT, MAX_PAGE_BYTES, Opened, Output, STDOUT, destination, inflate, kind_of,
    read_page_file, write_file,
};
