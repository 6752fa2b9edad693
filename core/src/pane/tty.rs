//! Which terminal device a process is on: the proof that a shell is the pane it claims to be. A shell
//! that inherited a pane's environment (VS Code started from a pane, a second terminal app, `screen`
//! inside a pane) carries the pane's variables but sits on another tty; a pane's own shell sits on the
//! pane's tty (as its terminal reports it: the terminal's crate asks).

use std::path::Path;

/// The device number of `pid`'s controlling terminal, `None` without one (or unreadable). On Linux
/// `/proc/<pid>/stat`'s `tty_nr`; elsewhere [`controlling_ttys`]'s `ps` row and the device's `st_rdev`.
pub fn controlling_tty(pid: u32) -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        parse_tty_nr(&stat)
    }
    #[cfg(not(target_os = "linux"))]
    {
        controlling_ttys(&[pid]).pop().flatten()
    }
}

/// The terminal this process runs on: its controlling terminal, else (under a shell started by `setsid`,
/// whose descriptors are still on the terminal) the device of its stdin.
pub fn own_terminal() -> Option<u64> {
    controlling_tty(std::process::id()).or_else(|| device_of(Path::new("/dev/stdin")))
}

/// The controlling terminal of each of `pids`, in their order (see [`controlling_tty`]); one `ps` run
/// for all of them where `/proc` is missing.
pub fn controlling_ttys(pids: &[u32]) -> Vec<Option<u64>> {
    #[cfg(target_os = "linux")]
    {
        pids.iter().map(|pid| controlling_tty(*pid)).collect()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let list: Vec<String> = pids.iter().map(u32::to_string).collect();
        let out = std::process::Command::new("ps")
            .args(["-o", "pid=,tty=", "-p", &list.join(",")])
            .stderr(std::process::Stdio::null())
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        let names = parse_ps_ttys(&out);
        pids.iter()
            .map(|pid| {
                let name = names.iter().find(|(p, _)| p == pid)?.1.as_str();
                device_of(&Path::new("/dev").join(name))
            })
            .collect()
    }
}

/// `ps -o pid=,tty=` lines: (pid, terminal name), without the rows of processes with no terminal
/// (`?`, `??`).
pub fn parse_ps_ttys(out: &str) -> Vec<(u32, String)> {
    out.lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let pid = words.next()?.parse().ok()?;
            let name = words.next()?;
            (!name.starts_with('?')).then(|| (pid, name.to_string()))
        })
        .collect()
}

/// The device number a terminal device file stands for (`st_rdev`), as [`controlling_tty`] reports it.
pub fn device_of(path: &Path) -> Option<u64> {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let meta = std::fs::metadata(path).ok()?;
    meta.file_type().is_char_device().then(|| meta.rdev())
}

/// Field 7 of `/proc/<pid>/stat` (`tty_nr`), in `st_rdev`'s encoding; `0` (no terminal) is `None`.
pub fn parse_tty_nr(stat: &str) -> Option<u64> {
    let nr = raw_tty_nr(stat)?;
    (nr > 0).then(|| linux_rdev(nr as u64))
}

/// Field 7 of `/proc/<pid>/stat` as the kernel writes it (`0`: no controlling terminal); `None` when the
/// line is not a stat line. The command name in parentheses may hold spaces and `)`.
pub fn raw_tty_nr(stat: &str) -> Option<i64> {
    let after_comm = &stat[stat.rfind(')')? + 1..];
    after_comm.split_whitespace().nth(4)?.parse().ok()
}

/// `tty_nr` packs the device as the kernel's `new_encode_dev`: minor low 8 bits, major bits 8–19, the
/// rest of the minor above; `st_rdev` (glibc's `makedev`) packs it differently, so both are decoded.
fn linux_rdev(nr: u64) -> u64 {
    let major = (nr >> 8) & 0xfff;
    let minor = (nr & 0xff) | ((nr >> 12) & 0xfff00);
    // glibc's gnu_dev_makedev.
    (minor & 0xff) | ((major & 0xfff) << 8) | ((minor & !0xff) << 12) | ((major & !0xfff) << 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ps_rows_name_each_pids_terminal_and_skip_the_ones_without() {
        // `ps -o pid=,tty= -p 501,77,1` on macOS: a pane's shell and login, and launchd.
        let out = "  501 ttys003\n   77 ttys003\n    1 ??\n";
        assert_eq!(
            parse_ps_ttys(out),
            [(501, "ttys003".to_string()), (77, "ttys003".to_string())]
        );
        assert!(parse_ps_ttys("").is_empty());
    }

    #[test]
    fn tty_nr_is_field_seven_after_the_command_name() {
        // pts/3 is major 136, minor 3: tty_nr 34819.
        let stat = "123 (a (b) c) S 1 123 123 34819 123 4194560 0 0";
        assert_eq!(parse_tty_nr(stat), Some(linux_rdev(34819)));
        assert_eq!(parse_tty_nr("5 (x) S 1 5 5 0 -1 0"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_process_on_a_tty_matches_its_device_file() {
        // Our own controlling terminal, when the test runs on one.
        let Some(own) = controlling_tty(std::process::id()) else {
            return;
        };
        let Ok(path) = std::fs::read_link("/proc/self/fd/0") else {
            return;
        };
        if let Some(dev) = device_of(&path).filter(|_| path.starts_with("/dev/pts")) {
            assert_eq!(own, dev, "{path:?}");
        }
    }
}
