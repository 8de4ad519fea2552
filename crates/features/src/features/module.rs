//! The feature modules a configuration switches on by name.

/// A feature module: a group of columns the configuration switches on by name. Columns come
/// in the order of [`Module::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Module {
    /// `main`.
    Main,
    /// `markup`.
    Markup,
    /// `content`.
    Content,
    /// `sentence`.
    Sentence,
    /// `duplicate`.
    Duplicate,
    /// `regexp`.
    Regexp,
    /// `groups`.
    Groups,
    /// `langid`.
    LangId,
    /// `document`.
    Document,
    /// `paragraph`.
    Paragraph,
    /// `stopwords`.
    StopWords,
    /// `class`.
    Class,
    /// `title`.
    Title,
    /// `bte`.
    Bte,
    /// `density`.
    Density,
    /// `justext`.
    JusText,
    /// `kimatu`.
    Kimatu,
    /// `repeat`.
    Repeat,
    /// `declared`.
    Declared,
}

impl Module {
    /// Every module, in column order.
    pub const ALL: [Module; 19] = [
        Module::Main,
        Module::Markup,
        Module::Content,
        Module::Sentence,
        Module::Duplicate,
        Module::Regexp,
        Module::Groups,
        Module::LangId,
        Module::Document,
        Module::Paragraph,
        Module::StopWords,
        Module::Class,
        Module::Title,
        Module::Bte,
        Module::Density,
        Module::JusText,
        Module::Kimatu,
        Module::Repeat,
        Module::Declared,
    ];

    /// The module's name in configurations.
    pub const fn name(self) -> &'static str {
        match self {
            Module::Main => "main",
            Module::Markup => "markup",
            Module::Content => "content",
            Module::Sentence => "sentence",
            Module::Duplicate => "duplicate",
            Module::Regexp => "regexp",
            Module::Groups => "groups",
            Module::LangId => "langid",
            Module::Document => "document",
            Module::Paragraph => "paragraph",
            Module::StopWords => "stopwords",
            Module::Class => "class",
            Module::Title => "title",
            Module::Bte => "bte",
            Module::Density => "density",
            Module::JusText => "justext",
            Module::Kimatu => "kimatu",
            Module::Repeat => "repeat",
            Module::Declared => "declared",
        }
    }

    /// The module of a configuration name.
    pub fn from_name(name: &str) -> Option<Module> {
        Module::ALL.into_iter().find(|m| m.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::Module;

    /// Column spans and the switched-on table index [`Module::ALL`] by discriminant.
    #[test]
    fn every_module_stands_at_its_discriminant_in_all() {
        for (i, m) in Module::ALL.into_iter().enumerate() {
            assert_eq!(m as usize, i, "{}", m.name());
        }
    }
}
