if status is-interactive
    # Commands to run in interactive sessions can go here
    set -g fish_greeting
    abbr -a gco git checkout
    starship init fish | source
end

fish_add_path ~/.local/bin
set -gx EDITOR nvim
zoxide init fish | source
