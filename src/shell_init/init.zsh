# agterm-backup shell integration for zsh (~/.zshrc; `agterm-backup installer apply` writes the line).
# In a pane agterm, tmux or zmx brought back after a restart, a prompt asks agterm-backup once whether
# this pane resumes an agent conversation, and if so runs the resume line here, in this shell.
# Anywhere else, with AGTERM_BACKUP_AUTO=0, or read a second time, it does nothing.
if [[ -o interactive && ${AGTERM_BACKUP_AUTO-} != 0 && -z ${__agterm_backup_tries-} ]] &&
  [[ -n ${TMUX_PANE-} || -n ${ZMX_SESSION-} || ( -n ${AGTERM_SESSION_ID-} && -n ${AGTERM_PANE-} ) ]]; then
  # Prompts left to try at; 0: done (ran, or stood aside). The hook stays in precmd_functions as a no-op
  # rather than being taken out: a framework may have copied the array.
  typeset -gi __agterm_backup_tries=5
  typeset -g +x __agterm_backup_tries # not exported, even under ALL_EXPORT
  __agterm_backup_start() {
    emulate -L zsh
    (( __agterm_backup_tries > 0 )) || return 0
    # The resume needs the pane's terminal on stdin, stdout and stderr. A framework may hold them
    # elsewhere at precmd (powerlevel10k's instant prompt: /dev/null and a temp file, given back by a
    # `sched +0` of its own): try again right after it, from a `sched +0` queued behind its one.
    if [[ ! -t 0 || ! -t 1 || ! -t 2 ]] || ! [[ /dev/fd/0 -ef /dev/fd/1 && /dev/fd/0 -ef /dev/fd/2 ]]; then
      if [[ ${1-} != sched ]] && zmodload zsh/sched 2>/dev/null; then
        sched +0 __agterm_backup_start sched
      else
        (( __agterm_backup_tries-- ))
      fi
      return 0
    fi
    __agterm_backup_tries=0
    [[ -x @BIN@ ]] || return 0
    local out
    # Ctrl-C while asking: the answer is given back, not run (the process itself ignores it).
    local -i interrupted=0
    trap 'interrupted=1' INT
    out=$(@BIN@ shell-start --shell zsh --shell-pid $$ 2>/dev/null)
    trap - INT
    [[ $out == *$'\n'* ]] || return 0
    if (( interrupted )); then
      @BIN@ shell-start --shell zsh --shell-pid $$ --give-back >/dev/null 2>&1
      return 0
    fi
    print -r -- "${out%%$'\n'*}"
    eval "${out#*$'\n'}"
    local ran=$?
    # An agent that did not start or exited at once gives its claim back (a later prompt or `restore`
    # may try again); `shell-start` tells by the claim's age. A job stopped by a signal (148-150:
    # SIGTSTP, SIGTTIN, SIGTTOU) is still there and keeps its claim.
    if (( ran < 148 || ran > 150 )); then
      @BIN@ shell-start --shell zsh --shell-pid $$ --give-back >/dev/null 2>&1
    fi
    return 0
  }
  typeset -ga precmd_functions
  precmd_functions+=(__agterm_backup_start)
fi
