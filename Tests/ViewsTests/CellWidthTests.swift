import Foundation
import Testing
@testable import Views

/// Cell widths follow the newest Unicode (CellWidthTable, generated from the wcwidth Python
/// package by scripts/generate-width-table), not the older tables of the system's utf8proc.
@Suite("cell widths follow the newest Unicode (wcwidth)")
struct CellWidthTests {
    static let expectedFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Conformance/wcwidth/expected-widths.txt")

    @Test("every sampled code point measures what wcwidth.wcwidth says (file written by scripts/generate-width-table)")
    func sample() throws {
        let text = try String(contentsOf: Self.expectedFile, encoding: .utf8)
        var checked = 0, wrong: [String] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let value = UInt32(fields[0], radix: 16), let expected = Int(fields[1]),
                  let scalar = Unicode.Scalar(value), value >= 0x20, !(0x7F..<0xA0).contains(value) else { continue }
            let measured = Glyph.width(of: String(Character(scalar)))
            if measured != expected { wrong.append("U+\(fields[0]) \(measured) != \(expected)") }
            checked += 1
        }
        #expect(checked > 10_000)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(20))")
    }

    @Test("Unicode 16-18 emoji and CJK extensions take 2 cells; U+FE0F alone none, after an emoji base 2", arguments: [
        ("\u{1FAE9}", 2), ("\u{1FAEA}", 2), ("\u{323B0}", 2), ("\u{2EBF0}", 2), ("\u{FE0F}", 0),
        ("\u{2764}\u{FE0F}", 2), ("\u{2764}", 1), ("1\u{FE0F}", 2), ("a\u{FE0F}", 1), ("x\u{FE0F}y", 2),
    ])
    func newest(_ text: String, _ cells: Int) {
        #expect(Glyph.width(of: text) == cells, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test("the table names its Unicode version")
    func version() {
        #expect((Int(CellWidthTable.unicodeVersion.prefix(while: { $0 != "." })) ?? 0) >= 17)
    }
}
