export PS1="\w $ "
alias ..="cd .."
