#!/usr/bin/env bash
# Drives `hybrid run js/apps/tasks-view` in tmux: Tab/Shift-Tab focus, Enter/Space press, q quits,
# Ctrl-C (SIGINT) ends it; after each, the terminal must be back in canonical mode. Then a list of
# 10,000 items scrolled by keys and the wheel, --a11y, and an input typed into (CJK, an emoji, a
# word jump, a bracketed paste), a resized pane and a mouse click.
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
# The wheel over the list (SGR reports: button 65 down, 64 up) scrolls it 3 rows a notch.
keys -l $'\e[<65;10;8M';    wait_for "[ #18 ]"
keys -l $'\e[<64;10;8M';    wait_for "[ #1 ]"
keys PageDown PageDown;     wait_for "[ #45 ]"
keys Tab Enter;             wait_for "opened order 31"
keys q;                     wait_for "EXIT=0"; wait_for "TTY-CHECKED"
wait_for "long-list: quit; opened order 31"
tmux -L "$SOCKET" capture-pane -p -t 0 | grep -qx "icanon" || fail "canonical input restored after q"
echo "ok 3 - keys and the mouse wheel scroll a list of 10,000 items, Tab enters it where it shows, the terminal is restored"
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
SOCKET="$SOCKET-5"

# An input: CJK typed, Ctrl-Left, Backspace, Enter submits; a bracketed paste; the pane resized; a
# click (an SGR report) presses a button; mouse reporting is on while the view shows and off after.
APP="/tmp/$SOCKET-app"
mkdir -p "$APP"
trap 'rm -rf "$APP"' EXIT
echo '{"name": "typing", "version": "1.0.0", "main": "main.js", "grants": ["view"]}' > "$APP/app.json"
cat > "$APP/main.js" <<'JS'
const tree = { type: "stack", children: [
  { type: "text", text: "size ${size} ${pressed}" },
  { type: "input", id: "title", value: "${draft}", placeholder: "type here", style: { width: 30 },
    on: { change: "form.change", submit: "form.submit" } },
  { type: "list", items: "${tasks}", template: { type: "text", text: "- ${.}" } },
  { type: "button", id: "done", text: "Done", on: { press: "form.press" } },
] };
const state = { draft: "", tasks: [], size: "?", pressed: "" };
const form = {
  change() {},
  submit(event, view) { state.tasks.push(event.value); return view.update(state); },
  press(event, view) { state.pressed = "pressed"; return view.update(state); },
};
(async () => {
  const view = await Hybrid.view.run({ form }, { tree, data: state,
    onResize(event, v) { state.size = `${event.columns}x${event.rows}`; return v.update(state); } });
  const { reason } = await view.done;
  console.log(`typing: ${reason}; ${state.tasks.join(" | ")}; ${state.pressed}`);
})();
JS
tmux -L "$SOCKET" -f /dev/null new-session -d -x 80 -y 24 \
  "trap true INT; env TERM=xterm-256color LANG=C.UTF-8 $HYBRID run $APP; echo EXIT=\$?; stty -a | tr ' ' '\n' | grep -x -- '-\?icanon'; echo TTY-CHECKED; sleep 30"
wait_for "type here"
[ "$(tmux -L "$SOCKET" display -p -t 0 '#{mouse_standard_flag}#{mouse_sgr_flag}')" = 11 ] || fail "SGR mouse reporting is on"
keys -l "你好 world";        wait_for "你好 world"
keys C-Left BSpace;         wait_for "你好world"
keys Enter;                 wait_for "- 你好world"; wait_for "type here"
# An emoji is one grapheme cluster: the fourth Backspace takes all of it, and the field is empty.
keys -l "🎉 ok";            wait_for "🎉 ok"
keys BSpace BSpace BSpace BSpace;  wait_for "type here"
tmux -L "$SOCKET" set-buffer "line one
line two"
tmux -L "$SOCKET" paste-buffer -p -t 0;  wait_for "line one line two"
keys Enter;                 wait_for "- line one line two"
tmux -L "$SOCKET" resize-window -t 0 -x 64 -y 12;  wait_for "size 64x12"
keys -l $'\e[<0;3;5M\e[<0;3;5m';  wait_for "size 64x12 pressed"
keys q;                     wait_for "EXIT=0"; wait_for "TTY-CHECKED"
wait_for "typing: quit; 你好world | line one line two; pressed"
[ "$(tmux -L "$SOCKET" display -p -t 0 '#{mouse_standard_flag}#{mouse_sgr_flag}')" = 00 ] || fail "mouse reporting turned off after q"
tmux -L "$SOCKET" capture-pane -p -t 0 | grep -qx "icanon" || fail "canonical input restored after the input"
echo "ok 5 - an input takes CJK, an emoji as one cluster, word jumps, a paste and Enter; the pane resizes; a click presses; the terminal is restored"
tmux -L "$SOCKET" kill-server
