import Glibc
import Synchronization

/// SIGWINCH, the terminal's size changed, turned into one call on a thread of its own per burst:
/// the signal handler only writes a byte to a pipe; the thread drains it and waits until no signal
/// has come for a moment, so dragging a window's corner relayouts once per pause, not per signal.
///
/// ```swift
/// WindowSizeSignal.watch { redraw(at: currentSize()) }
/// ```
public enum WindowSizeSignal {
    private static let handler = Mutex<(@Sendable () -> Void)?>(nil)
    private static let installed = Mutex(false)
    /// The pipe's write end, read by the signal handler (set once, before the handler is installed).
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// How long the size must stay still before `body` runs.
    static let settle: Int32 = 15

    /// Calls `body` after each burst of SIGWINCH, replacing the body given before; nil stops calling.
    public static func watch(_ body: (@Sendable () -> Void)?) {
        handler.withLock { $0 = body }
        guard body != nil else { return }
        let first = installed.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        writeEnd = ends[1]
        let readEnd = ends[0]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            let saved = errno
            var byte: UInt8 = 1
            _ = Glibc.write(WindowSizeSignal.writeEnd, &byte, 1)
            errno = saved
        }
        action.sa_flags = SA_RESTART
        sigaction(SIGWINCH, &action, nil)
        DetachedThread.start { loop(readEnd) }
    }

    private static func loop(_ readEnd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        var waiting = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        while true {
            // Block until a signal, then until none has come for `settle` milliseconds.
            guard poll(&waiting, 1, -1) >= 0 || errno == EINTR else { return }
            repeat {
                while read(readEnd, &buffer, buffer.count) > 0 {}
            } while poll(&waiting, 1, settle) > 0
            handler.withLock { $0 }?()
        }
    }
}
