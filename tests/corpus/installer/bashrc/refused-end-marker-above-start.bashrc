alias ll='ls -alF'
# <<< agterm-backup <<<
eval "$('/old/bin/agterm-backup' init bash)"
# >>> agterm-backup >>>
