//! The release route: `packaging/release.sh` makes the tarball the Homebrew formula names, and the
//! formula passes the rules `brew audit` applies to its text and runs only commands that work.
//! (A real Homebrew install, upgrade and --HEAD build: `packaging/check-homebrew-linux.sh`.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The tests archive HEAD, so they need the git checkout the suite is run from.
fn in_git_checkout() -> bool {
    let inside = Command::new("git")
        .args(["rev-parse", "--is-inside-work-tree"])
        .current_dir(repo())
        .output()
        .is_ok_and(|o| o.status.success());
    if !inside {
        eprintln!("SKIPPED: not a git checkout, release.sh archives git HEAD");
    }
    inside
}

fn release(out: &Path, version: &str) -> Output {
    Command::new(repo().join("packaging/release.sh"))
        .args(["--out"])
        .arg(out)
        .args([
            "--base-url",
            "file:///srv/release",
            "--ref",
            "HEAD",
            version,
        ])
        .output()
        .unwrap()
}

fn sha256_of(path: &Path) -> String {
    let out = Command::new("sha256sum")
        .arg(path)
        .output()
        .or_else(|_| {
            Command::new("shasum")
                .args(["-a", "256"])
                .arg(path)
                .output()
        })
        .unwrap();
    String::from_utf8(out.stdout).unwrap()[..64].to_owned()
}

fn formula_at_head() -> String {
    let out = Command::new("git")
        .args(["show", "HEAD:packaging/agterm-backup.rb"])
        .current_dir(repo())
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn release_script_writes_a_reproducible_tarball_and_a_formula_that_names_it() {
    if !in_git_checkout() {
        return;
    }
    let dir = agterm_backup_testkit::scratch::tempdir();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for out in [&a, &b] {
        let run = release(out, VERSION);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    let name = format!("agterm-backup-{VERSION}");
    let tarball = a.join(format!("v{VERSION}/{name}.tar.gz"));
    let bytes = std::fs::read(&tarball).unwrap();
    assert_eq!(
        bytes,
        std::fs::read(b.join(format!("v{VERSION}/{name}.tar.gz"))).unwrap(),
        "two runs gave different tarballs: the published checksum would not be reproducible"
    );

    let formula = std::fs::read_to_string(a.join("agterm-backup.rb")).unwrap();
    let url = format!("  url \"file:///srv/release/v{VERSION}/{name}.tar.gz\"");
    let sha = format!("  sha256 \"{}\"", sha256_of(&tarball));
    let original = formula_at_head();
    assert_eq!(formula.lines().count(), original.lines().count());
    for (got, was) in formula.lines().zip(original.lines()) {
        if was.starts_with("  url \"") {
            assert_eq!(got, url);
        } else if was.starts_with("  sha256 \"") {
            assert_eq!(got, sha);
        } else {
            assert_eq!(got, was, "release.sh changed a line besides url and sha256");
        }
    }

    let listing = Command::new("tar")
        .arg("tzf")
        .arg(&tarball)
        .output()
        .unwrap();
    let listing = String::from_utf8(listing.stdout).unwrap();
    for needed in ["Cargo.toml", "Cargo.lock", "src/main.rs", "core/Cargo.toml"] {
        assert!(
            listing.lines().any(|l| l == format!("{name}/{needed}")),
            "tarball lacks {needed}"
        );
    }
    assert!(listing.lines().all(|l| l.starts_with(&format!("{name}/"))));
    assert!(!listing.contains(&format!("{name}/target/")));
}

#[test]
fn release_script_refuses_a_version_cargo_toml_does_not_say() {
    if !in_git_checkout() {
        return;
    }
    let dir = agterm_backup_testkit::scratch::tempdir();
    let out = dir.path().join("dist");
    let wrong = release(&out, "9.9.9");
    assert_eq!(wrong.status.code(), Some(1));
    let err = String::from_utf8_lossy(&wrong.stderr);
    assert!(
        err.contains(&format!("says version {VERSION}, not 9.9.9")),
        "{err}"
    );
    let bad = release(&out, "v1");
    assert_eq!(bad.status.code(), Some(2));
    assert!(!out.exists(), "a refused release wrote files");
}

/// The quoted strings of a Ruby call's argument list, e.g. `"a", "b"` → [a, b].
fn quoted(args: &str) -> Vec<String> {
    args.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

#[test]
fn formula_desc_passes_brew_audit_rules() {
    let formula = std::fs::read_to_string(repo().join("packaging/agterm-backup.rb")).unwrap();
    let desc_line = formula
        .lines()
        .find(|l| l.starts_with("  desc \""))
        .unwrap();
    let desc = &quoted(desc_line)[0];
    // Homebrew's rubocops/shared/desc_helper.rb.
    assert!(
        desc.chars().count() <= 80,
        "desc is {} characters",
        desc.len()
    );
    assert!(desc.starts_with(|c: char| c.is_ascii_uppercase()));
    assert!(!desc.ends_with('.') && desc.trim() == desc);
    let first = desc.split_whitespace().next().unwrap().to_lowercase();
    assert!(!["a", "an", "the"].contains(&first.as_str()));
    assert!(
        !first.starts_with("agterm-backup") && !desc.to_lowercase().starts_with("agterm backup")
    );
    let ruby = Command::new("ruby")
        .arg("-c")
        .arg(repo().join("packaging/agterm-backup.rb"))
        .output();
    let ruby = ruby.expect("ruby is needed for this test: run tests/install-deps.sh");
    assert!(
        ruby.status.success(),
        "{}",
        String::from_utf8_lossy(&ruby.stderr)
    );
}

#[test]
fn formula_test_block_commands_hold_for_this_binary() {
    let formula = std::fs::read_to_string(repo().join("packaging/agterm-backup.rb")).unwrap();
    let test_block = &formula[formula.find("  test do").expect("formula has a test block")..];
    let home = agterm_backup_testkit::scratch::tempdir();
    let bin = || {
        let mut c = Command::new(agterm_backup_testkit::agterm_backup_bin!());
        c.env("HOME", home.path()).env_remove("AGTERM_SOCKET");
        c.env_remove("AGTERM_PANE_ID")
            .env_remove("AGTERM_STATE_DIR");
        c
    };

    let version = bin().arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&version.stdout).contains(VERSION));

    // pipe_output("#{bin}/agterm-backup hook claude", "{}") must print nothing.
    let pipe = test_block
        .lines()
        .find(|l| l.contains("pipe_output("))
        .unwrap();
    let words = pipe
        .split("agterm-backup ")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    let mut hook = bin()
        .args(words.split_whitespace())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    // Outside agterm the hook may be gone before it reads its payload (it has nothing to record): a
    // closed pipe is that race, not a failure; the hook's exit status and silence are what this checks.
    let written = hook
        .stdin
        .take()
        .unwrap()
        .write_all(quoted(pipe).last().unwrap().as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let hook = hook.wait_with_output().unwrap();
    assert!(hook.status.success() && hook.stdout.is_empty());

    // system bin/"agterm-backup", "installer", … then settings.json names the hook.
    let system = test_block
        .lines()
        .find(|l| l.contains("system bin/"))
        .unwrap();
    let args = quoted(system.split("bin/\"agterm-backup\",").nth(1).unwrap());
    let apply = bin().args(&args).output().unwrap();
    assert!(
        apply.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&apply.stderr)
    );
    let settings = std::fs::read_to_string(home.path().join(".claude/settings.json")).unwrap();
    assert!(settings.contains("hook claude"));
}
