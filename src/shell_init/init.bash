# agterm-backup shell integration for bash: `eval "$(agterm-backup init bash)"` in ~/.bashrc.
# In a pane agterm, tmux or zmx brought back after a restart, the first prompt asks agterm-backup once
# whether this pane resumes an agent conversation, and if so runs the resume line here, in this shell.
# Anywhere else, or with AGTERM_BACKUP_AUTO=0, it does nothing.
if [[ $- == *i* && ${AGTERM_BACKUP_AUTO-} != 0 ]] &&
  [[ -n ${TMUX_PANE-} || -n ${ZMX_SESSION-} || ( -n ${AGTERM_SESSION_ID-} && -n ${AGTERM_PANE-} ) ]]; then
  __agterm_backup_start() {
    PROMPT_COMMAND=${PROMPT_COMMAND//$'\n'__agterm_backup_start/}
    unset -f __agterm_backup_start
    [[ -x @BIN@ ]] || return 0
    local __agterm_backup_out
    __agterm_backup_out=$(@BIN@ shell-start --shell bash 2>/dev/null) || return 0
    [[ $__agterm_backup_out == *$'\n'* ]] || return 0
    printf '%s\n' "${__agterm_backup_out%%$'\n'*}"
    eval "${__agterm_backup_out#*$'\n'}" || :
    return 0
  }
  PROMPT_COMMAND=${PROMPT_COMMAND-}$'\n'__agterm_backup_start
fi
