set -gx GOPATH ~/go
function fish_greeting; end

# >>> agterm-backup >>>
# agterm-backup: a pane rebuilt after a restart resumes its conversation when its shell starts (AGTERM_BACKUP_AUTO=0 turns it off); `agterm-backup installer remove` takes this block out.
if test -n "$TMUX_PANE$ZMX_SESSION$AGTERM_PANE" -a -x '/old/bin/agterm-backup'; '/old/bin/agterm-backup' init fish | source; end
# <<< agterm-backup <<<
