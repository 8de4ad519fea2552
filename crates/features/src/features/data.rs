//! The measurements of one page that the feature columns read: text statistics per block, the
//! element structure, keyword groups, candidates, document and paragraph totals, duplicates,
//! languages, expression hits and the seeds' signals. [`PageData::new`] computes each once, for
//! the modules the configuration switches on; the functions of [`super::fill`] turn them into
//! columns.

use std::cell::{Cell, RefCell};
use std::ops::Range;

use rustc_hash::{FxHashMap, FxHashSet};

use super::Extractor;
use super::candidate::{self, Candidates, Density};
use super::lexicon::{block_tokens, iso639_1, word_hash};
use super::module::Module;
use super::repeat::{self, Repeats};
use super::seeds;
use super::structure::{ElemInfo, Structure};
use super::text::TextStats;
use victor_html::Page;

/// Blocks longer than this (in words) are never counted as duplicates.
const DUPLICATE_MAX_WORDS: u32 = 15;

/// A keyword group not computed yet, in the per-page memo of [`GroupMemo`] (groups go up to
/// 251: at most 250 configured groups, plus 2).
const GROUP_UNKNOWN: u8 = u8::MAX;

/// An element's class and id, as the key of [`GroupMemo`]'s shared computations.
type ClassAndId<'p> = (&'p str, &'p str);

/// Keyword group and `class_outer` bits of every element of a page ([`Extractor::attr_facts`]),
/// computed when first asked and kept per element (the candidates, the class features and the
/// outer masks ask for the same elements, many times); elements with the same class and id
/// (list items, cards) share one computation.
pub(super) struct GroupMemo<'p> {
    /// Per element: its group ([`GROUP_UNKNOWN`] until computed) and its outer bits.
    facts: Vec<Cell<(u8, u32)>>,
    by_attrs: RefCell<FxHashMap<ClassAndId<'p>, (u8, u32)>>,
}

impl<'p> GroupMemo<'p> {
    fn new(page: &Page) -> Self {
        GroupMemo {
            facts: vec![Cell::new((GROUP_UNKNOWN, 0)); page.elements.len()],
            // About one element in five has a class and id pair of its own (trafilatura-eval:
            // 100,374 pairs for 452,885 elements): room for them at once, not by doubling.
            by_attrs: RefCell::new(FxHashMap::with_capacity_and_hasher(
                page.elements.len() / 4,
                Default::default(),
            )),
        }
    }

    /// The keyword group of element `e`.
    #[inline]
    pub(super) fn get(&self, ex: &Extractor, page: &'p Page, e: u32) -> u8 {
        self.facts(ex, page, e).0
    }

    /// The keyword group and the `class_outer` bits of element `e`'s class and id
    /// ([`Extractor::attr_facts`]): read once per element, and once per distinct pair.
    pub(super) fn facts(&self, ex: &Extractor, page: &'p Page, e: u32) -> (u8, u32) {
        // The root (element 0) has no class or id; an id past the page's elements reads as
        // the root (`Page::element`).
        let Some(memo) = self.facts.get(e as usize).filter(|_| e != 0) else {
            return (0, 0);
        };
        if memo.get().0 != GROUP_UNKNOWN {
            return memo.get();
        }
        let el = page.element(e);
        let key = (page.class_of(el), page.id_of(el));
        let facts = if key.0.is_empty() && key.1.is_empty() {
            (0, 0)
        } else {
            *self
                .by_attrs
                .borrow_mut()
                .entry(key)
                .or_insert_with(|| ex.attr_facts(key.0, key.1))
        };
        memo.set(facts);
        facts
    }
}

/// Everything the columns of one page read.
pub(crate) struct PageData<'p> {
    pub(super) ex: &'p Extractor,
    pub(super) page: &'p Page,
    /// Number of blocks.
    pub(super) n: usize,
    pub(super) stats: Vec<TextStats>,
    /// Structure of each block's parent element.
    pub(super) infos: Vec<ElemInfo>,
    pub(super) groups: GroupMemo<'p>,
    pub(super) cand: Candidates,
    pub(super) dens: Density,
    /// Runs of repeated items (module `repeat`).
    pub(super) reps: Repeats,
    /// Per block, the `class_outer` groups on its element or an ancestor (bit per group).
    pub(super) outer: Vec<u32>,
    /// Per split class and block (class after class), the tags of the class opened or closed
    /// since the previous block.
    pub(super) split_counts: Vec<u32>,
    /// Title words (distinct, with a letter or digit).
    pub(super) title_len: u32,
    pub(super) doc_words: u32,
    pub(super) doc_sents: u32,
    /// Words outside links in the whole page.
    pub(super) free_words: u32,
    /// Words outside links per `div` and `td` group (by element).
    pub(super) div_words: Vec<u32>,
    pub(super) td_words: Vec<u32>,
    pub(super) max_div: f32,
    pub(super) max_td: f32,
    /// Short blocks by duplicate key: how many, and the first.
    pub(super) dups: FxHashMap<u64, (u32, usize)>,
    /// Blocks by their first two words.
    pub(super) prefixes: FxHashMap<u64, u32>,
    /// Per block: its paragraph, the paragraph's first block and end.
    pub(super) para: Vec<(usize, usize, usize)>,
    /// Per paragraph: words, characters, characters in links, stop words.
    pub(super) p_words: Vec<u32>,
    pub(super) p_chars: Vec<u32>,
    pub(super) p_link_chars: Vec<u32>,
    pub(super) p_stop: Vec<u32>,
    /// The divisors of the relative character and token features.
    pub(super) tchars: Vec<f32>,
    pub(super) ttoks: Vec<f32>,
    /// Index of the page's language in `langid.page`'s values.
    pub(super) lang_value: f32,
    pub(super) lang_block: Vec<f32>,
    /// Per block and expression key, the first matching expression counted from 1 (0: none).
    pub(super) regex_hits: Vec<u16>,
    pub(super) nre: usize,
    pub(super) date_window: Vec<f32>,
    /// The runs body text extraction picks: words of links counted as words, and as markup.
    pub(super) bte: (Range<usize>, Range<usize>),
    pub(super) justext_cf: Vec<seeds::justext::Class>,
    pub(super) justext_final: Vec<seeds::justext::Class>,
    pub(super) kimatu_rel: Vec<f64>,
    pub(super) kimatu_kept: Vec<bool>,
    /// The page's language, when detected.
    pub(super) lang: Option<whatlang::Lang>,
}

impl<'p> PageData<'p> {
    /// Measures a page (with at least one block) for the modules `ex` switches on.
    pub(super) fn new(ex: &'p Extractor, page: &'p Page) -> Self {
        let n = page.blocks.len();
        let want_lang = ex.on(Module::LangId) || ex.on(Module::StopWords) || ex.on(Module::JusText);
        let lang = if want_lang {
            ex.page_language(page)
        } else {
            None
        };
        let stop = if ex.on(Module::StopWords) {
            lang.and_then(|l| iso639_1(l.code()))
                .and_then(|c| ex.stop_words.get(c))
        } else {
            None
        };
        let mut title_words: FxHashSet<u64> = FxHashSet::default();
        let mut title_len = 0u32;
        if ex.on(Module::Title)
            && let Some(t) = &page.title
        {
            for w in block_tokens(t).filter(|w| w.chars().any(char::is_alphanumeric)) {
                if title_words.insert(word_hash(w)) {
                    title_len += 1;
                }
            }
        }
        let stats: Vec<TextStats> = page
            .blocks
            .iter()
            .map(|b| TextStats::of(page.block_text(b), stop, &title_words))
            .collect();
        let st = Structure::of(page, &ex.containers);
        let groups = GroupMemo::new(page);
        let cand = if ex.on(Module::Main) || ex.on(Module::Density) {
            candidate::candidates(
                page,
                &st,
                &stats,
                |e| ex.group_unlikely(groups.get(ex, page, e)),
                |e| ex.group_weight(groups.get(ex, page, e)),
            )
        } else {
            Candidates::default()
        };
        let dens = if ex.on(Module::Density) {
            candidate::density(page, &st, &cand)
        } else {
            Density::default()
        };
        let reps = if ex.on(Module::Repeat) {
            repeat::repeats(page, &st, &stats)
        } else {
            Repeats::default()
        };
        let (lang_value, lang_block) = ex.block_languages(page, &stats, lang);
        let (regex_hits, nre) = ex.regex_hits(page);
        let date_window = ex.date_window(&regex_hits, nre, n);
        let outer = ex.outer_masks(page, &groups);
        let infos: Vec<ElemInfo> = page.blocks.iter().map(|b| st.of_block(b.parent)).collect();
        let split_counts = split_counts(ex, page);
        let bte = if ex.on(Module::Bte) {
            bte_windows(page, &stats)
        } else {
            (0..0, 0..0)
        };
        // jusText's classes of every block: context-free and final.
        let (mut justext_cf, mut justext_final) = (Vec::new(), Vec::new());
        if ex.on(Module::JusText) {
            let stop = lang
                .and_then(|l| iso639_1(l.code()))
                .and_then(|c| ex.stop_words.get(c));
            seeds::justext::block_classes_both(
                page,
                stop,
                &seeds::justext::Params::default(),
                &mut justext_cf,
                &mut justext_final,
            );
        }
        let (mut kimatu_rel, mut kimatu_kept) = (Vec::new(), Vec::new());
        if ex.on(Module::Kimatu) {
            seeds::kimatu::block_signals(
                page,
                &seeds::kimatu::Params::default(),
                &mut kimatu_rel,
                &mut kimatu_kept,
            );
        }
        let tchars = stats
            .iter()
            .map(|s| s.total_chars().max(1) as f32)
            .collect();
        let ttoks = stats
            .iter()
            .map(|s| s.total_tokens().max(1) as f32)
            .collect();
        let mut data = PageData {
            ex,
            page,
            n,
            infos,
            groups,
            cand,
            dens,
            reps,
            outer,
            split_counts,
            title_len,
            doc_words: 0,
            doc_sents: 0,
            free_words: 0,
            div_words: Vec::new(),
            td_words: Vec::new(),
            max_div: 0.0,
            max_td: 0.0,
            dups: FxHashMap::default(),
            prefixes: FxHashMap::default(),
            para: Vec::new(),
            p_words: Vec::new(),
            p_chars: Vec::new(),
            p_link_chars: Vec::new(),
            p_stop: Vec::new(),
            tchars,
            ttoks,
            lang_value,
            lang_block,
            regex_hits,
            nre,
            date_window,
            bte,
            justext_cf,
            justext_final,
            kimatu_rel,
            kimatu_kept,
            lang,
            stats,
        };
        data.totals(&st);
        data.duplicates();
        data.paragraphs(&st);
        data
    }

    /// Document totals, and the `div` and `td` groups of words outside links.
    fn totals(&mut self, st: &Structure) {
        let page = self.page;
        self.div_words = vec![0u32; page.elements.len().max(1)];
        self.td_words = vec![0u32; page.elements.len().max(1)];
        for (b, s) in page.blocks.iter().zip(&self.stats) {
            self.doc_words += s.words;
            self.doc_sents += s.sentences;
            if !b.in_anchor {
                self.free_words += s.words;
                let info = st.of_block(b.parent);
                if let Some(w) = self.div_words.get_mut(info.div as usize) {
                    *w += s.words;
                }
                if let Some(w) = self.td_words.get_mut(info.td as usize) {
                    *w += s.words;
                }
            }
        }
        let max_div = self.div_words.iter().copied().max();
        let max_td = self.td_words.iter().skip(1).copied().max();
        self.max_div = max_div.map_or(0.0, |w| self.word_ratio(w));
        self.max_td = max_td.map_or(0.0, |w| self.word_ratio(w));
    }

    /// Words outside links as a share of the page's.
    pub(super) fn word_ratio(&self, w: u32) -> f32 {
        if self.free_words == 0 {
            0.0
        } else {
            w as f32 / self.free_words as f32
        }
    }

    /// Duplicates among short blocks only: repeated phrases ("read more", "comments") are
    /// boilerplate, but a page may well carry its article twice (print and screen versions).
    /// And blocks starting with the same two words ("Posted by", "Reply to"): the markers of
    /// repeated structures such as comment lists.
    fn duplicates(&mut self) {
        for (i, s) in self.stats.iter().enumerate() {
            if s.words <= DUPLICATE_MAX_WORDS {
                self.dups.entry(s.dup_key).or_insert((0, i)).0 += 1;
            }
            if s.prefix_key != 0 {
                *self.prefixes.entry(s.prefix_key).or_insert(0) += 1;
            }
        }
    }

    /// Paragraph aggregates, and every block's paragraph.
    fn paragraphs(&mut self, st: &Structure) {
        let n = self.n;
        let np = st.paragraph_start.len().saturating_sub(1);
        self.p_words = vec![0u32; np];
        self.p_chars = vec![0u32; np];
        self.p_link_chars = vec![0u32; np];
        self.p_stop = vec![0u32; np];
        for (i, (b, s)) in self.page.blocks.iter().zip(&self.stats).enumerate() {
            let p = st.paragraph[i] as usize;
            let chars = s.total_chars();
            self.p_words[p] += s.words;
            self.p_chars[p] += chars;
            self.p_stop[p] += s.stop_words;
            if b.in_anchor {
                self.p_link_chars[p] += chars;
            }
        }
        self.para = (0..n)
            .map(|i| {
                let p = st.paragraph[i] as usize;
                let first = st.paragraph_start[p] as usize;
                let end = st.paragraph_start.get(p + 1).map_or(n, |&e| e as usize);
                (p, first, end)
            })
            .collect();
    }
}

/// Per split class and block (class after class), the tags of the class opened or closed since
/// the previous block: each block's split records read once, each record adding to the
/// classes of its tag.
fn split_counts(ex: &Extractor, page: &Page) -> Vec<u32> {
    let n = page.blocks.len();
    let mut counts = vec![0u32; n * ex.splits.len()];
    for (i, b) in page.blocks.iter().enumerate() {
        for sp in page.block_splits(b) {
            let Some(classes) = ex.split_classes.get(usize::from(sp.tag.0)) else {
                continue;
            };
            for &k in classes {
                if let Some(c) = counts.get_mut(usize::from(k) * n + i) {
                    *c += u32::from(sp.opened) + u32::from(sp.closed);
                }
            }
        }
    }
    counts
}

/// One maximum-sum run search (Kadane's algorithm) of [`bte_windows`].
#[derive(Default)]
struct BestRun {
    best: Range<usize>,
    best_sum: i64,
    start: usize,
    sum: i64,
}

impl BestRun {
    /// Block `i`, worth `words`, after `tags` tags: extend the run through the tags, or start a
    /// new run here (the tags before a run's first block are outside it).
    fn step(&mut self, i: usize, words: i64, tags: i64) {
        if self.sum - tags > 0 {
            self.sum += words - tags;
        } else {
            self.start = i;
            self.sum = words;
        }
        if self.sum > self.best_sum {
            self.best_sum = self.sum;
            self.best = self.start..i + 1;
        }
    }
}

/// Body text extraction (Finn et al., as improved in the BTE paper among victor's seeds): the
/// run of blocks that maximizes the words inside it plus the tags outside it, that is, the
/// maximum-sum run of `words - tags before the block` (Kadane's algorithm, linear in the
/// blocks); and the same run with the words of a block inside a link counted against the run
/// like tags. Both in one pass; empty when no block has words.
fn bte_windows(page: &Page, stats: &[TextStats]) -> (Range<usize>, Range<usize>) {
    let (mut all, mut text) = (BestRun::default(), BestRun::default());
    for (i, (b, s)) in page.blocks.iter().zip(stats).enumerate() {
        let tags: i64 = page
            .block_splits(b)
            .iter()
            .map(|sp| i64::from(sp.opened) + i64::from(sp.closed))
            .sum();
        let words = i64::from(s.words);
        all.step(i, words, tags);
        text.step(i, if b.in_anchor { -words } else { words }, tags);
    }
    (all.best, text.best)
}
