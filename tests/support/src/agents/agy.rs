//! A test double of Antigravity CLI (`agy`), which no package registry carries: a shell script, run by a
//! copy of `/bin/sh` named `agy` (so the hook's process walk sees an `agy` process with its flags), that
//! does what agy's hooks documentation says the real one does, and nothing more:
//! - a conversation id (a UUID), or the one `--conversation <id>` names; its folder
//!   `~/.gemini/antigravity-cli/brain/<id>/.system_generated/logs/transcript_full.jsonl`;
//! - every model call (`FAKE_AGY_CALLS`, default 3) runs the `SessionStart` and `PreInvocation` handlers of
//!   every hook set in `~/.gemini/config/hooks.json`, and a `PreToolUse` one; the turn's end runs `Stop`;
//! - each handler gets a protojson payload on stdin: `conversationId`, `workspacePaths` (the working
//!   directory), `transcriptPath`, `hookEventName`;
//! - the conversation id is printed to the file `FAKE_AGY_ID_FILE` when set (what a user reads in the TUI).

/// The script; run it as `<dir>/agy <script> [--conversation <id>] [-p <prompt>] [flags…]`.
pub const FAKE_AGY: &str = r#"
set -u
id=""
while [ $# -gt 0 ]; do
  case "$1" in
    --conversation) id="$2"; shift 2 ;;
    --conversation=*) id="${1#--conversation=}"; shift ;;
    *) shift ;;
  esac
done
[ -n "$id" ] || id=$(cat /proc/sys/kernel/random/uuid)
[ -n "${FAKE_AGY_ID_FILE:-}" ] && printf '%s\n' "$id" >"$FAKE_AGY_ID_FILE"
logs="$HOME/.gemini/antigravity-cli/brain/$id/.system_generated/logs"
mkdir -p "$logs"
transcript="$logs/transcript_full.jsonl"
hooks="$HOME/.gemini/config/hooks.json"
fire() {
  [ -f "$hooks" ] || return 0
  payload=$(jq -cn --arg c "$id" --arg w "$PWD" --arg t "$transcript" --arg e "$1" \
    '{conversationId: $c, workspacePaths: [$w], transcriptPath: $t, hookEventName: $e}')
  jq -r --arg e "$1" 'to_entries[] | .value[$e]? // [] | .[] | (.command? // empty), (.hooks? // [] | .[] | .command? // empty)' "$hooks" |
  while IFS= read -r cmd; do
    printf '%s' "$payload" | sh -c "$cmd" >/dev/null 2>&1
  done
}
n=0
while [ "$n" -lt "${FAKE_AGY_CALLS:-3}" ]; do
  n=$((n + 1))
  fire SessionStart
  fire PreInvocation
  fire PreToolUse
  printf '{"step":%s}\n' "$n" >>"$transcript"
done
fire Stop
"#;
