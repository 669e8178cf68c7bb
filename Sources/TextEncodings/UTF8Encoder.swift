/// UTF-8's encoder over JavaScript's strings: UTF-16 code units, where a lone surrogate is the
/// U+FFFD (EF BF BD) that converting to a USVString makes of it. What TextEncoder's `encode` and
/// `encodeInto` run.
public enum UTF8Encoder {
    /// Writes `units` as UTF-8 into `output`, which has room for three bytes per unit; returns
    /// the bytes written.
    @discardableResult
    public static func encode(_ units: UnsafeBufferPointer<UInt16>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        let n = units.count
        guard n > 0, let input = units.baseAddress else { return 0 }
        var i = 0
        var out = output
        while i < n {
            let unit = input[i]
            if unit < 0x80 {
                // An ASCII run: eight units at a time (two words whose units all lack bits above
                // the seventh), then one by one. Other runs never pay for the words' test.
                while i &+ 8 <= n {
                    let low = UnsafeRawPointer(input + i).loadUnaligned(as: UInt64.self)
                    let high = UnsafeRawPointer(input + i + 4).loadUnaligned(as: UInt64.self)
                    if (low | high) & 0xFF80_FF80_FF80_FF80 != 0 { break }
                    // Bytes 0, 2, 4 and 6 of each word, side by side.
                    let packedLow = (low & 0xFF) | ((low >> 8) & 0xFF00) | ((low >> 16) & 0xFF_0000) | ((low >> 24) & 0xFF00_0000)
                    let packedHigh = (high & 0xFF) | ((high >> 8) & 0xFF00) | ((high >> 16) & 0xFF_0000) | ((high >> 24) & 0xFF00_0000)
                    UnsafeMutableRawPointer(out).storeBytes(of: packedLow | (packedHigh << 32), as: UInt64.self)
                    out += 8
                    i &+= 8
                }
                while i < n && input[i] < 0x80 {
                    out.pointee = UInt8(truncatingIfNeeded: input[i])
                    out += 1
                    i &+= 1
                }
                continue
            }
            i &+= 1
            if unit < 0x800 {
                out[0] = UInt8(truncatingIfNeeded: 0xC0 | (unit >> 6))
                out[1] = UInt8(truncatingIfNeeded: 0x80 | (unit & 0x3F))
                out += 2
            } else if unit < 0xD800 || unit > 0xDFFF {
                out[0] = UInt8(truncatingIfNeeded: 0xE0 | (unit >> 12))
                out[1] = UInt8(truncatingIfNeeded: 0x80 | ((unit >> 6) & 0x3F))
                out[2] = UInt8(truncatingIfNeeded: 0x80 | (unit & 0x3F))
                out += 3
            } else if unit <= 0xDBFF && i < n && input[i] >= 0xDC00 && input[i] <= 0xDFFF {
                let scalar = 0x10000 &+ ((UInt32(unit) &- 0xD800) << 10) &+ (UInt32(input[i]) &- 0xDC00)
                i &+= 1
                out[0] = UInt8(truncatingIfNeeded: 0xF0 | (scalar >> 18))
                out[1] = UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 12) & 0x3F))
                out[2] = UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F))
                out[3] = UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F))
                out += 4
            } else {
                // A lone surrogate: U+FFFD.
                out[0] = 0xEF
                out[1] = 0xBF
                out[2] = 0xBD
                out += 3
            }
        }
        return out - output
    }

    /// TextEncoder's `encodeInto`: writes as much of `units` as fits whole into `destination`;
    /// returns the UTF-16 units read and the bytes written. A scalar value that does not fit stops
    /// it, even when a later, shorter one would.
    public static func encode(_ units: UnsafeBufferPointer<UInt16>,
                              into destination: UnsafeMutableRawBufferPointer) -> (read: Int, written: Int) {
        let n = units.count
        let room = destination.count
        guard n > 0, room > 0, let input = units.baseAddress, let base = destination.baseAddress else { return (0, 0) }
        let output = base.assumingMemoryBound(to: UInt8.self)
        var i = 0
        var written = 0
        while i < n {
            let unit = input[i]
            if unit < 0x80 {
                guard written < room else { break }
                output[written] = UInt8(unit)
                written += 1
                i += 1
            } else if unit < 0x800 {
                guard written + 2 <= room else { break }
                output[written] = UInt8(0xC0 | (unit >> 6))
                output[written + 1] = UInt8(0x80 | (unit & 0x3F))
                written += 2
                i += 1
            } else if unit >= 0xD800 && unit <= 0xDBFF && i + 1 < n && input[i + 1] >= 0xDC00 && input[i + 1] <= 0xDFFF {
                guard written + 4 <= room else { break }
                let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(input[i + 1]) - 0xDC00)
                output[written] = UInt8(0xF0 | (scalar >> 18))
                output[written + 1] = UInt8(0x80 | ((scalar >> 12) & 0x3F))
                output[written + 2] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
                output[written + 3] = UInt8(0x80 | (scalar & 0x3F))
                written += 4
                i += 2
            } else {
                guard written + 3 <= room else { break }
                // A lone surrogate is U+FFFD.
                let value = unit >= 0xD800 && unit <= 0xDFFF ? 0xFFFD : unit
                output[written] = UInt8(0xE0 | (value >> 12))
                output[written + 1] = UInt8(0x80 | ((value >> 6) & 0x3F))
                output[written + 2] = UInt8(0x80 | (value & 0x3F))
                written += 3
                i += 1
            }
        }
        return (i, written)
    }
}
