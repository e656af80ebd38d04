#!/usr/bin/env bash
# The published package as a new user gets it: pack the tarball, install it into an empty project
# with no network (the tarball has no dependencies and no install scripts), then `harness init` and
# `harness build` must exit 0 and print at most one line per host. Used by .ci/run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tarball="$(node "$root/scripts/pack.mjs" "$work" | tail -1 | cut -d' ' -f1)"
echo "packed $(basename "$tarball") ($(wc -c <"$tarball") bytes)"
mkdir "$work/project"
cd "$work/project"
printf '{ "name": "scratch", "version": "1.0.0", "private": true }\n' >package.json
npm install --offline --no-audit --no-fund --save-dev "$tarball" 2>"$work/install.err" >/dev/null
if grep -q "install-scripts" "$work/install.err"; then cat "$work/install.err" >&2; echo "the tarball triggers npm's install-scripts warning" >&2; exit 1; fi
npx --no-install harness init >/dev/null
npx --no-install harness build >"$work/build.out" 2>"$work/build.err"
hosts="$(npx --no-install harness hosts | awk 'NR==1{print NF}')"
cat "$work/build.out" "$work/build.err"
if [ -s "$work/build.err" ] || [ "$(wc -l <"$work/build.out")" -gt "$hosts" ]; then echo "build printed more than one line per host" >&2; exit 1; fi
npx --no-install harness check >/dev/null
echo "tarball installs offline; init, build and check pass in an empty project"
