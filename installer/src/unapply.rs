//! Taking our edit back out of a file the user changed since: a three-way merge at byte level.
//!
//! We know the file before our edit (`original`, the backup) and what our edit made of it (`applied`, the
//! editor run on `original` again). What the user did since is the difference between `applied` and
//! `current`. Every byte range our edit touched is put back as `original` had it, wherever it sits in
//! `current`; the user's changes stay exactly as they are. That gives byte for byte the file the user would
//! have, had we never added our entries (an empty `"hooks": {}` that was there stays, a final newline we
//! added goes, minified JSON stays on one line). When the user's changes touch our bytes there is no exact
//! answer, and the caller cuts our entries out structurally instead.

use similar::{capture_diff_deadline, Algorithm, DiffOp};
use std::ops::Range;
use std::time::{Duration, Instant};

/// How long the two diffs may take before we give up on an exact answer (config files take microseconds).
const DIFF_BUDGET: Duration = Duration::from_secs(2);

/// One change our edit made: the bytes at `applied` in the edited text were `was` in the original.
struct Edit {
    applied: Range<usize>,
    was: Range<usize>,
}

fn diff(old: &[u8], new: &[u8]) -> Vec<DiffOp> {
    let deadline = Some(Instant::now() + DIFF_BUDGET);
    capture_diff_deadline(
        Algorithm::Myers,
        old,
        0..old.len(),
        new,
        0..new.len(),
        deadline,
    )
}

/// `current` with our edit (the difference from `original` to `applied`) undone, or `None` when the user's
/// changes overlap bytes our edit wrote.
pub fn unapply(original: &str, applied: &str, current: &str) -> Option<String> {
    let (o, a, c) = (original.as_bytes(), applied.as_bytes(), current.as_bytes());
    let ours: Vec<Edit> = diff(o, a)
        .into_iter()
        .filter(|op| !matches!(op, DiffOp::Equal { .. }))
        .map(|op| Edit {
            applied: op.new_range(),
            was: op.old_range(),
        })
        .collect();
    // The user's untouched stretches: (start in `applied`, start in `current`, length).
    let kept: Vec<(usize, usize, usize)> = diff(a, c)
        .into_iter()
        .filter_map(|op| match op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => Some((old_index, new_index, len)),
            _ => None,
        })
        .collect();
    let mut out = Vec::with_capacity(c.len());
    let mut copied_to = 0;
    for edit in &ours {
        let at = locate(&kept, &edit.applied)?;
        if at.start < copied_to {
            return None;
        }
        out.extend_from_slice(&c[copied_to..at.start]);
        out.extend_from_slice(&o[edit.was.clone()]);
        copied_to = at.end;
    }
    out.extend_from_slice(&c[copied_to..]);
    String::from_utf8(out).ok()
}

/// Where the range `r` of `applied` sits in `current`, when the user left all of it (and, for an empty
/// range, the position) untouched.
fn locate(kept: &[(usize, usize, usize)], r: &Range<usize>) -> Option<Range<usize>> {
    kept.iter()
        .find(|(a, _, len)| {
            if r.is_empty() {
                *a <= r.start && r.start <= a + len
            } else {
                *a <= r.start && r.end <= a + len
            }
        })
        .map(|(a, c, _)| c + (r.start - a)..c + (r.end - a))
}

#[cfg(test)]
mod tests {
    use super::unapply;

    #[test]
    fn user_changes_outside_ours_survive_and_ours_go_exactly() {
        let original = "{\"hooks\": {}, \"a\": 1}";
        let applied = "{\"hooks\": {\"Stop\": [X]}, \"a\": 1}";
        let current = "{\"hooks\": {\"Stop\": [X]}, \"a\": 2, \"b\": true}  ";
        assert_eq!(
            unapply(original, applied, current).as_deref(),
            Some("{\"hooks\": {}, \"a\": 2, \"b\": true}  ")
        );
    }

    #[test]
    fn a_final_newline_we_added_goes_again() {
        let original = "a = 1";
        let applied = "a = 1\n\n# >>> ours\n[x]\n# <<< ours\n";
        let current = "# top\na = 1\n\n# >>> ours\n[x]\n# <<< ours\n";
        assert_eq!(
            unapply(original, applied, current).as_deref(),
            Some("# top\na = 1")
        );
    }

    #[test]
    fn an_edit_inside_ours_has_no_exact_answer() {
        let original = "{}";
        let applied = "{\"hooks\": {\"Stop\": [X]}}";
        let current = "{\"hooks\": {\"Stop\": [X, Y]}}";
        assert_eq!(unapply(original, applied, current), None);
    }

    #[test]
    fn nothing_changed_gives_the_original() {
        let original = "x\ny\n";
        let applied = "x\nOURS\ny\n";
        assert_eq!(
            unapply(original, applied, applied).as_deref(),
            Some(original)
        );
    }
}
