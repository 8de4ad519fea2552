//! Writing the trained model as a CRFsuite model file, byte for byte as crfs writes it.

use std::io::{Cursor, Seek, SeekFrom, Write};

use super::features::Model;
use super::{NONE, ParallelError, ParallelTrainer};

impl ParallelTrainer {
    /// The CRFsuite model file (as crfs writes it): zero-weight features and attributes left
    /// without features are pruned.
    pub(super) fn model_bytes(&self, m: &Model, w: &[f64]) -> Result<Vec<u8>, ParallelError> {
        let l = m.labels;
        let io = |e: std::io::Error| ParallelError::Io {
            path: std::path::PathBuf::from("<model>"),
            source: e,
        };
        let Pruned {
            new_fid,
            kept,
            new_aid,
            attr_order,
        } = Pruned::of(m, w);
        let u32_of = |n: usize, what| u32::try_from(n).map_err(|_| ParallelError::TooMany(what));
        let mut out = Cursor::new(Vec::<u8>::new());
        let put = |out: &mut Cursor<Vec<u8>>, v: u32| out.write_all(&v.to_le_bytes());
        // Header, offsets filled in at the end.
        out.write_all(b"lCRF").map_err(io)?;
        put(&mut out, 0).map_err(io)?;
        out.write_all(b"FOMC").map_err(io)?;
        put(&mut out, 100).map_err(io)?;
        put(&mut out, u32_of(kept.len(), "features")?).map_err(io)?;
        put(&mut out, u32_of(l, "labels")?).map_err(io)?;
        put(&mut out, u32_of(attr_order.len(), "attributes")?).map_err(io)?;
        for _ in 0..5 {
            put(&mut out, 0).map_err(io)?;
        }
        let pos = |out: &Cursor<Vec<u8>>| u32_of(out.position() as usize, "bytes");
        let off_features = pos(&out)?;
        out.write_all(b"FEAT").map_err(io)?;
        put(&mut out, u32_of(12 + kept.len() * 20, "bytes")?).map_err(io)?;
        put(&mut out, kept.len() as u32).map_err(io)?;
        for &(ty, src, dst, wt) in &kept {
            let src = if ty == 0 { new_aid[src as usize] } else { src };
            put(&mut out, ty).map_err(io)?;
            put(&mut out, src).map_err(io)?;
            put(&mut out, dst).map_err(io)?;
            out.write_all(&wt.to_le_bytes()).map_err(io)?;
        }
        let off_labels = pos(&out)?;
        {
            let mut cq = cqdb::CQDBWriter::new(&mut out).map_err(io)?;
            for (i, name) in self.label_names.iter().enumerate() {
                cq.put(name, i as u32).map_err(io)?;
            }
        }
        let off_attrs = pos(&out)?;
        {
            let mut cq = cqdb::CQDBWriter::new(&mut out).map_err(io)?;
            for (i, &a) in attr_order.iter().enumerate() {
                cq.put(&*self.attr_names[a as usize], i as u32)
                    .map_err(io)?;
            }
        }
        // Feature references: per label its transitions (from it), per attribute its states.
        let refs_of = |fids: &[u32]| -> Vec<u32> {
            fids.iter()
                .filter(|&&f| f != NONE && new_fid[f as usize] != NONE)
                .map(|&f| new_fid[f as usize])
                .collect()
        };
        align(&mut out).map_err(io)?;
        let off_label_refs = pos(&out)?;
        let mut refs: Vec<Vec<u32>> = (0..l)
            .map(|p| refs_of(&m.trans_fid[p * l..(p + 1) * l]))
            .collect();
        refs.push(Vec::new());
        refs.push(Vec::new());
        // CRFsuite's label table has two extra entries (BOS/EOS) with zero offsets.
        write_refs(&mut out, b"LFRF", &refs, l).map_err(io)?;
        align(&mut out).map_err(io)?;
        let off_attr_refs = pos(&out)?;
        let refs: Vec<Vec<u32>> = attr_order
            .iter()
            .map(|&a| refs_of(&m.state_fid[a as usize * l..(a as usize + 1) * l]))
            .collect();
        write_refs(&mut out, b"AFRF", &refs, refs.len()).map_err(io)?;
        let size = pos(&out)?;
        out.seek(SeekFrom::Start(4)).map_err(io)?;
        put(&mut out, size).map_err(io)?;
        out.seek(SeekFrom::Start(28)).map_err(io)?;
        for v in [
            off_features,
            off_labels,
            off_attrs,
            off_label_refs,
            off_attr_refs,
        ] {
            put(&mut out, v).map_err(io)?;
        }
        Ok(out.into_inner())
    }
}

/// The features a model file keeps (those of non-zero weight) and the attributes left with
/// one, renumbered in their order.
struct Pruned {
    /// The new id of every feature, [`NONE`] for one dropped.
    new_fid: Vec<u32>,
    /// The kept features: (type, source, destination, weight); type 1 for a transition.
    kept: Vec<(u32, u32, u32, f64)>,
    /// The new id of every attribute, [`NONE`] for one left without features.
    new_aid: Vec<u32>,
    /// The kept attributes, by new id.
    attr_order: Vec<u32>,
}

impl Pruned {
    /// The features of `m` with weights `w` (by feature id), pruned.
    fn of(m: &Model, w: &[f64]) -> Pruned {
        let l = m.labels;
        let mut new_fid = vec![NONE; w.len()];
        let mut kept: Vec<(u32, u32, u32, f64)> = Vec::new();
        for (f, &(trans, src, dst)) in m.features.iter().enumerate() {
            if w[f] != 0.0 {
                new_fid[f] = kept.len() as u32;
                kept.push((u32::from(trans), src, dst, w[f]));
            }
        }
        let mut new_aid = vec![NONE; m.attrs];
        let mut attr_order: Vec<u32> = Vec::new();
        for (a, slot) in new_aid.iter_mut().enumerate() {
            if m.state_fid[a * l..(a + 1) * l]
                .iter()
                .any(|&f| f != NONE && new_fid[f as usize] != NONE)
            {
                *slot = attr_order.len() as u32;
                attr_order.push(a as u32);
            }
        }
        Pruned {
            new_fid,
            kept,
            new_aid,
            attr_order,
        }
    }
}

/// Pads to a multiple of 4 bytes.
fn align(out: &mut Cursor<Vec<u8>>) -> std::io::Result<()> {
    while !out.position().is_multiple_of(4) {
        out.write_all(&[0])?;
    }
    Ok(())
}

/// A feature-reference chunk: tag, size, count, offsets, then each list (count, ids). Entries
/// at `real` and beyond get offset 0 (CRFsuite's unused BOS/EOS label slots).
fn write_refs(
    out: &mut Cursor<Vec<u8>>,
    tag: &[u8; 4],
    refs: &[Vec<u32>],
    real: usize,
) -> std::io::Result<()> {
    let start = out.position();
    out.write_all(tag)?;
    out.write_all(&0u32.to_le_bytes())?;
    out.write_all(&(refs.len() as u32).to_le_bytes())?;
    let mut off = start + 12 + 4 * refs.len() as u64;
    for (i, r) in refs.iter().enumerate() {
        let o = if i < real { off } else { 0 };
        out.write_all(&(o as u32).to_le_bytes())?;
        if i < real {
            off += 4 + 4 * r.len() as u64;
        }
    }
    for r in refs.iter().take(real) {
        out.write_all(&(r.len() as u32).to_le_bytes())?;
        for &f in r {
            out.write_all(&f.to_le_bytes())?;
        }
    }
    let end = out.position();
    out.seek(SeekFrom::Start(start + 4))?;
    out.write_all(&((end - start) as u32).to_le_bytes())?;
    out.seek(SeekFrom::Start(end))?;
    Ok(())
}
