//! Gemini CLI's launch options (0.61.0): the yargs `.option(...)` table in its bundle, hidden ones
//! included (`--fake-responses`, `--record-responses`, `--isCommand`); `tests/installer/flags_bundles.rs` reads them. yargs' rules: `type: "string", nargs: 1` and
//! `type: "array", nargs: 1` take exactly one word per occurrence; a `string` without `nargs` takes the next
//! word unless it is an option; `boolean` is a switch.

use super::{f, FlagRole::*, FlagSpec, Takes::*};

pub(super) const FLAGS: &[FlagSpec] = &[
    f(&["-d", "--debug"], Nothing, Keep),
    f(&["-m", "--model"], One, Keep),
    f(&["--skip-trust"], Nothing, Keep),
    f(&["-s", "--sandbox"], Nothing, Keep),
    f(&["-y", "--yolo"], Nothing, Keep),
    f(&["--approval-mode"], One, Keep),
    f(&["--policy"], One, Keep),
    f(&["--admin-policy"], One, Keep),
    f(&["--allowed-mcp-server-names"], One, Keep),
    f(&["--allowed-tools"], One, Keep),
    f(&["-e", "--extensions"], One, Keep),
    f(&["--include-directories"], One, Keep),
    f(&["--screen-reader"], Nothing, Keep),
    f(&["--raw-output"], Nothing, Keep),
    f(&["--accept-raw-output-risk"], Nothing, Keep),
    f(&["--fake-responses"], Optional, Keep),
    f(&["--fake-responses-non-strict"], Optional, Keep),
    f(&["--record-responses"], Optional, Keep),
    f(&["-r", "--resume"], Optional, Session),
    f(&["--session-id"], One, Session),
    f(&["--session-file"], One, Session),
    f(&["-p", "--prompt"], One, Headless),
    f(&["-o", "--output-format"], One, Headless),
    f(&["--acp"], Nothing, Headless),
    f(&["--experimental-acp"], Nothing, Headless),
    f(&["-l", "--list-extensions"], Nothing, Headless),
    f(&["--list-sessions"], Nothing, Headless),
    f(&["--delete-session"], Optional, Headless),
    // Hidden: set for a subcommand run (`gemini mcp …`), never a conversation.
    f(&["--isCommand"], Nothing, Headless),
    f(&["-h", "--help"], Nothing, Headless),
    f(&["-v", "--version"], Nothing, Headless),
    // Never replayed: `-i` is a prompt for the first turn; `-w` makes a new worktree (the session lives
    // in the one it made, which the line's `cd` enters).
    f(&["-i", "--prompt-interactive"], One, Drop),
    f(&["-w", "--worktree"], Optional, Drop),
];
