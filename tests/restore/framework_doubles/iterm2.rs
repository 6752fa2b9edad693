//! iTerm2's shell integration for zsh, which users source from `~/.zshrc` and which no package registry
//! carries: gnachman/iTerm2-shell-integration 546b8fe7c88200c0d63ab7fb1c377252289cb833,
//! `shell_integration/zsh`. Written here from its mechanism, not copied.

/// `~/.iterm2_shell_integration.zsh` as it behaves outside tmux: `iterm2_precmd` appended to
/// `precmd_functions` (it reports the last status and the state with OSC 133/1337 marks, then wraps
/// `PS1` in prompt marks, keeping the raw one in `ITERM2_PRECMD_PS1`), `iterm2_preexec` appended to
/// `preexec_functions` (it puts the raw `PS1` back before the command runs). The double counts its
/// precmd runs in `__iterm2_precmds`, which a later prompt shows.
pub fn iterm2_zsh() -> &'static str {
    r#"# --- test double: iTerm2 shell integration (zsh) ---
if [[ -o interactive && -z ${ITERM_SHELL_INTEGRATION_INSTALLED-} ]]; then
  ITERM_SHELL_INTEGRATION_INSTALLED=Yes
  ITERM2_SHOULD_DECORATE_PROMPT=1
  typeset -gi __iterm2_precmds=0
  iterm2_prompt_mark() { printf '\033]133;A\007' }
  iterm2_prompt_end() { printf '\033]133;B\007' }
  iterm2_before_cmd_executes() { printf '\033]133;C;\007' }
  iterm2_after_cmd_executes() {
    printf '\033]133;D;%s\007' "$1"
    printf '\033]1337;CurrentDir=%s\007' "$PWD"
  }
  iterm2_decorate_prompt() {
    ITERM2_PRECMD_PS1=$PS1
    ITERM2_SHOULD_DECORATE_PROMPT=
    PS1="%{$(iterm2_prompt_mark)%}$PS1%{$(iterm2_prompt_end)%}"
    ITERM2_DECORATED_PS1=$PS1
  }
  iterm2_precmd() {
    local STATUS=$?
    (( __iterm2_precmds++ ))
    if [[ -z ${ITERM2_SHOULD_DECORATE_PROMPT-} ]]; then
      iterm2_before_cmd_executes
      [[ $PS1 != ${ITERM2_DECORATED_PS1-} ]] && ITERM2_SHOULD_DECORATE_PROMPT=1
    fi
    iterm2_after_cmd_executes "$STATUS"
    [[ -n $ITERM2_SHOULD_DECORATE_PROMPT ]] && iterm2_decorate_prompt
  }
  iterm2_preexec() {
    PS1=$ITERM2_PRECMD_PS1
    ITERM2_SHOULD_DECORATE_PROMPT=1
    iterm2_before_cmd_executes
  }
  [[ -z ${precmd_functions-} ]] && precmd_functions=()
  precmd_functions=($precmd_functions iterm2_precmd)
  [[ -z ${preexec_functions-} ]] && preexec_functions=()
  preexec_functions=($preexec_functions iterm2_preexec)
  printf '\033]1337;ShellIntegrationVersion=15;shell=zsh\007'
fi
# --- end of the iTerm2 double ---
"#
}
