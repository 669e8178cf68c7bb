/// Why an instance does not satisfy a schema: where, and what was expected.
///
/// ```swift
/// let violation = validator.firstViolation(of: params)
/// // path "/records/2/title", message "expected string, got number"
/// ```
public struct SchemaViolation: Sendable, Equatable, CustomStringConvertible {
    /// A JSON Pointer into the instance: "" for the root, `/records/2/title` below it. For a
    /// missing required or an unexpected property it names that property.
    public let path: String
    /// What was expected, e.g. `expected integer, got string` or `missing required property "title"`.
    public let message: String
    /// For an unexpected property: the names its object takes, as the schema declares them
    /// (`properties`, and for `unevaluatedProperties` those of the subschemas applied beside it).
    public let expectedProperties: [String]?
    /// For an unexpected property: the expected name it is most likely a typo of.
    public let suggestion: String?

    public init(path: String, message: String, expectedProperties: [String]? = nil, suggestion: String? = nil) {
        self.path = path
        self.message = message
        self.expectedProperties = expectedProperties
        self.suggestion = suggestion
    }

    /// `path: message`, with `(root)` for the empty path.
    public var description: String { "\(path.isEmpty ? "(root)" : path): \(message)" }
}
