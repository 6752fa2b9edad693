use super::*;
use crate::record::tests::{key_of, parse_sample_key, sample};
use crate::state::StateDir;
use std::os::unix::fs::symlink;

/// A pid that surely belonged to a process that is gone now.
fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[test]
fn temp_names_of_both_writers_are_parsed() {
    assert_eq!(temp_writer(".x.json.123.456.tmp"), Some(("x.json", 123)));
    assert_eq!(temp_writer("abc.tmp77"), Some(("abc", 77)));
    for not_ours in [
        "x.json",
        ".x.json",
        ".x.json.12.tmp",
        "x.tmp",
        "a.tmp5.json",
        ".lock",
    ] {
        assert_eq!(temp_writer(not_ours), None, "{not_ours}");
    }
}

#[test]
fn dead_writers_temps_go_and_live_ones_stay() {
    let dir = tempfile::tempdir().unwrap();
    let dead = dead_pid();
    let gone = dir.path().join(format!(".p.json.{dead}.5.tmp"));
    let gone_old_style = dir.path().join(format!("layout.tmp{dead}"));
    // Beside a named file only `write_atomic`'s dot-names go: this one may be a user's.
    let not_dotted = dir.path().join(format!("p.json.tmp{dead}"));
    let other_file = dir.path().join(format!(".q.json.{dead}.5.tmp"));
    // pid 1 is alive (and not ours to signal: EPERM says alive too).
    let live = dir.path().join(".p.json.1.5.tmp");
    let mine = dir
        .path()
        .join(format!(".p.json.{}.5.tmp", std::process::id()));
    for p in [
        &gone,
        &gone_old_style,
        &other_file,
        &live,
        &mine,
        &not_dotted,
    ] {
        fs::write(p, b"half").unwrap();
    }
    assert_eq!(sweep_dead_temps(dir.path(), Some("p.json")), 1);
    assert!(!gone.exists() && live.exists() && mine.exists() && other_file.exists());
    assert!(not_dotted.exists());
    assert_eq!(sweep_dead_temps(dir.path(), None), 3);
    assert!(!other_file.exists() && !gone_old_style.exists() && live.exists());
}

#[test]
fn the_next_atomic_write_of_a_file_sweeps_its_dead_writers_temps() {
    let dir = tempfile::tempdir().unwrap();
    let s = StateDir::at(dir.path());
    s.ensure().unwrap();
    let r = sample();
    let key = key_of(&r);
    let litter = s
        .live_dir()
        .join(format!(".{key}.json.{}.42.tmp", dead_pid()));
    fs::write(&litter, b"{\"v\":").unwrap();
    s.write_record(&key_of(&r), &r).unwrap();
    assert!(!litter.exists());
    let left: Vec<_> = fs::read_dir(s.live_dir()).unwrap().flatten().collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

#[test]
fn appends_and_locks_refuse_a_link_and_name_it() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    fs::write(&victim, b"mine").unwrap();
    let link = dir.path().join("link");
    symlink(&victim, &link).unwrap();
    type Open = fn(&Path) -> io::Result<File>;
    let opens: [(&str, Open); 4] = [
        ("append", open_append),
        ("lock", open_lock),
        ("existing", open_existing),
        ("read", open_read),
    ];
    for (what, open) in opens {
        let e = open(&link).unwrap_err();
        assert!(is_symlink_refusal(&e), "{what}: {e}");
        assert!(e.to_string().contains("link"), "{what}: {e}");
    }
    assert!(touch(&link).is_err());
    assert!(create_new(&link, 0o600).is_err());
    assert_eq!(fs::read(&victim).unwrap(), b"mine");
}

#[test]
fn a_linked_live_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = dir.path().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    let s = StateDir::at(dir.path().join("st"));
    fs::create_dir(s.root()).unwrap();
    symlink(&elsewhere, s.live_dir()).unwrap();
    let e = s.ensure().unwrap_err();
    assert!(is_symlink_refusal(&e), "{e}");
}

#[test]
fn every_broken_record_and_journal_is_named_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let s = StateDir::at(dir.path());
    s.ensure().unwrap();
    let good = sample();
    let whole = serde_json::to_vec(&good).unwrap();
    let victim = dir.path().join("victim.json");
    fs::write(&victim, &whole).unwrap();
    type Make<'a> = Box<dyn Fn(&Path) + 'a>;
    let cases: Vec<(&str, Make<'_>, &str)> = vec![
        (
            "truncated",
            Box::new(|p| fs::write(p, &whole[..20]).unwrap()),
            "truncated",
        ),
        (
            "garbage",
            Box::new(|p| fs::write(p, b"\x00\xffhello").unwrap()),
            "not JSON",
        ),
        (
            "not a record",
            Box::new(|p| fs::write(p, b"{\"a\":1}").unwrap()),
            "not a record",
        ),
        ("empty", Box::new(|p| fs::write(p, b"").unwrap()), "empty"),
        (
            "directory",
            Box::new(|p| fs::create_dir(p).unwrap()),
            "directory",
        ),
        (
            "symlink",
            Box::new(|p| symlink(&victim, p).unwrap()),
            "symbolic link",
        ),
    ];
    for (i, (name, make, says)) in cases.iter().enumerate() {
        let mut r = good.clone();
        r.agterm_session = format!("6B1E0C2A-AAAA-BBBB-CCCC-0000000000{i:02}");
        let key = key_of(&r);
        make(&s.record_path(&key));
        make(&s.journal_path(&key));
        let broken = s.broken_files(&parse_sample_key);
        let mine: Vec<_> = broken
            .iter()
            .filter(|b| b.pane == key.to_string())
            .collect();
        assert_eq!(mine.len(), 2, "{name}: {broken:?}");
        for b in mine {
            assert!(b.reason.contains(says), "{name}: {b:?}");
        }
        assert_eq!(s.read_record(&key), None, "{name}");
    }
    // A good record, and a journal with one torn line among good ones.
    let key = key_of(&good);
    s.write_record(&key_of(&good), &good).unwrap();
    s.append_journal(&key_of(&good), &good).unwrap();
    crate::state::append_line(&s.journal_path(&key), b"{\"v\":1,\"ag").unwrap();
    crate::state::append_line(&s.journal_path(&key), b"\n").unwrap();
    s.append_journal(&key_of(&good), &good).unwrap();
    let broken: Vec<_> = s
        .broken_files(&parse_sample_key)
        .into_iter()
        .filter(|b| b.pane == key.to_string())
        .collect();
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert_eq!(broken[0].kind, crate::state::FileKind::Journal);
    assert!(broken[0].reason.contains("1 of 3 lines"), "{broken:?}");
}
