# agterm-backup shell integration for fish (config.fish; `agterm-backup installer apply` writes the line,
# which sources this file from the state folder, else runs `agterm-backup init fish | source`).
# In a pane agterm, tmux or zmx brought back after a restart, it asks agterm-backup once whether this
# pane resumes an agent conversation, and if so runs the resume line here, in this shell. Anywhere else,
# with AGTERM_BACKUP_AUTO=0, or read a second time, it does nothing.
#
# fish hands the terminal to no job an event handler starts (`fish_prompt` included), so this runs as
# config.fish is read, with full job control: the agent is a job of its own that owns the terminal's
# foreground, and fish takes the terminal back when it exits. Put the line last in config.fish.
# It runs only with stdout and stderr on a terminal, and not in `fish -c CMD` (`-i -c` too): CMD runs,
# not a resume. The agent reads stderr's terminal: stdin is `| source`'s pipe when read that way (and
# no `/dev/tty`, which a fish without a controlling terminal cannot open).
if status is-interactive; and not set -q __agterm_backup_done; and test "$AGTERM_BACKUP_AUTO" != 0
    and isatty stdout; and isatty stderr
    and begin
        test -n "$TMUX_PANE"; or test -n "$ZMX_SESSION"
        or begin
            test -n "$AGTERM_SESSION_ID"; and test -n "$AGTERM_PANE"
        end
    end
    and test -x @BIN@
    set -g __agterm_backup_done 1
    set -l __agterm_backup_argv
    if test -r /proc/$fish_pid/cmdline
        set __agterm_backup_argv (string split0 </proc/$fish_pid/cmdline)
    else
        set __agterm_backup_argv (string split ' ' -- (ps -o args= -p $fish_pid 2>/dev/null))
    end
    if not string match -qr -- '^(-[a-zA-Z]*c[a-zA-Z]*|--command(=.*)?)$' $__agterm_backup_argv[2..-1]
        set -l __agterm_backup_out (@BIN@ shell-start --shell fish --shell-pid $fish_pid 2>/dev/null <&2)
        if test (count $__agterm_backup_out) -ge 2
            printf '%s\n' $__agterm_backup_out[1]
            set -l __agterm_backup_mode interactive
            status is-full-job-control; and set __agterm_backup_mode full
            status is-no-job-control; and set __agterm_backup_mode none
            status job-control full
            eval $__agterm_backup_out[2] <&2
            status job-control $__agterm_backup_mode
            # An agent that did not start or exited at once gives its claim back (a later shell or
            # `restore` may try again); `shell-start` tells by the claim's age.
            @BIN@ shell-start --shell fish --shell-pid $fish_pid --give-back >/dev/null 2>&1
        end
    end
end
