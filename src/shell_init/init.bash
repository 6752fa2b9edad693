# agterm-backup shell integration for bash (~/.bashrc; `agterm-backup installer apply` writes the line).
# In a pane a terminal brought back after a restart, a prompt asks agterm-backup once whether this pane
# resumes an agent conversation, and if so runs the resume line here, in this shell. Anywhere else, with
# AGTERM_BACKUP_AUTO=0, or read a second time, it does nothing.
if [[ $- == *i* && ${AGTERM_BACKUP_AUTO-} != 0 && -z ${__agterm_backup_tries-} ]] &&
  @IN_A_PANE@; then
  # Nothing of ours is exported, not even under `set -a` (a child shell would see our names).
  case $- in *a*) set +a && __agterm_backup_allexport=1 ;; esac
  # 1 until the first prompt; 0 after it (ran, or stood aside): a later prompt comes after the user's
  # input, whose next lines go to their shell, never to a resumed agent. The function stays defined and
  # in PROMPT_COMMAND as a no-op that keeps `$?`: PROMPT_COMMAND's text is never edited after this line
  # (but for an exported one, below), since others append to it, copy it (starship, bash-preexec) or
  # make it an array. The entry is `… && :`: a failing `$?` handed on raises no second ERR (the user's
  # trap fires once per failure).
  __agterm_backup_tries=1
  __agterm_backup_start() {
    local __agterm_backup_status=$?
    # An exported PROMPT_COMMAND (a string: as an array it holds ours and more, and is never exported)
    # hands its text to every process started from here (the agent, `sudo -E bash`, `su`, `bash
    # --norc`), which lacks our function: the entry goes at the first prompt, before the resume, with
    # the `;` someone appending after it joined with.
    if [[ -z ${PROMPT_COMMAND[1]+set} ]] && compgen -e -X '!PROMPT_COMMAND' PROMPT_COMMAND >/dev/null; then
      PROMPT_COMMAND=${PROMPT_COMMAND//"__agterm_backup_start && :;"/}
      PROMPT_COMMAND=${PROMPT_COMMAND//"__agterm_backup_start && :"/}
    fi
    if ((__agterm_backup_tries > 0)); then
      __agterm_backup_once || :
    fi
    return $__agterm_backup_status
  }
  # A readonly PROMPT_COMMAND takes no hook. Asked now, a resume would run before the rest of the rc
  # files (the agent may not be on PATH yet), so one line says why not and what resumes it.
  __agterm_backup_instead() {
    [[ -t 0 && -t 1 && -t 2 && -x @BIN@ ]] || return 0
    local __agterm_backup_out
    __agterm_backup_out=$(@BIN@ shell-start --shell bash --shell-pid $$ 2>/dev/null) || :
    [[ $__agterm_backup_out == *$'\n'* ]] || return 0
    # A second line `:`: nothing to give back, the first says why nothing is resumed and how.
    if [[ ${__agterm_backup_out#*$'\n'} == : ]]; then
      printf '%s\n' "${__agterm_backup_out%%$'\n'*}"
      return 0
    fi
    @BIN@ shell-start --shell bash --shell-pid $$ --give-back >/dev/null 2>&1 || :
    printf 'agterm-backup: %s; to resume, run: %s\n' \
      'this pane does not resume by itself (PROMPT_COMMAND is readonly in this shell)' \
      "${__agterm_backup_out#*$'\n'}"
  }
  __agterm_backup_once() {
    # The resume needs the pane's terminal on stdin and stdout (a framework holding them elsewhere at
    # the first prompt gets no resume: a later prompt comes after the user's input). stderr may be
    # elsewhere (ble.sh keeps it in a file of its own while its prompt runs): the line gets stdout's.
    if [[ ! -t 0 || ! -t 1 ]] || ! [[ /dev/fd/0 -ef /dev/fd/1 ]]; then
      __agterm_backup_tries=$((__agterm_backup_tries - 1))
      return 0
    fi
    __agterm_backup_tries=0
    [[ -x @BIN@ ]] || return 0
    local __agterm_backup_out __agterm_backup_int=0 __agterm_backup_trap
    # Ctrl-C while asking: the answer is given back, not run (the process itself ignores it).
    __agterm_backup_trap=$(trap -p INT)
    trap '__agterm_backup_int=1' INT
    __agterm_backup_out=$(@BIN@ shell-start --shell bash --shell-pid $$ 2>/dev/null) || :
    if [[ -n $__agterm_backup_trap ]]; then eval "$__agterm_backup_trap"; else trap - INT; fi
    [[ $__agterm_backup_out == *$'\n'* ]] || return 0
    if [[ $__agterm_backup_int == 1 ]]; then
      @BIN@ shell-start --shell bash --shell-pid $$ --give-back >/dev/null 2>&1 || :
      return 0
    fi
    printf '%s\n' "${__agterm_backup_out%%$'\n'*}"
    # A second line `:` runs nothing: the first says why nothing is resumed (input typed ahead) and how
    # to resume it.
    [[ ${__agterm_backup_out#*$'\n'} != : ]] || return 0
    local __agterm_backup_ran=0 __agterm_backup_tty
    # The line runs with the terminal in the modes a command gets (ble.sh runs the prompt's hooks with it
    # raw, without echo, CR to NL or Ctrl-C), and the line editor's modes come back after it.
    __agterm_backup_tty=$(stty -g 2>/dev/null) || __agterm_backup_tty=
    stty icanon iexten echo icrnl -inlcr opost onlcr isig ixon intr '^C' quit '^\' susp '^Z' 2>/dev/null || :
    eval "${__agterm_backup_out#*$'\n'}" 2>&1 || __agterm_backup_ran=$?
    [[ -z $__agterm_backup_tty ]] || stty "$__agterm_backup_tty" 2>/dev/null || :
    # An agent that did not start or exited at once gives its claim back (a later prompt or `restore`
    # may try again); `shell-start` tells by the claim's age. A job stopped by a signal (148-150:
    # SIGTSTP, SIGTTIN, SIGTTOU) is still there and keeps its claim.
    if ((__agterm_backup_ran < 148 || __agterm_backup_ran > 150)); then
      @BIN@ shell-start --shell bash --shell-pid $$ --give-back >/dev/null 2>&1 || :
    fi
    return 0
  }
  # PROMPT_COMMAND's attributes: bash 4.4+ tells them without a subshell (one process less per pane;
  # an unset name is an error under `set -u`, off for that one expansion), older bash through `declare -p`.
  if ((BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1] >= 404)); then
    case $- in
    *u*) set +u && eval '__agterm_backup_decl=${PROMPT_COMMAND@a}' && set -u ;;
    *) eval '__agterm_backup_decl=${PROMPT_COMMAND@a}' ;;
    esac
  else
    __agterm_backup_decl=$(declare -p PROMPT_COMMAND 2>/dev/null) || __agterm_backup_decl=
    __agterm_backup_decl=${__agterm_backup_decl#declare -}
    __agterm_backup_decl=${__agterm_backup_decl%% *}
  fi
  case $__agterm_backup_decl in
  *r*)
    __agterm_backup_tries=0
    __agterm_backup_instead || :
    ;;
  *a*) PROMPT_COMMAND+=('__agterm_backup_start && :') ;;
  *)
    [[ -z ${PROMPT_COMMAND-} ]] || PROMPT_COMMAND+=$'\n'
    PROMPT_COMMAND+='__agterm_backup_start && :'
    ;;
  esac
  unset -f __agterm_backup_instead
  unset __agterm_backup_decl
  [[ -z ${__agterm_backup_allexport-} ]] || { unset __agterm_backup_allexport && set -a; }
fi
