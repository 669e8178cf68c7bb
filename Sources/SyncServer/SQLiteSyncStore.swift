import Foundation
import GRDB
import JSON
import SyncProtocol

/// The sync server's store on one SQLite file through a GRDB `DatabasePool` (WAL): reads run beside
/// the single serialized writer, and every state change is one transaction, so a server restarted
/// on the same file carries on where it stopped.
///
/// Tables: `sync_device` (token digests, packet counts), `sync_packet` (the per-device packet
/// record, with a held packet's ops until it settles), `sync_log` (every applied op, `seq` an
/// AUTOINCREMENT key, so never reused) and `sync_row` (the materialized state, kept current by
/// ``OperationFold`` as ops are logged).
///
/// ```swift
/// let store = try SQLiteSyncStore(path: "/var/lib/sync.sqlite")
/// let outcome = try await store.push(packet, now: Date().timeIntervalSince1970)
/// ```
public final class SQLiteSyncStore: SyncStore {
    let pool: DatabasePool

    /// Opens (creating and migrating as needed) the database at `path`.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "SyncServer"
        pool = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(pool)
    }

    /// Named, ordered migrations, each in its own transaction; add new ones at the end, never edit one
    /// that has shipped.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE sync_device (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT,
                    tokenDigest TEXT NOT NULL UNIQUE,
                    packetCount INTEGER NOT NULL DEFAULT 0,
                    createdAt REAL NOT NULL
                );
                CREATE TABLE sync_packet (
                    deviceId TEXT NOT NULL REFERENCES sync_device(id),
                    packetId TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('applied', 'held', 'rejected')),
                    dependency TEXT,
                    reason TEXT,
                    ops TEXT,
                    applied TEXT,
                    duplicates TEXT,
                    cursor INTEGER,
                    receivedAt REAL NOT NULL,
                    settledAt REAL,
                    PRIMARY KEY (deviceId, packetId),
                    UNIQUE (deviceId, seq)
                );
                CREATE INDEX sync_packet_held ON sync_packet(deviceId, seq) WHERE state = 'held';
                CREATE TABLE sync_log (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    opId TEXT NOT NULL UNIQUE,
                    deviceId TEXT NOT NULL,
                    packetId TEXT NOT NULL,
                    tableName TEXT NOT NULL,
                    dataId TEXT NOT NULL,
                    type TEXT NOT NULL,
                    data TEXT,
                    dependencyId TEXT,
                    timestamp REAL NOT NULL
                );
                CREATE TABLE sync_row (
                    tableName TEXT NOT NULL,
                    dataId TEXT NOT NULL,
                    data TEXT NOT NULL,
                    deleted INTEGER NOT NULL,
                    timestamp REAL NOT NULL,
                    opId TEXT NOT NULL,
                    PRIMARY KEY (tableName, dataId)
                );
                """)
        }
        return migrator
    }

    // MARK: Devices

    public func registerDevice(name: String?, tokenDigest: String, now: Double) async throws -> String {
        let id = UUID().uuidString.lowercased()
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO sync_device (id, name, tokenDigest, createdAt) VALUES (?, ?, ?, ?)",
                           arguments: [id, name, tokenDigest, now])
        }
        return id
    }

    public func device(tokenDigest: String) async throws -> String? {
        try await pool.read { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM sync_device WHERE tokenDigest = ?"),
                                arguments: [tokenDigest])
        }
    }

    // MARK: Packets

    public func push(_ packet: PushPacket, now: Double) async throws -> PushOutcome {
        let outcome = try await pool.write { db in try Self.receive(packet, now: now, in: db) }
        if case .applied = outcome {
            try await settle(deviceId: packet.deviceId, now: now)
        }
        return outcome
    }

    public func sweep(now: Double, holdSeconds: Double) async throws {
        // Every push sweeps, and almost always nothing is held: a read answers that without
        // queueing for the write lock.
        let anyHeld = try await pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sync_packet WHERE state = 'held')") ?? false
        }
        guard anyHeld else { return }
        try await pool.write { db in
            let expired = try Row.fetchAll(db, sql: """
                SELECT p.deviceId, p.packetId, p.dependency FROM sync_packet p
                WHERE p.state = 'held' AND p.receivedAt <= ?
                  AND NOT EXISTS (SELECT 1 FROM sync_packet d WHERE d.deviceId = p.deviceId AND d.packetId = p.dependency)
                """, arguments: [now - holdSeconds])
            for row in expired {
                let dependency: String = row["dependency"]
                try Self.reject(deviceId: row["deviceId"], packetId: row["packetId"],
                                reason: "dependency \(dependency) not received within \(Self.seconds(holdSeconds)) s",
                                now: now, in: db)
            }
        }
        try await settle(deviceId: nil, now: now)
    }

    public func packet(deviceId: String, packetId: String) async throws -> PacketRecord? {
        try await pool.read { db in try Self.record(deviceId: deviceId, packetId: packetId, in: db) }
    }

    /// Applies or rejects, one transaction each and in arrival order, held packets (of one device, or
    /// all) whose dependency has settled, until none is left. Applying one can unblock the next, so
    /// a chain of any length unwinds here; after a crash between a commit and this loop, the next
    /// sweep finishes the job.
    func settle(deviceId: String?, now: Double) async throws {
        while true {
            let progressed = try await pool.write { db -> Bool in
                let device = deviceId.map { _ in "AND p.deviceId = ?" } ?? ""
                let arguments: StatementArguments = deviceId.map { [$0] } ?? []
                guard let ready = try Row.fetchOne(db, sql: """
                    SELECT p.deviceId, p.packetId, p.dependency, p.ops, d.state AS dependencyState
                    FROM sync_packet p JOIN sync_packet d ON d.deviceId = p.deviceId AND d.packetId = p.dependency
                    WHERE p.state = 'held' AND d.state != 'held' \(device)
                    ORDER BY p.deviceId, p.seq LIMIT 1
                    """, arguments: arguments)
                else { return false }
                let readyDevice: String = ready["deviceId"]
                let packetId: String = ready["packetId"]
                let dependency: String = ready["dependency"]
                if ready["dependencyState"] == PacketState.applied.rawValue {
                    let ops = try Self.decodeHeldOps(ready["ops"], packetId: packetId)
                    let result = try Self.apply(ops, deviceId: readyDevice, packetId: packetId, in: db)
                    try db.execute(sql: """
                        UPDATE sync_packet SET state = 'applied', ops = NULL, applied = ?, duplicates = ?, cursor = ?, settledAt = ?
                        WHERE deviceId = ? AND packetId = ?
                        """, arguments: [Self.text(result.applied), Self.text(result.duplicates), result.cursor, now, readyDevice, packetId])
                } else {
                    try Self.reject(deviceId: readyDevice, packetId: packetId, reason: "dependency \(dependency) was rejected",
                                    now: now, in: db)
                }
                return true
            }
            if !progressed { return }
        }
    }

    /// Records a packet's arrival and applies it when it can: the first half of a push, one
    /// transaction.
    static func receive(_ packet: PushPacket, now: Double, in db: Database) throws -> PushOutcome {
        if let known = try record(deviceId: packet.deviceId, packetId: packet.packetId, in: db) {
            switch known.state {
            case .applied: return .applied(applied: known.applied ?? [], duplicates: known.duplicates ?? [], cursor: known.cursor ?? 0)
            case .held: return .held(waitingFor: known.dependencyIdentifier ?? "")
            case .rejected: return .rejected(reason: known.reason ?? "rejected")
            }
        }
        try db.execute(sql: "UPDATE sync_device SET packetCount = packetCount + 1 WHERE id = ?", arguments: [packet.deviceId])
        guard let seq = try Int.fetchOne(db, sql: "SELECT packetCount FROM sync_device WHERE id = ?", arguments: [packet.deviceId]) else {
            throw SyncServerError(.forbidden, "deviceId: unknown device \(packet.deviceId)", path: "/deviceId")
        }
        let insert = """
            INSERT INTO sync_packet (deviceId, packetId, seq, state, dependency, reason, ops, applied, duplicates, cursor, receivedAt, settledAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        if let dependency = packet.dependencyIdentifier {
            let dependencyState = try String.fetchOne(db, sql: "SELECT state FROM sync_packet WHERE deviceId = ? AND packetId = ?",
                                                      arguments: [packet.deviceId, dependency])
            switch dependencyState.flatMap(PacketState.init(rawValue:)) {
            case nil, .held?:
                let ops = JSONWriter.write(.array(packet.ops.map { .object($0.json) }))
                try db.execute(sql: insert, arguments: [packet.deviceId, packet.packetId, seq, PacketState.held.rawValue, dependency,
                                                        nil, ops, nil, nil, nil, now, nil])
                return .held(waitingFor: dependency)
            case .rejected?:
                let reason = "dependency \(dependency) was rejected"
                try db.execute(sql: insert, arguments: [packet.deviceId, packet.packetId, seq, PacketState.rejected.rawValue, dependency,
                                                        reason, nil, nil, nil, nil, now, now])
                return .rejected(reason: reason)
            case .applied?:
                break
            }
        }
        let result = try apply(packet.ops, deviceId: packet.deviceId, packetId: packet.packetId, in: db)
        try db.execute(sql: insert, arguments: [packet.deviceId, packet.packetId, seq, PacketState.applied.rawValue,
                                                packet.dependencyIdentifier, nil, nil, text(result.applied),
                                                text(result.duplicates), result.cursor, now, now])
        return .applied(applied: result.applied, duplicates: result.duplicates, cursor: result.cursor)
    }

    static func reject(deviceId: String, packetId: String, reason: String, now: Double, in db: Database) throws {
        try db.execute(sql: """
            UPDATE sync_packet SET state = 'rejected', reason = ?, ops = NULL, settledAt = ? WHERE deviceId = ? AND packetId = ?
            """, arguments: [reason, now, deviceId, packetId])
    }

    static func record(deviceId: String, packetId: String, in db: Database) throws -> PacketRecord? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sync_packet WHERE deviceId = ? AND packetId = ?",
                                         arguments: [deviceId, packetId])
        else { return nil }
        let stateName: String = row["state"]
        guard let state = PacketState(rawValue: stateName) else {
            throw SyncServerError(.internalError, "packet \(packetId) has an unknown state \(stateName)")
        }
        return PacketRecord(
            deviceId: row["deviceId"], packetId: row["packetId"], seq: row["seq"], state: state,
            dependencyIdentifier: row["dependency"], reason: row["reason"],
            applied: try strings(row["applied"]), duplicates: try strings(row["duplicates"]), cursor: row["cursor"],
            receivedAt: row["receivedAt"], settledAt: row["settledAt"])
    }

    // MARK: Applying ops

    /// Logs each op not logged before (by opId) and folds it into the rows; returns what was applied,
    /// what was skipped, and the log's last seq.
    static func apply(_ ops: [SyncOperation], deviceId: String, packetId: String,
                      in db: Database) throws -> (applied: [String], duplicates: [String], cursor: Int) {
        var applied: [String] = []
        var duplicates: [String] = []
        let known = try db.cachedStatement(sql: "SELECT 1 FROM sync_log WHERE opId = ?")
        let log = try db.cachedStatement(sql: """
            INSERT INTO sync_log (opId, deviceId, packetId, tableName, dataId, type, data, dependencyId, timestamp)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for op in ops {
            if try Bool.fetchOne(known, arguments: [op.opId]) != nil {
                duplicates.append(op.opId)
                continue
            }
            try log.execute(arguments: [op.opId, deviceId, packetId, op.table, op.dataId, op.type.rawValue,
                                        op.data.map { JSONWriter.write(.object($0)) }, op.dependencyId, op.timestamp])
            try fold(op, in: db)
            applied.append(op.opId)
        }
        return (applied, duplicates, try cursor(in: db))
    }

    /// Brings `sync_row` up to date with one newly logged op, by ``OperationFold``.
    static func fold(_ op: SyncOperation, in db: Database) throws {
        if op.type == .batch {
            let change = try BatchChange(value: op.data.map(JSONValue.object), at: "/data")
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT * FROM sync_row WHERE tableName = ? AND deleted = 0 ORDER BY dataId
                """), arguments: [op.table])
            for row in rows {
                if let changed = OperationFold.apply(change, of: op, to: try materialized(row)) {
                    try store(changed, table: op.table, in: db)
                }
            }
            return
        }
        let current = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM sync_row WHERE tableName = ? AND dataId = ?"),
                                       arguments: [op.table, op.dataId])
        if let changed = OperationFold.apply(op, to: try current.map(materialized)) {
            try store(changed, table: op.table, in: db)
        }
    }

    static func store(_ row: MaterializedRow, table: String, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO sync_row (tableName, dataId, data, deleted, timestamp, opId) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (tableName, dataId) DO UPDATE SET
                data = excluded.data, deleted = excluded.deleted, timestamp = excluded.timestamp, opId = excluded.opId
            """).execute(arguments: [table, row.dataId, JSONWriter.write(.object(row.data)), row.deleted, row.timestamp, row.opId])
    }

    static func materialized(_ row: Row) throws -> MaterializedRow {
        let dataText: String = row["data"]
        guard case .object(let data)? = try? JSONParser.parse(dataText) else {
            throw SyncServerError(.internalError, "stored row \(row["tableName"] as String)/\(row["dataId"] as String) is not a JSON object")
        }
        return MaterializedRow(dataId: row["dataId"], data: data, deleted: row["deleted"], timestamp: row["timestamp"], opId: row["opId"])
    }

    static func cursor(in db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(MAX(seq), 0) FROM sync_log")) ?? 0
    }

    // MARK: Reading the log and the state

    public func pull(after: Int, limit: Int) async throws -> PullPage {
        try await pool.read { db in
            let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM sync_log WHERE seq > ? ORDER BY seq LIMIT ?"),
                                        arguments: [after, limit + 1])
            let more = rows.count > limit
            let ops = try rows.prefix(limit).map(Self.logged)
            return PullPage(ops: ops, cursor: ops.last?.seq ?? after, more: more)
        }
    }

    public func snapshot() async throws -> SyncSnapshot {
        try await pool.read { db in
            var tables: [String: [MaterializedRow]] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM sync_row ORDER BY tableName, dataId")
            while let row = try rows.next() {
                tables[row["tableName"], default: []].append(try Self.materialized(row))
            }
            return SyncSnapshot(cursor: try Self.cursor(in: db), tables: tables)
        }
    }

    static func logged(_ row: Row) throws -> LoggedOperation {
        let typeName: String = row["type"]
        let dataText: String? = row["data"]
        let data: JSONObject?
        if let dataText {
            guard case .object(let object)? = try? JSONParser.parse(dataText) else {
                throw SyncServerError(.internalError, "logged op \(row["opId"] as String) has data that is not a JSON object")
            }
            data = object
        } else {
            data = nil
        }
        guard let type = SyncOperationType(rawValue: typeName) else {
            throw SyncServerError(.internalError, "logged op \(row["opId"] as String) has an unknown type \(typeName)")
        }
        let op = SyncOperation(opId: row["opId"], dataId: row["dataId"], table: row["tableName"], type: type, data: data,
                               dependencyId: row["dependencyId"], timestamp: row["timestamp"])
        return LoggedOperation(seq: row["seq"], deviceId: row["deviceId"], operation: op)
    }

    // MARK: Stored JSON

    static func decodeHeldOps(_ text: String?, packetId: String) throws -> [SyncOperation] {
        guard let text, case .array(let elements)? = try? JSONParser.parse(text) else {
            throw SyncServerError(.internalError, "held packet \(packetId) has no stored ops")
        }
        return try elements.enumerated().map { index, element in
            try SyncOperation.decode(element, at: "/ops/\(index)")
        }
    }

    static func text(_ strings: [String]) -> String {
        JSONWriter.write(.array(strings.map(JSONValue.string)))
    }

    static func strings(_ text: String?) throws -> [String]? {
        guard let text else { return nil }
        guard case .array(let elements)? = try? JSONParser.parse(text) else {
            throw SyncServerError(.internalError, "stored list is not a JSON array: \(text)")
        }
        return elements.compactMap(\.stringValue)
    }

    /// `30` for whole seconds, `0.3` otherwise: the form a rejection reason shows.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
