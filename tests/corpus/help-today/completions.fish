# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_agterm_backup_global_optspecs
    string join \n socket= h/help V/version
end

function __fish_agterm_backup_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_agterm_backup_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_agterm_backup_using_subcommand
    set -l cmd (__fish_agterm_backup_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -l socket -d 'Same as the subcommand\'s `--socket` (kept for `agterm-backup --socket PATH <command>`)' -r -F
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -s V -l version -d 'Print version'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "installer" -d 'Wire the capture hook into the agents (Claude Code, Codex, Gemini CLI, Copilot CLI, Qwen Code, opencode, Kimi Code, Antigravity CLI), agterm\'s denylist, tmux-resurrect and your shell, or take it out'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "install" -d 'Same as `installer apply`'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "uninstall" -d 'Same as `installer remove`'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "hook" -d 'Run by the agents\' hooks (payload on stdin); prints nothing and always exits 0'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "status" -d 'Show each terminal (agterm, every tmux server and zmx socket directory), what is captured in each pane and what a restore would do'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "restore" -d 'Resume every captured agent in the panes agterm, tmux or zmx brought back'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "restart" -d 'Restart each idle agent (agterm, tmux, zmx) onto the version installed now, its conversation kept: quit it the way its user would, then resume it in the same pane, directory and flags'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "answer" -d 'Answer Claude Code\'s "resume from summary?" question in every pane waiting on it (agterm, tmux, zmx)'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "snap" -d 'Freeze the records and every terminal\'s panes (agterm, tmux, zmx) into a snapshot'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "timer" -d 'Take snapshots on a schedule (launchd on macOS, a systemd user timer on Linux)'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "init" -d 'Print the shell integration for your rc file: each captured pane resumes its own conversation when its shell starts after a restart, with no command to run'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "shell-start" -d 'Run by the `init` snippet at a shell\'s first prompt: prints what to resume in this pane, or nothing'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "shell-answer" -d 'Started by `shell-start`: answers Claude\'s resume question in one pane, then exits'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "tmux-layout" -d 'Run by the tmux hooks the installer sets: keeps the tmux server\'s layout; prints nothing'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "man" -d 'Print the man page (roff)'
complete -c agterm-backup -n "__fish_agterm_backup_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and not __fish_seen_subcommand_from apply remove status help" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and not __fish_seen_subcommand_from apply remove status help" -f -a "apply" -d 'Add the hook to each agent\'s config, claude/codex to agterm\'s restore denylist, restore to tmux-resurrect\'s post-restore hook and (asked) the shell line'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and not __fish_seen_subcommand_from apply remove status help" -f -a "remove" -d 'Take out exactly what `apply` added; says what it leaves behind (backups)'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and not __fish_seen_subcommand_from apply remove status help" -f -a "status" -d 'Report each target: present, outdated, partial, duplicate, absent or unreadable'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and not __fish_seen_subcommand_from apply remove status help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from apply" -l agents -d 'Which agents to wire (comma-separated); all but claude and codex only where installed or set up' -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from apply" -l dry-run -d 'Print a unified diff of each change and write nothing'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from apply" -l no-denylist -d 'Leave agterm\'s restore-denylist.conf alone'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from apply" -l no-tmux -d 'Leave the tmux config alone (no tmux-resurrect post-restore hook)'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from apply" -l shell -d 'Add the shell integration\'s line to your login shell\'s rc file (zsh, bash, fish: it sources the snippet apply writes into the state dir, or runs `agterm-backup init <shell>`) without asking; without it an interactive apply asks, and any other apply only refreshes a line already there'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from apply" -l no-shell -d 'Leave the shell rc files alone (do not ask)'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from apply" -l trust -d 'Mark our Codex hooks trusted (as the TUI\'s "Trust all and continue" does). Codex writes the trust records into its config.toml itself, with its own formatting and file mode; needs `codex` on PATH'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from apply" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from remove" -l agents -d 'Which agents to unwire (comma-separated); agterm\'s denylist block goes too' -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from remove" -l dry-run -d 'Print a unified diff of each change and write nothing'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from status" -l json -d 'Machine-readable output'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from help" -f -a "apply" -d 'Add the hook to each agent\'s config, claude/codex to agterm\'s restore denylist, restore to tmux-resurrect\'s post-restore hook and (asked) the shell line'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from help" -f -a "remove" -d 'Take out exactly what `apply` added; says what it leaves behind (backups)'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from help" -f -a "status" -d 'Report each target: present, outdated, partial, duplicate, absent or unreadable'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand installer; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand install" -l agents -d 'Which agents to wire (comma-separated); all but claude and codex only where installed or set up' -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand install" -l dry-run -d 'Print a unified diff of each change and write nothing'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand install" -l no-denylist -d 'Leave agterm\'s restore-denylist.conf alone'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand install" -l no-tmux -d 'Leave the tmux config alone (no tmux-resurrect post-restore hook)'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand install" -l shell -d 'Add the shell integration\'s line to your login shell\'s rc file (zsh, bash, fish: it sources the snippet apply writes into the state dir, or runs `agterm-backup init <shell>`) without asking; without it an interactive apply asks, and any other apply only refreshes a line already there'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand install" -l no-shell -d 'Leave the shell rc files alone (do not ask)'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand install" -l trust -d 'Mark our Codex hooks trusted (as the TUI\'s "Trust all and continue" does). Codex writes the trust records into its config.toml itself, with its own formatting and file mode; needs `codex` on PATH'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand install" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand uninstall" -l agents -d 'Which agents to unwire (comma-separated); agterm\'s denylist block goes too' -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand uninstall" -l dry-run -d 'Print a unified diff of each change and write nothing'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand uninstall" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand hook" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand status" -l socket -d 'agterm\'s control socket (default: $AGTERM_SOCKET, $AGTERM_STATE_DIR/agterm.sock, then the platform\'s: ~/Library/Application Support/agterm/agterm.sock on macOS, $XDG_DATA_HOME/agterm/agterm.sock or ~/.local/share/agterm/agterm.sock on Linux)' -r -F
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand status" -l json -d 'Machine-readable output'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand status" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restore" -l as-of -d 'Restore the conversations as they were at this time (RFC 3339) or in this snapshot file' -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restore" -l answer-choice -d 'Which option to pick in Claude\'s "resume from summary?" question (2 = resume the full session)' -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restore" -l terminal -d 'Restore only into this terminal (default: every terminal that has records and is running; with tmux, the server of $TMUX, else --socket, else tmux\'s default socket; with zmx, the socket directory --socket names, else zmx\'s own (ZMX_DIR, else $XDG_RUNTIME_DIR/zmx, else $TMPDIR/zmx-<uid>))' -r -f -a "agterm\t''
tmux\t''
zmx\t''"
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restore" -l socket -d 'agterm\'s control socket; with `--terminal tmux` the tmux server\'s socket, with `--terminal zmx` the zmx socket directory' -r -F
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restore" -l dry-run -d 'Print the plan and type nothing'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restore" -s y -l yes -d 'Do not ask before typing'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restore" -l no-answer -d 'Leave Claude\'s "resume from summary?" question for the user'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restore" -l json -d 'Machine-readable output'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restore" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restart" -l agent -d 'Only these agents (comma-separated: claude,codex,…)' -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restart" -l pane -d 'Only this pane: its label as shown (`tmux work:0.1`, `zmx api`), its tmux place (`work:0.1`), zmx session name, pane id (`%3`) or record key' -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restart" -l terminal -d 'Only this terminal (as `restore --terminal`)' -r -f -a "agterm\t''
tmux\t''
zmx\t''"
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restart" -l socket -d 'agterm\'s control socket; with `--terminal tmux` the tmux server\'s socket, with `--terminal zmx` the zmx socket directory' -r -F
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restart" -l timeout -d 'With --wait: how many seconds to wait for busy panes' -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restart" -l dry-run -d 'Print what would be restarted and why the others are not; quit nothing'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restart" -s y -l yes -d 'Do not ask before quitting the agents'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restart" -l json -d 'Machine-readable output'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restart" -l wait -d 'Also restart each pane that is busy now (mid-turn, asking, being typed into) as soon as it turns idle, until --timeout'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand restart" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand answer" -l choice -d 'Which option to pick (2 = resume the full session as-is)' -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand answer" -l socket -d 'agterm\'s control socket (default: $AGTERM_SOCKET, $AGTERM_STATE_DIR/agterm.sock, then the platform\'s: ~/Library/Application Support/agterm/agterm.sock on macOS, $XDG_DATA_HOME/agterm/agterm.sock or ~/.local/share/agterm/agterm.sock on Linux)' -r -F
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand answer" -l dry-run -d 'Show which panes are waiting and answer none'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand answer" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand snap" -l socket -d 'agterm\'s control socket (default: $AGTERM_SOCKET, $AGTERM_STATE_DIR/agterm.sock, then the platform\'s: ~/Library/Application Support/agterm/agterm.sock on macOS, $XDG_DATA_HOME/agterm/agterm.sock or ~/.local/share/agterm/agterm.sock on Linux)' -r -F
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand snap" -l harvest -d 'Also recover Claude Code conversations that ran before the hook existed, from agterm panes\' scrollback'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand snap" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand timer" -l every -d 'Seconds between snapshots' -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand timer" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand init" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand shell-start" -l shell -d 'The shell asking (the line it gets is valid in all three)' -r -f -a "zsh\t''
bash\t''
fish\t''"
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand shell-start" -l shell-pid -d 'The asking shell\'s pid: its claim is marked with it, so `--give-back` finds it' -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand shell-start" -l socket -d 'agterm\'s control socket (default: $AGTERM_SOCKET, $AGTERM_STATE_DIR/agterm.sock, then the platform\'s: ~/Library/Application Support/agterm/agterm.sock on macOS, $XDG_DATA_HOME/agterm/agterm.sock or ~/.local/share/agterm/agterm.sock on Linux)' -r -F
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand shell-start" -l give-back -d 'After the resume line ran: give back this shell\'s claim if its agent did not stay up'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand shell-start" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand shell-answer" -l terminal -r -f -a "agterm\t''
tmux\t''
zmx\t''"
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand shell-answer" -l place -d 'Which instance of the terminal: a tmux server\'s socket, a zmx socket directory (the scope\'s place)' -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand shell-answer" -l session -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand shell-answer" -l role -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand shell-answer" -l pane-id -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand shell-answer" -l choice -r
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand shell-answer" -l socket -d 'agterm\'s control socket (default: $AGTERM_SOCKET, $AGTERM_STATE_DIR/agterm.sock, then the platform\'s: ~/Library/Application Support/agterm/agterm.sock on macOS, $XDG_DATA_HOME/agterm/agterm.sock or ~/.local/share/agterm/agterm.sock on Linux)' -r -F
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand shell-answer" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand tmux-layout" -l rebuilt -d 'The post-restore hook: the panes there are now are the ones the layout restorer rebuilt'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand tmux-layout" -l saved -d 'tmux-resurrect\'s post-save hook: the layout now is the one its save holds'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand tmux-layout" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand completions" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand man" -s h -l help -d 'Print help'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "installer" -d 'Wire the capture hook into the agents (Claude Code, Codex, Gemini CLI, Copilot CLI, Qwen Code, opencode, Kimi Code, Antigravity CLI), agterm\'s denylist, tmux-resurrect and your shell, or take it out'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "install" -d 'Same as `installer apply`'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "uninstall" -d 'Same as `installer remove`'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "hook" -d 'Run by the agents\' hooks (payload on stdin); prints nothing and always exits 0'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "status" -d 'Show each terminal (agterm, every tmux server and zmx socket directory), what is captured in each pane and what a restore would do'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "restore" -d 'Resume every captured agent in the panes agterm, tmux or zmx brought back'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "restart" -d 'Restart each idle agent (agterm, tmux, zmx) onto the version installed now, its conversation kept: quit it the way its user would, then resume it in the same pane, directory and flags'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "answer" -d 'Answer Claude Code\'s "resume from summary?" question in every pane waiting on it (agterm, tmux, zmx)'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "snap" -d 'Freeze the records and every terminal\'s panes (agterm, tmux, zmx) into a snapshot'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "timer" -d 'Take snapshots on a schedule (launchd on macOS, a systemd user timer on Linux)'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "init" -d 'Print the shell integration for your rc file: each captured pane resumes its own conversation when its shell starts after a restart, with no command to run'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "shell-start" -d 'Run by the `init` snippet at a shell\'s first prompt: prints what to resume in this pane, or nothing'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "shell-answer" -d 'Started by `shell-start`: answers Claude\'s resume question in one pane, then exits'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "tmux-layout" -d 'Run by the tmux hooks the installer sets: keeps the tmux server\'s layout; prints nothing'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "completions" -d 'Print a shell completion script'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "man" -d 'Print the man page (roff)'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and not __fish_seen_subcommand_from installer install uninstall hook status restore restart answer snap timer init shell-start shell-answer tmux-layout completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and __fish_seen_subcommand_from installer" -f -a "apply" -d 'Add the hook to each agent\'s config, claude/codex to agterm\'s restore denylist, restore to tmux-resurrect\'s post-restore hook and (asked) the shell line'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and __fish_seen_subcommand_from installer" -f -a "remove" -d 'Take out exactly what `apply` added; says what it leaves behind (backups)'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand help; and __fish_seen_subcommand_from installer" -f -a "status" -d 'Report each target: present, outdated, partial, duplicate, absent or unreadable'
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand timer" -f -a "install status uninstall"
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand init" -f -a "zsh bash fish"
complete -c agterm-backup -n "__fish_agterm_backup_using_subcommand completions" -f -a "bash elvish fish powershell zsh"
