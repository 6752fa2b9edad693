//! Link settings of the `agterm-backup` binary (`cargo install --path .` builds it with them too). The
//! hook runs on every tool call of every agent and parses JSON an attacker can shape (tool inputs, file
//! names), so the binary is hardened first and fast second (ARCHITECTURE.md, "The hook's cost"):
//!
//! - Hardened on Linux, whatever the libc: a position-independent executable (rustc's default, glibc and
//!   static musl alike), full RELRO (`-z relro -z now`: the GOT read-only once the loader is done) and a
//!   non-executable stack (`-z noexecstack`). rustc passes these by default; they are spelled out here so
//!   that a toolchain or target whose defaults differ cannot drop them, and the ELF check
//!   (`tests/hook/binary_hardening.rs`) fails the build's tests when one is lost.
//! - Relative relocations packed (`-z pack-relative-relocs`, DT_RELR) where the linker and glibc take
//!   them (probed): the 342 KB relocation table becomes 4 KB, which the loader no longer reads and maps
//!   at every start (about 1 MiB less peak RSS; the start's time is the same).
//! - The unwinder from gcc's static `libgcc_eh` (cfg `static_unwinder`, used in `main.rs`) rather than
//!   `libgcc_s.so` (glibc only: musl links statically anyway): one shared library fewer to find, map and
//!   relocate at every start. Only when the archive is there.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rustc-check-cfg=cfg(static_unwinder)");
    let target = |key: &str| std::env::var(key).unwrap_or_default();
    if target("CARGO_CFG_TARGET_OS") != "linux" {
        return;
    }
    for arg in ["-Wl,-z,relro,-z,now", "-Wl,-z,noexecstack"] {
        println!("cargo::rustc-link-arg-bins={arg}");
    }
    // The archive is asked of the C compiler that links (a cross build's would be another's: skip).
    if target("CARGO_CFG_TARGET_ENV") != "gnu" || target("TARGET") != target("HOST") {
        return;
    }
    if packs_relative_relocs() {
        println!("cargo::rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
    if let Some(archive) = gcc_eh_archive() {
        let dir = archive.parent().expect("an absolute path has a parent");
        println!("cargo::rustc-link-search=native={}", dir.display());
        println!("cargo::rustc-cfg=static_unwinder");
    }
}

/// Whether the linking compiler packs relative relocations (`-z pack-relative-relocs`, DT_RELR: binutils
/// 2.38+ or lld) into a program this machine's glibc (2.36+) loads: a small PIE with one relative
/// relocation is linked with the flag and run. Elsewhere the flag is left out (an older loader would
/// ignore the packed table and run the program unrelocated).
fn packs_relative_relocs() -> bool {
    let Some(dir) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        return false;
    };
    let (src, exe) = (dir.join("relr_probe.c"), dir.join("relr_probe"));
    let probe =
        "static int one = 1;\nint *volatile at = &one;\nint main(void) { return *at - 1; }\n";
    if std::fs::write(&src, probe).is_err() {
        return false;
    }
    let linker = std::env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".into());
    let linked = Command::new(linker)
        .args(["-fPIE", "-pie", "-Wl,-z,pack-relative-relocs", "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .is_ok_and(|o| o.status.success());
    linked
        && Command::new(&exe)
            .output()
            .is_ok_and(|o| o.status.success())
}

/// Where the linking compiler keeps `libgcc_eh.a`, if it has one (it answers the bare name when not).
fn gcc_eh_archive() -> Option<PathBuf> {
    let linker = std::env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".into());
    let out = Command::new(linker)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    (out.status.success() && path.is_absolute() && path.is_file()).then_some(path)
}
