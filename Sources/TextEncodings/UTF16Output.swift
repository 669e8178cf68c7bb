/// Where a decoder writes: UTF-16 code units into memory the caller sized with
/// ``TextDecoderState/maximumOutputCount(forInputCount:)`` (at most one unit per byte read, plus
/// the bytes held from earlier calls), so that no write checks for room.
struct UTF16Output {
    let base: UnsafeMutablePointer<UInt16>
    var count: Int = 0

    @inline(__always)
    mutating func append(_ unit: UInt16) {
        base[count] = unit
        count += 1
    }

    /// A scalar value, as one unit or a surrogate pair.
    @inline(__always)
    mutating func append(scalar: UInt32) {
        if scalar < 0x10000 {
            base[count] = UInt16(truncatingIfNeeded: scalar)
            count += 1
        } else {
            let value = scalar - 0x10000
            base[count] = UInt16(truncatingIfNeeded: 0xD800 | (value >> 10))
            base[count + 1] = UInt16(truncatingIfNeeded: 0xDC00 | (value & 0x3FF))
            count += 2
        }
    }

    static let replacement: UInt16 = 0xFFFD

    /// Writes the eight ASCII bytes of `word` (little-endian, as loaded) as eight code units.
    @inline(__always)
    static func widenASCII(_ word: UInt64, into out: UnsafeMutablePointer<UInt16>) {
        let low = word & 0xFFFF_FFFF
        let high = word >> 32
        let spreadLow = (low & 0xFF) | ((low & 0xFF00) << 8) | ((low & 0xFF_0000) << 16) | ((low & 0xFF00_0000) << 24)
        let spreadHigh = (high & 0xFF) | ((high & 0xFF00) << 8) | ((high & 0xFF_0000) << 16) | ((high & 0xFF00_0000) << 24)
        UnsafeMutableRawPointer(out).storeBytes(of: spreadLow, as: UInt64.self)
        UnsafeMutableRawPointer(out + 4).storeBytes(of: spreadHigh, as: UInt64.self)
    }
}
