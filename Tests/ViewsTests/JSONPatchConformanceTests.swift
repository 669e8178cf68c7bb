import Foundation
import JSON
import Testing
@testable import Views

/// RFC 6902's published cases (github.com/json-patch/json-patch-tests, vendored under
/// Conformance/json-patch-tests) run through `ViewDocument.update(patch:)`, as `view.update {patch}` does.
@Suite("JSON Patch conformance (json-patch-tests)")
struct JSONPatchConformanceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Conformance/json-patch-tests")

    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let record: JSONObject
        var testDescription: String { id }
    }

    static func load(_ file: String) throws -> [Case] {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        guard case .array(let records) = try JSONParser.parse(text) else { return [] }
        return records.enumerated().compactMap { i, record in
            guard case .object(let fields) = record, fields["doc"] != nil, fields["patch"] != nil,
                  fields["disabled"] != .bool(true) else { return nil }
            return Case(id: "\(file)#\(i)", record: fields)
        }
    }

    static let cases: [Case] = (try? load("tests.json") + load("spec_tests.json")) ?? []

    static func knownFailures() throws -> [String: String] {
        let text = try String(contentsOf: folder.appendingPathComponent("known-failures.json"), encoding: .utf8)
        guard case .object(let entries) = try JSONParser.parse(text) else { return [:] }
        var result: [String: String] = [:]
        for key in entries.keys { result[key] = entries[key]?.stringValue }
        return result
    }

    /// Nil when the case passes, else what went wrong.
    static func run(_ testCase: Case) -> String? {
        let fields = testCase.record
        let doc = fields["doc"]!
        let document: ViewDocument
        do {
            document = try ViewDocument(json: .object(["type": .string("text"), "text": .string("x")]), data: doc, width: 10)
        } catch {
            return "the view did not mount: \(error)"
        }
        do {
            try document.update(patch: fields["patch"]!)
            if let error = fields["error"] { return "applied, expected an error (\(error.stringValue ?? ""))" }
            if let expected = fields["expected"], document.data != expected {
                return "got \(JSONWriter.write(document.data)), expected \(JSONWriter.write(expected))"
            }
            return nil
        } catch {
            if fields["error"] == nil { return "refused: \(error)" }
            return document.data == doc ? nil : "refused, but the data changed"
        }
    }

    @Test("every vendored case loads: at least 100 enabled cases")
    func loaded() {
        #expect(Self.cases.count >= 100)
    }

    @Test("each case passes unless known-failures.json names it with a reason", arguments: cases)
    func conformance(_ testCase: Case) throws {
        let known = try Self.knownFailures()
        let failure = Self.run(testCase)
        if let reason = known[testCase.id] {
            #expect(failure != nil, "\(testCase.id) passes now; remove it from known-failures.json (\(reason))")
        } else {
            #expect(failure == nil, "\(testCase.id) \(testCase.record["comment"]?.stringValue ?? ""): \(failure ?? "")")
        }
    }

    @Test("an array index with a leading zero is refused, naming the index")
    func leadingZero() throws {
        let document = try ViewDocument(json: .object(["type": .string("text"), "text": .string("x")]),
                                        data: JSONParser.parse(##"{"foo": [1, 2, 3]}"##), width: 10)
        let error = try #require(throws: ViewUpdateError.self) {
            try document.update(patch: JSONParser.parse(##"[{"op": "add", "path": "/foo/01", "value": 9}]"##))
        }
        guard case .patch(let patchError) = error else { Issue.record("expected a patch error, got \(error)"); return }
        #expect(patchError.path == "/0/path")
        #expect(patchError.message.contains("\"01\" has a leading zero"))
        #expect(document.data == (try JSONParser.parse(##"{"foo": [1, 2, 3]}"##)))
    }
}
