//! Issue 16 end to end in standalone zmx: the sessions' login shell is zsh with the line the installer
//! writes (`eval "$(agterm-backup init zsh)"`) in ~/.zshrc. Claude and Codex in two sessions, a Claude
//! the user quit with `/exit`; a reboot; then the user's terminal comes back and they type
//! `zmx attach <name>` in its panes for each session (and for one brand-new session), from a directory
//! that is not the conversation's. Nobody runs restore: each conversation comes back in its session and
//! directory, resumed once, by the session's shell; the quit session and the new one get nothing; and
//! `restore --terminal zmx --dry-run` afterwards has nothing to type or create.

use crate::zmx_common::{id, ZmxRig, COMEBACK, TURN};
use agterm_backup_core::quote::quote;
use agterm_backup_testkit::agents::type_prompt;
use agterm_backup_testkit::settle::wait_settled;
use agterm_backup_testkit::tmux::Tmux;
use std::time::Duration;

/// What the shell prints before it runs a resume line.
const RESUMING: &str = "agterm-backup: resuming";

#[test]
fn zmx_sessions_the_user_reattaches_resume_themselves_once_after_a_reboot() {
    let Some(mut t) = ZmxRig::new(&["alpha", "beta", "ended", "fresh"]) else {
        return;
    };
    let home = t.rig.home.home.clone();
    let bin = quote(&t.bin.display().to_string());
    std::fs::write(
        home.join(".zshrc"),
        format!("PROMPT='pane$ '\neval \"$({bin} init zsh)\"\n"),
    )
    .unwrap();
    let zsh = which("zsh");
    t.env.retain(|(k, _)| k != "SHELL");
    t.env.extend([
        ("SHELL".into(), zsh),
        ("AGTERM_BACKUP_SHELL_START_BUDGET_MS".into(), "8000".into()),
    ]);
    t.install();

    for name in ["alpha", "beta", "ended"] {
        t.attach(name, &t.dir(name));
    }
    t.run_claude("alpha", "zero touch alpha");
    t.run_codex("beta", "zero touch beta");
    t.run_claude("ended", "the session the user quits");
    let alpha = t.wait_record("alpha", "claude");
    let beta = t.wait_record("beta", "codex");
    let ended = t.wait_record("ended", "claude");
    t.wait_saved(&alpha, "stub reply to: zero touch alpha");
    t.wait_saved(&beta, "stub reply to: zero touch beta");
    type_prompt(&t.host, &t.target("ended"), "/exit");
    t.rig
        .wait_payload(TURN, "the quit session's SessionEnd", |p| {
            p["hook_event_name"] == "SessionEnd" && p["session_id"] == id(&ended)
        });
    t.rig.wait_ended(id(&ended), TURN);

    t.reboot();
    // The user's terminal after the boot (a tmux with a plain shell in each pane, in the project root),
    // each session attached by hand in a pane of its own.
    let outer = Tmux::as_user(t.rig.root.join("outer.sock"), &t.env);
    for name in ["alpha", "beta", "ended", "fresh"] {
        let pane = outer.spawn(
            name,
            &t.rig.root,
            &[("PS1".into(), "outer$ ".into())],
            &["/bin/bash", "--noprofile", "--norc", "-i"],
        );
        t.zmx.attach_in(&outer, &pane, name);
    }

    let comeback = [
        ("alpha", "claude", id(&alpha), t.dir("alpha")),
        ("beta", "codex", id(&beta), t.dir("beta")),
    ];
    for (name, agent, id, dir) in &comeback {
        let pid = t.wait_resumed(name, agent, id);
        let cwd = std::fs::read_link(format!("/proc/{pid}/cwd")).unwrap();
        assert_eq!(&cwd, dir, "{name}: {agent} runs in its directory");
    }
    t.rig
        .wait_payload(COMEBACK, "claude's resumed SessionStart", |p| {
            p["hook_event_name"] == "SessionStart"
                && p["source"] == "resume"
                && p["session_id"] == id(&alpha)
        });
    for name in ["ended", "fresh"] {
        t.zmx.wait_for_session(name, Duration::from_secs(15));
        t.wait_prompt(name);
    }
    // Whatever else could start them has had its chance: every session's shell has drawn its prompt (its
    // `shell-start` ran), and no `shell-start` or `restore` is left. Each runs once, and resumed once.
    wait_settled(&t.rig.root, COMEBACK);
    for (name, agent, id, _) in &comeback {
        assert_eq!(
            t.agents_running(name, agent, id).len(),
            1,
            "{name}: {agent} runs once\nhook log:\n{}",
            t.hook_log()
        );
    }
    let resumed = t
        .rig
        .payloads_of("SessionStart")
        .into_iter()
        .filter(|p| p["source"] == "resume" && p["session_id"] == id(&alpha))
        .count();
    assert_eq!(resumed, 1, "claude resumed once");
    for (name, agent, id, _) in &comeback {
        assert_eq!(
            t.rig.resumed_by(agent, id),
            ["shell-start"],
            "{name}: its shell resumed it"
        );
    }
    assert!(t.agents_running("ended", "claude", id(&ended)).is_empty());
    assert!(t.rig.resumed_by("claude", id(&ended)).is_empty());
    for name in ["ended", "fresh"] {
        let screen = t.host.capture(&t.target(name), true);
        assert!(
            !screen.contains(RESUMING) && !screen.contains("resume"),
            "{name} gets nothing:\n{screen}"
        );
    }
    let plan = t.dry_run_plan();
    let acting: Vec<&serde_json::Value> = plan["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["action"] == "type" || r["action"] == "create")
        .collect();
    assert!(acting.is_empty(), "restore --dry-run would act: {plan:#}");
    for (name, _, id, _) in &comeback {
        let row = plan["rows"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|r| r["session_id"] == *id);
        let reason = row.map(|r| r["reason"].clone());
        assert_eq!(
            reason,
            Some("already-running".into()),
            "{name}: restore sees it running\n{plan:#}"
        );
    }
}

/// The absolute path of `program` on this process's PATH (zmx execs `$SHELL` as given).
fn which(program: &str) -> String {
    std::env::var("PATH")
        .unwrap_or_default()
        .split(':')
        .map(|d| std::path::Path::new(d).join(program))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{program} not on PATH"))
        .display()
        .to_string()
}
