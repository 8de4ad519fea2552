//! Appending sequences: attribute and label names interned at their first appearance, items
//! stored as flat arrays of attribute ids (values only once one differs from 1).

use crfs::Attribute;

use super::{NONE, ParallelError, ParallelTrainer};

impl ParallelTrainer {
    /// Adds a fully labelled sequence. An empty sequence is ignored.
    pub fn append(&mut self, xseq: &[Vec<Attribute>], yseq: &[&str]) -> Result<(), ParallelError> {
        self.append_weighted(xseq, yseq, 1.0)
    }

    /// [`Self::append`], the sequence's negative log-likelihood counted `weight` times.
    pub fn append_weighted(
        &mut self,
        xseq: &[Vec<Attribute>],
        yseq: &[&str],
        weight: f64,
    ) -> Result<(), ParallelError> {
        if xseq.len() != yseq.len() {
            return Err(self.length_error(xseq.len(), yseq.len()));
        }
        self.append_with(
            xseq.len(),
            weight,
            |t| Some(yseq[t]),
            |t, f| {
                for a in &xseq[t] {
                    f(&a.name, a.value);
                }
            },
        )
    }

    /// Adds a sequence in which some labels may be unknown (`None`). A sequence without any
    /// known label carries no information and is ignored, as is an empty one.
    pub fn append_partial(
        &mut self,
        xseq: &[Vec<Attribute>],
        yseq: &[Option<&str>],
    ) -> Result<(), ParallelError> {
        self.append_partial_weighted(xseq, yseq, 1.0)
    }

    /// [`Self::append_partial`], the sequence's negative log-likelihood counted `weight`
    /// times.
    pub fn append_partial_weighted(
        &mut self,
        xseq: &[Vec<Attribute>],
        yseq: &[Option<&str>],
        weight: f64,
    ) -> Result<(), ParallelError> {
        if xseq.len() != yseq.len() {
            return Err(self.length_error(xseq.len(), yseq.len()));
        }
        if yseq.iter().all(Option::is_none) {
            return Ok(());
        }
        self.append_with(
            xseq.len(),
            weight,
            |t| yseq[t],
            |t, f| {
                for a in &xseq[t] {
                    f(&a.name, a.value);
                }
            },
        )
    }

    /// The id of a label, interned at its first appearance.
    pub(super) fn label_id(&mut self, name: &str) -> Result<u32, ParallelError> {
        if let Some(i) = self.label_names.iter().position(|l| l == name) {
            return Ok(i as u32);
        }
        let id = u32::try_from(self.label_names.len())
            .ok()
            .filter(|&i| i != NONE)
            .ok_or(ParallelError::TooMany("labels"))?;
        self.label_names.push(name.to_string());
        Ok(id)
    }

    /// The id of an attribute, interned at its first appearance.
    pub(super) fn attr_id(&mut self, name: &str) -> Result<u32, ParallelError> {
        if let Some(&id) = self.attr_ids.get(name) {
            return Ok(id);
        }
        let id = u32::try_from(self.attr_names.len())
            .ok()
            .filter(|&i| i != NONE)
            .ok_or(ParallelError::TooMany("attributes"))?;
        self.attr_ids.insert(name.into(), id);
        self.attr_names.push(name.into());
        Ok(id)
    }

    fn length_error(&self, items: usize, labels: usize) -> ParallelError {
        ParallelError::Length {
            index: self.sequences(),
            items,
            labels,
        }
    }

    /// Adds a sequence of `len` items weighing `weight`: `label(t)` is item t's label,
    /// `attrs(t, f)` calls `f` with each of its attributes (name, value).
    fn append_with<'a>(
        &mut self,
        len: usize,
        weight: f64,
        label: impl Fn(usize) -> Option<&'a str>,
        attrs: impl Fn(usize, &mut dyn FnMut(&str, f64)),
    ) -> Result<(), ParallelError> {
        if len == 0 {
            return Ok(());
        }
        if !(weight.is_finite() && weight > 0.0) {
            return Err(ParallelError::Weight {
                index: self.sequences(),
                weight,
            });
        }
        for t in 0..len {
            let lid = match label(t) {
                Some(name) => self.label_id(name)?,
                None => NONE,
            };
            self.item_label.push(lid);
            let mut err = None;
            attrs(t, &mut |name, value| {
                let id = match self.attr_id(name) {
                    Ok(id) => id,
                    Err(e) => {
                        err = Some(e);
                        return;
                    }
                };
                self.occ_attr.push(id);
                if value != 1.0 && self.occ_value.is_none() {
                    self.occ_value = Some(vec![1.0; self.occ_attr.len() - 1]);
                }
                if let Some(v) = self.occ_value.as_mut() {
                    v.push(value);
                }
            });
            if let Some(e) = err {
                return Err(e);
            }
            self.item_start.push(self.occ_attr.len());
        }
        if u32::try_from(self.item_label.len()).is_err() {
            return Err(ParallelError::TooMany("items"));
        }
        self.seq_start.push(self.item_label.len());
        self.seq_weight.push(weight);
        Ok(())
    }
}
