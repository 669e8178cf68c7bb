import JSON

/// One step of a migration version node: `{"op": "addColumn", "table": "tasks", "column": "due",
/// "type": "INTEGER"}`. Steps are parsed into this enum and SQL is written from it.
public enum MigrationStep: Sendable, Equatable {
    case addColumn(table: String, column: ColumnDefinition)
    case renameColumn(table: String, from: String, to: String)
    case dropColumn(table: String, column: String)
    case createTable(TableSchema)
    case dropTable(String)
    case createIndex(table: String, IndexDefinition)
    case dropIndex(String)

    static let operations = "addColumn, renameColumn, dropColumn, createTable, dropTable, createIndex, dropIndex"

    var name: String {
        switch self {
        case .addColumn: "addColumn"
        case .renameColumn: "renameColumn"
        case .dropColumn: "dropColumn"
        case .createTable: "createTable"
        case .dropTable: "dropTable"
        case .createIndex: "createIndex"
        case .dropIndex: "dropIndex"
        }
    }

    static func parse(_ value: JSONValue, path: String, journal: (any DatabaseJournal.Type)? = nil) throws(PersistenceError) -> MigrationStep {
        guard let object = value.objectValue else {
            throw .invalid(path: path, message: "expected a step {op, table, ...}, got \(value.typeName)")
        }
        func string(_ key: String, what: String) throws(PersistenceError) -> String {
            guard let v = object[key] else { throw .invalid(path: path + "/" + key, message: "expected a \(what) name (missing)") }
            guard let s = v.stringValue else { throw .invalid(path: path + "/" + key, message: "expected a \(what) name, got \(v.typeName)") }
            try Identifier.check(s, at: path + "/" + key, what: what)
            return s
        }
        guard let op = object["op"]?.stringValue else {
            throw .invalid(path: path + "/op", message: "expected one of \(operations)")
        }
        switch op {
        case "addColumn":
            let table = try string("table", what: "table")
            let column = try string("column", what: "column")
            guard let type = object["type"]?.stringValue else { throw .invalid(path: path + "/type", message: ColumnDefinition.grammar) }
            let definition = try ColumnDefinition.parse(name: column, declaration: type, path: path + "/type")
            if definition.notNull && definition.defaultValue == nil {
                throw .invalid(path: path + "/type", message: "a column added to an existing table must be nullable or have a DEFAULT")
            }
            if definition.unique {
                throw .invalid(path: path + "/type", message: "SQLite cannot add a UNIQUE column; add the column, then a unique index (createIndex)")
            }
            return .addColumn(table: table, column: definition)
        case "renameColumn":
            return .renameColumn(table: try string("table", what: "table"), from: try string("from", what: "column"), to: try string("to", what: "column"))
        case "dropColumn":
            return .dropColumn(table: try string("table", what: "table"), column: try string("column", what: "column"))
        case "createTable":
            let table = try string("table", what: "table")
            guard let definition = object["definition"] else { throw .invalid(path: path + "/definition", message: "expected a table: {columns, primaryKey?, indexes?} (missing)") }
            return .createTable(try TableSchema.parse(name: table, definition, path: path + "/definition", journal: journal))
        case "dropTable":
            return .dropTable(try string("table", what: "table"))
        case "createIndex":
            let table = try string("table", what: "table")
            return .createIndex(table: table, try IndexDefinition.parse(value, table: table, path: path))
        case "dropIndex":
            return .dropIndex(try string("name", what: "index"))
        default:
            throw .invalid(path: path + "/op", message: "expected one of \(operations), got \(Quoted(op))")
        }
    }

    var sql: [String] {
        switch self {
        case .addColumn(let table, let column): ["ALTER TABLE \(Identifier.quote(table)) ADD COLUMN \(column.sql)"]
        case .renameColumn(let table, let from, let to): ["ALTER TABLE \(Identifier.quote(table)) RENAME COLUMN \(Identifier.quote(from)) TO \(Identifier.quote(to))"]
        case .dropColumn(let table, let column): ["ALTER TABLE \(Identifier.quote(table)) DROP COLUMN \(Identifier.quote(column))"]
        case .createTable(let table): table.createSQL
        case .dropTable(let table): ["DROP TABLE \(Identifier.quote(table))"]
        case .createIndex(let table, let index): [index.createSQL(table: table).replacingOccurrences("IF NOT EXISTS ", "")]
        case .dropIndex(let name): ["DROP INDEX \(Identifier.quote(name))"]
        }
    }
}
