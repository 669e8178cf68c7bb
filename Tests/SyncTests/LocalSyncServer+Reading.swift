import GRDB
import HostTesting
import JSON
import SyncServer

/// What a test reads of a server's state behind its back.
extension LocalSyncServer {
    /// How many entries the server's op log holds now.
    func logSize() async throws -> Int {
        if let postgres {
            return Int(try await postgres.rows("SELECT COUNT(*)::text FROM sync_log").first?.first.flatMap { $0 } ?? "") ?? -1
        }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: database, configuration: configuration)
        return try await queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_log") ?? -1 }
    }

    /// The server's materialized rows of `table` that are live, by dataId.
    func liveRows(_ table: String) async throws -> [String: JSONObject] {
        let snapshot = try await server.store.snapshot()
        var rows: [String: JSONObject] = [:]
        for row in snapshot.tables[table] ?? [] where !row.deleted { rows[row.dataId] = row.data }
        return rows
    }
}
