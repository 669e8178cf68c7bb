import Glibc
import SystemIO

/// The views' terminal state: raw input, the alternate screen, a hidden cursor. Whatever happens
/// (a normal exit, `q`, SIGINT, SIGTERM, a crash signal), the state saved on entry is put back
/// (``TerminalState``, which also leaves the alternate screen).
enum TerminalMode {
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"
    static let leaveSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    static var isActive: Bool { TerminalState.isChanged }

    /// Switches stdin to raw input (no echo, no line buffering; Ctrl-C still raises SIGINT) and
    /// stdout to the alternate screen. False when stdin or stdout is not a terminal.
    static func enter() -> Bool {
        guard !TerminalState.isChanged, isatty(STDOUT_FILENO) == 1 else { return false }
        let changed = TerminalState.change(leave: leaveSequence) { raw in
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
            TerminalState.readByByte(&raw)
        }
        guard changed else { return false }
        write(enterSequence)
        return true
    }

    /// Raw input only, for the screen-reader stream that replaces the painted screen: stdout stays
    /// the normal screen, where the lines scroll by.
    static func enterKeysOnly() -> Bool {
        TerminalState.change(leave: "") { raw in
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
            TerminalState.readByByte(&raw)
        }
    }

    /// Puts the terminal back as it was. Safe to call more than once, and from a signal handler.
    static func restore() { TerminalState.restore() }

    /// Through the console's own write path (``StandardStreams``): a frame comes after the
    /// `console.log` lines written before it, never before, and is never torn by one.
    static func write(_ text: String) {
        StandardStreams.write(text, to: STDOUT_FILENO)
    }
}
