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

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`, with `(root)` for the empty path.
    public var description: String { "\(path.isEmpty ? "(root)" : path): \(message)" }
}
