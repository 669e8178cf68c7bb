/// An encoder for one stream of text into bytes: the encoder of any encoding that has one, with
/// the standard's error modes. "fatal" stops at the first code point the encoding lacks; "html"
/// writes it as a decimal character reference (`&#20320;`), as HTML forms do.
///
/// ```swift
/// let bytes = try TextEncoderState.encode("ｶﾀｶﾅ", as: .iso2022JP, errorMode: .fatal)
/// ```
public struct TextEncoderState: Sendable {
    public enum ErrorMode: Sendable { case fatal, html }

    public let encoding: TextEncoding
    public let errorMode: ErrorMode
    /// ISO-2022-JP's encoder state.
    private var iso2022JPState = ISO2022JPEncoderState.ascii

    enum ISO2022JPEncoderState { case ascii, roman, jis0208 }

    /// Nil for the encodings that have no encoder (replacement, UTF-16BE/LE): use
    /// ``TextEncoding/outputEncoding``.
    public init?(encoding: TextEncoding, errorMode: ErrorMode = .fatal) {
        guard encoding.hasEncoder else { return nil }
        self.encoding = encoding
        self.errorMode = errorMode
    }

    /// Encodes `string` whole (its end included: ISO-2022-JP returns to ASCII).
    public static func encode(_ string: String, as encoding: TextEncoding, errorMode: ErrorMode = .fatal) throws(TextEncodingError) -> [UInt8] {
        guard var encoder = TextEncoderState(encoding: encoding.outputEncoding, errorMode: errorMode) else { return [] }
        var bytes: [UInt8] = []
        try encoder.encode(string.unicodeScalars.map(\.value), into: &bytes)
        encoder.finish(into: &bytes)
        return bytes
    }

    /// Encodes UTF-16 code units (a lone surrogate is U+FFFD) and appends the bytes to `bytes`.
    public mutating func encode(utf16 units: UnsafeBufferPointer<UInt16>, into bytes: inout [UInt8]) throws(TextEncodingError) {
        var scalars: [UInt32] = []
        scalars.reserveCapacity(units.count)
        var i = 0
        while i < units.count {
            let unit = units[i]
            if unit >= 0xD800 && unit <= 0xDBFF && i + 1 < units.count && units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF {
                scalars.append(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(units[i + 1]) - 0xDC00))
                i += 2
                continue
            }
            scalars.append(unit >= 0xD800 && unit <= 0xDFFF ? 0xFFFD : UInt32(unit))
            i += 1
        }
        try encode(scalars, into: &bytes)
    }

    /// Encodes scalar values and appends the bytes to `bytes`. On an error in fatal mode, the
    /// bytes of the scalars before it have been appended.
    public mutating func encode(_ scalars: [UInt32], into bytes: inout [UInt8]) throws(TextEncodingError) {
        for scalar in scalars {
            // The ISO-2022-JP encoder "restores" the code point after writing an escape: the
            // handler runs again on it, in the new state.
            var step = handle(scalar, into: &bytes)
            while case .again = step { step = handle(scalar, into: &bytes) }
            guard case .error(let unmapped) = step else { continue }
            if errorMode == .fatal { throw TextEncodingError(encoding: encoding, codePoint: unmapped) }
            // "html": &#, the code point in decimal, ;.
            bytes.append(contentsOf: Array("&#\(unmapped);".utf8))
        }
    }

    /// The end of the stream: ISO-2022-JP's encoder returns to ASCII.
    public mutating func finish(into bytes: inout [UInt8]) {
        if encoding == .iso2022JP && iso2022JPState != .ascii {
            iso2022JPState = .ascii
            bytes.append(contentsOf: [0x1B, 0x28, 0x42])
        }
    }

    private enum Step { case done, again, error(UInt32) }

    private mutating func handle(_ codePoint: UInt32, into bytes: inout [UInt8]) -> Step {
        switch encoding {
        case .utf8:
            var scalar = codePoint
            if scalar >= 0xD800 && scalar <= 0xDFFF { scalar = 0xFFFD }
            if scalar < 0x80 {
                bytes.append(UInt8(scalar))
            } else if scalar < 0x800 {
                bytes.append(contentsOf: [UInt8(0xC0 | (scalar >> 6)), UInt8(0x80 | (scalar & 0x3F))])
            } else if scalar < 0x10000 {
                bytes.append(contentsOf: [UInt8(0xE0 | (scalar >> 12)), UInt8(0x80 | ((scalar >> 6) & 0x3F)), UInt8(0x80 | (scalar & 0x3F))])
            } else {
                bytes.append(contentsOf: [UInt8(0xF0 | (scalar >> 18)), UInt8(0x80 | ((scalar >> 12) & 0x3F)),
                                          UInt8(0x80 | ((scalar >> 6) & 0x3F)), UInt8(0x80 | (scalar & 0x3F))])
            }
            return .done
        case .gbk, .gb18030:
            return gb18030(codePoint, isGBK: encoding == .gbk, into: &bytes)
        case .big5:
            if codePoint < 0x80 { bytes.append(UInt8(codePoint)); return .done }
            guard let pointer = MultiByteIndexes.big5Pointers[codePoint].map(Int.init) else { return .error(codePoint) }
            let trailing = pointer % 157
            bytes.append(contentsOf: [UInt8(pointer / 157 + 0x81), UInt8(trailing + (trailing < 0x3F ? 0x40 : 0x62))])
            return .done
        case .eucJP:
            if codePoint < 0x80 { bytes.append(UInt8(codePoint)); return .done }
            if codePoint == 0xA5 { bytes.append(0x5C); return .done }
            if codePoint == 0x203E { bytes.append(0x7E); return .done }
            if codePoint >= 0xFF61 && codePoint <= 0xFF9F {
                bytes.append(contentsOf: [0x8E, UInt8(codePoint - 0xFF61 + 0xA1)])
                return .done
            }
            let mapped = codePoint == 0x2212 ? 0xFF0D : codePoint
            guard let pointer = MultiByteIndexes.jis0208Pointers[mapped].map(Int.init) else { return .error(codePoint) }
            bytes.append(contentsOf: [UInt8(pointer / 94 + 0xA1), UInt8(pointer % 94 + 0xA1)])
            return .done
        case .iso2022JP:
            return iso2022JP(codePoint, into: &bytes)
        case .shiftJIS:
            if codePoint <= 0x80 { bytes.append(UInt8(codePoint)); return .done }
            if codePoint == 0xA5 { bytes.append(0x5C); return .done }
            if codePoint == 0x203E { bytes.append(0x7E); return .done }
            if codePoint >= 0xFF61 && codePoint <= 0xFF9F { bytes.append(UInt8(codePoint - 0xFF61 + 0xA1)); return .done }
            let mapped = codePoint == 0x2212 ? 0xFF0D : codePoint
            guard let pointer = MultiByteIndexes.shiftJISPointers[mapped].map(Int.init) else { return .error(codePoint) }
            let leading = pointer / 188
            let trailing = pointer % 188
            bytes.append(contentsOf: [UInt8(leading + (leading < 0x1F ? 0x81 : 0xC1)), UInt8(trailing + (trailing < 0x3F ? 0x40 : 0x41))])
            return .done
        case .eucKR:
            if codePoint < 0x80 { bytes.append(UInt8(codePoint)); return .done }
            guard let pointer = MultiByteIndexes.eucKRPointers[codePoint].map(Int.init) else { return .error(codePoint) }
            bytes.append(contentsOf: [UInt8(pointer / 190 + 0x81), UInt8(pointer % 190 + 0x41)])
            return .done
        case .xUserDefined:
            if codePoint < 0x80 { bytes.append(UInt8(codePoint)); return .done }
            if codePoint >= 0xF780 && codePoint <= 0xF7FF { bytes.append(UInt8(codePoint - 0xF780 + 0x80)); return .done }
            return .error(codePoint)
        default:
            if codePoint < 0x80 { bytes.append(UInt8(codePoint)); return .done }
            guard let byte = SingleBytePointers.pointer(of: codePoint, in: encoding) else { return .error(codePoint) }
            bytes.append(byte + 0x80)
            return .done
        }
    }

    /// The gb18030 encoder (GBK's with `isGBK`).
    private func gb18030(_ codePoint: UInt32, isGBK: Bool, into bytes: inout [UInt8]) -> Step {
        if codePoint < 0x80 { bytes.append(UInt8(codePoint)); return .done }
        // Index gb18030 maps 0xA3 0xA0 to U+3000, so U+E5E5 cannot round-trip.
        if codePoint == 0xE5E5 { return .error(codePoint) }
        if isGBK && codePoint == 0x20AC { bytes.append(0x80); return .done }
        // GB18030-2005's Private Use code points that GB18030-2022 gave two-byte sequences to
        // other characters: they keep their bytes (the standard's asymmetric table).
        if let pair = Self.gb18030PrivateUse[codePoint] { bytes.append(contentsOf: [pair >> 8, pair & 0xFF].map { UInt8($0) }); return .done }
        if let pointer = MultiByteIndexes.gb18030Pointers[codePoint].map(Int.init) {
            let trailing = pointer % 190
            bytes.append(contentsOf: [UInt8(pointer / 190 + 0x81), UInt8(trailing + (trailing < 0x3F ? 0x40 : 0x41))])
            return .done
        }
        if isGBK { return .error(codePoint) }
        var pointer = GB18030Ranges.pointer(codePoint)
        let byte1 = pointer / (10 * 126 * 10)
        pointer %= 10 * 126 * 10
        let byte2 = pointer / (10 * 126)
        pointer %= 10 * 126
        bytes.append(contentsOf: [UInt8(byte1 + 0x81), UInt8(byte2 + 0x30), UInt8(pointer / 10 + 0x81), UInt8(pointer % 10 + 0x30)])
        return .done
    }

    private static let gb18030PrivateUse: [UInt32: UInt16] = [
        0xE78D: 0xA6D9, 0xE78E: 0xA6DA, 0xE78F: 0xA6DB, 0xE790: 0xA6DC, 0xE791: 0xA6DD, 0xE792: 0xA6DE,
        0xE793: 0xA6DF, 0xE794: 0xA6EC, 0xE795: 0xA6ED, 0xE796: 0xA6F3, 0xE81E: 0xFE59, 0xE826: 0xFE61,
        0xE82B: 0xFE66, 0xE82C: 0xFE67, 0xE832: 0xFE6D, 0xE843: 0xFE7E, 0xE854: 0xFE90, 0xE864: 0xFEA0,
    ]

    /// The ISO-2022-JP encoder, which switches between ASCII, Roman and jis0208 with escape
    /// sequences; `.again` when it wrote an escape and the code point must be handled in the new state.
    private mutating func iso2022JP(_ scalar: UInt32, into bytes: inout [UInt8]) -> Step {
        var codePoint = scalar
        if (iso2022JPState == .ascii || iso2022JPState == .roman) && (codePoint == 0x0E || codePoint == 0x0F || codePoint == 0x1B) {
            // U+FFFD rather than the code point, so that the error cannot smuggle an escape.
            return .error(0xFFFD)
        }
        if iso2022JPState == .ascii && codePoint < 0x80 { bytes.append(UInt8(codePoint)); return .done }
        if iso2022JPState == .roman && ((codePoint < 0x80 && codePoint != 0x5C && codePoint != 0x7E) || codePoint == 0xA5 || codePoint == 0x203E) {
            if codePoint < 0x80 { bytes.append(UInt8(codePoint)) } else if codePoint == 0xA5 { bytes.append(0x5C) } else { bytes.append(0x7E) }
            return .done
        }
        if codePoint < 0x80 {
            iso2022JPState = .ascii
            bytes.append(contentsOf: [0x1B, 0x28, 0x42])
            return .again
        }
        if codePoint == 0xA5 || codePoint == 0x203E {
            iso2022JPState = .roman
            bytes.append(contentsOf: [0x1B, 0x28, 0x4A])
            return .again
        }
        if codePoint == 0x2212 { codePoint = 0xFF0D }
        if codePoint >= 0xFF61 && codePoint <= 0xFF9F { codePoint = UInt32(FixedIndexes.iso2022JPKatakana[Int(codePoint - 0xFF61)]) }
        guard let pointer = MultiByteIndexes.jis0208Pointers[codePoint].map(Int.init) else {
            if iso2022JPState == .jis0208 {
                iso2022JPState = .ascii
                bytes.append(contentsOf: [0x1B, 0x28, 0x42])
                return .again
            }
            return .error(scalar)
        }
        if iso2022JPState != .jis0208 {
            iso2022JPState = .jis0208
            bytes.append(contentsOf: [0x1B, 0x24, 0x42])
            return .again
        }
        bytes.append(contentsOf: [UInt8(pointer / 94 + 0x21), UInt8(pointer % 94 + 0x21)])
        return .done
    }
}

/// The single-byte encoders' reverse lookups, built once per encoding when first needed.
enum SingleBytePointers {
    private static let tables: [TextEncoding: [UInt32: UInt8]] = {
        var tables: [TextEncoding: [UInt32: UInt8]] = [:]
        for encoding in TextEncoding.allCases {
            guard let index = encoding.singleByteIndex else { continue }
            var table: [UInt32: UInt8] = [:]
            for (pointer, codePoint) in index.enumerated() where codePoint != 0 && table[UInt32(codePoint)] == nil {
                table[UInt32(codePoint)] = UInt8(pointer)
            }
            tables[encoding] = table
        }
        return tables
    }()

    /// The index pointer (byte − 0x80) of `codePoint` in the encoding's index single-byte.
    static func pointer(of codePoint: UInt32, in encoding: TextEncoding) -> UInt8? {
        tables[encoding]?[codePoint]
    }
}
