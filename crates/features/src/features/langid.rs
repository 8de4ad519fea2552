//! The page's language and each block's confidence of being in it (`langid`): a stop-word vote
//! or whatlang, as the configuration says.

use super::Extractor;
use super::lexicon::block_tokens;
use super::module::Module;
use super::text::TextStats;
use victor_html::Page;

/// Languages a block's language competes with in `langid.block` (plus the page's).
const RIVALS: [whatlang::Lang; 6] = [
    whatlang::Lang::Eng,
    whatlang::Lang::Deu,
    whatlang::Lang::Fra,
    whatlang::Lang::Spa,
    whatlang::Lang::Rus,
    whatlang::Lang::Cmn,
];

/// Fewest stop words that decide a page's language by vote (`langid.method: stopwords`).
const STOP_VOTE_MIN: u16 = 3;

/// Characters of a block given to the language detector.
const BLOCK_SAMPLE_CHARS: usize = 150;

/// The first [`BLOCK_SAMPLE_CHARS`] characters of a block's text, for language identification.
fn block_sample(t: &str) -> &str {
    let cut = t
        .char_indices()
        .nth(BLOCK_SAMPLE_CHARS)
        .map_or(t.len(), |(k, _)| k);
    t.get(..cut).unwrap_or(t)
}

impl Extractor {
    /// The language whatlang detects for the page (ISO 639-3), from a sample of its longest
    /// blocks; `None` if it cannot tell.
    pub fn page_language(&self, page: &Page) -> Option<whatlang::Lang> {
        // Blocks of running text in page order, then anything, until the sample is full.
        let limit = self.config.langid.page_sample_chars;
        let mut sample = String::with_capacity(limit + 256);
        for min_len in [60, 1] {
            for b in &page.blocks {
                if sample.len() >= limit {
                    break;
                }
                let t = page.block_text(b);
                if t.len() >= min_len && (min_len == 1 || block_tokens(t).nth(1).is_some()) {
                    sample.push_str(t);
                    sample.push(' ');
                }
            }
            if sample.len() >= limit / 2 {
                break;
            }
        }
        if sample.trim().is_empty() {
            return None;
        }
        if let Some(ix) = &self.stop_index {
            // A clear winner: enough stop words, at least twice the runner-up's.
            let (i, best, second) = ix.votes(&sample).best();
            if best >= STOP_VOTE_MIN && best >= 2 * second {
                return ix.lang(i);
            }
        }
        self.detector.detect_lang(&sample)
    }

    /// The index of the page's language among `langid.page`'s values, and per block the
    /// confidence that it is in that language (for a few long blocks; -0.5 for the other long
    /// blocks, -1 for short ones).
    pub(super) fn block_languages(
        &self,
        page: &Page,
        stats: &[TextStats],
        lang: Option<whatlang::Lang>,
    ) -> (f32, Vec<f32>) {
        let n = page.blocks.len();
        let mut lang_block = vec![-1.0f32; n];
        if self.on(Module::LangId) {
            let min = self.config.langid.min_block_chars;
            let mut long: Vec<usize> = (0..n)
                .filter(|&i| stats[i].text_length() as usize >= min)
                .collect();
            for &i in &long {
                lang_block[i] = -0.5;
            }
            long.sort_unstable_by_key(|&i| std::cmp::Reverse(stats[i].text_length()));
            let by_votes = lang.and_then(|l| {
                let ix = self.stop_index.as_ref()?;
                Some((ix, ix.index_of(l)?))
            });
            if let Some((ix, page_lang)) = by_votes {
                // The block's stop words in the page's language, against the best language's.
                for &i in long.iter().take(self.config.langid.max_blocks) {
                    let v = ix.votes(block_sample(page.block_text(&page.blocks[i])));
                    let (_, best, _) = v.best();
                    let own = v.hits.get(page_lang).copied().unwrap_or(0);
                    lang_block[i] = if best == 0 {
                        0.0
                    } else {
                        f32::from(own) / f32::from(best)
                    };
                }
            } else if let Some(l) = lang {
                // Per block, the page's language competes with a few major languages only:
                // the question is "is this block in the page's language", and a short list
                // keeps whatlang several times cheaper than scoring every profile.
                let mut allow: Vec<whatlang::Lang> = RIVALS.to_vec();
                if !allow.contains(&l) {
                    allow.push(l);
                }
                let det = whatlang::Detector::with_allowlist(allow);
                for &i in long.iter().take(self.config.langid.max_blocks) {
                    lang_block[i] = match det.detect(block_sample(page.block_text(&page.blocks[i])))
                    {
                        Some(info) if info.lang() == l => info.confidence() as f32,
                        _ => 0.0,
                    };
                }
            }
        }
        let lang_value = lang
            .and_then(|l| self.langs.iter().position(|c| *c == l.code()))
            .unwrap_or(0) as f32;
        (lang_value, lang_block)
    }
}
