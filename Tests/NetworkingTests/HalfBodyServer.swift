import Foundation
import SystemIO

/// A server that promises a body and hangs up half way: what a crashed upstream looks like.
/// Raw sockets, because a well-behaved framework will not misbehave on request.
final class HalfBodyServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init() throws {
        (listener, port) = try RawListener.open()
        Thread.detachNewThread { [listener] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                var request = [UInt8](repeating: 0, count: 4096)
                _ = read(client, &request, request.count)
                let head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n"
                let partial = Array(head.utf8) + [UInt8](repeating: 65, count: 1000)
                _ = partial.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                close(client)
            }
        }
    }

    deinit { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }
}

/// A server whose every write blocks until the client has taken the bytes before (plain blocking
/// sockets, no buffering of its own): how many it has written shows how far a client let it get.
final class FloodServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let counted = Locked<Int>(0)

    /// Bytes written to the socket so far.
    var written: Int { counted.read { $0 } }

    /// Answers one request with `size` bytes, 64 KiB a write.
    init(size: Int) throws {
        (listener, port) = try RawListener.open()
        Thread.detachNewThread { [listener, counted] in
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            var request = [UInt8](repeating: 0, count: 4096)
            _ = read(client, &request, request.count)
            let head = Array("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(size)\r\n\r\n".utf8)
            _ = head.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            let piece = [UInt8](repeating: 0x5a, count: 1 << 16)
            var sent = 0
            while sent < size {
                let n = piece.withUnsafeBytes { write(client, $0.baseAddress, min($0.count, size - sent)) }
                guard n > 0 else { break }
                sent += n
                counted.withLock { $0 = sent }
            }
            close(client)
        }
    }

    deinit { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }
}

/// A listening TCP socket on 127.0.0.1 and an ephemeral port.
enum RawListener {
    static func open() throws -> (socket: Int32, port: Int) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, size) } }
        guard bound == 0, listen(listener, 16) == 0 else { close(listener); throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &size) } }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Whether something accepts a TCP connection on 127.0.0.1 at `port`.
    static func connects(port: Int) throws -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } == 0
    }
}
