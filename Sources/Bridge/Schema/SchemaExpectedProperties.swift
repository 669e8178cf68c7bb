import JSON

/// The property names an object schema takes, for the message of an unexpected one:
/// `unexpected property "tabel"; did you mean "table"? expected one of database, table, where`.
///
/// Gathered only once a property has been refused, and only for the message (`isValid` never asks).
struct SchemaExpectedProperties: Sendable {
    /// Declared names, in the order the schema lists them, each once.
    var names: [String] = []
    /// `patternProperties` keys: names matching one of them are taken too.
    var patterns: [String] = []

    /// What `additionalProperties: false` admits beside itself: the node's own `properties` and
    /// `patternProperties`.
    static func declared(by node: SchemaNode) -> SchemaExpectedProperties {
        var expected = SchemaExpectedProperties()
        expected.add(node)
        return expected
    }

    /// What `unevaluatedProperties: false` admits: the names the node declares and those of every
    /// subschema applied to the same object (`$ref`, `allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`,
    /// `dependentSchemas`, and theirs in turn), whether or not that branch matched this instance.
    static func evaluated(by node: SchemaNode, in nodes: [SchemaNode]) -> SchemaExpectedProperties {
        var expected = SchemaExpectedProperties()
        expected.add(node)
        var seen: Set<Int> = []
        var queue = node.keywords.sameInstanceSubschemas.filter { $0 != node.keywords.not }
        while let next = queue.first {
            queue.removeFirst()
            guard seen.insert(next).inserted else { continue }
            let keywords = nodes[next].keywords
            expected.add(nodes[next])
            queue += keywords.sameInstanceSubschemas.filter { $0 != keywords.not }
        }
        return expected
    }

    private mutating func add(_ node: SchemaNode) {
        for entry in node.keywords.properties.entries where entry.node != nil && !names.contains(entry.name) {
            names.append(entry.name)
        }
        for (pattern, _) in node.keywords.patternProperties where !patterns.contains(pattern.source) {
            patterns.append(pattern.source)
        }
    }

    /// The expected name `key` is most likely a typo of.
    func suggestion(for key: String) -> String? { NearestName.of(key, among: names) }

    /// What follows "unexpected property "key"" in the message.
    func clause(for key: String) -> String {
        let matching = patterns.map { "a name matching /\($0)/" }
        let choices = names + matching
        let hint = suggestion(for: key).map { "; did you mean \(JSONValue.string($0))? " } ?? "; "
        switch choices.count {
        case 0: return "; the object takes no properties"
        case 1: return hint + "the only property expected is " + choices[0]
        default: return hint + "expected one of " + choices.joined(separator: ", ")
        }
    }
}
