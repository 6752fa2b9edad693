//! What a terminal brings to agterm-backup's command line, as plain data its registry row carries
//! (`Row::command_line`): the phrases `--help`, the man page and the completions say about it, the
//! hidden subcommands its own hooks run, and the variables that locate its instance for a command run
//! away from it. The binary builds its text from every row's, so a new terminal edits no help text.

/// One terminal's part of the command line. Each phrase is written to sit in a list of every
/// terminal's (joined by the binary with `, ` and `and`/`or`).
#[derive(Debug, Clone, Copy)]
pub struct CommandLine {
    /// Its instances as `status` lists them ("every … server").
    pub instances: &'static str,
    /// What brings its panes back after a restart, for the long help.
    pub restarted_by: &'static str,
    /// What `installer apply` wires into it besides the agents' hooks, if anything.
    pub installer_wires: Option<&'static str>,
    /// What `--socket` names for it ("… control socket", "the … socket directory").
    pub socket: &'static str,
    /// Where it looks without `--socket`, for the row that takes a bare `--socket`.
    pub socket_default: Option<&'static str>,
    /// The instance `--terminal <name>` means without more (`restore --terminal`'s help), if it runs
    /// as many.
    pub named_default: Option<&'static str>,
    /// A `restore --terminal <name> --yes` example for the help, if one is worth showing.
    pub restore_example: Option<RestoreExample>,
    /// An example of one of its pane labels as shown (`restart --pane`'s help).
    pub pane_label_example: Option<&'static str>,
    /// The other names of one of its panes `restart --pane` takes.
    pub pane_names: Option<&'static str>,
    /// Its place, for a terminal of many instances (`shell-answer --place`).
    pub place: Option<Place>,
    /// Its own hidden subcommands, run by the hooks it is wired with.
    pub hidden: &'static [HiddenCommand],
    /// The variables of the user's session that locate its instance where nothing else does (an
    /// instance a record names needs none): the timer's units pass them on as set at install time.
    pub instance_vars: &'static [&'static str],
}

/// `restore --terminal <name> --yes` in the examples, with its comment.
#[derive(Debug, Clone, Copy)]
pub struct RestoreExample {
    pub comment: &'static str,
    /// Also among the top-level examples (and `status`'s): a restore the terminal's own hook runs.
    pub featured: bool,
}

/// A terminal's place as `shell-answer --place` takes it.
#[derive(Debug, Clone, Copy)]
pub struct Place {
    /// What the place is ("a … socket directory").
    pub what: &'static str,
    /// The older flag that named it (`--<alias>`), still taken.
    pub alias: &'static str,
}

/// A hidden subcommand of the binary that a terminal's hooks run: `agterm-backup <name> [--flag…]`.
/// Like the agents' hook it prints nothing and always exits 0.
#[derive(Debug, Clone, Copy)]
pub struct HiddenCommand {
    pub name: &'static str,
    /// Its one-line help.
    pub about: &'static str,
    pub flags: &'static [Flag],
    /// Runs it with the names of the flags given.
    pub run: fn(flags: &[&str]),
}

/// A boolean `--name` of a [`HiddenCommand`].
#[derive(Debug, Clone, Copy)]
pub struct Flag {
    pub name: &'static str,
    pub help: &'static str,
    /// A flag it cannot be given with.
    pub conflicts_with: Option<&'static str>,
}
