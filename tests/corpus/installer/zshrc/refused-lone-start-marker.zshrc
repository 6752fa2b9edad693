alias l='ls -CF'
# >>> agterm-backup >>>
eval "$('/usr/local/bin/agterm-backup' init zsh)"
alias m=make
