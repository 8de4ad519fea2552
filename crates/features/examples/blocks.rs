//! Prints the blocks of a page (a file, or `-e HTML` for a literal): one line per block with its
//! ancestor path, whether white space preceded it, and its text. A debugging aid.

use std::io::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bytes = match args.as_slice() {
        [flag, html] if flag == "-e" => html.clone().into_bytes(),
        [path] => std::fs::read(path)?,
        _ => return Err("usage: blocks FILE | blocks -e HTML".into()),
    };
    let doc = victor_features::decode(&bytes)?;
    let page = victor_features::segment(&doc.text)?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "# title: {:?} recovered: {}",
        page.title, page.recovered
    )?;
    for b in &page.blocks {
        writeln!(
            out,
            "{} {} | {}  [{}]",
            if b.space_before { "_" } else { "." },
            page.path(b.parent),
            page.block_text(b),
            page.block_splits(b)
                .iter()
                .map(|s| format!("{}+{}-{}", page.tag_name(s.tag), s.opened, s.closed))
                .collect::<Vec<_>>()
                .join(" ")
        )?;
    }
    Ok(())
}
