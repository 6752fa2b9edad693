set -gx GOPATH ~/go

# >>> agterm-backup >>>
# agterm-backup: a pane rebuilt after a restart resumes its conversation when its shell starts (AGTERM_BACKUP_AUTO=0 turns it off); `agterm-backup installer remove` takes this block out.
'/old/bin/agterm-backup' init fish | source
# <<< agterm-backup <<<
