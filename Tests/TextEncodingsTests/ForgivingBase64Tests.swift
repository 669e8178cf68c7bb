import TextEncodings
import Testing

@Suite("forgiving base64")
struct ForgivingBase64Tests {
    static func decode(_ text: String) -> [UInt8]? {
        let units = Array(text.utf16)
        var output = [UInt8](repeating: 0, count: ForgivingBase64.decodedCapacity(forCount: units.count))
        guard let count = units.withUnsafeBufferPointer({ ForgivingBase64.decode($0, into: &output) }) else { return nil }
        return Array(output[..<count])
    }

    static func encode(_ text: String) -> String? {
        let units = Array(text.utf16)
        var output = [UInt16](repeating: 0, count: ForgivingBase64.encodedCount(forByteCount: units.count))
        guard let count = units.withUnsafeBufferPointer({ ForgivingBase64.encode(latin1: $0, into: &output) }) else { return nil }
        return String(decoding: output[..<count], as: UTF16.self)
    }

    @Test("decodes with or without padding, around ASCII whitespace, ignoring leftover bits", arguments: [
        ("", ""), ("YQ==", "a"), ("YQ", "a"), ("YWI=", "ab"), ("YWI", "ab"), ("YWJj", "abc"), (" Y W\nJ\tj\u{0C}\r ", "abc"),
        ("YR==", "a"), ("YWJ=", "ab"), ("/+8=", "\u{FF}\u{EF}"), ("YQ = =", "a"),
    ])
    func decodes(text: String, latin1: String) {
        #expect(Self.decode(text) == latin1.unicodeScalars.map { UInt8($0.value) })
    }

    @Test("refuses what is not base64", arguments: [
        "Y", "YQ=", "YQ===", "Y===", "=", "==", "YQ==YQ==", "Y=Q=", "YQ\u{A0}", "YQ-_", "YQ\u{0B}", "YWJjZ", "ü", "YQ==\0",
    ])
    func refuses(text: String) {
        #expect(Self.decode(text) == nil)
    }

    @Test("encodes code units up to 0xFF, and refuses any above")
    func encodes() {
        #expect(Self.encode("") == "")
        #expect(Self.encode("a") == "YQ==")
        #expect(Self.encode("ab") == "YWI=")
        #expect(Self.encode("abc") == "YWJj")
        #expect(Self.encode("\u{FF}\u{FE}\u{0}") == "//4A")
        #expect(Self.encode("a\u{100}") == nil)
        #expect(Self.encode("€") == nil)
    }
}
