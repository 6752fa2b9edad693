//! The process entry: std's own `main`, on every platform. Its runtime reads `argv` the way each libc
//! hands it over (glibc, musl, macOS, the BSDs), ignores SIGPIPE (a write to a closed socket or pipe is an
//! error, not death), opens a closed stdin, stdout or stderr on `/dev/null` (so that a file opened later
//! cannot take its number and receive what is printed) and flushes stdout at exit. An earlier C entry
//! (`no_main`) saved ~0.1 ms per start on glibc but saw no arguments on musl, where the hook then printed
//! clap's usage and exited 2, which Claude Code takes as "block" (ARCHITECTURE.md, "The hook's cost").

// The unwinder (panics, backtraces) linked in from gcc's static `libgcc_eh` instead of loading
// `libgcc_s.so` at every start (`build.rs` says when: Linux with glibc, the archive found).
#[cfg_attr(static_unwinder, link(name = "gcc_eh", kind = "static"))]
extern "C" {}

fn main() -> std::process::ExitCode {
    agterm_backup::main().into()
}
