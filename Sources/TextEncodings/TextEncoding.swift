// TextEncodings: the WHATWG Encoding Standard (https://encoding.spec.whatwg.org/) in Swift, for
// the host's TextDecoder and TextEncoder and whatever else reads or writes legacy text (form
// submission, fetch's body.text() for a declared charset). It knows nothing of JavaScript: bytes
// and UTF-16 code units in, bytes and UTF-16 code units out, errors as values.
//
// UTF-8, UTF-16, the single-byte encodings, x-user-defined and replacement are written here from
// the standard's algorithms. The multi-byte encodings (gb18030 and GBK, Big5, EUC-JP,
// ISO-2022-JP, Shift_JIS, EUC-KR) run the standard's decoder and encoder algorithms here too, over
// indexes built at first use from ICU's converters and corrected where ICU's tables differ from
// the standard's (`ICUIndexCorrections`): ICU's converters themselves handle errors, single
// bytes and C1 controls their own way (Big5's 0x80 is U+0080 to ICU and an error to the standard,
// ibm-943 swaps 0x1A, 0x1C and 0x7F), so no byte is decoded by ICU directly.

/// An encoding of the WHATWG Encoding Standard, by its name there.
public enum TextEncoding: String, CaseIterable, Sendable {
    case utf8 = "UTF-8"
    case ibm866 = "IBM866"
    case iso8859_2 = "ISO-8859-2"
    case iso8859_3 = "ISO-8859-3"
    case iso8859_4 = "ISO-8859-4"
    case iso8859_5 = "ISO-8859-5"
    case iso8859_6 = "ISO-8859-6"
    case iso8859_7 = "ISO-8859-7"
    case iso8859_8 = "ISO-8859-8"
    case iso8859_8I = "ISO-8859-8-I"
    case iso8859_10 = "ISO-8859-10"
    case iso8859_13 = "ISO-8859-13"
    case iso8859_14 = "ISO-8859-14"
    case iso8859_15 = "ISO-8859-15"
    case iso8859_16 = "ISO-8859-16"
    case koi8R = "KOI8-R"
    case koi8U = "KOI8-U"
    case macintosh = "macintosh"
    case windows874 = "windows-874"
    case windows1250 = "windows-1250"
    case windows1251 = "windows-1251"
    case windows1252 = "windows-1252"
    case windows1253 = "windows-1253"
    case windows1254 = "windows-1254"
    case windows1255 = "windows-1255"
    case windows1256 = "windows-1256"
    case windows1257 = "windows-1257"
    case windows1258 = "windows-1258"
    case xMacCyrillic = "x-mac-cyrillic"
    case gbk = "GBK"
    case gb18030 = "gb18030"
    case big5 = "Big5"
    case eucJP = "EUC-JP"
    case iso2022JP = "ISO-2022-JP"
    case shiftJIS = "Shift_JIS"
    case eucKR = "EUC-KR"
    case replacement = "replacement"
    case utf16BE = "UTF-16BE"
    case utf16LE = "UTF-16LE"
    case xUserDefined = "x-user-defined"

    /// The encoding's name as the standard writes it (`Shift_JIS`, `UTF-8`).
    public var name: String { rawValue }

    /// "Get an encoding": `label` with leading and trailing ASCII whitespace removed, matched
    /// ASCII case-insensitively against every label; nil when it is none.
    public init?(label: String) {
        // Bytes, not Characters: a space followed by a combining mark is one Character.
        var bytes = Array(label.utf8)[...]
        while let first = bytes.first, Self.isASCIIWhitespace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, Self.isASCIIWhitespace(last) { bytes = bytes.dropLast() }
        // Every label is ASCII, so lowercasing ASCII only is enough: a non-ASCII character (the
        // Kelvin sign, which Unicode lowercases to "k") must not match.
        let key = String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        guard let encoding = Self.byLabel[key] else { return nil }
        self = encoding
    }

    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || byte == 0x20
    }

    /// "Get an output encoding": the encoding that encoding text for this one uses. replacement
    /// and UTF-16BE/LE have no encoder, so they write UTF-8.
    public var outputEncoding: TextEncoding {
        switch self {
        case .replacement, .utf16BE, .utf16LE: return .utf8
        default: return self
        }
    }

    /// Whether the encoding has an encoder (all but replacement and UTF-16BE/LE).
    public var hasEncoder: Bool { outputEncoding == self }

    /// Index single-byte, for the legacy single-byte encodings; nil for the others.
    var singleByteIndex: [UInt16]? {
        switch self {
        case .ibm866: return SingleByteIndexes.ibm866
        case .iso8859_2: return SingleByteIndexes.iso8859_2
        case .iso8859_3: return SingleByteIndexes.iso8859_3
        case .iso8859_4: return SingleByteIndexes.iso8859_4
        case .iso8859_5: return SingleByteIndexes.iso8859_5
        case .iso8859_6: return SingleByteIndexes.iso8859_6
        case .iso8859_7: return SingleByteIndexes.iso8859_7
        case .iso8859_8, .iso8859_8I: return SingleByteIndexes.iso8859_8
        case .iso8859_10: return SingleByteIndexes.iso8859_10
        case .iso8859_13: return SingleByteIndexes.iso8859_13
        case .iso8859_14: return SingleByteIndexes.iso8859_14
        case .iso8859_15: return SingleByteIndexes.iso8859_15
        case .iso8859_16: return SingleByteIndexes.iso8859_16
        case .koi8R: return SingleByteIndexes.koi8R
        case .koi8U: return SingleByteIndexes.koi8U
        case .macintosh: return SingleByteIndexes.macintosh
        case .windows874: return SingleByteIndexes.windows874
        case .windows1250: return SingleByteIndexes.windows1250
        case .windows1251: return SingleByteIndexes.windows1251
        case .windows1252: return SingleByteIndexes.windows1252
        case .windows1253: return SingleByteIndexes.windows1253
        case .windows1254: return SingleByteIndexes.windows1254
        case .windows1255: return SingleByteIndexes.windows1255
        case .windows1256: return SingleByteIndexes.windows1256
        case .windows1257: return SingleByteIndexes.windows1257
        case .windows1258: return SingleByteIndexes.windows1258
        case .xMacCyrillic: return SingleByteIndexes.xMacCyrillic
        default: return nil
        }
    }
}
