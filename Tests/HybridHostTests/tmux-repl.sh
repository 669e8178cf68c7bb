#!/usr/bin/env bash
# Drives `hybrid repl` in a real terminal (tmux): an expression, an await of a bridge call, a
# multi-line function, Up to recall a line and edit it, a line longer than the pane, a timer's
# output while a line is typed, Ctrl-C to cancel a line, Ctrl-D to exit; after the exit the
# terminal must be back in canonical mode, and the history file must hold what was typed. Then
# Tab completion (in place, a common prefix, a list; a getter never run), .help, .editor (Ctrl-D
# evaluates, Ctrl-C drops) and .exit. Each
# step polls the pane (up to 10 s) and a mismatch exits 1 with the pane printed.
# Usage: Tests/HybridHostTests/tmux-repl.sh [path/to/hybrid]   (default .build/debug/hybrid)
set -euo pipefail
cd "$(dirname "$0")/../.."
HYBRID=${1:-.build/debug/hybrid}
SOCKET="hybrid-repl-sh-$$"
DATA=$(mktemp -d /tmp/hybrid-repl-sh.XXXXXX)
cleanup() { tmux -L "$SOCKET" kill-server 2>/dev/null || true; rm -rf "$DATA"; }
trap cleanup EXIT
fail() { echo "not ok - $1"; echo "--- the pane:"; tmux -L "$SOCKET" capture-pane -p -t 0 2>/dev/null || true; exit 1; }
screen() { tmux -L "$SOCKET" capture-pane -p -t 0; }
# Polls the pane for a line matching the extended regex $1 (whole line), up to 10 s.
wait_for() {
  for _ in $(seq 100); do
    if screen 2>/dev/null | grep -qxE -- "$1"; then return 0; fi
    sleep 0.1
  done
  fail "${2:-the screen never showed a line matching /$1/}"
}
# The last non-blank line of the pane.
last_line() { screen | grep -v '^$' | tail -n 1; }
# Waits until the last non-blank line is exactly $1.
wait_last() {
  for _ in $(seq 100); do
    if [ "$(last_line 2>/dev/null)" = "$1" ]; then return 0; fi
    sleep 0.1
  done
  fail "${2:-the last line never became \"$1\" (it is \"$(last_line)\")}"
}
keys() { tmux -L "$SOCKET" send-keys -t 0 "$@"; }

tmux -L "$SOCKET" -f /dev/null new-session -d -x 100 -y 40 \
  "env TERM=xterm-256color LANG=C.UTF-8 $HYBRID repl --data-dir $DATA --grant device; echo EXIT=\$?; stty -a | tr ' ' '\n' | grep -x -- '-\?icanon'; echo TTY-CHECKED; sleep 30"

wait_last ">" "the first prompt never appeared"
keys -l "6 * 7"; keys Enter
wait_for "42" "6 * 7 did not print 42"; wait_last ">"
echo "ok 1 - an expression prints its value, then a new prompt"

keys -l 'const info = await Hybrid.call("device", "info")'; keys Enter
wait_for "undefined"; wait_last ">"
keys -l 'info.platform'; keys Enter
wait_for "'linux'" "the awaited bridge call left no info.platform"; wait_last ">"
echo "ok 2 - await at the top level, its declaration kept as a global"

keys -l 'function add(a, b) {'; keys Enter
wait_last "..." "an open brace did not continue on a ... line"
keys -l '  return a + b'; keys Enter
keys -l '}'; keys Enter
wait_last ">"
keys -l 'add(2, 3)'; keys Enter
wait_for "5" "the multi-line function did not return 5"; wait_last ">"
echo "ok 3 - a multi-line input continues on ... lines until it is whole"

keys Up
wait_last "> add(2, 3)" "Up did not recall the last line"
keys Left BSpace; keys -l "9"; keys Home; keys -l "("; keys End; keys -l ")"; keys Enter
wait_for "> \(add\(2, 9\)\)" "editing the recalled line did not give (add(2, 9))"
wait_for "11" "the edited line did not print 11"; wait_last ">"
echo "ok 4 - Up recalls the last line, and it can be edited"

LONG="'$(printf 'a%.0s' $(seq 110))'.length"
keys -l "$LONG"; keys Home; keys -l "("; keys End; keys -l ")"
wait_for "a+'\.length\)" "a line longer than the pane did not wrap onto a second row"
[ "$(screen | grep -c "^> ('aaaa")" = 1 ] || fail "a line longer than the pane was drawn more than once"
keys Enter
wait_for "110" "the wrapped line, edited at both ends, did not print 110"; wait_last ">"
echo "ok 5 - a line longer than the terminal wraps, and Home and End reach both of its ends"

keys -l 'setTimeout(() => console.log("fired"), 500); "set"'; keys Enter
wait_for "'set'"; wait_last ">"
keys -l "half typed"
wait_for "fired" "the timer did not fire while a line was being typed"
wait_last "> half typed" "the line being typed was not drawn again below the timer's output"
keys C-u
echo "ok 6 - the app's event loop runs while a line is typed; its output goes above the line"

keys -l "this line is cancelled"; keys C-c
wait_for "> this line is cancelled\^C"; wait_last ">"
screen | grep -q "ReferenceError" && fail "Ctrl-C evaluated the line"
keys -l "1 + {"; keys Enter; wait_last "..."
keys C-c; wait_last ">" "Ctrl-C did not drop an unfinished input"
keys C-c; wait_for "\(To exit, press Ctrl\+C again or Ctrl\+D or type \.exit\)"; wait_last ">"
keys -l "'still here'"; keys Enter
wait_for "'still here'" "after Ctrl-C the prompt did not evaluate"; wait_last ">"
echo "ok 7 - Ctrl-C cancels the line and an unfinished input; once on an empty line, it says how to exit"

keys -l "await new Promise(() => {})"; keys Enter
sleep 0.2; keys C-c
wait_for "Interrupted: the input goes on, and its result will not be shown\." "Ctrl-C did not stop waiting for an await that never settles"
wait_last ">"
keys -l "'after the wait'"; keys Enter
wait_for "'after the wait'" "the prompt did not evaluate after an interrupted await"; wait_last ">"
echo "ok 8 - Ctrl-C stops waiting for an input that never settles"

keys C-d
wait_for "EXIT=0" "Ctrl-D did not exit 0"; wait_for "TTY-CHECKED"
screen | grep -qx "icanon" || fail "canonical input restored after Ctrl-D"
grep -qxF "(add(2, 9))" "$DATA/repl_history" || fail "the history file lacks (add(2, 9)): $(cat "$DATA/repl_history")"
echo "ok 9 - Ctrl-D exits 0, the terminal is restored, the history is in the data dir"
tmux -L "$SOCKET" kill-server
# A server of its own: a new session on the socket just killed can race the old server's exit.
SOCKET="$SOCKET-2"

tmux -L "$SOCKET" -f /dev/null new-session -d -x 100 -y 40 \
  "env TERM=xterm-256color LANG=C.UTF-8 $HYBRID repl --data-dir $DATA --grant device; echo EXIT=\$?; stty -a | tr ' ' '\n' | grep -x -- '-\?icanon'; echo TTY-CHECKED; sleep 30"
wait_last ">" "the second REPL's first prompt never appeared"
keys Up
wait_last "> 'after the wait'" "Up in a new REPL did not recall the history file's newest line"
keys C-u C-c; wait_for "\(To exit, press Ctrl\+C again or Ctrl\+D or type \.exit\)"
keys C-c
wait_for "EXIT=0" "Ctrl-C twice on an empty line did not exit 0"; wait_for "TTY-CHECKED"
screen | grep -qx "icanon" || fail "canonical input restored after Ctrl-C twice"
echo "ok 10 - a new REPL starts with the saved history; Ctrl-C twice on an empty line exits"
tmux -L "$SOCKET" kill-server
SOCKET="$SOCKET-3"

tmux -L "$SOCKET" -f /dev/null new-session -d -x 100 -y 40 \
  "env TERM=xterm-256color LANG=C.UTF-8 $HYBRID repl --data-dir $DATA --grant device; echo EXIT=\$?; stty -a | tr ' ' '\n' | grep -x -- '-\?icanon'; echo TTY-CHECKED; sleep 30"
wait_last ">" "the third REPL's first prompt never appeared"
keys -l 'const fruit = { apple: 1, apricot: 2, banana: 3 }'; keys Enter
wait_for "undefined"; wait_last ">"
keys -l "fruit.b"; keys Tab
wait_last "> fruit.banana" "Tab did not complete the one property that matches"
keys C-u; keys -l "fruit.a"; keys Tab
wait_last "> fruit.ap" "Tab did not complete the common prefix of fruit.apple and fruit.apricot"
keys Tab
wait_for "fruit\.apple +fruit\.apricot" "a second Tab did not list the matches"
wait_last "> fruit.ap" "the line was not drawn again below the list"
keys -l "r"; keys Tab; wait_last "> fruit.apricot"
keys Enter
wait_for "2" "the completed line did not evaluate"; wait_last ">"
keys -l "jso"; keys Tab
wait_last "> JSON" "Tab did not complete a global name typed in another case"
keys C-u
echo "ok 11 - Tab completes a property or a global in place, the common prefix of several, and a second Tab lists them"

keys -l 'const lazy = { get boom() { console.log("GETTER RAN"); return { deep: 1 } } }'; keys Enter
wait_for "undefined"; wait_last ">"
keys -l "lazy.boom."; keys Tab; keys Tab
keys C-u; keys -l "'after the getter'"; keys Enter
wait_for "'after the getter'"; wait_last ">"
screen | grep -qx "GETTER RAN" && fail "Tab ran a getter"
echo "ok 12 - Tab after a getter runs nothing"

keys -l ".help"; keys Enter
wait_for "\.editor   Enter editor mode" ".help did not list .editor"
wait_for "Press Ctrl\+C to abort current expression, Ctrl\+D to exit the REPL"; wait_last ">"
keys -l ".edi"; keys Tab; wait_last "> .editor" "Tab did not complete a REPL command"
keys Enter
wait_for "// Entering editor mode \(Ctrl\+D to finish, Ctrl\+C to cancel\)"
keys -l "function area(w, h) {"; keys Enter
keys -l "  const a = w * h"; keys Enter
# The new line starts with the last one's indentation, as in node.
keys -l "return a"; keys Enter
keys BSpace BSpace; keys -l "}"; keys Enter
keys -l "area(6, 7)"; keys C-d
wait_for "42" ".editor did not evaluate the block at Ctrl-D"; wait_last ">"
screen | grep -qx "  return a" || fail "the editor did not keep the last line's indentation"
keys -l ".editor"; keys Enter
wait_for "// Entering editor mode \(Ctrl\+D to finish, Ctrl\+C to cancel\)"
keys -l "this is not run"; keys Enter; keys -l "either"; keys C-c
wait_last ">" "Ctrl-C did not leave editor mode"
keys -l "'after the editor'"; keys Enter
wait_for "'after the editor'"; wait_last ">"
screen | grep -q "Error" && fail "Ctrl-C in editor mode evaluated the block"
echo "ok 13 - .help lists the commands; .editor evaluates its block at Ctrl-D and drops it at Ctrl-C"

keys -l ".exit"; keys Enter
wait_for "EXIT=0" ".exit did not exit 0"; wait_for "TTY-CHECKED"
screen | grep -qx "icanon" || fail "canonical input restored after .exit"
echo "ok 14 - .exit exits 0, the terminal restored"
