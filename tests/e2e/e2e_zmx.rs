//! zmx end to end, with the fake `zmx` and the real Claude Code and Codex offline: conversations in
//! several zmx sessions (a git worktree `cd`, flags, Codex), a session the user closed before the
//! reboot, a plain shell with no agent, a reboot, the user attaching two sessions again by hand (one
//! left at its idle shell, one busy with something else), then one `agterm-backup restore --yes`. Every
//! conversation must come back in its own session and directory, resumed, once: the sessions the reboot
//! took recreated running their resume line, the idle one typed into, the busy one left alone, nothing
//! for the closed one or the plain shell; a second run does nothing. And a restore racing the user's own
//! `zmx attach` of the same session ends with one session running the conversation once.

use crate::tmux_common;

use crate::zmx_common::{id, ZmxRig, COMEBACK};
use agterm_backup_core::quote::quote;
use agterm_backup_testkit::settle::{wait_hooks_done, wait_settled};
use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

#[test]
fn zmx_sessions_come_back_resumed_after_a_reboot() {
    let Some(mut t) = ZmxRig::new(&["alpha", "beta", "repo", "gamma", "delta", "plain", "gone"])
    else {
        return;
    };
    let worktree = t.dir("repo-feature");
    tmux_common::git_worktree(&t.dir("repo"), &worktree);
    t.rig.home.trust_claude_dir(&worktree);
    t.install();

    for (name, dir) in [
        ("alpha", "alpha"),
        ("beta", "beta"),
        ("wt", "repo"),
        ("idle", "gamma"),
        ("busy", "delta"),
        ("plain", "plain"),
        ("closed", "gone"),
    ] {
        t.attach(name, &t.dir(dir));
    }
    t.run_claude("alpha", "alpha question");
    t.run_codex("beta", "beta question");
    t.type_line("wt", "cd ../repo-feature");
    t.run_claude("wt", "worktree question");
    t.run_claude("idle", "gamma question");
    t.run_codex("busy", "delta question");
    t.run_claude("closed", "closed question");
    let alpha = t.wait_record("alpha", "claude");
    let beta = t.wait_record("beta", "codex");
    let wt = t.wait_record("wt", "claude");
    let gamma = t.wait_record("idle", "claude");
    let delta = t.wait_record("busy", "codex");
    t.wait_record("closed", "claude");
    for (rec, prompt) in [
        (&alpha, "alpha question"),
        (&beta, "beta question"),
        (&wt, "worktree question"),
        (&gamma, "gamma question"),
        (&delta, "delta question"),
    ] {
        t.wait_saved(rec, &format!("stub reply to: {prompt}"));
    }
    assert_eq!(alpha["flags"], serde_json::json!(["--model", "sonnet"]));
    assert_eq!(wt["agent_cwd"], worktree.display().to_string());
    assert_eq!(
        alpha["zmx"]["socket_dir"],
        t.zmx.socket_dir().display().to_string()
    );

    t.reboot();
    // After the reboot the user brings back two sessions by hand, one of them busy with a `tail`; the
    // session "closed" they had closed... after the boot: they attached it, used it, and killed it.
    t.attach("idle", &t.dir("gamma"));
    t.attach("busy", &t.dir("delta"));
    t.type_line("busy", "tail -f /dev/null");
    t.attach("closed", &t.dir("gone"));
    t.run_claude("closed", "a new question after the boot");
    let out = t
        .zmx_cmd(&["kill", "closed"], &t.rig.root)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    t.zmx.wait_gone("closed", Duration::from_secs(15));
    // The killed Claude's last hooks write its record: the plan reads it once they are done.
    wait_hooks_done(&t.rig.root, COMEBACK);

    let plan = t.dry_run_plan();
    let action = |name: &str| {
        plan["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| {
                r["pane"]
                    .as_str()
                    .is_some_and(|k| k.ends_with(&format!(".{name}")))
            })
            .map(|r| format!("{} {}", r["action"], r["reason"]))
            .unwrap_or_else(|| panic!("no row for {name}: {plan:#}"))
    };
    assert_eq!(action("alpha"), "\"create\" null", "{plan:#}");
    assert_eq!(action("idle"), "\"type\" null", "{plan:#}");
    assert!(action("busy").contains("busy"), "{plan:#}");
    assert!(action("closed").contains("session-closed"), "{plan:#}");
    assert!(
        t.zmx.session("alpha").is_none(),
        "--dry-run creates nothing"
    );

    let out = t.restore(&["--yes"]);
    let said = format!(
        "{}{}\nhook log:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        t.hook_log()
    );
    assert!(out.status.success(), "{said}");

    let comeback = [
        ("alpha", "claude", id(&alpha).to_string(), t.dir("alpha")),
        ("beta", "codex", id(&beta).to_string(), t.dir("beta")),
        ("wt", "claude", id(&wt).to_string(), worktree.clone()),
        ("idle", "claude", id(&gamma).to_string(), t.dir("gamma")),
    ];
    for (name, agent, id, dir) in &comeback {
        let pid = t.wait_resumed(name, agent, id);
        let cwd = std::fs::read_link(format!("/proc/{pid}/cwd")).unwrap();
        assert_eq!(&cwd, dir, "{name}: {agent} runs in its directory\n{said}");
        if *agent == "claude" {
            let resumed = t
                .rig
                .wait_payload(COMEBACK, "claude's resumed SessionStart", |p| {
                    p["hook_event_name"] == "SessionStart"
                        && p["source"] == "resume"
                        && p["session_id"] == id.as_str()
                });
            assert_eq!(resumed["cwd"], dir.display().to_string(), "{name}");
        }
    }
    assert!(t.agents_running("busy", "codex", id(&delta)).is_empty());
    let busy_screen = t.host.capture(&t.target("busy"), true);
    assert!(
        !busy_screen.contains("resume"),
        "nothing typed into the busy session:\n{busy_screen}"
    );
    assert!(t.zmx.session("plain").is_none(), "no record, no session");
    assert!(t.zmx.session("closed").is_none(), "closed after the boot");

    // The counts are taken once nothing that could start an agent is left running.
    wait_settled(&t.rig.root, COMEBACK);
    let requests = t.model_requests();
    let starts = t.rig.payloads_of("SessionStart").len();
    let out = t.restore(&["--yes"]);
    assert!(out.status.success(), "{out:?}");
    let again = String::from_utf8_lossy(&out.stdout);
    assert!(
        again.contains("nothing to type"),
        "the second restore:\n{again}"
    );
    wait_settled(&t.rig.root, COMEBACK);
    for (name, agent, id, _) in &comeback {
        assert_eq!(
            t.agents_running(name, agent, id).len(),
            1,
            "{name}: {agent} {id} runs once\n{said}"
        );
    }
    assert_eq!(
        t.model_requests(),
        requests,
        "nothing typed into a running agent"
    );
    assert_eq!(
        t.rig.payloads_of("SessionStart").len(),
        starts,
        "nothing started again"
    );
    let names: Vec<String> = t.zmx.list().iter().map(|r| r.name().to_string()).collect();
    assert_eq!(
        names,
        ["alpha", "beta", "busy", "idle", "wt"],
        "one session each"
    );

    // A recreated session outlives its agent, as the user's own did: a login shell takes over.
    let target = t.target("alpha");
    agterm_backup_testkit::agents::type_prompt(&t.host, &target, "/exit");
    agterm_backup_testkit::agents::wait_screen(
        &t.host,
        &target,
        Duration::from_secs(40),
        "the login shell after claude exits",
        |s| s.contains("Resume this session with:") && s.trim_end().ends_with("pane$"),
    );
    assert!(t.agents_running("alpha", "claude", id(&alpha)).is_empty());
    assert!(
        t.zmx.session("alpha").is_some(),
        "the session is still there"
    );
}

/// The user's own `zmx attach race` and restore's recreate of the same session at the same moment: zmx
/// creates it once (the socket decides), the loser's command is ignored, and restore types the line only
/// into the user's plain shell when the user won. One session, the conversation running once — whether
/// the user's attach comes first (restore finds an idle shell), lands between restore's last look and
/// its create (zmx ignores restore's command; restore types into the user's shell), or comes right
/// after it (the user attaches to the resumed agent). The last two are placed exactly by a `zmx` on
/// restore's PATH that runs the user's attach just before or after restore's own.
#[test]
fn a_restore_racing_the_users_attach_starts_the_conversation_once() {
    let Some(mut t) = ZmxRig::new(&["race"]) else {
        return;
    };
    t.install();
    t.attach("race", &t.dir("race"));
    t.run_claude("race", "race question");
    let rec = t.wait_record("race", "claude");
    t.wait_saved(&rec, "stub reply to: race question");
    let shim = t.dir("race-bin");
    std::fs::create_dir_all(&shim).unwrap();
    let user_attach = format!(
        "(cd {} && {} attach race </dev/null >/dev/null 2>&1)",
        quote(&t.dir("race").display().to_string()),
        quote(&t.zmx.zmx().display().to_string())
    );
    std::fs::write(
        shim.join("zmx"),
        format!(
            "#!/bin/sh
if [ \"$1\" != attach ]; then exec {real} \"$@\"; fi
             [ \"$RACE\" = before ] && {user_attach}
{real} \"$@\"; rc=$?
             [ \"$RACE\" = after ] && {user_attach}
exit $rc
",
            real = quote(&t.zmx.zmx().display().to_string()),
        ),
    )
    .unwrap();
    std::fs::set_permissions(shim.join("zmx"), PermissionsExt::from_mode(0o755)).unwrap();
    let path = t.env.iter().find(|(k, _)| k == "PATH").unwrap().1.clone();

    for (round, race) in ["concurrent", "before", "after"].into_iter().enumerate() {
        t.reboot();
        let mut restore = std::process::Command::new(&t.bin);
        restore
            .args(["restore", "--yes"])
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .envs(t.env.iter().map(|(k, v)| (k, v)))
            .env("PATH", format!("{}:{path}", shim.display()))
            .env("RACE", race)
            .current_dir(&t.rig.root)
            .stdin(std::process::Stdio::null());
        let restore = std::thread::spawn(move || restore.output().unwrap());
        if race == "concurrent" {
            let user = t
                .zmx_cmd(&["attach", "race"], &t.dir("race"))
                .output()
                .unwrap();
            assert!(user.status.success(), "{user:?}");
        }
        let out = restore.join().unwrap();
        let said = format!(
            "{race}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.status.success(),
            "{said}\nthe session shows:\n{}\nhook log:\n{}",
            t.zmx.history("race"),
            t.hook_log()
        );
        let how = if race == "after" {
            "created the session"
        } else {
            "typed"
        };
        assert!(said.contains(how), "{said}");
        t.wait_resumed("race", "claude", id(&rec));
        // The user's attach and restore are both done; once no `restore` is left, nothing else can start
        // the conversation a second time.
        wait_settled(&t.rig.root, COMEBACK);
        assert_eq!(
            t.agents_running("race", "claude", id(&rec)).len(),
            1,
            "{said}"
        );
        let resumed = t
            .rig
            .payloads_of("SessionStart")
            .into_iter()
            .filter(|p| p["source"] == "resume" && p["session_id"] == id(&rec))
            .count();
        assert_eq!(
            resumed,
            round + 1,
            "the conversation resumed once more\n{said}"
        );
        let names: Vec<String> = t.zmx.list().iter().map(|r| r.name().to_string()).collect();
        assert_eq!(names, ["race"], "{said}");
    }
}
