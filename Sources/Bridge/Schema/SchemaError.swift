/// A schema that cannot be compiled: where in the schema, and what was expected there.
///
/// `description` reads `/properties/a/type: expected one of array, boolean, integer, null, number,
/// object, string`.
public struct SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A JSON Pointer into the schema: "" for the root.
    public let schemaPath: String
    public let message: String

    public init(schemaPath: String, message: String) {
        self.schemaPath = schemaPath
        self.message = message
    }

    public var description: String { "\(schemaPath.isEmpty ? "(root)" : schemaPath): \(message)" }
}
