import Foundation
import JSON
import Testing
@testable import Views

/// Yoga's own generated layout tests (facebook/yoga, translated to cells by
/// scripts/translate-yoga-fixtures into Conformance/yoga/cases.json) laid out by FlexLayout.
@Suite("flex layout against Yoga's fixtures")
struct YogaConformanceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Conformance/yoga")

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let fields: JSONObject
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("cases.json"), encoding: .utf8),
              case .object(let file)? = try? JSONParser.parse(text), case .array(let list)? = file["cases"] else { return [] }
        return list.compactMap { value in
            guard case .object(let fields) = value, let name = fields["name"]?.stringValue else { return nil }
            return Case(name: name, fields: fields)
        }
    }()

    static func knownDifferences() throws -> [String: String] {
        let text = try String(contentsOf: folder.appendingPathComponent("known-differences.json"), encoding: .utf8)
        guard case .object(let entries) = try JSONParser.parse(text) else { return [:] }
        var result: [String: String] = [:]
        for key in entries.keys { result[key] = entries[key]?.stringValue }
        return result
    }

    /// Nil when every frame matches Yoga's, else the differing frames.
    static func run(_ testCase: Case) throws -> String? {
        let f = testCase.fields
        let width = Int(f["width"]?.numberValue ?? 0)
        let height = f["height"]?.numberValue.map { Int($0) }
        let document = try ViewDocument(json: f["view"]!, width: width, height: height)
        guard case .object(let expected)? = f["expected"] else { return "no expected frames" }
        var differences: [String] = []
        func visit(_ node: ViewNode, _ name: String) {
            if case .array(let e)? = expected[name] {
                let want = e.map { Int($0.numberValue ?? -1) }
                let got = [node.frame.x, node.frame.y, node.frame.width, node.frame.height]
                if want != got { differences.append("\(name) \(got) != \(want)") }
            }
            for (i, child) in node.children.enumerated() { visit(child, "\(name)_child\(i)") }
        }
        visit(document.root, "root")
        return differences.isEmpty ? nil : differences.joined(separator: "; ")
    }

    @Test("the translated cases load: at least 100")
    func loaded() { #expect(Self.cases.count >= 100) }

    @Test("each case's frames match Yoga's unless known-differences.json names it with a reason", arguments: cases)
    func conformance(_ testCase: Case) throws {
        let known = try Self.knownDifferences()
        let difference = try Self.run(testCase)
        if let reason = known[testCase.name] {
            #expect(difference != nil, "\(testCase.name) matches Yoga now; remove it from known-differences.json (\(reason))")
        } else {
            #expect(difference == nil, "\(testCase.name): \(difference ?? "")")
        }
    }

    /// Prints the tally (`swift test --filter YogaConformanceTests` shows it).
    @Test("tally of matching cases")
    func tally() throws {
        var matching = 0
        for c in Self.cases where try Self.run(c) == nil { matching += 1 }
        print("Yoga fixtures: \(matching) of \(Self.cases.count) cases match")
        #expect(matching > 0)
    }
}
