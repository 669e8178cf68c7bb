import Bridge
import Foundation
import HostTesting
import JSON
import Testing

/// The official JSON-Schema-Test-Suite's draft 2020-12 tests (`JSONSchemaTestSuite/`, whose README
/// records the commit), run against the validator: `remotes/` is served as `http://localhost:1234/`
/// through a resolver, with no network. A case passes when `isValid` and `firstViolation` both
/// give the suite's verdict; a schema the validator refuses fails each of its cases.
@Suite("schema validator against the official JSON Schema test suite (draft 2020-12)")
struct JSONSchemaTestSuiteTests {
    /// Optional cases that fail, by a prefix of their name (a file, a file and group, or one
    /// case), each with the reason. The test fails when none of a prefix's cases fails any more,
    /// too, so that the list stays true.
    static let knownFailures: [String: String] = [
        "optional/cross-draft.json: refs to historic drafts are processed as historic drafts":
            "a $schema of draft 2019-09 is refused: the validator speaks draft 2020-12 only",
        "optional/format/ecmascript-regex.json: ECMA 262 lookbehind is valid, including variable width":
            "Swift's Regex has no lookbehind, so a pattern with one is refused (SchemaPattern)",
        "optional/format/hostname.json: validation of A-label (punycode) host names":
            "A-labels (xn--) are checked as LDH labels only: decoding Punycode and IDNA2008's tables are not implemented",
        "optional/format/idn-hostname.json":
            "idn-hostname is not asserted (IDNA2008 and its Bidi and context rules are not implemented); it stays an annotation",
        "optional/format/uri-template.json":
            "uri-template checks only that braces pair up, not RFC 6570's expression grammar",
    ]

    static let root = Repository.root + "/Tests/BridgeTests/JSONSchemaTestSuite"

    struct Outcome {
        var files: Set<String> = []
        var passed = 0
        var failures: [String] = []
    }

    @Test("every required test passes")
    func requiredTests() throws {
        let outcome = try Self.run { !$0.hasPrefix("optional/") }
        Self.report(outcome, label: "required")
    }

    @Test("optional tests pass (format assertion off), but for the known failures")
    func optionalTests() throws {
        let outcome = try Self.run { $0.hasPrefix("optional/") && !$0.hasPrefix("optional/format/") }
        Self.report(outcome, label: "optional")
    }

    @Test("the optional format tests pass with format assertion on, but for the known failures")
    func formatTests() throws {
        let outcome = try Self.run(formatAssertion: true) { $0.hasPrefix("optional/format/") }
        Self.report(outcome, label: "optional/format")
    }

    /// Records every failure not in `knownFailures`, and every known failure that passed.
    static func report(_ outcome: Outcome, label: String) {
        let unexpected = outcome.failures.filter { knownReason(for: $0) == nil }
        if !unexpected.isEmpty {
            let lines = unexpected.joined(separator: "\n")
            Issue.record("\(unexpected.count) \(label) case(s) failed (\(outcome.passed) passed):\n\(lines)")
        }
        let fixed = knownFailures.keys.filter { prefix in
            outcome.files.contains(String(prefix.prefix { $0 != ":" })) && !outcome.failures.contains { $0.hasPrefix(prefix) }
        }
        if !fixed.isEmpty {
            let lines = fixed.sorted().joined(separator: "\n")
            Issue.record("known failures that now pass; take them off the list:\n\(lines)")
        }
        print("JSON-Schema-Test-Suite \(label): \(outcome.passed) passed, \(outcome.failures.count) failed (\(outcome.failures.count - unexpected.count) known)")
    }

    /// Why a failure (a line that starts with the case's name) is expected, or nil.
    static func knownReason(for failure: String) -> String? {
        knownFailures.first { failure.hasPrefix($0.key) }?.value
    }

    static func run(formatAssertion: Bool = false, _ include: (String) -> Bool) throws -> Outcome {
        let folder = root + "/draft2020-12"
        let files = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".json") && include($0) }.sorted()
        #expect(!files.isEmpty)
        let options = SchemaOptions(formatAssertion: formatAssertion, resolver: RemotesFolder(path: root + "/remotes"))
        var outcome = Outcome(files: Set(files))
        for file in files {
            guard case .array(let groups) = try JSONParser.parse(try String(contentsOfFile: folder + "/" + file, encoding: .utf8)) else {
                Issue.record("\(file): expected an array of test groups")
                continue
            }
            for group in groups {
                let description = group["description"]?.stringValue ?? "?"
                let schema = group["schema"] ?? .null
                let validator: Result<SchemaValidator, SchemaError>
                do {
                    validator = .success(try SchemaValidator(schema: schema, options: options))
                } catch {
                    validator = .failure(error)
                }
                for test in group["tests"]?.arrayValue ?? [] {
                    let name = "\(file): \(description): \(test["description"]?.stringValue ?? "?")"
                    let expected = test["valid"]?.boolValue ?? false
                    let data = test["data"] ?? .null
                    switch validator {
                    case .failure(let error):
                        outcome.failures.append("\(name) — schema refused: \(error)")
                    case .success(let validator):
                        let valid = validator.isValid(data)
                        let violation = validator.firstViolation(of: data)
                        if valid == expected, (violation == nil) == expected {
                            outcome.passed += 1
                        } else {
                            outcome.failures.append("\(name) — expected \(expected ? "valid" : "invalid"), got isValid \(valid), firstViolation \(violation.map(\.description) ?? "none")")
                        }
                    }
                }
            }
        }
        return outcome
    }
}

/// The suite's `remotes/` folder as `http://localhost:1234/`, the way the suite's own server
/// would serve it.
struct RemotesFolder: SchemaResolver {
    let path: String

    func document(at uri: String) -> JSONValue? {
        let prefix = "http://localhost:1234/"
        guard uri.hasPrefix(prefix), let text = try? String(contentsOfFile: path + "/" + uri.dropFirst(prefix.count), encoding: .utf8) else {
            return nil
        }
        return try? JSONParser.parse(text)
    }
}
