//! Upgrades keep working: a state directory exactly as the previous release wrote it
//! (`tests/corpus/state-today/`, see its README) still restores with this one, and this release's hook
//! carries on over it — a failed pin the old release left is retried at once, and a SessionEnd of the
//! user's marks the pane `ended`. Against the fake agterm (real socket, real shells).

use crate::restore_support::{text, Env, DENYLIST};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::slug::claude_project_slug;
use agterm_backup_core::terminal::RestoreMode;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

const LEFT_ID: &str = "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b";
const RIGHT_ID: &str = "5d1f0a2e-1111-4222-8333-944455556666";

/// Copies the corpus into the state dir with the placeholders filled in for this machine and `session`.
fn install_today_state(env: &Env, session: &str, left: &str, right: &str) {
    let home = env.home.path().display().to_string();
    let work = env.home.path().join("work/api");
    std::fs::create_dir_all(&work).unwrap();
    let slug = claude_project_slug(&work.display().to_string());
    let corpus =
        agterm_backup_testkit::paths::workspace_root().join("tests/corpus/state-today/live");
    let live = env.state().root().join("live");
    env.state().ensure().unwrap();
    std::fs::create_dir_all(&live).unwrap();
    for entry in std::fs::read_dir(&corpus).unwrap().flatten() {
        let name = entry
            .file_name()
            .to_string_lossy()
            .replace("SESSION", session);
        let body = std::fs::read_to_string(entry.path())
            .unwrap()
            .replace("@SESSION@", session)
            .replace("@PANE_LEFT@", left)
            .replace("@PANE_RIGHT@", right)
            .replace("@SLUG@", &slug)
            .replace("@HOME@", &home);
        std::fs::write(live.join(name), body).unwrap();
    }
    let transcripts = env.home.path().join(".claude/projects").join(&slug);
    std::fs::create_dir_all(&transcripts).unwrap();
    for id in [LEFT_ID, RIGHT_ID] {
        std::fs::write(transcripts.join(format!("{id}.jsonl")), "{}\n").unwrap();
    }
}

/// Runs this release's `hook claude` with `payload` as the pane's agent would.
fn hook(env: &Env, session: &str, role: &str, token: &str, payload: &str) {
    let socket = env.fake.socket().display().to_string();
    let pane = [
        ("AGTERM_SESSION_ID", session.to_string()),
        ("AGTERM_PANE", role.to_string()),
        ("AGTERM_PANE_ID", token.to_string()),
        ("AGTERM_SOCKET", socket),
    ];
    hook_in(env, &pane, payload);
}

/// Runs this release's `hook claude` with `payload` in the terminal pane `pane_env` names.
fn hook_in(env: &Env, pane_env: &[(&str, String)], payload: &str) {
    let mut child = Command::new(agterm_backup_testkit::agterm_backup_bin!())
        .args(["hook", "claude"])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", env.home.path())
        .env("AGTERM_BACKUP_HOME", env.state().root())
        .envs(pane_env.iter().map(|(k, v)| (k, v)))
        .env("CLAUDE_CODE_ENTRYPOINT", "cli")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success() && out.stdout.is_empty() && out.stderr.is_empty());
}

/// [`hook`] for a `SessionEnd` the user caused: the agent that sends it still sits in its pane, so the
/// hook's parent (standing in for the agent) has a terminal — a pty of util-linux `script` — whatever
/// terminal this test runs under (none in CI).
fn hook_ended_in_its_pane(env: &Env, session: &str, role: &str, token: &str, payload: &str) {
    let file = env.home.path().join(format!("payload-{role}.json"));
    std::fs::write(&file, payload).unwrap();
    let line = format!(
        "'{}' hook claude < '{}'",
        agterm_backup_testkit::agterm_backup_bin!(),
        file.display()
    );
    let out = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", env.home.path())
        .env("AGTERM_BACKUP_HOME", env.state().root())
        .env("AGTERM_SESSION_ID", session)
        .env("AGTERM_PANE", role)
        .env("AGTERM_PANE_ID", token)
        .env("AGTERM_SOCKET", env.fake.socket())
        .env("CLAUDE_CODE_ENTRYPOINT", "cli")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
}

fn rows(env: &Env) -> Vec<Value> {
    let (out, plan) = env.restore_json(&["--dry-run"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    plan["rows"].as_array().unwrap().clone()
}

fn row<'a>(rows: &'a [Value], role: &str) -> &'a Value {
    rows.iter().find(|r| r["role"] == role).unwrap()
}

#[test]
fn the_previous_releases_state_restores_and_the_new_hook_carries_on_over_it() {
    let env = Env::new("0.34", RestoreMode::None, Some(DENYLIST), false);
    let s = env.fake.add_session(None, None, env.home.path(), true);
    let left = env.fake.pane_token(&s.id, PaneRole::Left);
    let right = env.fake.pane_token(&s.id, PaneRole::Right);
    install_today_state(&env, &s.id, &left, &right);

    let before = rows(&env);
    assert_eq!(before.len(), 2, "{before:#?}");
    for (role, id) in [("left", LEFT_ID), ("right", RIGHT_ID)] {
        let r = row(&before, role);
        assert_eq!(
            r["action"], "type",
            "{role}: a record without an end is not ended: {r:#}"
        );
        assert!(r["line"].as_str().unwrap().contains(id), "{r:#}");
    }

    let transcript = |id: &str| {
        let slug = claude_project_slug(&env.home.path().join("work/api").display().to_string());
        env.home
            .path()
            .join(format!(".claude/projects/{slug}/{id}.jsonl"))
            .display()
            .to_string()
    };
    let cwd = env.home.path().join("work/api").display().to_string();
    let payload = |id: &str, event: &str, extra: &str| {
        format!(
            r#"{{"session_id":"{id}","transcript_path":"{}","cwd":"{cwd}","hook_event_name":"{event}"{extra}}}"#,
            transcript(id)
        )
    };
    // The old release left `"pin": "error"` with no backoff state: pinned at the next event.
    hook(
        &env,
        &s.id,
        "right",
        &right,
        &payload(RIGHT_ID, "PreToolUse", ""),
    );
    let pin = env.fake.pin(&s.id, PaneRole::Right);
    assert!(
        pin.as_deref().is_some_and(|l| l.contains(RIGHT_ID)),
        "{pin:?}"
    );
    // The user quits the left pane's conversation.
    hook_ended_in_its_pane(
        &env,
        &s.id,
        "left",
        &left,
        &payload(LEFT_ID, "SessionEnd", r#","reason":"prompt_input_exit""#),
    );
    let after = rows(&env);
    assert_eq!(row(&after, "left")["reason"], "ended", "{after:#?}");
    assert_eq!(row(&after, "right")["action"], "type", "{after:#?}");
    assert!(Path::new(&env.state().root().join("live")).is_dir());
    assert!(env.fake.typed_log().is_empty(), "dry runs type nothing");
}

/// Runs this release's `hook claude` from pane `pane` (`%N`) of the tmux server `tmux`.
fn hook_in_tmux(env: &Env, tmux: &agterm_backup_testkit::tmux::Tmux, pane: &str, payload: &str) {
    let pid = tmux.ok(&["display-message", "-p", "#{pid}"]);
    let pane_env = [
        ("TMUX", format!("{},{pid},0", tmux.socket().display())),
        ("TMUX_PANE", pane.to_string()),
    ];
    hook_in(env, &pane_env, payload);
}

#[test]
fn the_previous_releases_state_restores_beside_tmux_records_and_each_terminal_gets_its_own() {
    let env = Env::new("0.34", RestoreMode::None, Some(DENYLIST), false);
    let s = env.fake.add_session(None, None, env.home.path(), true);
    let left = env.fake.pane_token(&s.id, PaneRole::Left);
    let right = env.fake.pane_token(&s.id, PaneRole::Right);
    install_today_state(&env, &s.id, &left, &right);
    let agterm_only = rows(&env);

    // A tmux pane's conversation, recorded by this release, then its server "rebooted" (a new server
    // on the same socket, the layout rebuilt: session `work`, a shell in the saved directory).
    let tmux = agterm_backup_testkit::tmux::Tmux::new(env.home.path().join("t.sock"));
    let work = env.home.path().join("work/api");
    let pane = tmux.spawn("work", &work, &[], &["sleep", "600"]);
    let id = "0c4d5e6f-7a8b-4c9d-8e0f-a1b2c3d4e5f6";
    let slug = claude_project_slug(&work.display().to_string());
    let transcript = env
        .home
        .path()
        .join(format!(".claude/projects/{slug}/{id}.jsonl"));
    std::fs::write(&transcript, "{}\n").unwrap();
    let payload = format!(
        r#"{{"session_id":"{id}","transcript_path":"{}","cwd":"{}","hook_event_name":"SessionStart"}}"#,
        transcript.display(),
        work.display()
    );
    // The hook gives each question to tmux 500 ms (it never holds the agent up): on a loaded machine
    // the pane's name can miss that, and the record then comes with the agent's next event.
    let recorded = || live_files_naming(&env, id) > 0;
    for _ in 0..10 {
        hook_in_tmux(&env, &tmux, &pane, &payload);
        if recorded() {
            break;
        }
    }
    assert!(
        recorded(),
        "no record of the tmux pane after 10 events; log:\n{}",
        std::fs::read_to_string(env.state().log_path()).unwrap_or_default()
    );
    tmux.kill_server();
    // The new server's start (whole seconds) is the cutoff: it must be a later second than the record's.
    agterm_backup_testkit::clock::wait_past_second(std::time::SystemTime::now());
    let shell = ["/bin/bash", "--noprofile", "--norc", "-i"];
    let prompt = [("PS1".to_string(), "pane$ ".to_string())];
    let pane = tmux.spawn("work", &work, &prompt, &shell);
    wait_prompt(&tmux, &pane);

    // Named: agterm alone, exactly as before there were tmux records.
    let (out, plan) = env.restore_json(&["--dry-run", "--terminal", "agterm"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(plan["rows"], Value::from(agterm_only.clone()));
    // Unnamed: every terminal with records, each its own plan, the old agterm rows unchanged.
    let (out, plans) = env.restore_json(&["--dry-run"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let plans = plans
        .as_array()
        .unwrap_or_else(|| panic!("one plan per terminal: {plans:#}"));
    assert_eq!(plans.len(), 2, "{plans:#?}");
    assert_eq!(plans[0]["rows"], Value::from(agterm_only));
    let tmux_rows = plans[1]["rows"].as_array().unwrap();
    assert_eq!(tmux_rows.len(), 1, "{tmux_rows:#?}");
    assert_eq!(tmux_rows[0]["action"], "type", "{tmux_rows:#?}");
    assert!(tmux_rows[0]["line"].as_str().unwrap().contains(id));
    assert!(env.fake.typed_log().is_empty(), "dry runs type nothing");
}

/// How many files of the state's live folder name conversation `id`.
fn live_files_naming(env: &Env, id: &str) -> usize {
    std::fs::read_dir(env.state().live_dir())
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains(id)))
        .count()
}

fn wait_prompt(tmux: &agterm_backup_testkit::tmux::Tmux, pane: &str) {
    agterm_backup_testkit::tmux::Tmux::wait_for(
        std::time::Duration::from_secs(10),
        "the rebuilt pane's prompt",
        || tmux.capture(pane, false).contains("pane$").then_some(()),
    );
}
