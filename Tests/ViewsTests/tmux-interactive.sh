#!/usr/bin/env bash
# Drives `hybrid run js/apps/tasks-view` in tmux: Tab/Shift-Tab focus, Enter/Space press, q quits,
# Ctrl-C (SIGINT) ends it; after each, the terminal must be back in canonical mode.
# Usage: Tests/ViewsTests/tmux-interactive.sh [path/to/hybrid]   (default .build/debug/hybrid)
set -euo pipefail
cd "$(dirname "$0")/../.."
HYBRID=${1:-.build/debug/hybrid}
SOCKET="hybrid-views-sh-$$"
fail() { echo "not ok - $1"; tmux -L "$SOCKET" capture-pane -p -t 0 2>/dev/null || true; tmux -L "$SOCKET" kill-server 2>/dev/null || true; exit 1; }
start() {
  tmux -L "$SOCKET" -f /dev/null new-session -d -x 80 -y 24 \
    "trap true INT; env TERM=xterm-256color LANG=C.UTF-8 $HYBRID run js/apps/tasks-view --data-dir /tmp/$SOCKET; echo EXIT=\$?; stty -a | tr ' ' '\n' | grep -x -- '-\?icanon'; echo TTY-CHECKED; sleep 30"
}
# The pane prints EXIT=, then the stty check, then TTY-CHECKED: checking icanon before TTY-CHECKED
# shows races the shell (CI failed once on exactly that).
wait_for() {
  for _ in $(seq 100); do
    if tmux -L "$SOCKET" capture-pane -p -t 0 2>/dev/null | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
  done
  fail "the screen never showed \"$1\""
}
keys() { tmux -L "$SOCKET" send-keys -t 0 "$@"; }

start
wait_for "1/3 done"; wait_for "[   ] Buy milk"
keys Enter;                 wait_for "2/3 done"; wait_for "[ x ] Buy milk"
keys Tab Tab Tab Enter;     wait_for "New task 4"; wait_for "2/4 done"
keys BTab BTab Space;       wait_for "1/4 done"
keys q;                     wait_for "EXIT=0"; wait_for "TTY-CHECKED"
wait_for "tasks-view: quit; 1 of 4 tasks done"
tmux -L "$SOCKET" capture-pane -p -t 0 | grep -qx "icanon" || fail "canonical input restored after q"
echo "ok 1 - Tab moves focus, Enter and Space press, q quits, the terminal is restored"
tmux -L "$SOCKET" kill-server
# A server of its own: a new session on the socket just killed can race the old server's exit
# ("server exited unexpectedly").
SOCKET="$SOCKET-2"

start
wait_for "1/3 done"
keys C-c;                   wait_for "EXIT=130"; wait_for "TTY-CHECKED"
tmux -L "$SOCKET" capture-pane -p -t 0 | grep -qx "icanon" || fail "canonical input restored after SIGINT"
tmux -L "$SOCKET" capture-pane -p -t 0 | grep -q "Buy milk" && fail "the alternate screen was left after SIGINT"
echo "ok 2 - SIGINT ends the app and restores the terminal"
tmux -L "$SOCKET" kill-server
SOCKET="$SOCKET-3"

# A list of 10,000 orders given a height: keys scroll it, Tab enters it at its first visible order.
tmux -L "$SOCKET" -f /dev/null new-session -d -x 80 -y 24 \
  "trap true INT; env TERM=xterm-256color LANG=C.UTF-8 $HYBRID run js/apps/long-list; echo EXIT=\$?; stty -a | tr ' ' '\n' | grep -x -- '-\?icanon'; echo TTY-CHECKED; sleep 30"
wait_for "10000 orders"; wait_for "[ #15 ]"
keys Down;                  wait_for "[ #16 ]"
keys PageDown;              wait_for "[ #31 ]"
keys End;                   wait_for "[ #10000 ]"
keys Home;                  wait_for "[ #1 ]"
keys PageDown PageDown;     wait_for "[ #45 ]"
keys Tab Enter;             wait_for "opened order 31"
keys q;                     wait_for "EXIT=0"; wait_for "TTY-CHECKED"
wait_for "long-list: quit; opened order 31"
tmux -L "$SOCKET" capture-pane -p -t 0 | grep -qx "icanon" || fail "canonical input restored after q"
echo "ok 3 - keys scroll a list of 10,000 items, Tab enters it where it shows, the terminal is restored"
tmux -L "$SOCKET" kill-server
SOCKET="$SOCKET-4"

# --a11y: the lines replace the painted screen, and keys still work.
tmux -L "$SOCKET" -f /dev/null new-session -d -x 80 -y 24 \
  "trap true INT; env TERM=xterm-256color LANG=C.UTF-8 $HYBRID run --a11y js/apps/long-list; echo EXIT=\$?; stty -a | tr ' ' '\n' | grep -x -- '-\?icanon'; echo TTY-CHECKED; sleep 30"
wait_for "list orders, 10000 items, showing 1 to 15"
keys PageDown;              wait_for "list orders, 10000 items, showing 16 to 30"
keys Tab;                   wait_for "button #16, list orders, item 16 of 10000: #16, customer"
keys q;                     wait_for "EXIT=0"; wait_for "TTY-CHECKED"
wait_for "view closed"
tmux -L "$SOCKET" capture-pane -p -t 0 | grep -q "╭" && fail "--a11y painted the screen"
tmux -L "$SOCKET" capture-pane -p -t 0 | grep -qx "icanon" || fail "canonical input restored after --a11y"
echo "ok 4 - --a11y speaks instead of painting, keys still work, the terminal is restored"
tmux -L "$SOCKET" kill-server
