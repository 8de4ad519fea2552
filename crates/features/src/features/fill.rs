//! The extractors of the feature columns: each function fills one column (one value per block)
//! from a page's measurements ([`PageData`]). The [`super::registry`] names the function of
//! every column; the argument `k` picks the member of a configured family (a container class,
//! a split, a character or token class, an expression key, a class level, an outer group) and
//! is 0 for the fixed columns.

use super::data::PageData;
use super::seeds::justext::Class as JusTextClass;

/// Sets every value of a column to `f(block)`: one monomorphic loop per feature.
#[inline(always)]
fn fill(column: &mut [f32], mut f: impl FnMut(usize) -> f32) {
    for (i, v) in column.iter_mut().enumerate() {
        *v = f(i);
    }
}

/// 1.0 for true, 0.0 for false.
#[inline(always)]
fn flag(b: bool) -> f32 {
    f32::from(u8::from(b))
}

// main

pub(super) fn main_in_best(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        flag(d.cand.in_best.get(i).copied().unwrap_or(false))
    });
}

pub(super) fn main_ratio(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| d.cand.ratio.get(i).copied().unwrap_or(0.0));
}

// markup

/// `container.NAME`: an ancestor has a tag of container class `k`.
pub(super) fn container(d: &PageData<'_>, k: u8, out: &mut [f32]) {
    let bit = 1u32 << k;
    let with_img = d.ex.img_containers & bit != 0;
    fill(out, |i| {
        let info = &d.infos[i];
        flag(info.containers & bit != 0 || (with_img && info.has_img))
    });
}

pub(super) fn hidden(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| flag(d.infos[i].hidden));
}

/// `split.NAME`: tags of split class `k` opened or closed since the previous block.
pub(super) fn split(d: &PageData<'_>, k: u8, out: &mut [f32]) {
    let from = usize::from(k) * d.n;
    let counts = d.split_counts.get(from..from + d.n).unwrap_or_default();
    for (v, &c) in out.iter_mut().zip(counts) {
        *v = c as f32;
    }
}

// content

/// `char.CLASS-abs`.
pub(super) fn char_abs(d: &PageData<'_>, k: u8, out: &mut [f32]) {
    fill(out, |i| d.stats[i].chars[k as usize] as f32);
}

/// `char.CLASS-rel`.
pub(super) fn char_rel(d: &PageData<'_>, k: u8, out: &mut [f32]) {
    fill(out, |i| d.stats[i].chars[k as usize] as f32 / d.tchars[i]);
}

/// `token.CLASS-abs`.
pub(super) fn token_abs(d: &PageData<'_>, k: u8, out: &mut [f32]) {
    fill(out, |i| d.stats[i].tokens[k as usize] as f32);
}

/// `token.CLASS-rel`.
pub(super) fn token_rel(d: &PageData<'_>, k: u8, out: &mut [f32]) {
    fill(out, |i| d.stats[i].tokens[k as usize] as f32 / d.ttoks[i]);
}

pub(super) fn token_upper_rel(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        let s = &d.stats[i];
        s.upper_tokens as f32 / (s.tokens[0] + s.tokens[2]).max(1) as f32
    });
}

// sentence

pub(super) fn sentence_count(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| d.stats[i].sentences as f32);
}

pub(super) fn sentence_avg_length(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        d.stats[i].words as f32 / d.stats[i].sentences.max(1) as f32
    });
}

pub(super) fn sentence_begin(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| flag(d.stats[i].sentence_begin));
}

pub(super) fn sentence_end(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| flag(d.stats[i].sentence_end));
}

pub(super) fn text_end(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| f32::from(d.stats[i].end));
}

// duplicate

pub(super) fn first_duplicate(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        let (count, first) = d.dups.get(&d.stats[i].dup_key).copied().unwrap_or((1, i));
        flag(count > 1 && first == i)
    });
}

pub(super) fn duplicate_count(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        d.dups.get(&d.stats[i].dup_key).map_or(1, |c| c.0) as f32
    });
}

pub(super) fn prefix_count(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        d.prefixes.get(&d.stats[i].prefix_key).map_or(1, |c| *c) as f32
    });
}

// regexp

/// `regexp.KEY`: the first expression of key `k` that matches, counted from 1.
pub(super) fn regexp(d: &PageData<'_>, k: u8, out: &mut [f32]) {
    fill(out, |i| f32::from(d.regex_hits[i * d.nre + k as usize]));
}

pub(super) fn date_window(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    out.copy_from_slice(&d.date_window);
}

// groups

pub(super) fn div_group(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        d.word_ratio(
            d.div_words
                .get(d.infos[i].div as usize)
                .copied()
                .unwrap_or(0),
        )
    });
}

pub(super) fn td_group(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        let td = d.infos[i].td;
        if td == 0 {
            0.0
        } else {
            d.word_ratio(d.td_words.get(td as usize).copied().unwrap_or(0))
        }
    });
}

// langid

pub(super) fn lang_page(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    out.fill(d.lang_value);
}

pub(super) fn lang_block(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    out.copy_from_slice(&d.lang_block);
}

// document

pub(super) fn position(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    let n = d.n as f32;
    fill(out, |i| (i as f32 + 0.5) / n);
}

pub(super) fn doc_words(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    out.fill(d.doc_words as f32);
}

pub(super) fn doc_sentences(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    out.fill(d.doc_sents as f32);
}

pub(super) fn doc_blocks(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    out.fill(d.n as f32);
}

pub(super) fn doc_max_div(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    out.fill(d.max_div);
}

pub(super) fn doc_max_td(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    out.fill(d.max_td);
}

// paragraph

pub(super) fn para_words(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| d.p_words[d.para[i].0] as f32);
}

pub(super) fn para_link_density(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        let p = d.para[i].0;
        d.p_link_chars[p] as f32 / d.p_chars[p].max(1) as f32
    });
}

pub(super) fn para_blocks(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| (d.para[i].2 - d.para[i].1) as f32);
}

/// The index of the block's place in [`super::registry::PARA_POSITIONS`].
pub(super) fn para_position(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        let (_, p_first, p_end) = d.para[i];
        if p_end - p_first == 1 {
            0.0
        } else if i == p_first {
            1.0
        } else if i + 1 == p_end {
            3.0
        } else {
            2.0
        }
    });
}

// stopwords

pub(super) fn stop_density(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        d.stats[i].stop_words as f32 / d.stats[i].words.max(1) as f32
    });
}

pub(super) fn para_stop_density(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        let p = d.para[i].0;
        d.p_stop[p] as f32 / d.p_words[p].max(1) as f32
    });
}

// class

/// `class.LEVEL`: the keyword group of the `k`-th nearest ancestor with a `class` or `id`.
pub(super) fn class(d: &PageData<'_>, k: u8, out: &mut [f32]) {
    fill(out, |i| {
        f32::from(d.groups.get(d.ex, d.page, d.infos[i].attr[k as usize & 1]))
    });
}

/// `class.in-GROUP`: a token of the `k`-th outer group on the block's element or an ancestor.
pub(super) fn class_in(d: &PageData<'_>, k: u8, out: &mut [f32]) {
    fill(out, |i| {
        let mask = d.outer.get(i).copied();
        flag(mask.unwrap_or(0) >> k & 1 == 1)
    });
}

// title

pub(super) fn title_in(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        d.stats[i].title_words as f32 / d.stats[i].words.max(1) as f32
    });
}

pub(super) fn title_cover(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        if d.title_len == 0 {
            0.0
        } else {
            (d.stats[i].title_words as f32 / d.title_len as f32).min(1.0)
        }
    });
}

// bte

pub(super) fn bte_in(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| flag(d.bte.0.contains(&i)));
}

pub(super) fn bte_in_text(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| flag(d.bte.1.contains(&i)));
}

// density

pub(super) fn density_best_share(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    out.fill(d.dens.best_share);
}

pub(super) fn density_place(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        f32::from(d.dens.place.get(i).copied().unwrap_or(0))
    });
}

pub(super) fn density_region_share(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| d.dens.region_share.get(i).copied().unwrap_or(0.0));
}

pub(super) fn density_region_link(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| d.dens.region_link.get(i).copied().unwrap_or(0.0));
}

pub(super) fn density_semantic(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        flag(d.dens.semantic.get(i).copied().unwrap_or(false))
    });
}

pub(super) fn density_in_article(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        flag(d.dens.in_article.get(i).copied().unwrap_or(false))
    });
}

// repeat

pub(super) fn repeat_items(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| d.reps.items.get(i).copied().unwrap_or(0.0));
}

pub(super) fn repeat_share(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| d.reps.share.get(i).copied().unwrap_or(0.0));
}

pub(super) fn repeat_item_words(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| d.reps.item_words.get(i).copied().unwrap_or(0.0));
}

pub(super) fn repeat_spread(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| d.reps.spread.get(i).copied().unwrap_or(0.0));
}

pub(super) fn repeat_first_item(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        flag(d.reps.first_item.get(i).copied().unwrap_or(false))
    });
}

pub(super) fn repeat_item_start(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        flag(d.reps.item_start.get(i).copied().unwrap_or(false))
    });
}

pub(super) fn repeat_page_share(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    out.fill(d.reps.page_share);
}

pub(super) fn repeat_page_items(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    out.fill(d.reps.page_items);
}

// declared

pub(super) fn page_declared(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    out.fill(f32::from(d.page.declared.index()));
}

// justext

pub(super) fn justext_cf(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        d.justext_cf.get(i).map_or(0.0, |c| f32::from(c.index()))
    });
}

pub(super) fn justext_good(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        flag(d.justext_final.get(i) == Some(&JusTextClass::Good))
    });
}

// kimatu

pub(super) fn kimatu_relevance(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| d.kimatu_rel.get(i).copied().unwrap_or(0.0) as f32);
}

pub(super) fn kimatu_kept(d: &PageData<'_>, _: u8, out: &mut [f32]) {
    fill(out, |i| {
        flag(d.kimatu_kept.get(i).copied().unwrap_or(false))
    });
}
