//! oh-my-zsh, which no package registry carries: what its `oh-my-zsh.sh` leaves in a shell that matters
//! to the integration, from ohmyzsh/ohmyzsh's `lib/termsupport.zsh` (c11a70308fb554e3c8e6db74049ef49900dc48de)
//! and `lib/async_prompt.zsh` (f78c6b90fc18e2d0bb119ff549207463ce1d57a5). Written here from their
//! mechanism, not copied.

/// oh-my-zsh as `source $ZSH/oh-my-zsh.sh` leaves it, with a theme whose prompt shows an async handler's
/// output:
/// - termsupport: `add-zsh-hook precmd omz_termsupport_precmd` (the title, printed to the terminal at
///   every prompt) and `preexec omz_termsupport_preexec` (the command as the title);
/// - the async prompt: `add-zsh-hook precmd _omz_async_request`, which forks each registered handler
///   behind `exec {fd}< <(…)` (the child first says its pid on the pipe), reads that pid, and
///   registers `zle -F $fd _omz_async_callback`; the callback reads the output into
///   `_OMZ_ASYNC_OUTPUT[handler]`, repaints with `zle .reset-prompt`, closes the fd and unregisters it;
/// - a theme (as robbyrussell's `$(git_prompt_info)`) whose prompt shows that output: here
///   `omz[async-N]$ `, N counting the requests, so a prompt repainted with a later N proves the async
///   hook still runs.
pub fn oh_my_zsh() -> &'static str {
    r#"# --- test double: oh-my-zsh (termsupport + async prompt + a theme) ---
zmodload zsh/system
autoload -Uz add-zsh-hook
function omz_termsupport_precmd { print -Pn "\e]2;%n@%m: %~\a" }
function omz_termsupport_preexec { print -Pn "\e]2;${2//\%/%%}\a" }
add-zsh-hook precmd omz_termsupport_precmd
add-zsh-hook preexec omz_termsupport_preexec
typeset -ga _omz_async_functions
typeset -gA _OMZ_ASYNC_FDS _OMZ_ASYNC_PIDS _OMZ_ASYNC_OUTPUT
typeset -gi __omz_async_requests=0
function _omz_async_request {
  local -i ret=$? fd
  local handler
  (( __omz_async_requests++ ))
  for handler in $_omz_async_functions; do
    fd=${_OMZ_ASYNC_FDS[$handler]:--1}
    if (( fd != -1 )) && { true <&$fd } 2>/dev/null; then
      exec {fd}<&-
      zle -F $fd
    fi
    exec {fd}< <(
      builtin echo ${sysparams[pid]}
      () { return $ret }
      $handler
    )
    _OMZ_ASYNC_FDS[$handler]=$fd
    read -u $fd "_OMZ_ASYNC_PIDS[$handler]"
    zle -F "$fd" _omz_async_callback
  done
}
function _omz_async_callback {
  emulate -L zsh
  local fd=$1 err=$2 handler
  if [[ -z $err || $err == hup ]]; then
    handler=${(k)_OMZ_ASYNC_FDS[(r)$fd]}
    local old=${_OMZ_ASYNC_OUTPUT[$handler]}
    IFS= read -r -u $fd -d '' "_OMZ_ASYNC_OUTPUT[$handler]"
    if [[ $old != ${_OMZ_ASYNC_OUTPUT[$handler]} ]]; then
      zle .reset-prompt
      zle -R
    fi
    exec {fd}<&-
  fi
  zle -F "$fd"
  _OMZ_ASYNC_FDS[$handler]=-1
}
function _omz_git_prompt_info_async { builtin print -rn -- "async-$__omz_async_requests" }
_omz_async_functions+=(_omz_git_prompt_info_async)
add-zsh-hook precmd _omz_async_request
setopt prompt_subst
PROMPT='omz[${_OMZ_ASYNC_OUTPUT[_omz_git_prompt_info_async]:-}]$ '
# --- end of the oh-my-zsh double ---
"#
}
