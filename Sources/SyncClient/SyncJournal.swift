import Foundation
import GRDB
import GRDBSQLite
import JSON
import Persistence
import Synchronization

/// Records local writes to synced tables as sync operations, at the one write path and inside the
/// write's own transaction: no write escapes sync, and none is journaled without landing. A synced
/// table's schema carries one (``TableSchema/journal``), with the table's policy; ``Table`` calls
/// it at each write (``WriteJournal``).
///
/// - two-way: every write is an operation in `_hybrid_sync_outbox`; an insert's row is read when
///   the operation leaves (``DeferredInserts``); an update whose filter a batch op can carry is
///   that one op.
/// - one-way: every write leaves a DirtyList entry under the row's new `_identifier`; a delete is
///   logical (`_deleted`) until the server confirms it, and hidden from every query meanwhile.
public struct SyncJournal: WriteJournal {
    public let policy: SyncPolicy

    public init(policy: SyncPolicy) { self.policy = policy }

    /// Milliseconds since 1970, strictly increasing within the process: two writes in the same
    /// millisecond must still order as they happened, since (timestamp, opId) decides which wins.
    private static let last = Mutex(0.0)

    static func timestamp() -> Double {
        let now = (Date().timeIntervalSince1970 * 1000).rounded(.down)
        return last.withLock { last in
            last = max(now, last + 0.001)
            return last
        }
    }

    /// 64 random bits drawn once per process, then a counter: unique across devices (a collision
    /// needs two processes to draw the same 64 bits) at the cost of an increment, where a UUID
    /// costs a read of the system's random source per write.
    private static let prefix: String = {
        var generator = SystemRandomNumberGenerator()
        let hex = String(generator.next() as UInt64, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }()
    private static let counter = Mutex(UInt64(0))

    static func newIdentifier() -> String {
        let n = counter.withLock { value -> UInt64 in
            value += 1
            return value
        }
        // Written into one buffer: concatenation and String(radix:) cost more than the insert's bind.
        let digits = max(1, (64 - n.leadingZeroBitCount + 3) / 4)
        return String(unsafeUninitializedCapacity: 17 + digits) { buffer in
            var i = 0
            for byte in prefix.utf8 { buffer[i] = byte; i += 1 }
            buffer[i] = UInt8(ascii: "-")
            for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
                i += 1
                buffer[i] = hexDigits[Int((n >> UInt64(shift)) & 0xF)]
            }
            return i + 1
        }
    }
    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static let insertSQL = "INSERT INTO _hybrid_sync_outbox (op_id, table_name, data_id, type, data, timestamp) VALUES (?, ?, ?, ?, ?, ?)"

    static func record(opId: String, table: String, dataId: String, type: String, data: JSONValue?, in session: WriteSession) throws {
        try Writer(session).record(opId: opId, table: table, dataId: dataId, type: type, data: data)
    }

    /// The to-sync insert of one write path call, prepared once for all its rows.
    struct Writer {
        let statement: Statement
        let db: Database

        init(_ session: WriteSession) throws {
            db = session.db
            statement = try db.cachedStatement(sql: SyncJournal.insertSQL)
        }

        /// Returns the entry's seq.
        @discardableResult
        func record(opId: String, table: String, dataId: String, type: String, data: JSONValue?) throws -> Int64 {
            let raw = statement.sqliteStatement
            sqlite3_reset(raw)
            SQLiteBinding.bindText(opId, at: 1, in: raw)
            SQLiteBinding.bindText(table, at: 2, in: raw)
            SQLiteBinding.bindText(dataId, at: 3, in: raw)
            SQLiteBinding.bindText(type, at: 4, in: raw)
            if let data { SQLiteBinding.bindText(JSONWriter.bytes(data), at: 5, in: raw) } else { sqlite3_bind_null(raw, 5) }
            sqlite3_bind_double(raw, 6, SyncJournal.timestamp())
            try SQLiteBinding.step(statement, db: db)
            return sqlite3_last_insert_rowid(sqlite3_db_handle(raw))
        }
    }

    // MARK: - Deferred inserts (see ``DeferredInserts``)

    /// The row `dataId` of `table` as the table stores it now, every column, bookkeeping included;
    /// nil if there is none. Read past a one-way table's hiding of logically deleted rows.
    /// One point read on a cached statement: a push calls this once per deferred insert or dirty
    /// row, so it builds no schema copy and compiles no query.
    static func storedRow(_ table: TableSchema, dataId: String, db: Database) throws -> JSONObject? {
        let sql = "SELECT " + table.columns.map { Identifier.quote($0.name) }.joined(separator: ", ") + " FROM " + Identifier.quote(table.name)
            + " WHERE " + Identifier.quote(table.primaryKey[0]) + " = ?"
        var found: JSONObject?
        try SQLiteBinding.query(try db.cachedStatement(sql: sql), [(.string(dataId), .text)], db: db) { row in
            var members: [JSONObject.Member] = []
            members.reserveCapacity(table.columns.count)
            for (i, column) in table.columns.enumerated() {
                members.append((key: column.name, value: SQLiteBinding.column(Int32(i), as: column.type, in: row)))
            }
            found = JSONObject(members)
        }
        return found
    }

    /// What a deferred insert carries: its row as stored (it has not changed since the insert).
    /// A row gone without its insert taking it first can only be a database changed behind the
    /// write path; the operation then carries the key alone.
    static func deferredData(_ table: TableSchema, dataId: String, db: Database) throws -> JSONObject {
        guard let row = try storedRow(table, dataId: dataId, db: db) else { return [table.primaryKey[0]: .string(dataId)] }
        return canonical(row, schema: table)
    }

    /// Writes `row`, the row as it is before a change, into the deferred insert at outbox `seq`.
    static func materialize(_ row: JSONObject, seq: Int64, table: TableSchema, dataId: String, in session: WriteSession) throws {
        try session.db.cachedStatement(sql: "UPDATE _hybrid_sync_outbox SET data = ? WHERE seq = ? AND type = 'insert' AND data IS NULL AND table_name = ? AND data_id = ?")
            .execute(arguments: [JSONWriter.write(.object(canonical(row, schema: table))), seq, table.name, dataId])
        DeferredInsertChanges.of(session).settle(table: table.name, dataId: dataId)
    }

    /// Before an update or delete: the rows it matches that still have a deferred insert take
    /// their current values into it.
    static func materializeDeferredInserts(matching query: QueryCommand, table: TableSchema, in session: WriteSession) throws {
        let changes = DeferredInsertChanges.of(session)
        guard table.sync?.mode == .twoWay, try changes.mayHaveDeferredInserts(table: table.name) else { return }
        let key = table.primaryKey[0]
        let matching = try QueryCommand(table: table, where: query.filter)
        for row in try Table(schema: table).find(matching, in: session) {
            guard let dataId = row[key]?.stringValue, let seq = try changes.seq(table: table.name, dataId: dataId) else { continue }
            try materialize(row, seq: seq, table: table, dataId: dataId, in: session)
        }
    }

    /// Every deferred insert takes its row: before a migration changes what the rows hold.
    static func materializeAllDeferredInserts(schema: DatabaseSchema, db: Database) throws {
        guard try db.tableExists("_hybrid_sync_outbox") else { return }
        try db.inTransaction(.immediate) {
            let update = try db.cachedStatement(sql: "UPDATE _hybrid_sync_outbox SET data = ? WHERE seq = ?")
            for entry in try Row.fetchAll(db, sql: "SELECT seq, table_name, data_id FROM _hybrid_sync_outbox WHERE type = 'insert' AND data IS NULL") {
                guard let table = schema.tables[entry["table_name"] as String] else { continue }
                let data = try deferredData(table, dataId: entry["data_id"], db: db)
                try update.execute(arguments: [JSONWriter.write(.object(data)), entry["seq"] as Int64])
            }
            return .commit
        }
    }

    /// The row's key as sync names it: the single TEXT primary key's value.
    /// `path` and `index` point at the record (`/records`, 0).
    static func dataId(_ record: JSONObject, schema: TableSchema, index: Int, path: String) throws(Persistence.PersistenceError) -> String {
        let key = schema.primaryKey[0]
        guard let id = record[key]?.stringValue, !id.isEmpty else {
            throw .invalid(path: JSONPointer.appending(path + "/\(index)", key: key), message: "a synced table needs its key \(Quoted(key)) on every record: a non-empty string (a UUID)")
        }
        return id
    }

    /// Values as the table reads them back (booleans as booleans, integers as numbers), so that
    /// every replica and the server compare the same JSON.
    static func canonical(_ values: JSONObject, schema: TableSchema) -> JSONObject {
        var out = JSONObject(minimumCapacity: values.count)
        for (name, value) in values {
            guard let column = schema.column(named: name), !SyncPolicy.isBookkeeping(name) else { continue }
            out.appendUnique(name, column.type.canonical(value))
        }
        return out
    }

    /// A `where` a batch op can carry: plain equality and ne/lt/lte/gt/gte on columns, ANDed.
    /// Anything else ($or, in, like, isNull) is journaled row by row instead.
    static func batchFilter(_ filter: JSONValue?, schema: TableSchema) -> JSONObject? {
        guard let object = (filter ?? .object([:])).objectValue else { return nil }
        var out = JSONObject()
        for (key, value) in object {
            guard let column = schema.column(named: key) else { return nil }
            let value = value.objectValue.map { ops in
                JSONValue.object(JSONObject(ops.members.map { ($0.key, column.type.canonical($0.value)) }))
            } ?? column.type.canonical(value)
            if let ops = value.objectValue {
                var kept = JSONObject()
                for (op, operand) in ops {
                    if op == "eq" {
                        out[key] = operand
                    } else if ["ne", "lt", "lte", "gt", "gte"].contains(op), !operand.isNull {
                        kept[op] = operand
                    } else {
                        return nil
                    }
                }
                if !kept.isEmpty {
                    if out[key] != nil { return nil }
                    out[key] = .object(kept)
                }
            } else {
                if out[key] != nil { return nil }
                out[key] = value
            }
        }
        return out
    }
}

// MARK: - Following a synced table's writes

extension SyncJournal {
    public var schemaProperty: (name: String, value: JSONValue) { (SyncDatabaseJournal.tableProperty, policy.jsonValue) }

    public func inserting(into table: TableSchema, in session: WriteSession) throws -> any InsertJournal {
        try SyncInsertJournal(table: table, mode: policy.mode, session: session)
    }

    public func checkUpdate(setting values: JSONObject, table: TableSchema, path: String) throws(Persistence.PersistenceError) {
        let key = table.primaryKey[0]
        if values[key] != nil {
            throw .invalid(path: JSONPointer.appending(path, key: key), message: "the key of a synced row cannot change; delete it and insert another")
        }
    }

    /// A one-way row gets a new identifier per write: an ack for an earlier one must not clean this one.
    public var updateAssignments: [String] {
        policy.mode == .oneWay ? ["\"_identifier\" = lower(hex(randomblob(16)))", "\"_dirty\" = 1"] : []
    }

    /// A one-way delete is logical until the server confirms it (the row keeps travelling as a delete).
    public var deletion: JSONObject? { policy.mode == .oneWay ? ["_deleted": .number(1)] : nil }

    public func visibleCondition(qualifier: String) -> String? {
        policy.mode == .oneWay ? qualifier + "\"_deleted\" = 0" : nil
    }

    public func willChange(matching query: QueryCommand, in session: WriteSession) throws {
        try Self.materializeDeferredInserts(matching: query, table: query.table, in: session)
    }

    /// A two-way update whose filter a batch op can carry travels as that one op; any other is one
    /// op per row. A one-way update leaves a DirtyList entry per row under the row's new identifier.
    public func didUpdate(_ rows: [JSONObject], setting values: JSONObject, matching query: QueryCommand, in session: WriteSession) throws {
        let schema = query.table
        let key = schema.primaryKey[0]
        switch policy.mode {
        case .twoWay:
            let set = Self.canonical(values, schema: schema)
            // On a scoped table a batch must select one scope by equality and keep it (the server
            // refuses any other, so that a batch never reaches past the device's scopes).
            let scopedBatchFits = policy.scope.map { column in
                query.filter?.objectValue?[column]?.stringValue != nil && (set[column] == nil || set[column] == query.filter?.objectValue?[column])
            } ?? true
            if scopedBatchFits, let filter = Self.batchFilter(query.filter, schema: schema), rows.count != 1 || query.filter?.objectValue?[key] == nil {
                try Self.record(opId: Self.newIdentifier(), table: schema.name, dataId: "*", type: "batch",
                                data: ["where": .object(filter), "set": .object(set)], in: session)
                return
            }
            for row in rows {
                try Self.record(opId: Self.newIdentifier(), table: schema.name, dataId: row[key]?.stringValue ?? "", type: "update",
                                data: .object(set), in: session)
            }
        case .oneWay:
            for row in rows {
                try Self.record(opId: row["_identifier"]?.stringValue ?? Self.newIdentifier(), table: schema.name,
                                dataId: row[key]?.stringValue ?? "", type: row["_deleted"] == .number(1) ? "delete" : "update", data: nil, in: session)
            }
        }
    }

    public func didDelete(_ keys: [JSONObject], from table: TableSchema, in session: WriteSession) throws {
        let key = table.primaryKey[0]
        for row in keys {
            try Self.record(opId: Self.newIdentifier(), table: table.name, dataId: row[key]?.stringValue ?? "", type: "delete", data: nil, in: session)
        }
    }
}

extension TableSchema {
    /// How the table takes part in sync; nil for a table that does not.
    public var sync: SyncPolicy? { (journal as? SyncJournal)?.policy }
}

extension ColumnType {
    /// A value as this column reads it back.
    func canonical(_ value: JSONValue) -> JSONValue {
        switch (self, value) {
        case (.boolean, .number(let n)): .bool(n != 0)
        case (.integer, .bool(let b)), (.numeric, .bool(let b)): .number(b ? 1 : 0)
        default: value
        }
    }
}
