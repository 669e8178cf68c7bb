import GRDB
import GRDBSQLite
import JSON
import Persistence
import SyncProtocol

/// One execution of pulled operations inside one write transaction (see ``SyncReplica``): fold
/// them into the server state, record conflicts, rebase the local operations on the rows touched.
///
/// The outbox is read once, at the start, into memory: the rows a pull touches are then rebased
/// without a query each, and the outbox needs no index beyond its own order (an index would be one
/// more B-tree insert on every journaled write).
struct SyncExecution {
    struct RowKey: Hashable {
        var table: String
        var dataId: String
    }

    /// One outbox entry, as read at the start. A deferred insert (its data NULL: its row is as
    /// inserted) takes its row before the execution rewrites that row.
    private struct LocalOp {
        var seq: Int64
        var op: SyncOperation
        var state: String
        var deferred = false
    }

    let schema: DatabaseSchema
    let session: WriteSession
    let deviceId: String
    private var base: [RowKey: MaterializedRow] = [:]
    private var loaded: Set<RowKey> = []
    private var loadedTables: Set<String> = []
    private var changed: Set<RowKey> = []
    private var touched: [RowKey] = []
    private var touchedSet: Set<RowKey> = []
    private var execution = SyncReplica.Execution()
    private var outboxLoaded = false
    /// Local operations by row, and a table's batch operations, each in outbox order.
    private var localByRow: [RowKey: [LocalOp]] = [:]
    private var localBatches: [String: [LocalOp]] = [:]
    /// Op id → its row (or "*" and the table, for a batch), to find our own operations coming back.
    private var localIds: [String: RowKey] = [:]

    init(schema: DatabaseSchema, session: WriteSession, deviceId: String) {
        self.schema = schema
        self.session = session
        self.deviceId = deviceId
    }

    private var db: Database { session.db }

    /// `stored`: operations just stored in the to-execute table, by seq, as they were read.
    mutating func run(stored: [Int: LoggedOperation] = [:]) throws -> SyncReplica.Execution {
        let seqs = try Int.fetchAll(db, sql: "SELECT seq FROM _hybrid_sync_inbox ORDER BY seq")
        guard let lastSeq = seqs.last else { return execution }
        var pulled: [(op: SyncOperation, remote: Bool)] = []
        pulled.reserveCapacity(seqs.count)
        var othersOps: Set<Int> = []
        let readOne = try db.cachedStatement(sql: "SELECT op FROM _hybrid_sync_inbox WHERE seq = ?")
        for seq in seqs {
            let logged: LoggedOperation
            if let known = stored[seq] {
                logged = known
            } else {
                let value = try JSONParser.parse(try String.fetchOne(readOne, arguments: [seq]) ?? "null")
                do {
                    logged = try LoggedOperation.decode(value, at: "/ops")
                } catch {
                    throw PersistenceError.failed("protocol", "the server sent an operation this client cannot read: \(error)")
                }
            }
            // Pushed by a device that is not this one (compared as bytes, as the server does): an op
            // id of ours in it is someone else's reuse, never our op coming back.
            if !logged.deviceId.utf8.elementsEqual(deviceId.utf8) { othersOps.insert(pulled.count) }
            pulled.append((logged.operation, logged.deviceId != deviceId))
        }
        try db.execute(sql: "DELETE FROM _hybrid_sync_inbox WHERE seq <= ?", arguments: [lastSeq])
        return try execute(pulled, pushedByOthers: othersOps)
    }

    /// Folds `pulled` into the server state in order (`remote`: made by another device, or a row
    /// image from a snapshot), saves that state, and rebases the rows touched. `pushedByOthers`: the
    /// indices of ops another device is known to have pushed, which can never be ours coming back.
    mutating func execute(_ pulled: [(op: SyncOperation, remote: Bool)], pushedByOthers: Set<Int> = []) throws -> SyncReplica.Execution {
        try loadOutbox()
        try prefetchBase(pulled.lazy.filter { $0.op.type != .batch }.map { RowKey(table: $0.op.table, dataId: $0.op.dataId) })
        for (index, (op, remote)) in pulled.enumerated() {
            execution.executed += 1
            // An operation of ours coming back: the server's log carries it now, so base does too.
            // Op ids are unique per device only, so another device's op with one of our ids (a
            // guess, to suppress ours) is not taken for it.
            if !pushedByOthers.contains(index), let key = localIds.removeValue(forKey: op.opId) { try forget(op.opId, at: key) }
            guard let table = schema.tables[op.table], let sync = table.sync, sync.mode == .twoWay else { continue }
            if op.type == .batch {
                let change = try BatchChange(value: op.data.map(JSONValue.object), at: "/data")
                try loadTable(op.table)
                for key in base.keys.filter({ $0.table == op.table }).sorted(by: { $0.dataId < $1.dataId }) {
                    guard let current = base[key], let next = OperationFold.apply(change, of: op, to: current) else { continue }
                    try store(next, at: key, remote: remote, policy: sync.conflict)
                }
            } else {
                let key = RowKey(table: op.table, dataId: op.dataId)
                if let next = OperationFold.apply(op, to: try baseRow(key)) {
                    try store(next, at: key, remote: remote, policy: sync.conflict)
                }
            }
        }
        let saveBase = try db.cachedStatement(sql: "INSERT OR REPLACE INTO _hybrid_sync_base (table_name, data_id, data, deleted, timestamp, op_id) VALUES (?, ?, ?, ?, ?, ?)")
        let raw = saveBase.sqliteStatement
        for key in changed {
            guard let row = base[key] else { continue }
            // Bound in place: GRDB's argument array cost as much as the row's JSON.
            sqlite3_reset(raw)
            SQLiteBinding.bindText(key.table, at: 1, in: raw)
            SQLiteBinding.bindText(key.dataId, at: 2, in: raw)
            SQLiteBinding.bindText(JSONWriter.bytes(.object(row.data)), at: 3, in: raw)
            sqlite3_bind_int64(raw, 4, row.deleted ? 1 : 0)
            sqlite3_bind_double(raw, 5, row.timestamp)
            SQLiteBinding.bindText(row.opId, at: 6, in: raw)
            try SQLiteBinding.step(saveBase, db: db)
        }
        try rebase(touched)
        return execution
    }

    private mutating func loadOutbox() throws {
        guard !outboxLoaded else { return }
        outboxLoaded = true
        for entry in try Row.fetchAll(db, sql: "SELECT seq, op_id, table_name, data_id, type, data, timestamp, state FROM _hybrid_sync_outbox ORDER BY seq") {
            let type = SyncOperationType(rawValue: entry["type"]) ?? .update
            let text: String? = entry["data"]
            let op = SyncOperation(opId: entry["op_id"], dataId: entry["data_id"], table: entry["table_name"], type: type,
                                   data: text.flatMap { try? JSONParser.parse($0).objectValue }, timestamp: entry["timestamp"])
            let local = LocalOp(seq: entry["seq"], op: op, state: entry["state"], deferred: text == nil && type == .insert)
            let key = RowKey(table: op.table, dataId: op.dataId)
            localIds[op.opId] = key
            if op.dataId == "*" { localBatches[op.table, default: []].append(local) } else { localByRow[key, default: []].append(local) }
        }
    }

    private mutating func forget(_ opId: String, at key: RowKey) throws {
        let entries = key.dataId == "*" ? localBatches[key.table] ?? [] : localByRow[key] ?? []
        guard let index = entries.firstIndex(where: { $0.op.opId == opId }) else { return }
        try db.cachedStatement(sql: "DELETE FROM _hybrid_sync_outbox WHERE seq = ?").execute(arguments: [entries[index].seq])
        if entries[index].deferred { DeferredInsertChanges.of(session).settle(table: key.table, dataId: key.dataId) }
        var remaining = entries
        remaining.remove(at: index)
        if key.dataId == "*" { localBatches[key.table] = remaining } else { localByRow[key] = remaining.isEmpty ? nil : remaining }
    }

    private mutating func store(_ row: MaterializedRow, at key: RowKey, remote: Bool, policy: SyncPolicy.Conflict) throws {
        base[key] = row
        loaded.insert(key)
        changed.insert(key)
        if touchedSet.insert(key).inserted { touched.append(key) }
        if remote { try checkConflict(key, policy: policy, remote: row) }
    }

    private mutating func baseRow(_ key: RowKey) throws -> MaterializedRow? {
        if loaded.contains(key) { return base[key] }
        loaded.insert(key)
        let row = try Row.fetchOne(try db.cachedStatement(sql: "SELECT data, deleted, timestamp, op_id FROM _hybrid_sync_base WHERE table_name = ? AND data_id = ?"),
                                   arguments: [key.table, key.dataId])
        base[key] = row.map { Self.materialized(key.dataId, $0) }
        return base[key]
    }

    /// Reads the server state of `keys` in a few queries (up to 500 keys each) rather than one
    /// query per pulled operation; a key without a row is known to have none.
    private mutating func prefetchBase(_ keys: some Sequence<RowKey>) throws {
        var byTable: [String: [String]] = [:]
        for key in keys where loaded.insert(key).inserted {
            byTable[key.table, default: []].append(key.dataId)
        }
        for (table, dataIds) in byTable {
            for start in stride(from: 0, to: dataIds.count, by: 500) {
                let chunk = dataIds[start..<min(dataIds.count, start + 500)]
                let sql = "SELECT data_id, data, deleted, timestamp, op_id FROM _hybrid_sync_base WHERE table_name = ? AND data_id IN ("
                    + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")"
                for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments([table] + Array(chunk))) {
                    let dataId: String = row["data_id"]
                    base[RowKey(table: table, dataId: dataId)] = Self.materialized(dataId, row)
                }
            }
        }
    }

    private mutating func loadTable(_ table: String) throws {
        guard loadedTables.insert(table).inserted else { return }
        for row in try Row.fetchAll(db, sql: "SELECT data_id, data, deleted, timestamp, op_id FROM _hybrid_sync_base WHERE table_name = ?", arguments: [table]) {
            let key = RowKey(table: table, dataId: row["data_id"])
            guard loaded.insert(key).inserted else { continue }
            base[key] = Self.materialized(key.dataId, row)
        }
    }

    private static func materialized(_ dataId: String, _ row: Row) -> MaterializedRow {
        MaterializedRow(dataId: dataId, data: (try? JSONParser.parse(row["data"] as String))?.objectValue ?? [:],
                        deleted: row["deleted"], timestamp: row["timestamp"], opId: row["op_id"])
    }

    /// A remote change to a row with local operations not yet sent. Under `lastWriteWins` the fold
    /// has settled it (the rebase keeps whichever write is later); under `ask` the local operations
    /// wait, unsent, for `sync.resolve`.
    private mutating func checkConflict(_ key: RowKey, policy: SyncPolicy.Conflict, remote: MaterializedRow) throws {
        guard var entries = localByRow[key] else { return }
        let unsent = entries.indices.filter { ["pending", "failed", "conflict"].contains(entries[$0].state) }
        guard !unsent.isEmpty else { return }
        execution.conflicts += 1
        guard policy == .ask else { return }
        let open = try String.fetchOne(db, sql: "SELECT conflict_id FROM _hybrid_sync_conflicts WHERE table_name = ? AND data_id = ?", arguments: [key.table, key.dataId])
        let conflictId = open ?? SyncJournal.newIdentifier()
        if open == nil {
            let table = schema.tables[key.table]!
            let visible = try Table(schema: table).find(try QueryCommand(table: table, where: .object([table.primaryKey[0]: .string(key.dataId)])),
                                                       in: session).first
            try db.execute(sql: "INSERT INTO _hybrid_sync_conflicts (conflict_id, table_name, data_id, local, remote, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [conflictId, key.table, key.dataId, visible.map { JSONWriter.write(.object($0)) },
                                       remote.deleted ? nil : JSONWriter.write(.object(remote.data)), SyncJournal.timestamp() / 1000])
        }
        for index in unsent where entries[index].state != "conflict" {
            try db.execute(sql: "UPDATE _hybrid_sync_outbox SET state = 'conflict', conflict_id = ? WHERE seq = ?", arguments: [conflictId, entries[index].seq])
            entries[index].state = "conflict"
        }
        localByRow[key] = entries
    }

    /// Rewrites each row as the server state with the local operations not yet pulled back folded
    /// on top, in their order, by the server's rule.
    mutating func rebase(_ keys: [RowKey]) throws {
        try loadOutbox()
        for key in keys {
            guard let table = schema.tables[key.table] else { continue }
            var row = try baseRow(key)
            try takeRowIntoDeferredInsert(key, table: table)
            // A refused operation (see SyncReplica.packetRefused) no longer counts in its row.
            let local = ((localByRow[key] ?? []) + (localBatches[key.table] ?? [])).filter { $0.state != "refused" }.sorted { $0.seq < $1.seq }
            for entry in local {
                // Not sent yet: the server will log it after all that base holds (its clock orders writes).
                let op = OperationFold.asNewest(entry.op, over: row)
                if op.type == .batch {
                    guard let current = row, let change = try? BatchChange(value: op.data.map(JSONValue.object), at: "/data"),
                          let next = OperationFold.apply(change, of: op, to: current) else { continue }
                    row = next
                } else if let next = OperationFold.apply(op, to: row) {
                    row = next
                }
            }
            try write(row, key: key, table: table)
            execution.applied += 1
        }
    }

    /// The row is about to be rewritten: a deferred insert of it takes the row as it is first.
    private mutating func takeRowIntoDeferredInsert(_ key: RowKey, table: TableSchema) throws {
        guard var entries = localByRow[key], let index = entries.firstIndex(where: \.deferred) else { return }
        let data = try SyncJournal.deferredData(table, dataId: key.dataId, db: db)
        try SyncJournal.materialize(data, seq: entries[index].seq, table: table, dataId: key.dataId, in: session)
        entries[index].op.data = data
        entries[index].deferred = false
        localByRow[key] = entries
    }

    /// A table's statements for ``write``, prepared once per execution.
    private struct TableWriter {
        let exists: Statement
        let delete: Statement
        /// The last upsert used, and the columns it binds: pulled rows of a table mostly share one.
        var upsertNames: [String] = []
        var upsertColumns: [ColumnDefinition] = []
        var upsert: Statement?
    }

    private var writers: [String: TableWriter] = [:]

    private mutating func write(_ row: MaterializedRow?, key: RowKey, table: TableSchema) throws {
        let quoted = Identifier.quote(table.name)
        let keyColumn = table.primaryKey[0]
        var writer = try writers[table.name] ?? TableWriter(
            exists: db.cachedStatement(sql: "SELECT 1 FROM \(quoted) WHERE \(Identifier.quote(keyColumn)) = ?"),
            delete: db.cachedStatement(sql: "DELETE FROM \(quoted) WHERE \(Identifier.quote(keyColumn)) = ?"))
        defer { writers[table.name] = writer }
        var existed = false
        try SQLiteBinding.query(writer.exists, [(.string(key.dataId), .text)], db: db) { _ in existed = true }
        guard let row, !row.deleted else {
            guard existed else { return }
            try SQLiteBinding.execute(writer.delete, [(.string(key.dataId), .text)], db: db)
            session.record(ChangeEvent(kind: .delete, table: table.name, key: .string(key.dataId)))
            return
        }
        var values = JSONObject(minimumCapacity: row.data.count + 1)
        for (name, value) in row.data where name != keyColumn && table.column(named: name) != nil {
            values.appendUnique(name, value)
        }
        values.appendUnique(keyColumn, .string(key.dataId))
        if writer.upsert == nil || !values.members.lazy.map(\.key).elementsEqual(writer.upsertNames) {
            writer.upsertNames = values.members.map(\.key)
            writer.upsertColumns = writer.upsertNames.map { table.column(named: $0)! }
            writer.upsert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO \(quoted) (" + writer.upsertColumns.map { Identifier.quote($0.name) }.joined(separator: ", ")
                + ") VALUES (" + Array(repeating: "?", count: writer.upsertColumns.count).joined(separator: ", ") + ")")
        }
        try SQLiteBinding.execute(writer.upsert!, zip(values.members, writer.upsertColumns).map { ($0.value, $1.type) }, db: db)
        if session.recordsEvents { session.record(ChangeEvent(kind: existed ? .update : .insert, table: table.name, key: .string(key.dataId), record: values)) }
    }
}
