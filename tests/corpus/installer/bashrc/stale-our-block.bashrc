alias ll='ls -alF'

# >>> agterm-backup >>>
# agterm-backup: a pane rebuilt after a restart resumes its conversation when its shell starts (AGTERM_BACKUP_AUTO=0 turns it off); `agterm-backup installer remove` takes this block out.
eval "$('/old/bin/agterm-backup' init bash)"
# <<< agterm-backup <<<
