import JSON
import Logging
import PatchProtocol
import PostgresNIO
import PostgresStores

/// A patch server's state in one PostgreSQL database (`--db postgres://…`), shared by any number
/// of `hybrid patch-server` instances: a publisher or a device may reach any of them, request by
/// request.
///
/// The tables are ``SQLitePatchStore``'s (``PatchSchema``), and what must happen once whichever
/// instance is asked is decided by PostgreSQL in the statement that writes it, never by a read
/// before it: a version is published by the insert that finds its key free (else 409), a vote is
/// counted by the insert that finds it absent, and a change of rollout or state is made only while
/// the patch's state is the one it was decided on (``update(_:expecting:action:details:subject:at:)``;
/// a concurrent update waits for the row and then finds its state changed), so that of the
/// reports that pass the rollback bound at once on several instances one halts the patch and
/// writes the audit entry. Each change is written with its audit entry in one transaction.
///
/// Nothing an instance keeps in memory can go stale: every check reads the candidate patches, their
/// rollout and state from the database, and the offers ``PatchEndpoints`` caches are made of a
/// published patch's file and sources, which never change.
///
/// ```swift
/// let store = try await PostgresPatchStore.open(PostgresAddress(url: "postgres://patches@127.0.0.1:5432/patches"))
/// let apps = try await store.apps()
/// await store.close()
/// ```
public final class PostgresPatchStore: PatchStore {
    let pool: PostgresPool
    var logger: Logger { pool.logger }

    /// Held while the schema is created or migrated, so that instances starting together migrate once (ASCII "hybpmig").
    static let migrationLock: Int64 = 0x68_79_62_70_6D_69_67

    /// ``SQLitePatchStore``'s migrations, in PostgreSQL's types; add new ones at the end.
    static let migrator = PostgresMigrator(schemaTable: "patch_schema", lock: migrationLock, migrations: [
        ("v1", PatchSchema.tables(auditId: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", text: "TEXT COLLATE \"C\"")),
        ("v2: vote times", [PatchSchema.voteTimes]),
    ])

    private init(pool: PostgresPool) {
        self.pool = pool
    }

    /// Connects to the database at `address` (which must exist), creates or migrates the schema,
    /// and opens a pool of at most `maximumConnections` connections. Throws
    /// ``PostgresStoreError`` at once when the database cannot be reached, refuses the user or
    /// cannot be migrated.
    public static func open(_ address: PostgresAddress, maximumConnections: Int = 10,
                            logger: Logger = Logger(label: "hybrid.patch-server.postgres", factory: { _ in SwiftLogNoOpLogHandler() }))
        async throws -> PostgresPatchStore {
        PostgresPatchStore(pool: try await PostgresPool.open(address, migrator: migrator, maximumConnections: maximumConnections, logger: logger))
    }

    @discardableResult
    func rows(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> [PostgresRow] {
        try await connection.query(query, logger: logger).collect()
    }

    /// One statement's rows, on a pooled connection.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await pool.client.withConnection { connection in try await self.rows(query, on: connection) }
    }

    public func putApp(_ app: String, keys: [String], subject: String, at: String) async throws {
        try await pool.transaction { connection in
            let text = JSONWriter.write(.array(keys.map(JSONValue.string)))
            try await self.rows("INSERT INTO patch_app (app, keys) VALUES (\(app), \(text)) ON CONFLICT (app) DO UPDATE SET keys = excluded.keys",
                                on: connection)
            try await self.audit(app: app, subject: subject, action: "keys", version: nil,
                                 details: "\(keys.count) key(s): \(keys.joined(separator: ", "))", at: at, on: connection)
        }
    }

    public func keys(app: String) async throws -> [String]? {
        guard let text = try await rows("SELECT keys FROM patch_app WHERE app = \(app)").first?.decode(String.self) else { return nil }
        return (try? JSONParser.parse(text))?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    public func publish(_ release: PatchRelease, file: String, sources: [String: String], subject: String, at: String) async throws {
        try await pool.transaction { connection in
            let inserted = try await self.rows("""
                INSERT INTO patch_release (app, patchVersion, baseVersion, channel, rollout, haltAbove, minDevices, state, file, publishedAt)
                VALUES (\(release.app), \(release.patchVersion), \(release.baseVersion), \(release.channel), \(release.rollout),
                        \(release.haltAbove), \(release.minDevices), 'active', \(file), \(at))
                ON CONFLICT (app, patchVersion) DO NOTHING RETURNING 1
                """, on: connection)
            guard !inserted.isEmpty else {
                throw PatchServerError(409, "exists", "patch.patchVersion: \(release.patchVersion) is already published for \(release.app); sign a new version")
            }
            for (module, source) in sources {
                let sha256 = SignedPatch.sha256(source)
                try await self.rows("""
                    INSERT INTO patch_source (app, module, sha256, source) VALUES (\(release.app), \(module), \(sha256), \(source))
                    ON CONFLICT DO NOTHING
                    """, on: connection)
            }
            try await self.audit(app: release.app, subject: subject, action: "publish", version: release.patchVersion,
                                 details: PatchSchema.publishDetails(release), at: at, on: connection)
        }
    }

    public func release(app: String, patchVersion: Int) async throws -> PatchRelease? {
        try await rows("SELECT \(unescaped: PatchSchema.releaseColumns) FROM patch_release WHERE app = \(app) AND patchVersion = \(patchVersion)")
            .first.map(Self.release)
    }

    public func update(_ release: PatchRelease, expecting expected: PatchRelease.State, action: String, details: String, subject: String,
                       at: String) async throws -> Bool {
        try await pool.transaction { connection in
            let changed = try await self.rows("""
                UPDATE patch_release SET rollout = \(release.rollout), state = \(release.state.rawValue), haltReason = \(release.haltReason),
                    haltedBy = \(release.haltedBy)
                WHERE app = \(release.app) AND patchVersion = \(release.patchVersion) AND state = \(expected.rawValue) RETURNING 1
                """, on: connection)
            guard !changed.isEmpty else { return false }
            try await self.audit(app: release.app, subject: subject, action: action, version: release.patchVersion, details: details, at: at,
                                 on: connection)
            return true
        }
    }

    public func addRevocation(app: String, patchVersion: Int, revocation: String, subject: String, reason: String, at: String) async throws {
        try await pool.transaction { connection in
            try await self.rows("""
                INSERT INTO patch_revocation (app, patchVersion, revocation) VALUES (\(app), \(patchVersion), \(revocation))
                ON CONFLICT (app, patchVersion) DO UPDATE SET revocation = excluded.revocation
                """, on: connection)
            try await self.rows("UPDATE patch_release SET state = 'revoked' WHERE app = \(app) AND patchVersion = \(patchVersion)", on: connection)
            try await self.audit(app: app, subject: subject, action: "revoke", version: patchVersion, details: reason, at: at, on: connection)
        }
    }

    public func candidates(app: String, channel: String, baseVersion: String, above: Int) async throws -> [PatchRelease] {
        try await rows("""
            SELECT \(unescaped: PatchSchema.releaseColumns) FROM patch_release
            WHERE app = \(app) AND channel = \(channel) AND baseVersion = \(baseVersion) AND patchVersion > \(above) AND state = 'active'
            ORDER BY patchVersion DESC
            """).map(Self.release)
    }

    public func file(app: String, patchVersion: Int) async throws -> String? {
        try await rows("SELECT file FROM patch_release WHERE app = \(app) AND patchVersion = \(patchVersion)").first?.decode(String.self)
    }

    public func source(app: String, module: String, sha256: String) async throws -> String? {
        try await rows("SELECT source FROM patch_source WHERE app = \(app) AND module = \(module) AND sha256 = \(sha256)").first?.decode(String.self)
    }

    public func revocations(app: String) async throws -> [String] {
        try await rows("SELECT revocation FROM patch_revocation WHERE app = \(app) ORDER BY patchVersion").map { try $0.decode(String.self) }
    }

    public func vote(app: String, patchVersion: Int, deviceId: String, event: String, reason: String?, at: Int) async throws -> Bool {
        // One statement, so one round trip (every check writes its `offered` vote): the primary key
        // (app, patchVersion, deviceId, event) counts a vote once, whichever instance inserts it
        // first, and a confirmation or rollback is inserted only beside the device's `applied`.
        let needsApplied = event == "confirmed" || event == "rolledBack"
        return try await !rows("""
            INSERT INTO patch_vote (app, patchVersion, deviceId, event, reason, at)
            SELECT \(app), \(patchVersion), \(deviceId), \(event), \(reason), \(at)
            WHERE NOT \(needsApplied) OR EXISTS (
                SELECT 1 FROM patch_vote WHERE app = \(app) AND patchVersion = \(patchVersion) AND deviceId = \(deviceId) AND event = 'applied')
            ON CONFLICT DO NOTHING RETURNING 1
            """).isEmpty
    }

    public func rollbackFigures(app: String, patchVersion: Int) async throws -> (applied: Int, rolledBack: Int) {
        let funnel = try await funnel(app: app, patchVersion: patchVersion)
        return (funnel.applied, funnel.rolledBack)
    }

    public func funnel(app: String, patchVersion: Int) async throws -> PatchFunnel {
        // One snapshot for both reads, as SQLite's read transaction is.
        try await pool.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
            var funnel = PatchFunnel()
            for row in try await self.rows("""
                SELECT event, COUNT(*) FROM patch_vote WHERE app = \(app) AND patchVersion = \(patchVersion) GROUP BY event
                """, on: connection) {
                let (event, count) = try row.decode((String, Int).self)
                funnel.set(event, count)
            }
            for row in try await self.rows("""
                SELECT COALESCE(reason, '(none)'), COUNT(*) FROM patch_vote
                WHERE app = \(app) AND patchVersion = \(patchVersion) AND event = 'rolledBack' GROUP BY 1
                """, on: connection) {
                let (reason, count) = try row.decode((String, Int).self)
                funnel.reasons[reason] = count
            }
            return funnel
        }
    }

    public func releases(app: String) async throws -> [PatchRelease] {
        try await rows("SELECT \(unescaped: PatchSchema.releaseColumns) FROM patch_release WHERE app = \(app) ORDER BY patchVersion DESC")
            .map(Self.release)
    }

    public func audit(app: String) async throws -> [PatchAuditEntry] {
        try await rows("SELECT at, subject, action, patchVersion, details FROM patch_audit WHERE app = \(app) ORDER BY id").map { row in
            let (at, subject, action, version, details) = try row.decode((String, String, String, Int?, String).self)
            return PatchAuditEntry(at: at, subject: subject, action: action, patchVersion: version, details: details)
        }
    }

    public func apps() async throws -> [String] {
        try await rows("SELECT app FROM patch_app ORDER BY app").map { try $0.decode(String.self) }
    }

    public func timeline(app: String, patchVersion: Int) async throws -> [PatchTimelineMinute] {
        PatchTimelineMinute.merge(try await rows("""
            SELECT at / 60, event, COUNT(*) FROM patch_vote
            WHERE app = \(app) AND patchVersion = \(patchVersion) AND event IN ('confirmed', 'rolledBack') AND at IS NOT NULL
            GROUP BY 1, 2 ORDER BY 1
            """).map { try $0.decode((Int, String, Int).self) })
    }

    public var kind: String { "postgres" }

    public func ping() async throws {
        _ = try await rows("SELECT 1")
    }

    public func close() async {
        await pool.close()
    }

    static func release(_ row: PostgresRow) throws -> PatchRelease {
        let (app, version, base, channel, rollout, haltAbove, minDevices, state, haltReason, haltedBy)
            = try row.decode((String, Int, String, String, Double, Double, Int, String, String?, String?).self)
        return PatchRelease(app: app, patchVersion: version, baseVersion: base, channel: channel, rollout: rollout, haltAbove: haltAbove,
                            minDevices: minDevices, state: PatchRelease.State(rawValue: state) ?? .halted, haltReason: haltReason, haltedBy: haltedBy)
    }

    func audit(app: String, subject: String, action: String, version: Int?, details: String, at: String, on connection: PostgresConnection) async throws {
        try await rows("""
            INSERT INTO patch_audit (app, at, subject, action, patchVersion, details)
            VALUES (\(app), \(at), \(subject), \(action), \(version), \(details))
            """, on: connection)
    }
}
