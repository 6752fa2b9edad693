//! Which terminal's pane a hook event comes from: the registry's (`terminals/registry/src/pane.rs`),
//! with the reason for "none" in the hook's own words ([`Skip`]).

use crate::pane_env::Env;
use crate::skip::Skip;
use agterm_backup_core::process::ProcessSource;

pub use agterm_backup_terminals::pane::{refresh, resolve, FoundPane, HookPane, TMUX_BUDGET};

/// Finds the innermost terminal pane of `env`, or says why this run is not one to record (see
/// [`agterm_backup_terminals::pane::find`]).
pub fn find(env: &Env, src: &dyn ProcessSource, start: u32) -> Result<FoundPane, Skip> {
    agterm_backup_terminals::pane::find(env, src, start).map_err(Skip::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agterm_backup_core::process::FakeProcesses;

    /// The hook's log and its "worth logging" filter speak `Skip`: the registry's reasons keep their
    /// old names.
    #[test]
    fn the_registrys_reasons_arrive_as_the_hooks_skips() {
        let none = FakeProcesses::default();
        let env = |pairs: &[(&str, &str)]| -> Env {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        assert_eq!(find(&env(&[]), &none, 0), Err(Skip::NotInAgterm));
        let job = env(&[("TMUX", "/tmp/tmux-1/default,42,0")]);
        assert_eq!(find(&job, &none, 0), Err(Skip::NoTmuxPane));
        let evil = env(&[("AGTERM_SESSION_ID", "../x"), ("AGTERM_PANE", "left")]);
        assert!(matches!(
            find(&evil, &none, 0),
            Err(Skip::BadAgtermSession(_))
        ));
        let odd = env(&[("AGTERM_SESSION_ID", "6B1E0C2A"), ("AGTERM_PANE", "mid")]);
        assert!(matches!(find(&odd, &none, 0), Err(Skip::UnknownPane(_))));
    }
}
