//! Which rc files take our block: those the user's login shell reads when it starts interactively.
//!
//! - The login shell: `$SHELL`, else the password database ([`Lookup::login_shell`]).
//! - zsh: `${ZDOTDIR:-$HOME}/.zshrc` (every interactive zsh reads it, login shell or not).
//! - bash: `~/.bashrc`, which only a non-login interactive bash reads. A login bash (every terminal on
//!   macOS, tmux's panes, agterm's) reads the first of `~/.bash_profile`, `~/.bash_login`, `~/.profile`
//!   and not `~/.bashrc`; when that file does not source `~/.bashrc` ([`sources_bashrc`]) it takes the
//!   block too, and when none of the three exists a new `~/.bash_profile` does (bash then reads it where it
//!   read nothing). A profile that sources `~/.bashrc` gets nothing: the snippet would run twice.
//! - fish: `${XDG_CONFIG_HOME:-~/.config}/fish/config.fish`.
//!
//! `remove` and `status` look in every one of these files ([`candidates`]): the login shell may have
//! changed since `apply`.

use super::{has_ours, RcFile, Shell};
use crate::engine::{Target, TargetKind};
use crate::paths::Lookup;
use std::path::{Path, PathBuf};

pub const ZSHRC: RcFile = rc(Shell::Zsh, ".zshrc");
pub const BASHRC: RcFile = rc(Shell::Bash, ".bashrc");
pub const FISH_CONFIG: RcFile = rc(Shell::Fish, "config.fish");
/// The files a login bash reads, in its order: it reads the first that exists and no other.
pub const BASH_LOGIN: [RcFile; 3] = [
    rc(Shell::Bash, ".bash_profile"),
    rc(Shell::Bash, ".bash_login"),
    RcFile {
        shell: Shell::Bash,
        name: ".profile",
        read_by_sh: true,
    },
];

const fn rc(shell: Shell, name: &'static str) -> RcFile {
    RcFile {
        shell,
        name,
        read_by_sh: false,
    }
}

fn non_empty(lookup: &dyn Lookup, key: &str) -> Option<PathBuf> {
    lookup.env(key).filter(|v| !v.is_empty()).map(PathBuf::from)
}

fn home(lookup: &dyn Lookup) -> Result<PathBuf, String> {
    non_empty(lookup, "HOME").ok_or_else(|| "HOME is not set; set HOME".to_string())
}

/// The login shell's path: `$SHELL`, else the password database's entry for this user.
pub fn login_shell(lookup: &dyn Lookup) -> Option<String> {
    lookup
        .env("SHELL")
        .filter(|s| !s.is_empty())
        .or_else(|| lookup.login_shell())
}

fn zshrc(lookup: &dyn Lookup) -> Result<PathBuf, String> {
    let dir = non_empty(lookup, "ZDOTDIR").map_or_else(|| home(lookup), Ok)?;
    Ok(dir.join(".zshrc"))
}

fn fish_config(lookup: &dyn Lookup) -> Result<PathBuf, String> {
    let config = non_empty(lookup, "XDG_CONFIG_HOME")
        .map_or_else(|| home(lookup).map(|h| h.join(".config")), Ok)?;
    Ok(config.join("fish/config.fish"))
}

/// The files of `shell` that take our block (see the module docs).
pub fn rc_files(shell: Shell, lookup: &dyn Lookup) -> Result<Vec<(RcFile, PathBuf)>, String> {
    Ok(match shell {
        Shell::Zsh => vec![(ZSHRC, zshrc(lookup)?)],
        Shell::Fish => vec![(FISH_CONFIG, fish_config(lookup)?)],
        Shell::Bash => {
            let home = home(lookup)?;
            let mut out = vec![(BASHRC, home.join(BASHRC.name))];
            let login = BASH_LOGIN
                .into_iter()
                .find(|f| lookup.exists(&home.join(f.name)))
                .unwrap_or(BASH_LOGIN[0]);
            let text = lookup.read(&home.join(login.name)).unwrap_or_default();
            if !sources_bashrc(&text, |name| lookup.read(&home.join(name))) {
                out.push((login, home.join(login.name)));
            }
            out
        }
    })
}

/// Every file any shell of ours may hold our block in.
pub fn candidates(lookup: &dyn Lookup) -> Vec<(RcFile, PathBuf)> {
    let mut out = Vec::new();
    if let Ok(home) = home(lookup) {
        out.push((ZSHRC, home.join(ZSHRC.name)));
        out.push((BASHRC, home.join(BASHRC.name)));
        out.extend(BASH_LOGIN.map(|f| (f, home.join(f.name))));
    }
    out.extend(zshrc(lookup).ok().map(|p| (ZSHRC, p)));
    out.extend(fish_config(lookup).ok().map(|p| (FISH_CONFIG, p)));
    let mut seen = Vec::new();
    out.retain(|(_, p)| {
        let new = !seen.contains(p);
        seen.push(p.clone());
        new
    });
    out
}

/// The target for `rc` at `path`, wired to `binary`.
pub fn target(rc: RcFile, path: PathBuf, binary: &Path) -> Target {
    Target {
        kind: TargetKind::ShellRc(rc),
        path,
        command: binary.display().to_string(),
    }
}

/// The login shell's targets, or why it has none (no login shell known, one we do not wire).
pub fn login_targets(lookup: &dyn Lookup, binary: &Path) -> Result<Vec<Target>, String> {
    let path = login_shell(lookup).ok_or_else(|| {
        "no login shell known ($SHELL is not set and the password database has none for you); set SHELL \
         and run again"
            .to_string()
    })?;
    let shell = Shell::of_login(&path)?;
    Ok(rc_files(shell, lookup)?
        .into_iter()
        .map(|(rc, p)| target(rc, p, binary))
        .collect())
}

/// The candidate files that hold a marker of ours, as targets.
pub fn holders(lookup: &dyn Lookup, binary: &Path) -> Vec<Target> {
    candidates(lookup)
        .into_iter()
        .filter(|(_, p)| lookup.read(p).is_some_and(|t| has_ours(&t)))
        .map(|(rc, p)| target(rc, p, binary))
        .collect()
}

/// Whether a login bash that reads `profile` reads `~/.bashrc` through it: a `.` or `source` of a path
/// ending in `.bashrc`, in `profile` or in the `~/.profile` or `~/.bash_login` it sources in turn
/// (`read` gives a file of the home folder by name). Comment lines and our block do not count.
pub fn sources_bashrc(profile: &str, read: impl Fn(&str) -> Option<String>) -> bool {
    let sourced = sourced_paths(profile);
    sourced.iter().any(|p| p.ends_with(".bashrc"))
        || sourced
            .iter()
            .filter_map(|p| {
                [".profile", ".bash_login"]
                    .into_iter()
                    .find(|n| p.ends_with(n))
            })
            .filter_map(read)
            .any(|text| sourced_paths(&text).iter().any(|p| p.ends_with(".bashrc")))
}

/// The words after each `.` or `source` command in `text`, unquoted, outside comments and our block.
fn sourced_paths(text: &str) -> Vec<String> {
    let block = super::block_range(text).ok().flatten().unwrap_or(0..0);
    let mut out = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let here = offset;
        offset += line.len();
        let code = line.trim();
        if block.contains(&here) || code.starts_with('#') {
            continue;
        }
        let words: Vec<String> = code
            .split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | '(' | ')'))
            .filter(|w| !w.is_empty())
            .map(|w| w.replace(['"', '\''], ""))
            .collect();
        for pair in words.windows(2) {
            if pair[0] == "." || pair[0] == "source" {
                out.push(pair[1].clone());
            }
        }
    }
    out
}
