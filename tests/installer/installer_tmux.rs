//! The tmux target through the real binary: `installer apply` adds tmux-resurrect's post-restore hook in a
//! marked block of the tmux config tmux reads, byte-preserving; real tmux reads back exactly the line we
//! meant; `remove` gives back the original bytes; `status` reports the target and warns when
//! `@resurrect-processes` would re-run an agent; a user's own hook keeps ours out of that file (left
//! untouched, with a warning) while the agents are still wired.

use crate::installer_common::*;
use std::process::Command;

const USER_CONF: &str = "# mine\r\nset -g mouse on\nbind r source-file ~/.tmux.conf \\; display 'reloaded'\nset -g @resurrect-processes 'ssh \"~claude->claude --continue\"'";

fn status(s: &Sandbox) -> serde_json::Value {
    let out = s.run(&["installer", "status", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let all: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    all["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["target"] == "tmux")
        .cloned()
        .unwrap_or_else(|| panic!("no tmux target: {all:#}"))
}

/// What a tmux server started with this config holds in `option`.
fn tmux_reads(s: &Sandbox, conf: &std::path::Path, option: &str) -> String {
    // A socket per question: a server just killed may still hold the last one.
    static ASKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = ASKED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let socket = s.dir.path().join(format!("t{n}.sock"));
    let tmux = |args: &[&str]| {
        Command::new("tmux")
            .arg("-S")
            .arg(&socket)
            .arg("-f")
            .arg(conf)
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("tmux runs")
    };
    assert!(tmux(&["new-session", "-d", "sleep 30"]).status.success());
    let out = tmux(&["show-option", "-gqv", option]);
    let _ = tmux(&["kill-server"]);
    text(&out.stdout).trim_end_matches('\n').to_string()
}

#[test]
fn apply_wires_the_resurrect_hook_tmux_reads_and_remove_gives_back_the_bytes() {
    let s = Sandbox::new();
    std::fs::write(s.tmux_conf(), USER_CONF).unwrap();
    let out = s.run(&["installer", "apply"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let applied = std::fs::read_to_string(s.tmux_conf()).unwrap();
    assert!(applied.starts_with(USER_CONF), "{applied}");
    let hook = tmux_reads(&s, &s.tmux_conf(), "@resurrect-hook-post-restore-all");
    assert_eq!(
        hook,
        agterm_backup_tmux::resurrect::hook_line(&canonical_binary().display().to_string())
    );
    assert!(
        hook.contains(&format!(
            "exec '{}' restore --terminal tmux --yes >\"$d/restore.log\"",
            canonical_binary().display()
        )),
        "{hook}"
    );
    assert_eq!(
        tmux_reads(&s, &s.tmux_conf(), "@resurrect-hook-post-save-all"),
        agterm_backup_tmux::resurrect::save_hook_line(&canonical_binary().display().to_string())
    );
    let layout_hook = tmux_reads(&s, &s.tmux_conf(), "after-kill-pane[47]");
    assert!(layout_hook.contains("tmux-layout"), "{layout_hook:?}");
    let report = status(&s);
    assert_eq!(report["state"], "present", "{report:#}");
    let warnings = report["warnings"].to_string();
    assert!(
        warnings.contains("@resurrect-processes") && warnings.contains("claude"),
        "{report:#}"
    );

    let again = s.run(&["installer", "apply"]);
    assert!(
        text(&again.stdout).contains("unchanged"),
        "{}",
        text(&again.stdout)
    );
    let out = s.run(&["installer", "remove"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(s.tmux_conf()).unwrap(), USER_CONF);
    assert_eq!(status(&s)["state"], "absent");
}

#[test]
fn the_xdg_config_tmux_reads_gets_the_block_and_a_users_own_hook_keeps_ours_out() {
    let s = Sandbox::new();
    let xdg = s.home().join(".config/tmux/tmux.conf");
    std::fs::create_dir_all(xdg.parent().unwrap()).unwrap();
    std::fs::write(&xdg, "set -g mouse on\n").unwrap();
    let out = s.run(&["installer", "apply"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        !s.tmux_conf().exists(),
        "no ~/.tmux.conf made beside the one tmux reads"
    );
    assert!(tmux_reads(&s, &xdg, "@resurrect-hook-post-restore-all").contains("--terminal tmux"));
    s.run(&["installer", "remove"]);

    // A post-restore hook the user set is theirs: the file is left alone, and said so.
    let mine = "set -g @resurrect-hook-post-restore-all 'my-restore.sh'\n";
    std::fs::write(&xdg, mine).unwrap();
    let out = s.run(&["installer", "apply"]);
    assert!(
        out.status.success(),
        "the agents are wired all the same: {}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stderr).contains("tmux.conf:1:1"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&xdg).unwrap(),
        mine,
        "left untouched"
    );
    assert!(s.claude_settings().exists());
    assert!(status(&s)["warnings"].to_string().contains("set by you"));
    s.run(&["installer", "remove"]);

    // A post-save hook of theirs stays theirs: our block goes in without ours, tmux keeps their value,
    // and `status` says what that costs.
    let mine = "set -g mouse on\nset -g @resurrect-hook-post-save-all 'save-geometry.sh'\n";
    std::fs::write(&xdg, mine).unwrap();
    let out = s.run(&["installer", "apply"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        tmux_reads(&s, &xdg, "@resurrect-hook-post-save-all"),
        "save-geometry.sh"
    );
    assert!(tmux_reads(&s, &xdg, "@resurrect-hook-post-restore-all").contains("--terminal tmux"));
    let report = status(&s);
    assert!(
        report["warnings"]
            .to_string()
            .contains("follows the last layout"),
        "{report:#}"
    );
    s.run(&["installer", "remove"]);
    assert_eq!(
        std::fs::read_to_string(&xdg).unwrap(),
        mine,
        "byte-exact remove"
    );
}
