import Testing

@testable import Device

@Suite("screen")
struct TerminalScreenTests {
    @Test("colours follow NO_COLOR, TERM and COLORTERM", arguments: [
        (["NO_COLOR": "1", "TERM": "xterm-256color", "COLORTERM": "truecolor"], true, 0),
        (["NO_COLOR": "", "TERM": "xterm-256color"], true, 256),
        (["TERM": "dumb", "COLORTERM": "truecolor"], true, 0),
        ([:], false, 0),
        (["TERM": ""], false, 0),
        ([:], true, 16),
        (["TERM": "xterm-256color"], false, 256),
        (["TERM": "xterm-256color", "COLORTERM": "truecolor"], true, 16_777_216),
        (["TERM": "xterm", "COLORTERM": "24bit"], true, 16_777_216),
        (["TERM": "xterm", "COLORTERM": "TrueColor"], true, 16_777_216),
        (["TERM": "xterm-direct"], true, 16_777_216),
        (["TERM": "screen-256color"], true, 256),
        (["TERM": "linux"], true, 8),
        (["TERM": "xterm"], true, 16),
        (["TERM": "vt100"], false, 16),
    ] as [([String: String], Bool, Int)])
    func colors(environment: [String: String], isTerminal: Bool, expected: Int) {
        #expect(TerminalScreen.colorCount(isTerminal: isTerminal, environment: { environment[$0] }) == expected)
    }

    @Test("the size is the window's, else COLUMNS and LINES, else 80×24")
    func size() {
        let environment = ["COLUMNS": "132", "LINES": "43", "TERM": "xterm"]
        let window = TerminalScreen.resolve(windowSize: (columns: 100, rows: 30), isTerminal: true, environment: { environment[$0] })
        #expect(window == TerminalScreen(columns: 100, rows: 30, colors: 16))
        let unsized = TerminalScreen.resolve(windowSize: (columns: 0, rows: 0), isTerminal: true, environment: { environment[$0] })
        #expect(unsized == TerminalScreen(columns: 132, rows: 43, colors: 16))
        let fromEnvironment = TerminalScreen.resolve(windowSize: nil, isTerminal: false, environment: { environment[$0] })
        #expect(fromEnvironment == TerminalScreen(columns: 132, rows: 43, colors: 16))
        let bad = ["COLUMNS": "wide", "LINES": "-3"]
        #expect(TerminalScreen.resolve(windowSize: nil, isTerminal: false, environment: { bad[$0] })
            == TerminalScreen(columns: 80, rows: 24, colors: 0))
    }
}
