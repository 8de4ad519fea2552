//! jusText's paragraphs over victor's blocks: see
//! [`victor_features::seeds::paragraph`], re-exported here.

pub(crate) use victor_features::seeds::paragraph::*;
