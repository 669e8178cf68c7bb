// The Persistence module: SQLite through GRDB, below the services that share it (storage, kv,
// sync). One `DatabasePool` (WAL) per database file: concurrent reads, one serialized write path.
// It never takes SQL text from callers (names are checked, values bound) and never hands out
// anything live: records leave as values. It knows nothing of sync: what follows a table's writes
// (SyncClient's journal) plugs in through `WriteJournal` and `DatabaseJournal`.
import Foundation
import GRDB
import JSON
import SystemIO

/// One database: its pool, its schema, and the change log its one write path feeds. The generic
/// DataCenter (strong business) that composes the database's ``Table``s; a business DataCenter
/// wraps one and offers business operations on top.
///
/// ```swift
/// let center = try DataCenterRegistry().dataCenter(directory: dataDir, name: "tasks", create: true)
/// try await center.open(schema: schema)
/// let open = try await center.read { db in try center.table("tasks").find(QueryCommand(table: ...), in: db) }
/// ```
public final class DataCenter: Sendable {
    public let name: String
    public let path: String
    public let changes: ChangeLog
    let pool: DatabasePool
    private let current: Locked<DatabaseSchema?>
    /// The kind of journal its schemas may declare, and this database's instance of it.
    public let journalType: (any DatabaseJournal.Type)?
    let journal: (any DatabaseJournal)?
    /// Opened for reading only, since the file could not be opened for writing: every write fails
    /// with reason read_only. ``DataCenterRegistry`` opens the file again once it is writable.
    public let isReadOnly: Bool

    public init(name: String, path: String, journal: (any DatabaseJournal.Type)? = nil) throws(PersistenceError) {
        self.name = name
        self.path = path
        journalType = journal
        self.journal = journal?.init()
        changes = ChangeLog()
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.maximumReaderCount = 4
        configuration.label = name
        configuration.prepareDatabase { db in
            // WAL + NORMAL: a commit survives the process being killed (the WAL is written before the
            // commit returns); only an OS crash or power loss may lose the last commits.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            isReadOnly = false
        } catch {
            // A file that cannot be opened for writing (read-only, immutable, on a read-only
            // mount) is opened for reading: what it holds stays readable, each write is read_only.
            let failure = PersistenceError.cannotOpen(path, error)
            guard case .failed("read_only", _, _) = failure, FileManager.default.fileExists(atPath: path) else { throw failure }
            configuration.readonly = true
            do { pool = try DatabasePool(path: path, configuration: configuration) } catch { throw failure }
            isReadOnly = true
        }
        current = Locked(nil)
        try loadStoredSchema()
    }

    /// The cap ``limit(bytes:)`` set, if any.
    private let quota = Locked<Int?>(nil)

    /// Caps the database file at `bytes` (SQLite's page limit on the one writer connection): a
    /// write that would grow the file past it fails with reason "quota" and is rolled back, as on
    /// a full disk. A file already larger stays readable, and writes that do not grow it succeed.
    public func limit(bytes: Int) throws(PersistenceError) {
        guard quota.withLock({ $0 }) != bytes else { return }
        do {
            try pool.writeWithoutTransaction { db in
                let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
                try db.execute(sql: "PRAGMA max_page_count = \(max(1, bytes / pageSize))")
            }
        } catch {
            throw .wrap(error)
        }
        quota.withLock { $0 = bytes }
    }

    /// `error`, or when it is a full disk at the quota's size, the quota's error.
    private func quotaFailure(_ error: PersistenceError) -> PersistenceError {
        guard case .failed("disk_full", _, let details) = error, let bytes = quota.withLock({ $0 }),
              let (pages, pageSize) = try? pool.read({ db in
                  (try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0, try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096)
              }),
              (pages + 16) * pageSize >= bytes else { return error }
        var more = details
        more["limitBytes"] = .number(Double(bytes))
        return .failed(reason: "quota", message: "database \(Quoted(name)) is at its quota of \(bytes) bytes", details: more)
    }

    /// The schema the database was last opened with (here or by an earlier process).
    public var schema: DatabaseSchema? { current.withLock { $0 } }

    /// The database's version (`PRAGMA user_version`): 0 for one never opened with a schema.
    public func version() throws(PersistenceError) -> Int {
        do { return try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 } } catch { throw .wrap(error) }
    }

    private func loadStoredSchema() throws(PersistenceError) {
        do {
            let text: String? = try pool.read { db in
                guard try db.tableExists("_hybrid_schema") else { return nil }
                return try String.fetchOne(db, sql: "SELECT schema FROM _hybrid_schema WHERE id = 1")
            }
            guard let text else { return }
            let schema = try DatabaseSchema.parse(try JSONParser.parse(text), path: "/schema", journal: journalType)
            current.withLock { $0 = schema }
        } catch {
            throw .failed(reason: "schema", message: "\(path): the stored schema is unreadable: \(error)", details: [:])
        }
    }

    /// The table named `name`, checked against the schema; `path` is where the name sits in the
    /// caller's params.
    public func table(_ name: String, path: String = "/table") throws(PersistenceError) -> Table {
        guard let schema else {
            throw .failed(reason: "unknown_database", message: "database \(Quoted(self.name)) has no schema; call open first", details: ["database": .string(self.name)])
        }
        guard let table = schema.tables[name] else {
            throw .invalid(path: path, message: "unknown table \(Quoted(name)) in database \(Quoted(self.name)); expected one of \(schema.tables.keys.sorted().joined(separator: ", "))")
        }
        return Table(schema: table)
    }

    // MARK: - Reading and writing

    /// Reads in a snapshot of its own, concurrently with other reads and with the writer.
    public func read<T: Sendable>(_ body: @escaping @Sendable (ReadSession) throws -> T) async throws(PersistenceError) -> T {
        do { return try await pool.read { db in try body(ReadSession(db: db)) } } catch { throw .wrap(error) }
    }

    /// The synchronous read, for callers on a thread of their own (inline actions, benchmarks).
    public func readNow<T>(_ body: (ReadSession) throws -> T) throws(PersistenceError) -> T {
        do { return try pool.read { db in try body(ReadSession(db: db)) } } catch { throw .wrap(error) }
    }

    /// One statement's read on a reader, without the BEGIN/COMMIT `readNow` wraps around it: a
    /// single SELECT is its own consistent snapshot. For point reads on the hot path (`kv.get`).
    public func readStatementNow<T>(_ body: (ReadSession) throws -> T) throws(PersistenceError) -> T {
        do { return try pool.unsafeRead { db in try body(ReadSession(db: db)) } } catch { throw .wrap(error) }
    }

    /// The one write path: runs `body` in an immediate transaction on the serialized writer; when
    /// it commits, publishes the events the body recorded, before the next write starts. A body
    /// that throws rolls back and publishes nothing.
    ///
    /// It waits for the writer on the calling thread rather than through GRDB's async hop: a
    /// transaction here lasts microseconds to milliseconds, and the hop cost more than the wait
    /// (kv.set one per transaction).
    public func write<T: Sendable>(_ body: @escaping @Sendable (WriteSession) throws -> T) async throws(PersistenceError) -> T {
        if Task.isCancelled { throw .failed("cancelled", "the operation was cancelled") }
        return try writeNow(body)
    }

    /// The synchronous write, for callers on a thread of their own (benchmarks, tests).
    public func writeNow<T>(_ body: (WriteSession) throws -> T) throws(PersistenceError) -> T {
        do {
            return try pool.writeWithoutTransaction { db in try self.transaction(db, body) }
        } catch {
            throw quotaFailure(.wrap(error))
        }
    }

    private func transaction<T>(_ db: Database, _ body: (WriteSession) throws -> T) throws -> T {
        let session = WriteSession(db: db, journal: journal)
        // BEGIN and COMMIT as prepared statements: GRDB's inTransaction parses and runs them
        // through its general statement path each time, a tenth of a one-row transaction.
        let begin = try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION")
        let commit = try db.cachedStatement(sql: "COMMIT TRANSACTION")
        try SQLiteBinding.step(begin, db: db)
        let result: T
        do {
            result = try body(session)
            try SQLiteBinding.step(commit, db: db)
        } catch {
            // SQLite may have rolled back on its own already (some failed COMMITs, SQLITE_FULL).
            if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK TRANSACTION") }
            session.transactionJournal?.rollBack()
            throw error
        }
        session.transactionJournal?.commit()
        changes.publish(session.events, dropped: session.droppedEvents)
        return result
    }

    // MARK: - Schema and migrations

    /// Creates the database from `schema`, or migrates it version node by version node, each in
    /// its own transaction. A failing step rolls its version back, leaves the database at the
    /// previous version and names the step. Returns the version reached.
    @discardableResult
    public func open(schema: DatabaseSchema) async throws(PersistenceError) -> Int {
        if journal == nil, let tracked = schema.tables.values.first(where: { $0.journal != nil }) {
            throw .failed(reason: "schema", message: "table \(Quoted(tracked.name)) declares \(Quoted(tracked.journal!.schemaProperty.name)), which database \(Quoted(name)) was not made to journal; make its DataCenterRegistry with that journal",
                          details: ["table": .string(tracked.name)])
        }
        if isReadOnly { return try await openForReading(schema: schema) }
        do {
            let previous = self.schema
            let version = try await pool.writeWithoutTransaction { db in
                if let previous, previous.version != schema.version { try self.journal?.willMigrate(from: previous, in: db) }
                let version = try self.migrate(db, to: schema)
                try self.journal?.didOpen(schema, in: db)
                return version
            }
            current.withLock { $0 = schema }
            return version
        } catch {
            throw quotaFailure(.wrap(error))
        }
    }

    /// `open(schema:)` on a file opened for reading: the database must already be at the schema's
    /// version with its tables, since nothing can be created or migrated.
    private func openForReading(schema: DatabaseSchema) async throws(PersistenceError) -> Int {
        do {
            try await pool.read { db in
                let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                guard version == schema.version else {
                    throw PersistenceError.failed(reason: "read_only", message: "\(path) cannot be written, and the database is at version \(version), not the schema's \(schema.version)",
                                                  details: ["version": .number(Double(version))])
                }
                try verify(schema, db: db, version: version)
            }
        } catch {
            throw .wrap(error)
        }
        current.withLock { $0 = schema }
        return schema.version
    }

    private func migrate(_ db: Database, to schema: DatabaseSchema) throws -> Int {
        let from = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if from > schema.version {
            throw PersistenceError.failed(reason: "migration", message: "database \(Quoted(name)) is at version \(from), newer than the schema's version \(schema.version)",
                                          details: ["version": .number(Double(from)), "schemaVersion": .number(Double(schema.version))])
        }
        if from == 0 {
            try db.inTransaction(.immediate) {
                for table in schema.tables.values.sorted(by: { $0.name < $1.name }) {
                    for sql in table.createSQL { try db.execute(sql: sql) }
                }
                try store(schema, db: db)
                try db.execute(sql: "PRAGMA user_version = \(schema.version)")
                return .commit
            }
            return schema.version
        }
        guard from < schema.version else {
            try db.inTransaction(.immediate) {
                try verify(schema, db: db, version: from)
                try store(schema, db: db)
                return .commit
            }
            return from
        }
        for version in (from + 1)...schema.version {
            guard let steps = schema.migrations[version] else {
                throw PersistenceError.failed(reason: "migration", message: "no migration to version \(version): the database is at version \(version - 1) and schema.migrations has no \"\(version)\"",
                                              details: ["version": .number(Double(version)), "databaseVersion": .number(Double(version - 1))])
            }
            try db.inTransaction(.immediate) {
                for (index, step) in steps.enumerated() {
                    do {
                        for sql in step.sql { try db.execute(sql: sql) }
                    } catch let error as DatabaseError {
                        throw PersistenceError.failed(
                            reason: "migration",
                            message: "migration to version \(version), step \(index) (\(step.name)) failed: \(error.message ?? "\(error.resultCode)"); the database stays at version \(version - 1)",
                            details: ["version": .number(Double(version)), "step": .number(Double(index)), "op": .string(step.name),
                                      "path": .string("/schema/migrations/\(version)/\(index)"), "databaseVersion": .number(Double(version - 1))])
                    }
                }
                if version == schema.version { try verify(schema, db: db, version: version) }
                try db.execute(sql: "PRAGMA user_version = \(version)")
                if version == schema.version { try store(schema, db: db) }
                return .commit
            }
        }
        return schema.version
    }

    /// After the last migration, the tables must be what the schema declares: a migration that
    /// conflicts with the declared tables is refused (and its version rolled back).
    private func verify(_ schema: DatabaseSchema, db: Database, version: Int) throws {
        for table in schema.tables.values.sorted(by: { $0.name < $1.name }) {
            guard try db.tableExists(table.name) else {
                throw PersistenceError.failed(reason: "migration", message: "at version \(version), table \(Quoted(table.name)) of the schema does not exist in the database; a migration step should create it",
                                              details: ["table": .string(table.name), "version": .number(Double(version))])
            }
            let actual = Set(try db.columns(in: table.name).map { $0.name.lowercased() })
            let declared = Set(table.columns.map { $0.name.lowercased() })
            if actual != declared {
                throw PersistenceError.failed(
                    reason: "migration",
                    message: "at version \(version), table \(Quoted(table.name)) has columns \(actual.sorted().joined(separator: ", ")) but the schema declares \(declared.sorted().joined(separator: ", ")); the migrations and the tables disagree",
                    details: ["table": .string(table.name), "version": .number(Double(version)), "databaseVersion": .number(Double(version - 1))])
            }
        }
    }

    private func store(_ schema: DatabaseSchema, db: Database) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS _hybrid_schema (id INTEGER PRIMARY KEY CHECK (id = 1), schema TEXT NOT NULL)")
        try db.execute(sql: "INSERT OR REPLACE INTO _hybrid_schema (id, schema) VALUES (1, ?)", arguments: [JSONWriter.write(schema.source)])
    }

    /// `PRAGMA integrity_check`: "ok" for a sound file.
    public func integrityCheck() throws(PersistenceError) -> String {
        do { return try pool.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ") } } catch { throw .wrap(error) }
    }
}
