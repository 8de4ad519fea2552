//! What a page's JSON-LD says about the document: the headline, authors and dates of its
//! article (the node whose `@type` names an article, or that has a `headline`), and the name
//! of its publisher or web site.

use serde_json::Value;

/// At most this many JSON-LD nodes are looked at a page.
const MAX_NODES: usize = 2000;

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

/// The facts read from a page's JSON-LD.
#[derive(Clone, Debug, Default)]
pub(crate) struct LdFacts {
    pub(crate) headline: Option<String>,
    pub(crate) author: Option<String>,
    pub(crate) published: Option<String>,
    pub(crate) modified: Option<String>,
    pub(crate) site_name: Option<String>,
}

/// Types whose node describes the document itself.
fn is_article(node: &Value) -> bool {
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
    types(node).any(|t| TYPES.contains(&t))
}

fn types(node: &Value) -> impl Iterator<Item = &str> {
    let t = node.get("@type");
    let one = t.and_then(Value::as_str);
    let many = t
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str);
    one.into_iter().chain(many)
}

impl LdFacts {
    /// Reads the JSON-LD texts of a page (NUL-separated, as [`victor_features::Head`] keeps
    /// them). A script that does not parse is skipped.
    pub(crate) fn read(json_ld: &str) -> LdFacts {
        let mut nodes: Vec<&Value> = Vec::new();
        // Only the scripts that can say something here are parsed (parsing into values is
        // most of the metadata's cost): breadcrumbs, offers and FAQ lists are skipped.
        let values: Vec<Value> = json_ld
            .split('\0')
            .filter(|s| RELEVANT.iter().any(|k| s.contains(k)))
            .filter_map(parse)
            .collect();
        for v in &values {
            collect(v, &mut nodes, 0);
        }
        let mut facts = LdFacts::default();
        let name_of_id = |id: &str| {
            nodes
                .iter()
                .find(|n| {
                    n.get("@id").and_then(Value::as_str) == Some(id) && n.get("name").is_some()
                })
                .and_then(|n| n.get("name"))
                .and_then(text)
        };
        let article = nodes
            .iter()
            .find(|n| {
                is_article(n) && (n.get("headline").is_some() || n.get("datePublished").is_some())
            })
            .or_else(|| nodes.iter().find(|n| is_article(n)))
            .or_else(|| nodes.iter().find(|n| n.get("headline").is_some()));
        if let Some(a) = article {
            facts.headline = a.get("headline").and_then(text);
            facts.author = a.get("author").and_then(|v| names(v, &name_of_id));
            facts.published = a
                .get("datePublished")
                .or_else(|| a.get("dateCreated"))
                .and_then(text);
            facts.modified = a.get("dateModified").and_then(text);
            facts.site_name = a.get("publisher").and_then(|p| {
                p.get("name")
                    .and_then(text)
                    .or_else(|| p.get("@id").and_then(Value::as_str).and_then(name_of_id))
            });
        }
        if facts.published.is_none() {
            facts.published = nodes
                .iter()
                .find_map(|n| n.get("datePublished").and_then(text));
        }
        if facts.author.is_none() {
            facts.author = nodes
                .iter()
                .filter(|n| !types(n).any(|t| t == "WebSite" || t == "Organization"))
                .find_map(|n| n.get("author").and_then(|v| names(v, &name_of_id)));
        }
        if facts.site_name.is_none() {
            facts.site_name = nodes
                .iter()
                .find(|n| types(n).any(|t| t == "WebSite"))
                .and_then(|n| n.get("name"))
                .and_then(text);
        }
        facts
    }
}

/// Parses one script's text, forgiving raw line breaks and tabs inside strings.
fn parse(s: &str) -> Option<Value> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    serde_json::from_str(s).ok().or_else(|| {
        let fixed: String = s
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        serde_json::from_str(&fixed).ok()
    })
}

/// Every object of a value, depth first (`@graph` members included), capped.
fn collect<'a>(v: &'a Value, out: &mut Vec<&'a Value>, depth: usize) {
    if depth > 8 || out.len() >= MAX_NODES {
        return;
    }
    match v {
        Value::Object(map) => {
            out.push(v);
            for (k, child) in map {
                if k != "author" && k != "publisher" {
                    collect(child, out, depth + 1);
                } else if let Value::Array(a) = child {
                    // Authors listed by reference still name themselves elsewhere.
                    for x in a {
                        if x.get("@id").is_some() {
                            out.push(x);
                        }
                    }
                } else if child.get("@id").is_some() {
                    out.push(child);
                }
            }
        }
        Value::Array(a) => {
            for x in a {
                collect(x, out, depth + 1);
            }
        }
        _ => {}
    }
}

/// A string value (or the first string of an array), entities decoded, space collapsed.
fn text(v: &Value) -> Option<String> {
    let s = match v {
        Value::String(s) => s.as_str(),
        Value::Array(a) => return a.iter().find_map(text),
        _ => return None,
    };
    let s = htmlize_lite(s);
    (!s.is_empty()).then_some(s)
}

/// Decodes the entities JSON-LD strings carry (some twice encoded) and collapses white space.
fn htmlize_lite(s: &str) -> String {
    super::clean_text(s)
}

/// The names of an `author` value: a string, an object with a `name` (or an `@id` named
/// elsewhere), or a list of those; URLs are not names. Several are joined with `, `.
fn names(v: &Value, name_of_id: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |n: Option<String>| {
        if let Some(n) = n.and_then(|n| super::clean_author(&n))
            && !out.contains(&n)
        {
            out.push(n);
        }
    };
    let one = |x: &Value| match x {
        Value::String(_) => text(x),
        Value::Object(_) => x
            .get("name")
            .and_then(text)
            .or_else(|| x.get("@id").and_then(Value::as_str).and_then(name_of_id)),
        _ => None,
    };
    match v {
        Value::Array(a) => a.iter().take(10).for_each(|x| push(one(x))),
        _ => push(one(v)),
    }
    (!out.is_empty()).then(|| out.join(", "))
}
