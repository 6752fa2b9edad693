#!/usr/bin/env bash
# Make the release tarball for a version and write a Homebrew formula that points at it.
#
#   packaging/release.sh [--out DIR] [--base-url URL] [--ref REF] VERSION
#
# Writes DIR/vVERSION/agterm-backup-VERSION.tar.gz (`git archive` of REF, default the tag vVERSION,
# else HEAD; the same bytes every time) and DIR/agterm-backup.rb: packaging/agterm-backup.rb with its
# `url` and `sha256` set to BASE_URL/vVERSION/agterm-backup-VERSION.tar.gz and that tarball's checksum.
# Upload the tarball as that release asset (we publish our own asset rather than point at GitHub's
# generated tag archive, whose bytes, and so whose checksum, are not ours to fix), then copy the
# formula into the tap. To try the formula first, use --base-url "file://$PWD/dist": the layout under
# DIR matches the URL.
set -euo pipefail

usage() { echo "usage: $0 [--out DIR] [--base-url URL] [--ref REF] VERSION" >&2; exit 2; }

out=dist
base_url=https://github.com/agterm-backup/agterm-backup/releases/download
ref=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) out=${2:?}; shift 2 ;;
    --base-url) base_url=${2:?}; shift 2 ;;
    --ref) ref=${2:?}; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "release.sh: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
[[ $# -eq 1 ]] || usage
version=$1
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([-.][0-9A-Za-z.]+)?$ ]] || {
  echo "release.sh: '$version' is not a version like 0.1.0" >&2; exit 2; }

case $out in /*) ;; *) out=$PWD/$out ;; esac
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$root"
if [[ -z $ref ]]; then
  if git rev-parse -q --verify "refs/tags/v$version" >/dev/null; then ref=v$version; else ref=HEAD; fi
fi

# The version the binary reports is the one Homebrew's `test do` checks and users see in --version.
cargo_version=$(git show "$ref:Cargo.toml" | sed -n 's/^version = "\(.*\)"$/\1/p' | head -n1)
if [[ $cargo_version != "$version" ]]; then
  echo "release.sh: Cargo.toml at $ref says version $cargo_version, not $version; bump it first" >&2
  exit 1
fi

name=agterm-backup-$version
mkdir -p "$out/v$version"
tarball=$out/v$version/$name.tar.gz
git archive --format=tar --prefix="$name/" "$ref" | gzip -n -9 >"$tarball"
if command -v sha256sum >/dev/null; then
  sha=$(sha256sum "$tarball" | cut -d' ' -f1)
else
  sha=$(shasum -a 256 "$tarball" | cut -d' ' -f1)
fi

url=$base_url/v$version/$name.tar.gz
formula=$out/agterm-backup.rb
# Only the two lines that name the release change; everything else is the checked-in formula.
awk -v url="$url" -v sha="$sha" '
  /^  url "/ && !u { print "  url \"" url "\""; u = 1; next }
  /^  sha256 "/ && !s { print "  sha256 \"" sha "\""; s = 1; next }
  { print }
  END { if (!u || !s) { print "release.sh: formula has no url or sha256 line" > "/dev/stderr"; exit 1 } }
' <(git show "$ref:packaging/agterm-backup.rb") >"$formula.tmp"
mv "$formula.tmp" "$formula"

echo "tarball  $tarball"
echo "sha256   $sha"
echo "formula  $formula  (url $url)"
