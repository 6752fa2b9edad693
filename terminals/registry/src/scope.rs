//! One running instance of a terminal ([`Scope`], plain data in core), and the rules over the rows that
//! make one: from a command line ([`scope_at`]), from a record ([`scope_of_record`]), for a terminal of
//! one instance ([`single`]). Each terminal's own rules (how its instances are found, named, opened) are
//! its crate's, in its row.

use crate::{row, row_named, Env, ROWS};
use agterm_backup_core::pane::TerminalName;
use agterm_backup_core::record::LiveRecord;
pub use agterm_backup_core::scope::Scope;
use std::path::Path;

/// The scope of terminal `kind` at `place` (what [`Scope::place`] gave; dropped for a terminal of one
/// instance, empty when missing for one of many): how a scope crosses a command line.
pub fn scope_at(kind: TerminalName, place: Option<String>) -> Scope {
    let place = (!row(kind).one_instance).then(|| place.unwrap_or_default());
    Scope::new(kind, place)
}

/// The scope of a terminal that runs as one instance (every pane of it is that one's); `None` for one
/// of many instances told apart by their place.
pub fn single(kind: TerminalName) -> Option<Scope> {
    row(kind).one_instance.then(|| Scope::new(kind, None))
}

/// The scope a record names, by its terminal's row (a record of a terminal no row has is the first
/// row's). `None`: a record whose terminal's part is unreadable.
pub fn scope_of_record(rec: &LiveRecord) -> Option<Scope> {
    (row_named(&rec.terminal).unwrap_or(&ROWS[0]).of_record)(rec)
}

/// The instance of the first row (see [`ROWS`]): the one the reports' fields from before the other
/// terminals describe (`status --json`'s top-level terminal, `snap`'s `terminal`), and the one a plan
/// with no scope of its own acts on.
pub fn first() -> Scope {
    scope_at(ROWS[0].name, None)
}

/// An instance with a place may come up while its place (a socket, a socket directory) is there.
pub(crate) fn place_exists(scope: &Scope, _explicit: Option<&Path>, _env: Env) -> bool {
    scope.place().is_some_and(|p| Path::new(p).exists())
}

/// Sorts scopes in the registry's order of terminals, then by place.
pub fn sort(scopes: &mut [Scope]) {
    let rank = |s: &Scope| ROWS.iter().position(|r| r.name == s.kind());
    scopes.sort_by(|a, b| (rank(a), &a.place).cmp(&(rank(b), &b.place)));
}
