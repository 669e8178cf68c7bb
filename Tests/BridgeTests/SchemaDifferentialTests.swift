import Bridge
import Foundation
import HostTesting
import JSON
import SystemIO
import Testing

/// The schema validator against Python's jsonschema (draft 2020-12) over a corpus of schemas and
/// instances: every verdict must agree. `scripts/schema-differential.py --regenerate` refreshes the
/// corpus's generated entries; the handwritten ones are edited in the file itself.
@Suite("schema validator, differentially against Python's jsonschema")
struct SchemaDifferentialTests {
    @Test("the corpus holds at least 80 schemas and 500 schema-instance pairs")
    func corpusIsLargeEnough() throws {
        let corpus = try Corpus.load()
        #expect(corpus.entries.count >= 80)
        #expect(corpus.pairCount >= 500)
    }

    @Test("every schema in the corpus compiles")
    func everySchemaCompiles() throws {
        for (n, entry) in try Corpus.load().entries.enumerated() {
            #expect(throws: Never.self, "corpus[\(n)] \(entry.note): \(entry.schema)") {
                _ = try entry.validator()
            }
        }
    }

    @Test("every verdict agrees with jsonschema's")
    func verdictsAgree() throws {
        let corpus = try Corpus.load()
        let oracle = try runOracle()
        guard case .array(let rows) = oracle, rows.count == corpus.entries.count else {
            Issue.record("the oracle printed \(oracle.arrayValue?.count ?? -1) rows for \(corpus.entries.count) schemas")
            return
        }
        var compared = 0
        for (n, (entry, row)) in zip(corpus.entries, rows).enumerated() {
            guard case .array(let verdicts) = row, verdicts.count == entry.instances.count else {
                Issue.record("corpus[\(n)]: the oracle's row does not match the instances")
                continue
            }
            guard let validator = try? entry.validator() else { continue }  // reported above
            for (i, (instance, verdict)) in zip(entry.instances, verdicts).enumerated() {
                let expected = verdict.boolValue
                let violation = validator.firstViolation(of: instance)
                if (violation == nil) != expected {
                    Issue.record("""
                        corpus[\(n)].instances[\(i)] (\(entry.note)): jsonschema says \(expected == true ? "valid" : "invalid"), \
                        we say \(violation.map { "invalid: \($0)" } ?? "valid")
                          schema:   \(entry.schema)
                          instance: \(instance)
                        """)
                }
                compared += 1
            }
        }
        #expect(compared == corpus.pairCount)
    }

    @Test("isValid and firstViolation agree on every pair")
    func bothEntryPointsAgree() throws {
        for (n, entry) in try Corpus.load().entries.enumerated() {
            guard let validator = try? entry.validator() else { continue }
            for (i, instance) in entry.instances.enumerated() {
                #expect(validator.isValid(instance) == (validator.firstViolation(of: instance) == nil),
                        "corpus[\(n)].instances[\(i)]: \(entry.schema) against \(instance)")
            }
        }
    }

    /// Runs `python3 scripts/schema-differential.py CORPUS` and parses its verdicts.
    private func runOracle() throws -> JSONValue {
        let result = try ChildProcess.run("python3", [Corpus.repositoryRoot + "/scripts/schema-differential.py", Corpus.path])
        guard result.status == 0 else {
            throw OracleFailure(description: "schema-differential.py exited \(result.status): \(String(decoding: result.errorOutput, as: UTF8.self))")
        }
        return try JSONParser.parse(String(decoding: result.output, as: UTF8.self))
    }

    private struct OracleFailure: Error, CustomStringConvertible {
        let description: String
    }

    private struct Corpus {
        struct Entry {
            let note: String
            let schema: JSONValue
            /// Where in `schema` the schema under test sits, when `schema` is a document holding it.
            let at: String?
            let instances: [JSONValue]

            func validator() throws(SchemaError) -> SchemaValidator {
                guard let at else { return try SchemaValidator(schema: schema) }
                return try SchemaValidator(document: schema, at: at)
            }
        }

        static let repositoryRoot = Repository.root

        static let path = repositoryRoot + "/Tests/BridgeTests/Fixtures/schema-corpus.json"

        let entries: [Entry]
        var pairCount: Int { entries.reduce(0) { $0 + $1.instances.count } }

        static func load() throws -> Corpus {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            guard case .array(let items) = try JSONParser.parse(text) else { throw OracleFailure(description: "\(path): expected an array") }
            return Corpus(entries: try items.enumerated().map { n, item in
                guard let schema = item["schema"], case .array(let instances)? = item["instances"] else {
                    throw OracleFailure(description: "\(path): corpus[\(n)] needs schema and instances")
                }
                return Entry(note: item["note"]?.stringValue ?? "generated", schema: schema, at: item["at"]?.stringValue,
                             instances: instances)
            })
        }
    }
}
