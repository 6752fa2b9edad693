//! The fake zmx's text formats against the cases zmx's own tests pin (`util.zig`, `main.zig`,
//! `label.zig` at ea45749), and `parse_row` as the inverse of the row format.

use agterm_backup_testkit::fake_zmx::attach::parse_attach_args;
use agterm_backup_testkit::fake_zmx::daemon::task_exit_code;
use agterm_backup_testkit::fake_zmx::format::*;
use proptest::prelude::*;
use std::collections::BTreeMap;

fn dev(clients: u64) -> Entry {
    Entry::Live {
        name: "dev".into(),
        info: Info {
            pid: 123,
            clients,
            ..Info::default()
        },
    }
}

#[test]
fn rows_match_write_session_line() {
    // util.zig "writeSessionLine formats output for current session and short output".
    let e = dev(2);
    let row = |cur| session_line(&e, false, cur).unwrap();
    assert_eq!(row("dev"), "→ name=dev\tpid=123\tclients=2\tcreated=0\n");
    assert_eq!(row("other"), "  name=dev\tpid=123\tclients=2\tcreated=0\n");
    assert_eq!(
        row(""),
        "  name=dev\tpid=123\tclients=2\tcreated=0\n",
        "ZMX_SESSION unset"
    );
    assert_eq!(session_line(&e, true, "dev").unwrap(), "dev\n");
    let full = Entry::Live {
        name: "w".into(),
        info: Info {
            pid: 9,
            created: 1_700_000_000,
            cwd: Some("file://h/x".into()),
            cmd: Some("sleep 1".into()),
            task_ended_at: 1_700_000_005,
            task_exit_code: 3,
            labels: BTreeMap::from([("b".into(), "2".into()), ("a".into(), "1".into())]),
            ..Info::default()
        },
    };
    assert_eq!(
        session_line(&full, false, "").unwrap(),
        "  name=w\tpid=9\tclients=0\tcreated=1700000000\tcwd=file://h/x\tcmd=sleep 1\t\
         ended=1700000005\texit_code=3\ta=1\tb=2\n"
    );
    let stale = Entry::Error {
        name: "s".into(),
        err: "ConnectionRefused".into(),
    };
    assert_eq!(
        session_line(&stale, false, "s").unwrap(),
        "→ name=s\terr=ConnectionRefused\tstatus=cleaning up\n"
    );
    let busy = Entry::Error {
        name: "s".into(),
        err: "Timeout".into(),
    };
    assert_eq!(
        session_line(&busy, false, "").unwrap(),
        "  name=s\terr=Timeout\tstatus=unreachable\n"
    );
    assert_eq!(
        session_line(&busy, true, ""),
        None,
        "--short skips error rows"
    );
}

#[test]
fn cmd_is_quoted_where_needed_and_cut_at_256_bytes() {
    let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        cmd_field(&args(&["claude", "--resume", "abc"])),
        "claude --resume abc"
    );
    assert_eq!(cmd_field(&args(&["sh", "-c", "a b", ""])), "sh -c 'a b' ''");
    assert_eq!(cmd_field(&args(&["echo", "it's"])), "echo 'it'\\''s'");
    let long = cmd_field(&args(&["x", &"y".repeat(300)]));
    assert_eq!(long, "x...", "an argument that does not fit ends it");
    let many: Vec<String> = (0..100).map(|i| format!("a{i}")).collect();
    let cut = cmd_field(&many);
    assert!(cut.len() <= MAX_FIELD_LEN && cut.ends_with("..."), "{cut}");
}

#[test]
fn cwd_is_osc7_with_the_host_and_percent_encoding() {
    assert_eq!(
        osc7_cwd("/home/me/a dir", "box"),
        "file://box/home/me/a%20dir"
    );
    assert_eq!(osc7_cwd("/x/100%/é", "h"), "file://h/x/100%25/%C3%A9");
    assert_eq!(osc7_cwd("/a-b_c.d~/:@", "h"), "file://h/a-b_c.d~/:@");
    assert_eq!(
        reported_cwd("/tmp/p q", "h").as_deref(),
        Some("file://h/tmp/p%20q")
    );
    let remote = "file://some-remote-box/home/me";
    assert_eq!(
        reported_cwd(remote, "h").as_deref(),
        Some(remote),
        "kept as sent"
    );
    assert_eq!(
        reported_cwd("kitty-shell-cwd://h/x", "h").as_deref(),
        Some("kitty-shell-cwd://h/x")
    );
    assert_eq!(reported_cwd("http://h/x", "h"), None);
    assert_eq!(reported_cwd("relative", "h"), None);
    let long = reported_cwd(&format!("/{}", "d".repeat(400)), "h").unwrap();
    assert_eq!(long.len(), MAX_FIELD_LEN);
}

#[test]
fn labels_follow_label_zig() {
    assert_eq!(label_error("key.key_key-key", ""), None);
    assert_eq!(
        label_error("", "v").unwrap(),
        "error: label key cannot be empty"
    );
    for reserved in ["name", "start_dir", "cmd"] {
        let want = format!("error: \"{reserved}\" is a read-only built-in field");
        assert_eq!(label_error(reserved, "dev").unwrap(), want);
    }
    let bad_key = label_error("key:key", "").unwrap();
    assert!(bad_key.ends_with("characters: key=[key:key]"), "{bad_key}");
    let bad_value = label_error("k", "value/value").unwrap();
    assert!(bad_value.ends_with(": value=[value/value]"), "{bad_value}");
    let pairs = label_pairs("env=prd status=done project=zmx");
    assert_eq!(pairs[2], ("project".into(), "zmx".into()));
    assert_eq!(
        label_pairs("a= b=2 junk"),
        [("a".into(), "".into()), ("b".into(), "2".into())]
    );
    let map = BTreeMap::from([("z".into(), "1".into()), ("a".into(), "2".into())]);
    assert_eq!(labels_text(&map), "a=2 z=1");
}

#[test]
fn attach_flags_come_only_before_the_name() {
    // main.zig's parseAttachArgs tests.
    let a = |v: &[&str]| parse_attach_args(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(
        (a(&["dev"]).name, a(&["dev"]).command.len()),
        ("dev".into(), 0)
    );
    assert_eq!(a(&["dev", "vim", "-n"]).command, ["vim", "-n"]);
    assert!(a(&["--help"]).want_help && a(&["--labels", "a=1", "-h"]).want_help);
    assert!(
        !a(&["dev", "-h"]).want_help,
        "after the name -h is the command's"
    );
    for form in [
        &["--labels", "a=1 b=2", "build"][..],
        &["--labels=a=1 b=2", "build"],
    ] {
        let p = a(form);
        assert_eq!(
            (p.labels.as_deref(), p.name.as_str()),
            (Some("a=1 b=2"), "build")
        );
    }
    let p = a(&["--labels", "a=1", "build", "make", "--labels"]);
    assert_eq!(p.command, ["make", "--labels"]);
    assert!(a(&["--labels"]).missing_labels_value);
}

#[test]
fn the_task_marker_skips_the_echoed_command() {
    let m = "ZMX_TASK_COMPLETED:ab12:";
    let screen = format!("$ sh -c 'exit 3'; echo {m}$?\r\n{m}3\r\n$ ");
    assert_eq!(task_exit_code(&screen, m), Some(3));
    assert_eq!(task_exit_code(&format!("echo {m}$?"), m), None);
    assert_eq!(
        task_exit_code("ZMX_TASK_COMPLETED:ffff:0\n", m),
        None,
        "another task's id"
    );
}

fn field() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 ./:%'-]{0,20}"
}

proptest! {
    /// Whatever a daemon reports, `parse_row` reads back the row `list` printed.
    #[test]
    fn parse_row_reads_back_every_row(
        name in "[a-z0-9._-]{1,12}",
        pid in 1i32..1_000_000,
        clients in 0u64..5,
        created in 0u64..4_000_000_000,
        cwd in proptest::option::of(field()),
        cmd in proptest::option::of(field()),
        current in any::<bool>(),
    ) {
        let info = Info { pid, clients, created, cwd: cwd.clone(), cmd: cmd.clone(), ..Info::default() };
        let entry = Entry::Live { name: name.clone(), info };
        let current_name = if current { name.clone() } else { String::new() };
        let line = session_line(&entry, false, &current_name).unwrap();
        let row = parse_row(line.trim_end_matches('\n')).unwrap();
        prop_assert_eq!(row.current, current);
        prop_assert_eq!(row.name(), name.as_str());
        prop_assert_eq!(row.pid(), Some(pid as u32));
        let clients = clients.to_string();
        prop_assert_eq!(row.get("clients"), Some(clients.as_str()));
        prop_assert_eq!(row.get("cwd"), cwd.as_deref());
        prop_assert_eq!(row.get("cmd"), cmd.as_deref());
    }
}
