export LANG=de_DE.ä
# latin-1 comment: über
