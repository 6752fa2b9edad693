//! The process entry. `main` is the C entry point itself (`no_main`): the hook runs on every tool call of
//! every agent, and Rust's runtime set-up before `main` (the main thread's stack bounds parsed from
//! `/proc/self/maps`, a signal stack mapped for the stack-overflow message, ~15 system calls) cost about
//! as much as the rest of the binary's start (ARCHITECTURE.md, "The hook's cost"). What of that set-up
//! this program relies on is done here: SIGPIPE ignored (a write to a closed socket or pipe is an error,
//! not death), the standard descriptors open, stdout flushed at exit. A stack overflow is a plain SIGSEGV.
#![no_main]

// The unwinder (panics, backtraces) linked in from gcc's static `libgcc_eh` instead of loading
// `libgcc_s.so` at every start (`build.rs` says when: Linux with glibc, the archive found).
#[cfg_attr(static_unwinder, link(name = "gcc_eh", kind = "static"))]
extern "C" {}

use std::io::Write;

#[no_mangle]
pub extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    // SAFETY: setting a signal's disposition to ignore, before any other thread exists.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    open_standard_descriptors();
    // The exit code std's runtime gives a panic out of `main` (release builds abort instead).
    let code = std::panic::catch_unwind(agterm_backup::main).unwrap_or(101);
    let _ = std::io::stdout().flush();
    code.into()
}

/// A closed stdin, stdout or stderr is opened on `/dev/null`, so that a file opened later cannot take
/// its number and receive what is printed (std's runtime does the same).
fn open_standard_descriptors() {
    let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    // SAFETY: three valid pollfds; a zero timeout.
    if unsafe { libc::poll(fds.as_mut_ptr(), 3, 0) } < 0 {
        return;
    }
    for fd in fds.iter().filter(|p| p.revents & libc::POLLNVAL != 0) {
        // SAFETY: a NUL-terminated path; the lowest free descriptor is the closed one.
        let opened = unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) };
        debug_assert!(opened < 0 || opened == fd.fd);
    }
}
