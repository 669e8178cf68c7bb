// The SyncClient module: sync's client side in one database, below the `sync` service. It
// journals the writes to synced tables at Persistence's one write path (through WriteJournal, in
// the write's own transaction), keeps the bookkeeping tables, and executes pulled operations. It
// talks to no server and imports neither the bridge nor the engine.
import Foundation
import GRDB
import JSON
import Persistence
import SyncProtocol

// GRDB has types of these names too: here they are Persistence's.
typealias PersistenceError = Persistence.PersistenceError
typealias ColumnDefinition = Persistence.ColumnDefinition

/// The client side of sync for one database, below the `sync` service (which does the talking):
/// what to push, what a push's answer means for the rows, and how pulled operations are executed
/// and rebased under the local ones not yet pulled back. Every method is one transaction on the
/// database's one write path, so a crash between two steps leaves a state the next run resumes.
///
/// The app's rows of a two-way table always equal the server's state as pulled so far (kept in
/// `_hybrid_sync_base`) with the local operations not yet pulled back folded on top, in their
/// order, by the server's own rule (``OperationFold``). So a pulled state never overwrites an
/// unacknowledged local edit: the edit is rebased onto it, and once the server's log carries both,
/// every replica folds them in the same order.
public final class SyncReplica: Sendable {
    public let center: DataCenter

    /// The replica of `center`, which must have synced tables: the one place that decides whether
    /// a database syncs (`unknown_database` without a schema, `not_synced` without a synced table).
    public init(center: DataCenter) throws(Persistence.PersistenceError) {
        self.center = center
        _ = try schema
    }

    /// The database's schema, checked to have synced tables.
    private var schema: DatabaseSchema {
        get throws(Persistence.PersistenceError) {
            guard let schema = center.schema else {
                throw .failed(reason: "unknown_database", message: "database \(Quoted(center.name)) has no schema; open it with storage.open first", details: [:])
            }
            guard schema.tables.values.contains(where: { $0.sync != nil }) else {
                throw .failed(reason: "not_synced", message: "database \(Quoted(center.name)) has no synced tables; give a table sync: {mode: \"twoWay\"} in its schema", details: [:])
            }
            return schema
        }
    }

    /// Whether the database has two-way tables, whose operations a run pulls.
    public var pulls: Bool {
        center.schema?.tables.values.contains { $0.sync?.mode == .twoWay } ?? false
    }

    // MARK: - Connection and cursor

    public struct Connection: Sendable, Equatable {
        public var server: String
        public var deviceId: String
        public var token: String
        public init(server: String, deviceId: String, token: String) {
            self.server = server
            self.deviceId = deviceId
            self.token = token
        }
    }

    public func connection() throws(Persistence.PersistenceError) -> Connection? {
        let state = try self.state()
        guard let server = state["server"], let deviceId = state["deviceId"], let token = state["token"] else { return nil }
        return Connection(server: server, deviceId: deviceId, token: token)
    }

    public func connect(_ connection: Connection) throws(Persistence.PersistenceError) {
        try center.writeNow { session in
            try Self.setState(["server": connection.server, "deviceId": connection.deviceId, "token": connection.token, "cursor": "0"], in: session.db)
        }
    }

    /// A new token for the same device (its user's grant changed): the server reads the scopes from
    /// it on the next request.
    public func updateToken(_ token: String) throws(Persistence.PersistenceError) {
        try center.writeNow { session in try Self.setState(["token": token], in: session.db) }
    }

    public func cursor() throws(Persistence.PersistenceError) -> Int { Int(try state()["cursor"] ?? "0") ?? 0 }

    /// The scopes the server last said this device's token grants, or nil when it never said (an
    /// insecure server, or before the first pull).
    public func knownScopes() throws(Persistence.PersistenceError) -> [String]? {
        try center.readNow { session in try Self.scopes(in: session.db) }
    }

    private static func scopes(in db: Database) throws -> [String]? {
        guard let text = try state(in: db)["scopes"], case .array(let values)? = try? JSONParser.parse(text) else { return nil }
        return values.compactMap(\.stringValue)
    }

    private func state() throws(Persistence.PersistenceError) -> [String: String] {
        try center.readNow { session in try Self.state(in: session.db) }
    }

    private static func state(in db: Database) throws -> [String: String] {
        Dictionary(try Row.fetchAll(db, sql: "SELECT key, value FROM _hybrid_sync_state").map { ($0["key"] as String, $0["value"] as String) },
                   uniquingKeysWith: { $1 })
    }

    private static func setState(_ values: [String: String], in db: Database) throws {
        for (key, value) in values {
            try db.execute(sql: "INSERT OR REPLACE INTO _hybrid_sync_state (key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }

    // MARK: - Pushing

    /// A packet as it goes on the wire, kept so that a retry sends the same packet.
    public struct Packet: Sendable {
        public var packetId: String
        public var body: String
        public var opIds: [String]
    }

    /// Packets sent before whose answer never came (or that the server held), oldest first, then
    /// at most one new packet of up to `maxOps` operations. The new packet is recorded, and its
    /// operations marked as sending, before it leaves.
    public func packetsToSend(deviceId: String, maxOps: Int) throws(Persistence.PersistenceError) -> [Packet] {
        let schema = try self.schema
        return try center.writeNow { session in
            let db = session.db
            var packets = try Row.fetchAll(db, sql: "SELECT packet_id, body, op_ids FROM _hybrid_sync_packets WHERE state IN ('sending', 'held') ORDER BY seq")
                .map { row in
                    Packet(packetId: row["packet_id"], body: row["body"],
                           opIds: ((try? JSONParser.parse(row["op_ids"] as String))?.arrayValue ?? []).compactMap(\.stringValue))
                }
            let pending = try Row.fetchAll(db, sql: "SELECT seq, op_id, table_name, data_id, type, data, timestamp FROM _hybrid_sync_outbox WHERE state = 'pending' ORDER BY seq LIMIT ?",
                                           arguments: [maxOps])
            guard !pending.isEmpty else { return packets }
            var ops: [SyncOperation] = []
            var opIds: [String] = []
            var seqs: [Int64] = []
            var oneWayRows: Set<String> = []
            for row in pending {
                let tableName: String = row["table_name"]
                guard let table = schema.tables[tableName], let sync = table.sync else { continue }
                seqs.append(row["seq"])
                switch sync.mode {
                case .twoWay:
                    let type = SyncOperationType(rawValue: row["type"]) ?? .update
                    let dataId: String = row["data_id"]
                    let text: String? = row["data"]
                    let data = try text.map { try? JSONParser.parse($0).objectValue }
                        ?? (type == .insert ? SyncJournal.deferredData(table, dataId: dataId, db: db) : nil)
                    let op = SyncOperation(opId: row["op_id"], dataId: dataId, table: tableName, type: type, data: data, timestamp: row["timestamp"],
                                           scopeColumn: sync.scope)
                    ops.append(op)
                    opIds.append(op.opId)
                case .oneWay:
                    // The DirtyList names rows; the row goes as it is now, once, however often it changed.
                    let dataId: String = row["data_id"]
                    guard oneWayRows.insert(tableName + "\n" + dataId).inserted,
                          let op = try Self.oneWayOperation(table: table, dataId: dataId, db: db) else { continue }
                    ops.append(op)
                    opIds.append(op.opId)
                }
            }
            guard let lastSeq = seqs.max() else { return packets }
            let state = try Self.state(in: db)
            let packetId = SyncJournal.newIdentifier()
            let dependency = state["lastPacket"]
            let sequence = (Int(state["packetSeq"] ?? "0") ?? 0) + 1
            let text = JSONWriter.write(PushPacket(deviceId: deviceId, packetId: packetId, dependencyIdentifier: dependency, ops: ops).json)
            try db.execute(sql: "INSERT INTO _hybrid_sync_packets (packet_id, seq, dependency, body, op_ids, state, created_at) VALUES (?, ?, ?, ?, ?, 'sending', ?)",
                           arguments: [packetId, sequence, dependency, text, JSONWriter.write(.array(opIds.map(JSONValue.string))), Date().timeIntervalSince1970])
            try db.execute(sql: "UPDATE _hybrid_sync_outbox SET state = 'sending', packet_id = ? WHERE state = 'pending' AND seq <= ?",
                           arguments: [packetId, lastSeq])
            try Self.setState(["lastPacket": packetId, "packetSeq": String(sequence)], in: db)
            packets.append(Packet(packetId: packetId, body: text, opIds: opIds))
            return packets
        }
    }

    /// A one-way row as one operation: its current data under its current identifier.
    private static func oneWayOperation(table: TableSchema, dataId: String, db: Database) throws -> SyncOperation? {
        guard let row = try SyncJournal.storedRow(table, dataId: dataId, db: db) else { return nil }
        let deleted = row["_deleted"] == .number(1)
        // A delete on a scoped table names the row's scope: the server may never have had the row
        // (inserted and deleted before it was pushed), and then takes a delete only in a scope the
        // token grants.
        let deletedData = table.sync?.scope.flatMap { column in row[column].map { JSONObject([(column, $0)]) } }
        return SyncOperation(opId: row["_identifier"]?.stringValue ?? SyncJournal.newIdentifier(), dataId: dataId, table: table.name,
                             type: deleted ? .delete : .insert, data: deleted ? deletedData : SyncJournal.canonical(row, schema: table),
                             timestamp: SyncJournal.timestamp(), scopeColumn: table.sync?.scope)
    }

    /// The server applied the packet (now or earlier). Two-way operations wait, acknowledged, until
    /// the pull brings them back; one-way rows are clean unless written again since they left.
    public func packetApplied(_ packet: Packet) throws(Persistence.PersistenceError) {
        let schema = try self.schema
        try center.writeNow { session in
            let db = session.db
            try db.execute(sql: "UPDATE _hybrid_sync_packets SET state = 'applied' WHERE packet_id = ?", arguments: [packet.packetId])
            try db.execute(sql: "UPDATE _hybrid_sync_outbox SET state = 'acked' WHERE packet_id = ? AND state = 'sending'", arguments: [packet.packetId])
            // The packet as this client wrote it, which the server read with the same decoder.
            guard let sent = try? PushPacket.decode(try JSONParser.parse(packet.body)) else { return }
            for op in sent.ops {
                guard let table = schema.tables[op.table], table.sync?.mode == .oneWay else { continue }
                let quoted = Identifier.quote(table.name), key = Identifier.quote(table.primaryKey[0])
                try db.execute(sql: "DELETE FROM \(quoted) WHERE \(key) = ? AND \"_identifier\" = ? AND \"_deleted\" = 1", arguments: [op.dataId, op.opId])
                try db.execute(sql: "UPDATE \(quoted) SET \"_dirty\" = 0 WHERE \(key) = ? AND \"_identifier\" = ?", arguments: [op.dataId, op.opId])
            }
            // The one-way DirtyList entries this packet carried (two-way ones wait, acknowledged, for the pull).
            let oneWay = schema.tables.values.filter { $0.sync?.mode == .oneWay }.map(\.name)
            for table in oneWay {
                try db.execute(sql: "DELETE FROM _hybrid_sync_outbox WHERE packet_id = ? AND table_name = ?", arguments: [packet.packetId, table])
            }
        }
    }

    /// The server holds the packet until the one it depends on arrives: it is sent again next run.
    public func packetHeld(_ packet: Packet) throws(Persistence.PersistenceError) {
        try center.writeNow { session in
            try session.db.execute(sql: "UPDATE _hybrid_sync_packets SET state = 'held' WHERE packet_id = ?", arguments: [packet.packetId])
        }
    }

    /// The server refused the packet for good: its operations fail, with the reason, until the app
    /// retries them; the packet chain goes on from the last packet not refused.
    public func packetRejected(_ packet: Packet, reason: String) throws(Persistence.PersistenceError) {
        try center.writeNow { session in
            let db = session.db
            try db.execute(sql: "UPDATE _hybrid_sync_packets SET state = 'rejected', reason = ? WHERE packet_id = ?", arguments: [reason, packet.packetId])
            try db.execute(sql: "UPDATE _hybrid_sync_outbox SET state = 'failed', error = ? WHERE packet_id = ?", arguments: [reason, packet.packetId])
            let last = try String.fetchOne(db, sql: "SELECT packet_id FROM _hybrid_sync_packets WHERE state != 'rejected' ORDER BY seq DESC LIMIT 1")
            if let last { try Self.setState(["lastPacket": last], in: db) } else { try db.execute(sql: "DELETE FROM _hybrid_sync_state WHERE key = 'lastPacket'") }
        }
    }

    /// The server refused one operation of `packet` for its scope (`opId`), or refused the packet
    /// because one it depended on was refused (`opId` nil). The packet and every later one not yet
    /// settled are given up: their other operations go back to pending and leave in a new packet,
    /// so no innocent write fails with the refused one. The refused operation stays in the outbox,
    /// `refused`, listed by `sync.status` with the reason until the app retries it, but stops
    /// counting in its row: the row shows the server's state again, as a rejected write does in
    /// Firestore, and leaves the device like any other row once its scope is not the device's.
    public func packetRefused(_ packet: Packet, opId: String?, reason: String) throws(Persistence.PersistenceError) {
        let schema = try self.schema
        try center.writeNow { session in
            let db = session.db
            guard let seq = try Int64.fetchOne(db, sql: "SELECT seq FROM _hybrid_sync_packets WHERE packet_id = ?", arguments: [packet.packetId]) else { return }
            let later = try String.fetchAll(db, sql: "SELECT packet_id FROM _hybrid_sync_packets WHERE seq > ? AND state IN ('sending', 'held')", arguments: [seq])
            for (packetId, why) in [(packet.packetId, reason)] + later.map({ ($0, "given up: packet \(packet.packetId) before it was refused") }) {
                try db.execute(sql: "UPDATE _hybrid_sync_packets SET state = 'rejected', reason = ? WHERE packet_id = ?", arguments: [why, packetId])
                try db.execute(sql: "UPDATE _hybrid_sync_outbox SET state = 'pending', error = NULL, packet_id = NULL WHERE packet_id = ? AND state = 'sending'",
                               arguments: [packetId])
            }
            let last = try String.fetchOne(db, sql: "SELECT packet_id FROM _hybrid_sync_packets WHERE state != 'rejected' ORDER BY seq DESC LIMIT 1")
            if let last { try Self.setState(["lastPacket": last], in: db) } else { try db.execute(sql: "DELETE FROM _hybrid_sync_state WHERE key = 'lastPacket'") }
            guard let opId,
                  let refused = try Row.fetchOne(db, sql: "SELECT table_name, data_id FROM _hybrid_sync_outbox WHERE op_id = ?", arguments: [opId]) else { return }
            try db.execute(sql: "UPDATE _hybrid_sync_outbox SET state = 'refused', error = ?, packet_id = NULL WHERE op_id = ?", arguments: [reason, opId])
            var execution = SyncExecution(schema: schema, session: session, deviceId: "")
            try execution.rebase(try Self.rowsOf(table: refused["table_name"], dataId: refused["data_id"], schema: schema, in: db))
            // The row as the server has it may be in a scope this device does not hold (that is
            // usually why the op was refused): it leaves now, not at the next pull.
            if let scopes = try Self.scopes(in: db) {
                _ = try SyncScopeEviction(schema: schema, session: session).evict(outside: scopes)
            }
        }
    }

    /// The rows an operation may have changed in the app's table: its own, or for a batch (`*`)
    /// every row of a two-way table that the server state or a local operation knows.
    private static func rowsOf(table: String, dataId: String, schema: DatabaseSchema, in db: Database) throws -> [SyncExecution.RowKey] {
        guard schema.tables[table]?.sync?.mode == .twoWay else { return [] }
        guard dataId == "*" else { return [SyncExecution.RowKey(table: table, dataId: dataId)] }
        return try String.fetchAll(db, sql: """
            SELECT data_id FROM _hybrid_sync_base WHERE table_name = ?1
            UNION SELECT data_id FROM _hybrid_sync_outbox WHERE table_name = ?1 AND data_id != '*'
            """, arguments: [table]).map { SyncExecution.RowKey(table: table, dataId: $0) }
    }

    /// Failed and refused operations back to pending (all when `opIds` is nil); returns how many.
    /// A refused operation counts in its row again.
    public func retry(opIds: [String]?) throws(Persistence.PersistenceError) -> Int {
        let schema = try self.schema
        return try center.writeNow { session in
            let db = session.db
            let chosen = opIds.map { Set($0) }
            let refused = try Row.fetchAll(db, sql: "SELECT op_id, table_name, data_id FROM _hybrid_sync_outbox WHERE state = 'refused'")
                .filter { chosen?.contains($0["op_id"]) ?? true }
            var count = 0
            if let opIds {
                for opId in opIds {
                    try db.execute(sql: "UPDATE _hybrid_sync_outbox SET state = 'pending', error = NULL, packet_id = NULL WHERE op_id = ? AND state IN ('failed', 'refused')", arguments: [opId])
                    count += db.changesCount
                }
            } else {
                try db.execute(sql: "UPDATE _hybrid_sync_outbox SET state = 'pending', error = NULL, packet_id = NULL WHERE state IN ('failed', 'refused')")
                count = db.changesCount
            }
            var keys: [SyncExecution.RowKey] = []
            for row in refused { keys += try Self.rowsOf(table: row["table_name"], dataId: row["data_id"], schema: schema, in: db) }
            if !keys.isEmpty {
                var execution = SyncExecution(schema: schema, session: session, deviceId: "")
                try execution.rebase(Array(Set(keys)))
            }
            return count
        }
    }

    // MARK: - Pulling and executing

    /// Keeps a page of pulled operations in the to-execute table and moves the cursor, together.
    public func storePulled(_ ops: [LoggedOperation], cursor: Int) throws(Persistence.PersistenceError) {
        try center.writeNow { session in
            let insert = try session.db.cachedStatement(sql: "INSERT OR IGNORE INTO _hybrid_sync_inbox (seq, op) VALUES (?, ?)")
            for op in ops {
                try insert.execute(arguments: [op.seq, JSONWriter.write(op.json)])
            }
            try Self.setState(["cursor": String(cursor)], in: session.db)
        }
    }

    /// Applies one page of a snapshot (its rows by table, ``SyncSnapshot/tables``) in one
    /// transaction: each row is folded into the server state as an insert (a delete for a
    /// tombstone) stamped as the row is, so a row the replica already has in a newer state keeps
    /// it, and the app's rows are rebased on it. That is what executing the rows before any pulled
    /// operation would do, without the round trip through the to-execute table. `cursor`, when
    /// given, becomes the pull cursor (a start from a snapshot).
    public func applySnapshotRows(_ tables: [String: [MaterializedRow]], cursor: Int?, deviceId: String) throws(Persistence.PersistenceError) {
        let schema = try self.schema
        try center.writeNow { session in
            var images: [(op: SyncOperation, remote: Bool)] = []
            for (table, rows) in tables {
                for row in rows {
                    images.append((SyncOperation(opId: row.opId, dataId: row.dataId, table: table, type: row.deleted ? .delete : .insert,
                                                 data: row.deleted ? nil : row.data, timestamp: row.timestamp), true))
                }
            }
            var execution = SyncExecution(schema: schema, session: session, deviceId: deviceId)
            _ = try execution.execute(images)
            if let cursor { try Self.setState(["cursor": String(cursor)], in: session.db) }
        }
    }

    public struct Execution: Sendable, Equatable {
        /// Pulled operations executed (own ones coming back included).
        public var executed = 0
        /// App rows rewritten.
        public var applied = 0
        /// Remote changes to rows with local changes not yet sent.
        public var conflicts = 0
        /// Rows dropped because their scope is not (or no longer) the device's.
        public var evicted = 0
    }

    /// Executes every pulled operation in one transaction: folds it into the server state, records
    /// conflicts, then rewrites each row it touched as that state with the local operations not yet
    /// pulled back on top. A reader never sees half of a pull.
    ///
    /// `stored` are operations this process has just stored with ``storePulled(_:cursor:)``, by
    /// seq: the execution takes those from memory rather than parse their text again (any other
    /// entry of the to-execute table, from a run that stopped before executing, is read as usual).
    ///
    /// `scopes`, when the server named them, are the scopes the device now holds: rows of scoped
    /// tables outside them (a scope revoked, or a row moved out of one) leave the replica in the
    /// same transaction, as the server's doing, not the app's (no operation is journaled for them).
    public func executePulled(deviceId: String, stored: [Int: LoggedOperation] = [:], scopes: [String]? = nil) throws(Persistence.PersistenceError) -> Execution {
        let schema = try self.schema
        return try center.writeNow { session in
            var execution = SyncExecution(schema: schema, session: session, deviceId: deviceId)
            var result = try execution.run(stored: stored)
            if let scopes {
                result.evicted = try SyncScopeEviction(schema: schema, session: session).evict(outside: scopes)
                try Self.setState(["scopes": JSONWriter.write(.array(scopes.map(JSONValue.string)))], in: session.db)
            }
            return result
        }
    }

    // MARK: - Conflicts and status

    public func conflicts() throws(Persistence.PersistenceError) -> [JSONValue] {
        try center.readNow { session in
            try Row.fetchAll(session.db, sql: "SELECT conflict_id, table_name, data_id, local, remote, created_at FROM _hybrid_sync_conflicts ORDER BY created_at").map { row in
                [
                    "conflictId": .string(row["conflict_id"]), "table": .string(row["table_name"]), "dataId": .string(row["data_id"]),
                    "local": (row["local"] as String?).flatMap { try? JSONParser.parse($0) } ?? .null,
                    "remote": (row["remote"] as String?).flatMap { try? JSONParser.parse($0) } ?? .null,
                    "createdAt": .number(row["created_at"]),
                ]
            }
        }
    }

    /// Settles a conflict: `local` sends the local changes again, stamped now so that they win;
    /// `remote` drops them and shows the server's row. Returns the conflict's table and row.
    public func resolve(conflictId: String, keepLocal: Bool) throws(Persistence.PersistenceError) -> (table: String, dataId: String) {
        let schema = try self.schema
        return try center.writeNow { session in
            let db = session.db
            guard let row = try Row.fetchOne(db, sql: "SELECT table_name, data_id FROM _hybrid_sync_conflicts WHERE conflict_id = ?", arguments: [conflictId]) else {
                throw PersistenceError.invalid(path: "/conflictId", message: "no open conflict \(Quoted(conflictId)); sync.conflicts lists them")
            }
            let tableName: String = row["table_name"], dataId: String = row["data_id"]
            if keepLocal {
                let seqs = try Int64.fetchAll(db, sql: "SELECT seq FROM _hybrid_sync_outbox WHERE conflict_id = ? ORDER BY seq", arguments: [conflictId])
                for seq in seqs {
                    try db.execute(sql: "UPDATE _hybrid_sync_outbox SET state = 'pending', conflict_id = NULL, timestamp = ? WHERE seq = ?",
                                   arguments: [SyncJournal.timestamp(), seq])
                }
            } else {
                try db.execute(sql: "DELETE FROM _hybrid_sync_outbox WHERE conflict_id = ?", arguments: [conflictId])
            }
            try db.execute(sql: "DELETE FROM _hybrid_sync_conflicts WHERE conflict_id = ?", arguments: [conflictId])
            var execution = SyncExecution(schema: schema, session: session, deviceId: "")
            try execution.rebase([SyncExecution.RowKey(table: tableName, dataId: dataId)])
            return (tableName, dataId)
        }
    }

    /// Rows of one-way tables deleted here whose delete the server has not confirmed yet: they stay
    /// in the table, hidden from every query, until it does.
    public func deletesAwaitingConfirmation() throws(Persistence.PersistenceError) -> Int {
        let schema = try self.schema
        return try center.readNow { session in
            var count = 0
            for table in schema.tables.values where table.sync?.mode == .oneWay {
                count += try Int.fetchOne(session.db, sql: "SELECT COUNT(*) FROM \(Identifier.quote(table.name)) WHERE \"_deleted\" = 1") ?? 0
            }
            return count
        }
    }

    /// Local operations or DirtyList entries not yet sent, or sent without an answer: what the
    /// next run pushes (`sync.live` runs when there are any).
    public func unsentCount() throws(Persistence.PersistenceError) -> Int {
        try center.readNow { session in
            try Int.fetchOne(session.db, sql: "SELECT COUNT(*) FROM _hybrid_sync_outbox WHERE state IN ('pending', 'sending')") ?? 0
        }
    }

    /// The synced tables (whose local writes `sync.live` pushes as they commit).
    public var syncedTables: Set<String> {
        Set(center.schema?.tables.values.filter { $0.sync != nil }.map(\.name) ?? [])
    }

    public func status() throws(Persistence.PersistenceError) -> JSONValue {
        let connection = try connection()
        let cursor = try cursor()
        return try center.readNow { session in
            let db = session.db
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS n FROM _hybrid_sync_outbox GROUP BY state") {
                counts[row["state"]] = row["n"]
            }
            var packets: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS n FROM _hybrid_sync_packets GROUP BY state") {
                packets[row["state"]] = row["n"]
            }
            let failed = try Row.fetchAll(db, sql: "SELECT op_id, table_name, data_id, type, error FROM _hybrid_sync_outbox WHERE state IN ('failed', 'refused') ORDER BY seq LIMIT 1000").map { row -> JSONValue in
                ["opId": .string(row["op_id"]), "table": .string(row["table_name"]), "dataId": .string(row["data_id"]),
                 "type": .string(row["type"]), "error": .string(row["error"] ?? "")]
            }
            let conflicts = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM _hybrid_sync_conflicts") ?? 0
            return [
                "connected": .bool(connection != nil), "server": connection.map { .string($0.server) } ?? .null,
                "deviceId": connection.map { .string($0.deviceId) } ?? .null, "cursor": .number(Double(cursor)),
                "pending": .number(Double(counts["pending", default: 0])), "sending": .number(Double(counts["sending", default: 0])),
                "acknowledged": .number(Double(counts["acked", default: 0])), "failed": .array(failed),
                "conflicts": .number(Double(conflicts)), "heldPackets": .number(Double(packets["held", default: 0])),
                "rejectedPackets": .number(Double(packets["rejected", default: 0])),
            ]
        }
    }
}
