import Glibc

/// The terminal's settings as they were before the host changed them (raw input for views and
/// for `hybrid repl`'s line editor), put back whatever ends the process: at exit, and on SIGINT,
/// SIGTERM, SIGHUP, SIGQUIT and the crash signals, after which the process dies of the same
/// signal as if it had never been caught. ``restore()`` is idempotent and written for a signal
/// handler (tcsetattr and write only).
public enum TerminalState {
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var active: Int32 = 0
    nonisolated(unsafe) private static var handlersInstalled = false
    /// Written to stdout when the settings are put back (leaving the alternate screen, say).
    nonisolated(unsafe) private static var leaving: [UInt8] = []

    /// Whether the settings are changed now.
    public static var isChanged: Bool { active != 0 }

    /// Saves stdin's settings and applies `change` to them (with `TCSAFLUSH`, so keys typed before
    /// are dropped, or `TCSADRAIN`, so they are kept); `leave` is written to stdout when they are
    /// put back. False when stdin is not a terminal or its settings are changed already.
    public static func change(when action: Int32 = TCSAFLUSH, leave: String = "", _ change: (inout termios) -> Void) -> Bool {
        guard active == 0, isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return false }
        var changed = saved
        change(&changed)
        installHandlers()
        leaving = Array(leave.utf8)
        guard tcsetattr(STDIN_FILENO, action, &changed) == 0 else { return false }
        active = 1
        return true
    }

    /// Puts the settings back as they were. Safe to call more than once, and from a signal handler.
    public static func restore() {
        guard active != 0 else { return }
        active = 0
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        leaving.withUnsafeBufferPointer { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { if n < 0 && errno == EINTR { continue }; return }
                offset += n
            }
        }
    }

    /// Sets `VMIN` 1 and `VTIME` 0: a read returns as soon as one byte is there.
    public static func readByByte(_ settings: inout termios) {
        withUnsafeMutablePointer(to: &settings.c_cc) { pointer in
            pointer.withMemoryRebound(to: cc_t.self, capacity: Int(NCCS)) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
        }
    }

    private static func installHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        atexit { TerminalState.restore() }
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                TerminalState.restore()
                Glibc.signal(signal, SIG_DFL)
                raise(signal)
            }
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
    }
}
