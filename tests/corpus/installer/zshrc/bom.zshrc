# saved by an editor that writes a BOM
setopt autocd
