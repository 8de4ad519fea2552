//! What a page's JSON-LD says about the document: the headline, authors and dates of its
//! article (the node whose `@type` names an article, or that has a `headline`), and the name
//! of its publisher or web site.
//!
//! The scripts are read by a selective reader ([`Node`]): only the keys used here are kept, the
//! rest is walked for nested objects without building a tree of values (building
//! `serde_json::Value` trees was most of the metadata's cost). Objects are listed as a
//! `serde_json::Value` walk would list them: depth first, a parent before its children, the
//! children in the order of their keys.

use memchr::memmem;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::sync::LazyLock;

/// At most this many JSON-LD nodes are looked at a page.
const MAX_NODES: usize = 2000;

/// Objects deeper than this (objects and arrays counted) are not looked at.
const MAX_DEPTH: usize = 8;

/// Keys and types a script must name for [`LdFacts::read`] to parse it: the fields it reads,
/// and the people an `@id` may name.
const RELEVANT: &[&str] = &[
    "\"headline\"",
    "\"author\"",
    "\"datePublished\"",
    "\"dateCreated\"",
    "\"dateModified\"",
    "\"publisher\"",
    "WebSite",
    "Person",
];

/// Searchers for [`RELEVANT`], built once (`str::contains` builds one on every call).
static RELEVANT_FINDERS: LazyLock<Vec<memmem::Finder<'static>>> = LazyLock::new(|| {
    RELEVANT
        .iter()
        .map(|k| memmem::Finder::new(k.as_bytes()))
        .collect()
});

/// The facts read from a page's JSON-LD.
#[derive(Clone, Debug, Default)]
pub(crate) struct LdFacts {
    pub(crate) headline: Option<String>,
    pub(crate) author: Option<String>,
    pub(crate) published: Option<String>,
    pub(crate) modified: Option<String>,
    pub(crate) site_name: Option<String>,
}

/// One JSON-LD object, as far as the facts read here go. A key's `Some` says it is present;
/// the inner value is its text ([`TextSeed`]) when it has one.
#[derive(Clone, Debug, Default)]
struct Node {
    types: Vec<String>,
    id: Option<Option<String>>,
    name: Option<Option<String>>,
    headline: Option<Option<String>>,
    published: Option<Option<String>>,
    created: Option<Option<String>>,
    modified: Option<Option<String>>,
    author: Option<People>,
    publisher: Option<People>,
}

impl Node {
    /// The `@id`, when a string.
    fn id(&self) -> Option<&str> {
        self.id.as_ref()?.as_deref()
    }

    /// The `name`'s text.
    fn name(&self) -> Option<String> {
        self.name.clone().flatten()
    }
}

/// An `author` or `publisher` value: one person or a list of them.
#[derive(Clone, Debug, Default)]
struct People {
    list: bool,
    items: Vec<Person>,
}

/// A person as an `author` value gives one.
#[derive(Clone, Debug)]
enum Person {
    /// A string (its text, if any).
    Text(Option<String>),
    /// An object.
    Node(Box<Node>),
    /// Anything else.
    Other,
}

/// Types whose node describes the document itself.
fn is_article(node: &Node) -> bool {
    const TYPES: &[&str] = &[
        "Article",
        "NewsArticle",
        "BlogPosting",
        "Report",
        "TechArticle",
        "ScholarlyArticle",
        "Recipe",
        "HowTo",
        "AnalysisNewsArticle",
        "OpinionNewsArticle",
        "ReportageNewsArticle",
        "LiveBlogPosting",
        "SocialMediaPosting",
        "DiscussionForumPosting",
        "Review",
        "Question",
        "VideoObject",
        "PodcastEpisode",
        "Posting",
        "Blog",
        "Guide",
        "FAQPage",
        "Product",
    ];
    node.types.iter().any(|t| TYPES.contains(&t.as_str()))
}

/// Whether a node can give a fact: [`LdFacts::read`] looks only for nodes that describe the
/// document, have a headline, a date or an author, name the web site, or name an `@id`. The
/// others (offers, images, list items, breadcrumbs) are not kept, which leaves every look-up's
/// first match as it was.
fn matters(node: &Node) -> bool {
    is_article(node)
        || node.headline.is_some()
        || node.published.is_some()
        || node.author.is_some()
        || typed(node, &["WebSite"])
        || (node.id.is_some() && node.name.is_some())
}

/// Whether a node's `@type` is one of `types`.
fn typed(node: &Node, types: &[&str]) -> bool {
    node.types.iter().any(|t| types.contains(&t.as_str()))
}

impl LdFacts {
    /// Reads the JSON-LD texts of a page (NUL-separated, as [`victor_features::Head`] keeps
    /// them). A script that does not parse is skipped.
    pub(crate) fn read(json_ld: &str) -> LdFacts {
        let mut nodes: Vec<Node> = Vec::new();
        let count = Cell::new(0);
        // Only the scripts that can say something here are read: breadcrumbs, offers and FAQ
        // lists are skipped.
        for script in json_ld.split('\0').filter(|s| {
            RELEVANT_FINDERS
                .iter()
                .any(|k| k.find(s.as_bytes()).is_some())
        }) {
            read_script(script, &mut nodes, &count);
        }
        let mut facts = LdFacts::default();
        let name_of_id = |id: &str| {
            nodes
                .iter()
                .find(|n| n.id() == Some(id) && n.name.is_some())
                .and_then(Node::name)
        };
        let article = nodes
            .iter()
            .find(|n| is_article(n) && (n.headline.is_some() || n.published.is_some()))
            .or_else(|| nodes.iter().find(|n| is_article(n)))
            .or_else(|| nodes.iter().find(|n| n.headline.is_some()));
        if let Some(a) = article {
            facts.headline = a.headline.clone().flatten();
            facts.author = a.author.as_ref().and_then(|v| names(v, &name_of_id));
            facts.published = match &a.published {
                Some(p) => p.clone(),
                None => a.created.clone().flatten(),
            };
            facts.modified = a.modified.clone().flatten();
            facts.site_name = a.publisher.as_ref().and_then(|p| match p.items.first() {
                Some(Person::Node(n)) if !p.list => {
                    n.name().or_else(|| n.id().and_then(name_of_id))
                }
                _ => None,
            });
        }
        if facts.published.is_none() {
            facts.published = nodes.iter().find_map(|n| n.published.clone().flatten());
        }
        if facts.author.is_none() {
            facts.author = nodes
                .iter()
                .filter(|n| !typed(n, &["WebSite", "Organization"]))
                .find_map(|n| n.author.as_ref().and_then(|v| names(v, &name_of_id)));
        }
        if facts.site_name.is_none() {
            facts.site_name = nodes
                .iter()
                .find(|n| typed(n, &["WebSite"]))
                .and_then(Node::name);
        }
        facts
    }
}

/// Reads one script's objects into `nodes`, forgiving raw line breaks and tabs inside
/// strings; a script that does not parse adds nothing.
fn read_script(s: &str, nodes: &mut Vec<Node>, count: &Cell<usize>) {
    let s = s.trim();
    if s.is_empty() {
        return;
    }
    let start = (nodes.len(), count.get());
    if walk(s, nodes, count).is_ok() {
        return;
    }
    nodes.truncate(start.0);
    count.set(start.1);
    let fixed: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if walk(&fixed, nodes, count).is_err() {
        nodes.truncate(start.0);
        count.set(start.1);
    }
}

/// Walks one JSON text (the whole of it: trailing characters are an error).
fn walk(s: &str, nodes: &mut Vec<Node>, count: &Cell<usize>) -> Result<(), serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(s);
    ValueSeed {
        out: nodes,
        depth: 0,
        count,
    }
    .deserialize(&mut de)?;
    de.end()
}

/// The visitor methods of the scalars a reader does not use (booleans, numbers, null), each
/// giving `$value`: serde's defaults would refuse them as errors, and JSON-LD puts any kind of
/// value anywhere.
macro_rules! scalars_give {
    ($ty:ty, $value:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<$ty, E> {
            Ok($value)
        }
        fn visit_i64<E>(self, _: i64) -> Result<$ty, E> {
            Ok($value)
        }
        fn visit_u64<E>(self, _: u64) -> Result<$ty, E> {
            Ok($value)
        }
        fn visit_f64<E>(self, _: f64) -> Result<$ty, E> {
            Ok($value)
        }
        fn visit_unit<E>(self) -> Result<$ty, E> {
            Ok($value)
        }
    };
}

/// Walks a value, listing its objects in `out`.
struct ValueSeed<'a> {
    out: &'a mut Vec<Node>,
    depth: usize,
    count: &'a Cell<usize>,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        if self.depth > MAX_DEPTH || self.count.get() >= MAX_NODES {
            d.deserialize_ignored_any(IgnoredAny)?;
            return Ok(());
        }
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    scalars_give!((), ());
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq
            .next_element_seed(ValueSeed {
                out: &mut *self.out,
                depth: self.depth + 1,
                count: self.count,
            })?
            .is_some()
        {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        self.count.set(self.count.get() + 1);
        let slot = self.out.len();
        self.out.push(Node::default());
        let mut children: Vec<(Cow<'de, str>, Vec<Node>)> = Vec::new();
        let node = read_node(map, Some((&mut children, self.depth, self.count)))?;
        // The children, read into `children`, are not in `out` yet: the slot is its last.
        if matters(&node) {
            self.out[slot] = node;
        } else {
            self.out.truncate(slot);
        }
        // A `Value` map lists its keys in order.
        children.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, c) in children {
            self.out.extend(c);
        }
        Ok(())
    }
}

/// Where a walked object's children go: (key, objects) pairs, its depth, the node count.
type Children<'x, 'de> = (
    &'x mut Vec<(Cow<'de, str>, Vec<Node>)>,
    usize,
    &'x Cell<usize>,
);

/// Reads an object's keys into a [`Node`]. With `walk`, the objects inside its other keys are
/// listed as its children (and an `author`'s or `publisher`'s objects that have an `@id`);
/// without, other keys are skipped.
fn read_node<'de, A: MapAccess<'de>>(
    mut map: A,
    mut walk: Option<Children<'_, 'de>>,
) -> Result<Node, A::Error> {
    let mut node = Node::default();
    while let Some(key) = map.next_key_seed(KeySeed)? {
        // A later key of the same name replaces an earlier one, as in a `Value` map.
        if let Some((children, _, _)) = walk.as_mut()
            && let Key::Other(k) | Key::People(k) = &key
        {
            children.retain(|c| c.0 != *k);
        }
        match key {
            Key::Type => node.types = map.next_value_seed(TypesSeed)?,
            Key::Id => node.id = Some(map.next_value_seed(StrSeed)?),
            Key::Name => node.name = Some(map.next_value_seed(TextSeed)?),
            Key::Headline => node.headline = Some(map.next_value_seed(TextSeed)?),
            Key::Published => node.published = Some(map.next_value_seed(TextSeed)?),
            Key::Created => node.created = Some(map.next_value_seed(TextSeed)?),
            Key::Modified => node.modified = Some(map.next_value_seed(TextSeed)?),
            Key::People(k) => {
                if walk.is_none() {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
                let people = map.next_value_seed(PeopleSeed)?;
                if let Some((children, _, count)) = walk.as_mut() {
                    // People listed by reference still name themselves elsewhere.
                    let named: Vec<Node> = people
                        .items
                        .iter()
                        .filter_map(|p| match p {
                            Person::Node(n) if n.id.is_some() => Some(Node::clone(n)),
                            _ => None,
                        })
                        .collect();
                    if !named.is_empty() {
                        count.set(count.get() + named.len());
                        children.push((k.clone(), named));
                    }
                }
                if k == "author" {
                    node.author = Some(people);
                } else {
                    node.publisher = Some(people);
                }
            }
            Key::Other(k) => match walk.as_mut() {
                Some((children, depth, count)) => {
                    let mut found = Vec::new();
                    map.next_value_seed(ValueSeed {
                        out: &mut found,
                        depth: *depth + 1,
                        count,
                    })?;
                    if !found.is_empty() {
                        children.push((k, found));
                    }
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            },
        }
    }
    Ok(node)
}

/// A key of an object: the ones read, or another.
enum Key<'de> {
    Type,
    Id,
    Name,
    Headline,
    Published,
    Created,
    Modified,
    /// `author` or `publisher`.
    People(Cow<'de, str>),
    Other(Cow<'de, str>),
}

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key<'de>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E>(self, k: &'de str) -> Result<Key<'de>, E> {
        Ok(Key::of(Cow::Borrowed(k)))
    }

    fn visit_str<E>(self, k: &str) -> Result<Key<'de>, E> {
        Ok(Key::of(Cow::Owned(k.to_string())))
    }
}

impl<'de> Key<'de> {
    fn of(k: Cow<'de, str>) -> Key<'de> {
        match k.as_ref() {
            "@type" => Key::Type,
            "@id" => Key::Id,
            "name" => Key::Name,
            "headline" => Key::Headline,
            "datePublished" => Key::Published,
            "dateCreated" => Key::Created,
            "dateModified" => Key::Modified,
            "author" | "publisher" => Key::People(k),
            _ => Key::Other(k),
        }
    }
}

/// A value's text ([`text`]): a string, or the first string of an array that has text.
struct TextSeed;

impl<'de> DeserializeSeed<'de> for TextSeed {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<String>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TextSeed {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_str<E>(self, s: &str) -> Result<Option<String>, E> {
        Ok(text(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<String>, A::Error> {
        let mut first = None;
        while let Some(t) = seq.next_element_seed(TextSeed)? {
            first = first.or(t);
        }
        Ok(first)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<String>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    scalars_give!(Option<String>, None);
}

/// A value when it is a string (as it is; `None` for anything else).
struct StrSeed;

impl<'de> DeserializeSeed<'de> for StrSeed {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<String>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrSeed {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_str<E>(self, s: &str) -> Result<Option<String>, E> {
        Ok(Some(s.to_string()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<String>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<String>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    scalars_give!(Option<String>, None);
}

/// An `@type`: a string, or the strings of an array.
struct TypesSeed;

impl<'de> DeserializeSeed<'de> for TypesSeed {
    type Value = Vec<String>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<String>, D::Error> {
        match StrOrList::deserialize(d)? {
            StrOrList(v) => Ok(v),
        }
    }
}

/// The strings of a string or of an array (other values give none).
struct StrOrList(Vec<String>);

impl StrOrList {
    fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<StrOrList, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StrOrList;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }

            fn visit_str<E>(self, s: &str) -> Result<StrOrList, E> {
                Ok(StrOrList(vec![s.to_string()]))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StrOrList, A::Error> {
                let mut out = Vec::new();
                while let Some(s) = seq.next_element_seed(StrSeed)? {
                    out.extend(s);
                }
                Ok(StrOrList(out))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StrOrList, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(StrOrList(Vec::new()))
            }

            scalars_give!(StrOrList, StrOrList(Vec::new()));
        }
        d.deserialize_any(V)
    }
}

/// An `author` or `publisher` value ([`People`]).
struct PeopleSeed;

impl<'de> DeserializeSeed<'de> for PeopleSeed {
    type Value = People;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<People, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for PeopleSeed {
    type Value = People;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<People, A::Error> {
        let mut items = Vec::new();
        while let Some(p) = seq.next_element_seed(PersonSeed)? {
            items.push(p);
        }
        Ok(People { list: true, items })
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<People, E> {
        PersonSeed.visit_str(s).map(People::one)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<People, A::Error> {
        PersonSeed.visit_map(map).map(People::one)
    }

    scalars_give!(People, People::one(Person::Other));
}

impl People {
    fn one(p: Person) -> People {
        People {
            list: false,
            items: vec![p],
        }
    }
}

/// One person of an `author` value.
struct PersonSeed;

impl<'de> DeserializeSeed<'de> for PersonSeed {
    type Value = Person;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Person, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for PersonSeed {
    type Value = Person;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_str<E>(self, s: &str) -> Result<Person, E> {
        Ok(Person::Text(text(s)))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Person, A::Error> {
        read_node(map, None).map(|n| Person::Node(Box::new(n)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Person, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Person::Other)
    }

    scalars_give!(Person, Person::Other);
}

/// A string's text: entities decoded, space collapsed; `None` when empty.
fn text(s: &str) -> Option<String> {
    let s = super::clean_text(s);
    (!s.is_empty()).then_some(s)
}

/// The names of an `author` value: a string, an object with a `name` (or an `@id` named
/// elsewhere), or a list of those; URLs are not names. Several are joined with `, `.
fn names(v: &People, name_of_id: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |n: Option<String>| {
        if let Some(n) = n.and_then(|n| super::clean_author(&n))
            && !out.contains(&n)
        {
            out.push(n);
        }
    };
    let one = |x: &Person| match x {
        Person::Text(t) => t.clone(),
        Person::Node(n) => n.name().or_else(|| n.id().and_then(name_of_id)),
        Person::Other => None,
    };
    let take = if v.list { 10 } else { 1 };
    v.items.iter().take(take).for_each(|x| push(one(x)));
    (!out.is_empty()).then(|| out.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_that_does_not_parse_adds_nothing() {
        let f = LdFacts::read(
            "{\"@type\": \"Article\", \"headline\": \"A\"} trailing\0[{\"headline\": \"B\"}]",
        );
        assert_eq!(f.headline.as_deref(), Some("B"));
    }

    #[test]
    fn objects_are_listed_parent_first_children_by_key() {
        // `mainEntity` sorts after `about`: the article under `about` is the first one.
        let f = LdFacts::read(
            r##"{"@type": "WebPage", "mainEntity": {"@type": "Article", "headline": "M"},
                "about": {"@type": "Article", "headline": "A", "author": [{"@id": "#p"}]},
                "x": [{"@id": "#p", "name": "Ann Lee"}]}"##,
        );
        assert_eq!(f.headline.as_deref(), Some("A"));
        assert_eq!(f.author.as_deref(), Some("Ann Lee"));
    }

    #[test]
    fn nodes_that_give_no_fact_are_not_kept_and_still_count_toward_the_cap() {
        // Offers and images are dropped; the person named by `@id` and the article stay.
        let f = LdFacts::read(
            r##"{"@graph": [{"@type": "Offer", "price": 3}, {"@type": "ImageObject", "name": "pic"},
                {"@type": "Person", "@id": "#p", "name": "Ann Lee"},
                {"@type": "Product", "name": "Tent", "author": {"@id": "#p"}}]}"##,
        );
        assert_eq!(f.author.as_deref(), Some("Ann Lee"));
        // Past the cap nothing more is read, kept or not.
        let filler = (0..MAX_NODES)
            .map(|i| format!("{{\"@type\": \"Offer\", \"sku\": {i}}}"))
            .collect::<Vec<_>>()
            .join(",");
        let f = LdFacts::read(&format!(
            "[{filler}, {{\"@type\": \"Article\", \"headline\": \"Late\"}}]"
        ));
        assert_eq!(f.headline, None);
    }

    #[test]
    fn control_characters_in_strings_are_forgiven() {
        let f = LdFacts::read("{\"@type\": \"Article\", \"headline\": \"Line\none\"}");
        assert_eq!(f.headline.as_deref(), Some("Line one"));
    }
}
