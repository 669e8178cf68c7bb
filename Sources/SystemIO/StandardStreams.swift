import Glibc
import Synchronization

/// Console output: stdout buffered (flushed when the JS loop waits, before stderr is written, and
/// at exit), stderr written at once. Written with write(2): no C stdio state shared across threads.
public enum StandardStreams {
    private static let buffer = Mutex<[UInt8]>([])

    public static func write(_ text: String, to fd: Int32) {
        buffer.withLock { buffer in
            if fd == 2 {
                flush(&buffer)
                writeAll(Array(text.utf8), to: 2)
            } else {
                buffer.append(contentsOf: text.utf8)
                if buffer.count >= 64 * 1024 { flush(&buffer) }
            }
        }
    }

    public static func flush() {
        buffer.withLock { flush(&$0) }
    }

    private static func flush(_ buffer: inout [UInt8]) {
        guard !buffer.isEmpty else { return }
        writeAll(buffer, to: 1)
        buffer.removeAll(keepingCapacity: true)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
