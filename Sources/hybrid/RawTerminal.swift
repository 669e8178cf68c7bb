import Glibc

/// The terminal as `hybrid repl` edits lines in it: no echo, no line buffering, and no signals
/// from keys (Ctrl-C and Ctrl-D arrive as bytes, for the line editor to decide). Output processing
/// stays on, so "\n" still starts a new line. Whatever ends the process (exit, SIGTERM, SIGHUP, a
/// crash signal), the state saved on entry is put back: `restore()` is idempotent and
/// async-signal-safe (tcsetattr only).
enum RawTerminal {
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var active: Int32 = 0
    nonisolated(unsafe) private static var handlersInstalled = false

    /// Whether both ends are a terminal, so that lines can be edited in place.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Switches stdin to raw input; false when it is not a terminal.
    static func enter() -> Bool {
        guard active == 0, isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return false }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN | ISIG)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutablePointer(to: &raw.c_cc) { pointer in
            pointer.withMemoryRebound(to: cc_t.self, capacity: Int(NCCS)) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
        }
        installHandlers()
        guard tcsetattr(STDIN_FILENO, TCSADRAIN, &raw) == 0 else { return false }
        active = 1
        return true
    }

    /// Puts the terminal back as it was. Safe to call more than once, and from a signal handler.
    static func restore() {
        guard active != 0 else { return }
        active = 0
        _ = tcsetattr(STDIN_FILENO, TCSADRAIN, &saved)
    }

    private static func installHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        atexit { RawTerminal.restore() }
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                RawTerminal.restore()
                // Then die of the same signal, as if it had never been caught.
                Glibc.signal(signal, SIG_DFL)
                raise(signal)
            }
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
    }
}
