# strict mode: I want to hear about typos in my own config
set -u
set -o pipefail
export PATH="$HOME/.local/bin:$PATH"
[[ -n "${TMUX:-}" ]] && export TERM=screen-256color
PROMPT_COMMAND="history -a${PROMPT_COMMAND:+; $PROMPT_COMMAND}"
