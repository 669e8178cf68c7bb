import Foundation

/// A raw TCP connection to a server on 127.0.0.1, for peers that misbehave: that send nothing,
/// half a request, or hang up in the middle of one.
final class LoopbackSocket: @unchecked Sendable {
    private let fd: Int32
    private var closed = false
    /// What the server sent so far.
    private(set) var received: [UInt8] = []

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            // Closed here and marked so: a class whose init throws once it is whole still runs
            // deinit, and a second close could hit a descriptor number someone else has by then.
            Glibc.close(fd)
            closed = true
            throw TestFailure("connect to 127.0.0.1:\(port): errno \(error)")
        }
    }

    deinit { close() }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// A GET on this connection, kept alive.
    func sendGet(_ path: String, token: String? = nil) {
        send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (token.map { "Authorization: Bearer \($0)\r\n" } ?? "") + "\r\n")
    }

    /// Reads for up to `seconds`: true as soon as the server has closed the connection (an end of
    /// file or a reset), false when it is still open then. What arrives meanwhile is kept.
    func closedByServer(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 1) * 1000))
            if ready < 0, errno != EINTR { return true }
            guard ready > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[..<count]
                continue
            }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            return true
        }
    }

    /// Reads until one whole response (its head, and a Content-Length body) has arrived, or
    /// `seconds` pass; returns its status line and body ("" when none came).
    func response(within seconds: Double) -> (status: Int, body: String) {
        let deadline = Date().addingTimeInterval(seconds)
        while deadline.timeIntervalSinceNow > 0 {
            if let reply = Self.whole(received) { return reply }
            if closedByServer(within: 0.05) { break }
        }
        return Self.whole(received) ?? (0, "")
    }

    private static func whole(_ bytes: [UInt8]) -> (status: Int, body: String)? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { return nil }
        let head = text[..<headEnd.lowerBound]
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        let length = head.split(separator: "\r\n").compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            return parts.count == 2 && parts[0].lowercased() == "content-length" ? Int(parts[1].trimmingCharacters(in: .whitespaces)) : nil
        }.first ?? 0
        let body = Array(text[headEnd.upperBound...].utf8)
        guard body.count >= length else { return nil }
        return (status, String(decoding: body.prefix(length), as: UTF8.self))
    }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }
}
