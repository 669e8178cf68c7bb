import CJavaScriptCore

/// UTF-16 (JavaScriptCore's strings) to Swift's UTF-8 strings in one specialised pass.
/// `String(decoding:as: UTF16.self)` takes a generic slow path here that costs about 20 ns a
/// character, which made a 1 KB bridge payload cost 20 µs.
enum UTF16Transcoder {
    /// The string, or nil when `units` hold a lone surrogate and `repair` is false; with `repair`,
    /// lone surrogates become U+FFFD.
    static func string(_ units: UnsafeBufferPointer<UInt16>, repair: Bool) -> String? {
        let count = units.count
        var ascii = true
        for unit in units where unit >= 0x80 {
            ascii = false
            break
        }
        if ascii {
            return String(unsafeUninitializedCapacity: count) { buffer in
                for i in 0..<count { buffer[i] = UInt8(truncatingIfNeeded: units[i]) }
                return count
            }
        }
        var failed = false
        // At most 3 UTF-8 bytes per UTF-16 unit (a surrogate pair: 4 bytes for 2 units).
        let result = String(unsafeUninitializedCapacity: count * 3) { buffer in
            var out = 0
            var i = 0
            while i < count {
                var scalar = UInt32(units[i])
                i += 1
                if scalar >= 0xD800 && scalar <= 0xDFFF {
                    if scalar <= 0xDBFF, i < count, units[i] >= 0xDC00, units[i] <= 0xDFFF {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (UInt32(units[i]) - 0xDC00)
                        i += 1
                    } else if repair {
                        scalar = 0xFFFD
                    } else {
                        failed = true
                        return 0
                    }
                }
                if scalar < 0x80 {
                    buffer[out] = UInt8(scalar)
                    out += 1
                } else if scalar < 0x800 {
                    buffer[out] = UInt8(0xC0 | (scalar >> 6))
                    buffer[out + 1] = UInt8(0x80 | (scalar & 0x3F))
                    out += 2
                } else if scalar < 0x10000 {
                    buffer[out] = UInt8(0xE0 | (scalar >> 12))
                    buffer[out + 1] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
                    buffer[out + 2] = UInt8(0x80 | (scalar & 0x3F))
                    out += 3
                } else {
                    buffer[out] = UInt8(0xF0 | (scalar >> 18))
                    buffer[out + 1] = UInt8(0x80 | ((scalar >> 12) & 0x3F))
                    buffer[out + 2] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
                    buffer[out + 3] = UInt8(0x80 | (scalar & 0x3F))
                    out += 4
                }
            }
            return out
        }
        return failed ? nil : result
    }

    /// UTF-16 code units of `string`, written into a fresh buffer handed to `body`.
    static func withUnits<T>(of string: String, _ body: (UnsafeBufferPointer<UInt16>) -> T) -> T {
        var string = string
        return string.withUTF8 { utf8 in withUnits(ofUTF8: utf8, body) }
    }

    /// UTF-16 code units of UTF-8 text (ill-formed sequences become U+FFFD). Inlined: it runs for
    /// every string that goes to JS.
    @inline(__always)
    static func withUnits<T>(ofUTF8 utf8: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt16>) -> T) -> T {
        var ascii = true
        for byte in utf8 where byte >= 0x80 {
            ascii = false
            break
        }
        if ascii {
            return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: max(1, utf8.count)) { units in
                for i in 0..<utf8.count { units[i] = UInt16(utf8[i]) }
                return body(UnsafeBufferPointer(rebasing: units[0..<utf8.count]))
            }
        }
        let units = Array(String(decoding: utf8, as: UTF8.self).utf16)
        return units.withUnsafeBufferPointer(body)
    }

    /// A JSString of UTF-8 text; the caller releases it.
    static func makeJSString(utf8: [UInt8]) -> JSStringRef? {
        utf8.withUnsafeBufferPointer { text in
            withUnits(ofUTF8: text) { units in JSStringCreateWithCharacters(units.baseAddress, units.count) }
        }
    }
}
