/// A strict RFC 8259 parser over UTF-8 bytes.
///
/// ```swift
/// let value = try JSONParser.parse(#"{"a": [1, 2]}"#)
/// ```
public enum JSONParser {
    /// How deep arrays and objects may nest before the text is refused.
    public static let maximumDepth = 512

    /// Throws ``JSONSyntaxError``.
    public static func parse(_ text: String) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { buffer in try parse(buffer) }
    }

    /// Throws ``JSONSyntaxError``.
    public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in try parse(buffer) }
    }

    /// `maximumDepth`: how deep arrays and objects may nest, the outermost counting as 1.
    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>, maximumDepth: Int = JSONParser.maximumDepth) throws(JSONSyntaxError) -> JSONValue {
        var reader = Reader(bytes: buffer, maximumDepth: maximumDepth)
        reader.skipWhitespace()
        let value = try reader.parseValue(depth: 0)
        reader.skipWhitespace()
        guard reader.index == buffer.count else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let maximumDepth: Int
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
        }

        func error(_ message: String) -> JSONSyntaxError {
            var line = 1
            var column = 1
            for i in 0..<min(index, bytes.count) {
                if bytes[i] == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
            }
            return JSONSyntaxError(message: message, offset: index, line: line, column: column)
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard index < bytes.count else { throw error("unexpected end of text, expected a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
            case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
            default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))', expected a value")
            }
        }

        mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
            let count = literal.utf8CodeUnitCount
            let start = literal.utf8Start
            guard index + count <= bytes.count else { throw error("invalid literal, expected \(literal)") }
            for i in 0..<count where bytes[index + i] != start[i] {
                throw error("invalid literal, expected \(literal)")
            }
            index += count
        }

        /// Objects with more members than this find a duplicate key through a hash table rather
        /// than a scan of the members before it, which made n keys cost n²/2 comparisons.
        static let scannedMembers = 16

        mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth)") }
            index += 1
            var members: [JSONObject.Member] = []
            var positions: [String: Int] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(JSONObject()) }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
                index += 1
                skipWhitespace()
                let value = try parseValue(depth: depth)
                // Later duplicates win, in the first one's place, as in JSON.parse.
                if members.count < Self.scannedMembers {
                    if let position = members.firstIndex(where: { $0.key == key }) {
                        members[position].value = value
                    } else {
                        members.append((key: key, value: value))
                    }
                } else {
                    if positions.isEmpty {
                        for (position, member) in members.enumerated() { positions[member.key] = position }
                    }
                    if let position = positions[key] {
                        members[position].value = value
                    } else {
                        positions[key] = members.count
                        members.append((key: key, value: value))
                    }
                }
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of text inside an object") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(JSONObject(members)) }
                throw error("expected ',' or '}' in an object")
            }
        }

        mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth)") }
            index += 1
            var array: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(array) }
            while true {
                skipWhitespace()
                array.append(try parseValue(depth: depth))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of text inside an array") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(array) }
                throw error("expected ',' or ']' in an array")
            }
        }

        mutating func parseNumber() throws(JSONSyntaxError) -> Double {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            let text = Self.asciiString(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            guard let number = Double(text) else { throw error("invalid number") }
            // Past Double's range a number reads as infinity, which JSON cannot hold (JSONWriter
            // writes null): refused, so no value changes between reading and writing it again.
            guard number.isFinite else {
                index = start
                throw error("number out of range: \(text)")
            }
            return number
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

        mutating func parseString() throws(JSONSyntaxError) -> String {
            index += 1  // opening quote
            let start = index
            // Fast path: no escapes.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    return try validatedUTF8(slice, at: start)
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw error("unescaped control character in a string") }
                index += 1
            }
            var scratch = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    let text = scratch.withUnsafeBufferPointer { Self.utf8String($0) }
                    guard let text else { throw error("invalid UTF-8 in a string") }
                    return text
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { throw error("unterminated escape") }
                    let escaped = bytes[index]
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""): scratch.append(0x22)
                    case UInt8(ascii: "\\"): scratch.append(0x5C)
                    case UInt8(ascii: "/"): scratch.append(0x2F)
                    case UInt8(ascii: "b"): scratch.append(0x08)
                    case UInt8(ascii: "f"): scratch.append(0x0C)
                    case UInt8(ascii: "n"): scratch.append(0x0A)
                    case UInt8(ascii: "r"): scratch.append(0x0D)
                    case UInt8(ascii: "t"): scratch.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try parseHex4()
                        if (0xD800...0xDBFF).contains(scalar) {
                            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                                throw error("lone UTF-16 surrogate in a \\u escape")
                            }
                            index += 2
                            let low = try parseHex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw error("lone UTF-16 surrogate in a \\u escape") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00...0xDFFF).contains(scalar) {
                            throw error("lone UTF-16 surrogate in a \\u escape")
                        }
                        scratch.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                    default:
                        throw error("invalid escape '\\\(Character(Unicode.Scalar(escaped)))'")
                    }
                default:
                    if byte < 0x20 { throw error("unescaped control character in a string") }
                    scratch.append(byte)
                    index += 1
                }
            }
            throw error("unterminated string")
        }

        mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case 0x30...0x39: digit = UInt32(byte - 0x30)
                case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
                case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
                default: throw error("expected four hex digits after \\u")
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }

        /// Bytes known to be ASCII as a String, without String(decoding:as:)'s generic path.
        static func asciiString(_ slice: UnsafeBufferPointer<UInt8>) -> String {
            String(unsafeUninitializedCapacity: slice.count) { buffer in
                _ = buffer.initialize(fromContentsOf: slice)
                return slice.count
            }
        }

        /// The string, or nil for invalid UTF-8. ASCII, nearly every string in practice, skips
        /// String(validating:as:), which is generic and looked up type metadata at run time on
        /// every call (a few percent of `hybrid-bench sync`).
        static func utf8String(_ slice: UnsafeBufferPointer<UInt8>) -> String? {
            for byte in slice where byte >= 0x80 { return String(validating: slice, as: UTF8.self) }
            return asciiString(slice)
        }

        func validatedUTF8(_ slice: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONSyntaxError) -> String {
            guard let string = Self.utf8String(slice) else {
                var copy = self
                copy.index = offset
                throw copy.error("invalid UTF-8 in a string")
            }
            return string
        }
    }
}

/// Why a text is not JSON, and where.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    /// Byte offset into the text.
    public let offset: Int
    public let line: Int
    public let column: Int

    public var description: String { "line \(line), column \(column): \(message)" }
}
