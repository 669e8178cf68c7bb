import Foundation
import Testing

/// One ```js block of a README: where it stands, its code, and how the documentation tests treat
/// it. ARCHITECTURE.md ("Examples that run") describes the markers for the people who write them.
struct DocumentationBlock: Sendable, CustomTestStringConvertible {
    enum Treatment: Sendable, Equatable {
        /// `hybrid run` of the block wrapped in an async function, so `await` works at its top level.
        case script
        /// A copy of this repository folder holds the block as a script, so that its
        /// `require("./…")` finds the app's modules: `<!-- runs beside js/apps/tasks-view -->`.
        case beside(folder: String)
        /// `hybrid test` of the block as the file its first line names: `// tests/bridge.test.js`.
        case testFile(name: String)
        /// Not run, for the reason its marker gives: `<!-- not runnable: needs a patch endpoint -->`.
        case notRunnable(reason: String)
        /// A marker the runner cannot follow: the block's test fails with this message.
        case badMarker(String)
    }

    /// The README, relative to the repository.
    let file: String
    /// The line of the opening fence, counted from 1.
    let line: Int
    let code: String
    let treatment: Treatment

    var testDescription: String { "\(file):\(line)" }

    /// Where the examples find an HTTP server (``ExampleHTTPServer``) and a sync server: the runner
    /// starts them and puts their real addresses here.
    static let exampleServer = "http://127.0.0.1:8080"
    static let syncServer = "http://127.0.0.1:8390"

    /// The output the block shows for its `console.log` statements: the `// ` comment lines right
    /// after a statement that starts a line with `console.log(` (it ends at the first line ending
    /// in `;`, or in `;` and a comment), in order, without the `// `.
    var shownOutput: [String] {
        var shown: [String] = []
        var inLog = false
        var afterLog = false
        for line in code.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if afterLog, trimmed.hasPrefix("// ") {
                shown.append(String(trimmed.dropFirst(3)))
                continue
            }
            afterLog = false
            if trimmed.hasPrefix("console.log(") { inLog = true }
            if inLog, trimmed.contains(/;\s*(\/\/.*)?$/) { inLog = false; afterLog = true }
        }
        return shown
    }

    /// The program to run: the block placed at its own lines, so that a stack trace's line is the
    /// README's line.
    var program: String {
        let lead = String(repeating: "\n", count: line - 1)
        if case .testFile = treatment { return lead + "\n" + code + "\n" }
        return lead + "(async () => {\n" + code + "\n})();\n"
    }

    /// Every ```js block of `text`, the content of `file`.
    static func blocks(in text: String, file: String) -> [DocumentationBlock] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [DocumentationBlock] = []
        var index = 0
        while index < lines.count {
            let fence = lines[index].drop { $0 == " " }
            guard fence.hasPrefix("```") else { index += 1; continue }
            let info = fence.dropFirst(3).split(separator: " ")
            var end = index + 1
            while end < lines.count, lines[end].drop(while: { $0 == " " }) != "```" { end += 1 }
            if info.first == "js" {
                let code = lines[(index + 1)..<min(end, lines.count)].joined(separator: "\n")
                let marker = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                var treatment = Self.treatment(marker: marker, code: code)
                if info.count > 1 {
                    treatment = .badMarker("the fence's info string is \"\(info.joined(separator: " "))\": mark a block with a comment line before the fence, not there")
                }
                blocks.append(DocumentationBlock(file: file, line: index + 1, code: code, treatment: treatment))
            }
            index = end + 1
        }
        return blocks
    }

    private static func treatment(marker: String, code: String) -> Treatment {
        guard marker.hasPrefix("<!--") else {
            let first = code.prefix { $0 != "\n" }
            if let name = first.wholeMatch(of: /\/\/ (?:\S+\/)?(\S+\.test\.js)/)?.1 { return .testFile(name: String(name)) }
            return .script
        }
        guard marker.hasSuffix("-->") else { return .badMarker("the marker `\(marker)` must end on its line with -->") }
        let body = marker.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
        if body.hasPrefix("not runnable") {
            let reason = body.dropFirst("not runnable".count).drop { $0 == ":" || $0 == " " }
            guard body.dropFirst("not runnable".count).first == ":", !reason.isEmpty else {
                return .badMarker("`\(marker)` gives no reason: write <!-- not runnable: WHY -->")
            }
            return .notRunnable(reason: String(reason))
        }
        if body.hasPrefix("runs beside ") {
            return .beside(folder: String(body.dropFirst("runs beside ".count)).trimmingCharacters(in: .whitespaces))
        }
        return .badMarker("unknown marker `\(marker)`: expected <!-- not runnable: WHY --> or <!-- runs beside FOLDER -->")
    }
}
