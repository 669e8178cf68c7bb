import TextEncodings
import Testing

@Suite("encoders")
struct TextEncoderStateTests {
    @Test("each encoder writes the bytes the standard says", arguments: [
        (TextEncoding.gb18030, "A中€¥\u{10000}\u{3000}\u{E78D}", "41 D6 D0 A2 E3 81 30 84 36 90 30 81 30 A1 A1 A6 D9"),
        (.gbk, "中€", "D6 D0 80"),
        (.big5, "中十═", "A4 A4 A4 51 F9 F9"),
        (.eucJP, "日ｱ¥‾−", "C6 FC 8E B1 5C 7E A1 DD"),
        (.iso2022JP, "A日¥ｱB", "41 1B 24 42 46 7C 1B 28 4A 5C 1B 24 42 25 22 1B 28 42 42"),
        (.iso2022JP, "日", "1B 24 42 46 7C 1B 28 42"),
        (.shiftJIS, "日ｱ\u{80}ⅰ−", "93 FA B1 80 FA 40 81 7C"),
        (.eucKR, "한갂", "C7 D1 81 41"),
        (.windows1252, "€éŸ\u{81}", "80 E9 9F 81"),
        (.iso8859_8I, "א", "E0"),
        (.xUserDefined, "A\u{F780}\u{F7FF}", "41 80 FF"),
        (.utf8, "日😀", "E6 97 A5 F0 9F 98 80"),
    ])
    func samples(encoding: TextEncoding, text: String, hex: String) throws {
        #expect(try TextEncoderState.encode(text, as: encoding) == bytes(hex))
    }

    @Test("what an encoding lacks throws in fatal mode, naming the code point", arguments: [
        (TextEncoding.gbk, "¥", UInt32(0xA5)), (.gb18030, "\u{E5E5}", 0xE5E5), (.big5, "\u{43F0}", 0x43F0),
        (.eucJP, "丂", 0x4E02), (.shiftJIS, "한", 0xD55C), (.eucKR, "ｱ", 0xFF71), (.windows1252, "日", 0x65E5),
        (.xUserDefined, "é", 0xE9), (.iso2022JP, "\u{0E}", 0xFFFD),
    ])
    func unmappable(encoding: TextEncoding, text: String, codePoint: UInt32) {
        #expect(throws: TextEncodingError(encoding: encoding, codePoint: codePoint)) {
            try TextEncoderState.encode(text, as: encoding)
        }
    }

    @Test("html mode writes a decimal character reference instead")
    func htmlMode() throws {
        #expect(try TextEncoderState.encode("a日b", as: .windows1252, errorMode: .html) == Array("a&#26085;b".utf8))
        // ISO-2022-JP leaves JIS X 0208 before the reference, and reports the escape-like controls as U+FFFD.
        #expect(try TextEncoderState.encode("日한\u{1B}", as: .iso2022JP, errorMode: .html)
                == bytes("1B 24 42 46 7C 1B 28 42") + Array("&#54620;&#65533;".utf8))
        #expect(TextEncodingError(encoding: .eucKR, codePoint: 0x65E5).description == "U+65E5 cannot be encoded in EUC-KR")
    }

    @Test("encoding then decoding gives the text back, for every encoding with an encoder", arguments: TextEncoding.allCases.filter(\.hasEncoder))
    func roundTrips(encoding: TextEncoding) throws {
        let text = "Plain ASCII, then é, ¥, ‾ and the rest that fits: 日本語 中文 한국어 ｱｲｳ"
        let representable = String(String.UnicodeScalarView(text.unicodeScalars.filter { scalar in
            (try? TextEncoderState.encode(String(scalar), as: encoding)) != nil
        }))
        let encoded = try TextEncoderState.encode(representable, as: encoding)
        var decoder = TextDecoderState(encoding: encoding, fatal: true)
        // ISO-2022-JP's encoder writes halfwidth katakana as fullwidth; EUC-JP and Shift_JIS write ¥
        // and ‾ as the bytes of \\ and ~.
        var expected = representable
        if encoding == .iso2022JP { expected = expected.replacingOccurrences("ｱｲｳ", "アイウ") }
        if encoding == .eucJP || encoding == .shiftJIS { expected = expected.replacingOccurrences("¥", "\\").replacingOccurrences("‾", "~") }
        #expect(try decoder.decode(encoded) as String == expected)
    }

    @Test("UTF-8 from UTF-16: lone surrogates are U+FFFD, pairs one scalar")
    func utf8() {
        let units: [UInt16] = [0x61, 0xD800, 0x62, 0xDC00, 0xD83D, 0xDE00, 0xD83D]
        units.withUnsafeBufferPointer { input in
            var output = [UInt8](repeating: 0, count: input.count * 3)
            let written = UTF8Encoder.encode(input, into: &output)
            #expect(Array(output[..<written]) == bytes("61 EF BF BD 62 EF BF BD F0 9F 98 80 EF BF BD"))
        }
    }

    @Test("long runs of ASCII between other characters take the word-at-a-time paths and come out the same", arguments: TextEncoding.allCases.filter(\.hasEncoder))
    func longASCIIRuns(encoding: TextEncoding) throws {
        var text = ""
        for run in 0..<40 {
            text += String(repeating: "abcdefghij", count: 4).prefix(run) + (run % 3 == 0 ? "日" : run % 3 == 1 ? "é" : "😀")
        }
        let representable = String(String.UnicodeScalarView(text.unicodeScalars.filter { scalar in
            (try? TextEncoderState.encode(String(scalar), as: encoding)) != nil
        }))
        let encoded = try TextEncoderState.encode(representable, as: encoding)
        var decoder = TextDecoderState(encoding: encoding, fatal: true)
        #expect(try decoder.decode(encoded) as String == representable)
        if encoding == .utf8 {
            let units = Array(text.utf16)
            var output = [UInt8](repeating: 0, count: units.count * 3)
            let written = units.withUnsafeBufferPointer { UTF8Encoder.encode($0, into: &output) }
            #expect(Array(output[..<written]) == Array(text.utf8))
            #expect(encoded == Array(text.utf8))
        }
    }

    @Test("UTF-8 from any code units, surrogates alone or in pairs, is what Swift's own decoding makes")
    func anyUnits() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        let interesting: [UInt16] = [0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFF]
        for length in 0..<200 {
            var units: [UInt16] = []
            for _ in 0..<length {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let value = UInt16(truncatingIfNeeded: state >> 40)
                units.append(value % 3 == 0 ? value : interesting[Int(value) % interesting.count])
            }
            var output = [UInt8](repeating: 0, count: units.count * 3)
            units.withUnsafeBufferPointer { input in
                let written = UTF8Encoder.encode(input, into: &output)
                // Swift's own decoding of UTF-16 also makes each lone surrogate a U+FFFD.
                #expect(Array(output[..<written]) == Array(String(decoding: units, as: UTF16.self).utf8), "\(units)")
            }
        }
    }

    @Test("encodeInto writes whole scalars only, and counts UTF-16 units read", arguments: [
        ([0x61, 0xD83D, 0xDE00], 3, 1, 1), ([0x61, 0xD83D, 0xDE00], 5, 3, 5), ([0x20AC, 0x61], 2, 0, 0),
        ([0x61, 0x62, 0xD800], 4, 2, 2), ([0x61, 0x62, 0xD800], 5, 3, 5), ([], 4, 0, 0), ([0x61, 0x62, 0x63], 0, 0, 0),
    ] as [([UInt16], Int, Int, Int)])
    func encodeInto(units: [UInt16], room: Int, read: Int, written: Int) {
        var destination = [UInt8](repeating: 0xAA, count: room)
        let result = units.withUnsafeBufferPointer { input in
            destination.withUnsafeMutableBytes { UTF8Encoder.encode(input, into: $0) }
        }
        #expect(result.read == read)
        #expect(result.written == written)
        #expect(destination[written...].allSatisfy { $0 == 0xAA })
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
