import Glibc
import SystemIO

/// The terminal as `hybrid repl` edits lines in it: no echo, no line buffering, and no signals
/// from keys (Ctrl-C and Ctrl-D arrive as bytes, for the line editor to decide). Output processing
/// stays on, so "\n" still starts a new line. Whatever ends the process, the settings are put
/// back (``TerminalState``).
enum RawTerminal {
    /// Whether both ends are a terminal, so that lines can be edited in place.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Switches stdin to raw input, keeping what was typed before; false when it is not a terminal.
    static func enter() -> Bool {
        TerminalState.change(when: TCSADRAIN) { raw in
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN | ISIG)
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
            TerminalState.readByByte(&raw)
        }
    }

    static func restore() { TerminalState.restore() }
}
