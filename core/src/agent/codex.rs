//! Codex's launch options (0.171.0): the clap definitions shared by `codex`, `codex resume` and
//! `codex fork`, as `--help` of each lists them plus the hidden aliases the binary accepts (`--yolo`,
//! `--not-so-yolo`), each probed against the real binary (`codex resume --<name> --help`).
//!
//! Clap's rules, which the filter follows: `<VALUE>` takes the next word, `<VALUE>...` (`num_args(1..)`)
//! takes one word and every following word up to the next one starting with `-`; `--flag=value`,
//! `-xVALUE` and `-x=VALUE` work for every option that takes a value.

use super::{f, FlagRole::*, FlagSpec, Takes::*};

pub(super) const FLAGS: &[FlagSpec] = &[
    f(&["-c", "--config"], One, Keep),
    f(&["--enable"], One, Keep),
    f(&["--disable"], One, Keep),
    f(&["--remote"], One, Keep),
    f(&["--remote-auth-token-env"], One, Keep),
    f(&["--strict-config"], Nothing, Keep),
    f(&["-m", "--model"], One, Keep),
    f(&["--oss"], Nothing, Keep),
    f(&["--local-provider"], One, Keep),
    f(&["-p", "--profile"], One, Keep),
    f(&["-s", "--sandbox"], One, Keep),
    f(&["--approve-for-me", "--not-so-yolo"], Nothing, Keep),
    f(
        &["--dangerously-bypass-approvals-and-sandbox", "--yolo"],
        Nothing,
        Keep,
    ),
    f(&["--dangerously-bypass-hook-trust"], Nothing, Keep),
    f(&["--add-dir"], One, Keep),
    f(&["-a", "--ask-for-approval"], One, Keep),
    f(&["--search"], Nothing, Keep),
    f(&["--no-alt-screen"], Nothing, Keep),
    f(&["--no-daemon"], Nothing, Keep),
    // `codex resume`'s own selectors: the resume grammar names the session.
    f(&["--last"], Nothing, Session),
    f(&["--all"], Nothing, Session),
    f(&["--include-non-interactive"], Nothing, Session),
    f(&["-h", "--help"], Nothing, Headless),
    f(&["-V", "--version"], Nothing, Headless),
    // Never replayed: `-i` attaches images to the first prompt; `-C` is where the session runs, which
    // the line's `cd` already enters (a relative `-C sub` would be applied twice); `--worktree` makes a
    // new worktree and Codex refuses it on `resume` ("cannot resume an existing session").
    f(&["-i", "--image"], Many, Drop),
    f(&["-C", "--cd"], One, Drop),
    f(&["--worktree"], Nothing, Drop),
];
