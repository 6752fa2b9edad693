#!/usr/bin/env bash
# Installs what the test suite needs on a fresh Debian/Ubuntu machine (or macOS with Homebrew):
#   - tmux (the fake agterm's panes are real shells in a private tmux server; the tmux terminal's tests
#     rebuild layouts in it, once with tmuxp), zsh and fish (their
#     completion scripts are run for real), ruby (the Homebrew formula is parsed)
#   - the real agent CLIs, pinned, from npm, into target/agent-clis (the end-to-end tests run them offline
#     against a stub model server on 127.0.0.1; without them those tests print SKIPPED)
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

CLAUDE_CODE_VERSION=2.1.328
CODEX_VERSION=0.169.0

need_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# tmux for the fake agterm's panes; zsh and fish to run their completion scripts; ruby to parse the
# Homebrew formula.
missing=()
for tool in tmux tmuxp zsh fish ruby; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
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

dir=target/agent-clis
have() { [ -x "$dir/node_modules/.bin/$1" ] && "$dir/node_modules/.bin/$1" --version 2>/dev/null | grep -q "$2"; }
if have claude "$CLAUDE_CODE_VERSION" && have codex "$CODEX_VERSION"; then
  echo "install-deps: agent CLIs present in $dir"
else
  mkdir -p "$dir"
  # A private prefix: nothing lands on the user's PATH or in their ~/.claude / ~/.codex.
  (cd "$dir" && HOME="$PWD/.npm-home" npm install --no-audit --no-fund --loglevel=error \
      --cache "$PWD/.npm-cache" \
      "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" "@openai/codex@$CODEX_VERSION" >/dev/null)
  echo "install-deps: installed claude-code $CLAUDE_CODE_VERSION and codex $CODEX_VERSION into $dir"
fi
