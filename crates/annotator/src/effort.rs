//! How much work a page takes: the clicks and key presses that bring its labels from what the
//! tool shows to a target (the gold labels), by the rules of the tool's interface.
//!
//! The interface has a current label (chosen with `h`, `t`, `o` or the buttons; `text` when the
//! tool opens) and marks a range of blocks with two clicks, on its first and its last block,
//! giving every block in between the current label. [`plan`] walks the blocks in page order;
//! at each block that is wrong it marks the longest run that starts there, over which the
//! target label stays the same, ending at the last wrong block of that run (blocks already
//! right inside it are left as they are). Each mark costs one key press when the label must be
//! changed first, and two clicks. It is a greedy plan, not the fewest actions possible (marking
//! across a short run of another label and fixing it afterwards can be cheaper), which is also
//! how an annotator works down a page.

use victor_annotations::Label;

/// The label the tool has chosen when it opens.
pub const START_LABEL: Label = Label::Text;

/// One marking: the label and the first and last block (inclusive) it is given to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The label given.
    pub label: Label,
    /// The first block.
    pub first: usize,
    /// The last block.
    pub last: usize,
}

/// The marks that bring `current` to `target` (equal lengths; extra blocks of the longer one
/// are ignored), in the order [`plan`] makes them.
pub fn plan(current: &[Label], target: &[Label]) -> Vec<Mark> {
    let n = current.len().min(target.len());
    let mut marks = Vec::new();
    let mut i = 0;
    while i < n {
        if current[i] == target[i] {
            i += 1;
            continue;
        }
        let label = target[i];
        let mut last = i;
        let mut j = i + 1;
        while j < n && target[j] == label {
            if current[j] != label {
                last = j;
            }
            j += 1;
        }
        marks.push(Mark {
            label,
            first: i,
            last,
        });
        i = last + 1;
    }
    marks
}

/// Clicks and key presses of a plan of marks, starting from [`START_LABEL`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    /// Clicks on blocks (two per mark).
    pub clicks: usize,
    /// Label keys pressed (one whenever the label changes).
    pub keys: usize,
    /// Marks made.
    pub marks: usize,
}

/// The clicks and key presses of `marks`.
pub fn effort(marks: &[Mark]) -> Effort {
    let mut current = START_LABEL;
    let mut e = Effort::default();
    for m in marks {
        if m.label != current {
            e.keys += 1;
            current = m.label;
        }
        e.clicks += 2;
        e.marks += 1;
    }
    e
}

/// `current` after applying `marks` (what the tool shows once they are made).
#[cfg(test)]
pub(crate) fn apply(current: &[Label], marks: &[Mark]) -> Vec<Label> {
    let mut out = current.to_vec();
    for m in marks {
        if let Some(range) = out.get_mut(m.first..=m.last) {
            range.fill(m.label);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use Label::{Header as H, Other as O, Text as T};

    #[test]
    fn plan_reaches_the_target_with_runs() {
        let current = [O, O, O, O, O, O, T];
        let target = [H, T, T, O, T, T, T];
        let marks = plan(&current, &target);
        assert_eq!(apply(&current, &marks), target);
        assert_eq!(
            marks,
            [
                Mark {
                    label: H,
                    first: 0,
                    last: 0
                },
                Mark {
                    label: T,
                    first: 1,
                    last: 2
                },
                Mark {
                    label: T,
                    first: 4,
                    last: 5
                },
            ]
        );
        // h, then t: two keys; three marks, six clicks.
        assert_eq!(
            effort(&marks),
            Effort {
                clicks: 6,
                keys: 2,
                marks: 3
            }
        );
    }

    #[test]
    fn nothing_to_do_when_right() {
        let l = [H, T, O];
        assert!(plan(&l, &l).is_empty());
        assert_eq!(effort(&[]), Effort::default());
    }
}
