import Glibc

/// The one place that changes the terminal's state: raw input, the alternate screen, a hidden
/// cursor. Whatever happens (a normal exit, `q`, SIGINT, SIGTERM, a crash signal), the state saved
/// on entry is put back: `restore()` is idempotent and async-signal-safe (tcsetattr and write only).
enum TerminalMode {
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var active: Int32 = 0
    nonisolated(unsafe) private static var handlersInstalled = false

    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"
    static let leaveSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    static var isActive: Bool { active != 0 }

    /// Switches stdin to raw input (no echo, no line buffering; Ctrl-C still raises SIGINT) and
    /// stdout to the alternate screen. False when stdin or stdout is not a terminal.
    static func enter() -> Bool {
        guard active == 0, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return false }
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return false }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutablePointer(to: &raw.c_cc) { pointer in
            pointer.withMemoryRebound(to: cc_t.self, capacity: Int(NCCS)) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
        }
        installHandlers()
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return false }
        active = 1
        write(enterSequence)
        return true
    }

    /// Puts the terminal back as it was. Safe to call more than once, and from a signal handler.
    static func restore() {
        guard active != 0 else { return }
        active = 0
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        write(leaveSequence)
    }

    static func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { if n < 0 && errno == EINTR { continue }; return }
                offset += n
            }
        }
    }

    private static func installHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        atexit { TerminalMode.restore() }
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                TerminalMode.restore()
                // Then die of the same signal, as if we had never caught it.
                Glibc.signal(signal, SIG_DFL)
                raise(signal)
            }
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
    }
}
