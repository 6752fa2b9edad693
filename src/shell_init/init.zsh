# agterm-backup shell integration for zsh: `eval "$(agterm-backup init zsh)"` in ~/.zshrc.
# In a pane agterm, tmux or zmx brought back after a restart, the first prompt asks agterm-backup once
# whether this pane resumes an agent conversation, and if so runs the resume line here, in this shell.
# Anywhere else, or with AGTERM_BACKUP_AUTO=0, it does nothing.
if [[ -o interactive && ${AGTERM_BACKUP_AUTO-} != 0 ]] &&
  [[ -n ${TMUX_PANE-} || -n ${ZMX_SESSION-} || ( -n ${AGTERM_SESSION_ID-} && -n ${AGTERM_PANE-} ) ]]; then
  __agterm_backup_start() {
    emulate -L zsh
    precmd_functions=(${precmd_functions:#__agterm_backup_start})
    unfunction __agterm_backup_start
    [[ -x @BIN@ ]] || return 0
    local out
    out=$(@BIN@ shell-start --shell zsh 2>/dev/null) || return 0
    [[ $out == *$'\n'* ]] || return 0
    print -r -- "${out%%$'\n'*}"
    eval "${out#*$'\n'}"
    return 0
  }
  typeset -ga precmd_functions
  precmd_functions+=(__agterm_backup_start)
fi
