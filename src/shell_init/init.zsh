# agterm-backup shell integration for zsh (~/.zshrc; `agterm-backup installer apply` writes the line).
# In a pane a terminal brought back after a restart, the first prompt asks agterm-backup once whether
# this pane resumes an agent conversation, and if so runs the resume line here, in this shell. Anywhere
# else, with AGTERM_BACKUP_AUTO=0, or read a second time, it does nothing.
if [[ -o interactive && ${AGTERM_BACKUP_AUTO-} != 0 && -z ${__agterm_backup_tries-} ]] &&
  @IN_A_PANE@; then
  # 1 until the first prompt; 0 after it: a later prompt comes after the user's input, whose next lines
  # go to their shell, never to a resumed agent. The hook stays in precmd_functions as a no-op rather
  # than being taken out: a framework may have copied the array.
  typeset -gi __agterm_backup_tries=1
  typeset -g +x __agterm_backup_tries # not exported, even under ALL_EXPORT
  __agterm_backup_start() {
    local -i ran=$?
    emulate -L zsh
    # The prompt after the line the line editor ran (below): its status says whether it stayed up.
    if [[ -n ${__agterm_backup_typed-} && -z ${1-} ]]; then
      unset __agterm_backup_typed
      __agterm_backup_give_back $ran
      return 0
    fi
    if [[ -z ${1-} ]]; then
      (( __agterm_backup_tries > 0 )) || return 0
      __agterm_backup_tries=0
    fi
    # The resume needs the pane's terminal on stdin, stdout and stderr. powerlevel10k's instant prompt
    # holds them on /dev/null and a temp file while the rc file is read: without its theme, a `sched +0`
    # of its own gives them back (ours is queued behind it); its theme drops that hook and gives them
    # back only as it expands the first prompt, so then the line editor's start (zle-line-init, before
    # it reads a key) asks.
    if [[ ! -t 0 || ! -t 1 || ! -t 2 ]] || ! [[ /dev/fd/0 -ef /dev/fd/1 && /dev/fd/0 -ef /dev/fd/2 ]]; then
      if [[ -z ${1-} ]] && zmodload zsh/sched 2>/dev/null; then
        sched +0 __agterm_backup_start sched
      elif [[ ${1-} == sched ]] && autoload -Uz add-zle-hook-widget 2>/dev/null; then
        typeset -gi __agterm_backup_histcmd=$HISTCMD
        add-zle-hook-widget line-init __agterm_backup_line_init 2>/dev/null
      fi
      return 0
    fi
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
    [[ ${1-} == line-init ]] && zle -I
    print -r -- "${out%%$'\n'*}"
    # A second line `:` runs nothing: the first says why nothing is resumed (input typed ahead) and how
    # to resume it.
    local line=${out#*$'\n'}
    [[ $line != : ]] || return 0
    if [[ ${1-} == line-init ]]; then
      # In the line editor: the line runs as this prompt's command, with the terminal and job control a
      # command gets; kept out of the history; the next prompt gives the claim back if it failed.
      typeset -g __agterm_backup_typed=$line
      typeset -ga zshaddhistory_functions
      zshaddhistory_functions=(__agterm_backup_unsaved $zshaddhistory_functions)
      BUFFER=$line
      zle .accept-line
    else
      eval "$line"
      __agterm_backup_give_back $?
    fi
    return 0
  }
  __agterm_backup_line_init() {
    add-zle-hook-widget -d line-init __agterm_backup_line_init 2>/dev/null
    # Only at the prompt it was set up at: no command ran since. A widget runs with stdin on /dev/null:
    # the terminal is the one on stdout.
    (( HISTCMD == __agterm_backup_histcmd )) && __agterm_backup_start line-init <&1
    return 0
  }
  __agterm_backup_unsaved() {
    emulate -L zsh
    zshaddhistory_functions=(${zshaddhistory_functions:#__agterm_backup_unsaved})
    [[ ${1%$'\n'} != ${__agterm_backup_typed-} ]]
  }
  __agterm_backup_give_back() {
    # An agent that did not start or exited at once gives its claim back (a later prompt or `restore`
    # may try again); `shell-start` tells by the claim's age. A job stopped by a signal (148-150:
    # SIGTSTP, SIGTTIN, SIGTTOU) is still there and keeps its claim.
    if (( $1 < 148 || $1 > 150 )); then
      @BIN@ shell-start --shell zsh --shell-pid $$ --give-back >/dev/null 2>&1
    fi
  }
  typeset -ga precmd_functions
  precmd_functions+=(__agterm_backup_start)
fi
