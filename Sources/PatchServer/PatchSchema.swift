/// The patch server's tables, in SQL both SQLite and PostgreSQL take, but for the audit log's id
/// (SQLite's rowid alias, PostgreSQL's identity column) and the text of app names (sorted by bytes
/// in both: PostgreSQL's "C" collation).
enum PatchSchema {
    /// SQLite's first migration.
    static let statements = tables(auditId: "INTEGER PRIMARY KEY", text: "TEXT")

    static func tables(auditId: String, text: String) -> [String] {
        [
            "CREATE TABLE patch_app (app \(text) PRIMARY KEY NOT NULL, keys TEXT NOT NULL)",
            """
            CREATE TABLE patch_release (app TEXT NOT NULL, patchVersion INTEGER NOT NULL, baseVersion TEXT NOT NULL, channel TEXT NOT NULL,
                rollout DOUBLE PRECISION NOT NULL, haltAbove DOUBLE PRECISION NOT NULL, minDevices INTEGER NOT NULL, state TEXT NOT NULL,
                haltReason TEXT, haltedBy TEXT, file TEXT NOT NULL, publishedAt TEXT NOT NULL, PRIMARY KEY (app, patchVersion))
            """,
            "CREATE TABLE patch_source (app TEXT NOT NULL, module TEXT NOT NULL, sha256 TEXT NOT NULL, source TEXT NOT NULL, PRIMARY KEY (app, module, sha256))",
            "CREATE TABLE patch_revocation (app TEXT NOT NULL, patchVersion INTEGER NOT NULL, revocation TEXT NOT NULL, PRIMARY KEY (app, patchVersion))",
            """
            CREATE TABLE patch_vote (app TEXT NOT NULL, patchVersion INTEGER NOT NULL, deviceId TEXT NOT NULL, event TEXT NOT NULL, reason TEXT,
                PRIMARY KEY (app, patchVersion, deviceId, event))
            """,
            """
            CREATE TABLE patch_audit (id \(auditId), app TEXT NOT NULL, at TEXT NOT NULL, subject TEXT NOT NULL, action TEXT NOT NULL,
                patchVersion INTEGER, details TEXT NOT NULL)
            """,
        ]
    }

    /// A publication's audit entry.
    static func publishDetails(_ release: PatchRelease) -> String {
        "channel \(release.channel), base \(release.baseVersion), rollout \(percent(release.rollout))%, "
            + "halt above \(percent(release.haltAbove))% of at least \(release.minDevices) devices"
    }

    /// When each vote was cast, in seconds since 1970 (null for votes of a store made before).
    static let voteTimes = "ALTER TABLE patch_vote ADD COLUMN at BIGINT"

    /// A patch's confirmations and rollbacks by minute.
    static let timeline = """
        SELECT at / 60 AS minute, event, COUNT(*) AS n FROM patch_vote
        WHERE app = ? AND patchVersion = ? AND event IN ('confirmed', 'rolledBack') AND at IS NOT NULL
        GROUP BY 1, 2 ORDER BY 1
        """

    /// A release's columns but its file (a patch's sources: read only when an offer is made).
    static let releaseColumns = "app, patchVersion, baseVersion, channel, rollout, haltAbove, minDevices, state, haltReason, haltedBy"

    /// A release's rollout and state, set only while its state is still the one the change was decided on.
    static let update = "UPDATE patch_release SET rollout = ?, state = ?, haltReason = ?, haltedBy = ? WHERE app = ? AND patchVersion = ? AND state = ?"

    static let hasVote = "SELECT 1 FROM patch_vote WHERE app = ? AND patchVersion = ? AND deviceId = ? AND event = ?"

    /// 2.5 as "2.5", 50 as "50".
    static func percent(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

extension PatchFunnel {
    mutating func set(_ event: String, _ count: Int) {
        switch event {
        case "offered": offered = count
        case "downloaded": downloaded = count
        case "applied": applied = count
        case "confirmed": confirmed = count
        case "rolledBack": rolledBack = count
        default: break
        }
    }
}
