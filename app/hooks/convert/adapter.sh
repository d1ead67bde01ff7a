#!/bin/sh
# Runs a Claude Code hook under @TITLE@, as Claude Code would run it: the
# hook reads Claude Code's input (its event, tool and key names) and its
# answer (exit code, stderr, JSON) is given back as @TITLE@ reads it.
# Written by Hook Studio's convert; POSIX sh, awk and mktemp only.
# Usage: run-claude-hook.sh CLAUDE_EVENT 'COMMAND LINE'
event=$1
line=$2
@ENV@
export CLAUDE_PROJECT_DIR
prog='
@AWK@'
t=$(mktemp -d "${TMPDIR:-/tmp}/claude-hook.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
LC_ALL=C awk -v mode=in -v event="$event" "$prog" >"$t/in" || exit 1
sh -c "$line" <"$t/in" >"$t/out" 2>"$t/err" &
pid=$!
trap 'kill "$pid" 2>/dev/null; exit 143' TERM INT HUP
wait "$pid"
code=$?
LC_ALL=C awk -v mode=out -v event="$event" -v code="$code" -v dir="$t" "$prog" </dev/null
answer=$?
[ -e "$t/stderr-on" ] && cat "$t/err" >&2
exit "$answer"
