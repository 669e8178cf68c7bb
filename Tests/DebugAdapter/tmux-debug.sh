#!/usr/bin/env bash
# Drives `hybrid debug APP` in a real terminal (tmux) through Tests/DebugAdapter/fixtures/debug-app:
# the stop before the first statement, a breakpoint on a .ts line, cont to it, print and watch a
# variable, bt, the uncaught error at the end, and the app's exit status as the debugger's. Each
# step polls the pane (up to 30 s) and a mismatch exits 1 with the pane printed.
# Usage: Tests/DebugAdapter/tmux-debug.sh [path/to/hybrid]   (default .build/debug/hybrid)
set -euo pipefail
cd "$(dirname "$0")/../.."
HYBRID=$(realpath "${1:-.build/debug/hybrid}")
APP=Tests/DebugAdapter/fixtures/debug-app
SOCKET="hybrid-debug-sh-$$"
DATA=$(mktemp -d /tmp/hybrid-debug-sh.XXXXXX)
cleanup() { tmux -L "$SOCKET" kill-server 2>/dev/null || true; rm -rf "$DATA"; }
trap cleanup EXIT
fail() { echo "not ok - $1"; echo "--- the pane:"; tmux -L "$SOCKET" capture-pane -p -S -100 -t 0 2>/dev/null || true; exit 1; }
screen() { tmux -L "$SOCKET" capture-pane -p -S -100 -t 0; }
# The pane is read whole before it is searched: with pipefail, grep -q leaving early could fail
# the capture with SIGPIPE and miss a line that is there.
wait_for() {
  local pane
  for _ in $(seq 300); do
    pane=$(screen 2>/dev/null) || true
    if grep -qxE -- "$1" <<<"$pane"; then return 0; fi
    sleep 0.1
  done
  fail "${2:-the screen never showed a line matching /$1/}"
}
keys() { tmux -L "$SOCKET" send-keys -t 0 "$@"; }
BREAK=$(grep -n "// BREAK" "$APP/main.ts" | cut -d: -f1)
THROW=$(grep -n "// THROW" "$APP/main.ts" | cut -d: -f1)

tmux -L "$SOCKET" -f /dev/null new-session -d -x 160 -y 50 \
  "env TERM=xterm-256color LANG=C.UTF-8 $HYBRID debug $APP --data-dir $DATA; echo EXIT=\$?; sleep 30"

wait_for "break in main.ts:[0-9]+" "no stop before the first statement"
wait_for "debug> ?" "no prompt"
echo "ok 1 - the app stops before its first statement"

keys -l "break main.ts:$BREAK"; keys Enter
wait_for "breakpoint 1 at main.ts:$BREAK" "the breakpoint was not set at main.ts:$BREAK"
keys -l "watch before.value.n"; keys Enter
keys -l "cont"; keys Enter
wait_for "break in main.ts:$BREAK" "cont did not stop at main.ts:$BREAK"
wait_for "  before.value.n = 1" "the watch was not shown"
echo "ok 2 - a breakpoint on a .ts line, and a watch shown at the stop"

keys -l "print items.length * 21"; keys Enter
wait_for "42" "print did not show 42"
keys -l "bt"; keys Enter
wait_for "#0 main main.ts:$BREAK" "bt did not show main at main.ts:$BREAK"
echo "ok 3 - print evaluates in the paused frame; bt shows the .ts line"

keys -l "cont"; keys Enter
wait_for 'before \{"n":1\} after \{"n":3\} sum 5 2 1 42' "the kv calls around the pause were not all answered"
wait_for "Uncaught Error: boom at the end" "no stop on the uncaught error"
wait_for "break in main.ts:$THROW"
keys -l "cont"; keys Enter
wait_for "EXIT=1" "the debugger did not exit with the app's status 1"
echo "ok 4 - the bridge calls after the pause answered, the uncaught error stopped, the app's status returned"
