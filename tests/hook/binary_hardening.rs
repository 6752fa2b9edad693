//! The binary stays hardened (issue 31): a position-independent executable, full RELRO and a
//! non-executable stack, read from its own ELF headers. The hook parses JSON an attacker can shape (tool
//! inputs, file names); a binary at a fixed address, with a writable GOT or an executable stack, is what
//! distribution hardening checks flag. Runs against the binary the tests run (`$AGTERM_BACKUP_TEST_BINARY`
//! in CI points it at the musl and release builds too).

use std::path::Path;

const ET_DYN: u16 = 3;
const PT_DYNAMIC: u32 = 2;
const PT_GNU_STACK: u32 = 0x6474_e551;
const PT_GNU_RELRO: u32 = 0x6474_e552;
const PF_X: u32 = 1;
const DT_NULL: u64 = 0;
const DT_FLAGS: u64 = 30;
const DT_FLAGS_1: u64 = 0x6fff_fffb;
const DF_BIND_NOW: u64 = 0x8;
const DF_1_NOW: u64 = 0x1;
const DF_1_PIE: u64 = 0x0800_0000;

/// What the hardening checks look at in a 64-bit little-endian ELF file.
#[derive(Debug, Default)]
struct Hardening {
    /// `e_type` is `ET_DYN` and `DT_FLAGS_1` says `PIE` (a shared library is `ET_DYN` too).
    pie: bool,
    /// A `PT_GNU_RELRO` segment.
    relro: bool,
    /// `BIND_NOW` (`DT_FLAGS`) or `NOW` (`DT_FLAGS_1`): every symbol bound before RELRO is sealed.
    bind_now: bool,
    /// A `PT_GNU_STACK` segment without `PF_X` (without the segment, old loaders map it executable).
    stack_not_executable: bool,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(b[at..at + 2].try_into().unwrap())
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

fn read_hardening(elf: &[u8]) -> Hardening {
    assert!(
        elf.len() > 64 && elf[..4] == *b"\x7fELF" && elf[4] == 2 && elf[5] == 1,
        "not a 64-bit little-endian ELF file"
    );
    let (phoff, phentsize, phnum) = (
        u64_at(elf, 32) as usize,
        u16_at(elf, 54) as usize,
        u16_at(elf, 56) as usize,
    );
    let mut found = Hardening::default();
    let (mut flags, mut flags_1) = (0, 0);
    for i in 0..phnum {
        let ph = phoff + i * phentsize;
        let (kind, pflags) = (u32_at(elf, ph), u32_at(elf, ph + 4));
        match kind {
            PT_GNU_RELRO => found.relro = true,
            PT_GNU_STACK => found.stack_not_executable = pflags & PF_X == 0,
            PT_DYNAMIC => {
                let (offset, size) = (u64_at(elf, ph + 8) as usize, u64_at(elf, ph + 32) as usize);
                for entry in elf[offset..offset + size].chunks_exact(16) {
                    match u64_at(entry, 0) {
                        DT_NULL => break,
                        DT_FLAGS => flags = u64_at(entry, 8),
                        DT_FLAGS_1 => flags_1 = u64_at(entry, 8),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    found.pie = u16_at(elf, 16) == ET_DYN && flags_1 & DF_1_PIE != 0;
    found.bind_now = flags & DF_BIND_NOW != 0 || flags_1 & DF_1_NOW != 0;
    found
}

#[test]
fn the_binary_is_pie_with_full_relro_and_a_stack_that_does_not_execute() {
    let bin = agterm_backup_testkit::agterm_backup_bin!();
    let elf = std::fs::read(Path::new(bin)).expect("read the binary");
    let found = read_hardening(&elf);
    let lost: Vec<&str> = [
        (found.pie, "position-independent executable (PIE)"),
        (found.relro, "RELRO (a PT_GNU_RELRO segment)"),
        (found.bind_now, "full RELRO (BIND_NOW: -z now)"),
        (
            found.stack_not_executable,
            "non-executable stack (PT_GNU_STACK without PF_X)",
        ),
    ]
    .into_iter()
    .filter(|(kept, _)| !kept)
    .map(|(_, what)| what)
    .collect();
    assert!(
        lost.is_empty(),
        "{bin} lost its hardening: {} (see build.rs)",
        lost.join(", ")
    );
}

/// The reader sees each measure go: the binary's own headers with the type, the stack's flags and the
/// RELRO segment flipped, so the check above can fail.
#[test]
fn the_reader_sees_each_measure_lost() {
    let mut elf = std::fs::read(agterm_backup_testkit::agterm_backup_bin!()).unwrap();
    assert!(read_hardening(&elf).pie);
    elf[16] = 2; // ET_EXEC: linked at a fixed address
    assert!(!read_hardening(&elf).pie);
    elf[16] = ET_DYN as u8;
    let (phoff, phentsize, phnum) = (
        u64_at(&elf, 32) as usize,
        u16_at(&elf, 54) as usize,
        u16_at(&elf, 56) as usize,
    );
    for i in 0..phnum {
        let ph = phoff + i * phentsize;
        match u32_at(&elf, ph) {
            PT_GNU_STACK => elf[ph + 4] |= PF_X as u8,
            PT_GNU_RELRO => elf[ph..ph + 4].copy_from_slice(&0u32.to_le_bytes()),
            _ => {}
        }
    }
    let found = read_hardening(&elf);
    assert!(!found.stack_not_executable && !found.relro);
}

/// CI runs the hook's and restore's tests against its musl and release builds by naming them in
/// `$AGTERM_BACKUP_TEST_BINARY`. The sandbox each test binary enters before `main` unsets the machine's
/// `AGTERM_*` variables; had it unset this one too, those runs would test the debug build and prove
/// nothing. `/proc/self/environ` still holds the environment the process was started with.
#[cfg(target_os = "linux")]
#[test]
fn the_binary_the_run_names_is_the_one_tested() {
    let started_with = std::fs::read("/proc/self/environ").expect("/proc/self/environ");
    let named = started_with
        .split(|b| *b == 0)
        .filter_map(|kv| kv.strip_prefix(b"AGTERM_BACKUP_TEST_BINARY="))
        .map(|v| String::from_utf8_lossy(v).into_owned())
        .find(|v| !v.is_empty());
    let tested = agterm_backup_testkit::agterm_backup_bin!();
    match named {
        Some(named) => assert_eq!(
            tested, named,
            "the run named {named}, the tests ran {tested}"
        ),
        None => assert_eq!(tested, env!("CARGO_BIN_EXE_agterm-backup")),
    }
}
