import JSON

/// The type of a column as a schema declares it, and what JSON values it accepts.
///
/// BOOLEAN is stored as INTEGER 0/1 and read back as true/false; JSON is stored as TEXT holding the
/// JSON text of any value and read back as that value.
public enum ColumnType: String, Sendable, CaseIterable {
    case text = "TEXT"
    case integer = "INTEGER"
    case real = "REAL"
    case numeric = "NUMERIC"
    case blob = "BLOB"
    case boolean = "BOOLEAN"
    case json = "JSON"

    /// The type written into SQL: one SQLite understands with the affinity we want.
    var sqlType: String {
        switch self {
        case .boolean: "INTEGER"
        case .json: "TEXT"
        default: rawValue
        }
    }

    /// What `accepts` expects, for error messages.
    var expectation: String {
        switch self {
        case .text: "a string"
        case .integer: "an integer"
        case .real: "a number"
        case .numeric: "a number or a string"
        case .blob: "bytes (Uint8Array)"
        case .boolean: "a boolean (or 0/1)"
        case .json: "any JSON value"
        }
    }

    /// Whether a non-null value fits this column.
    public func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (_, .null): true
        case (.text, .string): true
        case (.integer, .number): value.intValue != nil
        case (.integer, .bool): true
        case (.real, .number): true
        case (.numeric, .number), (.numeric, .string), (.numeric, .bool): true
        case (.blob, .bytes): true
        case (.boolean, .bool): true
        case (.boolean, .number): value.intValue == 0 || value.intValue == 1
        case (.json, _): true
        default: false
        }
    }
}
