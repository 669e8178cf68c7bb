import Glibc
import Synchronization

/// Console output, written as it comes with write(2), as node writes to terminals, files and (on
/// Linux) pipes: a line is out before the statement after it runs, so a long synchronous task or a
/// SIGTERM never holds it back, and what a view draws (which writes here too) never overtakes it.
/// One lock orders the writers (the JS thread, a view's key reader), so no text is torn by another.
/// No C stdio state shared across threads.
public enum StandardStreams {
    private static let order = Mutex(())

    public static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { bytes in
            order.withLock { _ in writeAll(bytes, to: fd) }
        }
    }

    private static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                // A stream another process made non-blocking: wait until it takes more.
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    if poll(&ready, 1, -1) >= 0 || errno == EINTR { continue }
                }
                return
            }
            offset += written
        }
    }
}
