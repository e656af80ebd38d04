#!/usr/bin/env bash
# zsh for test/guard/shells-real.slow.test.ts, WITHOUT installing it: with a zsh on the system, Claude
# Code picks zsh over bash wherever SHELL does not name bash, which would change what the host tests
# run. The Debian packages are downloaded and unpacked into .cache/test-shells/root (bin/zsh); the test runs
# that binary (and the system's bash and dash) on the commands the guard allows.
# Idempotent: a second run with a working zsh changes nothing. Prints the zsh path on success.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$PWD/.cache/test-shells"
zsh="$dir/root/bin/zsh"
works() { [ -x "$zsh" ] && "$zsh" -fc 'print -r -- ok' >/dev/null 2>&1; }
if works; then echo "$zsh"; exit 0; fi
command -v apt-get >/dev/null || { echo "test-shells: needs apt-get (Debian/Ubuntu) to fetch zsh" >&2; exit 1; }
rm -rf "$dir/debs" "$dir/root"
mkdir -p "$dir/debs"
# apt-get download drops privileges to _apt where it can; the folder is ours, so let it write there
chmod 0777 "$dir/debs"
(cd "$dir/debs" && { apt-get download zsh zsh-common 2>/dev/null || { apt-get update -qq && apt-get download zsh zsh-common; }; }) >&2
for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir/root"; done
works || { echo "test-shells: the unpacked zsh does not run here" >&2; exit 1; }
echo "$zsh"
