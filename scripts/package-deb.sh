#!/usr/bin/env bash
# Packs the Linux desktop app and hookctl into a .deb: the binaries in
# /usr/bin, a menu entry and the icon. Depends is computed by dpkg-shlibdeps
# from the libraries the binaries link (GTK 3, WebKitGTK 4.0, glibc).
# Usage: scripts/package-deb.sh VERSION HOOKSTUDIO HOOKCTL OUT.deb
set -euo pipefail
cd "$(dirname "$0")/.."
version=$1 app=$2 ctl=$3 out=$4
arch=$(dpkg --print-architecture)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/pkg
install -Dm755 "$app" "$root/usr/bin/hookstudio"
install -Dm755 "$ctl" "$root/usr/bin/hookctl"
install -Dm644 build/linux/hookstudio.desktop "$root/usr/share/applications/hookstudio.desktop"
install -Dm644 build/appicon.png "$root/usr/share/pixmaps/hookstudio.png"
install -Dm644 /dev/stdin "$root/usr/share/doc/hookstudio/copyright" <<'TXT'
Hook Studio: see which messages your skill hooks put in front of the model.
Built from the Hook Studio repository; see its README.
TXT

mkdir -p "$tmp/debian"
printf 'Source: hookstudio\n\nPackage: hookstudio\nArchitecture: any\n' >"$tmp/debian/control"
depends=$(cd "$tmp" && dpkg-shlibdeps -O -epkg/usr/bin/hookstudio -epkg/usr/bin/hookctl 2>/dev/null |
  sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "package-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

mkdir -p "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<CTL
Package: hookstudio
Version: $version
Section: devel
Priority: optional
Architecture: $arch
Maintainer: Hook Studio developers <hookstudio@users.noreply.github.com>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Description: see which messages your skill hooks put in front of the model
 Hook Studio simulates the skill hook system of an LLM agent (five
 checkpoints, inject/remove, persistent hooks) against a scripted mock or a
 real model, and shows every LLM call's message list step by step.
 Includes hookctl, the headless validator and simulator for CI.
CTL
dpkg-deb --root-owner-group -Zxz --build "$root" "$out" >/dev/null
echo "$out: $(dpkg-deb -f "$out" Package Version Architecture | paste -sd' ')"
