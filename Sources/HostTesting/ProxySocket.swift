import Glibc
import Synchronization

/// One TCP socket on 127.0.0.1, closed exactly once.
///
/// The thread that created (or accepted) a socket is its owner: it alone calls `close()`, when it is
/// done. Any other thread may `shutDown()` it at any time to wake the owner from a blocked `recv`
/// or `accept`; both take the same lock, so a shutdown can never reach a descriptor number that
/// has already been closed and handed to someone else.
final class ProxySocket: Sendable {
    private let descriptor: Mutex<Int32>

    private init(_ fd: Int32) { descriptor = Mutex(fd) }

    /// The descriptor for a blocking call by the owner; -1 once closed.
    private var fd: Int32 { descriptor.withLock { $0 } }

    // MARK: Opening

    /// A listening socket on 127.0.0.1 and an ephemeral port, with that port.
    static func listen() throws(FaultProxyError) -> (ProxySocket, port: Int) {
        let fd = try makeSocket()
        let socket = ProxySocket(fd)
        var address = loopback(port: 0)
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) }
        }
        guard bound == 0 else { throw socket.closing(call: "bind") }
        guard Glibc.listen(fd, SOMAXCONN) == 0 else { throw socket.closing(call: "listen") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &size) }
        }
        guard named == 0 else { throw socket.closing(call: "getsockname") }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A socket connected to 127.0.0.1:`port`, or nil when nothing answers there.
    static func connect(toPort port: Int, receiveTimeoutMs: Int) -> ProxySocket? {
        guard let fd = try? makeSocket() else { return nil }
        let socket = ProxySocket(fd)
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            socket.close()
            return nil
        }
        socket.setReceiveTimeout(milliseconds: receiveTimeoutMs)
        return socket
    }

    /// The next client connection, or nil once the listener has been shut down (or failed).
    func accept() -> ProxySocket? {
        while true {
            let client = Glibc.accept(fd, nil, nil)
            if client >= 0 { return ProxySocket(client) }
            switch errno {
            case EINTR, ECONNABORTED: continue
            // Out of descriptors or buffers: back off rather than spin, and try again.
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: usleep(10_000)
            default: return nil
            }
        }
    }

    private static func makeSocket() throws(FaultProxyError) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .socket(call: "socket", errno: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    private func closing(call: String) -> FaultProxyError {
        let error = FaultProxyError.socket(call: call, errno: errno)
        close()
        return error
    }

    // MARK: Options

    /// Bounds every `receive`: a peer that goes quiet for this long ends the exchange.
    func setReceiveTimeout(milliseconds: Int) {
        var timeout = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    // MARK: Bytes

    /// Up to `limit` bytes; empty at end of stream; nil on an error or a receive timeout.
    func receive(limit: Int = 64 * 1024) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: limit)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, limit, 0) }
            if count >= 0 { return Array(buffer[..<count]) }
            if errno != EINTR { return nil }
        }
    }

    /// Everything until the peer closes; nil on an error or a receive timeout before that.
    func receiveToEnd() -> [UInt8]? {
        var bytes: [UInt8] = []
        while true {
            guard let chunk = receive() else { return nil }
            if chunk.isEmpty { return bytes }
            bytes += chunk
        }
    }

    /// All of `bytes`, or false when the peer has gone. `MSG_NOSIGNAL`: a closed peer is an error
    /// here, never a SIGPIPE that kills the test process.
    @discardableResult
    func send<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        let bytes = Array(bytes)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    // MARK: Ending

    /// Wakes whoever is blocked on this socket and ends the connection for the peer; the descriptor
    /// stays open until its owner closes it. Safe from any thread, any number of times.
    func shutDown() {
        descriptor.withLock { fd in
            if fd >= 0 { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// Releases the descriptor; later calls do nothing. Only the owner calls this.
    func close() {
        descriptor.withLock { fd in
            if fd >= 0 { _ = Glibc.close(fd) }
            fd = -1
        }
    }
}
