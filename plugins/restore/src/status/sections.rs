//! A terminal's own part of the status report, from its row's `report`: the section `status --json`
//! repeats under its name (before `terminals`), and its warnings. The report places them; the rows
//! say whether and what.

use super::{Section, TerminalState};
use agterm_backup_core::record::PinOutcome;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_terminals::report::{Answered, Facts};
use agterm_backup_terminals::ROWS;
use serde::ser::{Serialize, SerializeMap, Serializer};

/// A terminal's first instance, repeated under the terminal's name (see the row's
/// `report.status_section`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SectionState {
    pub running: bool,
    pub version: Option<String>,
    pub mode: Option<RestoreMode>,
    /// The terminal can restart a pane (replaces a replayed agent in a pane kept across its quit).
    pub restart: bool,
    pub error: Option<String>,
}

/// Each terminal's own section, in the rows' order: serialised as one key per terminal, in place (the
/// report flattens it between `hooks` and `terminals`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OwnSections(pub Vec<(String, SectionState)>);

impl Serialize for OwnSections {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, state) in &self.0 {
            map.serialize_entry(name, state)?;
        }
        map.end()
    }
}

/// The first instance of terminal `name` among `terminals` (`sections`, in the same order).
fn first_of<'a>(
    name: &str,
    sections: &[Section<'_>],
    terminals: &'a [TerminalState],
) -> Option<&'a TerminalState> {
    sections
        .iter()
        .zip(terminals)
        .find(|(s, _)| s.scope.kind() == *name)
        .map(|(_, t)| t)
}

/// The section of every row with one, from its first instance ("not asked" when it has none).
pub fn own_sections(sections: &[Section<'_>], terminals: &[TerminalState]) -> OwnSections {
    let own = ROWS.iter().filter(|r| r.report.status_section).map(|r| {
        let state = first_of(r.name.as_str(), sections, terminals).map_or(
            SectionState {
                running: false,
                version: None,
                mode: None,
                restart: false,
                error: Some("not asked".into()),
            },
            |t| SectionState {
                running: t.running,
                version: t.version.clone(),
                mode: t.mode,
                restart: t.restart,
                error: t.error.clone(),
            },
        );
        (r.name.to_string(), state)
    });
    OwnSections(own.collect())
}

/// What instance `t` answered, if it did.
pub fn answered(t: &TerminalState) -> Answered<'_> {
    Answered {
        version: t.version.as_deref(),
        mode: t.mode,
        restart: t.restart,
    }
}

/// Every row's own warnings, in the rows' order: from what its first instance answered, the
/// installer's denylist check and the pin outcomes of every record shown.
pub fn row_warnings(
    sections: &[Section<'_>],
    terminals: &[TerminalState],
    denylist_ok: Option<bool>,
    pin_outcomes: &[Option<PinOutcome>],
) -> Vec<String> {
    ROWS.iter()
        .flat_map(|r| {
            let first = first_of(r.name.as_str(), sections, terminals)
                .filter(|t| t.running)
                .map(answered);
            (r.report.warnings)(&Facts {
                first,
                denylist_ok,
                pin_outcomes,
            })
        })
        .collect()
}
