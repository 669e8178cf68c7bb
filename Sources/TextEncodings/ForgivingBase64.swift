/// Base64 as HTML's `atob` and `btoa` use it: the Infra standard's forgiving-base64 decode (ASCII
/// whitespace anywhere, padding optional, nonzero trailing bits allowed) and plain base64 of a
/// string whose code units are bytes. Over UTF-16 code units, as JavaScript strings hold them.
public enum ForgivingBase64 {
    /// The bytes ``decode(_:into:)`` may write for `count` code units.
    public static func decodedCapacity(forCount count: Int) -> Int { count / 4 * 3 + 3 }

    /// The code units ``encode(latin1:into:)`` writes for `count` bytes.
    public static func encodedCount(forByteCount count: Int) -> Int { (count + 2) / 3 * 4 }

    /// forgiving-base64 decode: the bytes `units` stand for, written to `output`; nil when they are
    /// not base64 ("failure", which `atob` throws as an InvalidCharacterError).
    public static func decode(_ units: UnsafeBufferPointer<UInt16>, into output: UnsafeMutablePointer<UInt8>) -> Int? {
        var buffer: UInt32 = 0
        var sextets = 0
        var padding = 0
        var written = 0
        for unit in units {
            if unit == 0x20 || unit == 0x09 || unit == 0x0A || unit == 0x0C || unit == 0x0D { continue }
            if unit == 0x3D {
                padding += 1
                continue
            }
            // A character after padding: '=' was not at the end.
            guard padding == 0, unit < 0x80 else { return nil }
            let value = sextetValues[Int(unit)]
            guard value != 0xFF else { return nil }
            buffer = (buffer << 6) | UInt32(value)
            sextets += 1
            if sextets % 4 == 0 {
                output[written] = UInt8(truncatingIfNeeded: buffer >> 16)
                output[written + 1] = UInt8(truncatingIfNeeded: buffer >> 8)
                output[written + 2] = UInt8(truncatingIfNeeded: buffer)
                written += 3
                buffer = 0
            }
        }
        // One or two '=' may end it, and only when they make the length a multiple of four.
        if padding > 0 && (padding > 2 || (sextets + padding) % 4 != 0) { return nil }
        switch sextets % 4 {
        case 1:
            return nil
        case 2:
            output[written] = UInt8(truncatingIfNeeded: buffer >> 4)
            written += 1
        case 3:
            output[written] = UInt8(truncatingIfNeeded: buffer >> 10)
            output[written + 1] = UInt8(truncatingIfNeeded: buffer >> 2)
            written += 2
        default:
            break
        }
        return written
    }

    /// base64 of `units` taken as bytes (what `btoa` does), written as code units to `output`
    /// (``encodedCount(forByteCount:)`` of them); nil when a unit is above 0xFF.
    public static func encode(latin1 units: UnsafeBufferPointer<UInt16>, into output: UnsafeMutablePointer<UInt16>) -> Int? {
        let n = units.count
        var i = 0
        var out = output
        while i + 3 <= n {
            let a = units[i], b = units[i + 1], c = units[i + 2]
            guard a | b | c <= 0xFF else { return nil }
            let group = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
            out[0] = alphabet[Int(group >> 18)]
            out[1] = alphabet[Int((group >> 12) & 0x3F)]
            out[2] = alphabet[Int((group >> 6) & 0x3F)]
            out[3] = alphabet[Int(group & 0x3F)]
            out += 4
            i += 3
        }
        if i < n {
            let a = units[i], b = i + 1 < n ? units[i + 1] : 0
            guard a | b <= 0xFF else { return nil }
            let group = UInt32(a) << 16 | UInt32(b) << 8
            out[0] = alphabet[Int(group >> 18)]
            out[1] = alphabet[Int((group >> 12) & 0x3F)]
            out[2] = i + 1 < n ? alphabet[Int((group >> 6) & 0x3F)] : 0x3D
            out[3] = 0x3D
            out += 4
        }
        return out - output
    }

    private static let alphabet: [UInt16] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf16)

    /// The value of each ASCII character in base64, 0xFF for the rest.
    private static let sextetValues: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 128)
        for (value, unit) in alphabet.enumerated() { values[Int(unit)] = UInt8(value) }
        return values
    }()
}
