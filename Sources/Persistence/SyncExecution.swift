import GRDB
import JSON
import SyncProtocol

/// One execution of pulled operations inside one write transaction (see ``SyncReplica``): fold
/// them into the server state, record conflicts, rebase the local operations on the rows touched.
struct SyncExecution {
    struct RowKey: Hashable {
        var table: String
        var dataId: String
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

    init(schema: DatabaseSchema, session: WriteSession, deviceId: String) {
        self.schema = schema
        self.session = session
        self.deviceId = deviceId
    }

    private var db: Database { session.db }

    mutating func run() throws -> SyncReplica.Execution {
        let rows = try Row.fetchAll(db, sql: "SELECT seq, op FROM _hybrid_sync_inbox ORDER BY seq")
        guard !rows.isEmpty else { return execution }
        for row in rows {
            let value = try JSONParser.parse(row["op"] as String)
            let op: SyncOperation
            do {
                op = try SyncOperation.decode(value, at: "/ops")
            } catch {
                throw PersistenceError.failed("protocol", "the server sent an operation this client cannot read: \(error)")
            }
            execution.executed += 1
            // An operation of ours coming back: the server's log carries it now, so base does too.
            try db.cachedStatement(sql: "DELETE FROM _hybrid_sync_outbox WHERE op_id = ?").execute(arguments: [op.opId])
            guard let table = schema.tables[op.table], let sync = table.sync, sync.mode == .twoWay else { continue }
            let remote = value["deviceId"]?.stringValue != deviceId
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
        try db.execute(sql: "DELETE FROM _hybrid_sync_inbox WHERE seq <= ?", arguments: [rows.last!["seq"] as Int64])
        let saveBase = try db.cachedStatement(sql: "INSERT OR REPLACE INTO _hybrid_sync_base (table_name, data_id, data, deleted, timestamp, op_id) VALUES (?, ?, ?, ?, ?, ?)")
        for key in changed {
            guard let row = base[key] else { continue }
            try saveBase.execute(arguments: [key.table, key.dataId, JSONWriter.write(.object(row.data)), row.deleted, row.timestamp, row.opId])
        }
        try rebase(touched)
        return execution
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
        let local = try String.fetchAll(try db.cachedStatement(sql: "SELECT op_id FROM _hybrid_sync_outbox WHERE table_name = ? AND data_id = ? AND state IN ('pending', 'failed', 'conflict')"),
                                        arguments: [key.table, key.dataId])
        guard !local.isEmpty else { return }
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
        try db.execute(sql: "UPDATE _hybrid_sync_outbox SET state = 'conflict', conflict_id = ? WHERE table_name = ? AND data_id = ? AND state IN ('pending', 'failed')",
                       arguments: [conflictId, key.table, key.dataId])
    }

    /// Rewrites each row as the server state with the local operations not yet pulled back folded
    /// on top, in their order, by the server's rule.
    mutating func rebase(_ keys: [RowKey]) throws {
        for key in keys {
            guard let table = schema.tables[key.table] else { continue }
            var row = try baseRow(key)
            // data_id IN (row, '*'): both through the (table_name, data_id) index.
            let local = try Row.fetchAll(try db.cachedStatement(sql: """
                SELECT op_id, data_id, type, data, timestamp FROM _hybrid_sync_outbox
                WHERE table_name = ? AND data_id IN (?, '*') AND state IN ('pending', 'sending', 'acked', 'failed', 'conflict') ORDER BY seq
                """), arguments: [key.table, key.dataId])
            for entry in local {
                let op = SyncOperation(opId: entry["op_id"], dataId: entry["data_id"], table: key.table,
                                       type: SyncOperationType(rawValue: entry["type"]) ?? .update,
                                       data: (entry["data"] as String?).flatMap { try? JSONParser.parse($0).objectValue }, timestamp: entry["timestamp"])
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

    private func write(_ row: MaterializedRow?, key: RowKey, table: TableSchema) throws {
        let quoted = Identifier.quote(table.name)
        let keyColumn = table.primaryKey[0]
        let existed = try Bool.fetchOne(try db.cachedStatement(sql: "SELECT 1 FROM \(quoted) WHERE \(Identifier.quote(keyColumn)) = ?"), arguments: [key.dataId]) ?? false
        guard let row, !row.deleted else {
            guard existed else { return }
            try db.cachedStatement(sql: "DELETE FROM \(quoted) WHERE \(Identifier.quote(keyColumn)) = ?").execute(arguments: [key.dataId])
            session.record(ChangeEvent(kind: .delete, table: table.name, key: .string(key.dataId)))
            return
        }
        var values = JSONObject()
        for (name, value) in row.data where name != keyColumn {
            guard let column = table.column(named: name) else { continue }
            values.appendUnique(column.name, value)
        }
        values[keyColumn] = .string(key.dataId)
        let columns = values.members.map { table.column(named: $0.key)! }
        let sql = "INSERT OR REPLACE INTO \(quoted) (" + columns.map { Identifier.quote($0.name) }.joined(separator: ", ") + ") VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        try SQLiteBinding.execute(try db.cachedStatement(sql: sql), zip(values.members, columns).map { ($0.value, $1.type) }, db: db)
        session.record(ChangeEvent(kind: existed ? .update : .insert, table: table.name, key: .string(key.dataId), record: values))
    }
}
