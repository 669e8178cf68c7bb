import TextEncodings
import Testing

/// One decode of `bytes`, as a new TextDecoder would do it; nil when a fatal decoder throws.
func decoded(_ encoding: TextEncoding, _ bytes: [UInt8], fatal: Bool = false, ignoreBOM: Bool = false) -> String? {
    var decoder = TextDecoderState(encoding: encoding, fatal: fatal, ignoreBOM: ignoreBOM)
    let units: [UInt16]? = try? decoder.decode(bytes)
    return units.map { String(decoding: $0, as: UTF16.self) }
}

/// Bytes from hex ("8140 A1").
func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

@Suite("decoders")
struct TextDecoderStateTests {
    @Test("each encoding decodes known samples as the standard says", arguments: [
        // UTF-8: maximal subparts become one U+FFFD each.
        (TextEncoding.utf8, "E6 97 A5 F0 9F 98 80 41", "日😀A"),
        (.utf8, "C0 80 E0 80 ED A0 80 F4 90 80 80 41", String(repeating: "\u{FFFD}", count: 11) + "A"),
        (.utf8, "E6 97 41 F0 9F 98", "\u{FFFD}A\u{FFFD}"),
        (.utf16LE, "E5 65 3D D8 00 DE", "日😀"),
        (.utf16BE, "65 E5 D8 3D DE 00 00", "日😀\u{FFFD}"),
        (.utf16LE, "00 D8 41 00 00 DC", "\u{FFFD}A\u{FFFD}"),
        (.windows1252, "80 81 9F FF 41", "€\u{81}ŸÿA"),
        (.iso8859_6, "A1 C7", "\u{FFFD}ا"),
        (.koi8U, "A4 C1", "єа"),
        (.xUserDefined, "41 80 FF", "A\u{F780}\u{F7FF}"),
        (.replacement, "41 42", "\u{FFFD}"),
        (.replacement, "", ""),
        // gb18030 and GBK: two bytes, four bytes, 0x80 as €, ASCII after a lead byte kept.
        (.gb18030, "D6 D0 CE C4 80 A2 E3", "中文€€"),
        (.gbk, "81 30 84 36 90 30 81 30 A3 A0", "¥\u{10000}\u{3000}"),
        (.gb18030, "81 41 81 30 81 30", "丄\u{80}"),
        (.gb18030, "81 41 FF 81", "丄\u{FFFD}\u{FFFD}"),
        (.gb18030, "81 30 81 41", "\u{FFFD}0丄"),
        (.gb18030, "FE 39 FE 39 84 30 FE 30", "\u{FFFD}\u{FDF6}"),
        (.gb18030, "A6 D9 FE 59 81 35 F4 37", "\u{FE10}\u{9FB4}\u{E7C7}"),
        // Big5: Hong Kong extensions, the four pairs, errors.
        (.big5, "A4 A4 A4 E5 87 40 88 62 88 64", "中文\u{43F0}\u{CA}\u{304}\u{CA}\u{30C}"),
        (.big5, "80 81 40 A1 41 FE 40", "\u{FFFD}\u{FFFD}@，\u{9442}"),
        // EUC-JP: JIS X 0208, halfwidth katakana, JIS X 0212.
        (.eucJP, "C6 FC CB DC 8E B1 8F B0 A1", "日本ｱ丂"),
        (.eucJP, "8F F3 A1 8E 41 A1", "\u{FFFD}\u{FFFD}A\u{FFFD}"),
        // ISO-2022-JP: escapes into JIS X 0208, Roman, katakana and back.
        (.iso2022JP, "1B 24 42 46 7C 4B 5C 1B 28 42 41", "日本A"),
        (.iso2022JP, "1B 28 4A 5C 7E 1B 28 49 31 1B 28 42", "¥‾ｱ"),
        (.iso2022JP, "1B 28 42 1B 28 42 41", "\u{FFFD}A"),
        (.iso2022JP, "1B 24", "\u{FFFD}$"),
        (.iso2022JP, "0E 1B 41", "\u{FFFD}\u{FFFD}A"),
        (.iso2022JP, "1B 24 42 46", "\u{FFFD}"),
        // Shift_JIS: 0x80 and halfwidth katakana as single bytes, EUDC as Private Use.
        (.shiftJIS, "93 FA 96 7B 80 A1 F0 40 FA 40", "日本\u{80}｡\u{E000}ⅰ"),
        (.shiftJIS, "81 20 A0 FD", "\u{FFFD} \u{FFFD}\u{FFFD}"),
        // EUC-KR is the Unified Hangul Code.
        (.eucKR, "C7 D1 B1 B9 81 41", "한국갂"),
        (.eucKR, "80 C9 A1 81 41 81", "\u{FFFD}\u{FFFD}갂\u{FFFD}"),
    ])
    func samples(encoding: TextEncoding, hex: String, text: String) {
        #expect(decoded(encoding, bytes(hex)) == text)
    }

    /// Text in the encoding (characters it lacks as HTML references).
    static func sample(for encoding: TextEncoding) -> [UInt8] {
        var text = "Aé日本語中文한국어ｱ¥‾€😀\u{E000}"
        switch encoding {
        case .utf16LE, .utf16BE:
            text += "\u{10FFFF}"
            return text.utf16.flatMap { encoding == .utf16LE ? [UInt8($0 & 0xFF), UInt8($0 >> 8)] : [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case .replacement:
            return Array(text.utf8)
        default:
            return (try? TextEncoderState.encode(text, as: encoding, errorMode: .html)) ?? []
        }
    }

    /// Bytes that exercise every decoder's states and errors: text in the encoding, then a run of
    /// seeded noise biased towards lead bytes, escapes and surrogates.
    static func corpus(for encoding: TextEncoding) -> [UInt8] {
        var bytes = sample(for: encoding)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let interesting: [UInt8] = [0x1B, 0x24, 0x28, 0x42, 0x4A, 0x49, 0x30, 0x39, 0x81, 0x8E, 0x8F, 0xA1, 0xD8, 0xDC, 0xE0, 0xED, 0xF0, 0xFE, 0xFF, 0x80, 0x41, 0x00]
        for _ in 0..<300 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let value = UInt8(truncatingIfNeeded: state >> 33)
            bytes.append(value % 3 == 0 ? value : interesting[Int(value) % interesting.count])
        }
        return bytes
    }

    @Test("streaming, split at every byte, decodes as one call does", arguments: TextEncoding.allCases)
    func streamingSplits(encoding: TextEncoding) throws {
        let input = Self.corpus(for: encoding)
        let whole = decoded(encoding, input)
        for split in 0...input.count {
            var decoder = TextDecoderState(encoding: encoding)
            var units: [UInt16] = try decoder.decode(Array(input[..<split]), stream: true)
            units += try decoder.decode(Array(input[split...]))
            #expect(String(decoding: units, as: UTF16.self) == whole, "\(encoding.name) split at \(split)")
        }
        // And one byte at a time.
        var decoder = TextDecoderState(encoding: encoding)
        var units: [UInt16] = []
        for byte in input { units += try decoder.decode([byte], stream: true) }
        units += try decoder.decode([])
        #expect(String(decoding: units, as: UTF16.self) == whole, "\(encoding.name) byte by byte")
    }

    @Test("a fatal decoder throws at the first error, and only when there is one", arguments: TextEncoding.allCases)
    func fatal(encoding: TextEncoding) throws {
        let input = Self.corpus(for: encoding)
        let replaced = try #require(decoded(encoding, input))
        #expect(decoded(encoding, input, fatal: true) == (replaced.contains("\u{FFFD}") ? nil : replaced))
        // The text alone, before the noise, has no error (bar replacement's one).
        let text = Self.sample(for: encoding)
        if encoding != .replacement {
            #expect(decoded(encoding, text, fatal: true) == decoded(encoding, text))
        }
    }

    @Test("fatal errors", arguments: [
        (TextEncoding.utf8, "FF"), (.utf8, "C3"), (.utf8, "ED A0 80"), (.utf16LE, "00"), (.utf16LE, "00 D8"), (.utf16BE, "DC 00"),
        (.windows1253, "AA"), (.gb18030, "81"), (.gb18030, "FF"), (.big5, "80"), (.eucJP, "8F A1"), (.iso2022JP, "1B 24 42 21"),
        (.shiftJIS, "FD"), (.eucKR, "C9 A1"), (.replacement, "00"),
    ])
    func fatalErrors(encoding: TextEncoding, hex: String) {
        #expect(decoded(encoding, bytes(hex), fatal: true) == nil)
        var decoder = TextDecoderState(encoding: encoding, fatal: true)
        #expect(throws: TextDecodingError(encoding: encoding)) { try decoder.decode(bytes(hex)) as [UInt16] }
    }

    @Test("a fatal error in a streaming call leaves the bytes after it for the next call")
    func fatalStreamingLeftovers() throws {
        var decoder = TextDecoderState(encoding: .utf8, fatal: true)
        #expect(throws: TextDecodingError.self) { try decoder.decode(bytes("41 FF 42 E6 97"), stream: true) as [UInt16] }
        // The queue still holds 42 E6 97: they come before the new bytes.
        #expect(try decoder.decode(bytes("A5"), stream: true) as String == "B日")
        // A final call that throws starts the next call afresh.
        #expect(throws: TextDecodingError.self) { try decoder.decode(bytes("C3")) as [UInt16] }
        #expect(try decoder.decode(bytes("41")) as String == "A")
        #expect(TextDecodingError(encoding: .shiftJIS).description == "The encoded data was not valid for encoding shift_jis")
    }

    @Test("a byte order mark of the decoder's own encoding is dropped once, at the start of the stream")
    func byteOrderMarks() throws {
        #expect(decoded(.utf8, bytes("EF BB BF 41 EF BB BF")) == "A\u{FEFF}")
        #expect(decoded(.utf8, bytes("EF BB BF 41"), ignoreBOM: true) == "\u{FEFF}A")
        #expect(decoded(.utf16LE, bytes("FF FE 41 00")) == "A")
        #expect(decoded(.utf16BE, bytes("FE FF 00 41")) == "A")
        // Another encoding's BOM is text (TextDecoder does not sniff).
        #expect(decoded(.utf16LE, bytes("FE FF 41 00")) == "\u{FFFE}A")
        #expect(decoded(.utf8, bytes("FF FE 41 00")) == "\u{FFFD}\u{FFFD}A\0")
        // Legacy encodings keep U+FEFF.
        #expect(decoded(.gb18030, try TextEncoderState.encode("\u{FEFF}A", as: .gb18030)) == "\u{FEFF}A")
        // Split: the BOM arrives across calls, and the first call's empty output does not count.
        var decoder = TextDecoderState(encoding: .utf8)
        #expect(try decoder.decode(bytes("EF BB"), stream: true) as String == "")
        #expect(try decoder.decode(bytes("BF 41"), stream: true) as String == "A")
        #expect(try decoder.decode(bytes("EF BB BF")) as String == "\u{FEFF}")
        // A new stream drops a BOM again.
        #expect(try decoder.decode(bytes("EF BB BF 42")) as String == "B")
    }

    @Test("decoding into memory the caller sized never needs more than it asked for", arguments: TextEncoding.allCases)
    func outputBound(encoding: TextEncoding) throws {
        let input = Self.corpus(for: encoding)
        var decoder = TextDecoderState(encoding: encoding)
        var chunks = 0
        for start in stride(from: 0, to: input.count, by: 7) {
            let chunk = Array(input[start..<min(start + 7, input.count)])
            let bound = decoder.maximumOutputCount(forInputCount: chunk.count)
            let units: [UInt16] = try decoder.decode(chunk, stream: true)
            #expect(units.count <= bound)
            chunks += 1
        }
        #expect(chunks > 0)
    }
}
