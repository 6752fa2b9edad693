bindkey -v

# >>> agterm-backup >>>
# turned back on after the laptop swap -- me
eval "$('/old/bin/agterm-backup' init zsh)"

# <<< agterm-backup <<<
alias k=kubectl
