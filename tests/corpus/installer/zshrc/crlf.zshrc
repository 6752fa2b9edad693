# edited on Windows
export PATH="$HOME/bin:$PATH"
alias ll="ls -la"
