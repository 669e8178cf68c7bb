/// How Web Storage's strings are written into a kv row and read back, exactly: a `DOMString` is
/// UTF-16 and may hold lone surrogates, which a Swift `String` (and UTF-8) cannot.
///
/// - A key is the key's text column as UTF-8; a lone surrogate is written as its three-byte
///   generalized form (WTF-8), which SQLite stores and compares as bytes like any other.
/// - A value is what kv stores for a string, its JSON text (`"..."`), so the row reads as a kv
///   item; a lone surrogate is escaped (`\ud800`), which keeps the text valid UTF-8 and JSON.
enum WebStorageText {
    /// `units` as UTF-8, lone surrogates in WTF-8.
    static func wtf8(_ units: UnsafeBufferPointer<UInt16>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(units.count)
        var i = 0
        while i < units.count {
            let unit = units[i]
            if unit & 0xFC00 == 0xD800, i + 1 < units.count, units[i + 1] & 0xFC00 == 0xDC00 {
                appendPair(unit, units[i + 1], to: &out)
                i += 1
            } else {
                appendUnit(unit, to: &out)
            }
            i += 1
        }
        return out
    }

    /// A unit that is not half of a pair: a scalar of the BMP, or a lone surrogate written as if
    /// it were one.
    private static func appendUnit(_ unit: UInt16, to out: inout [UInt8]) {
        if unit < 0x80 {
            out.append(UInt8(unit))
        } else if unit < 0x800 {
            out.append(0xC0 | UInt8(unit >> 6))
            out.append(0x80 | UInt8(unit & 0x3F))
        } else {
            out.append(0xE0 | UInt8(unit >> 12))
            out.append(0x80 | UInt8((unit >> 6) & 0x3F))
            out.append(0x80 | UInt8(unit & 0x3F))
        }
    }

    private static func appendPair(_ high: UInt16, _ low: UInt16, to out: inout [UInt8]) {
        let scalar = 0x10000 + (UInt32(high & 0x3FF) << 10) + UInt32(low & 0x3FF)
        out.append(0xF0 | UInt8(scalar >> 18))
        out.append(0x80 | UInt8((scalar >> 12) & 0x3F))
        out.append(0x80 | UInt8((scalar >> 6) & 0x3F))
        out.append(0x80 | UInt8(scalar & 0x3F))
    }

    /// The UTF-16 of `bytes` (UTF-8, or WTF-8); a byte that starts no sequence becomes U+FFFD.
    static func utf16(wtf8 bytes: UnsafeBufferPointer<UInt8>) -> [UInt16] {
        var out: [UInt16] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let (scalar, length) = decode(bytes, at: i)
            append(scalar, to: &out)
            i += length
        }
        return out
    }

    /// `units` as a JSON string's text, quotes included.
    static func json(_ units: UnsafeBufferPointer<UInt16>) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(units.count + 2)
        var i = 0
        while i < units.count {
            let unit = units[i]
            switch unit {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20: escape(unit, into: &out)
            case 0xD800..<0xDC00 where i + 1 < units.count && units[i + 1] & 0xFC00 == 0xDC00:
                appendPair(unit, units[i + 1], to: &out)
                i += 1
            case 0xD800..<0xE000: escape(unit, into: &out)
            default: appendUnit(unit, to: &out)
            }
            i += 1
        }
        out.append(UInt8(ascii: "\""))
        return out
    }

    /// The UTF-16 of a JSON string's text (`json(_:)`'s, or any JSON string's); nil when `bytes`
    /// is not one.
    static func utf16(json bytes: UnsafeBufferPointer<UInt8>) -> [UInt16]? {
        guard bytes.count >= 2, bytes[0] == 0x22, bytes[bytes.count - 1] == 0x22 else { return nil }
        var out: [UInt16] = []
        out.reserveCapacity(bytes.count - 2)
        var i = 1
        let end = bytes.count - 1
        while i < end {
            let byte = bytes[i]
            if byte == 0x22 { return nil }
            if byte != 0x5C {
                let (scalar, length) = decode(bytes, at: i)
                append(scalar, to: &out)
                i += length
                continue
            }
            guard i + 1 < end else { return nil }
            let escaped = bytes[i + 1]
            i += 2
            switch escaped {
            case 0x22, 0x5C, 0x2F: out.append(UInt16(escaped))
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard i + 4 <= end else { return nil }
                var unit: UInt16 = 0
                for digit in bytes[i..<(i + 4)] {
                    guard let value = hexValue(digit) else { return nil }
                    unit = unit << 4 | UInt16(value)
                }
                out.append(unit)
                i += 4
            default: return nil
            }
        }
        return out
    }

    private static func escape(_ unit: UInt16, into out: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        out.append(contentsOf: [0x5C, UInt8(ascii: "u"),
                                digits[Int(unit >> 12)], digits[Int((unit >> 8) & 0xF)],
                                digits[Int((unit >> 4) & 0xF)], digits[Int(unit & 0xF)]])
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The scalar (or, from WTF-8, surrogate) at `i` and how many bytes it took; U+FFFD and one
    /// byte for a byte that starts no well-formed sequence.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let lead = bytes[i]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length = lead >= 0xF0 && lead < 0xF5 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 0
        guard length > 0, i + length <= bytes.count else { return (0xFFFD, 1) }
        var scalar = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for j in 1..<length {
            let byte = bytes[i + j]
            guard byte & 0xC0 == 0x80 else { return (0xFFFD, 1) }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        let least: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard scalar >= least, scalar <= 0x10FFFF else { return (0xFFFD, 1) }
        return (scalar, length)
    }

    private static func append(_ scalar: UInt32, to out: inout [UInt16]) {
        if scalar < 0x10000 {
            out.append(UInt16(scalar))
        } else {
            let value = scalar - 0x10000
            out.append(0xD800 | UInt16(value >> 10))
            out.append(0xDC00 | UInt16(value & 0x3FF))
        }
    }
}
