# agterm-backup shell integration for fish: `agterm-backup init fish | source` in config.fish.
# In a pane agterm, tmux or zmx brought back after a restart, it asks agterm-backup once whether this
# pane resumes an agent conversation, and if so runs the resume line here, in this shell. Anywhere else,
# or with AGTERM_BACKUP_AUTO=0, it does nothing.
#
# fish hands the terminal to no job an event handler starts (`fish_prompt` included), so this runs as
# config.fish is read, with full job control: the agent is a job of its own that owns the terminal's
# foreground, and fish takes the terminal back when it exits. Put the line last in config.fish.
# (`fish -i -c …` run by a tool counts as interactive too: only a shell writing to a terminal goes on;
# stdin is `| source`'s pipe.)
if status is-interactive; and isatty stdout; and test "$AGTERM_BACKUP_AUTO" != 0
    and begin
        test -n "$TMUX_PANE"; or test -n "$ZMX_SESSION"
        or begin
            test -n "$AGTERM_SESSION_ID"; and test -n "$AGTERM_PANE"
        end
    end
    and test -x @BIN@
    set -l __agterm_backup_out (@BIN@ shell-start --shell fish 2>/dev/null </dev/tty)
    if test (count $__agterm_backup_out) -ge 2
        printf '%s\n' $__agterm_backup_out[1]
        set -l __agterm_backup_mode interactive
        status is-full-job-control; and set __agterm_backup_mode full
        status is-no-job-control; and set __agterm_backup_mode none
        status job-control full
        # `init fish | source` reads this from a pipe: the agent gets the terminal as its input.
        eval $__agterm_backup_out[2] </dev/tty
        status job-control $__agterm_backup_mode
    end
end
