# agterm-backup shell integration for fish: `agterm-backup init fish | source` in config.fish.
# In a pane agterm, tmux or zmx brought back after a restart, the first prompt asks agterm-backup once
# whether this pane resumes an agent conversation, and if so runs the resume line here, in this shell.
# Anywhere else, or with AGTERM_BACKUP_AUTO=0, it does nothing.
if status is-interactive; and test "$AGTERM_BACKUP_AUTO" != 0
    and begin
        test -n "$TMUX_PANE"; or test -n "$ZMX_SESSION"
        or begin
            test -n "$AGTERM_SESSION_ID"; and test -n "$AGTERM_PANE"
        end
    end
    function __agterm_backup_start --on-event fish_prompt
        functions --erase __agterm_backup_start
        test -x @BIN@; or return 0
        set -l out (@BIN@ shell-start --shell fish 2>/dev/null); or return 0
        test (count $out) -ge 2; or return 0
        printf '%s\n' $out[1]
        # The agent must own the terminal's foreground: run it with full job control, then put back
        # the user's setting.
        set -l mode interactive
        status is-full-job-control; and set mode full
        status is-no-job-control; and set mode none
        status job-control full
        eval $out[2]
        status job-control $mode
        return 0
    end
end
