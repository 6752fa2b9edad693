set -gx GOPATH ~/go
# >>> agterm-backup >>>
'/old/bin/agterm-backup' init fish | source
