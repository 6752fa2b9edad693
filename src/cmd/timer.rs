//! `agterm-backup timer install|status|uninstall`: `snap` on a schedule (launchd / systemd user timer).

use crate::cli::{TimerAction, TimerArgs};
use crate::{CliError, CliResult};
use agterm_backup_core::printable::{printable_bytes, printable_lines, printable_path};
use agterm_backup_core::state::StateDir;
use agterm_backup_restore::timer::{
    install, resolve_binary, uninstall, unit_files, unit_paths, Platform, SystemRunner, TimerSpec,
    UNIT,
};
use std::path::{Path, PathBuf};

pub fn run(args: TimerArgs) -> CliResult {
    if args.every == 0 {
        return Err(CliError::refused(
            "--every 0: the interval must be at least 1 second",
        ));
    }
    let home = std::env::var("HOME")
        .ok()
        .filter(|h| !h.is_empty())
        .ok_or_else(|| CliError::failure("HOME is not set: cannot find where user timers live"))?;
    let home = Path::new(&home);
    let platform = Platform::current();
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let paths = unit_paths(platform, home, xdg.as_deref());
    let uid = nix_uid();
    match args.action {
        TimerAction::Install => {
            let exe = std::env::current_exe()
                .map_err(|e| CliError::failure(format!("cannot find the running binary: {e}")))?;
            // `$TMPDIR` (or /tmp): a binary there is gone after the next reboot or cleanup.
            let temps = [std::env::temp_dir()];
            let binary = resolve_binary(&exe, &temps).map_err(CliError::refused)?;
            // Our state folder, then what locates each terminal's instance (the rows'), as set now.
            let vars = std::iter::once("AGTERM_BACKUP_HOME")
                .chain(agterm_backup_terminals::command_line::instance_vars());
            let env: Vec<(String, String)> = vars
                .filter_map(|k| {
                    std::env::var(k)
                        .ok()
                        .filter(|v| !v.is_empty())
                        .map(|v| (k.to_string(), v))
                })
                .collect();
            let spec = TimerSpec {
                binary,
                every_secs: args.every,
                env,
            };
            let log = StateDir::from_env()
                .map_or_else(|| home.join(".agterm-backup"), |s| s.root().to_path_buf())
                .join("timer.log");
            let files = unit_files(platform, &spec, &paths, &log);
            let done = install(platform, &files, uid, &SystemRunner).map_err(CliError::failure)?;
            for d in done {
                println!("{}", printable_lines(&d));
            }
            println!("snap runs every {} seconds", args.every);
            Ok(())
        }
        TimerAction::Uninstall => {
            let done =
                uninstall(platform, &paths, uid, &SystemRunner).map_err(CliError::failure)?;
            if done.iter().all(|d| d.starts_with("note:")) {
                println!("no timer was installed");
            }
            for d in done {
                println!("{}", printable_lines(&d));
            }
            Ok(())
        }
        TimerAction::Status => {
            for p in &paths {
                let state = if p.exists() { "present" } else { "absent" };
                println!("{state:<8} {}", printable_path(p));
                if let (true, Ok(text)) = (p.exists(), std::fs::read_to_string(p)) {
                    for l in text.lines().filter(|l| {
                        l.starts_with("ExecStart=")
                            || l.starts_with("OnUnitActiveSec=")
                            || l.contains("<integer>")
                    }) {
                        println!("         {}", printable_lines(l.trim()));
                    }
                }
            }
            if platform == Platform::Systemd {
                let active = std::process::Command::new("systemctl")
                    .args(["--user", "is-active", &format!("{UNIT}.timer")])
                    .output();
                match active {
                    Ok(o) if !o.stdout.trim_ascii().is_empty() => {
                        println!("systemd: {}", printable_bytes(o.stdout.trim_ascii()))
                    }
                    // No state on stdout: systemctl could not reach the user's systemd (no session bus
                    // outside a login session, say) and said why on stderr.
                    Ok(o) => println!(
                        "systemd: cannot ask `systemctl --user`: {}",
                        printable_bytes(
                            o.stderr
                                .split(|&b| b == b'\n')
                                .next()
                                .filter(|l| !l.trim_ascii().is_empty())
                                .unwrap_or(b"no answer")
                                .trim_ascii()
                        )
                    ),
                    Err(e) => println!("systemd: cannot run systemctl ({e})"),
                }
            }
            Ok(())
        }
    }
}

fn nix_uid() -> u32 {
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe { libc::getuid() }
}
