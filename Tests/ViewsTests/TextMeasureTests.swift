import Testing
@testable import Views

@Suite("text measurement with utf8proc")
struct TextMeasureTests {
    @Test("cells per string: wide and emoji 2, combining marks 0", arguments: [
        ("abc", 3), ("中文", 4), ("한국어", 6), ("ＡＢ", 4), ("😀", 2), ("👍🏽", 2), ("❤️", 2), ("👨‍👩‍👧", 2),
        ("e\u{301}", 1), ("a\u{308}\u{304}", 1), ("🇩🇪", 2), ("", 0), ("a\tb", 3),
    ])
    func widths(_ text: String, _ cells: Int) {
        #expect(Glyph.width(of: text) == cells, "\(text.debugDescription)")
    }

    @Test("grapheme clusters stay whole", arguments: [("e\u{301}x", 2), ("👨‍👩‍👧!", 2), ("🇩🇪🇫🇷", 2), ("ab", 2)])
    func clusters(_ text: String, _ count: Int) {
        #expect(Glyph.segment(text).count == count)
    }

    @Test("wrapping breaks at spaces, between CJK characters, never between a word and a symbol one space away, and cuts over-long words", arguments: [
        ("aaa bbb ccc", 7, ["aaa bbb", "ccc"]),
        ("中文字符串", 4, ["中文", "字符", "串"]),
        ("abcdefghij", 4, ["abcd", "efgh", "ij"]),
        ("hi 世界!", 5, ["hi 世", "界!"]),
        ("a  b", 1, ["a", "b"]),
        ("x\ny", 5, ["x", "y"]),
        ("Tab ⇥  Enter ⏎  q", 9, ["Tab ⇥", "Enter ⏎", "q"]),
        ("press Enter ⏎", 8, ["press", "Enter ⏎"]),
        ("Enter ⏎", 6, ["Enter", "⏎"]),
        ("Saved ✅ ok", 8, ["Saved ✅", "ok"]),
        ("→ next step", 7, ["→ next", "step"]),
    ])
    func wrapping(_ text: String, _ width: Int, _ lines: [String]) {
        let wrapped = TextWrapper.wrap(text, width: width).map { $0.map(\.text).joined() }
        #expect(wrapped == lines)
        for line in TextWrapper.wrap(text, width: width) { #expect(TextWrapper.lineWidth(line) <= width) }
    }

    @Test("truncation ends with an ellipsis and never splits a wide character", arguments: [
        ("hello world", 6, "hello…"), ("short", 6, "short"), ("中文字符", 4, "中…"), ("中文字符", 5, "中文…"),
    ])
    func truncation(_ text: String, _ width: Int, _ expected: String) {
        let line = TextWrapper.truncate(text, width: width)[0]
        #expect(line.map(\.text).joined() == expected)
        #expect(TextWrapper.lineWidth(line) <= width)
    }
}
