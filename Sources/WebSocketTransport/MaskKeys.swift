import Glibc
import NIOWebSocket
import Synchronization

/// The masking keys of the frames a client sends (RFC 6455 §5.3: from a strong source of
/// entropy, unpredictable to whoever wrote the message). They come from the kernel's generator
/// 4 KiB at a time, a thousand keys a call, where NIO's `.random()` made one getrandom(2) call per
/// frame: a flat 1% of an echo run's samples, and a system call on the JS thread per message.
enum MaskKeys {
    private static let poolSize = 4096
    private static let pool = Mutex<(bytes: [UInt8], next: Int)>(([], poolSize))

    static func next() -> WebSocketMaskingKey {
        pool.withLock { pool in
            if pool.next + 4 > pool.bytes.count {
                if pool.bytes.isEmpty { pool.bytes = [UInt8](repeating: 0, count: poolSize) }
                pool.bytes.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
                pool.next = 0
            }
            defer { pool.next += 4 }
            return WebSocketMaskingKey(pool.bytes[pool.next..<pool.next + 4])!
        }
    }
}
