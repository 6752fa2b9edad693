//! ble.sh, the line editor for bash that no package registry carries (akinomyoga/ble.sh
//! b99cadb4520a1fdec0067fdc007b39cc905ecbad, `ble.pp`, `src/util.sh`, `src/canvas.sh`). Written from its
//! mechanism, not copied. `AGTERM_BACKUP_REAL_BLESH=<a built out/ble.sh>` runs the tests that use it
//! with the real one instead.

/// ble.sh as `source ble.sh` leaves a shell, and what `ble-attach` does to the terminal:
/// - `ble-attach` (`ble/term/stty/initialize`) puts the terminal in raw mode: `stty -ixon -echo -nl
///   -icrnl -icanon intr undef quit undef susp undef`;
/// - and queries it (`ble/term/DA2/request`: `CSI > c`; `ble/term/test-DECSTBM`: two cursor-position
///   requests `CSI 6 n`; `ble/util/c2w` measuring character widths: a test character then `CSI 6 n`
///   each). The terminal's replies wait unread: ble.sh reads them in its input loop, which starts after
///   the prompt's `PROMPT_COMMAND` ran (ble.sh evaluates it itself, on the terminal, still in raw mode).
///   Here that loop is the prompt's expansion: it reads what waits, drops the replies, puts the keys
///   back (TIOCSTI) for bash's own editor, and gives it the terminal back;
/// - while it edits, the shell's stderr is a file of its own (`ble-edit/io`: `exec 2>>$_ble_edit_io_fname2`,
///   the terminal kept on `_ble_util_fd_tui_stderr`), given back to the commands it runs; bash's `PS1` is
///   emptied and ble.sh draws the prompt (as `PROMPT_COMMAND` left `PS1`) on the terminal itself. Here:
///   stderr back on the terminal from Enter on (a `bind -x` before `accept-line`), `PS1` kept aside at
///   each prompt by a `PROMPT_COMMAND` element appended at attach and drawn by the input loop;
/// - `ble-attach` moves `PROMPT_COMMAND` into `_ble_edit_PROMPT_COMMAND` and evaluates it itself at each
///   prompt, on the terminal's stderr; what the rc file adds to `PROMPT_COMMAND` after the attach is run
///   by bash, with stderr still on ble.sh's file. Attached from `PROMPT_COMMAND` by an element that was
///   not its last, ble.sh evaluates the whole of it again for its first prompt;
/// - `source ble.sh --noattach` then `ble-attach` at the end of `.bashrc` (its README's recommended
///   setup) attaches as the rc file is read; a bare `source ble.sh` (the README's one-liner; bash 5.1+)
///   appends `ble/base/attach-from-PROMPT_COMMAND` to `PROMPT_COMMAND` (made an array), which takes
///   itself out and attaches at the first prompt, so `PROMPT_COMMAND` elements before it run before
///   the queries and those after it after.
///
/// `attach`: `true` for the one-liner (attach at the first prompt), `false` for `--noattach` (the test
/// calls `ble-attach` itself).
pub fn ble_sh(attach_at_prompt: bool) -> String {
    let attach = if attach_at_prompt {
        "((${#PROMPT_COMMAND[@]})) || PROMPT_COMMAND[0]=\n\
         PROMPT_COMMAND+=(ble/base/attach-from-PROMPT_COMMAND)\n"
    } else {
        ""
    };
    format!(
        r#"# --- test double: ble.sh ---
BLE_VERSION=0.4.0-devel4
ble/base/read-input() {{
  perl -e 'use Fcntl; my $fl = fcntl(STDIN, F_GETFL, 0); fcntl(STDIN, F_SETFL, $fl | O_NONBLOCK);
    my $in = ""; while (sysread(STDIN, my $b, 4096)) {{ $in .= $b }} fcntl(STDIN, F_SETFL, $fl);
    $in =~ s/\e\[[?>]?[0-9;]*\$?[cRy]//g; ioctl(STDIN, 0x5412, $_) for split //, $in' 2>/dev/null
  stty echo -nl icanon icrnl ixon intr '^C' quit '^\' susp '^Z' 2>/dev/null
  printf '%s' "$_ble_edit_PS1" >&"$_ble_util_fd_tui_stderr"
}}
ble-edit/io/restore() {{ exec 2>&"$_ble_util_fd_tui_stderr"; }}
ble-attach() {{
  [[ -z ${{_ble_attached-}} ]] || return 0
  _ble_attached=1
  stty -ixon -echo -nl -icrnl -icanon intr undef quit undef susp undef 2>/dev/null
  printf '\e[>c\e7\e[6n\e[6n'
  local c
  for c in a 'あ' '⌚' '∀' '…'; do printf '\r%s\e[6n' "$c"; done
  printf '\r\e[K\e8'
  _ble_edit_io_fname2=${{TMPDIR:-/tmp}}/blesh-double-$$.stderr
  exec {{_ble_util_fd_tui_stderr}}>&2 2>>"$_ble_edit_io_fname2"
  bind -x '"\C-x\C-b1": ble-edit/io/restore'
  bind '"\C-x\C-b2": accept-line'
  bind '"\C-m": "\C-x\C-b1\C-x\C-b2"'
  bind '"\C-j": "\C-x\C-b1\C-x\C-b2"'
  _ble_edit_PROMPT_COMMAND=("${{PROMPT_COMMAND[@]}}")
  PROMPT_COMMAND=(ble/prompt/update)
  ble/prompt/update keep
}}
ble/prompt/update() {{
  local c
  if [[ -z ${{1-}} ]]; then
    for c in "${{_ble_edit_PROMPT_COMMAND[@]}}"; do
      [[ -z $c ]] || eval "$c" 2>&"$_ble_util_fd_tui_stderr"
    done
  fi
  [[ $PS1 == '$(ble/base/read-input)' ]] && return 0
  _ble_edit_PS1=$PS1
  PS1='$(ble/base/read-input)'
}}
ble/base/attach-from-PROMPT_COMMAND() {{
  local i last=${{PROMPT_COMMAND[-1]}}
  for i in "${{!PROMPT_COMMAND[@]}}"; do
    [[ ${{PROMPT_COMMAND[i]}} != ble/base/attach-from-PROMPT_COMMAND ]] || PROMPT_COMMAND[i]=
  done
  ble-attach
  [[ $last == ble/base/attach-from-PROMPT_COMMAND ]] || ble/prompt/update
}}
{attach}# --- end of the ble.sh double ---
"#
    )
}
