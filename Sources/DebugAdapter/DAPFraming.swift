// The DebugAdapter module: a Debug Adapter Protocol server (what editors speak to debuggers) in
// front of the WebKit Inspector Protocol that `hybrid run --inspect` serves. It knows no engine:
// it starts `hybrid run` as a child, talks to it over a WebSocket, and translates. It must never
// import Engine or Bridge (the debugger sits outside the app it debugs).
import JSON

/// Debug Adapter Protocol messages as they cross stdio: a `Content-Length: N` header (others are
/// allowed and skipped), a blank line, then N bytes of JSON.
///
/// ```swift
/// var reader = DAPFrameReader()
/// reader.append(Array(DAPFraming.frame(["seq": 1, "type": "request", "command": "threads"]).utf8))
/// try reader.next()   // the request as a JSONValue
/// ```
public enum DAPFraming {
    /// `message` as a framed DAP message.
    public static func frame(_ message: JSONValue) -> String {
        let body = JSONWriter.write(message)
        return "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }
}

/// Reads framed DAP messages out of the bytes as they arrive, in whatever pieces.
public struct DAPFrameReader: Sendable {
    private var buffer: [UInt8] = []
    private static let headerEnd = Array("\r\n\r\n".utf8)

    public init() {}

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole message, nil while its bytes have not all arrived. A header without a
    /// `Content-Length`, or a body that is not JSON, throws (and is dropped, so that reading
    /// can go on with the next message).
    public mutating func next() throws(DebugAdapterError) -> JSONValue? {
        guard let end = Self.find(Self.headerEnd, in: buffer) else {
            if buffer.count > 8192 {
                buffer.removeAll()
                throw DebugAdapterError(.framing, "DAP header: expected \"Content-Length: N\" and a blank line within 8 KiB")
            }
            return nil
        }
        let header = String(decoding: buffer[..<end], as: UTF8.self)
        var length: Int?
        for line in header.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { continue }
            length = Int(parts[1].trimmingPrefix(" "))
        }
        guard let length, length >= 0 else {
            buffer.removeSubrange(..<(end + 4))
            throw DebugAdapterError(.framing, "DAP header: expected Content-Length: N, got \"\(header)\"")
        }
        let start = end + 4
        guard buffer.count >= start + length else { return nil }
        let body = Array(buffer[start..<(start + length)])
        buffer.removeSubrange(..<(start + length))
        do {
            return try JSONParser.parse(body)
        } catch {
            throw DebugAdapterError(.framing, "DAP message body: expected JSON, \(error)")
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }
}
