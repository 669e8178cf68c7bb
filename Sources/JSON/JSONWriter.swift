/// Writes ``JSONValue``s as JSON text.
///
/// Binary values have no JSON form; they are written as base64 strings, the usual convention for
/// text protocols.
public enum JSONWriter {
    public struct Options: Sendable {
        /// Two-space indentation and one member per line.
        public var pretty = false
        /// Object keys in code-unit order: the canonical form that signatures are computed over.
        public var sortedKeys = false

        public init(pretty: Bool = false, sortedKeys: Bool = false) {
            self.pretty = pretty
            self.sortedKeys = sortedKeys
        }
    }

    public static func write(_ value: JSONValue, options: Options = Options()) -> String {
        var out = ""
        write(value, into: &out, options: options, indent: 0)
        return out
    }

    static func write(_ value: JSONValue, into out: inout String, options: Options, indent: Int) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): writeNumber(n, into: &out)
        case .string(let s): writeString(s, into: &out)
        case .bytes(let bytes): writeString(Base64.encode(bytes), into: &out)
        case .array(let array):
            if array.isEmpty { out += "[]"; return }
            out += "["
            for (i, element) in array.enumerated() {
                if i > 0 { out += "," }
                if options.pretty { newline(into: &out, indent: indent + 1) }
                write(element, into: &out, options: options, indent: indent + 1)
            }
            if options.pretty { newline(into: &out, indent: indent) }
            out += "]"
        case .object(let object):
            if object.isEmpty { out += "{}"; return }
            out += "{"
            let members = options.sortedKeys ? object.members.sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) } : object.members
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                if options.pretty { newline(into: &out, indent: indent + 1) }
                writeString(member.key, into: &out)
                out += options.pretty ? ": " : ":"
                write(member.value, into: &out, options: options, indent: indent + 1)
            }
            if options.pretty { newline(into: &out, indent: indent) }
            out += "}"
        }
    }

    static func newline(into out: inout String, indent: Int) {
        out += "\n"
        for _ in 0..<indent { out += "  " }
    }

    /// Integers print without a fraction; other finite numbers in their shortest round-tripping
    /// form; NaN and the infinities as null, as JSON.stringify does.
    public static func writeNumber(_ n: Double, into out: inout String) {
        guard n.isFinite else { out += "null"; return }
        if n == n.rounded(.towardZero), abs(n) < 1e16 {
            out += String(Int64(n))
        } else {
            out += String(n)
        }
    }

    public static func writeString(_ s: String, into out: inout String) {
        out += "\""
        var needsEscape = false
        for byte in s.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            needsEscape = true
            break
        }
        if !needsEscape {
            out += s
        } else {
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{08}": out += "\\b"
                case "\u{0C}": out += "\\f"
                default:
                    if scalar.value < 0x20 {
                        let hex = String(scalar.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
        }
        out += "\""
    }
}

/// RFC 4648 base64, for the few places binary meets text.
public enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], UInt8(ascii: "="), UInt8(ascii: "=")]
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], UInt8(ascii: "=")]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes standard base64 (padding optional); nil when the text is not base64.
    public static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(byte - 65)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(byte - 97 + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(byte - 48 + 52)
            case UInt8(ascii: "+"): values.append(62)
            case UInt8(ascii: "/"): values.append(63)
            case UInt8(ascii: "="): continue
            default: return nil
            }
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var i = 0
        while i + 3 < values.count {
            let n = UInt32(values[i]) << 18 | UInt32(values[i + 1]) << 12 | UInt32(values[i + 2]) << 6 | UInt32(values[i + 3])
            out += [UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)]
            i += 4
        }
        let rest = values.count - i
        if rest == 2 {
            let n = UInt32(values[i]) << 18 | UInt32(values[i + 1]) << 12
            out.append(UInt8(n >> 16 & 255))
        } else if rest == 3 {
            let n = UInt32(values[i]) << 18 | UInt32(values[i + 1]) << 12 | UInt32(values[i + 2]) << 6
            out += [UInt8(n >> 16 & 255), UInt8(n >> 8 & 255)]
        }
        return out
    }
}
