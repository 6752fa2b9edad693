//! tmux end to end, with the real Claude Code and Codex offline: conversations in the panes of a user's
//! tmux (splits, several windows and sessions, a git worktree `cd`, flags, a busy pane, a pane that ran
//! claude and later codex), a reboot (`kill-server`), the layout rebuilt the way tmux-resurrect does it
//! (and once with tmuxp), and the hook line `installer apply` wrote into the user's tmux config run the
//! way resurrect runs it. Every conversation must come back in its own pane and directory, once; the
//! busy pane gets nothing; a second run types nothing more. Skipped (SKIPPED line) without the CLIs.

use crate::tmux_common;

use crate::tmux_common::{git_worktree, TmuxRig, USER_TMUX_CONF};
use agterm_backup_testkit::layout::{
    rebuild, restore_process, run_post_restore_hook, save, tmuxp_load, tmuxp_workspace,
};
use agterm_backup_testkit::settle::wait_settled;
use agterm_backup_tmux::resurrect::RESTORE_LOG;

#[test]
fn tmux_panes_come_back_resumed_after_a_reboot_and_a_resurrect_restore() {
    let Some(mut t) = TmuxRig::new(&["alpha", "beta", "repo", "gamma", "delta"]) else {
        return;
    };
    let worktree = t.dir("repo-feature");
    git_worktree(&t.dir("repo"), &worktree);
    t.rig.home.trust_claude_dir(&worktree);

    let out = t.install();
    let conf = t.tmux_conf();
    assert!(
        conf.starts_with(USER_TMUX_CONF),
        "the user's lines stay: {conf}"
    );
    assert!(
        conf.contains("@resurrect-hook-post-restore-all")
            && conf.contains("restore --terminal tmux --yes"),
        "installer apply wired the resurrect hook: {out}\n{conf}"
    );

    // The user's layout: session `work` (a split window and a second window), session `side`.
    let tmux = &t.tmux;
    tmux.ok(&[
        "new-session",
        "-d",
        "-s",
        "work",
        "-x",
        "200",
        "-y",
        "50",
        "-c",
        &t.dir("alpha").display().to_string(),
    ]);
    tmux.ok(&[
        "split-window",
        "-t",
        "work:0",
        "-c",
        &t.dir("beta").display().to_string(),
    ]);
    tmux.ok(&[
        "new-window",
        "-d",
        "-t",
        "work:1",
        "-c",
        &t.dir("repo").display().to_string(),
    ]);
    tmux.ok(&[
        "new-session",
        "-d",
        "-s",
        "side",
        "-x",
        "200",
        "-y",
        "50",
        "-c",
        &t.dir("gamma").display().to_string(),
    ]);
    tmux.ok(&[
        "split-window",
        "-t",
        "side:0",
        "-c",
        &t.dir("delta").display().to_string(),
    ]);
    for p in ["work:0.0", "work:0.1", "work:1.0", "side:0.0", "side:0.1"] {
        t.wait_prompt(p);
    }
    t.run_claude("work:0.0", "alpha question");
    t.run_codex("work:0.1", "beta question");
    t.type_line("work:1.0", "cd ../repo-feature");
    t.run_claude("work:1.0", "worktree question");
    t.run_claude("side:0.0", "gamma first");
    let gamma_claude = t.wait_record("side", 0, 0, "claude in gamma");
    t.exit_claude("side:0.0");
    t.run_codex("side:0.0", "gamma second");
    t.run_claude("side:0.1", "delta question");
    t.exit_claude("side:0.1");
    t.type_line("side:0.1", "tail -f /dev/null");

    let alpha = t.wait_record("work", 0, 0, "claude in alpha");
    let beta = t.wait_record("work", 0, 1, "codex in beta");
    let wt = t.wait_record("work", 1, 0, "claude in the worktree");
    let gamma = codex_after_claude(&t, &gamma_claude);
    assert_eq!(alpha["flags"], serde_json::json!(["--model", "sonnet"]));
    assert_eq!(wt["agent_cwd"], worktree.display().to_string());
    assert_eq!(beta["agent"], "codex");

    // The reboot, and resurrect's restore: the same names and indexes, shells in the saved dirs, `tail`
    // replayed (it is on the user's @resurrect-processes), then the post-restore hook.
    let saved = save(tmux);
    assert_eq!(saved.len(), 5, "{saved:?}");
    t.reboot();
    rebuild(tmux, &saved);
    for p in &saved {
        t.wait_prompt(&format!("{}:{}.{}", p.session, p.window, p.pane));
    }
    restore_process(tmux, "side:0.1", "tail -f /dev/null");
    run_post_restore_hook(tmux, &t.rig.root);

    t.wait_resumed("work:0.0", "claude", id(&alpha));
    t.wait_resumed("work:0.1", "codex", id(&beta));
    t.wait_resumed("work:1.0", "claude", id(&wt));
    t.wait_resumed("side:0.0", "codex", id(&gamma));
    let resumed = t.rig.wait_payload(
        tmux_common::COMEBACK,
        "claude's resumed SessionStart in the worktree",
        |p| {
            p["hook_event_name"] == "SessionStart"
                && p["source"] == "resume"
                && p["session_id"] == wt["session_id"]
        },
    );
    assert_eq!(resumed["cwd"], worktree.display().to_string());
    let resumed = t.rig.wait_payload(
        tmux_common::COMEBACK,
        "claude's resumed SessionStart in alpha",
        |p| {
            p["hook_event_name"] == "SessionStart"
                && p["source"] == "resume"
                && p["session_id"] == alpha["session_id"]
        },
    );
    assert_eq!(resumed["cwd"], t.dir("alpha").display().to_string());
    assert_eq!(
        t.any_resume_lines("side:0.1"),
        0,
        "nothing typed into the busy pane"
    );
    let resumed_panes = [
        ("work:0.0", "claude", id(&alpha)),
        ("work:0.1", "codex", id(&beta)),
        ("work:1.0", "claude", id(&wt)),
        ("side:0.0", "codex", id(&gamma)),
    ];
    for (pane, agent, id) in resumed_panes {
        assert_eq!(
            t.agents_running(pane, agent, id),
            1,
            "{pane}: {agent} {id} once"
        );
    }

    // Running the hook again types nothing more: no new agent, no line sent to a running one. (The
    // first run's `restore` is done before the counts are taken.)
    wait_settled(&t.rig.root, tmux_common::COMEBACK);
    let requests = t.model_requests();
    let starts = t.rig.payloads_of("SessionStart").len();
    let restore_log = t.rig.state_dir.join(RESTORE_LOG);
    std::fs::remove_file(&restore_log).expect("the first hook run's restore log");
    run_post_restore_hook(tmux, &t.rig.root);
    // The hook line's pipeline (`tmux-layout`, then `restore`) runs in the background: its log, once
    // every run of it is gone, says what it decided.
    wait_settled(&t.rig.root, tmux_common::COMEBACK);
    let said = std::fs::read_to_string(&restore_log).unwrap_or_else(|e| {
        panic!("{}: {e}", restore_log.display());
    });
    assert!(
        said.contains("nothing to type"),
        "the second restore:\n{said}"
    );
    for (pane, agent, id) in resumed_panes {
        assert_eq!(t.agents_running(pane, agent, id), 1, "{pane}: still once");
    }
    assert_eq!(
        t.model_requests(),
        requests,
        "nothing typed into a running agent"
    );
    assert_eq!(t.rig.payloads_of("SessionStart").len(), starts);
    assert_eq!(t.any_resume_lines("side:0.1"), 0);
    assert_eq!(t.rig.payloads_of("SessionStart").len(), starts);
}

#[test]
fn a_layout_rebuilt_by_tmuxp_gets_its_conversations_back() {
    let Some(t) = TmuxRig::new(&["one", "two"]) else {
        return;
    };
    t.install();
    let tmux = &t.tmux;
    tmux.ok(&[
        "new-session",
        "-d",
        "-s",
        "proj",
        "-x",
        "200",
        "-y",
        "50",
        "-c",
        &t.dir("one").display().to_string(),
    ]);
    tmux.ok(&[
        "split-window",
        "-t",
        "proj:0",
        "-c",
        &t.dir("two").display().to_string(),
    ]);
    t.wait_prompt("proj:0.0");
    t.wait_prompt("proj:0.1");
    t.run_claude("proj:0.0", "tmuxp one");
    t.run_codex("proj:0.1", "tmuxp two");
    let one = t.wait_record("proj", 0, 0, "claude");
    let two = t.wait_record("proj", 0, 1, "codex");
    let saved = save(tmux);
    t.reboot();
    let file = t.rig.root.join("proj.yaml");
    std::fs::write(&file, tmuxp_workspace("proj", &saved)).unwrap();
    tmuxp_load(tmux, &file);
    t.wait_prompt("proj:0.0");
    t.wait_prompt("proj:0.1");
    run_post_restore_hook(tmux, &t.rig.root);
    t.wait_resumed("proj:0.0", "claude", id(&one));
    t.wait_resumed("proj:0.1", "codex", id(&two));
    assert_eq!(t.typed_resume_lines("proj:0.0", id(&one)), 1);
    assert_eq!(t.agents_running("proj:0.0", "claude", id(&one)), 1);
    assert_eq!(t.agents_running("proj:0.1", "codex", id(&two)), 1);
}

fn id(record: &serde_json::Value) -> &str {
    record["session_id"].as_str().expect("session_id")
}

/// The codex record that replaced claude's in `side:0.0`.
fn codex_after_claude(t: &TmuxRig, claude: &serde_json::Value) -> serde_json::Value {
    agterm_backup_testkit::tmux::Tmux::wait_for(
        tmux_common::TURN,
        "codex's record in side:0.0",
        || {
            t.records().into_iter().find(|r| {
                r["tmux"]["session"] == "side"
                    && r["tmux"]["window"] == 0
                    && r["tmux"]["pane"] == 0
                    && r["agent"] == "codex"
                    && r["session_id"] != claude["session_id"]
            })
        },
    )
}
