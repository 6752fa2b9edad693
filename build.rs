//! Link settings of the `agterm-backup` binary (`cargo install --path .` builds it with them too). The
//! hook runs on every tool call of every agent, so the binary's start is on the hot path; each setting
//! here took a measured share of it (ARCHITECTURE.md, "The hook's cost").
//!
//! - Linked at a fixed address (`-no-pie`): as a position-independent executable the binary carried
//!   ~13,700 relative relocations, which the dynamic loader wrote at every start, dirtying (copy on
//!   write) each page of `.data.rel.ro` and `.got`: ~60 page faults. The shared libraries, the stack and
//!   the heap keep their randomised addresses.
//! - The unwinder from gcc's static `libgcc_eh` (cfg `static_unwinder`, used in `main.rs`) rather than
//!   `libgcc_s.so`: one shared library fewer to find, map and relocate. Only when the archive is there.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rustc-check-cfg=cfg(static_unwinder)");
    let target = |key: &str| std::env::var(key).unwrap_or_default();
    if target("CARGO_CFG_TARGET_OS") != "linux" || target("CARGO_CFG_TARGET_ENV") != "gnu" {
        return;
    }
    println!("cargo::rustc-link-arg-bins=-no-pie");
    // The archive is asked of the C compiler that links (a cross build's would be another's: skip).
    if target("TARGET") != target("HOST") {
        return;
    }
    if let Some(archive) = gcc_eh_archive() {
        let dir = archive.parent().expect("an absolute path has a parent");
        println!("cargo::rustc-link-search=native={}", dir.display());
        println!("cargo::rustc-cfg=static_unwinder");
    }
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
