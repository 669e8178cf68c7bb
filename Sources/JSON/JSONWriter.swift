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
        let bytes = bytes(value, options: options)
        // Not String(decoding:as:): generic over the encoding, it looked up type metadata at
        // run time on every call (4% of `hybrid-bench sync`).
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            _ = buffer.initialize(fromContentsOf: bytes)
            return bytes.count
        }
    }

    /// The JSON text as UTF-8 bytes. Written into a byte buffer rather than a String: appending
    /// to a String checks and updates its UTF-8 bookkeeping at every append, several times the
    /// cost of a byte copy (it dominated `hybrid-bench sync`).
    public static func bytes(_ value: JSONValue, options: Options = Options()) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(value, into: &out, options: options, indent: 0)
        return out
    }

    static func write(_ value: JSONValue, into out: inout [UInt8], options: Options, indent: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): writeNumber(n, into: &out)
        case .string(let s): writeString(s, into: &out)
        case .bytes(let bytes): writeString(Base64.encode(bytes), into: &out)
        case .array(let array):
            if array.isEmpty { out.append(contentsOf: "[]".utf8); return }
            out.append(UInt8(ascii: "["))
            for (i, element) in array.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if options.pretty { newline(into: &out, indent: indent + 1) }
                write(element, into: &out, options: options, indent: indent + 1)
            }
            if options.pretty { newline(into: &out, indent: indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty { out.append(contentsOf: "{}".utf8); return }
            out.append(UInt8(ascii: "{"))
            let members = options.sortedKeys ? object.members.sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) } : object.members
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if options.pretty { newline(into: &out, indent: indent + 1) }
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if options.pretty { out.append(UInt8(ascii: " ")) }
                write(member.value, into: &out, options: options, indent: indent + 1)
            }
            if options.pretty { newline(into: &out, indent: indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func newline(into out: inout [UInt8], indent: Int) {
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { out.append(contentsOf: "  ".utf8) }
    }

    /// Integers print without a fraction; other finite numbers in their shortest round-tripping
    /// form; NaN and the infinities as null, as JSON.stringify does.
    public static func writeNumber(_ n: Double, into out: inout String) {
        var bytes: [UInt8] = []
        writeNumber(n, into: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    public static func writeNumber(_ n: Double, into out: inout [UInt8]) {
        guard n.isFinite else { out.append(contentsOf: "null".utf8); return }
        if n == n.rounded(.towardZero), abs(n) < 1e16 {
            let value = Int64(n)
            if value == 0 { out.append(UInt8(ascii: "0")); return }
            if value < 0 { out.append(UInt8(ascii: "-")) }
            // Digits without a String: most numbers here are ids, counts and timestamps.
            var magnitude = value.magnitude
            let start = out.count
            while magnitude > 0 {
                out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            }
            out[start...].reverse()
        } else {
            out.append(contentsOf: String(n).utf8)
        }
    }

    public static func writeString(_ s: String, into out: inout String) {
        var bytes: [UInt8] = []
        writeString(s, into: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    public static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var needsEscape = false
        for byte in s.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            needsEscape = true
            break
        }
        if !needsEscape {
            out.append(contentsOf: s.utf8)
        } else {
            for byte in s.utf8 {
                switch byte {
                case 0x22: out.append(contentsOf: "\\\"".utf8)
                case 0x5C: out.append(contentsOf: "\\\\".utf8)
                case 0x0A: out.append(contentsOf: "\\n".utf8)
                case 0x0D: out.append(contentsOf: "\\r".utf8)
                case 0x09: out.append(contentsOf: "\\t".utf8)
                case 0x08: out.append(contentsOf: "\\b".utf8)
                case 0x0C: out.append(contentsOf: "\\f".utf8)
                case ..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0xF)])
                default:
                    out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// RFC 4648 base64, for the few places binary meets text.
public enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        // Written in place: an array literal per group allocated once per 3 bytes.
        String(unsafeUninitializedCapacity: (bytes.count + 2) / 3 * 4) { out in
            alphabet.withUnsafeBufferPointer { alphabet in
                var written = 0
                func put(_ n: UInt32, _ count: Int) {
                    for position in 0..<4 {
                        out[written + position] = position < count ? alphabet[Int(n >> UInt32(18 - 6 * position) & 63)] : UInt8(ascii: "=")
                    }
                    written += 4
                }
                var i = 0
                while i + 2 < bytes.count {
                    put(UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]), 4)
                    i += 3
                }
                // 1 byte left gives 2 characters and "==", 2 give 3 and "=".
                switch bytes.count - i {
                case 1: put(UInt32(bytes[i]) << 16, 2)
                case 2: put(UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8, 3)
                default: break
                }
                return written
            }
        }
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
            out.append(UInt8(n >> 16 & 255))
            out.append(UInt8(n >> 8 & 255))
            out.append(UInt8(n & 255))
            i += 4
        }
        let rest = values.count - i
        if rest == 2 {
            let n = UInt32(values[i]) << 18 | UInt32(values[i + 1]) << 12
            out.append(UInt8(n >> 16 & 255))
        } else if rest == 3 {
            let n = UInt32(values[i]) << 18 | UInt32(values[i + 1]) << 12 | UInt32(values[i + 2]) << 6
            out.append(UInt8(n >> 16 & 255))
            out.append(UInt8(n >> 8 & 255))
        }
        return out
    }
}
