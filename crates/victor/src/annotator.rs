//! The annotation tool (the `annotator` feature): a web server that shows pages, takes their
//! labels and saves them to an annotated set (`victor annotate`). [`Server::bind`] opens it on
//! [`Options`]; with an [`AdaptLoop`] it adapts its model to the pages saved so far, by the one
//! assembly of [`crate::train`] ([`adapt_to_set`]).

pub use victor_annotator::{
    AdaptError, AdaptLoop, Adapted, AnnotateError, DEFAULT_ADAPT_EVERY, Options, Order, PageSource,
    Server, adapt_to_set,
};

use crate::models::{self, ModelError};
use crate::train::AdaptSettings;

/// The loop that adapts the bundle `name` (a folder or a name, as [`models::open`] takes it)
/// every `every` saved pages with the default settings (`victor annotate --model M --adapt`,
/// as `victor train OUT --adapt M` adapts), and the model it starts from (which pre-labels).
///
/// # Errors
///
/// [`ModelError`]: the bundle cannot be found or loaded.
pub fn adapt_loop(
    name: &std::path::Path,
    every: usize,
) -> Result<(victor_label::Model, AdaptLoop), ModelError> {
    let (model, image) = models::open_with_image(name)?;
    // The digest names the base bundle in the adapted models' lineage.
    let adapt = AdaptSettings::default().adapt(&model, name.display().to_string(), image);
    Ok((model, AdaptLoop { adapt, every }))
}
