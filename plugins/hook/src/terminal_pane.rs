//! Which terminal's pane a hook event comes from: the registry's (`terminals/registry/src/pane.rs`),
//! with the reason for "none" in the hook's own words ([`Skip`]).

use crate::pane_env::Env;
use crate::skip::Skip;
use agterm_backup_core::process::ProcessSource;

pub use agterm_backup_terminals::pane::{refresh, resolve, FoundPane, HookPane};

/// Finds the innermost terminal pane of `env`, or says why this run is not one to record (see
/// [`agterm_backup_terminals::pane::find`]).
pub fn find(env: &Env, src: &dyn ProcessSource, start: u32) -> Result<FoundPane, Skip> {
    agterm_backup_terminals::pane::find(env, src, start).map_err(Skip::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agterm_backup_agterm::pane_env::NotAPane;
    use agterm_backup_core::process::FakeProcesses;
    use agterm_backup_terminals::pane::NoPane;

    fn skip(why: NotAPane) -> Skip {
        Skip::from(NoPane::from(why))
    }

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
        let not_in = find(&env(&[]), &none, 0).unwrap_err();
        assert_eq!(not_in, skip(NotAPane::NotInAgterm));
        assert_eq!(not_in.to_string(), "not in agterm (no AGTERM_SESSION_ID)");
        assert!(!not_in.worth_logging());
        let job = env(&[("TMUX", "/tmp/tmux-1/default,42,0")]);
        let job = find(&job, &none, 0).unwrap_err();
        assert_eq!(
            job.to_string(),
            "inside tmux but not in a pane ($TMUX_PANE unset or malformed)"
        );
        assert!(!job.worth_logging());
        let evil = env(&[("AGTERM_SESSION_ID", "../x"), ("AGTERM_PANE", "left")]);
        assert_eq!(
            find(&evil, &none, 0),
            Err(skip(NotAPane::BadSession("../X".into())))
        );
        assert!(find(&evil, &none, 0).unwrap_err().worth_logging());
        let odd = env(&[("AGTERM_SESSION_ID", "6B1E0C2A"), ("AGTERM_PANE", "mid")]);
        assert_eq!(
            find(&odd, &none, 0),
            Err(skip(NotAPane::UnknownPane("mid".into())))
        );
        assert!(find(&odd, &none, 0).unwrap_err().worth_logging());
    }
}
