//! opencode's launch options (1.18.33): every option of `opencode --help` (yargs; `[string]` and
//! `[number]` take one word, `[array]` the words up to the next option).

use super::{f, FlagRole::*, FlagSpec, Takes::*};

pub(super) const FLAGS: &[FlagSpec] = &[
    f(&["--print-logs"], Nothing, Keep),
    f(&["--log-level"], One, Keep),
    f(&["--pure"], Nothing, Keep),
    f(&["--port"], One, Keep),
    f(&["--hostname"], One, Keep),
    f(&["--mdns"], Nothing, Keep),
    f(&["--mdns-domain"], One, Keep),
    f(&["--cors"], Many, Keep),
    f(&["-m", "--model"], One, Keep),
    f(&["--agent"], One, Keep),
    f(&["--auto"], Nothing, Keep),
    f(&["--mini"], Nothing, Keep),
    f(&["--no-replay"], Nothing, Keep),
    f(&["--replay-limit"], One, Keep),
    f(&["-c", "--continue"], Nothing, Session),
    f(&["-s", "--session"], One, Session),
    f(&["--fork"], Nothing, Session),
    f(&["-h", "--help"], Nothing, Headless),
    f(&["-v", "--version"], Nothing, Headless),
    // Never replayed: a prompt for the first turn.
    f(&["--prompt"], One, Drop),
];
