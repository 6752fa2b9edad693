//! Every command-line flag of `agterm-backup`, in one place (clap derive). The commands themselves live
//! one per file in `cmd/`.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// What `agterm-backup --version` prints: clap's version line for [`Cli`], written out so that
/// `--version` is answered without building the parser.
pub const VERSION_LINE: &str = concat!("agterm-backup ", env!("CARGO_PKG_VERSION"), "\n");

#[derive(Debug, Parser)]
#[command(
    name = "agterm-backup",
    version,
    about = crate::agents_help::about(),
    long_about = crate::agents_help::long_about(),
    after_help = crate::terminals_help::top_after_help()
)]
pub struct Cli {
    /// Same as the subcommand's `--socket` (kept for `agterm-backup --socket PATH <command>`)
    #[arg(long, value_name = "PATH", hide = true)]
    pub socket: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    #[command(subcommand, about = crate::agents_help::installer_about())]
    Installer(InstallerCommand),

    /// Same as `installer apply`
    #[command(hide = true)]
    Install(ApplyArgs),

    /// Same as `installer remove`
    #[command(hide = true)]
    Uninstall(RemoveArgs),

    /// Run by the agents' hooks (payload on stdin); prints nothing and always exits 0
    #[command(
        after_help = "Example (what the installer writes into ~/.claude/settings.json):\n  '/usr/local/bin/agterm-backup' hook claude"
    )]
    Hook(HookArgs),

    #[command(
        about = crate::terminals_help::status_about(),
        after_help = crate::terminals_help::status_after_help()
    )]
    Status(StatusArgs),

    #[command(
        about = crate::terminals_help::restore_about(),
        after_help = crate::terminals_help::restore_after_help()
    )]
    Restore(RestoreArgs),

    #[command(
        about = crate::terminals_help::restart_about(),
        after_help = "Examples:\n  agterm-backup restart --dry-run     # which panes are idle, which are busy and why\n  agterm-backup restart --yes --agent claude\n  agterm-backup restart --wait --timeout 600   # also each busy pane once its turn ends"
    )]
    Restart(RestartArgs),

    #[command(
        about = crate::terminals_help::answer_about(),
        after_help = "Examples:\n  agterm-backup answer --dry-run      # which panes are waiting\n  agterm-backup answer --choice 2     # resume the full session as-is"
    )]
    Answer(AnswerArgs),

    #[command(
        about = crate::terminals_help::snap_about(),
        after_help = "Example:\n  agterm-backup snap --harvest        # also recover ids from pane scrollback"
    )]
    Snap(SnapArgs),

    /// Take snapshots on a schedule (launchd on macOS, a systemd user timer on Linux)
    #[command(after_help = "Example:\n  agterm-backup timer install --every 600")]
    Timer(TimerArgs),

    /// Print the shell integration for your rc file: each captured pane resumes its own conversation
    /// when its shell starts after a restart, with no command to run
    #[command(
        after_help = "Examples (the installer's `apply --shell` writes the line for you):\n  eval \"$(agterm-backup init zsh)\"      # ~/.zshrc\n  eval \"$(agterm-backup init bash)\"     # ~/.bashrc\n  agterm-backup init fish | source       # ~/.config/fish/config.fish\n\nAGTERM_BACKUP_AUTO=0 turns it off in a shell; AGTERM_BACKUP_ANSWER=no leaves Claude's\n\"resume from summary?\" question to you (default: option 2, as restore answers)."
    )]
    Init(InitArgs),

    /// Run by the `init` snippet at a shell's first prompt: prints what to resume in this pane, or nothing
    #[command(hide = true)]
    ShellStart(ShellStartArgs),

    /// Started by `shell-start`: answers Claude's resume question in one pane, then exits
    #[command(hide = true)]
    ShellAnswer(ShellAnswerArgs),

    /// The terminals' own hidden subcommands, run by their hooks (from the registry's rows).
    #[command(flatten)]
    Terminal(crate::terminal_commands::TerminalCommand),

    /// Print a shell completion script
    #[command(after_help = "Example:\n  agterm-backup completions zsh > ~/.zfunc/_agterm-backup")]
    Completions(CompletionsArgs),

    /// Print the man page (roff)
    #[command(
        after_help = "Example:\n  agterm-backup man > /usr/local/share/man/man1/agterm-backup.1"
    )]
    Man,
}

mod left_alone;
pub use left_alone::LeftAlone;

#[derive(Debug, Subcommand)]
pub enum InstallerCommand {
    // What it wires, from the registry's rows (each terminal's config file says its part).
    #[command(
        about = left_alone::apply_about(),
        alias = "install",
        after_help = "Examples:\n  agterm-backup installer apply --dry-run\n  agterm-backup installer apply --agents claude\n  agterm-backup installer apply --shell      # also the line in your shell's rc file"
    )]
    Apply(ApplyArgs),
    /// Take out exactly what `apply` added; says what it leaves behind (backups)
    #[command(
        alias = "uninstall",
        after_help = "Examples:\n  agterm-backup installer remove --dry-run\n  agterm-backup installer remove --agents claude"
    )]
    Remove(RemoveArgs),
    /// Report each target: present, outdated, partial, duplicate, absent or unreadable
    #[command(after_help = "Example:\n  agterm-backup installer status --json")]
    Status(JsonArgs),
}

#[derive(Debug, Args, Clone)]
pub struct ApplyArgs {
    /// Print a unified diff of each change and write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Which agents to wire (comma-separated); all but claude and codex only where installed or set up
    #[arg(long, value_delimiter = ',', default_values_t = agterm_backup_installer::ALL_AGENTS.map(String::from))]
    pub agents: Vec<String>,
    // `--no-<file>`: leave that terminal's config file alone (one per registry row with one).
    #[command(flatten)]
    pub left_alone: LeftAlone,
    /// Add the shell integration's line to your login shell's rc file (zsh, bash, fish: it sources the
    /// snippet apply writes into the state dir, or runs `agterm-backup init <shell>`) without asking; without it an interactive apply asks, and any other apply only refreshes a line
    /// already there
    #[arg(long, conflicts_with = "no_shell")]
    pub shell: bool,
    /// Leave the shell rc files alone (do not ask)
    #[arg(long)]
    pub no_shell: bool,
    /// Mark our Codex hooks trusted (as the TUI's "Trust all and continue" does). Codex writes the trust
    /// records into its config.toml itself, with its own formatting and file mode; needs `codex` on PATH
    #[arg(long)]
    pub trust: bool,
}

#[derive(Debug, Args, Clone)]
pub struct RemoveArgs {
    /// Print a unified diff of each change and write nothing
    #[arg(long)]
    pub dry_run: bool,
    // What goes besides the agents' hooks, from the registry's rows.
    #[arg(long, value_delimiter = ',', default_values_t = agterm_backup_installer::ALL_AGENTS.map(String::from), help = left_alone::remove_agents_help())]
    pub agents: Vec<String>,
}

#[derive(Debug, Args, Clone)]
pub struct JsonArgs {
    /// Machine-readable output
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args, Clone)]
pub struct HookArgs {
    #[arg(help = crate::agents_help::hook_agent_help())]
    pub agent: String,
    /// Ignored: the hook never fails on unexpected words
    #[arg(hide = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub rest: Vec<String>,
}

/// A bare `--socket`: it names the instance of the terminal whose row takes one
/// (`agterm_backup_terminals::socket_for`); its help is that row's.
#[derive(Debug, Args, Clone, Default)]
pub struct BareSocket {
    #[arg(long, value_name = "PATH", help = crate::terminals_help::bare_socket_help())]
    pub socket: Option<PathBuf>,
}

#[derive(Debug, Args, Clone)]
pub struct StatusArgs {
    /// Machine-readable output
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub bare: BareSocket,
}

#[derive(Debug, Args, Clone)]
pub struct RestoreArgs {
    /// Print the plan and type nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask before typing
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Restore the conversations as they were at this time (RFC 3339) or in this snapshot file
    #[arg(long, value_name = "TIME|SNAPSHOT")]
    pub as_of: Option<String>,
    /// Which option to pick in Claude's "resume from summary?" question (2 = resume the full session)
    #[arg(
        long,
        value_name = "N",
        default_value_t = 2,
        conflicts_with = "no_answer"
    )]
    pub answer_choice: u8,
    /// Leave Claude's "resume from summary?" question for the user
    #[arg(long)]
    pub no_answer: bool,
    /// Machine-readable output
    #[arg(long)]
    pub json: bool,
    #[arg(
        long,
        value_enum,
        value_name = "TERMINAL",
        help = crate::terminals_help::terminal_help()
    )]
    pub terminal: Option<TerminalArg>,
    #[arg(
        long,
        value_name = "PATH",
        help = crate::terminals_help::terminal_socket_help()
    )]
    pub socket: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct RestartArgs {
    /// Print what would be restarted and why the others are not; quit nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask before quitting the agents
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Machine-readable output
    #[arg(long)]
    pub json: bool,
    /// Only these agents (comma-separated: claude,codex,…)
    #[arg(long, value_delimiter = ',', value_name = "AGENT")]
    pub agent: Vec<String>,
    #[arg(long, value_name = "PANE", help = crate::terminals_help::pane_help())]
    pub pane: Option<String>,
    /// Only this terminal (as `restore --terminal`)
    #[arg(long, value_enum, value_name = "TERMINAL")]
    pub terminal: Option<TerminalArg>,
    #[arg(
        long,
        value_name = "PATH",
        help = crate::terminals_help::terminal_socket_help()
    )]
    pub socket: Option<PathBuf>,
    /// Also restart each pane that is busy now (mid-turn, asking, being typed into) as soon as it
    /// turns idle, until --timeout
    #[arg(long)]
    pub wait: bool,
    /// With --wait: how many seconds to wait for busy panes
    #[arg(long, value_name = "SECS", default_value_t = 900, requires = "wait")]
    pub timeout: u64,
}

/// A terminal agterm-backup restores into: `--terminal`'s values are the registry's rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TerminalArg(agterm_backup_core::pane::TerminalName);

impl TerminalArg {
    pub fn kind(self) -> agterm_backup_core::pane::TerminalName {
        self.0
    }
}

impl ValueEnum for TerminalArg {
    fn value_variants<'a>() -> &'a [Self] {
        static ROWS: std::sync::OnceLock<Vec<TerminalArg>> = std::sync::OnceLock::new();
        ROWS.get_or_init(|| {
            agterm_backup_terminals::ROWS
                .iter()
                .map(|r| TerminalArg(r.name))
                .collect()
        })
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.as_str()))
    }
}

#[derive(Debug, Args, Clone)]
pub struct AnswerArgs {
    /// Show which panes are waiting and answer none
    #[arg(long)]
    pub dry_run: bool,
    /// Which option to pick (2 = resume the full session as-is)
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub choice: u8,
    #[command(flatten)]
    pub bare: BareSocket,
}

#[derive(Debug, Args, Clone)]
pub struct SnapArgs {
    #[arg(long, help = crate::terminals_help::harvest_help())]
    pub harvest: bool,
    #[command(flatten)]
    pub bare: BareSocket,
}

#[derive(Debug, Args, Clone)]
pub struct TimerArgs {
    #[arg(value_enum)]
    pub action: TimerAction,
    /// Seconds between snapshots
    #[arg(long, value_name = "SECONDS", default_value_t = 900)]
    pub every: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TimerAction {
    Install,
    Status,
    Uninstall,
}

/// A shell the `init` snippet is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InitShell {
    Zsh,
    Bash,
    Fish,
}

#[derive(Debug, Args, Clone)]
pub struct InitArgs {
    #[arg(value_enum)]
    pub shell: InitShell,
}

#[derive(Debug, Args, Clone)]
pub struct ShellStartArgs {
    /// The shell asking (the line it gets is valid in all three)
    #[arg(long, value_enum)]
    pub shell: InitShell,
    /// The asking shell's pid: its claim is marked with it, so `--give-back` finds it
    #[arg(long)]
    pub shell_pid: Option<u32>,
    /// After the resume line ran: give back this shell's claim if its agent did not stay up
    #[arg(long)]
    pub give_back: bool,
    #[command(flatten)]
    pub bare: BareSocket,
}

#[derive(Debug, Args, Clone)]
pub struct ShellAnswerArgs {
    #[arg(long, value_enum)]
    pub terminal: TerminalArg,
    #[arg(
        long,
        aliases = crate::terminals_help::place_aliases(),
        help = crate::terminals_help::place_help()
    )]
    pub place: Option<String>,
    #[arg(long)]
    pub session: String,
    #[arg(long)]
    pub role: String,
    #[arg(long)]
    pub pane_id: Option<String>,
    #[arg(long)]
    pub choice: u8,
    #[command(flatten)]
    pub bare: BareSocket,
}

#[derive(Debug, Args, Clone)]
pub struct CompletionsArgs {
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}
