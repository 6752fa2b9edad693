#compdef agterm-backup

autoload -U is-at-least

_agterm-backup() {
    typeset -A opt_args
    typeset -a _arguments_options
    local ret=1

    if is-at-least 5.2; then
        _arguments_options=(-s -S -C)
    else
        _arguments_options=(-s -C)
    fi

    local context curcontext="$curcontext" state line
    _arguments "${_arguments_options[@]}" : \
'--socket=[Same as the subcommand'\''s \`--socket\` (kept for \`agterm-backup --socket PATH <command>\`)]:PATH:_files' \
'-h[Print help (see more with '\''--help'\'')]' \
'--help[Print help (see more with '\''--help'\'')]' \
'-V[Print version]' \
'--version[Print version]' \
":: :_agterm-backup_commands" \
"*::: :->agterm-backup" \
&& ret=0
    case $state in
    (agterm-backup)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:agterm-backup-command-$line[1]:"
        case $line[1] in
            (installer)
_arguments "${_arguments_options[@]}" : \
'-h[Print help]' \
'--help[Print help]' \
":: :_agterm-backup__subcmd__installer_commands" \
"*::: :->installer" \
&& ret=0

    case $state in
    (installer)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:agterm-backup-installer-command-$line[1]:"
        case $line[1] in
            (apply)
_arguments "${_arguments_options[@]}" : \
'*--agents=[Which agents to wire (comma-separated); all but claude and codex only where installed or set up]:AGENTS:_default' \
'--dry-run[Print a unified diff of each change and write nothing]' \
'--no-denylist[Leave agterm'\''s restore-denylist.conf alone]' \
'--no-tmux[Leave the tmux config alone (no tmux-resurrect post-restore hook)]' \
'(--no-shell)--shell[Add the shell integration'\''s line to your login shell'\''s rc file (zsh, bash, fish\: it sources the snippet apply writes into the state dir, or runs \`agterm-backup init <shell>\`) without asking; without it an interactive apply asks, and any other apply only refreshes a line already there]' \
'--no-shell[Leave the shell rc files alone (do not ask)]' \
'--trust[Mark our Codex hooks trusted (as the TUI'\''s "Trust all and continue" does). Codex writes the trust records into its config.toml itself, with its own formatting and file mode; needs \`codex\` on PATH]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(remove)
_arguments "${_arguments_options[@]}" : \
'*--agents=[Which agents to unwire (comma-separated); agterm'\''s denylist block goes too]:AGENTS:_default' \
'--dry-run[Print a unified diff of each change and write nothing]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(status)
_arguments "${_arguments_options[@]}" : \
'--json[Machine-readable output]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
":: :_agterm-backup__subcmd__installer__subcmd__help_commands" \
"*::: :->help" \
&& ret=0

    case $state in
    (help)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:agterm-backup-installer-help-command-$line[1]:"
        case $line[1] in
            (apply)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(remove)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(status)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
        esac
    ;;
esac
;;
(install)
_arguments "${_arguments_options[@]}" : \
'*--agents=[Which agents to wire (comma-separated); all but claude and codex only where installed or set up]:AGENTS:_default' \
'--dry-run[Print a unified diff of each change and write nothing]' \
'--no-denylist[Leave agterm'\''s restore-denylist.conf alone]' \
'--no-tmux[Leave the tmux config alone (no tmux-resurrect post-restore hook)]' \
'(--no-shell)--shell[Add the shell integration'\''s line to your login shell'\''s rc file (zsh, bash, fish\: it sources the snippet apply writes into the state dir, or runs \`agterm-backup init <shell>\`) without asking; without it an interactive apply asks, and any other apply only refreshes a line already there]' \
'--no-shell[Leave the shell rc files alone (do not ask)]' \
'--trust[Mark our Codex hooks trusted (as the TUI'\''s "Trust all and continue" does). Codex writes the trust records into its config.toml itself, with its own formatting and file mode; needs \`codex\` on PATH]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(uninstall)
_arguments "${_arguments_options[@]}" : \
'*--agents=[Which agents to unwire (comma-separated); agterm'\''s denylist block goes too]:AGENTS:_default' \
'--dry-run[Print a unified diff of each change and write nothing]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(hook)
_arguments "${_arguments_options[@]}" : \
'-h[Print help]' \
'--help[Print help]' \
':agent -- The agent whose hook this is (claude, codex, gemini, copilot, qwen, opencode, kimi, agy; agy built from its documentation, unverified):_default' \
'*::rest -- Ignored\: the hook never fails on unexpected words:_default' \
&& ret=0
;;
(status)
_arguments "${_arguments_options[@]}" : \
'--socket=[agterm'\''s control socket (default\: \$AGTERM_SOCKET, \$AGTERM_STATE_DIR/agterm.sock, then the platform'\''s\: ~/Library/Application Support/agterm/agterm.sock on macOS, \$XDG_DATA_HOME/agterm/agterm.sock or ~/.local/share/agterm/agterm.sock on Linux)]:PATH:_files' \
'--json[Machine-readable output]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(restore)
_arguments "${_arguments_options[@]}" : \
'--as-of=[Restore the conversations as they were at this time (RFC 3339) or in this snapshot file]:TIME|SNAPSHOT:_default' \
'(--no-answer)--answer-choice=[Which option to pick in Claude'\''s "resume from summary?" question (2 = resume the full session)]:N:_default' \
'--terminal=[Restore only into this terminal (default\: every terminal that has records and is running; with tmux, the server of \$TMUX, else --socket, else tmux'\''s default socket; with zmx, the socket directory --socket names, else zmx'\''s own (ZMX_DIR, else \$XDG_RUNTIME_DIR/zmx, else \$TMPDIR/zmx-<uid>))]:TERMINAL:(agterm tmux zmx)' \
'--socket=[agterm'\''s control socket; with \`--terminal tmux\` the tmux server'\''s socket, with \`--terminal zmx\` the zmx socket directory]:PATH:_files' \
'--dry-run[Print the plan and type nothing]' \
'-y[Do not ask before typing]' \
'--yes[Do not ask before typing]' \
'--no-answer[Leave Claude'\''s "resume from summary?" question for the user]' \
'--json[Machine-readable output]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(restart)
_arguments "${_arguments_options[@]}" : \
'*--agent=[Only these agents (comma-separated\: claude,codex,…)]:AGENT:_default' \
'--pane=[Only this pane\: its label as shown (\`tmux work\:0.1\`, \`zmx api\`), its tmux place (\`work\:0.1\`), zmx session name, pane id (\`%3\`) or record key]:PANE:_default' \
'--terminal=[Only this terminal (as \`restore --terminal\`)]:TERMINAL:(agterm tmux zmx)' \
'--socket=[agterm'\''s control socket; with \`--terminal tmux\` the tmux server'\''s socket, with \`--terminal zmx\` the zmx socket directory]:PATH:_files' \
'--timeout=[With --wait\: how many seconds to wait for busy panes]:SECS:_default' \
'--dry-run[Print what would be restarted and why the others are not; quit nothing]' \
'-y[Do not ask before quitting the agents]' \
'--yes[Do not ask before quitting the agents]' \
'--json[Machine-readable output]' \
'--wait[Also restart each pane that is busy now (mid-turn, asking, being typed into) as soon as it turns idle, until --timeout]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(answer)
_arguments "${_arguments_options[@]}" : \
'--choice=[Which option to pick (2 = resume the full session as-is)]:N:_default' \
'--socket=[agterm'\''s control socket (default\: \$AGTERM_SOCKET, \$AGTERM_STATE_DIR/agterm.sock, then the platform'\''s\: ~/Library/Application Support/agterm/agterm.sock on macOS, \$XDG_DATA_HOME/agterm/agterm.sock or ~/.local/share/agterm/agterm.sock on Linux)]:PATH:_files' \
'--dry-run[Show which panes are waiting and answer none]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(snap)
_arguments "${_arguments_options[@]}" : \
'--socket=[agterm'\''s control socket (default\: \$AGTERM_SOCKET, \$AGTERM_STATE_DIR/agterm.sock, then the platform'\''s\: ~/Library/Application Support/agterm/agterm.sock on macOS, \$XDG_DATA_HOME/agterm/agterm.sock or ~/.local/share/agterm/agterm.sock on Linux)]:PATH:_files' \
'--harvest[Also recover Claude Code conversations that ran before the hook existed, from agterm panes'\'' scrollback]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(timer)
_arguments "${_arguments_options[@]}" : \
'--every=[Seconds between snapshots]:SECONDS:_default' \
'-h[Print help]' \
'--help[Print help]' \
':action:(install status uninstall)' \
&& ret=0
;;
(init)
_arguments "${_arguments_options[@]}" : \
'-h[Print help]' \
'--help[Print help]' \
':shell:(zsh bash fish)' \
&& ret=0
;;
(shell-start)
_arguments "${_arguments_options[@]}" : \
'--shell=[The shell asking (the line it gets is valid in all three)]:SHELL:(zsh bash fish)' \
'--shell-pid=[The asking shell'\''s pid\: its claim is marked with it, so \`--give-back\` finds it]:SHELL_PID:_default' \
'--socket=[agterm'\''s control socket (default\: \$AGTERM_SOCKET, \$AGTERM_STATE_DIR/agterm.sock, then the platform'\''s\: ~/Library/Application Support/agterm/agterm.sock on macOS, \$XDG_DATA_HOME/agterm/agterm.sock or ~/.local/share/agterm/agterm.sock on Linux)]:PATH:_files' \
'--give-back[After the resume line ran\: give back this shell'\''s claim if its agent did not stay up]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(shell-answer)
_arguments "${_arguments_options[@]}" : \
'--terminal=[]:TERMINAL:(agterm tmux zmx)' \
'--place=[Which instance of the terminal\: a tmux server'\''s socket, a zmx socket directory (the scope'\''s place)]:PLACE:_default' \
'--session=[]:SESSION:_default' \
'--role=[]:ROLE:_default' \
'--pane-id=[]:PANE_ID:_default' \
'--choice=[]:CHOICE:_default' \
'--socket=[agterm'\''s control socket (default\: \$AGTERM_SOCKET, \$AGTERM_STATE_DIR/agterm.sock, then the platform'\''s\: ~/Library/Application Support/agterm/agterm.sock on macOS, \$XDG_DATA_HOME/agterm/agterm.sock or ~/.local/share/agterm/agterm.sock on Linux)]:PATH:_files' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(tmux-layout)
_arguments "${_arguments_options[@]}" : \
'(--saved)--rebuilt[The post-restore hook\: the panes there are now are the ones the layout restorer rebuilt]' \
'--saved[tmux-resurrect'\''s post-save hook\: the layout now is the one its save holds]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(completions)
_arguments "${_arguments_options[@]}" : \
'-h[Print help]' \
'--help[Print help]' \
':shell:(bash elvish fish powershell zsh)' \
&& ret=0
;;
(man)
_arguments "${_arguments_options[@]}" : \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
":: :_agterm-backup__subcmd__help_commands" \
"*::: :->help" \
&& ret=0

    case $state in
    (help)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:agterm-backup-help-command-$line[1]:"
        case $line[1] in
            (installer)
_arguments "${_arguments_options[@]}" : \
":: :_agterm-backup__subcmd__help__subcmd__installer_commands" \
"*::: :->installer" \
&& ret=0

    case $state in
    (installer)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:agterm-backup-help-installer-command-$line[1]:"
        case $line[1] in
            (apply)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(remove)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(status)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
(install)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(uninstall)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(hook)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(status)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(restore)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(restart)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(answer)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(snap)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(timer)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(init)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(shell-start)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(shell-answer)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(tmux-layout)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(completions)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(man)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
        esac
    ;;
esac
}

(( $+functions[_agterm-backup_commands] )) ||
_agterm-backup_commands() {
    local commands; commands=(
'installer:Wire the capture hook into the agents (Claude Code, Codex, Gemini CLI, Copilot CLI, Qwen Code, opencode, Kimi Code, Antigravity CLI), agterm'\''s denylist, tmux-resurrect and your shell, or take it out' \
'install:Same as \`installer apply\`' \
'uninstall:Same as \`installer remove\`' \
'hook:Run by the agents'\'' hooks (payload on stdin); prints nothing and always exits 0' \
'status:Show each terminal (agterm, every tmux server and zmx socket directory), what is captured in each pane and what a restore would do' \
'restore:Resume every captured agent in the panes agterm, tmux or zmx brought back' \
'restart:Restart each idle agent (agterm, tmux, zmx) onto the version installed now, its conversation kept\: quit it the way its user would, then resume it in the same pane, directory and flags' \
'answer:Answer Claude Code'\''s "resume from summary?" question in every pane waiting on it (agterm, tmux, zmx)' \
'snap:Freeze the records and every terminal'\''s panes (agterm, tmux, zmx) into a snapshot' \
'timer:Take snapshots on a schedule (launchd on macOS, a systemd user timer on Linux)' \
'init:Print the shell integration for your rc file\: each captured pane resumes its own conversation when its shell starts after a restart, with no command to run' \
'shell-start:Run by the \`init\` snippet at a shell'\''s first prompt\: prints what to resume in this pane, or nothing' \
'shell-answer:Started by \`shell-start\`\: answers Claude'\''s resume question in one pane, then exits' \
'tmux-layout:Run by the tmux hooks the installer sets\: keeps the tmux server'\''s layout; prints nothing' \
'completions:Print a shell completion script' \
'man:Print the man page (roff)' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'agterm-backup commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__answer_commands] )) ||
_agterm-backup__subcmd__answer_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup answer commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__completions_commands] )) ||
_agterm-backup__subcmd__completions_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup completions commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help_commands] )) ||
_agterm-backup__subcmd__help_commands() {
    local commands; commands=(
'installer:Wire the capture hook into the agents (Claude Code, Codex, Gemini CLI, Copilot CLI, Qwen Code, opencode, Kimi Code, Antigravity CLI), agterm'\''s denylist, tmux-resurrect and your shell, or take it out' \
'install:Same as \`installer apply\`' \
'uninstall:Same as \`installer remove\`' \
'hook:Run by the agents'\'' hooks (payload on stdin); prints nothing and always exits 0' \
'status:Show each terminal (agterm, every tmux server and zmx socket directory), what is captured in each pane and what a restore would do' \
'restore:Resume every captured agent in the panes agterm, tmux or zmx brought back' \
'restart:Restart each idle agent (agterm, tmux, zmx) onto the version installed now, its conversation kept\: quit it the way its user would, then resume it in the same pane, directory and flags' \
'answer:Answer Claude Code'\''s "resume from summary?" question in every pane waiting on it (agterm, tmux, zmx)' \
'snap:Freeze the records and every terminal'\''s panes (agterm, tmux, zmx) into a snapshot' \
'timer:Take snapshots on a schedule (launchd on macOS, a systemd user timer on Linux)' \
'init:Print the shell integration for your rc file\: each captured pane resumes its own conversation when its shell starts after a restart, with no command to run' \
'shell-start:Run by the \`init\` snippet at a shell'\''s first prompt\: prints what to resume in this pane, or nothing' \
'shell-answer:Started by \`shell-start\`\: answers Claude'\''s resume question in one pane, then exits' \
'tmux-layout:Run by the tmux hooks the installer sets\: keeps the tmux server'\''s layout; prints nothing' \
'completions:Print a shell completion script' \
'man:Print the man page (roff)' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'agterm-backup help commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__answer_commands] )) ||
_agterm-backup__subcmd__help__subcmd__answer_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help answer commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__completions_commands] )) ||
_agterm-backup__subcmd__help__subcmd__completions_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help completions commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__help_commands] )) ||
_agterm-backup__subcmd__help__subcmd__help_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help help commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__hook_commands] )) ||
_agterm-backup__subcmd__help__subcmd__hook_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help hook commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__init_commands] )) ||
_agterm-backup__subcmd__help__subcmd__init_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help init commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__install_commands] )) ||
_agterm-backup__subcmd__help__subcmd__install_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help install commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__installer_commands] )) ||
_agterm-backup__subcmd__help__subcmd__installer_commands() {
    local commands; commands=(
'apply:Add the hook to each agent'\''s config, claude/codex to agterm'\''s restore denylist, restore to tmux-resurrect'\''s post-restore hook and (asked) the shell line' \
'remove:Take out exactly what \`apply\` added; says what it leaves behind (backups)' \
'status:Report each target\: present, outdated, partial, duplicate, absent or unreadable' \
    )
    _describe -t commands 'agterm-backup help installer commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__installer__subcmd__apply_commands] )) ||
_agterm-backup__subcmd__help__subcmd__installer__subcmd__apply_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help installer apply commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__installer__subcmd__remove_commands] )) ||
_agterm-backup__subcmd__help__subcmd__installer__subcmd__remove_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help installer remove commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__installer__subcmd__status_commands] )) ||
_agterm-backup__subcmd__help__subcmd__installer__subcmd__status_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help installer status commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__man_commands] )) ||
_agterm-backup__subcmd__help__subcmd__man_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help man commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__restart_commands] )) ||
_agterm-backup__subcmd__help__subcmd__restart_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help restart commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__restore_commands] )) ||
_agterm-backup__subcmd__help__subcmd__restore_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help restore commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__shell-answer_commands] )) ||
_agterm-backup__subcmd__help__subcmd__shell-answer_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help shell-answer commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__shell-start_commands] )) ||
_agterm-backup__subcmd__help__subcmd__shell-start_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help shell-start commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__snap_commands] )) ||
_agterm-backup__subcmd__help__subcmd__snap_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help snap commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__status_commands] )) ||
_agterm-backup__subcmd__help__subcmd__status_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help status commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__timer_commands] )) ||
_agterm-backup__subcmd__help__subcmd__timer_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help timer commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__tmux-layout_commands] )) ||
_agterm-backup__subcmd__help__subcmd__tmux-layout_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help tmux-layout commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__help__subcmd__uninstall_commands] )) ||
_agterm-backup__subcmd__help__subcmd__uninstall_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup help uninstall commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__hook_commands] )) ||
_agterm-backup__subcmd__hook_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup hook commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__init_commands] )) ||
_agterm-backup__subcmd__init_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup init commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__install_commands] )) ||
_agterm-backup__subcmd__install_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup install commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__installer_commands] )) ||
_agterm-backup__subcmd__installer_commands() {
    local commands; commands=(
'apply:Add the hook to each agent'\''s config, claude/codex to agterm'\''s restore denylist, restore to tmux-resurrect'\''s post-restore hook and (asked) the shell line' \
'remove:Take out exactly what \`apply\` added; says what it leaves behind (backups)' \
'status:Report each target\: present, outdated, partial, duplicate, absent or unreadable' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'agterm-backup installer commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__installer__subcmd__apply_commands] )) ||
_agterm-backup__subcmd__installer__subcmd__apply_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup installer apply commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__installer__subcmd__help_commands] )) ||
_agterm-backup__subcmd__installer__subcmd__help_commands() {
    local commands; commands=(
'apply:Add the hook to each agent'\''s config, claude/codex to agterm'\''s restore denylist, restore to tmux-resurrect'\''s post-restore hook and (asked) the shell line' \
'remove:Take out exactly what \`apply\` added; says what it leaves behind (backups)' \
'status:Report each target\: present, outdated, partial, duplicate, absent or unreadable' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'agterm-backup installer help commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__installer__subcmd__help__subcmd__apply_commands] )) ||
_agterm-backup__subcmd__installer__subcmd__help__subcmd__apply_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup installer help apply commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__installer__subcmd__help__subcmd__help_commands] )) ||
_agterm-backup__subcmd__installer__subcmd__help__subcmd__help_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup installer help help commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__installer__subcmd__help__subcmd__remove_commands] )) ||
_agterm-backup__subcmd__installer__subcmd__help__subcmd__remove_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup installer help remove commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__installer__subcmd__help__subcmd__status_commands] )) ||
_agterm-backup__subcmd__installer__subcmd__help__subcmd__status_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup installer help status commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__installer__subcmd__remove_commands] )) ||
_agterm-backup__subcmd__installer__subcmd__remove_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup installer remove commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__installer__subcmd__status_commands] )) ||
_agterm-backup__subcmd__installer__subcmd__status_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup installer status commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__man_commands] )) ||
_agterm-backup__subcmd__man_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup man commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__restart_commands] )) ||
_agterm-backup__subcmd__restart_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup restart commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__restore_commands] )) ||
_agterm-backup__subcmd__restore_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup restore commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__shell-answer_commands] )) ||
_agterm-backup__subcmd__shell-answer_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup shell-answer commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__shell-start_commands] )) ||
_agterm-backup__subcmd__shell-start_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup shell-start commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__snap_commands] )) ||
_agterm-backup__subcmd__snap_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup snap commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__status_commands] )) ||
_agterm-backup__subcmd__status_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup status commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__timer_commands] )) ||
_agterm-backup__subcmd__timer_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup timer commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__tmux-layout_commands] )) ||
_agterm-backup__subcmd__tmux-layout_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup tmux-layout commands' commands "$@"
}
(( $+functions[_agterm-backup__subcmd__uninstall_commands] )) ||
_agterm-backup__subcmd__uninstall_commands() {
    local commands; commands=()
    _describe -t commands 'agterm-backup uninstall commands' commands "$@"
}

if [ "$funcstack[1]" = "_agterm-backup" ]; then
    _agterm-backup "$@"
else
    compdef _agterm-backup agterm-backup
fi
