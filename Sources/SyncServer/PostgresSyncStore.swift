import Foundation
import HTTPServing
import JSON
import Logging
import PostgresNIO
import PostgresStores
import SyncProtocol
import SystemIO

/// The sync server's store in one PostgreSQL database, shared by any number of `hybrid sync-server`
/// instances: a device may talk to any of them, request by request.
///
/// Every transaction that writes the log, the state or a packet record (a push, settling a held
/// packet, a sweep, a compaction) first takes one transaction-scoped advisory lock, ``writeLock``,
/// so that writers across all instances run one at a time, as SQLite's single writer does: seqs
/// are handed out under the lock and the lock is released only after the commit is visible, so
/// commit order is seq order and a reader's snapshot always holds a prefix of the log. A pull can
/// therefore never pass an op that commits later with a smaller seq. ARCHITECTURE.md explains the
/// choice against per-row locks with a "lowest seq in flight" horizon.
///
/// Tables are those of ``SQLiteSyncStore`` in snake case, keyed text in the "C" collation so that
/// rows sort by bytes, as SQLite sorts them; `sync_meta` holds `lastSeq` (the last seq ever given,
/// compacted or not) and `compactedThrough`. ``open(_:maximumConnections:logger:)`` creates and upgrades the schema, each
/// step once, recorded in `sync_schema`.
///
/// ```swift
/// let store = try await PostgresSyncStore.open(PostgresAddress(url: "postgres://sync@127.0.0.1:5432/sync"))
/// let outcome = try await store.push(packet, now: clock.wallTime)
/// await store.close()
/// ```
public final class PostgresSyncStore: SyncStoreBackend {
    let pool: PostgresPool
    var client: PostgresClient { pool.client }
    var address: PostgresAddress { pool.address }
    var logger: Logger { pool.logger }

    /// The key of the advisory lock every writing transaction holds until it ends (ASCII "hybsync").
    static let writeLock: Int64 = 0x68_79_62_73_79_6E_63
    /// The LISTEN/NOTIFY channel on which a commit that logged ops announces the log's new last
    /// seq to every instance.
    static let commitChannel = "hybrid_sync_log"
    /// Held while the schema is created or migrated, so that instances starting together migrate once.
    static let migrationLock: Int64 = 0x68_79_62_6D_69_67_72

    private init(pool: PostgresPool) {
        self.pool = pool
    }

    /// Connects to the database at `address` (which must exist), creates or migrates the schema,
    /// and opens a pool of at most `maximumConnections` connections. Throws at once when the
    /// database cannot be reached or refuses the user, rather than waiting for it.
    public static func open(_ address: PostgresAddress, maximumConnections: Int = 10,
                            logger: Logger = Logger(label: "hybrid.sync-server.postgres", factory: { _ in SwiftLogNoOpLogHandler() }))
        async throws -> PostgresSyncStore {
        do {
            return PostgresSyncStore(pool: try await PostgresPool.open(address, migrator: migrator, maximumConnections: maximumConnections, logger: logger))
        } catch let error as PostgresStoreError {
            throw SyncServerError(.internalError, error.message)
        }
    }

    /// What went wrong, in PostgreSQL's words when the server said something: PSQLError's own
    /// description hides it.
    public static func describe(_ error: any Error) -> String {
        PostgresPool.describe(error)
    }

    /// A failure of the disk under the database, by the name SQLite's store gives it (see
    /// `SyncRefusal.storageReason`): `disk_full`, `io` or `read_only`; nil for any other error.
    static func storageReason(_ error: any Error) -> SyncServerError.Reason? {
        switch (error as? PSQLError)?.serverInfo?[.sqlState] {
        case "53100"?: .diskFull
        case "58030"?: .io
        case "25006"?: .readOnly
        default: nil
        }
    }

    /// Listens on ``commitChannel`` over a connection of its own, outside the pool: a LISTEN holds
    /// its connection for as long as it lasts, and held pulls must never wait for one.
    public func watchCommits(_ onCommit: @escaping @Sendable (CommitNews) -> Void) async throws {
        let connection = try await PostgresConnection.connect(configuration: try address.connectionConfiguration(), id: 1, logger: logger)
        do {
            try await withTaskCancellationHandler {
                try await connection.listen(on: Self.commitChannel) { notifications in
                    // Commits made while the LISTEN was being set up are not missed: held pulls
                    // read the store again on this first call.
                    onCommit(.anywhere)
                    for try await notification in notifications { onCommit(CommitNews(payload: notification.payload)) }
                }
            } onCancel: {
                Task { try? await connection.close() }
            }
        } catch {
            try? await connection.close()
            try Task.checkCancellation()
            throw error
        }
        try? await connection.close()
        try Task.checkCancellation()
    }

    public var kind: String { "postgres" }

    public func ping() async throws {
        _ = try await client.withConnection { connection in try await self.rows("SELECT 1", on: connection) }
    }

    public func figures() async throws -> StoreFigures {
        try await client.withConnection { connection in
            // One statement: one snapshot, one round trip.
            let row = try await self.rows("""
                SELECT (SELECT COUNT(*) FROM sync_packet WHERE state = 'held'),
                       (SELECT value FROM sync_meta WHERE key = 'lastSeq'),
                       (SELECT value FROM sync_meta WHERE key = 'compactedThrough')
                """, on: connection).first
            let (held, lastSeq, compactedThrough) = try row?.decode((Int, Int?, Int?).self) ?? (0, nil, nil)
            return StoreFigures(heldPackets: held, lastSeq: lastSeq ?? 0, compactedThrough: compactedThrough ?? 0)
        }
    }

    public func close() async {
        await pool.close()
    }

    // MARK: Schema

    /// Named, ordered migrations, each applied once in its own transaction; add new ones at the end,
    /// never edit one that has shipped.
    static let migrations: [(name: String, statements: [String])] = [
        ("v1", [
            """
            CREATE TABLE sync_device (
                id TEXT PRIMARY KEY,
                name TEXT,
                token_digest TEXT NOT NULL UNIQUE,
                packet_count BIGINT NOT NULL DEFAULT 0,
                created_at DOUBLE PRECISION NOT NULL,
                user_id TEXT NOT NULL DEFAULT '',
                scopes TEXT,
                cursor BIGINT NOT NULL DEFAULT 0,
                last_seen_at DOUBLE PRECISION
            )
            """,
            """
            CREATE TABLE sync_packet (
                device_id TEXT NOT NULL REFERENCES sync_device(id),
                packet_id TEXT NOT NULL,
                seq BIGINT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('applied', 'held', 'rejected')),
                dependency TEXT,
                reason TEXT,
                refused_op_id TEXT,
                ops TEXT,
                applied TEXT,
                duplicates TEXT,
                cursor BIGINT,
                received_at DOUBLE PRECISION NOT NULL,
                settled_at DOUBLE PRECISION,
                PRIMARY KEY (device_id, packet_id),
                UNIQUE (device_id, seq)
            )
            """,
            "CREATE INDEX sync_packet_held ON sync_packet(device_id, seq) WHERE state = 'held'",
            """
            CREATE TABLE sync_log (
                seq BIGINT PRIMARY KEY,
                op_id TEXT NOT NULL UNIQUE,
                device_id TEXT NOT NULL,
                packet_id TEXT NOT NULL,
                table_name TEXT NOT NULL,
                data_id TEXT NOT NULL,
                type TEXT NOT NULL,
                data TEXT,
                dependency_id TEXT,
                timestamp DOUBLE PRECISION NOT NULL,
                partition TEXT NOT NULL,
                scope_before TEXT,
                image TEXT,
                logged_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE TABLE sync_log_key (key TEXT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (key, seq))",
            "CREATE TABLE sync_table (table_name TEXT PRIMARY KEY, scope_column TEXT)",
            """
            CREATE TABLE sync_row (
                partition TEXT COLLATE "C" NOT NULL,
                table_name TEXT COLLATE "C" NOT NULL,
                data_id TEXT COLLATE "C" NOT NULL,
                data TEXT NOT NULL,
                deleted BOOLEAN NOT NULL,
                timestamp DOUBLE PRECISION NOT NULL,
                op_id TEXT NOT NULL,
                scope TEXT COLLATE "C",
                PRIMARY KEY (partition, table_name, data_id)
            )
            """,
            "CREATE INDEX sync_row_scope ON sync_row(scope, table_name, data_id) WHERE scope IS NOT NULL",
            "CREATE TABLE sync_meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL)",
            "INSERT INTO sync_meta (key, value) VALUES ('lastSeq', 0), ('compactedThrough', 0)",
        ]),
        // The keys of one seq (``logTail(after:limit:)``): the primary key leads with the key.
        ("log keys by seq", ["CREATE INDEX sync_log_key_seq ON sync_log_key(seq)"]),
        // A table's scope column is fixed per user, by the user's first op on it: one tenant's
        // first op no longer fixes it for every other. Each user there is keeps what the server had.
        ("tables per user", [
            """
            CREATE TABLE sync_user_table (
                user_id TEXT NOT NULL,
                table_name TEXT NOT NULL,
                scope_column TEXT,
                PRIMARY KEY (user_id, table_name)
            )
            """,
            """
            INSERT INTO sync_user_table (user_id, table_name, scope_column)
            SELECT u.user_id, t.table_name, t.scope_column FROM (SELECT DISTINCT user_id FROM sync_device) u CROSS JOIN sync_table t
            """,
            "DROP TABLE sync_table",
            "ALTER TABLE sync_user_table RENAME TO sync_table",
            "ALTER INDEX sync_user_table_pkey RENAME TO sync_table_pkey",
        ]),
        // Op ids are deduplicated per device, not across every user: whoever learned another
        // device's next opId could otherwise push it first and have that device's op skipped.
        ("op ids per device", [
            "ALTER TABLE sync_log DROP CONSTRAINT sync_log_op_id_key",
            "ALTER TABLE sync_log ADD CONSTRAINT sync_log_device_op_id_key UNIQUE (device_id, op_id)",
        ]),
        // The server stamps each op as it logs it (``SyncOperationStamps``) and keeps the device's
        // stamp beside it; the entries logged before were ordered by the device's, which is both.
        ("the server's clock", [
            "ALTER TABLE sync_log ADD COLUMN device_timestamp DOUBLE PRECISION",
            "UPDATE sync_log SET device_timestamp = timestamp",
        ]),
    ]

    /// The schema's migrations, recorded in `sync_schema`, under ``migrationLock`` so that
    /// instances starting at once apply each migration once.
    static let migrator = PostgresMigrator(schemaTable: "sync_schema", lock: migrationLock, migrations: migrations)

    // MARK: Transactions

    /// Runs `body` in one transaction on one pooled connection: committed when it returns, rolled
    /// back when it throws (its error, not the rollback's, is rethrown).
    func transaction<Result: Sendable>(_ begin: String = "BEGIN",
                                       _ body: @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        try await pool.transaction(begin, body)
    }

    /// A transaction that writes the log, the state or packet records: it holds ``writeLock``.
    func writing<Result: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        try await transaction { connection in
            _ = try await connection.query("SELECT pg_advisory_xact_lock(\(Self.writeLock))", logger: self.logger).collect()
            return try await body(connection)
        }
    }

    /// A read that sees one snapshot throughout.
    func reading<Result: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    @discardableResult
    func rows(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> [PostgresRow] {
        try await connection.query(query, logger: logger).collect()
    }

    // MARK: Devices

    public func registerDevice(name: String?, tokenDigest: String, user: String, scopes: [String]?, now: WallTime) async throws -> String {
        let id = UUID().uuidString.lowercased()
        let scopesText = scopes.map(StoredText.list)
        _ = try await client.query("""
            INSERT INTO sync_device (id, name, token_digest, created_at, user_id, scopes, last_seen_at)
            VALUES (\(id), \(name), \(tokenDigest), \(now), \(user), \(scopesText), \(now))
            """, logger: logger).collect()
        return id
    }

    public func deviceCount(user: String) async throws -> Int {
        try await client.query("SELECT COUNT(*)::bigint FROM sync_device WHERE user_id = \(user)", logger: logger).collect().first?.decode(Int.self) ?? 0
    }

    public func device(tokenDigest: String) async throws -> DeviceIdentity? {
        let rows = try await client.query("SELECT id, user_id, scopes FROM sync_device WHERE token_digest = \(tokenDigest)", logger: logger).collect()
        return try rows.first.map(Self.identity)
    }

    public func device(id deviceId: String, user: String, scopes: [String], now: WallTime) async throws -> DeviceIdentity {
        let rows = try await client.query("SELECT id, user_id, scopes, last_seen_at FROM sync_device WHERE id = \(deviceId)", logger: logger).collect()
        guard let row = rows.first else { throw DeviceIdentity.noDevice(deviceId) }
        let (_, owner, storedScopes, lastSeen) = try row.decode((String, String, String?, WallTime?).self)
        // Another user's device is answered as no device: nobody learns which ids exist.
        guard ByteString(owner) == ByteString(user) else { throw DeviceIdentity.noDevice(deviceId) }
        // A write only when the grant changed, or once a minute to keep the device active.
        if try !ByteString.same(StoredText.strings(storedScopes), scopes) || lastSeen.map({ now - $0 > .seconds(60) }) ?? true {
            let scopesText = StoredText.list(scopes)
            _ = try await client.query("UPDATE sync_device SET scopes = \(scopesText), last_seen_at = \(now) WHERE id = \(deviceId)",
                                       logger: logger).collect()
        }
        return DeviceIdentity(deviceId: deviceId, user: user, scopes: scopes)
    }

    static func identity(_ row: PostgresRow) throws -> DeviceIdentity {
        let (id, user, scopes) = try row.decode((String, String, String?).self)
        return DeviceIdentity(deviceId: id, user: user, scopes: try StoredText.strings(scopes))
    }

    /// The device's identity as its row says, for a packet settled without a request.
    func identity(deviceId: String, on connection: PostgresConnection) async throws -> DeviceIdentity {
        guard let row = try await rows("SELECT id, user_id, scopes FROM sync_device WHERE id = \(deviceId)", on: connection).first else {
            throw DeviceIdentity.unknown(deviceId)
        }
        return try Self.identity(row)
    }

    // MARK: Packets: the algorithm's steps (``SyncStoreBackend``), each one transaction under ``writeLock``

    public func push(_ packet: PushPacket, now: WallTime) async throws -> PushOutcome {
        try await receiveAndSettle(packet, now: now)
    }

    public func sweep(now: WallTime, hold: Duration) async throws {
        try await sweepHeld(now: now, hold: hold)
    }

    func receive(_ packet: PushPacket, now: WallTime) async throws -> (outcome: PushOutcome, growth: LogGrowth) {
        try await writing { connection in try await self.receive(packet, now: now, on: connection) }
    }

    func anyHeld(deviceId: String?) async throws -> Bool {
        let query: PostgresQuery = deviceId == nil
            ? "SELECT EXISTS (SELECT 1 FROM sync_packet WHERE state = 'held')"
            : "SELECT EXISTS (SELECT 1 FROM sync_packet WHERE state = 'held' AND (\(deviceId)::text IS NULL OR device_id = \(deviceId)))"
        return try await client.query(query, logger: logger).collect().first?.decode(Bool.self) ?? false
    }

    func settleNext(deviceId: String?, now: WallTime) async throws -> LogGrowth? {
        try await writing { connection in try await self.settleNext(deviceId: deviceId, now: now, on: connection) }
    }

    /// Nothing to do: a commit that logged ops notifies every instance itself, in the statement
    /// that advances `lastSeq` (``apply(_:device:packetId:now:on:)``), and one rolled back never does.
    func announce(keys: [String]?) {}

    func rejectOverdue(now: WallTime, hold: Duration) async throws {
        try await writing { connection in
            let deadline = now - hold
            let overdue = try await self.rows("""
                SELECT EXISTS (SELECT 1 FROM sync_packet WHERE state = 'held' AND received_at <= \(deadline))
                """, on: connection).first?.decode(Bool.self) ?? false
            guard overdue else { return }
            let held = try await self.rows("""
                SELECT p.device_id, p.packet_id, p.dependency, p.received_at, d.state
                FROM sync_packet p LEFT JOIN sync_packet d ON d.device_id = p.device_id AND d.packet_id = p.dependency
                WHERE p.state = 'held'
                ORDER BY p.received_at, p.device_id, p.seq
                """, on: connection).map { row in
                let (deviceId, packetId, dependency, receivedAt, dependencyState) = try row.decode((String, String, String, WallTime, String?).self)
                return HeldPacketExpiry.Held(deviceId: deviceId, packetId: packetId, dependency: dependency, receivedAt: receivedAt,
                                             dependencyState: dependencyState.flatMap(PacketState.init(rawValue:)))
            }
            for rejection in HeldPacketExpiry.rejections(held, now: now, hold: hold) {
                try await self.reject(deviceId: rejection.deviceId, packetId: rejection.packetId, reason: rejection.reason, now: now, on: connection)
            }
        }
    }

    public func packet(deviceId: String, packetId: String) async throws -> StoredPacket? {
        try await client.withConnection { connection in try await self.record(deviceId: deviceId, packetId: packetId, on: connection) }
    }

    /// Settles the first held packet (of `deviceId`, or of any device) whose dependency has
    /// settled, as ``HeldPacket`` decides; nil when there is none. Under the write lock, so any
    /// instance may finish settling a chain another started.
    func settleNext(deviceId: String?, now: WallTime, on connection: PostgresConnection) async throws -> LogGrowth? {
        var sql = """
            SELECT p.device_id, p.packet_id, p.dependency, p.ops, d.state
            FROM sync_packet p JOIN sync_packet d ON d.device_id = p.device_id AND d.packet_id = p.dependency
            WHERE p.state = 'held' AND d.state != 'held'
            """
        var binds = PostgresBindings()
        if let deviceId {
            sql += " AND p.device_id = $1"
            binds.append(deviceId)
        }
        sql += " ORDER BY p.device_id, p.seq LIMIT 1"
        guard let row = try await rows(PostgresQuery(unsafeSQL: sql, binds: binds), on: connection).first else { return nil }
        let (readyDevice, packetId, dependency, opsText, dependencyState) = try row.decode((String, String, String, String?, String).self)
        let ready = HeldPacket(deviceId: readyDevice, packetId: packetId, dependency: dependency, ops: opsText, dependencyState: dependencyState)
        switch try ready.settlement() {
        case .reject(let reason):
            try await reject(deviceId: readyDevice, packetId: packetId, reason: reason, now: now, on: connection)
            return LogGrowth.nothing
        case .apply(let ops):
            let device = try await identity(deviceId: readyDevice, on: connection)
            let result: AppliedOps
            // A savepoint, so that a refused op leaves nothing of the packet behind.
            try await rows("SAVEPOINT held_packet", on: connection)
            do {
                result = try await apply(ops, device: device, packetId: packetId, now: now, on: connection)
            } catch let refusal as SyncServerError where HeldPacket.rejects(refusal) {
                try await rows("ROLLBACK TO SAVEPOINT held_packet", on: connection)
                try await reject(deviceId: readyDevice, packetId: packetId, reason: refusal.message, refusedOpId: refusal.opId, now: now,
                                 on: connection)
                return LogGrowth.nothing
            }
            let (applied, duplicates) = (StoredText.list(result.applied), StoredText.list(result.duplicates))
            try await rows("""
                UPDATE sync_packet SET state = 'applied', ops = NULL, applied = \(applied), duplicates = \(duplicates),
                    cursor = \(result.cursor), settled_at = \(now)
                WHERE device_id = \(readyDevice) AND packet_id = \(packetId)
                """, on: connection)
            return result.growth(by: device)
        }
    }

    /// Records a packet's arrival and applies it when it can, as ``PacketArrival`` decides: the
    /// first half of a push, under the write lock.
    func receive(_ packet: PushPacket, now: WallTime, on connection: PostgresConnection) async throws -> (outcome: PushOutcome, growth: LogGrowth) {
        if let known = try await record(deviceId: packet.deviceId, packetId: packet.packetId, on: connection) { return (known.outcome, .nothing) }
        // The packet's number and the device's grant as recorded, in one round trip.
        guard let counted = try await rows("""
            UPDATE sync_device SET packet_count = packet_count + 1 WHERE id = \(packet.deviceId) RETURNING packet_count, id, user_id, scopes
            """, on: connection).first else {
            throw DeviceIdentity.unknown(packet.deviceId)
        }
        let (seq, id, user, scopes) = try counted.decode((Int, String, String, String?).self)
        let device = DeviceIdentity(deviceId: id, user: user, scopes: try StoredText.strings(scopes))
        var dependencyState: PacketState?
        if let dependency = packet.dependencyIdentifier {
            let state = try await rows("""
                SELECT state FROM sync_packet WHERE device_id = \(packet.deviceId) AND packet_id = \(dependency)
                """, on: connection).first?.decode(String.self)
            dependencyState = state.flatMap(PacketState.init(rawValue:))
        }
        if case .recorded(let record, let heldOps) = PacketArrival.of(packet, seq: seq, dependencyState: dependencyState, now: now) {
            try await insert(record, heldOps: heldOps, on: connection)
            return (record.outcome, .nothing)
        }
        let result = try await apply(packet.ops, device: device, packetId: packet.packetId, now: now, on: connection)
        try await insert(PacketArrival.applied(packet, seq: seq, ops: result, now: now), heldOps: nil, on: connection)
        return (result.outcome, result.growth(by: device))
    }

    func insert(_ record: StoredPacket, heldOps: String?, on connection: PostgresConnection) async throws {
        let applied = record.applied.map(StoredText.list)
        let duplicates = record.duplicates.map(StoredText.list)
        try await rows("""
            INSERT INTO sync_packet (device_id, packet_id, seq, state, dependency, reason, ops, applied, duplicates, cursor, received_at, settled_at)
            VALUES (\(record.deviceId), \(record.packetId), \(record.seq), \(record.state.rawValue), \(record.dependencyIdentifier), \(record.reason),
                    \(heldOps), \(applied), \(duplicates), \(record.cursor), \(record.receivedAt), \(record.settledAt))
            """, on: connection)
    }

    func reject(deviceId: String, packetId: String, reason: String, refusedOpId: String? = nil, now: WallTime,
                on connection: PostgresConnection) async throws {
        try await rows("""
            UPDATE sync_packet SET state = 'rejected', reason = \(reason), refused_op_id = \(refusedOpId), ops = NULL, settled_at = \(now)
            WHERE device_id = \(deviceId) AND packet_id = \(packetId)
            """, on: connection)
    }

    func record(deviceId: String, packetId: String, on connection: PostgresConnection) async throws -> StoredPacket? {
        guard let row = try await rows("""
            SELECT device_id, packet_id, seq, state, dependency, reason, refused_op_id, applied, duplicates, cursor, received_at, settled_at
            FROM sync_packet WHERE device_id = \(deviceId) AND packet_id = \(packetId)
            """, on: connection).first else { return nil }
        let (device, packet, seq, stateName, dependency, reason, refusedOpId, applied, duplicates, cursor, receivedAt, settledAt)
            = try row.decode((String, String, Int, String, String?, String?, String?, String?, String?, Int?, WallTime, WallTime?).self)
        guard let state = PacketState(rawValue: stateName) else {
            throw SyncServerError(.internalError, "packet \(packetId) has an unknown state \(stateName)")
        }
        return StoredPacket(deviceId: device, packetId: packet, seq: seq, state: state, dependencyIdentifier: dependency, reason: reason,
                            refusedOpId: refusedOpId, applied: try StoredText.strings(applied), duplicates: try StoredText.strings(duplicates),
                            cursor: cursor, receivedAt: receivedAt, settledAt: settledAt)
    }

    // MARK: Applying ops

    /// Logs each op its device has not logged before (by opId) and folds it into the rows, as
    /// ``ScopedFold`` decides; returns what was applied, what was skipped, and the log's last seq.
    /// Runs under the write lock, so `lastSeq` is read and advanced by one transaction at a time.
    func apply(_ ops: [SyncOperation], device: DeviceIdentity, packetId: String, now: WallTime,
               on connection: PostgresConnection) async throws -> AppliedOps {
        var result = AppliedOps()
        // One round trip for the last seq and what is logged already, and one per table for its
        // scope column: a push costs a few statements per op, not one per question.
        let opIds = ops.map(\.opId)
        let (lastSeqFound, loggedIds, lastStamp) = try await rows("""
            SELECT (SELECT value FROM sync_meta WHERE key = 'lastSeq'),
                   ARRAY(SELECT op_id FROM sync_log WHERE device_id = \(device.deviceId) AND op_id = ANY(\(opIds))),
                   (\(unescaped: SyncOperationStamps.lastStampSQL))::float8
            """, on: connection).first?.decode((Int?, [String], Double).self) ?? (nil, [], 0)
        var lastSeq = lastSeqFound ?? 0
        var stamps = SyncOperationStamps(last: lastStamp, now: now)
        let firstAfter = lastSeq
        var entries: [LogEntry] = []
        // By bytes, as the database keys them: Swift's String equality would take "\u{212A}-1" for "K-1".
        var logged = Set(loggedIds.map(ByteString.init))
        var scopeColumns: [ByteString: String?] = [:]
        for (index, pushed) in ops.enumerated() {
            if logged.contains(ByteString(pushed.opId)) {
                result.duplicates.append(pushed.opId)
                continue
            }
            let op = stamps.stamped(pushed)
            let pointer = "/ops/\(index)"
            let scopeColumn: String?
            if let known = scopeColumns[ByteString(op.table)] {
                scopeColumn = try ScopedFold.scopeColumn(of: op, registered: .some(known), at: pointer)
            } else {
                scopeColumn = try await registeredScopeColumn(of: op, user: device.user, at: pointer, on: connection)
                scopeColumns[ByteString(op.table)] = .some(scopeColumn)
            }
            let partition = ScopedFold.partition(scopeColumn: scopeColumn, device: device)
            let folded = try await fold(op, partition: partition, scopeColumn: scopeColumn, device: device, at: pointer, on: connection)
            lastSeq += 1
            let data = op.data.map { JSONWriter.write(.object($0)) }
            let image = folded.image.map { JSONWriter.write($0.json) }
            try await rows("""
                WITH entry AS (
                    INSERT INTO sync_log (seq, op_id, device_id, packet_id, table_name, data_id, type, data, dependency_id, timestamp,
                                          device_timestamp, partition, scope_before, image, logged_at)
                    VALUES (\(lastSeq), \(op.opId), \(device.deviceId), \(packetId), \(op.table), \(op.dataId), \(op.type.rawValue), \(data),
                            \(op.dependencyId), \(op.timestamp), \(pushed.timestamp), \(partition), \(folded.scopeBefore), \(image), \(now))
                    RETURNING seq)
                INSERT INTO sync_log_key (key, seq) SELECT key, entry.seq FROM entry, unnest(\(folded.keys)::text[]) AS key ON CONFLICT DO NOTHING
                """, on: connection)
            entries.append(LogEntry(seq: lastSeq, deviceId: device.deviceId, opId: op.opId, dataId: op.dataId, table: op.table,
                                    type: op.type.rawValue, data: data, dependencyId: op.dependencyId, timestamp: op.timestamp, deviceTimestamp: pushed.timestamp,
                                    scopeBefore: folded.scopeBefore, image: image, keys: Set(folded.keys)))
            logged.insert(ByteString(op.opId))
            result.applied.append(op.opId)
        }
        if !result.applied.isEmpty {
            // The notification leaves at commit (not at all on a rollback), to every instance's
            // ``watchCommits(_:)``, with the entries when they fit, so that no instance reads them
            // back; the FROM clause makes it one round trip with the update.
            let news = CommitNews.payload(lastSeq: lastSeq, keys: device.logKeys, after: firstAfter, entries: entries)
            try await rows("""
                UPDATE sync_meta SET value = \(lastSeq) FROM (SELECT pg_notify(\(Self.commitChannel), \(news))) AS news
                WHERE key = 'lastSeq'
                """, on: connection)
        }
        result.cursor = lastSeq
        return result
    }

    /// The scope column `op` declares for its table, checked against the one `user` first synced
    /// the table with (see ``ScopedFold/scopeColumn(of:registered:at:)``).
    func registeredScopeColumn(of op: SyncOperation, user: String, at pointer: String, on connection: PostgresConnection) async throws -> String? {
        let stored = try await rows("SELECT scope_column FROM sync_table WHERE user_id = \(user) AND table_name = \(op.table)", on: connection).first
        if stored == nil {
            try await rows("INSERT INTO sync_table (user_id, table_name, scope_column) VALUES (\(user), \(op.table), \(op.scopeColumn))",
                           on: connection)
        }
        return try ScopedFold.scopeColumn(of: op, registered: try stored.map { try $0.decode(String?.self) }, at: pointer)
    }

    /// Brings `sync_row` up to date with one op, as ``ScopedFold`` decides.
    func fold(_ op: SyncOperation, partition: String, scopeColumn: String?, device: DeviceIdentity, at pointer: String,
              on connection: PostgresConnection) async throws -> ScopedFold.Folded {
        if op.type == .batch {
            let (change, scope, folded) = try ScopedFold.batch(op, partition: partition, scopeColumn: scopeColumn, device: device, at: pointer)
            var binds = PostgresBindings()
            binds.append(partition)
            binds.append(op.table)
            var sql = "SELECT \(Self.rowColumns) FROM sync_row WHERE partition = $1 AND table_name = $2 AND deleted = false"
            if let scope {
                sql += " AND scope = $3"
                binds.append(scope)
            }
            for row in try await rows(PostgresQuery(unsafeSQL: sql + " ORDER BY data_id", binds: binds), on: connection) {
                let (current, rowScope) = try Self.materialized(row)
                if let changed = OperationFold.apply(change, of: op, to: current) {
                    try await store(changed, partition: partition, table: op.table, scope: rowScope, on: connection)
                }
            }
            return folded
        }
        let current = try await rows("""
            SELECT \(unescaped: Self.rowColumns) FROM sync_row WHERE partition = \(partition) AND table_name = \(op.table) AND data_id = \(op.dataId)
            """, on: connection).first.map(Self.materialized)
        let decision = try ScopedFold.row(op, current: current?.row, scopeBefore: current?.scope, partition: partition,
                                          scopeColumn: scopeColumn, device: device, at: pointer)
        if let write = decision.write { try await store(write.row, partition: partition, table: op.table, scope: write.scope, on: connection) }
        return decision.folded
    }

    func store(_ row: MaterializedRow, partition: String, table: String, scope: String?, on connection: PostgresConnection) async throws {
        let data = JSONWriter.write(.object(row.data))
        try await rows("""
            INSERT INTO sync_row (partition, table_name, data_id, data, deleted, timestamp, op_id, scope)
            VALUES (\(partition), \(table), \(row.dataId), \(data), \(row.deleted), \(row.timestamp), \(row.opId), \(scope))
            ON CONFLICT (partition, table_name, data_id) DO UPDATE SET
                data = excluded.data, deleted = excluded.deleted, timestamp = excluded.timestamp, op_id = excluded.op_id, scope = excluded.scope
            """, on: connection)
    }

    static let rowColumns = "table_name, data_id, data, deleted, timestamp, op_id, scope"

    static func materialized(_ row: PostgresRow) throws -> (row: MaterializedRow, scope: String?) {
        let (table, dataId, data, deleted, timestamp, opId, scope) = try row.decode((String, String, String, Bool, Double, String, String?).self)
        return (try StoredText.row(table: table, dataId: dataId, dataText: data, deleted: deleted, timestamp: timestamp, opId: opId), scope)
    }

    func meta(_ key: String, on connection: PostgresConnection) async throws -> Int {
        try await rows("SELECT value FROM sync_meta WHERE key = \(key)", on: connection).first?.decode(Int.self) ?? 0
    }

    // MARK: Reading the log and the state

    public func pull(for device: DeviceIdentity, after: Int, limit: Int, now: WallTime) async throws -> PullPage {
        let page = try await reading { connection in
            try PullPage.check(after: after, compactedThrough: try await self.meta("compactedThrough", on: connection))
            let columns = "l.seq, l.device_id, l.op_id, l.data_id, l.table_name, l.type, l.data, l.dependency_id, l.timestamp, l.scope_before, l.image, l.device_timestamp"
            let found: [PostgresRow]
            if let keys = device.logKeys {
                found = try await self.rows("""
                    SELECT \(unescaped: columns) FROM sync_log l
                    WHERE l.seq IN (SELECT DISTINCT seq FROM sync_log_key WHERE key = ANY(\(keys)) AND seq > \(after) ORDER BY seq LIMIT \(limit + 1))
                    ORDER BY l.seq
                    """, on: connection)
            } else {
                found = try await self.rows("SELECT \(unescaped: columns) FROM sync_log l WHERE l.seq > \(after) ORDER BY l.seq LIMIT \(limit + 1)",
                                            on: connection)
            }
            let entries = try found.map { row in
                let (seq, deviceId, opId, dataId, table, type, data, dependencyId, timestamp, scopeBefore, image, deviceTimestamp)
                    = try row.decode((Int, String, String, String, String, String, String?, String?, Double, String?, String?, Double?).self)
                return LogEntry(seq: seq, deviceId: deviceId, opId: opId, dataId: dataId, table: table, type: type, data: data,
                                dependencyId: dependencyId, timestamp: timestamp, deviceTimestamp: deviceTimestamp, scopeBefore: scopeBefore,
                                image: image, keys: [])
            }
            return try PullPage(found: entries, after: after, limit: limit, for: device)
        }
        _ = try await client.query("""
            UPDATE sync_device SET cursor = GREATEST(cursor, \(after)), last_seen_at = \(now) WHERE id = \(device.deviceId)
            """, logger: logger).collect()
        return page
    }

    public func logTail(after: Int, limit: Int) async throws -> LogTail {
        // One statement, so one snapshot and one round trip: the marks in the first columns of
        // every row, and a row of them alone (the entry's columns null) when no entry follows.
        let found = try await client.query("""
            SELECT m.compacted, m.last, l.seq, l.device_id, l.op_id, l.data_id, l.table_name, l.type, l.data, l.dependency_id, l.timestamp,
                   l.scope_before, l.image, ARRAY(SELECT k.key FROM sync_log_key k WHERE k.seq = l.seq), l.device_timestamp
            FROM (SELECT (SELECT value FROM sync_meta WHERE key = 'compactedThrough') AS compacted,
                         (SELECT value FROM sync_meta WHERE key = 'lastSeq') AS last) m
            LEFT JOIN LATERAL (SELECT * FROM sync_log WHERE seq > \(after) ORDER BY seq LIMIT \(limit + 1)) l ON true
            ORDER BY l.seq
            """, logger: logger).collect()
        var (compactedThrough, lastSeq) = (0, 0)
        var entries: [LogEntry] = []
        for row in found {
            let (compacted, last, seq, deviceId, opId, dataId, table, type, data, dependencyId, timestamp, scopeBefore, image, keys, deviceTimestamp)
                = try row.decode((Int?, Int?, Int?, String?, String?, String?, String?, String?, String?, String?, Double?, String?, String?,
                                  [String], Double?).self)
            (compactedThrough, lastSeq) = (compacted ?? 0, last ?? 0)
            guard let seq, let deviceId, let opId, let dataId, let table, let type, let timestamp else { continue }
            entries.append(LogEntry(seq: seq, deviceId: deviceId, opId: opId, dataId: dataId, table: table, type: type, data: data,
                                    dependencyId: dependencyId, timestamp: timestamp, deviceTimestamp: deviceTimestamp, scopeBefore: scopeBefore,
                                    image: image, keys: Set(keys)))
        }
        return LogTail(entries: Array(entries.prefix(limit)), more: entries.count > limit, compactedThrough: compactedThrough, lastSeq: lastSeq)
    }

    public func recordPulls(_ pulls: [String: PulledCursor]) async throws {
        try await recordPulls(pulls, order: Array(pulls.keys))
    }

    /// `pulls`, sent to the database in the order of `ids` (its keys), which tests choose.
    func recordPulls(_ pulls: [String: PulledCursor], order ids: [String]) async throws {
        guard !pulls.isEmpty else { return }
        let cursors = ids.map { pulls[$0]!.cursor }
        let times = ids.map { pulls[$0]!.at.secondsSince1970 }
        // One statement for all of them, outside the write lock, as a pull's own update is. The
        // rows are locked in the order of their ids first: another instance writes its batch over
        // the same devices, and two batches locking in their own orders deadlocked, each waiting
        // for a row the other held until PostgreSQL broke it a second later, with every push
        // waiting behind them (a push holds the write lock while it updates its device's row).
        _ = try await client.query("""
            WITH p AS (SELECT * FROM unnest(\(ids)::text[], \(cursors)::bigint[], \(times)::float8[]) AS p(id, cursor, at)),
                 locked AS (SELECT id FROM sync_device WHERE id IN (SELECT id FROM p) ORDER BY id FOR NO KEY UPDATE)
            UPDATE sync_device d SET cursor = GREATEST(d.cursor, p.cursor), last_seen_at = GREATEST(COALESCE(d.last_seen_at, 0), p.at)
            FROM p JOIN locked USING (id) WHERE d.id = p.id
            """, logger: logger).collect()
    }

    public func snapshot(for device: DeviceIdentity, part: SnapshotPart, after: RowPosition?, limit: Int?) async throws -> SyncSnapshot {
        var conditions: [String] = []
        var binds = PostgresBindings()
        func bind(_ value: some PostgresDynamicTypeEncodable) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
        switch try SnapshotRows(part, for: device) {
        case .scope(let scope):
            conditions.append("partition = '' AND scope = \(bind(scope))")
        case .user(let user):
            conditions.append("partition = \(bind(user)) AND scope IS NULL")
        case .granted(let scopes, let user):
            conditions.append("((partition = '' AND scope = ANY(\(bind(scopes)))) OR (partition = \(bind(user)) AND scope IS NULL))")
        case .all:
            break
        }
        if let after {
            let table = bind(after.table)
            conditions.append("(table_name > \(table) OR (table_name = \(table) AND data_id > \(bind(after.dataId))))")
        }
        var sql = "SELECT \(Self.rowColumns) FROM sync_row" + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
            + " ORDER BY table_name, data_id"
        let empty = SnapshotPage(limit: limit)
        if let readLimit = empty.readLimit { sql += " LIMIT \(bind(readLimit))" }
        let query = PostgresQuery(unsafeSQL: sql, binds: binds)
        return try await reading { connection in
            var page = empty
            for row in try await self.rows(query, on: connection) {
                guard page.hasRoom() else { break }
                let (materialized, _) = try Self.materialized(row)
                page.add(materialized, table: try row.decode(String.self))
            }
            return page.snapshot(cursor: try await self.meta("lastSeq", on: connection))
        }
    }

    public func compact(now: WallTime, retain: Duration) async throws -> Compaction {
        try await writing { connection in
            let activeSince = now - retain
            // Every device seen within the retention holds the log back to its cursor; one that has
            // been away longer starts again from a snapshot when it returns.
            let horizon = try await self.rows("""
                SELECT MIN(cursor) FROM sync_device WHERE COALESCE(last_seen_at, created_at) >= \(activeSince)
                """, on: connection).first?.decode(Int?.self)
            let through = try await self.rows("""
                SELECT MAX(seq) FROM sync_log WHERE seq <= \(horizon ?? Int.max) AND logged_at <= \(activeSince)
                """, on: connection).first?.decode(Int?.self) ?? 0
            guard through > 0 else { return Compaction(removed: 0, compactedThrough: try await self.meta("compactedThrough", on: connection)) }
            let removed = try await self.rows("DELETE FROM sync_log WHERE seq <= \(through) RETURNING 1", on: connection).count
            try await self.rows("DELETE FROM sync_log_key WHERE seq <= \(through)", on: connection)
            // News from anywhere: each instance reads the log again and learns the new mark, below
            // which its memory must not answer (carried entries alone would never tell it).
            try await self.rows("""
                UPDATE sync_meta SET value = GREATEST(value, \(through)) FROM (SELECT pg_notify(\(Self.commitChannel), '{}')) AS news
                WHERE key = 'compactedThrough'
                """, on: connection)
            return Compaction(removed: removed, compactedThrough: try await self.meta("compactedThrough", on: connection))
        }
    }
}
