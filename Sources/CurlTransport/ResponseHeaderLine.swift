/// One line of a response's head as curl hands it over (CRLF included), read as bytes: this runs
/// on the curl thread for every header of every response.
///
/// `package`: the transfer reads it, and so does the header harness of `make fuzz`.
package enum ResponseHeaderLine: Equatable {
    /// `HTTP/1.1 200 OK`: a new status line (after `100 Continue`, say), so the headers read so far
    /// belonged to another response. The code (0 when it is not three digits) and the reason
    /// phrase (empty over HTTP/2, which has none).
    case status(code: Int, reason: String)
    /// `Name: value`, the name lower-cased, the value without its leading blanks or line end.
    case field(name: String, value: String)
    /// The blank line ending the head.
    case end
    /// Anything else: a line without a colon.
    case other

    package init(_ bytes: UnsafeRawBufferPointer) {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        if line.isEmpty {
            self = .end
        } else if line.starts(with: "HTTP/".utf8) {
            self = Self.statusLine(line)
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            var start = colon + 1
            while start < end, line[start] == UInt8(ascii: " ") || line[start] == UInt8(ascii: "\t") { start += 1 }
            let name = String(unsafeUninitializedCapacity: colon) { buffer in
                for index in 0..<colon {
                    let byte = line[index]
                    buffer[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                }
                return colon
            }
            self = .field(name: name, value: String(decoding: line[start..<end], as: UTF8.self))
        } else {
            self = .other
        }
    }

    /// `HTTP/1.1 404 Not Found` -> (404, "Not Found"); `HTTP/2 200` -> (200, "").
    private static func statusLine(_ line: UnsafeRawBufferPointer) -> ResponseHeaderLine {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return .status(code: 0, reason: "") }
        var code = 0, digits = 0, index = space + 1
        while index < line.count, digits < 3, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[index]) {
            code = code * 10 + Int(line[index] - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        guard digits == 3 else { return .status(code: 0, reason: "") }
        if index < line.count, line[index] == UInt8(ascii: " ") { index += 1 }
        return .status(code: code, reason: String(decoding: line[index...], as: UTF8.self))
    }
}
