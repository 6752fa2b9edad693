//! `installer status`'s row of an rc file: the state of our block, and whether the shell reaching it
//! runs it (an `exec` before it takes the shell away first).

use super::{block_range, exec, RcFile};
use crate::target_report::TargetReport;
use agterm_backup_core::marked_block::{body, lines_with_offsets};

/// Fills `installer status`'s report of the rc file `text` for `binary`: `present` (our line, this
/// binary), `outdated` (our line names another binary), `duplicate` (more than one line of ours),
/// `partial` (our block without our line), `absent`, `unreadable` (markers that do not pair up).
pub fn report(report: &mut TargetReport, rc: RcFile, text: Option<&str>, binary: &str) {
    let text = text.unwrap_or("");
    let range = match block_range(text) {
        Ok(Some(range)) => range,
        Ok(None) => {
            report.state = "absent";
            return;
        }
        Err(refusal) => {
            report.state = "unreadable";
            report.error = Some(
                refusal
                    .in_file(std::path::Path::new(&report.path))
                    .to_string(),
            );
            return;
        }
    };
    if let Ok(Some(exec)) = exec::first(rc, text) {
        if range.start > exec.at {
            report.warnings.push(unreached_after(text, &exec));
        }
    }
    let binaries: Vec<String> = lines_with_offsets(&text[range])
        .filter_map(|(_, l)| rc.binary_in(body(l)))
        .collect();
    report.state = match binaries.as_slice() {
        [] => "partial",
        [one] if one == binary => "present",
        [_] => "outdated",
        _ => "duplicate",
    };
    if report.state == "partial" {
        report.warnings.push(format!(
            "our block holds no `{}` line: run `agterm-backup installer apply --shell` to put it back",
            rc.line(binary)
        ));
    }
}

/// The warning for our block after `exec`.
fn unreached_after(text: &str, exec: &exec::Exec) -> String {
    let line = text[..exec.at].matches('\n').count() + 1;
    let when = if exec.conditional {
        "runs only where that `exec` does not"
    } else {
        "never runs"
    };
    format!(
        "our block sits after `{}` (line {line}): the shell stops there, so the block {when}; run \
         `agterm-backup installer apply --shell` to move it before the `exec`",
        exec.command
    )
}
