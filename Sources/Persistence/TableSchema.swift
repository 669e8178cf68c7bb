import JSON

/// A table as a schema declares it: `{"columns": {"id": "INTEGER", "title": "TEXT NOT NULL"},
/// "primaryKey": "id", "indexes": [{"columns": ["due"]}]}`.
///
/// Everything that names a column is checked against this before any SQL is written.
public struct TableSchema: Sendable, Equatable {
    public var name: String
    public private(set) var columns: [ColumnDefinition]
    /// Empty: the table is keyed by SQLite's rowid.
    public var primaryKey: [String]
    public var indexes: [IndexDefinition]
    /// What follows the table's writes, when its schema declares one (``DatabaseJournal``).
    public var journal: (any WriteJournal)?
    private var positions: [String: Int]

    public init(name: String, columns: [ColumnDefinition], primaryKey: [String] = [], indexes: [IndexDefinition] = []) {
        self.name = name
        self.columns = columns
        self.primaryKey = primaryKey
        self.indexes = indexes
        positions = Dictionary(columns.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    public func column(named name: String) -> ColumnDefinition? {
        positions[name].map { columns[$0] }
    }

    public func position(of name: String) -> Int? { positions[name] }

    /// True when the key is one INTEGER column: SQLite then assigns it (the rowid) when missing.
    var hasIntegerKey: Bool {
        primaryKey.count == 1 && column(named: primaryKey[0])?.type == .integer
    }

    public mutating func addColumn(_ column: ColumnDefinition) {
        positions[column.name] = columns.count
        columns.append(column)
    }

    mutating func renameColumn(_ from: String, to: String) {
        guard let index = positions[from] else { return }
        columns[index].name = to
        positions[from] = nil
        positions[to] = index
        primaryKey = primaryKey.map { $0 == from ? to : $0 }
        for i in indexes.indices { indexes[i].columns = indexes[i].columns.map { $0 == from ? to : $0 } }
    }

    mutating func dropColumn(_ name: String) {
        columns.removeAll { $0.name == name }
        positions = Dictionary(columns.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    public static func == (a: TableSchema, b: TableSchema) -> Bool {
        a.name == b.name && a.columns == b.columns && a.primaryKey == b.primaryKey && a.indexes == b.indexes
            && a.journal?.schemaProperty.name == b.journal?.schemaProperty.name && a.journal?.schemaProperty.value == b.journal?.schemaProperty.value
    }

    /// Parses one table of a schema; `path` points at it (`/schema/tables/tasks`). A property
    /// `journal` reads is the table's ``journal``.
    public static func parse(name: String, _ value: JSONValue, path: String, journal: (any DatabaseJournal.Type)? = nil) throws(PersistenceError) -> TableSchema {
        try Identifier.check(name, at: path, what: "table")
        guard let object = value.objectValue else {
            throw .invalid(path: path, message: "expected a table: {columns, primaryKey?, indexes?}, got \(value.typeName)")
        }
        let journalProperty = journal?.tableProperty
        for key in object.keys where !["columns", "primaryKey", "indexes"].contains(key) && key != journalProperty {
            throw .invalid(path: JSONPointer.appending(path, key: key),
                           message: "unknown table property; expected " + (journalProperty.map { "columns, primaryKey, indexes or " + $0 } ?? "columns, primaryKey or indexes"))
        }
        guard let columnsObject = object["columns"]?.objectValue, !columnsObject.isEmpty else {
            throw .invalid(path: path + "/columns", message: "expected an object of at least one column: {NAME: \"TYPE ...\"}")
        }
        var columns: [ColumnDefinition] = []
        var seen: Set<String> = []
        for (column, declaration) in columnsObject {
            let columnPath = JSONPointer.appending(path + "/columns", key: column)
            try Identifier.check(column, at: columnPath, what: "column")
            guard seen.insert(column.lowercased()).inserted else {
                throw .invalid(path: columnPath, message: "column \(Quoted(column)) is declared twice (names are case-insensitive)")
            }
            guard let text = declaration.stringValue else {
                throw .invalid(path: columnPath, message: "\(ColumnDefinition.grammar); got \(declaration.typeName)")
            }
            columns.append(try ColumnDefinition.parse(name: column, declaration: text, path: columnPath))
        }
        var table = TableSchema(name: name, columns: columns)
        if let key = object["primaryKey"] {
            var names: [(String, String)] = []
            switch key {
            case .string(let s): names = [(s, path + "/primaryKey")]
            case .array(let items):
                for (i, item) in items.enumerated() {
                    guard let s = item.stringValue else { throw .invalid(path: path + "/primaryKey/\(i)", message: "expected a column name, got \(item.typeName)") }
                    names.append((s, path + "/primaryKey/\(i)"))
                }
                guard !names.isEmpty else { throw .invalid(path: path + "/primaryKey", message: "expected at least one column") }
            default:
                throw .invalid(path: path + "/primaryKey", message: "expected a column name or an array of them, got \(key.typeName)")
            }
            for (column, columnPath) in names where table.column(named: column) == nil {
                throw .invalid(path: columnPath, message: "unknown column \(Quoted(column)); expected one of \(table.columns.map(\.name).joined(separator: ", "))")
            }
            table.primaryKey = names.map(\.0)
        }
        if let indexes = object["indexes"] {
            guard let items = indexes.arrayValue else { throw .invalid(path: path + "/indexes", message: "expected an array of indexes, got \(indexes.typeName)") }
            for (i, item) in items.enumerated() {
                let index = try IndexDefinition.parse(item, table: name, path: path + "/indexes/\(i)")
                for (c, column) in index.columns.enumerated() where table.column(named: column) == nil {
                    throw .invalid(path: path + "/indexes/\(i)" + (item.objectValue == nil ? "/\(c)" : "/columns/\(c)"),
                                   message: "unknown column \(Quoted(column)) in table \(Quoted(name))")
                }
                table.indexes.append(index)
            }
        }
        if let journal, let journalProperty, let declared = object[journalProperty] {
            table.journal = try journal.journal(declared, for: &table, path: path)
        }
        return table
    }

    /// CREATE TABLE and CREATE INDEX statements.
    var createSQL: [String] {
        var definitions = columns.map(\.sql)
        if !primaryKey.isEmpty {
            definitions.append("PRIMARY KEY (\(primaryKey.map(Identifier.quote).joined(separator: ", ")))")
        }
        return ["CREATE TABLE \(Identifier.quote(name)) (\(definitions.joined(separator: ", ")))"]
            + indexes.map { $0.createSQL(table: name) }
    }

    /// The table as a schema writes it.
    public var jsonValue: JSONValue {
        var columnsObject = JSONObject()
        for column in columns { columnsObject.appendUnique(column.name, .string(column.declaration)) }
        var object: JSONObject = ["columns": .object(columnsObject)]
        if !primaryKey.isEmpty { object["primaryKey"] = .array(primaryKey.map(JSONValue.string)) }
        if !indexes.isEmpty { object["indexes"] = .array(indexes.map(\.jsonValue)) }
        if let journal { object[journal.schemaProperty.name] = journal.schemaProperty.value }
        return .object(object)
    }
}
