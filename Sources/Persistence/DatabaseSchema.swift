import JSON

/// A database's schema as `storage.open` receives it:
/// `{version, tables: {NAME: {columns, primaryKey, indexes}}, migrations: {"2": [steps]}}`.
///
/// `tables` describes the latest version: a new database is created from it directly; an older one
/// is brought up by running each migration version node after its own, in order.
public struct DatabaseSchema: Sendable, Equatable {
    public var version: Int
    public var tables: [String: TableSchema]
    /// Version → the steps that bring version-1 to it.
    public var migrations: [Int: [MigrationStep]]
    /// The schema as it was given, stored in the database for processes that did not open it.
    public var source: JSONValue

    public init(version: Int, tables: [TableSchema], migrations: [Int: [MigrationStep]] = [:]) {
        self.version = version
        self.tables = Dictionary(uniqueKeysWithValues: tables.map { ($0.name, $0) })
        self.migrations = migrations
        var tablesObject = JSONObject()
        for table in tables { tablesObject.appendUnique(table.name, table.jsonValue) }
        source = ["version": .number(Double(version)), "tables": .object(tablesObject)]
    }

    public static let maximumVersion = 1_000_000

    /// Parses and checks a schema; `path` points at it in the caller's params (`/schema`). A table
    /// property `journal` reads declares the table's ``TableSchema/journal``; without a journal,
    /// such a property is refused as unknown.
    public static func parse(_ value: JSONValue, path: String, journal: (any DatabaseJournal.Type)? = nil) throws(PersistenceError) -> DatabaseSchema {
        guard let object = value.objectValue else {
            throw .invalid(path: path, message: "expected a schema {version, tables, migrations?}, got \(value.typeName)")
        }
        for key in object.keys where !["version", "tables", "migrations"].contains(key) {
            throw .invalid(path: JSONPointer.appending(path, key: key), message: "unknown schema property; expected version, tables or migrations")
        }
        guard let version = object["version"]?.intValue, version >= 1, version <= maximumVersion else {
            throw .invalid(path: path + "/version", message: "expected an integer from 1 to \(maximumVersion)")
        }
        guard let tablesObject = object["tables"]?.objectValue else {
            throw .invalid(path: path + "/tables", message: "expected an object of tables {NAME: {columns, primaryKey?, indexes?}}")
        }
        var tables: [String: TableSchema] = [:]
        var indexNames: Set<String> = []
        for (name, table) in tablesObject {
            let tablePath = JSONPointer.appending(path + "/tables", key: name)
            let parsed = try TableSchema.parse(name: name, table, path: tablePath, journal: journal)
            guard tables.keys.allSatisfy({ $0.lowercased() != name.lowercased() }) else {
                throw .invalid(path: tablePath, message: "table \(Quoted(name)) is declared twice (names are case-insensitive)")
            }
            for index in parsed.indexes {
                guard indexNames.insert(index.name.lowercased()).inserted else {
                    throw .invalid(path: tablePath + "/indexes", message: "index name \(Quoted(index.name)) is used twice")
                }
            }
            tables[name] = parsed
        }
        var migrations: [Int: [MigrationStep]] = [:]
        if let migrationsValue = object["migrations"] {
            guard let migrationsObject = migrationsValue.objectValue else {
                throw .invalid(path: path + "/migrations", message: "expected an object {\"VERSION\": [steps]}, got \(migrationsValue.typeName)")
            }
            for (key, stepsValue) in migrationsObject {
                let versionPath = JSONPointer.appending(path + "/migrations", key: key)
                guard let target = Int(key), String(target) == key, target >= 2, target <= version else {
                    throw .invalid(path: versionPath, message: "expected a version from 2 to the schema's version \(version), got \(Quoted(key))")
                }
                guard let items = stepsValue.arrayValue, !items.isEmpty else {
                    throw .invalid(path: versionPath, message: "expected a non-empty array of steps")
                }
                var steps: [MigrationStep] = []
                for (i, item) in items.enumerated() {
                    steps.append(try MigrationStep.parse(item, path: versionPath + "/\(i)", journal: journal))
                }
                migrations[target] = steps
            }
        }
        var schema = DatabaseSchema(version: version, tables: [], migrations: migrations)
        schema.tables = tables
        schema.source = value
        return schema
    }
}
