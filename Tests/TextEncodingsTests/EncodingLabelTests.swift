@testable import TextEncodings
import Testing

@Suite("encoding labels")
struct EncodingLabelTests {
    @Test("labels name their encoding, whatever the ASCII case and surrounding ASCII whitespace", arguments: [
        ("utf-8", TextEncoding.utf8), ("UTF8", .utf8), ("unicode-1-1-utf-8", .utf8), (" \t\n\u{0C}\rutf-8 ", .utf8),
        ("utf-16", .utf16LE), ("utf-16le", .utf16LE), ("unicodefffe", .utf16BE), ("latin1", .windows1252),
        ("ascii", .windows1252), ("iso-8859-1", .windows1252), ("us-ascii", .windows1252), ("GB2312", .gbk),
        ("x-gbk", .gbk), ("gb18030", .gb18030), ("big5-hkscs", .big5), ("cn-big5", .big5), ("x-euc-jp", .eucJP),
        ("csiso2022jp", .iso2022JP), ("sjis", .shiftJIS), ("windows-31j", .shiftJIS), ("ks_c_5601-1987", .eucKR),
        ("iso-2022-kr", .replacement), ("hz-gb-2312", .replacement), ("x-user-defined", .xUserDefined),
        ("iso-8859-8-i", .iso8859_8I), ("logical", .iso8859_8I), ("visual", .iso8859_8), ("x-mac-ukrainian", .xMacCyrillic),
    ])
    func resolves(label: String, encoding: TextEncoding) {
        #expect(TextEncoding(label: label) == encoding)
    }

    @Test("anything else is no encoding", arguments: [
        "", "utf-7", "utf-32", "\u{0B}utf-8", "utf-8\u{00A0}", "\u{FEFF}utf-8", "ｕｔｆ-8", "iso-8859-1\0", "x-mac-greek", "cp1252 x",
        // U+212A KELVIN SIGN lowercases to "k" under Unicode, not ASCII, rules.
        "\u{212A}oi8-r",
    ])
    func rejects(label: String) {
        #expect(TextEncoding(label: label) == nil)
    }

    @Test("every encoding has its own name among its labels, and 228 labels in all")
    func everyName() {
        for encoding in TextEncoding.allCases {
            #expect(TextEncoding(label: encoding.name) == encoding, "\(encoding.name)")
        }
        #expect(TextEncoding.byLabel.count == 228)
    }

    @Test("replacement and UTF-16 write UTF-8; the others have an encoder of their own")
    func outputEncodings() {
        #expect(TextEncoding.replacement.outputEncoding == .utf8)
        #expect(TextEncoding.utf16BE.outputEncoding == .utf8)
        #expect(TextEncoding.shiftJIS.outputEncoding == .shiftJIS)
        #expect(!TextEncoding.utf16LE.hasEncoder)
        #expect(TextEncoding.xUserDefined.hasEncoder)
    }
}
