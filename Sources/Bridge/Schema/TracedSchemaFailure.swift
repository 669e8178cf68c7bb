import JSON

/// A failure with its message and the instance path, gathered innermost first on the way out.
struct TracedSchemaFailure: SchemaFailure {
    enum Step {
        case key(String)
        case index(Int)
    }

    static var carriesDetail: Bool { true }

    let message: String
    /// For an unexpected property: the names its object takes, and the one it is likely a typo of.
    private var expectedProperties: [String]?
    private var suggestion: String?
    /// Innermost step first.
    private(set) var reversedPath: [Step] = []

    init(message: @autoclosure () -> String) { self.message = message() }

    init(unexpected key: String, note: String, expected: @autoclosure () -> SchemaExpectedProperties) {
        let expected = expected()
        message = "unexpected property \(JSONValue.string(key))\(note)\(expected.clause(for: key))"
        expectedProperties = expected.names
        suggestion = expected.suggestion(for: key)
    }

    var depth: Int { reversedPath.count }

    mutating func prepend(key: String) { reversedPath.append(.key(key)) }
    mutating func prepend(index: Int) { reversedPath.append(.index(index)) }

    var violation: SchemaViolation {
        var path = ""
        for step in reversedPath.reversed() {
            switch step {
            case .key(let key): path = JSONPointer.appending(path, key: key)
            case .index(let index): path = JSONPointer.appending(path, index: index)
            }
        }
        return SchemaViolation(path: path, message: message, expectedProperties: expectedProperties, suggestion: suggestion)
    }
}
