# agterm-backup shell integration for fish (config.fish; `agterm-backup installer apply` writes the line,
# which sources this file from the state folder, else runs `agterm-backup init fish | source`).
# In a pane a terminal brought back after a restart, it asks agterm-backup once whether this pane resumes
# an agent conversation, and if so runs the resume line here, in this shell. Anywhere else, with
# AGTERM_BACKUP_AUTO=0, or read a second time, it does nothing.
#
# It runs at the first prompt (the `fish_prompt` event), not where the line sits: by then every config
# file has run (a PATH, function or variable the agent needs may come after this line, in config.fish or
# a later conf.d file), and fish 4 has read its terminal's answers to the queries it sends before that
# prompt (they are not typed-ahead input). `fish -c CMD` (`-i -c` too) has no prompt: CMD runs, not a
# resume.
if status is-interactive; and not set -q __agterm_backup_done; and test "$AGTERM_BACKUP_AUTO" != 0
    and isatty stdout; and isatty stderr
    and begin
        @IN_A_PANE@
    end
    and test -x @BIN@
    set -g __agterm_backup_done 1
    function __agterm_backup_start --on-event fish_prompt
        functions -e __agterm_backup_start
        test "$AGTERM_BACKUP_AUTO" != 0; or return 0 # set after this line
        set -l __agterm_backup_out (@BIN@ shell-start --shell fish --shell-pid $fish_pid 2>/dev/null <&2)
        test (count $__agterm_backup_out) -ge 2; or return 0
        printf '%s\n' $__agterm_backup_out[1]
        # A second line `:` runs nothing: the first says why nothing is resumed (input typed ahead) and
        # how to resume it.
        test "$__agterm_backup_out[2]" != :; or return 0
        # fish gives the terminal to no job an event handler starts. A fish of its own, in this fish's
        # process group (the foreground one), runs the line with full job control: the agent is a job of
        # its own that owns the terminal, and the terminal comes back after it. It reads the config files
        # again, so what they define (a `claude` wrapper) is there; the terminal is in the modes fish gives
        # the commands it runs (line editing and echo on) meanwhile.
        set -l __agterm_backup_mode interactive
        status is-full-job-control; and set __agterm_backup_mode full
        status is-no-job-control; and set __agterm_backup_mode none
        set -l __agterm_backup_tty (stty -g <&2 2>/dev/null)
        stty icanon iexten echo icrnl -inlcr opost onlcr <&2 2>/dev/null
        set -l __agterm_backup_fish (status fish-path)
        status job-control none
        $__agterm_backup_fish -c "status job-control full; $__agterm_backup_out[2]" <&2
        status job-control $__agterm_backup_mode
        test -n "$__agterm_backup_tty"; and stty $__agterm_backup_tty <&2 2>/dev/null
        # An agent that did not start or exited at once gives its claim back (a later shell or
        # `restore` may try again); `shell-start` tells by the claim's age.
        @BIN@ shell-start --shell fish --shell-pid $fish_pid --give-back >/dev/null 2>&1
    end
end
