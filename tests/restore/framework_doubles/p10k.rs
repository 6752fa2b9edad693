//! powerlevel10k, which no package registry carries (romkatv/powerlevel10k
//! 604f19a9eaa18e76db2e60b8d446d5f879065f90, internal/p10k.zsh). Written from its mechanism, not copied.
//! `AGTERM_BACKUP_REAL_P10K=<a checkout>` runs the tests that use it with the real theme instead.

/// The instant prompt, as `_p9k_dump_instant_prompt` writes the preamble `~/.zshrc` sources first: the
/// cached prompt drawn at once, the terminal out of canonical mode (`stty -icanon`), stdin parked on
/// /dev/null and stdout/stderr on a temp file while the rc file is read (the saved descriptors in
/// `__p9k_fd_{0,1,2}`); `_p9k_instant_prompt_precmd_first`, first in `precmd_functions`, queues a
/// `sched +0 _p9k_instant_prompt_sched_last` that gives them back, with the output, if nothing did
/// before (the theme not loaded).
pub fn p10k_instant_prompt() -> &'static str {
    r#"# --- test double: powerlevel10k instant prompt ---
zmodload zsh/system zsh/sched
print -rn -- $'instant$ \e[?2004h'
(( $+commands[stty] )) && command stty -icanon 2>/dev/null
typeset -g __p9k_instant_prompt_output=${TMPDIR:-/tmp}/p10k-instant-prompt-output-$$
: > $__p9k_instant_prompt_output
sysopen -ru __p9k_fd_null /dev/null
exec {__p9k_fd_0}<&0 {__p9k_fd_1}>&1 {__p9k_fd_2}>&2 0<&$__p9k_fd_null 1>$__p9k_instant_prompt_output
exec 2>&1 {__p9k_fd_null}>&-
typeset -gi __p9k_instant_prompt_active=1
function _p9k_instant_prompt_cleanup() {
  (( ZSH_SUBSHELL == 0 && ${+__p9k_instant_prompt_active} )) || return 0
  unset __p9k_instant_prompt_active
  exec 0<&$__p9k_fd_0 1>&$__p9k_fd_1 2>&$__p9k_fd_2 {__p9k_fd_0}>&- {__p9k_fd_1}>&- {__p9k_fd_2}>&-
  unset __p9k_fd_0 __p9k_fd_1 __p9k_fd_2
  [[ -s $__p9k_instant_prompt_output ]] && command cat $__p9k_instant_prompt_output 2>/dev/null
  zshexit_functions=(${zshexit_functions:#_p9k_instant_prompt_cleanup})
  rm -f -- $__p9k_instant_prompt_output
}
function _p9k_instant_prompt_precmd_first() {
  function _p9k_instant_prompt_sched_last() {
    (( ${+__p9k_instant_prompt_active} )) || return 0
    _p9k_instant_prompt_cleanup 1
  }
  zmodload zsh/sched
  sched +0 _p9k_instant_prompt_sched_last
  precmd_functions=(${(@)precmd_functions:#_p9k_instant_prompt_precmd_first})
}
zshexit_functions=(_p9k_instant_prompt_cleanup $zshexit_functions)
precmd_functions=(_p9k_instant_prompt_precmd_first $precmd_functions)
# --- end of the instant prompt double ---
"#
}

/// The theme, as `source powerlevel10k.zsh-theme` and a config leave it:
/// - `prompt_powerlevel9k_teardown` drops every precmd and preexec hook named `_p9k_*` — the instant
///   prompt's `_p9k_instant_prompt_precmd_first` with them, so its `sched +0` is never queued — and
///   `_p9k_setup` puts `_p9k_do_nothing` and `_p9k_precmd_first` first and `_p9k_precmd` last;
///   `_p9k_precmd` moves itself back to the end whenever something was appended after it, and counts
///   its runs in `__p9k_precmds` (the real one draws the prompt);
/// - the descriptors come back only as the first prompt is expanded: `PROMPT` calls the math function
///   `_p9k_on_expand`, whose `_p9k_clear_instant_prompt` restores them and shows what the rc file
///   printed meanwhile — after a warning when `POWERLEVEL9K_INSTANT_PROMPT=verbose`.
pub fn p10k_theme(verbose: bool) -> String {
    let mode = if verbose { "verbose" } else { "quiet" };
    format!(
        r#"# --- test double: powerlevel10k theme ---
autoload -Uz add-zsh-hook
typeset -g POWERLEVEL9K_INSTANT_PROMPT={mode}
typeset -gi __p9k_precmds=0
add-zsh-hook -D precmd '(_p9k_|powerlevel9k_)*'
add-zsh-hook -D preexec '(_p9k_|powerlevel9k_)*'
_p9k_do_nothing() {{ true; }}
_p9k_precmd_first() {{ typeset -ga precmd_functions=(${{precmd_functions:#_p9k_precmd_first}}); }}
_p9k_precmd() {{
  (( ++__p9k_precmds ))
  if [[ $precmd_functions[-1] != _p9k_precmd ]]; then
    precmd_functions=(${{(@)precmd_functions:#_p9k_precmd}} _p9k_precmd)
  fi
  (( ${{+__p9k_instant_prompt_active}} )) && __p9k_instant_prompt_active=2
  return 0
}}
function _p9k_clear_instant_prompt() {{
  if (( $+__p9k_fd_0 )); then
    exec 0<&$__p9k_fd_0 {{__p9k_fd_0}}>&-
    unset __p9k_fd_0
  fi
  exec 1>&$__p9k_fd_1 2>&$__p9k_fd_2 {{__p9k_fd_1}}>&- {{__p9k_fd_2}}>&-
  unset __p9k_fd_1 __p9k_fd_2
  zshexit_functions=(${{zshexit_functions:#_p9k_instant_prompt_cleanup}})
  if [[ -s $__p9k_instant_prompt_output ]]; then
    if [[ $POWERLEVEL9K_INSTANT_PROMPT == verbose ]]; then
      echo -E - "[WARNING]: Console output during zsh initialization detected."
    fi
    command cat -- $__p9k_instant_prompt_output
  fi
  rm -f -- $__p9k_instant_prompt_output
}}
function _p9k_on_expand() {{
  if (( $+__p9k_instant_prompt_active )); then
    _p9k_clear_instant_prompt
    unset __p9k_instant_prompt_active
  fi
  return 0
}}
functions -M _p9k_on_expand
typeset -ga precmd_functions=(_p9k_do_nothing _p9k_precmd_first $precmd_functions _p9k_precmd)
setopt prompt_subst
PROMPT='${{$((_p9k_on_expand()))+}}$ '
# --- end of the theme double ---
"#
    )
}
