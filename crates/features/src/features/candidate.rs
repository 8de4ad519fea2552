//! Where the main content sits: a readability-style score of every element, as features.
//!
//! Arc90's Readability (and readability-lxml, the strongest peer on article pages) finds the
//! element that holds the article: every paragraph with enough text scores `1 + commas +
//! min(3, chars / 100)`, added to its parent element and half of it to its grandparent; each
//! element's score is then discounted by its link density, and the best element wins. Victor
//! labels blocks one by one; this module turns that page-level decision into per-block features
//! (is the block inside the best element, and how good is the best element among its
//! ancestors relative to the page's best), leaving the decision to the CRF. As in readability,
//! a candidate starts from a weight of its tag (`div` +5, lists -3, headings -5, ...) and of its
//! `class`/`id` keywords (+25 content, -25 boilerplate; whole tokens of the element itself).

use super::structure::Structure;
use super::text::TextStats;
use victor_html::Page;
use victor_html::Tag;

/// Non-link characters a paragraph needs to score.
const MIN_PARAGRAPH_CHARS: u32 = 25;

/// Per-block candidate facts.
#[derive(Clone, Debug, Default)]
pub struct Candidates {
    /// Whether the block is inside the page's best element.
    pub in_best: Vec<bool>,
    /// Best score among the block's ancestors relative to the page's best (0..1).
    pub ratio: Vec<f32>,
    /// Final score of every element (after the link-density discount).
    pub scores: Vec<f32>,
    /// The best element (0 when no paragraph scored).
    pub best: u32,
    /// Characters of text under every element (links included).
    pub chars: Vec<u32>,
    /// Characters of link text under every element.
    pub link: Vec<u32>,
}

/// Characters of text (links included) and of link text under every element of `page`.
fn text_under(page: &Page, st: &Structure, stats: &[TextStats]) -> (Vec<u32>, Vec<u32>) {
    let n = page.elements.len();
    let mut chars = vec![0u32; n];
    let mut link = vec![0u32; n];
    for (b, s) in page.blocks.iter().zip(stats) {
        let c = s.total_chars();
        if let Some(x) = chars.get_mut(b.parent as usize) {
            *x += c;
        }
        if b.in_anchor
            && let Some(x) = link.get_mut(b.parent as usize)
        {
            *x += c;
        }
    }
    for &e in st.order.iter().rev() {
        let p = page.elements[e as usize].parent as usize;
        if p < n && p != e as usize {
            chars[p] += chars[e as usize];
            link[p] += link[e as usize];
        }
    }
    (chars, link)
}

/// The paragraphs' scores of every element (readability's): a paragraph's score goes to the
/// paragraph element's parent and, halved, its grandparent; an element that receives a score
/// starts from readability's weight of its tag and class.
fn paragraph_scores(
    page: &Page,
    st: &Structure,
    stats: &[TextStats],
    unlikely: impl Fn(u32) -> bool,
    class_weight: impl Fn(u32) -> f32,
) -> Vec<f32> {
    let n = page.elements.len();
    let nb = page.blocks.len();
    let mut score = vec![0f32; n];
    let mut seeded = vec![false; n];
    let mut seed = |e: usize, score: &mut [f32]| {
        if e != 0 && e < n && !seeded[e] {
            seeded[e] = true;
            score[e] += tag_weight(page.elements[e].tag) + class_weight(e as u32);
        }
    };
    let np = st.paragraph_start.len().saturating_sub(1);
    for p in 0..np {
        let (a, z) = (
            st.paragraph_start[p] as usize,
            st.paragraph_start[p + 1] as usize,
        );
        let (mut text, mut commas) = (0u32, 0u32);
        for (b, s) in page.blocks.iter().zip(stats).take(z.min(nb)).skip(a) {
            if !b.in_anchor {
                text += s.total_chars();
                commas += count_commas(page.block_text(b));
            }
        }
        // Invisible text scores nothing (a page may carry hidden copies of its article), nor
        // does text whose nearest class/id-bearing ancestors say comments, navigation, ads, ...
        // (readability's "unlikely candidates", on the nearest two such ancestors only, so that
        // a wrapper high up the tree cannot sink the article).
        let info = st.of_block(page.blocks[a].parent);
        if text < MIN_PARAGRAPH_CHARS
            || info.hidden
            || info.attr.iter().any(|&e| e != 0 && unlikely(e))
        {
            continue;
        }
        let s = 1.0 + commas as f32 + (text as f32 / 100.0).min(3.0);
        let elem = st.of_block(page.blocks[a].parent).block as usize;
        let parent = page.elements.get(elem).map_or(0, |e| e.parent as usize);
        let grand = page.elements.get(parent).map_or(0, |e| e.parent as usize);
        if parent != 0 {
            seed(parent, &mut score);
            score[parent] += s;
        }
        if grand != 0 && grand != parent {
            seed(grand, &mut score);
            score[grand] += s / 2.0;
        }
    }
    score
}

/// Scores the elements of a page and derives the per-block facts.
pub(crate) fn candidates(
    page: &Page,
    st: &Structure,
    stats: &[TextStats],
    unlikely: impl Fn(u32) -> bool,
    class_weight: impl Fn(u32) -> f32,
) -> Candidates {
    let n = page.elements.len();
    let nb = page.blocks.len();
    let mut out = Candidates {
        in_best: vec![false; nb],
        ratio: vec![0.0; nb],
        scores: Vec::new(),
        best: 0,
        chars: Vec::new(),
        link: Vec::new(),
    };
    if n == 0 || nb == 0 {
        return out;
    }
    let (chars, link) = text_under(page, st, stats);
    let mut score = paragraph_scores(page, st, stats, unlikely, class_weight);
    let mut best = 0usize;
    for e in 1..n {
        let ld = if chars[e] == 0 {
            0.0
        } else {
            link[e] as f32 / chars[e] as f32
        };
        score[e] *= 1.0 - ld;
        if score[e] > score[best] {
            best = e;
        }
    }
    let top = score[best];
    out.best = best as u32;
    if top <= 0.0 {
        out.scores = score;
        out.chars = chars;
        out.link = link;
        return out;
    }
    // Inherit down the tree: inside best, and the best ancestor ratio.
    let mut inside = vec![false; n];
    let mut ratio = vec![0f32; n];
    for &e in &st.order {
        let e = e as usize;
        let p = page.elements[e].parent as usize;
        let (pi, pr) = if p < n && p != e {
            (inside[p], ratio[p])
        } else {
            (false, 0.0)
        };
        inside[e] = pi || e == best;
        ratio[e] = pr.max(score[e] / top);
    }
    for (i, b) in page.blocks.iter().enumerate() {
        let e = b.parent as usize;
        out.in_best[i] = inside.get(e).copied().unwrap_or(false);
        out.ratio[i] = ratio.get(e).copied().unwrap_or(0.0);
    }
    out.scores = score;
    out.chars = chars;
    out.link = link;
    out
}

/// Values of [`Density::place`]: the block's place relative to the article (the best element
/// and its merged siblings): no article, before it, inside it, between two of its parts, after it.
pub(crate) const PLACES: [&str; 5] = ["none", "before", "in", "gap", "after"];

/// A sibling of the best element joins the article when it scores at least this share of the
/// best score (and at least [`SIBLING_MIN_SCORE`]), as in Readability.
const SIBLING_SHARE: f32 = 0.2;
/// The least score of a sibling that joins the article.
const SIBLING_MIN_SCORE: f32 = 10.0;
/// A sibling paragraph joins the article with this many non-link characters ...
const SIBLING_P_CHARS: u32 = 80;
/// ... and a link density below this.
const SIBLING_P_LINKS: f32 = 0.25;

/// Per-block facts about the text and link density of the regions that hold a block (the
/// `density` feature module). They describe the page's layout in terms that hold on any site
/// and in any language: how much of the page's text a block's region holds, how much of that
/// is links, whether HTML5 or schema.org markup calls the region the main content, and where
/// the block sits relative to the element the readability-style score rates best.
#[derive(Clone, Debug, Default)]
pub(crate) struct Density {
    /// Share of the page's non-link text inside the best element (the same for every block).
    pub best_share: f32,
    /// Index into [`PLACES`] per block.
    pub place: Vec<u8>,
    /// Whether the block is in the article: the best element or one of its siblings that
    /// Readability would merge into it (a sibling scoring at least a fifth of the best, or a
    /// paragraph of 80 characters with few links). An article split into one element per
    /// section or per paragraph is then found whole.
    pub in_article: Vec<bool>,
    /// Share of the page's non-link text inside the block's region: its nearest ancestor with a
    /// `class` or `id`, else its nearest `div`, else the whole page.
    pub region_share: Vec<f32>,
    /// Link characters over all characters in that region.
    pub region_link: Vec<f32>,
    /// Whether an ancestor is `<article>` or `<main>`, or marked as the main content by
    /// `role` or `itemprop` ([`victor_html::Element::semantic`]).
    pub semantic: Vec<bool>,
}

/// Derives the [`Density`] facts from the element scores of [`candidates`].
pub(crate) fn density(page: &Page, st: &Structure, cand: &Candidates) -> Density {
    let nb = page.blocks.len();
    let n = page.elements.len();
    let mut out = Density {
        best_share: 0.0,
        place: vec![0; nb],
        in_article: vec![false; nb],
        region_share: vec![0.0; nb],
        region_link: vec![0.0; nb],
        semantic: vec![false; nb],
    };
    if nb == 0 || n == 0 || cand.chars.len() != n {
        return out;
    }
    let free = |e: usize| cand.chars[e].saturating_sub(cand.link[e]) as f32;
    let total = free(0).max(1.0);
    let best = cand.best as usize;
    if best != 0 {
        out.best_share = (free(best) / total).min(1.0);
    }
    let mut semantic = vec![false; n];
    for &e in &st.order {
        let e = e as usize;
        let el = &page.elements[e];
        let p = el.parent as usize;
        let inherited = p < n && p != e && semantic[p];
        semantic[e] = inherited || el.semantic || el.tag == Tag::ARTICLE || el.tag == Tag::MAIN;
    }
    // The article: the best element and the siblings Readability would merge into it.
    let mut article = vec![false; n];
    if best != 0 {
        let top = cand.scores.get(best).copied().unwrap_or(0.0);
        let parent = page.elements[best].parent;
        let bar = (top * SIBLING_SHARE).max(SIBLING_MIN_SCORE);
        for (e, el) in page.elements.iter().enumerate() {
            if e == best {
                article[e] = true;
                continue;
            }
            if e == 0 || el.parent != parent {
                continue;
            }
            let score = cand.scores.get(e).copied().unwrap_or(0.0);
            let own = cand.chars[e];
            let links = if own == 0 {
                0.0
            } else {
                cand.link[e] as f32 / own as f32
            };
            article[e] = score >= bar
                || (el.tag == Tag::P
                    && own.saturating_sub(cand.link[e]) >= SIBLING_P_CHARS
                    && links < SIBLING_P_LINKS);
        }
        for &e in &st.order {
            let e = e as usize;
            let p = page.elements[e].parent as usize;
            if p < n && p != e && article[p] {
                article[e] = true;
            }
        }
    }
    for (i, b) in page.blocks.iter().enumerate() {
        out.in_article[i] = article.get(b.parent as usize).copied().unwrap_or(false);
    }
    let first = out.in_article.iter().position(|&x| x);
    let last = out.in_article.iter().rposition(|&x| x);
    for (i, b) in page.blocks.iter().enumerate() {
        out.place[i] = match (first, last) {
            (Some(f), Some(_)) if i < f => 1,
            (Some(_), Some(l)) if i > l => 4,
            (Some(_), Some(_)) if out.in_article[i] => 2,
            (Some(_), Some(_)) => 3,
            _ => 0,
        };
        let info = st.of_block(b.parent);
        let region = if info.attr[0] != 0 {
            info.attr[0]
        } else {
            info.div
        } as usize;
        let region = if region < n { region } else { 0 };
        out.region_share[i] = (free(region) / total).min(1.0);
        let c = cand.chars[region];
        out.region_link[i] = if c == 0 {
            0.0
        } else {
            cand.link[region] as f32 / c as f32
        };
        out.semantic[i] = semantic.get(b.parent as usize).copied().unwrap_or(false);
    }
    out
}

/// Readability's initial score of a candidate by its tag.
fn tag_weight(tag: Tag) -> f32 {
    match tag {
        Tag::DIV => 5.0,
        Tag::PRE | Tag::TD | Tag::BLOCKQUOTE => 3.0,
        Tag::ADDRESS | Tag::OL | Tag::UL | Tag::DL | Tag::DD | Tag::DT | Tag::LI | Tag::FORM => {
            -3.0
        }
        Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 | Tag::TH => -5.0,
        _ => 0.0,
    }
}

/// Commas of a text, as readability counts them: the ASCII comma and the Arabic, full-width,
/// small and vertical forms, and the ideographic comma `、` that Chinese and Japanese
/// enumerations use.
fn count_commas(text: &str) -> u32 {
    if text.is_ascii() {
        return text.bytes().filter(|&c| c == b',').count() as u32;
    }
    text.chars()
        .filter(|c| {
            matches!(
                c,
                ',' | '\u{060C}'
                    | '\u{3001}'
                    | '\u{FF0C}'
                    | '\u{FE50}'
                    | '\u{FE10}'
                    | '\u{FE11}'
                    | '\u{2E41}'
                    | '\u{2E34}'
                    | '\u{2E32}'
            )
        })
        .count() as u32
}

#[cfg(test)]
mod tests {
    use super::count_commas;

    #[test]
    fn commas_of_every_script_count() {
        assert_eq!(count_commas("a, b, c"), 2);
        assert_eq!(count_commas("no commas here"), 0);
        assert_eq!(count_commas("café, crème"), 1);
        // Full-width and ideographic commas (Chinese, Japanese), the Arabic comma.
        assert_eq!(count_commas("据报道，今年经济增长，消费、投资和出口"), 3);
        assert_eq!(count_commas("قال، إن"), 1);
    }
}
