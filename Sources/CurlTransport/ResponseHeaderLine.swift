/// One line of a response's head as curl hands it over (CRLF included), read as bytes: this runs
/// on the curl thread for every header of every response.
///
/// `package`: the transfer reads it, and so does the header harness of `make fuzz`.
package enum ResponseHeaderLine: Equatable {
    /// `HTTP/1.1 200 OK`: a new status line (after `100 Continue`, say), so the headers read so far
    /// belonged to another response.
    case status
    /// `Name: value`, the name lower-cased, the value without its leading blanks or line end.
    case field(name: String, value: String)
    /// Anything else: the blank line ending the head, a line without a colon.
    case other

    package init(_ bytes: UnsafeRawBufferPointer) {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        if line.starts(with: "HTTP/".utf8) {
            self = .status
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
}
