import GRDB
import JSON
import PatchProtocol

/// A patch server's state in one SQLite file (`--db FILE`): one server process. Its writes are
/// one at a time (the file's single writer), so a version published, a vote and a change decided
/// on a state are each checked and written in one write.
public final class SQLitePatchStore: PatchStore {
    /// WAL, synchronous NORMAL: every check writes its `offered` vote, and a commit need not wait for the disk.
    let queue: DatabasePool

    public init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "PatchServer"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        queue = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(queue)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: PatchSchema.statements.joined(separator: ";\n"))
        }
        migrator.registerMigration("v2: vote times") { db in
            try db.execute(sql: PatchSchema.voteTimes)
        }
        return migrator
    }

    public func putApp(_ app: String, keys: [String], subject: String, at: String) async throws {
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO patch_app (app, keys) VALUES (?, ?) ON CONFLICT (app) DO UPDATE SET keys = excluded.keys",
                           arguments: [app, JSONWriter.write(.array(keys.map(JSONValue.string)))])
            try Self.audit(db, app: app, subject: subject, action: "keys", version: nil, details: "\(keys.count) key(s): \(keys.joined(separator: ", "))", at: at)
        }
    }

    public func keys(app: String) async throws -> [String]? {
        try await queue.read { db in
            guard let text = try String.fetchOne(db, sql: "SELECT keys FROM patch_app WHERE app = ?", arguments: [app]) else { return nil }
            return (try? JSONParser.parse(text))?.arrayValue?.compactMap(\.stringValue) ?? []
        }
    }

    public func publish(_ release: PatchRelease, file: String, sources: [String: String], subject: String, at: String) async throws {
        try await queue.write { db in
            if try Int.fetchOne(db, sql: "SELECT 1 FROM patch_release WHERE app = ? AND patchVersion = ?", arguments: [release.app, release.patchVersion]) != nil {
                throw PatchServerError(409, "exists", "patch.patchVersion: \(release.patchVersion) is already published for \(release.app); sign a new version")
            }
            try db.execute(sql: """
                INSERT INTO patch_release (app, patchVersion, baseVersion, channel, rollout, haltAbove, minDevices, state, file, publishedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?, ?)
                """, arguments: [release.app, release.patchVersion, release.baseVersion, release.channel, release.rollout,
                                 release.haltAbove, release.minDevices, file, at])
            for (module, source) in sources {
                try db.execute(sql: "INSERT OR IGNORE INTO patch_source (app, module, sha256, source) VALUES (?, ?, ?, ?)",
                               arguments: [release.app, module, SignedPatch.sha256(source), source])
            }
            try Self.audit(db, app: release.app, subject: subject, action: "publish", version: release.patchVersion,
                           details: PatchSchema.publishDetails(release), at: at)
        }
    }

    public func release(app: String, patchVersion: Int) async throws -> PatchRelease? {
        try await queue.read { db in
            try Row.fetchOne(db, sql: "SELECT \(PatchSchema.releaseColumns) FROM patch_release WHERE app = ? AND patchVersion = ?", arguments: [app, patchVersion]).map(Self.releaseRow)
        }
    }

    public func update(_ release: PatchRelease, expecting expected: PatchRelease.State, action: String, details: String, subject: String,
                       at: String) async throws -> Bool {
        try await queue.write { db in
            try db.execute(sql: PatchSchema.update, arguments: [release.rollout, release.state.rawValue, release.haltReason, release.haltedBy,
                                                                 release.app, release.patchVersion, expected.rawValue])
            guard db.changesCount > 0 else { return false }
            try Self.audit(db, app: release.app, subject: subject, action: action, version: release.patchVersion, details: details, at: at)
            return true
        }
    }

    public func addRevocation(app: String, patchVersion: Int, revocation: String, subject: String, reason: String, at: String) async throws {
        try await queue.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO patch_revocation (app, patchVersion, revocation) VALUES (?, ?, ?)",
                           arguments: [app, patchVersion, revocation])
            try db.execute(sql: "UPDATE patch_release SET state = 'revoked' WHERE app = ? AND patchVersion = ?", arguments: [app, patchVersion])
            try Self.audit(db, app: app, subject: subject, action: "revoke", version: patchVersion, details: reason, at: at)
        }
    }

    public func candidates(app: String, channel: String, baseVersion: String, above: Int) async throws -> [PatchRelease] {
        try await queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(PatchSchema.releaseColumns) FROM patch_release
                WHERE app = ? AND channel = ? AND baseVersion = ? AND patchVersion > ? AND state = 'active'
                ORDER BY patchVersion DESC
                """, arguments: [app, channel, baseVersion, above]).map(Self.releaseRow)
        }
    }

    public func file(app: String, patchVersion: Int) async throws -> String? {
        try await queue.read { db in
            try String.fetchOne(db, sql: "SELECT file FROM patch_release WHERE app = ? AND patchVersion = ?", arguments: [app, patchVersion])
        }
    }

    public func source(app: String, module: String, sha256: String) async throws -> String? {
        try await queue.read { db in
            try String.fetchOne(db, sql: "SELECT source FROM patch_source WHERE app = ? AND module = ? AND sha256 = ?", arguments: [app, module, sha256])
        }
    }

    public func revocations(app: String) async throws -> [String] {
        try await queue.read { db in
            try String.fetchAll(db, sql: "SELECT revocation FROM patch_revocation WHERE app = ? ORDER BY patchVersion", arguments: [app])
        }
    }

    public func vote(app: String, patchVersion: Int, deviceId: String, event: String, reason: String?, at: Int) async throws -> Bool {
        try await queue.write { db in
            if event == "confirmed" || event == "rolledBack" {
                guard try Int.fetchOne(db, sql: PatchSchema.hasVote, arguments: [app, patchVersion, deviceId, "applied"]) != nil else { return false }
            }
            try db.execute(sql: "INSERT OR IGNORE INTO patch_vote (app, patchVersion, deviceId, event, reason, at) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [app, patchVersion, deviceId, event, reason, at])
            return db.changesCount > 0
        }
    }

    public func apps() async throws -> [String] {
        try await queue.read { db in try String.fetchAll(db, sql: "SELECT app FROM patch_app ORDER BY app") }
    }

    public func timeline(app: String, patchVersion: Int) async throws -> [PatchTimelineMinute] {
        try await queue.read { db in
            try PatchTimelineMinute.merge(Row.fetchAll(db, sql: PatchSchema.timeline, arguments: [app, patchVersion]).map { ($0["minute"], $0["event"], $0["n"]) })
        }
    }

    public func rollbackFigures(app: String, patchVersion: Int) async throws -> (applied: Int, rolledBack: Int) {
        let funnel = try await funnel(app: app, patchVersion: patchVersion)
        return (funnel.applied, funnel.rolledBack)
    }

    public func funnel(app: String, patchVersion: Int) async throws -> PatchFunnel {
        try await queue.read { db in
            var funnel = PatchFunnel()
            for row in try Row.fetchAll(db, sql: "SELECT event, COUNT(*) AS n FROM patch_vote WHERE app = ? AND patchVersion = ? GROUP BY event",
                                        arguments: [app, patchVersion]) {
                funnel.set(row["event"], row["n"])
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT COALESCE(reason, '(none)') AS reason, COUNT(*) AS n FROM patch_vote
                WHERE app = ? AND patchVersion = ? AND event = 'rolledBack' GROUP BY 1
                """, arguments: [app, patchVersion]) {
                funnel.reasons[row["reason"]] = row["n"]
            }
            return funnel
        }
    }

    public func releases(app: String) async throws -> [PatchRelease] {
        try await queue.read { db in
            try Row.fetchAll(db, sql: "SELECT \(PatchSchema.releaseColumns) FROM patch_release WHERE app = ? ORDER BY patchVersion DESC", arguments: [app]).map(Self.releaseRow)
        }
    }

    public func audit(app: String) async throws -> [PatchAuditEntry] {
        try await queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM patch_audit WHERE app = ? ORDER BY id", arguments: [app]).map {
                PatchAuditEntry(at: $0["at"], subject: $0["subject"], action: $0["action"], patchVersion: $0["patchVersion"], details: $0["details"])
            }
        }
    }

    public var kind: String { "sqlite" }

    public func ping() async throws {
        _ = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    public func close() async {
        try? queue.close()
    }

    static func releaseRow(_ row: Row) -> PatchRelease {
        PatchRelease(app: row["app"], patchVersion: row["patchVersion"], baseVersion: row["baseVersion"], channel: row["channel"],
                     rollout: row["rollout"], haltAbove: row["haltAbove"], minDevices: row["minDevices"],
                     state: PatchRelease.State(rawValue: row["state"]) ?? .halted, haltReason: row["haltReason"], haltedBy: row["haltedBy"])
    }

    static func audit(_ db: Database, app: String, subject: String, action: String, version: Int?, details: String, at: String) throws {
        try db.execute(sql: "INSERT INTO patch_audit (app, at, subject, action, patchVersion, details) VALUES (?, ?, ?, ?, ?, ?)",
                       arguments: [app, at, subject, action, version, details])
    }
}
