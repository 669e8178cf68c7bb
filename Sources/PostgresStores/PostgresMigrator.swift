import Logging
import PostgresNIO

/// A store's schema as named, ordered migrations, each applied once and recorded in a table of its
/// own (`schemaTable`), all under one transaction-scoped advisory lock (`lock`) so that instances
/// starting together migrate once: what GRDB's `DatabaseMigrator` is to the SQLite stores.
///
/// ```swift
/// let migrator = PostgresMigrator(schemaTable: "patch_schema", lock: 0x68_79_62_70_6D_69_67, migrations: [
///     ("v1", ["CREATE TABLE patch_app (app TEXT PRIMARY KEY, keys TEXT NOT NULL)"]),
/// ])
/// ```
///
/// Add migrations at the end; never edit one that has shipped.
public struct PostgresMigrator: Sendable {
    public var schemaTable: String
    public var lock: Int64
    public var migrations: [(name: String, statements: [String])]

    public init(schemaTable: String, lock: Int64, migrations: [(name: String, statements: [String])]) {
        self.schemaTable = schemaTable
        self.lock = lock
        self.migrations = migrations
    }

    /// Creates the schema, or brings it up to the latest migration, in one transaction.
    public func migrate(on connection: PostgresConnection, logger: Logger) async throws {
        try await PostgresPool.transaction(on: connection, logger: logger) { connection in
            _ = try await connection.query("SELECT pg_advisory_xact_lock(\(lock))", logger: logger).collect()
            _ = try await connection.query(PostgresQuery(unsafeSQL: """
                CREATE TABLE IF NOT EXISTS \(schemaTable) (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                """), logger: logger).collect()
            let applied = try await connection.query(PostgresQuery(unsafeSQL: "SELECT COALESCE(MAX(version), 0) FROM \(schemaTable)"), logger: logger)
                .collect().first?.decode(Int.self) ?? 0
            for (index, migration) in migrations.enumerated() where index + 1 > applied {
                for statement in migration.statements {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).collect()
                }
                var insert = PostgresBindings()
                insert.append(index + 1)
                insert.append(migration.name)
                _ = try await connection.query(PostgresQuery(unsafeSQL: "INSERT INTO \(schemaTable) (version, name) VALUES ($1, $2)", binds: insert),
                                               logger: logger).collect()
            }
        }
    }
}
