import Foundation

/// A deliberately small HTTP/1.1 client on raw sockets: one request per connection, the response
/// read until the server closes, then checked against its own framing (Content-Length or chunked),
/// so that a cut or a doubled response shows up instead of being smoothed over.
struct RawHTTPClient: Sendable {
    let port: Int

    func post(_ path: String, body: String, headers: [String] = []) throws(RawHTTPError) -> RawHTTPResponse {
        try send("POST", path, body: Array(body.utf8), headers: ["Content-Type: text/plain"] + headers)
    }

    func get(_ path: String) throws(RawHTTPError) -> RawHTTPResponse {
        try send("GET", path)
    }

    /// Sends the request as given: `headers` are whole lines; Content-Length is added for a body
    /// unless `headers` carry a Transfer-Encoding, and then `body` goes as it is.
    func send(_ method: String, _ path: String, body: [UInt8] = [], headers: [String] = []) throws(RawHTTPError) -> RawHTTPResponse {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)"] + headers
        let framed = headers.contains { $0.lowercased().hasPrefix("transfer-encoding:") }
        if !framed, !body.isEmpty || method == "POST" { lines.append("Content-Length: \(body.count)") }
        let request = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
        let received = try exchange(request)
        guard !received.isEmpty else { throw .emptyReply }
        return try Self.parse(received)
    }

    private func exchange(_ request: [UInt8]) throws(RawHTTPError) -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .refused }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw .refused }
        var offset = 0
        while offset < request.count {
            let sent = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, request.count - offset, Int32(MSG_NOSIGNAL)) }
            // The proxy may hang up before reading everything (a drop): what it answered, if
            // anything, is still there to read.
            guard sent > 0 else { break }
            offset += sent
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { received += buffer[..<count]; continue }
            if count < 0, errno == EINTR { continue }
            return received
        }
    }

    static func parse(_ bytes: [UInt8]) throws(RawHTTPError) -> RawHTTPResponse {
        guard let headEnd = index(of: Array("\r\n\r\n".utf8), in: bytes, from: 0) else { throw .truncated(received: bytes.count) }
        let headLines = String(decoding: bytes[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = headLines[0].split(separator: " ")
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else { throw .malformed }
        var headers: [String: String] = [:]
        for line in headLines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw .malformed }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let rest = Array(bytes[(headEnd + 4)...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            let (body, trailing) = try dechunk(rest, total: bytes.count)
            return RawHTTPResponse(status: status, headers: headers, body: body, trailing: trailing)
        }
        if let length = headers["content-length"].flatMap({ Int($0) }) {
            guard rest.count >= length else { throw .truncated(received: bytes.count) }
            return RawHTTPResponse(status: status, headers: headers, body: Array(rest[..<length]), trailing: Array(rest[length...]))
        }
        return RawHTTPResponse(status: status, headers: headers, body: rest, trailing: [])
    }

    private static func dechunk(_ bytes: [UInt8], total: Int) throws(RawHTTPError) -> (body: [UInt8], trailing: [UInt8]) {
        var body: [UInt8] = []
        var offset = 0
        while true {
            guard let lineEnd = index(of: [13, 10], in: bytes, from: offset) else { throw .truncated(received: total) }
            let sizeText = String(decoding: bytes[offset..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { throw .malformed }
            offset = lineEnd + 2
            if size == 0 {
                // No trailer fields from our server: the final CRLF follows at once.
                guard bytes.count >= offset + 2 else { throw .truncated(received: total) }
                return (body, Array(bytes[(offset + 2)...]))
            }
            guard bytes.count >= offset + size + 2 else { throw .truncated(received: total) }
            body += bytes[offset..<offset + size]
            offset += size + 2
        }
    }

    private static func index(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= start + needle.count else { return nil }
        for i in start...(bytes.count - needle.count) where bytes[i..<i + needle.count].elementsEqual(needle) { return i }
        return nil
    }
}
