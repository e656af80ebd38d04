#!/usr/bin/env bash
# Claude Code's sandbox (bubblewrap + socat) for the real-host sandbox test, WITHOUT installing them:
# Codex prefers a bwrap found on PATH over its bundled one, so a system-wide bwrap would change what
# the Codex host tests exercise. The Debian packages are downloaded and unpacked into
# .cache/sandbox-tools/root; .cache/sandbox-tools/bin holds bwrap and a socat that finds the
# unpacked libwrap. Only test/hosts/run-sandbox.test.ts puts that bin folder on PATH, and only for
# its Claude Code sessions. Idempotent: a second run with working tools changes nothing.
# Prints the bin folder on success.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$PWD/.cache/sandbox-tools"
bin="$dir/bin"
lib="$dir/root/usr/lib/x86_64-linux-gnu"
works() { "$bin/bwrap" --version >/dev/null 2>&1 && "$bin/socat" -V >/dev/null 2>&1; }
if works; then echo "$bin"; exit 0; fi
command -v apt-get >/dev/null || { echo "sandbox-tools: needs apt-get (Debian/Ubuntu) to fetch bubblewrap and socat" >&2; exit 1; }
rm -rf "$dir/debs" "$dir/root" "$bin"
mkdir -p "$dir/debs" "$bin"
# apt-get download drops privileges to _apt where it can; the folder is ours, so let it write there
chmod 0777 "$dir/debs"
(cd "$dir/debs" && { apt-get download bubblewrap socat libwrap0 2>/dev/null || { apt-get update -qq && apt-get download bubblewrap socat libwrap0; }; }) >&2
for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir/root"; done
ln -s "$dir/root/usr/bin/bwrap" "$bin/bwrap"
# socat links libwrap.so.0, which Debian ships in libwrap0: found beside it, for socat alone
cat >"$bin/socat" <<SH
#!/bin/sh
LD_LIBRARY_PATH="$lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$dir/root/usr/bin/socat" "\$@"
SH
chmod 0755 "$bin/socat"
works || { echo "sandbox-tools: the unpacked bwrap or socat does not run here" >&2; exit 1; }
echo "$bin"
