//! The `KERN_PROCARGS2` buffer macOS returns for `sysctl({CTL_KERN, KERN_PROCARGS2, pid})`, parsed
//! exactly: argv comes back as the words the process was given, spaces, quotes and empty words intact
//! (`ps` joins them with spaces, so they cannot be told apart there).
//!
//! The layout the kernel writes (`exec_copyout_strings` in xnu's `kern_exec.c`, read back by
//! `sysctl_procargsx`): a native-endian `int argc`; the executable path, NUL-terminated; NUL padding up
//! to the next pointer boundary (a variable number of NULs); then `argc` NUL-terminated argument
//! strings; then the environment and the `apple[]` strings, which we ignore. The buffer is cut at the
//! caller's size (`KERN_ARGMAX`), so every read is bounds-checked.
//!
//! Pure over the bytes, so it is compiled and tested everywhere; only the `sysctl` call is macOS code.
//! One ambiguity is inherent in the format: an empty `argv[0]` cannot be told from the padding, so
//! leading empty words are read as padding (as `ps` does).

/// What a `KERN_PROCARGS2` buffer holds that we use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcArgs {
    /// The executable's path as the kernel resolved it.
    pub exec_path: String,
    /// The argument vector, argv\[0] first, exactly `argc` words.
    pub argv: Vec<String>,
}

/// Parses a `KERN_PROCARGS2` buffer. `None` when it is shorter than its own header, when `argc` is not
/// positive, or when it ends before `argc` complete words: a partial argv would silently lose flags,
/// so the caller treats it as unknown. Words that are not UTF-8 are decoded lossily (U+FFFD), which
/// the resume line refuses rather than guesses.
pub fn parse_procargs2(buf: &[u8]) -> Option<ProcArgs> {
    let argc = i32::from_ne_bytes(buf.get(..4)?.try_into().ok()?);
    let argc = usize::try_from(argc).ok().filter(|&n| n > 0)?;
    let rest = &buf[4..];
    let path_end = rest.iter().position(|&b| b == 0)?;
    let exec_path = String::from_utf8_lossy(&rest[..path_end]).into_owned();
    let mut pos = path_end;
    while rest.get(pos) == Some(&0) {
        pos += 1;
    }
    // Each word needs at least its NUL: a larger argc cannot be satisfied.
    if argc > rest.len() - pos {
        return None;
    }
    let mut argv = Vec::with_capacity(argc);
    for _ in 0..argc {
        let len = rest.get(pos..)?.iter().position(|&b| b == 0)?;
        argv.push(String::from_utf8_lossy(&rest[pos..pos + len]).into_owned());
        pos += len + 1;
    }
    Some(ProcArgs { exec_path, argv })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A buffer in the kernel's layout: argc, exec path, `pad` NULs, the words, the environment and the
    /// `apple[]` strings (as a real one ends), each NUL-terminated.
    fn buffer(exec: &str, pad: usize, argv: &[&[u8]], env: &[&str]) -> Vec<u8> {
        let mut b = (argv.len() as i32).to_ne_bytes().to_vec();
        b.extend_from_slice(exec.as_bytes());
        b.push(0);
        b.extend(std::iter::repeat_n(0, pad));
        for w in argv {
            b.extend_from_slice(w);
            b.push(0);
        }
        for e in env {
            b.extend_from_slice(e.as_bytes());
            b.push(0);
        }
        b.push(0);
        b.extend_from_slice(b"executable_path=/opt/homebrew/bin/claude\0ptr_munge=\0main_stack=\0");
        b
    }

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn words_with_spaces_and_quotes_come_back_whole() {
        let argv: [&[u8]; 6] = [
            b"claude",
            b"--append-system-prompt",
            b"be terse",
            b"--add-dir",
            b"/Users/me/My Projects",
            b"it's \"quoted\"",
        ];
        let b = buffer(
            "/opt/homebrew/bin/claude",
            3,
            &argv,
            &["HOME=/Users/me", "TERM=xterm"],
        );
        let p = parse_procargs2(&b).unwrap();
        assert_eq!(p.exec_path, "/opt/homebrew/bin/claude");
        assert_eq!(
            p.argv,
            words(&[
                "claude",
                "--append-system-prompt",
                "be terse",
                "--add-dir",
                "/Users/me/My Projects",
                "it's \"quoted\""
            ])
        );
    }

    #[test]
    fn any_padding_and_empty_words_after_the_first() {
        for pad in [0, 1, 7, 8, 15] {
            let b = buffer("/bin/x", pad, &[b"x", b"", b"--model", b"", b"sonnet"], &[]);
            assert_eq!(
                parse_procargs2(&b).unwrap().argv,
                words(&["x", "", "--model", "", "sonnet"]),
                "pad {pad}"
            );
        }
    }

    #[test]
    fn the_environment_is_not_argv() {
        let b = buffer("/bin/x", 2, &[b"x", b"-c"], &["SECRET=1", "PATH=/bin"]);
        assert_eq!(parse_procargs2(&b).unwrap().argv, words(&["x", "-c"]));
    }

    #[test]
    fn truncated_or_inconsistent_buffers_are_unknown() {
        let full = buffer("/bin/x", 4, &[b"x", b"--model", b"sonnet"], &[]);
        // Cut inside the last word, at its NUL, inside the path, inside argc.
        let argv_end = full.len()
            - 1
            - "executable_path=/opt/homebrew/bin/claude\0ptr_munge=\0main_stack=\0".len();
        for cut in [argv_end - 3, argv_end - 1, 8, 3, 0] {
            assert_eq!(parse_procargs2(&full[..cut]), None, "cut at {cut}");
        }
        assert!(parse_procargs2(&full[..argv_end]).is_some());
        // argc larger than the words present (and than the buffer itself).
        let mut more = full.clone();
        more[..4].copy_from_slice(&1000i32.to_ne_bytes());
        assert_eq!(parse_procargs2(&more), None);
        let mut huge = buffer("/bin/x", 1, &[b"x"], &[]);
        huge.truncate(4 + 7 + 1 + 2);
        huge[..4].copy_from_slice(&2i32.to_ne_bytes());
        assert_eq!(parse_procargs2(&huge), None);
        // argc zero or negative.
        for bad in [0i32, -1, i32::MIN] {
            let mut b = full.clone();
            b[..4].copy_from_slice(&bad.to_ne_bytes());
            assert_eq!(parse_procargs2(&b), None, "argc {bad}");
        }
        // A path that never ends.
        let mut open = 1i32.to_ne_bytes().to_vec();
        open.extend_from_slice(b"/bin/x");
        assert_eq!(parse_procargs2(&open), None);
    }

    #[test]
    fn non_utf8_words_are_marked_not_guessed() {
        let b = buffer("/bin/x", 1, &[b"x", b"--add-dir", b"/w/caf\xe9"], &[]);
        let argv = parse_procargs2(&b).unwrap().argv;
        assert_eq!(argv[2], "/w/caf\u{fffd}");
    }

    proptest! {
        /// Any words (none empty at argv[0], which the format cannot carry) come back exactly, with any
        /// padding; any cut of the buffer short of the last word's NUL is unknown, never a shorter argv.
        #[test]
        fn round_trips_and_never_returns_a_partial_argv(
            first in "[^\\x00]{1,12}",
            rest in proptest::collection::vec("[^\\x00]{0,12}", 0..8),
            pad in 0usize..16,
            cut in any::<proptest::sample::Index>(),
        ) {
            let mut argv: Vec<&[u8]> = vec![first.as_bytes()];
            argv.extend(rest.iter().map(|w| w.as_bytes()));
            let b = buffer("/usr/local/bin/agent", pad, &argv, &["A=1"]);
            let want: Vec<String> = std::iter::once(first.clone()).chain(rest.iter().cloned()).collect();
            prop_assert_eq!(parse_procargs2(&b).unwrap().argv, want.clone());
            let at = cut.index(b.len());
            if let Some(p) = parse_procargs2(&b[..at]) {
                prop_assert_eq!(p.argv, want);
            }
        }
    }
}
