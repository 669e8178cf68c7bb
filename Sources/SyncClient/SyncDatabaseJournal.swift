import GRDB
import JSON
import Persistence

/// Sync's journal as a database knows it: the `"sync"` property of a table (``SyncPolicy``), the
/// bookkeeping tables it keeps beside the app's (``SyncTables``), and the database's deferred
/// inserts (``DeferredInserts``). An app run's ``DataCenterRegistry`` is made with it, so that the
/// storage service's writes to a synced table are journaled and the sync service reads them.
///
/// ```swift
/// let registry = DataCenterRegistry(journal: SyncDatabaseJournal.self)
/// ```
public final class SyncDatabaseJournal: DatabaseJournal {
    public static let tableProperty = "sync"

    let deferredInserts = DeferredInserts()

    public init() {}

    /// A synced table is keyed by one TEXT column (a UUID, so devices never collide) and its values
    /// travel as JSON, so no BLOB columns; a one-way table gains its bookkeeping columns.
    public static func journal(_ value: JSONValue, for table: inout TableSchema, path: String) throws(Persistence.PersistenceError) -> any WriteJournal {
        let policy = try SyncPolicy.parse(value, path: path + "/" + tableProperty)
        guard table.primaryKey.count == 1, let key = table.column(named: table.primaryKey[0]), key.type == .text else {
            throw .invalid(path: path + "/primaryKey", message: "a synced table needs a primary key of one TEXT column (a UUID, so that devices never collide)")
        }
        if let blob = table.columns.first(where: { $0.type == .blob }) {
            throw .invalid(path: JSONPointer.appending(path + "/columns", key: blob.name), message: "a synced table cannot have BLOB columns: its rows travel as JSON")
        }
        if let scope = policy.scope {
            guard let column = table.column(named: scope), column.type == .text else {
                throw .invalid(path: path + "/" + tableProperty + "/scope", message: "expected a TEXT column of this table holding each row's scope, got \(Quoted(scope))")
            }
        }
        if policy.mode == .oneWay {
            for (name, declaration) in SyncPolicy.oneWayColumns where table.column(named: name) == nil {
                table.addColumn(try ColumnDefinition.parse(name: name, declaration: declaration, path: path + "/" + tableProperty))
            }
        }
        return SyncJournal(policy: policy)
    }

    /// A migration may change the rows deferred inserts read: they take their rows first.
    public func willMigrate(from previous: DatabaseSchema, in db: Database) throws {
        try SyncJournal.materializeAllDeferredInserts(schema: previous, db: db)
    }

    public func didOpen(_ schema: DatabaseSchema, in db: Database) throws {
        if schema.tables.values.contains(where: { $0.sync != nil }) {
            try SyncTables.create(in: db)
        }
        deferredInserts.reset()
    }
}
