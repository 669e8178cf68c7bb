/// One request read whole from a client, and the bytes that go upstream for it.
struct ProxiedRequest: Sendable {
    /// How reading a request from a client ended.
    enum Reading: Sendable {
        case request(ProxiedRequest)
        /// Not a request the proxy forwards: answer with this status line and close.
        case refused(String)
        /// The client went away (or went quiet) before a whole request arrived.
        case gone
    }

    static let headLimit = 64 * 1024
    static let bodyLimit = 64 * 1024 * 1024
    /// Fields that describe the client's connection, not the request; the forwarded request
    /// carries `Connection: close` instead, so each exchange with the upstream ends with a close.
    static let hopByHop: Set<String> = ["connection", "keep-alive", "proxy-connection", "expect", "te", "upgrade"]

    let method: String
    /// The request target as sent (path and query).
    let path: String
    let forwarded: [UInt8]

    /// Reads one request: the head up to the blank line, then `Content-Length` bytes of body.
    /// Answers `Expect: 100-continue` itself, so a client does not sit out its wait for it.
    static func read(from client: ProxySocket) -> Reading {
        var bytes: [UInt8] = []
        var headEnd: Int?
        while headEnd == nil {
            guard bytes.count <= headLimit else { return .refused("431 Request Header Fields Too Large") }
            guard let chunk = client.receive(), !chunk.isEmpty else { return .gone }
            bytes += chunk
            headEnd = HTTPHead.end(in: bytes)
        }
        guard let headEnd else { return .gone }
        var head = HTTPHead(bytes[..<headEnd])
        let parts = head.startLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        guard parts.count == 3 else { return .refused("400 Bad Request") }
        let method = String(decoding: parts[0], as: UTF8.self)
        let path = String(decoding: parts[1], as: UTF8.self)

        // Bodies must come with a length: our clients send one, and reading chunked request bodies
        // would buy nothing the tests need.
        if !head.values("transfer-encoding").isEmpty { return .refused("411 Length Required") }
        let lengths = head.values("content-length")
        guard lengths.count <= 1 else { return .refused("400 Bad Request") }
        var length = 0
        if let text = lengths.first {
            guard let value = Int(text), value >= 0 else { return .refused("400 Bad Request") }
            guard value <= bodyLimit else { return .refused("413 Content Too Large") }
            length = value
        }

        var body = Array(bytes[(headEnd + HTTPHead.terminator.count)...])
        if body.count < length, head.value("expect")?.lowercased() == "100-continue" {
            guard client.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return .gone }
        }
        while body.count < length {
            guard let chunk = client.receive(), !chunk.isEmpty else { return .gone }
            body += chunk
        }
        // Anything past the body is a pipelined next request: one request per connection, so it
        // is dropped with the connection.
        body.removeLast(body.count - length)

        head.remove(hopByHop)
        head.add("Connection", "close")
        return .request(ProxiedRequest(method: method, path: path, forwarded: head.bytes + body))
    }
}
