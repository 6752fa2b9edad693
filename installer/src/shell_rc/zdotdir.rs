//! Where zsh reads `.zshrc`: `$ZDOTDIR/.zshrc`, with ZDOTDIR as zsh's own start-up files leave it. The
//! XDG layouts set it in `~/.zshenv` (`export ZDOTDIR=~/.config/zsh`), some systems in `/etc/zsh/zshenv`
//! (macOS: `/etc/zshenv`); a `~/.zshrc` written beside such a setting is never read.
//!
//! The user's zsh is asked ([`ask_zsh`]): a non-interactive `zsh -c` reads exactly the `zshenv` files an
//! interactive one reads before `.zshrc`, and reports its ZDOTDIR into a file of ours. It runs in a
//! session of its own (no terminal: nothing it prints or asks reaches the user's), its output thrown
//! away, killed with its whole process group past [`ASK_DEADLINE`]. When it cannot be asked (no zsh, too
//! slow, an `exit` in `.zshenv`), the `zshenv` files are read instead ([`from_files`]: the last
//! `ZDOTDIR=` assignment each makes, `~`, `$HOME` and `${XDG_CONFIG_HOME:-…}` expanded), with a warning.

use super::scan::scan;
use crate::lookup::Lookup;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long zsh may take to read its `zshenv` files.
pub const ASK_DEADLINE: Duration = Duration::from_secs(3);

/// The environment variable naming the file zsh writes its answer to.
const ANSWER_VAR: &str = "AGTERM_BACKUP_ZDOTDIR_ANSWER";

/// zsh's folder for `.zshrc`, how we know, and what could not be asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZshDir {
    pub dir: PathBuf,
    pub how: String,
    pub warning: Option<String>,
}

/// The folder `zsh` (a path or a name on `PATH`) reads `.zshrc` from, started with `start` as its
/// environment's ZDOTDIR.
pub fn zsh_dir(lookup: &dyn Lookup, zsh: &str, start: Option<&str>) -> Result<ZshDir, String> {
    let home = lookup
        .env("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or("HOME is not set; set HOME")?;
    let start = start.filter(|s| !s.is_empty());
    match lookup.zsh_zdotdir(zsh, start) {
        Ok(answer) => {
            let answer = answer.filter(|d| !d.is_empty());
            let how = match &answer {
                Some(dir) => format!("ZDOTDIR={dir}, as {zsh}'s start-up files set it"),
                None => format!("{zsh}'s start-up files set no ZDOTDIR"),
            };
            Ok(ZshDir {
                dir: answer.map_or(home, PathBuf::from),
                how,
                warning: None,
            })
        }
        Err(why) => {
            let (dir, how) = from_files(lookup, &home, start);
            let warning = format!(
                "could not ask {zsh} where it reads .zshrc ({why}); read its start-up files instead: {how}"
            );
            Ok(ZshDir {
                dir,
                how,
                warning: Some(warning),
            })
        }
    }
}

/// ZDOTDIR as zsh's `zshenv` files set it, read without running them: `<etc>/zshenv` and
/// `<etc>/zsh/zshenv`, then `${ZDOTDIR:-$HOME}/.zshenv`.
pub fn from_files(lookup: &dyn Lookup, home: &Path, start: Option<&str>) -> (PathBuf, String) {
    let mut dir = start.map(String::from);
    let mut how = match start {
        Some(d) => format!("ZDOTDIR={d} from the environment"),
        None => "no ZDOTDIR set".to_string(),
    };
    let etc = lookup.etc();
    let mut read = |file: PathBuf, dir: &mut Option<String>| {
        let Some(value) = lookup.read(&file).as_deref().and_then(last_zdotdir) else {
            return;
        };
        match expand(&value, lookup, home, dir.as_deref()) {
            Some(d) => {
                how = format!("ZDOTDIR={d} set in {}", file.display());
                *dir = Some(d);
            }
            None => {
                how = format!(
                    "{} sets ZDOTDIR={value}, which cannot be known without running it; assumed {}",
                    file.display(),
                    dir.as_deref().unwrap_or("unset")
                )
            }
        }
    };
    read(etc.join("zshenv"), &mut dir);
    read(etc.join("zsh/zshenv"), &mut dir);
    let user = dir.clone().map_or(home.to_path_buf(), PathBuf::from);
    read(user.join(".zshenv"), &mut dir);
    let dir = dir
        .filter(|d| !d.is_empty())
        .map_or(home.to_path_buf(), PathBuf::from);
    (dir, how)
}

/// The value of the last `ZDOTDIR=` assignment in a zsh start-up file (outside function bodies is not
/// told apart: a `zshenv` rarely defines functions), as written.
pub fn last_zdotdir(text: &str) -> Option<String> {
    let scanned = scan(text, false).ok()?;
    scanned
        .assigns
        .into_iter()
        .rev()
        .find(|a| a.name == "ZDOTDIR")
        .map(|a| a.value)
}

/// `value` (an unquoted assignment) with `~`, `$NAME`, `${NAME}`, `${NAME:-default}` and `${NAME-default}`
/// expanded (`HOME` as `home`, `ZDOTDIR` as `zdotdir`, others from the environment); `None` when it
/// needs a command run or is not an absolute path.
pub fn expand(
    value: &str,
    lookup: &dyn Lookup,
    home: &Path,
    zdotdir: Option<&str>,
) -> Option<String> {
    if value.contains("$(") || value.contains('`') {
        return None;
    }
    let var = |name: &str| -> Option<String> {
        match name {
            "HOME" => Some(home.display().to_string()),
            "ZDOTDIR" => zdotdir.map(String::from),
            _ => lookup.env(name),
        }
    };
    let mut out = String::new();
    let mut rest = value;
    if rest == "~" || rest.starts_with("~/") {
        out.push_str(&home.display().to_string());
        rest = &rest[1..];
    }
    while let Some(pos) = rest.find('$') {
        out.push_str(&rest[..pos]);
        rest = &rest[pos + 1..];
        if let Some(inner) = rest.strip_prefix('{') {
            let end = closing_brace(inner)?;
            let body = &inner[..end];
            rest = &inner[end + 1..];
            let name_len = body
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(body.len());
            let (name, op) = body.split_at(name_len);
            let set = var(name);
            let value = match op {
                "" => set.unwrap_or_default(),
                _ if op.starts_with(":-") => match set.filter(|v| !v.is_empty()) {
                    Some(v) => v,
                    None => expand(&op[2..], lookup, home, zdotdir)?,
                },
                _ if op.starts_with('-') => match set {
                    Some(v) => v,
                    None => expand(&op[1..], lookup, home, zdotdir)?,
                },
                _ => return None,
            };
            out.push_str(&value);
        } else {
            let len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            if len == 0 {
                return None;
            }
            out.push_str(&var(&rest[..len]).unwrap_or_default());
            rest = &rest[len..];
        }
    }
    out.push_str(rest);
    let out = out.trim_end_matches('/').to_string();
    out.starts_with('/').then_some(out)
}

fn closing_brace(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return Some(i),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Asks `zsh` for its ZDOTDIR after its `zshenv` files (see the module docs): `Ok(None)` when unset.
pub fn ask_zsh(zsh: &str, start: Option<&str>) -> Result<Option<String>, String> {
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    let answer = std::env::temp_dir().join(format!(
        "agterm-backup-zdotdir-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&answer)
        .map_err(|e| format!("{}: {e}", answer.display()))?;
    let mut cmd = Command::new(zsh);
    cmd.args([
        "-c",
        &format!("print -rn -- \"zdotdir:${{ZDOTDIR-}}\" >| \"${ANSWER_VAR}\""),
    ])
    .env(ANSWER_VAR, &answer)
    .stdin(Stdio::null())
    .stdout(Stdio::null())
    .stderr(Stdio::null());
    match start {
        Some(dir) => cmd.env("ZDOTDIR", dir),
        None => cmd.env_remove("ZDOTDIR"),
    };
    // SAFETY: setsid is async-signal-safe; nothing else runs between fork and exec. A session of its
    // own: zsh has no controlling terminal to print to or read from, and its group can be killed.
    unsafe {
        cmd.pre_exec(|| {
            nix::unistd::setsid().map_err(std::io::Error::from)?;
            Ok(())
        });
    }
    let result = run_to_deadline(cmd, zsh).and_then(|()| {
        let said = std::fs::read_to_string(&answer).unwrap_or_default();
        said.strip_prefix("zdotdir:")
            .map(|d| Some(d.to_string()).filter(|d| !d.is_empty()))
            .ok_or_else(|| format!("{zsh} stopped before it ran our question (an `exit` or `exec` in a zshenv file?)"))
    });
    let _ = std::fs::remove_file(&answer);
    result
}

fn run_to_deadline(mut cmd: std::process::Command, zsh: &str) -> Result<(), String> {
    let mut child = cmd.spawn().map_err(|e| format!("{zsh}: {e}"))?;
    let deadline = Instant::now() + ASK_DEADLINE;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => return Ok(()),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
            _ => {
                let group = nix::unistd::Pid::from_raw(-(child.id() as i32));
                let _ = nix::sys::signal::kill(group, nix::sys::signal::Signal::SIGKILL);
                let _ = child.wait();
                return Err(format!(
                    "{zsh} took longer than {} s to read its start-up files",
                    ASK_DEADLINE.as_secs()
                ));
            }
        }
    }
}

/// [`ask_zsh`], asked once per zsh and start for this process (`apply` looks at the files more than once).
pub fn ask_zsh_once(zsh: &str, start: Option<&str>) -> Result<Option<String>, String> {
    type Answers =
        std::collections::HashMap<(String, Option<String>), Result<Option<String>, String>>;
    static ANSWERS: std::sync::Mutex<Option<Answers>> = std::sync::Mutex::new(None);
    let key = (zsh.to_string(), start.map(String::from));
    if let Some(known) = ANSWERS
        .lock()
        .ok()
        .and_then(|a| a.as_ref()?.get(&key).cloned())
    {
        return known;
    }
    let answer = ask_zsh(zsh, start);
    if let Ok(mut answers) = ANSWERS.lock() {
        answers
            .get_or_insert_with(Default::default)
            .insert(key, answer.clone());
    }
    answer
}
