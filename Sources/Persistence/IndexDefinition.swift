import JSON

/// An index on a table: `{"columns": ["due"], "unique": false, "name": "tasks_due"}`.
public struct IndexDefinition: Sendable, Equatable {
    public var name: String
    public var columns: [String]
    public var unique: Bool

    public init(name: String, columns: [String], unique: Bool = false) {
        self.name = name
        self.columns = columns
        self.unique = unique
    }

    static func parse(_ value: JSONValue, table: String, path: String) throws(PersistenceError) -> IndexDefinition {
        var columnsValue: [JSONValue]
        var unique = false
        var name: String?
        switch value {
        case .array(let items): columnsValue = items
        case .string(let column): columnsValue = [.string(column)]
        case .object(let object):
            guard let items = object["columns"]?.arrayValue else {
                throw .invalid(path: path + "/columns", message: "expected an array of column names")
            }
            columnsValue = items
            if let u = object["unique"] {
                guard let b = u.boolValue else { throw .invalid(path: path + "/unique", message: "expected a boolean, got \(u.typeName)") }
                unique = b
            }
            if let n = object["name"] {
                guard let s = n.stringValue else { throw .invalid(path: path + "/name", message: "expected a string, got \(n.typeName)") }
                try Identifier.check(s, at: path + "/name", what: "index")
                name = s
            }
            for key in object.keys where !["columns", "unique", "name", "op", "table"].contains(key) {
                throw .invalid(path: JSONPointer.appending(path, key: key), message: "unknown index property; expected columns, unique or name")
            }
        default:
            throw .invalid(path: path, message: "expected an index: {columns, unique?, name?}, got \(value.typeName)")
        }
        guard !columnsValue.isEmpty else { throw .invalid(path: path + "/columns", message: "expected at least one column") }
        var columns: [String] = []
        for (i, item) in columnsValue.enumerated() {
            let itemPath = value.objectValue == nil ? (value.arrayValue == nil ? path : path + "/\(i)") : path + "/columns/\(i)"
            guard let column = item.stringValue else { throw .invalid(path: itemPath, message: "expected a column name, got \(item.typeName)") }
            try Identifier.check(column, at: itemPath, what: "column")
            columns.append(column)
        }
        return IndexDefinition(name: name ?? "\(table)_\(columns.joined(separator: "_"))_idx", columns: columns, unique: unique)
    }

    func createSQL(table: String) -> String {
        "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(Identifier.quote(name)) ON \(Identifier.quote(table))(\(columns.map(Identifier.quote).joined(separator: ", ")))"
    }

    var jsonValue: JSONValue {
        ["name": .string(name), "columns": .array(columns.map(JSONValue.string)), "unique": .bool(unique)]
    }
}
