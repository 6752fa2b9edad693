set -gx PAGER less
alias ll "ls -l"
