export EDITOR=vim

# >>> agterm-backup >>>
eval "$('/usr/local/bin/agterm-backup' init zsh)"
# <<< agterm-backup <<<
# copied from my old laptop:
# >>> agterm-backup >>>
eval "$('/old/bin/agterm-backup' init zsh)"
# <<< agterm-backup <<<
