//! The real opencode (its native binary, offline against the stub model) in a user's own tmux pane, no
//! agterm anywhere, wired by `installer apply --agents opencode`: the plugin the installer wrote starts
//! its hook there (the terminals' pane test, not only agterm's `AGTERM_SESSION_ID`), so one prompt leaves
//! the record of that tmux pane naming opencode's own session. The plugin that started its hook only in
//! agterm's panes left no record. Skipped without the CLIs (a failure under `CI`).

use crate::tmux_common::{TmuxRig, TURN, USER_TMUX_CONF};

use agterm_backup_testkit::agents::rig::Rig;
use agterm_backup_testkit::agents::{type_prompt, wait_ready, wait_screen, Agent, AGENT_START};
use agterm_backup_testkit::paths::agent_cli;
use agterm_backup_testkit::scratch::processes_naming;
use agterm_backup_testkit::tmux::Tmux;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The user's environment with opencode's (its stub provider's switches) and `agent-bin/opencode` first
/// on `PATH`, as an install puts it there; nothing of agterm's but our state folder.
fn user_env(rig: &Rig, opencode: &Path) -> Vec<(String, String)> {
    let bin = rig.root.join("agent-bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(opencode, bin.join("opencode")).unwrap();
    let mut env = rig.home.env(&rig.stub);
    for (k, v) in env.iter_mut() {
        if k == "PATH" {
            *v = format!("{}:{v}", bin.display());
        }
    }
    env.extend([
        (
            "AGTERM_BACKUP_HOME".into(),
            rig.state_dir.display().to_string(),
        ),
        ("PS1".into(), "pane$ ".into()),
        ("LANG".into(), "C.UTF-8".into()),
    ]);
    let agterm: Vec<&String> = env
        .iter()
        .map(|(k, _)| k)
        .filter(|k| k.starts_with("AGTERM_") && *k != "AGTERM_BACKUP_HOME")
        .collect();
    assert!(agterm.is_empty(), "a plain tmux pane: {agterm:?}");
    env
}

#[test]
fn opencode_in_a_user_tmux_pane_writes_that_panes_record() {
    let Some(opencode) = agent_cli("opencode") else {
        return;
    };
    let (Some(claude), Some(codex)) = (agent_cli("claude"), agent_cli("codex")) else {
        return;
    };
    let rig = Rig::new(&["opencode tmux"]);
    let dir = rig.root.join("opencode tmux");
    std::fs::write(rig.home.home.join(".tmux.conf"), USER_TMUX_CONF).unwrap();
    rig.home.seed_opencode(&rig.stub);
    let env = user_env(&rig, &opencode);
    let tmux = Tmux::as_user(rig.root.join("user.sock"), &env);
    let t = TmuxRig {
        rig,
        tmux,
        claude,
        codex,
        bin: PathBuf::from(agterm_backup_testkit::agterm_backup_bin!()),
    };
    let out = t.rig.install(&t.bin, "opencode", false);
    let plugin = t
        .rig
        .home
        .home
        .join(".config/opencode/plugins/agterm-backup.js");
    let text = std::fs::read_to_string(&plugin).unwrap_or_default();
    assert!(text.contains("hook opencode"), "{out}\n{text}");

    t.new_session("work", &dir.display().to_string());
    t.type_line("work:0.0", "opencode -m stub/stub-model");
    wait_ready(&t.tmux, "work:0.0", Agent::Opencode, AGENT_START);
    let prompt = "tmux opencode says hi";
    type_prompt(&t.tmux, "work:0.0", prompt);
    wait_screen(&t.tmux, "work:0.0", TURN, "opencode's reply", |s| {
        s.contains(&format!("stub reply to: {prompt}"))
    });

    let rec = t.wait_record("work", 0, 0, "opencode in work");
    assert_eq!(rec["agent"], "opencode", "{rec:#}");
    assert_eq!(rec["terminal"], "tmux", "{rec:#}");
    assert_eq!(rec["agent_cwd"], dir.display().to_string().as_str());
    // opencode's own id for the conversation: `ses_…`, kept in its database.
    let id = rec["session_id"].as_str().unwrap_or_default();
    assert!(id.starts_with("ses_"), "{rec:#}");
    assert!(t.rig.home.has_conversation("opencode", id), "{rec:#}");
    let name = t.rig.state_dir.join("live").read_dir().unwrap().any(|e| {
        let n = e.unwrap().file_name().to_string_lossy().into_owned();
        n.starts_with("tmux.") && n.ends_with(".json")
    });
    assert!(name, "live/tmux.*.json");

    // opencode's SIGHUP ends it (its plugin's last hook run with it): nothing of the test runs on.
    t.tmux.kill_server();
    Tmux::wait_for(
        Duration::from_secs(15),
        "opencode and its hooks to end",
        || processes_naming(&t.rig.root).is_empty().then_some(()),
    );
}
