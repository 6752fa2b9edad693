#!/usr/bin/env bash
# Install, test, upgrade and HEAD-build the formula with a real Homebrew, in a fresh Debian chroot.
#
#   sudo packaging/check-homebrew-linux.sh [--work DIR] [--brew-ref REF] BREW_GIT
#
# BREW_GIT is a clone (path or URL) of github.com/Homebrew/brew. REF defaults to 4.4.32, the last
# Homebrew that runs on the Ruby Debian ships (3.3); later ones download their own Ruby. Needs root
# (debootstrap, chroot, mounts), Debian's mirror and crates.io, and this machine's Rust toolchain:
# the chroot's `rust` is a one-line stand-in formula linking it, since homebrew/core's bottles need
# ghcr.io. Nothing else is faked: Homebrew fetches the release tarball release.sh made (file://),
# checks its sha256, builds it with `cargo install`, links bin, completions and man page.
# Leaves everything under DIR (default /tmp/agterm-backup-brew); run again to reuse the chroot.
set -euo pipefail

work=/tmp/agterm-backup-brew
brew_ref=4.4.32
while [[ $# -gt 0 ]]; do
  case "$1" in
    --work) work=${2:?}; shift 2 ;;
    --brew-ref) brew_ref=${2:?}; shift 2 ;;
    -*) echo "usage: $0 [--work DIR] [--brew-ref REF] BREW_GIT" >&2; exit 2 ;;
    *) break ;;
  esac
done
[[ $# -eq 1 ]] || { echo "usage: $0 [--work DIR] [--brew-ref REF] BREW_GIT" >&2; exit 2; }
brew_git=$1
[[ $(id -u) == 0 ]] || { echo "check-homebrew-linux: run as root (chroot and mounts)" >&2; exit 2; }

repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
root=$work/root
prefix=/home/linuxbrew/.linuxbrew
tap=$prefix/Homebrew/Library/Taps/agterm-backup/homebrew-local/Formula
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -n1)
next=${version%.*}.$((${version##*.} + 1))
failures=0
check() { # check NAME CMD...: run CMD, print PASS or FAIL
  if "${@:2}"; then echo "PASS  $1"; else echo "FAIL  $1"; failures=$((failures + 1)); fi
}

step() { echo "==> $*"; }

if [[ ! -x $root/usr/bin/ruby ]]; then
  step "debootstrap Debian trixie into $root"
  debootstrap --variant=minbase --include=ruby,git,curl,ca-certificates,gcc,libc6-dev,procps,file,bzip2,xz-utils,patch,man-db,bash-completion,fish \
    trixie "$root" http://deb.debian.org/debian >"$work.debootstrap.log"
  chroot "$root" useradd -m -u 1000 -s /bin/bash linuxbrew
fi
# This machine's extra CAs (a TLS-inspecting proxy, say) so cargo inside reaches crates.io.
cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
chroot "$root" update-ca-certificates >/dev/null 2>&1
cp /etc/resolv.conf "$root/etc/resolv.conf"
mounts=()
bind() { mkdir -p "$2"; mountpoint -q "$2" || { mount "${@:3}" "$1" "$2"; mounts=("$2" "${mounts[@]}"); }; }
cleanup() { for m in "${mounts[@]}"; do umount -l "$m" || true; done; }
trap cleanup EXIT
bind proc "$root/proc" -t proc
bind /dev "$root/dev" --rbind
bind "$(rustc --print sysroot)" "$root/opt/rust" --bind -o ro
as_user() { # as_user SCRIPT: a shell set up the way `eval "$(brew shellenv)"` sets one up
  chroot --userspec=linuxbrew:linuxbrew "$root" /usr/bin/env -i HOME=/home/linuxbrew USER=linuxbrew \
    LANG=C.UTF-8 TERM=dumb PATH="$prefix/bin:$prefix/sbin:/usr/bin:/bin" MANPATH="$prefix/share/man:" \
    XDG_DATA_DIRS="$prefix/share:/usr/share" HOMEBREW_NO_AUTO_UPDATE=1 HOMEBREW_NO_INSTALL_FROM_API=1 \
    HOMEBREW_NO_ANALYTICS=1 HOMEBREW_NO_ENV_HINTS=1 bash -c "$1"
}

step "Homebrew $brew_ref in $prefix"
rm -rf "$root$prefix" "$root/srv" "$root/home/linuxbrew/.cache" "$root/home/linuxbrew/.claude" \
  "$root/home/linuxbrew/.codex" "$root/home/linuxbrew/.config/agterm"
git clone -q --no-checkout "$brew_git" "$root$prefix/Homebrew"
git -C "$root$prefix/Homebrew" checkout -q "$brew_ref"
mkdir -p "$root$prefix/bin" && ln -s ../Homebrew/bin/brew "$root$prefix/bin/brew"
# An empty homebrew/core: installing a dependency wants the core tap present, and GitHub is not
# reachable; the only dependency (rust) comes from our tap.
core=$root$prefix/Homebrew/Library/Taps/homebrew/homebrew-core
mkdir -p "$core/Formula" && git -C "$core" init -q
git -C "$core" -c user.email=check@localhost -c user.name=check commit -q --allow-empty -m empty

step "release tarballs $version and $next, and the tap (as the README says: brew tap-new)"
chroot "$root" chown -R linuxbrew:linuxbrew /home/linuxbrew
# tap-new switches developer mode on; a user installing has it off.
as_user "brew tap-new --no-git agterm-backup/local >/dev/null 2>&1 && brew developer off"
mkdir -p "$root/srv"
"$repo/packaging/release.sh" --out "$root/srv/release" --base-url file:///srv/release --ref HEAD "$version" >/dev/null
cp "$root/srv/release/agterm-backup.rb" "$root$tap/agterm-backup.rb"
bump=$work/bump && rm -rf "$bump" && git clone -q "$repo" "$bump"
sed -i "0,/^version = \"$version\"/s//version = \"$next\"/" "$bump/Cargo.toml"
(cd "$bump" && cargo update -w --offline -q && git -c user.email=check@localhost -c user.name=check commit -qam "$next")
"$bump/packaging/release.sh" --out "$work/next" --base-url file:///srv/release "$next" >/dev/null
cp -r "$work/next/v$next" "$root/srv/release/"
git clone -q --bare "$repo" "$root/srv/agterm-backup.git"
stand_in=$work/rust-stand-in && rm -rf "$stand_in" && mkdir -p "$stand_in/rust-stand-in"
echo "links this machine's toolchain, mounted at /opt/rust" >"$stand_in/rust-stand-in/README"
tar -czf "$root/srv/release/rust-stand-in.tar.gz" -C "$stand_in" rust-stand-in
cat >"$root$tap/rust.rb" <<EOF
class Rust < Formula
  desc "Rust toolchain of the machine running the check"
  homepage "https://www.rust-lang.org/"
  url "file:///srv/release/rust-stand-in.tar.gz"
  sha256 "$(sha256sum "$root/srv/release/rust-stand-in.tar.gz" | cut -d' ' -f1)"
  version "$(rustc --version | cut -d' ' -f2)"
  license "MIT"

  def install
    bin.install_symlink Dir["/opt/rust/bin/*"]
    prefix.install "README"
  end
end
EOF
chroot "$root" chown -R linuxbrew:linuxbrew /home/linuxbrew /srv

formula=agterm-backup/local/agterm-backup

step "brew install $formula ($version)"
check "brew install --build-from-source" as_user "brew install --build-from-source $formula >~/install.log 2>&1"
# The formula's `test do` block, as a user would meet it (`brew test` needs gems from rubygems.org).
check "--version says $version" as_user "agterm-backup --version | grep -qx 'agterm-backup $version'"
check "hook is silent and exits 0" as_user '[ -z "$(echo {} | agterm-backup hook claude)" ]'
check "man agterm-backup" as_user "man -w agterm-backup | grep -q ^$prefix/ && man agterm-backup 2>/dev/null | grep -q ^SYNOPSIS"
check "bash completes installer's subcommands" as_user '
  source '"$prefix"'/etc/bash_completion.d/agterm-backup
  COMP_WORDS=(agterm-backup installer ""); COMP_CWORD=2; COMP_LINE="agterm-backup installer "; COMP_POINT=${#COMP_LINE}
  _agterm__backup agterm-backup "" installer; [[ " ${COMPREPLY[*]} " == *" apply "* ]]'
check "fish completes completions' shells" as_user 'fish -c "complete -C \"agterm-backup completions \"" | grep -qx zsh'
check "zsh completion installed" as_user "test -s $prefix/share/zsh/site-functions/_agterm-backup"
check "installer apply names brew's stable path" as_user \
  "agterm-backup installer apply >/dev/null && grep -q \"'$prefix/bin/agterm-backup' hook claude\" ~/.claude/settings.json"

step "brew upgrade to $next"
cp "$work/next/agterm-backup.rb" "$root$tap/agterm-backup.rb" && chroot "$root" chown linuxbrew "$tap/agterm-backup.rb"
check "brew upgrade --build-from-source" as_user "brew upgrade --build-from-source $formula >~/upgrade.log 2>&1"
check "old keg removed" as_user "[ ! -e $prefix/Cellar/agterm-backup/$version ] && [ -d $prefix/Cellar/agterm-backup/$next ]"
check "settings.json's hook command runs $next" as_user '
  cmd=$(sed -n "s/.*\"command\": *\"\(.*hook claude\)\".*/\1/p" ~/.claude/settings.json | head -n1)
  bin=$(echo "$cmd" | sed -n "s/^'"'"'\(.*\)'"'"' hook claude$/\1/p")
  [ -z "$(echo {} | sh -c "$cmd")" ] && "$bin" --version | grep -qx "agterm-backup '"$next"'"'
check "installer apply after upgrade changes nothing" as_user \
  "agterm-backup installer apply | grep -c unchanged | grep -qx 3"

# The real head URL (https://github.com/….git) is cloned with git by its .git suffix; a file:// one
# has to say so.
step "brew install --HEAD (main from a local clone)"
sed -i 's|^  head ".*|  head "file:///srv/agterm-backup.git", branch: "main", using: :git|' "$root$tap/agterm-backup.rb"
check "brew install --HEAD" as_user "brew uninstall $formula >/dev/null && brew install --HEAD $formula >~/head.log 2>&1"
check "HEAD build runs" as_user "agterm-backup --version | grep -q '^agterm-backup '"

echo "logs: $root/home/linuxbrew/{install,upgrade,head}.log"
[[ $failures == 0 ]] && echo "all checks passed" || { echo "$failures check(s) failed"; exit 1; }
