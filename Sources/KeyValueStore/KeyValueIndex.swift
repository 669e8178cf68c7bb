import JSON
import Persistence

/// The index columns declared for a bucket (`kv.defineIndex`), and where each column's value comes
/// from in an item: `value.due` or `metadata.source`.
struct KeyValueIndex: Sendable {
    struct Source: Sendable, Equatable {
        var fromMetadata: Bool
        var path: [String]
    }

    var id: Int64
    var bucket: String
    /// The index table: `item` (the kv row) plus the declared columns, for ``QueryCommand``.
    var table: TableSchema
    var sources: [String: Source]
    var definition: JSONValue

    var tableName: String { "kv_index_\(id)" }

    /// Parses `{columns: {NAME: "INTEGER"}, from: "value" | {NAME: "value.path"}}`.
    static func parse(bucket: String, columns: JSONValue, from: JSONValue, id: Int64) throws(Persistence.PersistenceError) -> KeyValueIndex {
        guard let columnsObject = columns.objectValue, !columnsObject.isEmpty else {
            throw .invalid(path: "/columns", message: "expected an object of at least one column {NAME: \"TYPE\"}")
        }
        var definitions: [ColumnDefinition] = []
        var sources: [String: Source] = [:]
        for (name, declaration) in columnsObject {
            let path = JSONPointer.appending("/columns", key: name)
            try Identifier.check(name, at: path, what: "column")
            guard name != "item" else { throw .invalid(path: path, message: "\"item\" is reserved for the item's row") }
            guard let text = declaration.stringValue else { throw .invalid(path: path, message: ColumnDefinition.grammar) }
            var column = try ColumnDefinition.parse(name: name, declaration: text, path: path)
            column.notNull = false
            column.unique = false
            definitions.append(column)
            let sourceText: String
            let sourcePath: String
            switch from {
            case .string(let base):
                sourceText = base + "." + name
                sourcePath = "/from"
            case .object(let map):
                guard let s = map[name]?.stringValue else {
                    throw .invalid(path: JSONPointer.appending("/from", key: name), message: "expected a path such as \"value.\(name)\" for column \(Quoted(name))")
                }
                sourceText = s
                sourcePath = JSONPointer.appending("/from", key: name)
            default:
                throw .invalid(path: "/from", message: "expected a path (\"value\", \"value.task\", \"metadata\") or an object {COLUMN: \"value.path\"}")
            }
            var parts = sourceText.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let root = parts.first, root == "value" || root == "metadata", parts.allSatisfy({ !$0.isEmpty }), parts.count >= 2 else {
                throw .invalid(path: sourcePath, message: "expected a dotted path starting with value or metadata (\"value.due\"), got \(Quoted(sourceText))")
            }
            parts.removeFirst()
            sources[name] = Source(fromMetadata: root == "metadata", path: parts)
        }
        let table = TableSchema(name: "kv_index_\(id)", columns: definitions)
        return KeyValueIndex(id: id, bucket: bucket, table: table, sources: sources,
                             definition: ["columns": columns, "from": from])
    }

    /// The item's values for the index columns; a missing value, or one of the wrong type, is null.
    func values(value: JSONValue, metadata: JSONValue) -> [(JSONValue, ColumnType)] {
        table.columns.map { column in
            guard let source = sources[column.name] else { return (.null, column.type) }
            var current: JSONValue? = source.fromMetadata ? metadata : value
            for part in source.path {
                if let index = Int(part), case .array = current { current = current?[index] } else { current = current?[part] }
            }
            guard let found = current, column.type.accepts(found) else { return (.null, column.type) }
            return (found, column.type)
        }
    }

    var createSQL: [String] {
        let columns = ["\"item\" INTEGER PRIMARY KEY REFERENCES kv_items(id) ON DELETE CASCADE"] + table.columns.map(\.sql)
        return ["CREATE TABLE \(Identifier.quote(tableName)) (\(columns.joined(separator: ", ")))"]
            + table.columns.map { "CREATE INDEX \(Identifier.quote(tableName + "_" + $0.name)) ON \(Identifier.quote(tableName))(\(Identifier.quote($0.name)))" }
    }

    var insertSQL: String {
        let names = ["item"] + table.columns.map(\.name)
        return "INSERT OR REPLACE INTO \(Identifier.quote(tableName)) (\(names.map(Identifier.quote).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))"
    }
}
