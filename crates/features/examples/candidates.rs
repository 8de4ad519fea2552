//! Prints the elements a page's readability-style scores rate best (the `main` feature module):
//! score, path, class/id, and the start of their text. A debugging aid.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: candidates FILE")?;
    let bytes = std::fs::read(path)?;
    let doc = victor_features::decode(&bytes)?;
    let page = victor_features::segment(&doc.text)?;
    let ex = victor_features::Extractor::new(&victor_features::FeatureConfig::default())?;
    let c = ex.candidates(&page);
    let mut order: Vec<usize> = (0..c.scores.len()).collect();
    order.sort_by(|&a, &b| c.scores[b].total_cmp(&c.scores[a]));
    for &e in order.iter().take(8) {
        let el = &page.elements[e];
        let first = page
            .blocks
            .iter()
            .find(|b| page.ancestors(b.parent).any(|(id, _)| id as usize == e))
            .map(|b| page.block_text(b).chars().take(60).collect::<String>())
            .unwrap_or_default();
        println!(
            "{:8.1} {}{} [{} | {}] {first}",
            c.scores[e],
            page.path(e as u32),
            if e as u32 == c.best { " (best)" } else { "" },
            page.class_of(el),
            page.id_of(el)
        );
    }
    Ok(())
}
