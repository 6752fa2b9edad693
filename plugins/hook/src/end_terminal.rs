//! At `SessionEnd` only: is the agent's controlling terminal still there? An agent exiting because its
//! pty hung up (the pane closed, the terminal quit, a reboot took the daemon) has lost it — the kernel's
//! hangup clears the session's terminal before the agent's exit handlers run its hooks — while one the
//! user quit still sits in its pane. The hook runs in the agent's session, so opening `/dev/tty` asks
//! exactly that: one `open(2)`, no process walk (the hook's budget is about a process start).

use agterm_backup_core::record::EndTerminal;
use nix::errno::Errno;
use nix::fcntl::{open, OFlag};
use nix::sys::stat::Mode;

/// The controlling terminal of this process's session: `Gone` when the kernel says there is none or
/// it hung up (`ENXIO`, `EIO`), `Present` when it opens, `None` for any other answer (unknown).
pub fn probe() -> Option<EndTerminal> {
    let flags = OFlag::O_RDWR | OFlag::O_NOCTTY | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC;
    match open("/dev/tty", flags, Mode::empty()) {
        Ok(fd) => {
            drop(fd);
            Some(EndTerminal::Present)
        }
        Err(Errno::ENXIO | Errno::EIO) => Some(EndTerminal::Gone),
        Err(_) => None,
    }
}
