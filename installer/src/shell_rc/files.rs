//! Which rc files take our block: those the user's login shell reads when it starts interactively, and
//! those of every shell an `exec` in them starts ([`wiring`]: a `.bashrc` ending in `exec zsh`).
//!
//! - The login shell: `$SHELL`, else the password database ([`Lookup::login_shell`]).
//! - zsh: `$ZDOTDIR/.zshrc` with ZDOTDIR as zsh's own start-up files set it, else `~/.zshrc` (every
//!   interactive zsh reads it, login shell or not; [`super::zdotdir`] asks the user's zsh).
//! - bash: `~/.bashrc`, which only a non-login interactive bash reads. A login bash (every terminal on
//!   macOS, a multiplexer's panes, a terminal's that starts login shells) reads the first of `~/.bash_profile`, `~/.bash_login`, `~/.profile`
//!   and not `~/.bashrc`; when that file does not source `~/.bashrc` ([`sources_bashrc`]) it takes the
//!   block too, and when none of the three exists a new `~/.bash_profile` does (bash then reads it where it
//!   read nothing). A profile that sources `~/.bashrc` gets nothing: the snippet would run twice.
//! - fish: `${XDG_CONFIG_HOME:-~/.config}/fish/config.fish`.
//!
//! - A file with an `exec` of another shell (`exec zsh`, `[ -x /bin/fish ] && exec fish`, `exec "$SHELL"`
//!   after `export SHELL=…`): our block goes before the `exec` ([`super::exec`]), and the shell it starts
//!   gets its own files (zsh with the ZDOTDIR the file exported before the `exec`).
//!
//! `remove` and `status` look in every one of these files ([`candidates`]): the login shell may have
//! changed since `apply`, an earlier release may have written `~/.zshrc` where ZDOTDIR points elsewhere.

use super::zdotdir::{self, ZshDir};
use super::{exec, has_ours, RcFile, Shell};
use crate::lookup::Lookup;
use crate::target::{Target, TargetKind};
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

/// The zsh `program` (a path, or a name on `PATH`) started with `start` as its environment's ZDOTDIR.
fn zsh_dir(lookup: &dyn Lookup, program: &str, start: Option<&str>) -> Result<ZshDir, String> {
    zdotdir::zsh_dir(lookup, program, start)
}

/// The zsh to ask: the login shell when it is one, else `zsh` on `PATH`.
fn zsh_program(lookup: &dyn Lookup) -> String {
    login_shell(lookup)
        .filter(|s| Shell::of_login(s) == Ok(Shell::Zsh))
        .unwrap_or_else(|| "zsh".into())
}

fn fish_config(lookup: &dyn Lookup) -> Result<PathBuf, String> {
    let config = non_empty(lookup, "XDG_CONFIG_HOME")
        .map_or_else(|| home(lookup).map(|h| h.join(".config")), Ok)?;
    Ok(config.join("fish/config.fish"))
}

/// A file a shell of the user's reads, and how we know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wired {
    pub rc: RcFile,
    pub path: PathBuf,
    pub how: String,
}

/// The files that take our block, and what could not be found out for sure (said by `apply` and `status`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Wiring {
    pub files: Vec<Wired>,
    pub warnings: Vec<String>,
}

/// The files of `shell` started as `program` (zsh: with `zdotdir` as its environment's ZDOTDIR) that
/// take our block (see the module docs), with how we know.
pub fn shell_files(
    shell: Shell,
    program: &str,
    zdotdir: Option<&str>,
    lookup: &dyn Lookup,
    warnings: &mut Vec<String>,
) -> Result<Vec<(RcFile, PathBuf, String)>, String> {
    Ok(match shell {
        Shell::Zsh => {
            let dir = zsh_dir(lookup, program, zdotdir)?;
            warnings.extend(dir.warning);
            vec![(ZSHRC, dir.dir.join(ZSHRC.name), dir.how)]
        }
        Shell::Fish => vec![(FISH_CONFIG, fish_config(lookup)?, "fish's config".into())],
        Shell::Bash => {
            let home = home(lookup)?;
            let mut out = vec![(
                BASHRC,
                home.join(BASHRC.name),
                "every interactive bash".into(),
            )];
            let login = BASH_LOGIN
                .into_iter()
                .find(|f| lookup.exists(&home.join(f.name)))
                .unwrap_or(BASH_LOGIN[0]);
            let text = lookup.read(&home.join(login.name)).unwrap_or_default();
            if !sources_bashrc(&text, |name| lookup.read(&home.join(name))) {
                let how = "a login bash, which does not read ~/.bashrc through it".into();
                out.push((login, home.join(login.name), how));
            }
            out
        }
    })
}

/// The files of `shell` (as the login shell would start it) that take our block.
pub fn rc_files(shell: Shell, lookup: &dyn Lookup) -> Result<Vec<(RcFile, PathBuf)>, String> {
    let program = login_shell(lookup)
        .filter(|s| Shell::of_login(s) == Ok(shell))
        .unwrap_or_else(|| shell.name().into());
    let zdotdir = lookup.env("ZDOTDIR");
    let files = shell_files(shell, &program, zdotdir.as_deref(), lookup, &mut Vec::new())?;
    Ok(files.into_iter().map(|(rc, p, _)| (rc, p)).collect())
}

/// The login shell's files, then those of each shell an `exec` in them starts, in turn.
pub fn wiring(lookup: &dyn Lookup) -> Result<Wiring, String> {
    let path = login_shell(lookup).ok_or_else(|| {
        "no login shell known ($SHELL is not set and the password database has none for you); set SHELL \
         and run again"
            .to_string()
    })?;
    let shell = Shell::of_login(&path)?;
    let env_shell = lookup.env("SHELL").filter(|s| !s.is_empty());
    let home = home(lookup)?;
    let mut out = Wiring::default();
    let mut queue = vec![(shell, path, lookup.env("ZDOTDIR"), String::new())];
    let mut seen = Vec::new();
    while let Some((shell, program, zdotdir, started)) = queue.pop() {
        if seen.contains(&shell) {
            continue;
        }
        seen.push(shell);
        let zdotdir = zdotdir.filter(|d| !d.is_empty());
        let files = shell_files(
            shell,
            &program,
            zdotdir.as_deref(),
            lookup,
            &mut out.warnings,
        )?;
        for (rc, path, how) in files {
            let exec = lookup
                .read(&path)
                .and_then(|t| exec::first(rc, &t).ok().flatten());
            if let Some(exec) = exec {
                if let Some((next, program)) = exec.shell(env_shell.as_deref()) {
                    let exported = exec
                        .assigned("ZDOTDIR")
                        .and_then(|v| zdotdir::expand(v, lookup, &home, zdotdir.as_deref()));
                    let how = format!("started by `{}` in {}", exec.command, path.display());
                    queue.insert(0, (next, program, exported.or(lookup.env("ZDOTDIR")), how));
                }
            }
            let how = if started.is_empty() {
                how
            } else {
                format!("{started}; {how}")
            };
            out.files.push(Wired { rc, path, how });
        }
    }
    Ok(out)
}

/// The files `shell` reads when it starts interactively, whether or not they take our block (bash's
/// login file that sources `~/.bashrc` included): a block elsewhere is never run by it.
pub fn read_by(shell: Shell, lookup: &dyn Lookup) -> Vec<PathBuf> {
    let Ok(home) = home(lookup) else {
        return Vec::new();
    };
    match shell {
        Shell::Zsh => {
            let zdotdir = lookup.env("ZDOTDIR").filter(|d| !d.is_empty());
            let dir = zsh_dir(lookup, &zsh_program(lookup), zdotdir.as_deref());
            dir.map(|d| vec![d.dir.join(ZSHRC.name)])
                .unwrap_or_default()
        }
        Shell::Fish => fish_config(lookup).into_iter().collect(),
        Shell::Bash => {
            let login = BASH_LOGIN
                .into_iter()
                .find(|f| lookup.exists(&home.join(f.name)));
            let mut out = vec![home.join(BASHRC.name)];
            out.extend(login.map(|f| home.join(f.name)));
            out
        }
    }
}

/// Whether a shell reads `path` (holding our block for `rc`) as set up now: `Ok(how)` when it does,
/// else the warning `status` gives.
pub fn who_reads(
    lookup: &dyn Lookup,
    wiring: &Wiring,
    rc: RcFile,
    path: &Path,
) -> Result<String, String> {
    if let Some(w) = wiring.files.iter().find(|w| w.path == path) {
        return Ok(format!("{}: {}", w.rc.shell.name(), w.how));
    }
    let wired: Vec<PathBuf> = wiring
        .files
        .iter()
        .filter(|w| w.rc.shell == rc.shell)
        .map(|w| w.path.clone())
        .collect();
    let mut reads = read_by(rc.shell, lookup);
    if reads.iter().any(|p| p == path) {
        return Ok(format!("{} (not a shell you log in with)", rc.shell.name()));
    }
    if !wired.is_empty() {
        reads = wired;
    }
    let shown: Vec<String> = reads.iter().map(|p| p.display().to_string()).collect();
    Err(format!(
        "{} never reads this file: it reads {}; run `agterm-backup installer apply --shell` to move our \
         block there, or `agterm-backup installer remove` to take it out",
        rc.shell.name(),
        shown.join(" and ")
    ))
}

/// Every file any shell of ours may hold our block in: the home folder's, zsh's `$ZDOTDIR` (as zsh and
/// the environment set it, and the XDG folder `~/.config/zsh`), fish's, and every file [`wiring`] gives.
pub fn candidates(lookup: &dyn Lookup) -> Vec<(RcFile, PathBuf)> {
    let mut out = Vec::new();
    if let Ok(home) = home(lookup) {
        out.push((ZSHRC, home.join(ZSHRC.name)));
        out.push((BASHRC, home.join(BASHRC.name)));
        out.extend(BASH_LOGIN.map(|f| (f, home.join(f.name))));
        out.push((ZSHRC, home.join(".config/zsh").join(ZSHRC.name)));
    }
    if let Some(dir) = non_empty(lookup, "ZDOTDIR") {
        out.push((ZSHRC, dir.join(ZSHRC.name)));
    }
    if let Some(config) = non_empty(lookup, "XDG_CONFIG_HOME") {
        out.push((ZSHRC, config.join("zsh").join(ZSHRC.name)));
    }
    out.extend(read_by(Shell::Zsh, lookup).into_iter().map(|p| (ZSHRC, p)));
    out.extend(fish_config(lookup).ok().map(|p| (FISH_CONFIG, p)));
    if let Ok(wiring) = wiring(lookup) {
        out.extend(wiring.files.into_iter().map(|w| (w.rc, w.path)));
    }
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

/// The targets of [`wiring`], with its warnings, or why there are none (no login shell known, one we
/// do not wire).
pub fn wired_targets(
    lookup: &dyn Lookup,
    binary: &Path,
) -> Result<(Vec<Target>, Vec<String>), String> {
    let wiring = wiring(lookup)?;
    let targets = wiring
        .files
        .into_iter()
        .map(|w| target(w.rc, w.path, binary))
        .collect();
    Ok((targets, wiring.warnings))
}

/// The targets of [`wiring`].
pub fn login_targets(lookup: &dyn Lookup, binary: &Path) -> Result<Vec<Target>, String> {
    wired_targets(lookup, binary).map(|(targets, _)| targets)
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
