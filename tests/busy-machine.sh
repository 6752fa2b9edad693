#!/usr/bin/env bash
# tests/busy-machine.sh '<command>': runs <command> (CI passes the README's test line, verbatim) as on a
# contributor's own busy machine, then proves the run left that machine alone.
#
# The machine it makes (issue 35):
# - HOME is a prepared folder holding a user's state: ~/.claude (settings with the user's own hook, a
#   conversation), ~/.codex, ~/.agterm-backup (records, a tmux layout), rc files.
# - tmux's default server (the socket tmux picks for this TMUX_TMPDIR, as the user's `tmux` would) runs
#   a long-lived stand-in `claude` in session `busy`; a server already there is left as it is and used.
# - zmx's default socket folder (ZMX_DIR, else $XDG_RUNTIME_DIR/zmx, else ${TMPDIR:-/tmp}/zmx-$UID)
#   exists; one already there is left as it is and used.
# <command> runs in a pane of that server (TMUX, TMUX_PANE), as typed into a contributor's terminal.
# After <command>: the same tmux server (pid), the same panes with the same processes, the stand-in still
# running, the zmx folder's listing and every file of the prepared HOME byte for byte (names and SHA-256;
# all but pip's and npm's own caches, which tests/install-deps.sh may fill) are checked; any difference
# fails the run, as does <command>'s own failure.
#
# What keeps pointing at the machine, on purpose (tools, never a user's state): the toolchain
# (CARGO_HOME, RUSTUP_HOME: cargo's registry and rustup's toolchains, from the real HOME when unset;
# PYENV_ROOT where pyenv lives there) and
# the tools folder of tests/install-deps.sh (AGTERM_BACKUP_AGENT_CLIS, from the real cache when unset), so
# the run reuses them and npm is not run again. Nothing else is written under the real HOME: the script
# writes only into its own folder (AGTERM_BACKUP_BUSY_ROOT, else a new /tmp/agb-busy.XXXXXX), the tmux
# server it starts and the zmx folder it makes; it removes exactly those at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 1 ] || { echo "usage: tests/busy-machine.sh '<command>'" >&2; exit 2; }
line=$1

real_home=${HOME:?HOME must be set}
export CARGO_HOME="${CARGO_HOME:-$real_home/.cargo}"
export RUSTUP_HOME="${RUSTUP_HOME:-$real_home/.rustup}"
# pyenv's shims (a pip-installed atuin) look for their versions under PYENV_ROOT, else ~/.pyenv.
if [ -z "${PYENV_ROOT:-}" ] && [ -d "$real_home/.pyenv" ]; then export PYENV_ROOT="$real_home/.pyenv"; fi
export AGTERM_BACKUP_AGENT_CLIS="${AGTERM_BACKUP_AGENT_CLIS:-${XDG_CACHE_HOME:-$real_home/.cache}/agterm-backup-tests/agent-clis}"

root=${AGTERM_BACKUP_BUSY_ROOT:-$(mktemp -d /tmp/agb-busy.XXXXXX)}
mkdir -p "$root"
home=$root/home
uid=$(id -u)
# zmx's own rule (cfg.zig socketDir).
if [ -n "${ZMX_DIR:-}" ]; then zmx_dir=$ZMX_DIR
elif [ -n "${XDG_RUNTIME_DIR:-}" ]; then zmx_dir=$XDG_RUNTIME_DIR/zmx
else tmp=${TMPDIR:-/tmp}; zmx_dir=${tmp%/}/zmx-$uid; fi
# The user's own tmux, as their shell runs it: their HOME, no TMUX (not inside a pane).
user_tmux() { env -u TMUX -u TMUX_PANE HOME="$home" tmux "$@"; }

started_server="" # the socket of the server this script started
made_zmx=""
cleanup() {
  if [ -n "$started_server" ]; then
    user_tmux kill-server 2>/dev/null || true
    # kill-server can leave the socket file behind; a later `tmux` would find it stale.
    rm -f "$started_server"
  fi
  if [ -n "$made_zmx" ]; then rm -rf "$zmx_dir"; fi
  if [ -z "${AGTERM_BACKUP_BUSY_KEEP:-}" ]; then rm -rf "$root"; fi
}
trap cleanup EXIT

# --- the user's state -------------------------------------------------------------------------------
mkdir -p "$home/.claude/projects/-home-user-work" "$home/.codex/sessions/2026/01/02" \
  "$home/.agterm-backup/live" "$home/.agterm-backup/tmux" "$root/bin" "$home/work"
cat >"$home/.claude/settings.json" <<'EOF'
{
  "model": "opus",
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send 'claude is done'"}]}]
  }
}
EOF
conv=6c1e0c2a-1111-4222-8333-0123456789ab
printf '%s\n' "{\"type\":\"user\",\"sessionId\":\"$conv\",\"cwd\":\"/home/user/work\",\"message\":{\"role\":\"user\",\"content\":\"hello\"}}" \
  >"$home/.claude/projects/-home-user-work/$conv.jsonl"
printf 'model = "gpt-5"\n[projects."/home/user/work"]\ntrust_level = "trusted"\n' >"$home/.codex/config.toml"
printf '%s\n' '{"type":"session_meta","payload":{"id":"0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b","cwd":"/home/user/work"}}' \
  >"$home/.codex/sessions/2026/01/02/rollout-2026-01-02T10-00-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl"
printf '%s\n' "{\"session_id\":\"$conv\",\"agent\":\"claude\",\"terminal\":\"tmux\",\"agent_cwd\":\"/home/user/work\"}" \
  >"$home/.agterm-backup/live/tmux.busy.json"
printf '%s\n' '{"socket":"/tmp/tmux-0/default","panes":[]}' >"$home/.agterm-backup/tmux/layout-busy.json"
printf 'PS1="user$ "\n' >"$home/.bashrc"
printf 'PROMPT="user%% "\n' >"$home/.zshrc"
printf 'set -g history-limit 5000\n' >"$home/.tmux.conf"
# A long-lived stand-in `claude` (argv[0] claude), as a user's agent waits for input.
printf '#!/usr/bin/env bash\nexec -a claude sleep 2147483647\n' >"$root/bin/claude"
chmod +x "$root/bin/claude"

# --- the user's terminals ---------------------------------------------------------------------------
if user_tmux has-session 2>/dev/null; then
  echo "busy-machine: using the tmux server already on the default socket" >&2
else
  user_tmux new-session -d -s busy -c "$home/work" "$root/bin/claude"
  started_server="${TMUX_TMPDIR:-/tmp}/tmux-$uid/default"
  # The snapshot below is taken once the stand-in runs as `claude` (its script has exec'd).
  for _ in $(seq 200); do
    pid=$(user_tmux list-panes -t busy -F '#{pane_pid}')
    case "$(ps -o args= -p "$pid")" in claude*) break ;; esac
    sleep 0.05
  done
fi
if [ -e "$zmx_dir" ]; then
  echo "busy-machine: using the zmx folder already at $zmx_dir" >&2
else
  mkdir -m 700 -p "$zmx_dir"
  : >"$zmx_dir/busy"
  made_zmx=1
fi

# --- what must stay as it is --------------------------------------------------------------------------
# SHA-256 of stdin (shasum where sha256sum is missing: macOS).
digest() { if command -v sha256sum >/dev/null; then sha256sum; else shasum -a 256; fi | cut -d' ' -f1; }
snapshot() {
  echo "tmux server: $(user_tmux display-message -p '#{pid}' 2>&1)"
  user_tmux list-panes -a -F '#{session_name}:#{window_index}.#{pane_index} #{pane_id} #{pane_pid}' 2>&1 || true
  for pid in $(user_tmux list-panes -a -F '#{pane_pid}' 2>/dev/null); do
    echo "pane process $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || ps -o args= -p "$pid")"
  done
  echo "zmx folder $zmx_dir:"
  ls -lA "$zmx_dir" 2>&1 || true
  echo "HOME $home:"
  # Every file but what the package installers the line runs keep for themselves (pip's cache and
  # --user installs, npm's cache): the user's state is what a test could touch.
  (cd "$home" && find . \( -path ./.cache/pip -o -path ./.npm -o -path ./.local/bin \
    -o -path './.local/lib/python*' \) -prune -o \( -type f -o -type l -o -type s -o -type p \) -print |
    LC_ALL=C sort |
    while IFS= read -r f; do
      if [ -f "$f" ] && [ ! -L "$f" ]; then echo "$(digest <"$f") $f"; else echo "special $f"; fi
    done)
}
snapshot >"$root/before"

# The contributor types the line into a pane of their tmux server: the run inherits that pane's TMUX and
# TMUX_PANE, as it would.
pane=$(user_tmux list-panes -a -F '#{pane_id}' | head -n 1)
sid=$(user_tmux display-message -p -t "$pane" '#{session_id}')
inside="$(user_tmux display-message -p -t "$pane" '#{socket_path},#{pid}'),${sid#\$}"
status=0
HOME="$home" TMUX="$inside" TMUX_PANE="$pane" bash -c "$line" || status=$?

snapshot >"$root/after"
if ! diff -u "$root/before" "$root/after" >&2; then
  echo "busy-machine: the run changed the user's machine (above: - before, + after)" >&2
  status=1
fi
if [ -n "$started_server" ] && ! grep -q '^pane process [0-9]*: claude ' "$root/after"; then
  echo "busy-machine: the stand-in claude in session busy is gone" >&2
  status=1
fi
[ "$status" -eq 0 ] && echo "busy-machine: the user's tmux server, panes, zmx folder and HOME are untouched" >&2
exit "$status"
