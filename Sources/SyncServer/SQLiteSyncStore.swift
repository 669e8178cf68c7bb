import Foundation
import GRDB
import HTTPServing
import JSON
import SyncProtocol
import SystemIO

/// The sync server's store on one SQLite file through a GRDB `DatabasePool` (WAL): reads run beside
/// the single serialized writer, and every state change is one transaction, so a server restarted
/// on the same file carries on where it stopped.
///
/// Tables: `sync_device` (token digests, packet counts), `sync_packet` (the per-device packet
/// record, with a held packet's ops until it settles), `sync_log` (every applied op, `seq` an
/// AUTOINCREMENT key, so never reused; an opId once per device), `sync_row` (the materialized
/// state, kept current by ``OperationFold`` as ops are logged) and `sync_table` (each user's scope
/// column of each table it syncs).
///
/// ```swift
/// let store = try SQLiteSyncStore(path: "/var/lib/sync.sqlite")
/// let outcome = try await store.push(packet, now: clock.wallTime)
/// ```
public final class SQLiteSyncStore: SyncStoreBackend {
    let pool: DatabasePool
    /// Every writer is in this process: commits are announced here, not through the database.
    private let commits = CommitSignal()

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
        // Users, scopes and compaction: a device belongs to a user and holds that user's scopes; a
        // row lives in a partition ("" for scoped tables, the user for tables without a scope
        // column) and carries its scope; each log entry is filed under the keys that may pull it.
        // What was there before belongs to the empty user and is filed under `u:`, so an insecure
        // server carries on unchanged.
        migrator.registerMigration("v2 scopes") { db in
            try db.execute(sql: """
                ALTER TABLE sync_device ADD COLUMN userId TEXT NOT NULL DEFAULT '';
                ALTER TABLE sync_device ADD COLUMN scopes TEXT;
                ALTER TABLE sync_device ADD COLUMN cursor INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE sync_device ADD COLUMN lastSeenAt REAL;
                ALTER TABLE sync_log ADD COLUMN partition TEXT NOT NULL DEFAULT '';
                ALTER TABLE sync_log ADD COLUMN scopeBefore TEXT;
                ALTER TABLE sync_log ADD COLUMN image TEXT;
                ALTER TABLE sync_log ADD COLUMN loggedAt REAL NOT NULL DEFAULT 0;
                CREATE TABLE sync_log_key (
                    key TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    PRIMARY KEY (key, seq)
                ) WITHOUT ROWID;
                INSERT INTO sync_log_key (key, seq) SELECT 'u:', seq FROM sync_log;
                CREATE TABLE sync_table (
                    tableName TEXT PRIMARY KEY NOT NULL,
                    scopeColumn TEXT
                );
                CREATE TABLE sync_row_v2 (
                    partition TEXT NOT NULL,
                    tableName TEXT NOT NULL,
                    dataId TEXT NOT NULL,
                    data TEXT NOT NULL,
                    deleted INTEGER NOT NULL,
                    timestamp REAL NOT NULL,
                    opId TEXT NOT NULL,
                    scope TEXT,
                    PRIMARY KEY (partition, tableName, dataId)
                );
                INSERT INTO sync_row_v2 SELECT '', tableName, dataId, data, deleted, timestamp, opId, NULL FROM sync_row;
                DROP TABLE sync_row;
                ALTER TABLE sync_row_v2 RENAME TO sync_row;
                CREATE INDEX sync_row_scope ON sync_row(scope, tableName, dataId) WHERE scope IS NOT NULL;
                CREATE TABLE sync_meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value INTEGER NOT NULL
                );
                """)
        }
        // A packet refused for one op's scope names that op, so that its device requeues the
        // packet's other ops rather than failing them with it.
        migrator.registerMigration("v3 refused op") { db in
            try db.execute(sql: "ALTER TABLE sync_packet ADD COLUMN refusedOpId TEXT")
        }
        // The keys of a run of seqs (``logTail(after:limit:)``): the primary key leads with the key.
        migrator.registerMigration("v4 log keys by seq") { db in
            try db.execute(sql: "CREATE INDEX sync_log_key_seq ON sync_log_key(seq)")
        }
        // A table's scope column is fixed per user, by the user's first op on it: one tenant's
        // first op no longer fixes it for every other. Each user there is keeps what the server had.
        migrator.registerMigration("v5 tables per user") { db in
            try db.execute(sql: """
                CREATE TABLE sync_table_v5 (
                    userId TEXT NOT NULL,
                    tableName TEXT NOT NULL,
                    scopeColumn TEXT,
                    PRIMARY KEY (userId, tableName)
                ) WITHOUT ROWID;
                INSERT INTO sync_table_v5 (userId, tableName, scopeColumn)
                    SELECT u.userId, t.tableName, t.scopeColumn FROM (SELECT DISTINCT userId FROM sync_device) u CROSS JOIN sync_table t;
                DROP TABLE sync_table;
                ALTER TABLE sync_table_v5 RENAME TO sync_table;
                """)
        }
        // Op ids are deduplicated per device, not across every user: whoever learned another
        // device's next opId could otherwise push it first and have that device's op skipped.
        // SQLite cannot drop a column's UNIQUE, so the table is rebuilt with its seqs, and the last
        // seq ever given (sqlite_sequence, which ``cursor(in:)`` reads) is carried over: after a
        // compaction it is above every seq left.
        migrator.registerMigration("v6 op ids per device") { db in
            let lastSeq = try Int.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'sync_log'")
            let columns = "seq, opId, deviceId, packetId, tableName, dataId, type, data, dependencyId, timestamp, partition, scopeBefore, image, loggedAt"
            try db.execute(sql: """
                CREATE TABLE sync_log_v6 (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    opId TEXT NOT NULL,
                    deviceId TEXT NOT NULL,
                    packetId TEXT NOT NULL,
                    tableName TEXT NOT NULL,
                    dataId TEXT NOT NULL,
                    type TEXT NOT NULL,
                    data TEXT,
                    dependencyId TEXT,
                    timestamp REAL NOT NULL,
                    partition TEXT NOT NULL DEFAULT '',
                    scopeBefore TEXT,
                    image TEXT,
                    loggedAt REAL NOT NULL DEFAULT 0,
                    UNIQUE (deviceId, opId)
                );
                INSERT INTO sync_log_v6 (\(columns)) SELECT \(columns) FROM sync_log ORDER BY seq;
                DROP TABLE sync_log;
                ALTER TABLE sync_log_v6 RENAME TO sync_log;
                DELETE FROM sqlite_sequence WHERE name IN ('sync_log', 'sync_log_v6');
                """)
            if let lastSeq {
                try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('sync_log', ?)", arguments: [lastSeq])
            }
        }
        // The server stamps each op as it logs it (``SyncOperationStamps``) and keeps the device's
        // stamp beside it; the entries logged before were ordered by the device's, which is both.
        migrator.registerMigration("v7 the server's clock") { db in
            try db.execute(sql: """
                ALTER TABLE sync_log ADD COLUMN deviceTimestamp REAL;
                UPDATE sync_log SET deviceTimestamp = timestamp;
                """)
        }
        return migrator
    }

    // MARK: Devices

    public func registerDevice(name: String?, tokenDigest: String, user: String, scopes: [String]?, now: WallTime) async throws -> String {
        let id = UUID().uuidString.lowercased()
        try await pool.write { db in
            try db.execute(sql: """
                INSERT INTO sync_device (id, name, tokenDigest, createdAt, userId, scopes, lastSeenAt) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [id, name, tokenDigest, now, user, scopes.map(StoredText.list), now])
        }
        return id
    }

    public func deviceCount(user: String) async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_device WHERE userId = ?", arguments: [user]) ?? 0 }
    }

    public func device(tokenDigest: String) async throws -> DeviceIdentity? {
        try await pool.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT id, userId, scopes FROM sync_device WHERE tokenDigest = ?"),
                             arguments: [tokenDigest]).map(Self.identity)
        }
    }

    public func device(id deviceId: String, user: String, scopes: [String], now: WallTime) async throws -> DeviceIdentity {
        // Decoded inside the closure: a Sendable result picks GRDB's async read, which waits for a
        // reader without blocking one of Swift's concurrency threads (a Row would pick the sync one).
        let stored = try await pool.read { db -> (identity: DeviceIdentity, lastSeen: WallTime?)? in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT id, userId, scopes, lastSeenAt FROM sync_device WHERE id = ?"),
                                             arguments: [deviceId]) else { return nil }
            return (try Self.identity(row), row["lastSeenAt"])
        }
        // Another user's device is answered as no device: nobody learns which ids exist.
        guard let stored, ByteString(stored.identity.user) == ByteString(user) else { throw DeviceIdentity.noDevice(deviceId) }
        let identity = DeviceIdentity(deviceId: deviceId, user: user, scopes: scopes)
        // A write only when the grant changed, or once a minute to keep the device active.
        if !ByteString.same(stored.identity.scopes, scopes) || stored.lastSeen.map({ now - $0 > .seconds(60) }) ?? true {
            try await pool.write { db in
                try db.execute(sql: "UPDATE sync_device SET scopes = ?, lastSeenAt = ? WHERE id = ?",
                               arguments: [StoredText.list(scopes), now, deviceId])
            }
        }
        return identity
    }

    static func identity(_ row: Row) throws -> DeviceIdentity {
        DeviceIdentity(deviceId: row["id"], user: row["userId"], scopes: try StoredText.strings(row["scopes"]))
    }

    /// The device's identity as its row says, for a packet settled without a request.
    static func identity(deviceId: String, in db: Database) throws -> DeviceIdentity {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT id, userId, scopes FROM sync_device WHERE id = ?"),
                                         arguments: [deviceId]) else {
            throw DeviceIdentity.unknown(deviceId)
        }
        return try identity(row)
    }

    // MARK: Packets: the algorithm's steps (``SyncStoreBackend``), each one transaction of the writer

    public func push(_ packet: PushPacket, now: WallTime) async throws -> PushOutcome {
        try await receiveAndSettle(packet, now: now)
    }

    public func sweep(now: WallTime, hold: Duration) async throws {
        try await sweepHeld(now: now, hold: hold)
    }

    func receive(_ packet: PushPacket, now: WallTime) async throws -> (outcome: PushOutcome, growth: LogGrowth) {
        try await pool.write { db in try Self.receive(packet, now: now, in: db) }
    }

    func anyHeld(deviceId: String?) async throws -> Bool {
        try await pool.read { db in
            let arguments: StatementArguments = deviceId.map { [$0] } ?? []
            return try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sync_packet WHERE state = 'held'"
                                                            + (deviceId == nil ? ")" : " AND deviceId = ?)")), arguments: arguments) ?? false
        }
    }

    func settleNext(deviceId: String?, now: WallTime) async throws -> LogGrowth? {
        try await pool.write { db in try Self.settleNext(deviceId: deviceId, now: now, in: db) }
    }

    /// Every writer is in this process: commits are announced here, after they land.
    func announce(keys: [String]?) {
        commits.announce(keys: keys)
    }

    func rejectOverdue(now: WallTime, hold: Duration) async throws {
        try await pool.write { db in
            let overdue = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sync_packet WHERE state = 'held' AND receivedAt <= ?)",
                                            arguments: [now - hold]) ?? false
            guard overdue else { return }
            let held = try Row.fetchAll(db, sql: """
                SELECT p.deviceId, p.packetId, p.dependency, p.receivedAt, d.state AS dependencyState
                FROM sync_packet p LEFT JOIN sync_packet d ON d.deviceId = p.deviceId AND d.packetId = p.dependency
                WHERE p.state = 'held'
                ORDER BY p.receivedAt, p.deviceId, p.seq
                """).map { row in
                HeldPacketExpiry.Held(deviceId: row["deviceId"], packetId: row["packetId"], dependency: row["dependency"],
                                      receivedAt: row["receivedAt"], dependencyState: (row["dependencyState"] as String?).flatMap(PacketState.init(rawValue:)))
            }
            for rejection in HeldPacketExpiry.rejections(held, now: now, hold: hold) {
                try Self.reject(deviceId: rejection.deviceId, packetId: rejection.packetId, reason: rejection.reason, now: now, in: db)
            }
        }
    }

    /// In-process news, without entries: reading them back from the local file is cheap, and one
    /// process serves the store.
    public func watchCommits(_ onCommit: @escaping @Sendable (CommitNews) -> Void) async throws {
        try await commits.watch { keys in onCommit(CommitNews(keys: keys)) }
    }

    public var kind: String { "sqlite" }

    public func ping() async throws {
        _ = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    public func figures() async throws -> StoreFigures {
        try await pool.read { db in
            StoreFigures(heldPackets: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_packet WHERE state = 'held'") ?? 0,
                         lastSeq: try Self.cursor(in: db), compactedThrough: try Self.compactedThrough(in: db))
        }
    }

    public func packet(deviceId: String, packetId: String) async throws -> StoredPacket? {
        try await pool.read { db in try Self.record(deviceId: deviceId, packetId: packetId, in: db) }
    }

    /// Settles the first held packet (of `deviceId`, or of any device) whose dependency has
    /// settled, as ``HeldPacket`` decides; nil when there is none.
    static func settleNext(deviceId: String?, now: WallTime, in db: Database) throws -> LogGrowth? {
        let ofDevice = deviceId.map { _ in "AND p.deviceId = ?" } ?? ""
        let arguments: StatementArguments = deviceId.map { [$0] } ?? []
        guard let row = try Row.fetchOne(db, sql: """
            SELECT p.deviceId, p.packetId, p.dependency, p.ops, d.state AS dependencyState
            FROM sync_packet p JOIN sync_packet d ON d.deviceId = p.deviceId AND d.packetId = p.dependency
            WHERE p.state = 'held' AND d.state != 'held' \(ofDevice)
            ORDER BY p.deviceId, p.seq LIMIT 1
            """, arguments: arguments)
        else { return nil }
        let ready = HeldPacket(deviceId: row["deviceId"], packetId: row["packetId"], dependency: row["dependency"], ops: row["ops"],
                               dependencyState: row["dependencyState"])
        switch try ready.settlement() {
        case .reject(let reason):
            try reject(deviceId: ready.deviceId, packetId: ready.packetId, reason: reason, now: now, in: db)
            return LogGrowth.nothing
        case .apply(let ops):
            let device = try identity(deviceId: ready.deviceId, in: db)
            var result = AppliedOps()
            do {
                // A savepoint, so that a refused op leaves nothing of the packet behind.
                try db.inSavepoint {
                    result = try apply(ops, device: device, packetId: ready.packetId, now: now, in: db)
                    return .commit
                }
            } catch let refusal as SyncServerError where HeldPacket.rejects(refusal) {
                try reject(deviceId: ready.deviceId, packetId: ready.packetId, reason: refusal.message, refusedOpId: refusal.opId, now: now, in: db)
                return LogGrowth.nothing
            }
            try db.execute(sql: """
                UPDATE sync_packet SET state = 'applied', ops = NULL, applied = ?, duplicates = ?, cursor = ?, settledAt = ?
                WHERE deviceId = ? AND packetId = ?
                """, arguments: [StoredText.list(result.applied), StoredText.list(result.duplicates), result.cursor, now, ready.deviceId,
                                 ready.packetId])
            return result.growth(by: device)
        }
    }

    /// Records a packet's arrival and applies it when it can, as ``PacketArrival`` decides: the
    /// first half of a push.
    static func receive(_ packet: PushPacket, now: WallTime, in db: Database) throws -> (outcome: PushOutcome, growth: LogGrowth) {
        if let known = try record(deviceId: packet.deviceId, packetId: packet.packetId, in: db) { return (known.outcome, .nothing) }
        try db.execute(sql: "UPDATE sync_device SET packetCount = packetCount + 1 WHERE id = ?", arguments: [packet.deviceId])
        guard let seq = try Int.fetchOne(db, sql: "SELECT packetCount FROM sync_device WHERE id = ?", arguments: [packet.deviceId]) else {
            throw DeviceIdentity.unknown(packet.deviceId)
        }
        let dependencyState = try packet.dependencyIdentifier.flatMap { dependency in
            try String.fetchOne(db, sql: "SELECT state FROM sync_packet WHERE deviceId = ? AND packetId = ?", arguments: [packet.deviceId, dependency])
                .flatMap(PacketState.init(rawValue:))
        }
        if case .recorded(let record, let heldOps) = PacketArrival.of(packet, seq: seq, dependencyState: dependencyState, now: now) {
            try insert(record, heldOps: heldOps, in: db)
            return (record.outcome, .nothing)
        }
        let device = try identity(deviceId: packet.deviceId, in: db)
        let result = try apply(packet.ops, device: device, packetId: packet.packetId, now: now, in: db)
        try insert(PacketArrival.applied(packet, seq: seq, ops: result, now: now), heldOps: nil, in: db)
        return (result.outcome, result.growth(by: device))
    }

    static func insert(_ record: StoredPacket, heldOps: String?, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO sync_packet (deviceId, packetId, seq, state, dependency, reason, ops, applied, duplicates, cursor, receivedAt, settledAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [record.deviceId, record.packetId, record.seq, record.state.rawValue, record.dependencyIdentifier, record.reason,
                             heldOps, record.applied.map(StoredText.list), record.duplicates.map(StoredText.list), record.cursor,
                             record.receivedAt, record.settledAt])
    }

    static func reject(deviceId: String, packetId: String, reason: String, refusedOpId: String? = nil, now: WallTime, in db: Database) throws {
        try db.execute(sql: """
            UPDATE sync_packet SET state = 'rejected', reason = ?, refusedOpId = ?, ops = NULL, settledAt = ? WHERE deviceId = ? AND packetId = ?
            """, arguments: [reason, refusedOpId, now, deviceId, packetId])
    }

    static func record(deviceId: String, packetId: String, in db: Database) throws -> StoredPacket? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sync_packet WHERE deviceId = ? AND packetId = ?",
                                         arguments: [deviceId, packetId])
        else { return nil }
        let stateName: String = row["state"]
        guard let state = PacketState(rawValue: stateName) else {
            throw SyncServerError(.internalError, "packet \(packetId) has an unknown state \(stateName)")
        }
        return StoredPacket(
            deviceId: row["deviceId"], packetId: row["packetId"], seq: row["seq"], state: state,
            dependencyIdentifier: row["dependency"], reason: row["reason"], refusedOpId: row["refusedOpId"],
            applied: try StoredText.strings(row["applied"]), duplicates: try StoredText.strings(row["duplicates"]), cursor: row["cursor"],
            receivedAt: row["receivedAt"], settledAt: row["settledAt"])
    }

    // MARK: Applying ops

    /// Logs each op its device has not logged before (by opId) and folds it into the rows; returns
    /// what was applied, what was skipped, and the log's last seq. Throws, leaving the transaction
    /// to be rolled back, at the first op outside the device's scopes.
    static func apply(_ ops: [SyncOperation], device: DeviceIdentity, packetId: String, now: WallTime, in db: Database) throws -> AppliedOps {
        var result = AppliedOps()
        let known = try db.cachedStatement(sql: "SELECT 1 FROM sync_log WHERE deviceId = ? AND opId = ?")
        let log = try db.cachedStatement(sql: """
            INSERT INTO sync_log (opId, deviceId, packetId, tableName, dataId, type, data, dependencyId, timestamp, deviceTimestamp, partition,
                                  scopeBefore, image, loggedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let file = try db.cachedStatement(sql: "INSERT OR IGNORE INTO sync_log_key (key, seq) VALUES (?, ?)")
        var stamps = SyncOperationStamps(last: try Double.fetchOne(db.cachedStatement(sql: SyncOperationStamps.lastStampSQL)) ?? 0, now: now)
        for (index, pushed) in ops.enumerated() {
            if try Bool.fetchOne(known, arguments: [device.deviceId, pushed.opId]) != nil {
                result.duplicates.append(pushed.opId)
                continue
            }
            let op = stamps.stamped(pushed)
            let scopeColumn = try registeredScopeColumn(of: op, user: device.user, at: "/ops/\(index)", in: db)
            let partition = ScopedFold.partition(scopeColumn: scopeColumn, device: device)
            let folded = try fold(op, partition: partition, scopeColumn: scopeColumn, device: device, at: "/ops/\(index)", in: db)
            try log.execute(arguments: [op.opId, device.deviceId, packetId, op.table, op.dataId, op.type.rawValue,
                                        op.data.map { JSONWriter.write(.object($0)) }, op.dependencyId, op.timestamp, pushed.timestamp,
                                        partition, folded.scopeBefore, folded.image.map { JSONWriter.write($0.json) }, now])
            let seq = Int(db.lastInsertedRowID)
            for key in folded.keys { try file.execute(arguments: [key, seq]) }
            result.applied.append(op.opId)
        }
        result.cursor = try cursor(in: db)
        return result
    }

    /// The scope column `op` declares for its table, checked against the one `user` first synced
    /// the table with (see ``ScopedFold/scopeColumn(of:registered:at:)``).
    static func registeredScopeColumn(of op: SyncOperation, user: String, at pointer: String, in db: Database) throws -> String? {
        let stored = try Row.fetchOne(db.cachedStatement(sql: "SELECT scopeColumn FROM sync_table WHERE userId = ? AND tableName = ?"),
                                      arguments: [user, op.table])
        if stored == nil {
            try db.cachedStatement(sql: "INSERT INTO sync_table (userId, tableName, scopeColumn) VALUES (?, ?, ?)")
                .execute(arguments: [user, op.table, op.scopeColumn])
        }
        return try ScopedFold.scopeColumn(of: op, registered: stored.map { $0["scopeColumn"] as String? }, at: pointer)
    }

    /// Brings `sync_row` up to date with one op, as ``ScopedFold`` decides.
    static func fold(_ op: SyncOperation, partition: String, scopeColumn: String?, device: DeviceIdentity, at pointer: String,
                     in db: Database) throws -> ScopedFold.Folded {
        if op.type == .batch {
            let (change, scope, folded) = try ScopedFold.batch(op, partition: partition, scopeColumn: scopeColumn, device: device, at: pointer)
            var sql = "SELECT * FROM sync_row WHERE partition = ? AND tableName = ? AND deleted = 0"
            var arguments: StatementArguments = [partition, op.table]
            if let scope {
                sql += " AND scope = ?"
                arguments += [scope]
            }
            for row in try Row.fetchAll(db.cachedStatement(sql: sql + " ORDER BY dataId"), arguments: arguments) {
                if let changed = OperationFold.apply(change, of: op, to: try materialized(row)) {
                    try store(changed, partition: partition, table: op.table, scope: row["scope"], in: db)
                }
            }
            return folded
        }
        let current = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM sync_row WHERE partition = ? AND tableName = ? AND dataId = ?"),
                                       arguments: [partition, op.table, op.dataId])
        let decision = try ScopedFold.row(op, current: try current.map(materialized), scopeBefore: current?["scope"], partition: partition,
                                          scopeColumn: scopeColumn, device: device, at: pointer)
        if let write = decision.write { try store(write.row, partition: partition, table: op.table, scope: write.scope, in: db) }
        return decision.folded
    }

    static func store(_ row: MaterializedRow, partition: String, table: String, scope: String?, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO sync_row (partition, tableName, dataId, data, deleted, timestamp, opId, scope) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (partition, tableName, dataId) DO UPDATE SET
                data = excluded.data, deleted = excluded.deleted, timestamp = excluded.timestamp, opId = excluded.opId, scope = excluded.scope
            """).execute(arguments: [partition, table, row.dataId, JSONWriter.write(.object(row.data)), row.deleted, row.timestamp, row.opId, scope])
    }

    static func materialized(_ row: Row) throws -> MaterializedRow {
        try StoredText.row(table: row["tableName"], dataId: row["dataId"], dataText: row["data"], deleted: row["deleted"],
                           timestamp: row["timestamp"], opId: row["opId"])
    }

    /// The last seq ever given, compacted or not (AUTOINCREMENT keeps it in sqlite_sequence).
    static func cursor(in db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'sync_log'")) ?? 0
    }

    static func compactedThrough(in db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT value FROM sync_meta WHERE key = 'compactedThrough'")) ?? 0
    }

    // MARK: Reading the log and the state

    public func pull(for device: DeviceIdentity, after: Int, limit: Int, now: WallTime) async throws -> PullPage {
        let page = try await pool.read { db in
            try PullPage.check(after: after, compactedThrough: try Self.compactedThrough(in: db))
            let rows: [Row]
            if let keys = device.logKeys {
                let marks = Array(repeating: "?", count: keys.count).joined(separator: ", ")
                rows = try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT l.* FROM sync_log l
                    WHERE l.seq IN (SELECT seq FROM sync_log_key WHERE key IN (\(marks)) AND seq > ? ORDER BY seq LIMIT ?)
                    ORDER BY l.seq
                    """), arguments: StatementArguments(keys) + [after, limit + 1])
            } else {
                rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM sync_log WHERE seq > ? ORDER BY seq LIMIT ?"),
                                        arguments: [after, limit + 1])
            }
            return try PullPage(found: rows.map { Self.entry($0) }, after: after, limit: limit, for: device)
        }
        try await pool.write { db in
            try db.cachedStatement(sql: "UPDATE sync_device SET cursor = MAX(cursor, ?), lastSeenAt = ? WHERE id = ?")
                .execute(arguments: [after, now, device.deviceId])
        }
        return page
    }

    public func logTail(after: Int, limit: Int) async throws -> LogTail {
        try await pool.read { db in
            let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM sync_log WHERE seq > ? ORDER BY seq LIMIT ?"),
                                        arguments: [after, limit + 1])
            let entries = rows.prefix(limit)
            var keys: [Int: Set<String>] = [:]
            if let last: Int = entries.last?["seq"] {
                let filed = try Row.fetchAll(db.cachedStatement(sql: "SELECT seq, key FROM sync_log_key WHERE seq > ? AND seq <= ?"),
                                             arguments: [after, last])
                for row in filed { keys[row["seq"], default: []].insert(row["key"]) }
            }
            return LogTail(entries: entries.map { row in Self.entry(row, keys: keys[row["seq"]] ?? []) },
                           more: rows.count > limit, compactedThrough: try Self.compactedThrough(in: db), lastSeq: try Self.cursor(in: db))
        }
    }

    public func recordPulls(_ pulls: [String: PulledCursor]) async throws {
        guard !pulls.isEmpty else { return }
        try await pool.write { db in
            let update = try db.cachedStatement(sql: "UPDATE sync_device SET cursor = MAX(cursor, ?), lastSeenAt = MAX(COALESCE(lastSeenAt, 0), ?) WHERE id = ?")
            for (deviceId, pulled) in pulls { try update.execute(arguments: [pulled.cursor, pulled.at, deviceId]) }
        }
    }

    public func snapshot(for device: DeviceIdentity, part: SnapshotPart, after: RowPosition?, limit: Int?) async throws -> SyncSnapshot {
        let which = try SnapshotRows(part, for: device)
        return try await pool.read { db in
            var conditions: [String] = []
            var arguments: StatementArguments = []
            switch which {
            case .scope(let scope):
                conditions.append("partition = '' AND scope = ?")
                arguments += [scope]
            case .user(let user):
                conditions.append("partition = ? AND scope IS NULL")
                arguments += [user]
            case .granted(let scopes, let user):
                let marks = Array(repeating: "?", count: scopes.count).joined(separator: ", ")
                conditions.append("((partition = '' AND scope IN (\(marks))) OR (partition = ? AND scope IS NULL))")
                arguments += StatementArguments(scopes) + [user]
            case .all:
                break
            }
            if let after {
                conditions.append("(tableName > ? OR (tableName = ? AND dataId > ?))")
                arguments += [after.table, after.table, after.dataId]
            }
            var page = SnapshotPage(limit: limit)
            var sql = "SELECT * FROM sync_row" + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
                + " ORDER BY tableName, dataId"
            if let readLimit = page.readLimit {
                sql += " LIMIT ?"
                arguments += [readLimit]
            }
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next(), page.hasRoom() {
                page.add(try Self.materialized(row), table: row["tableName"])
            }
            return page.snapshot(cursor: try Self.cursor(in: db))
        }
    }

    public func compact(now: WallTime, retain: Duration) async throws -> Compaction {
        try await pool.write { db in
            let activeSince = now - retain
            // Every device seen within the retention holds the log back to its cursor; one that has
            // been away longer starts again from a snapshot when it returns.
            let horizon = try Int.fetchOne(db, sql: """
                SELECT MIN(cursor) FROM sync_device WHERE COALESCE(lastSeenAt, createdAt) >= ?
                """, arguments: [activeSince]) ?? Self.cursor(in: db)
            let through = try Int.fetchOne(db, sql: """
                SELECT MAX(seq) FROM sync_log WHERE seq <= ? AND loggedAt <= ?
                """, arguments: [horizon, activeSince]) ?? 0
            guard through > 0 else { return Compaction(removed: 0, compactedThrough: try Self.compactedThrough(in: db)) }
            try db.execute(sql: "DELETE FROM sync_log WHERE seq <= ?", arguments: [through])
            let removed = db.changesCount
            try db.execute(sql: "DELETE FROM sync_log_key WHERE seq <= ?", arguments: [through])
            try db.execute(sql: """
                INSERT INTO sync_meta (key, value) VALUES ('compactedThrough', ?)
                ON CONFLICT (key) DO UPDATE SET value = MAX(value, excluded.value)
                """, arguments: [through])
            return Compaction(removed: removed, compactedThrough: try Self.compactedThrough(in: db))
        }
    }

    /// A `sync_log` row as a ``LogEntry`` (its `keys` read apart, from `sync_log_key`).
    static func entry(_ row: Row, keys: Set<String> = []) -> LogEntry {
        LogEntry(seq: row["seq"], deviceId: row["deviceId"], opId: row["opId"], dataId: row["dataId"], table: row["tableName"],
                 type: row["type"], data: row["data"], dependencyId: row["dependencyId"], timestamp: row["timestamp"],
                 deviceTimestamp: row["deviceTimestamp"], scopeBefore: row["scopeBefore"], image: row["image"], keys: keys)
    }
}
