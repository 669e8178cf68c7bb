import Foundation
import JSON
import SyncAuth
import SyncServer

/// The reference server, in-process on an ephemeral port and a fresh file, for one test.
struct RunningSyncServer: Sendable {
    let server: SyncServer
    let port: Int
    let path: String

    var base: String { "http://127.0.0.1:\(port)" }

    /// With a `tokenVerifier`, a server with auth (every device needs a token); without, insecure.
    static func start(holdSeconds: Double = 30, path: String? = nil, tokenVerifier: TokenVerifier? = nil) async throws -> RunningSyncServer {
        let path = path ?? NSTemporaryDirectory() + "sync-client-tests-\(UUID().uuidString).sqlite"
        let server = try SyncServer(configuration: SyncServerConfiguration(databasePath: path, holdSeconds: holdSeconds, tokenVerifier: tokenVerifier))
        return RunningSyncServer(server: server, port: try await server.start(), path: path)
    }

    func stop() async {
        await server.stop()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// The server's materialized rows of `table` that are live, by dataId.
    func liveRows(_ table: String) async throws -> [String: JSONObject] {
        let snapshot = try await server.store.snapshot()
        var rows: [String: JSONObject] = [:]
        for row in snapshot.tables[table] ?? [] where !row.deleted { rows[row.dataId] = row.data }
        return rows
    }
}
