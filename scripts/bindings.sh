#!/usr/bin/env bash
# The frontend's Wails bindings (frontend/wailsjs: a function per bound Go method and
# models.ts, the bound Go types as TypeScript interfaces), generated from the Go code by the
# pinned Wails CLI (`wails generate module`, no network). They are committed, so the frontend
# type-checks without Go; `--check` fails when the committed ones differ from what the Go code
# generates now (make test-frontend), and leaves the generated ones in place to commit.
# Usage: scripts/bindings.sh [--check]
set -euo pipefail
cd "$(dirname "$0")/.."

check=""
[ "${1:-}" = "--check" ] && check=1

wails=$(command -v wails || echo "$(go env GOPATH)/bin/wails")
[ -x "$wails" ] || { echo "bindings: the Wails CLI v2.15.0 is missing: ./scripts/setup.sh wails" >&2; exit 2; }

out=frontend/wailsjs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "$check" ] && [ -d "$out" ]; then cp -r "$out" "$tmp/committed"; fi

# The generator builds main with -tags bindings and runs it up to wails.Run: a throw-away data
# folder keeps it away from the user's history and settings. The tags are the Makefile's GO_TAGS.
if ! HOOKSTUDIO_DATA_DIR="$tmp/data" "$wails" generate module -tags sqlite_fts5 -nocolour -v 0 >"$tmp/log" 2>&1; then
  cat "$tmp/log" >&2
  echo "bindings: wails generate module failed" >&2
  exit 1
fi

[ -n "$check" ] || exit 0
if ! diff -ru "$tmp/committed" "$out" >"$tmp/diff" 2>&1; then
  cat "$tmp/diff" >&2
  echo "bindings: the committed $out differs from what the Go code generates (above); commit the generated files (make bindings)" >&2
  exit 1
fi
