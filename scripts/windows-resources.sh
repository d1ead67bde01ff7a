#!/usr/bin/env bash
# Compiles build/windows/hookstudio.rc (icon, manifest, version info) into a
# COFF object that `go build` links into hookstudio.exe when it lies in the
# main package's folder as *_windows_amd64.syso.
# Usage: scripts/windows-resources.sh VERSION OUT.syso
set -euo pipefail
cd "$(dirname "$0")/.."
version=$1 out=$2
windres=${WINDRES:-x86_64-w64-mingw32-windres}

# Windows wants four numbers: 0.1.0-rc1 -> 0,1,0,0
IFS=. read -r major minor patch _ <<<"$(sed 's/[^0-9.].*//' <<<"$version").0.0.0"
nums="${major:-0},${minor:-0},${patch:-0},0"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp build/windows/hookstudio.rc build/windows/icon.ico "$tmp/"
# wails.exe.manifest is the template `wails build` fills in; fill it the same way.
sed -e 's/{{\.Name}}/HookStudio/g' -e "s/{{\.Info\.ProductVersion}}\.0/${nums//,/.}/g" \
  build/windows/wails.exe.manifest >"$tmp/hookstudio.exe.manifest"
if grep -q '{{' "$tmp/hookstudio.exe.manifest"; then
  echo "windows-resources: unfilled template field in build/windows/wails.exe.manifest" >&2
  exit 1
fi
(cd "$tmp" && "$windres" -O coff -DVERSION_COMMAS="$nums" -DVERSION_STRING="\\\"$version\\\"" \
  -i hookstudio.rc -o resources.syso)
mv "$tmp/resources.syso" "$out"
