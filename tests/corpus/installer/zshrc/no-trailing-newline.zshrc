export EDITOR=vim
alias gs="git status"