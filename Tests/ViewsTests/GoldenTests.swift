import Foundation
import JSON
import Testing
@testable import Views

/// Golden frames: compared byte for byte; rewritten only with `UPDATE_GOLDENS=1`.
enum Goldens {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static let updating = ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1"

    /// The golden text of a canvas: the plain frame, then its styled runs.
    static func text(of canvas: TextCanvas) -> String {
        "frame \(canvas.width)x\(canvas.height)\n" + canvas.plainText + "--- styled cells\n" + canvas.styleRuns
    }

    static func check(_ name: String, _ actual: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = folder.appendingPathComponent(name + ".txt")
        if updating {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try #require(try? String(contentsOf: url, encoding: .utf8),
                                    "no golden \(name).txt; run UPDATE_GOLDENS=1 swift test --filter ViewsTests to create it",
                                    sourceLocation: sourceLocation)
        #expect(actual == expected, "\(name): the frame differs from Goldens/\(name).txt", sourceLocation: sourceLocation)
    }
}

func render(_ view: String, data: String = "{}", width: Int, height: Int? = nil) throws -> ViewDocument {
    try ViewDocument(json: JSONParser.parse(view), data: JSONParser.parse(data), width: width, height: height)
}

@Suite("golden frames")
struct GoldenTests {
    @Test("each golden view renders exactly its golden frame and styled cells", arguments: goldenCases)
    func golden(_ testCase: GoldenCase) throws {
        let document = try render(testCase.view, data: testCase.data, width: testCase.width)
        try Goldens.check(testCase.name, Goldens.text(of: document.canvas))
    }

    @Test("there are at least 60 golden cases, with distinct names")
    func enoughCases() {
        #expect(goldenCases.count >= 60)
        #expect(Set(goldenCases.map(\.name)).count == goldenCases.count)
    }

    @Test("every node type and every border style appears in some golden case")
    func coverage() {
        let all = goldenCases.map(\.view).joined()
        for kind in ViewKind.allCases { #expect(all.contains("\"type\": \"\(kind.rawValue)\""), "\(kind)") }
        for border in BorderStyle.allCases where border != .none { #expect(all.contains("\"border\": \"\(border.rawValue)\""), "\(border)") }
    }

    @Test("ANSI output downsamples colors to what --colors allows", arguments: [
        (ColorMode.truecolor, "\u{1B}[0;38;2;255;136;0m"), (.palette256, "\u{1B}[0;38;5;208m"), (.ansi16, "\u{1B}[0;33m"), (.none, "\u{1B}[0m"),
    ])
    func downsampling(_ mode: ColorMode, _ expected: String) throws {
        let document = try render(##"{"type": "text", "text": "x", "style": {"color": "#ff8800"}}"##, width: 3)
        let ansi = document.canvas.ansiText(mode)
        #expect(ansi.hasPrefix(expected + "x"), "\(mode): \(ansi.debugDescription)")
    }

    @Test("NO_COLOR turns color off; COLORTERM and TERM choose the depth", arguments: [
        (["NO_COLOR": "1", "COLORTERM": "truecolor"], ColorMode.none), (["COLORTERM": "truecolor"], .truecolor),
        (["TERM": "xterm-256color"], .palette256), (["TERM": "xterm"], .ansi16), (["TERM": "dumb"], .none), (["NO_COLOR": ""], .ansi16),
    ])
    func colorDetection(_ environment: [String: String], _ expected: ColorMode) {
        #expect(ColorMode.detect { environment[$0] } == expected)
    }
}
