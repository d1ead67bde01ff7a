#!/usr/bin/env bash
# Installs what a target needs on a fresh Debian machine, and nothing twice.
# Usage: scripts/setup.sh [go] [frontend] [wails] [desktop] [e2e] [agents] [windows] [release]
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\033[1msetup:\033[0m %s\n' "$*" >&2; }

# retry N CMD...: module and package downloads hang once in a while here.
retry() {
  local n=$1; shift
  for i in $(seq 1 "$n"); do
    if timeout 600 "$@"; then return 0; fi
    log "attempt $i of $n failed: $*"
    sleep 3
  done
  return 1
}

apt_updated=""
apt_install() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if [ -z "$apt_updated" ]; then
    log "apt-get update"
    retry 3 $sudo apt-get update -qq
    apt_updated=1
  fi
  log "apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive retry 3 $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

need_go() {
  command -v go >/dev/null || { log "Go 1.26 is required (https://go.dev/dl/)"; exit 1; }
  apt_install gcc libc6-dev   # go-sqlite3 needs cgo
  retry 3 go mod download
}

# needs_install DIR: whether DIR/node_modules must be (re)installed. By content, never mtimes
# (scripts/node-modules-fresh.mjs). A node_modules that is a link (a worktree sharing another
# checkout's) is never installed through: npm ci would wipe a folder others are using — it is
# said, and the run goes on with what is there.
needs_install() {
  local dir=$1 why
  why=$(node scripts/node-modules-fresh.mjs "$dir" 2>&1) && return 1
  if [ -L "$dir/node_modules" ]; then
    log "$why"
    log "$dir/node_modules is a link to $(readlink "$dir/node_modules"): not installing through it (install there if it is stale); going on"
    return 1
  fi
  log "$why"
  return 0
}

need_frontend() {
  command -v npm >/dev/null || apt_install nodejs npm
  if needs_install frontend; then
    # A lock that npm ci would refuse fails here at once, with the reason;
    # only network failures are retried.
    node scripts/check-lockfile.mjs frontend
    log "npm ci (frontend)"
    (cd frontend && retry 3 npm ci --no-audit --no-fund --loglevel=error)
  fi
}

# The Wails CLI, pinned: it generates the frontend's bindings (scripts/bindings.sh).
need_wails() {
  if ! command -v wails >/dev/null && [ ! -x "$(go env GOPATH)/bin/wails" ]; then
    log "installing the Wails CLI v2.15.0"
    retry 3 go install github.com/wailsapp/wails/v2/cmd/wails@v2.15.0
  fi
}

need_desktop() {
  # fonts-noto-cjk: hook texts are often Chinese; xvfb: `make run` on a machine without a display
  apt_install pkg-config libgtk-3-dev libwebkit2gtk-4.0-dev fonts-noto-cjk xvfb xauth
  need_wails
}

# The Windows cross-builds (make test-windows, make release): mingw-w64's C
# compiler for cgo (SQLite) and windres for the app's resources.
need_windows() {
  apt_install gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64
}

# make release: also the linux/arm64 C cross compiler for hookctl, and
# dpkg-shlibdeps (dpkg-dev) for the .deb's Depends.
need_release() {
  need_windows
  apt_install gcc-aarch64-linux-gnu libc6-dev-arm64-cross dpkg-dev
}

# make test-agents: the real agents the capture tests drive — Claude Code's CLI and the
# official OpenAI client — in their own folder (tools/agents), never the app's dependencies.
need_agents() {
  command -v npm >/dev/null || apt_install nodejs npm
  if needs_install tools/agents; then
    # Not npm ci: Qwen Code 0.24.4 lists optional packages that were never published
    # (@teddyzhu/clipboard-darwin-arm64 and four more: 404 on the registry), so the lock
    # cannot hold them and npm ci refuses it ("Missing: … from lock file"). npm install
    # takes the lock's versions; the lock must come out of it unchanged.
    log "npm install (tools/agents: the agent CLIs the tests drive, the OpenAI client)"
    cp tools/agents/package-lock.json tools/agents/.package-lock.before
    (cd tools/agents && retry 3 npm install --no-audit --no-fund --loglevel=error)
    if ! cmp -s tools/agents/package-lock.json tools/agents/.package-lock.before; then
      mv tools/agents/.package-lock.before tools/agents/package-lock.json
      log "tools/agents/package-lock.json does not match package.json: run npm install there and commit the lock"
      exit 1
    fi
    rm -f tools/agents/.package-lock.before
  fi
}

need_e2e() {
  apt_install xvfb xauth x11-utils imagemagick chromium fonts-noto-cjk
}

[ $# -gt 0 ] || set -- go
for target in "$@"; do
  case "$target" in
    go) need_go ;;
    frontend) need_frontend ;;
    wails) need_wails ;;
    desktop) need_desktop ;;
    e2e) need_e2e ;;
    agents) need_agents ;;
    windows) need_windows ;;
    release) need_release ;;
    *) log "unknown target $target"; exit 2 ;;
  esac
done
